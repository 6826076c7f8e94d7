// arena play's page (arena/templates/play.html): the game so far, drawn as a replay is (grid.js), and
// the person's moves sent to the arena, whose referee judges them.  A game's controls (the script its
// view names as its 'controls') call arenaPlay.use({...}) with any of:
//   buttons: [[label, title, fn(play)], ...]   buttons under the board
//   cell(grid, index, play)                    a click on a cell (grid: which grid of the step)
//   key(event, play) -> true                   a key the controls took
//   drawn(play)                                the step was drawn (to mark what is picked)
// and play (this object) gives them: state(), frame() (the step shown), latest() (whether it is the
// game as it stands), plan() (a one-shot game's plan so far), yourTurn(), submit(text) (a move, or the
// whole plan so far, as game.out text: resolves to true when the referee accepted it), refusal() (the
// referee's words for the last refused one, or ''), finish(), redraw(), cells(grid) (its squares:
// dataset.i is a cell's index) and say(text).  Without controls the text box takes game.out text.
window.arenaPlay = (function () {
  const $ = (id) => document.getElementById(id);
  const base = location.pathname.replace(/\/+$/, '');
  const boards = $('boards');
  let state = null, frames = [], at = 0, controls = {}, busy = false, refused = '';
  const play = {
    use(given) { controls = given; buttons(); if (state) show(at); },
    state: () => state,
    frame: () => frames[at],
    latest: () => at === frames.length - 1,
    plan: () => (state && state.plan) || '',
    yourTurn: () => !!state && state.turn === 'you' && !busy,
    submit: (text) => post('move', text),
    refusal: () => refused,
    finish: () => post('finish', ''),
    redraw: () => show(at),
    cells: (grid) => Array.from(boards.children[grid] ? boards.children[grid].querySelectorAll('.sq') : []),
    say(text) { $('hint').textContent = text; },
  };

  async function post(path, text) {
    if (busy) return false;
    busy = true;
    try {
      const answer = await (await fetch(base + '/' + path, {method: 'POST', body: JSON.stringify({text: text}),
                                                            headers: {'Content-Type': 'application/json'}})).json();
      refused = answer.refused || '';
      $('refused').hidden = !answer.refused;
      $('refused').textContent = answer.refused ? 'refused: ' + answer.refused : '';
      busy = false;
      if (answer.ok) await refresh();
      return !!answer.ok;
    } finally {
      busy = false;
    }
  }
  async function refresh() {
    state = await (await fetch(base + '/state')).json();
    frames = arenaGrid.frames(state.replay);
    show(frames.length - 1);
    if (state.turn === 'bot') setTimeout(refresh, 250);
  }
  function show(i) {
    if (!frames.length) return;
    at = Math.max(0, Math.min(frames.length - 1, i));
    const f = frames[at], data = state.replay;
    boards.replaceChildren(...f.grids.map((g) => arenaGrid.draw(g, f.grids.length)));
    boards.dataset.step = at;
    $('slider').max = frames.length - 1;
    $('slider').value = at;
    const m = f.move === undefined ? null : data.moves[f.move];
    $('counter').textContent = arenaGrid.counter(data, m, at, frames.length);
    $('label').textContent = f.label;
    $('who').textContent = arenaGrid.who(data, m);
    $('who').className = m && m.verdict !== 'ok' ? 'bad' : '';
    $('notes').replaceChildren(...f.notes.map((n) => { const li = document.createElement('li');
                                                       li.textContent = n; return li; }));
    $('fault').hidden = !(m && m.message);
    $('fault').textContent = m && m.message ? m.verdict + ': ' + m.message : '';
    const turn = $('turn');
    turn.dataset.turn = state.turn;
    turn.textContent = state.turn === 'over' ? 'Result: ' + state.result
        : state.turn === 'you' ? (state.oneShot ? 'your plan: play its operations, then finish it' : 'your move')
        : state.oneShot ? 'the plan is being recorded' : 'the bot is thinking…';
    $('finish').hidden = !state.oneShot || state.turn !== 'you';
    $('entry').hidden = state.turn !== 'you';
    $('controls').hidden = $('hint').hidden = state.turn === 'over';
    if (controls.drawn) controls.drawn(play);
  }
  function buttons() {
    $('controls').replaceChildren(...(controls.buttons || []).map(([label, title, fn]) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.title = title;
      b.onclick = () => fn(play);
      return b;
    }));
  }
  boards.addEventListener('click', (e) => {
    const sq = e.target.closest('.sq');
    if (!sq || !controls.cell) return;
    const grid = Array.from(boards.children).indexOf(sq.closest('.gridbox'));
    if (at !== frames.length - 1) show(frames.length - 1);  // moves are made on the game as it stands
    controls.cell(grid, Number(sq.dataset.i), play);
  });
  document.addEventListener('keydown', (e) => {
    if (['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON'].includes(e.target.tagName) && e.target.type !== 'range') return;
    if (controls.key && controls.key(e, play)) e.preventDefault();
  });
  $('entry').addEventListener('submit', async (e) => {
    e.preventDefault();
    if (await play.submit($('text').value)) $('text').value = '';
  });
  $('finish').onclick = () => play.finish();
  $('slider').oninput = () => show(Number($('slider').value));
  window.addEventListener('resize', () => show(at));
  refresh();
  return play;
})();
