// The replay page's script (arena/templates/replay.html): the steps of a game, drawn from its JSON.
(function () {
  const data = JSON.parse(document.getElementById('replay-data').textContent);
  const frames = arenaGrid.frames(data);
  const $ = (id) => document.getElementById(id);
  const slider = $('slider');
  slider.max = frames.length - 1;
  let at = 0, timer = null;

  function show(i) {
    at = Math.max(0, Math.min(frames.length - 1, i));
    const f = frames[at];
    const boards = $('boards');
    boards.replaceChildren(...f.grids.map((g) => arenaGrid.draw(g, f.grids.length)));
    boards.dataset.step = at;
    slider.value = at;
    const m = f.move === undefined ? null : data.moves[f.move];
    $('counter').textContent = arenaGrid.counter(data, m, at, frames.length);
    $('label').textContent = f.label;
    $('who').textContent = arenaGrid.who(data, m);
    $('who').className = m && m.verdict !== 'ok' ? 'bad' : '';
    $('notes').replaceChildren(...f.notes.map((n) => { const li = document.createElement('li');
                                                       li.textContent = n; return li; }));
    $('fault').hidden = !(m && m.message);
    $('fault').textContent = m && m.message ? m.verdict + ': ' + m.message : '';
    const out = $('output');
    out.replaceChildren();
    if (m) for (const [name, key] of [['game.out', 'output'], ['stdout', 'stdout'], ['stderr', 'stderr']]) {
      const text = m[key];
      if (!text) continue;
      const d = document.createElement('details');
      if (name !== 'game.out' || m.verdict !== 'ok') d.open = true;
      const s = document.createElement('summary');
      s.textContent = name + ' (' + (m.sizes[key] ?? text.length) + ' characters)';
      const pre = document.createElement('pre');
      pre.textContent = text;
      d.append(s, pre);
      out.appendChild(d);
    }
    $('result').hidden = at !== frames.length - 1;
  }
  function play() {
    if (timer) { clearInterval(timer); timer = null; $('play').textContent = '▶ play'; return; }
    if (at === frames.length - 1) show(0);
    $('play').textContent = '❚❚ pause';
    timer = setInterval(() => { show(at + 1); if (at >= frames.length - 1) play(); },
                        Number($('speed').value));
  }
  $('first').onclick = () => show(0);
  $('prev').onclick = () => show(at - 1);
  $('next').onclick = () => show(at + 1);
  $('last').onclick = () => show(frames.length - 1);
  $('play').onclick = play;
  $('speed').onchange = () => { if (timer) { play(); play(); } };
  slider.oninput = () => show(Number(slider.value));
  document.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
    const keys = {ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: frames.length - 1};
    if (e.key in keys) { e.preventDefault(); show(keys[e.key]); }
    else if (e.key === ' ') { e.preventDefault(); play(); }
  });
  window.replay = {show: show, step: () => at, count: frames.length};
  function fromHash() {  // #end, or #N for step N
    const wanted = location.hash.slice(1);
    show(wanted === 'end' ? frames.length - 1 : Number(wanted) || 0);
  }
  window.addEventListener('hashchange', fromHash);
  window.addEventListener('resize', () => show(at));
  fromHash();
})();
