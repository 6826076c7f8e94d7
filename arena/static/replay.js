// The replay page's script (arena/templates/replay.html): the steps of a game, drawn from its JSON.
(function () {
  const data = JSON.parse(document.getElementById('replay-data').textContent);
  // Frames are stored as changes to the previous one's grids: rebuild them whole.
  const frames = [];
  data.steps.forEach((step, i) => {
    const grids = step.grids.map((g, j) => {
      if (!g.d) return g;
      const prev = frames[i - 1].grids[j];
      const cells = prev.cells.slice();
      g.d.forEach(([k, cell]) => { cells[k] = cell; });
      return {title: g.title, cols: prev.cols, origin: prev.origin, cells: cells};
    });
    frames.push(Object.assign({}, step, {grids: grids}));
  });
  const $ = (id) => document.getElementById(id);
  const slider = $('slider');
  slider.max = frames.length - 1;
  let at = 0, timer = null;

  // Fit the boards to the window both ways: beside the panel where the window is wide enough,
  // above it otherwise, and never taller than the room under the controls.  Of the ways to lay
  // out a step's grids (1, 2, ... to a row), the one with the largest cells; a grid costs
  // about 30 px across (its row labels and border) and 50 px down (title, column labels, border)
  // besides its cells, each 1 px more than its size (the gap), and 18 px between grids.
  function cellSize(g, count) {
    const rows = Math.ceil(g.cells.length / g.cols);
    const beside = window.innerWidth >= 1000;
    const width = window.innerWidth - 48 - (beside ? 380 : 0);
    const top = $('boards').getBoundingClientRect().top + window.scrollY;
    const height = Math.max(200, window.innerHeight - top - 70);
    let best = 0;
    for (let perRow = 1; perRow <= count; perRow++) {
      const stacks = Math.ceil(count / perRow);
      const across = ((width - 18 * (perRow - 1)) / perRow - 30) / g.cols;
      const down = ((height - 18 * (stacks - 1)) / stacks - 50) / rows;
      best = Math.max(best, Math.min(across, down));
    }
    return Math.max(6, Math.min(44, Math.floor(best) - 1));
  }
  function drawGrid(g, count) {
    const box = document.createElement('div');
    box.className = 'gridbox';
    const title = document.createElement('div');
    title.className = 'title';
    title.textContent = g.title;
    const grid = document.createElement('div');
    grid.className = 'grid';
    const size = cellSize(g, count);
    grid.style.setProperty('--cell', size + 'px');
    grid.style.gridTemplateColumns = 'repeat(' + g.cols + ', var(--cell))';
    // coordinates as the game counts them: rows down the left, columns along the top
    const origin = g.origin || 0, rows = Math.ceil(g.cells.length / g.cols);
    const framed = document.createElement('div');
    framed.className = 'framed';
    framed.style.setProperty('--cell', size + 'px');
    framed.style.gridTemplateColumns = '22px auto';
    // a column's label is written upwards where its digits are wider than the column
    const labelWidth = String(origin + g.cols - 1).length * Math.min(11, size + 1) * 0.62;
    const up = labelWidth > size + 1;
    framed.style.gridTemplateRows = (up ? Math.ceil(labelWidth) + 6 : 16) + 'px auto';
    const cols = document.createElement('div');
    cols.style.display = 'grid';
    cols.style.gridTemplateColumns = 'repeat(' + g.cols + ', ' + size + 'px)';
    cols.style.gap = '1px';
    cols.style.padding = '0 2px';
    for (let c = 0; c < g.cols; c++) {
      const l = document.createElement('div'); l.className = up ? 'lab col up' : 'lab col'; l.textContent = origin + c;
      cols.appendChild(l);
    }
    const rowLabels = document.createElement('div');
    rowLabels.style.display = 'grid';
    rowLabels.style.gridTemplateRows = 'repeat(' + rows + ', ' + size + 'px)';
    rowLabels.style.gap = '1px';
    rowLabels.style.padding = '2px 0';
    for (let r = 0; r < rows; r++) {
      const l = document.createElement('div'); l.className = 'lab row'; l.textContent = origin + r;
      rowLabels.appendChild(l);
    }
    framed.append(document.createElement('div'), cols, rowLabels, grid);
    g.cells.forEach((cell, k) => {
      const [text = '', fill = '', classes = '', key] = cell;
      const sq = document.createElement('div');
      sq.className = 'sq';
      const c = document.createElement('div');
      c.className = 'c ' + classes;
      c.textContent = text;
      c.dataset.k = key === undefined ? text : key;
      if (fill) c.style.background = fill;
      sq.appendChild(c);
      grid.appendChild(sq);
    });
    box.append(title, framed);
    return box;
  }
  function show(i) {
    at = Math.max(0, Math.min(frames.length - 1, i));
    const f = frames[at];
    const boards = $('boards');
    boards.replaceChildren(...f.grids.map((g) => drawGrid(g, f.grids.length)));
    boards.dataset.step = at;
    slider.value = at;
    const m = f.move === undefined ? null : data.moves[f.move];
    // per-move games count moves as the game does (an opening's too); a plan's steps are its operations
    const last = data.moves.length ? data.moves[data.moves.length - 1].number : data.first;
    $('counter').textContent = data.plan ? 'step ' + at + ' / ' + (frames.length - 1)
        : 'move ' + (m ? m.number : data.first) + ' / ' + last;
    $('label').textContent = f.label;
    $('who').textContent = m ? ((data.plan ? 'the plan of ' : 'move ' + m.number + ' · ') + m.bot + ' · ' +
        m.verdict + ' · CPU ' +
        m.cpu.toFixed(3) + ' s · wall ' + m.wall.toFixed(3) + ' s' +
        (m.wait ? ' (' + m.wait.toFixed(3) + ' s waiting for a core)' : '')) : 'before the first move';
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
