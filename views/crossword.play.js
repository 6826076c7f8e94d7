// The crossword on arena play's page (views/crossword.py names this file), PVE and PVP alike.  An action
// is typed: click a cell to put the cursor there (click it again, or Space, to turn the way it moves:
// along the row, down the column, down-right, up-right), type its letters (the cursor steps over letters
// already on the board), then the words you claim in the box, and Enter plays it.  The referee judges
// it: where it finds a formed word on the action's line that you did not claim, it says so, and the word
// is added to your box for you to play again.  Backspace takes back the last letter typed (with none
// typed, in PVE, the last action of the plan); Escape drops the typed letters; the arrow keys move the
// cursor.  PVE sends the whole plan so far with each action; PVP sends the one action, or a pass.
(function () {
  const SIZE = 20;
  const WAYS = [[0, 1, '→', 'along the row'], [1, 0, '↓', 'down the column'],
                [1, 1, '↘', 'down-right'], [-1, 1, '↗', 'up-right']];
  let cursor = null, way = 0, typed = [], added = '';  // typed: [[cell, letter], ...] in the order typed
  const words = document.createElement('input');
  words.id = 'words';
  words.placeholder = 'the words you claim: CAT TEA';
  words.setAttribute('aria-label', 'the words you claim');
  words.autocomplete = 'off';
  words.spellcheck = false;

  const onBoard = (x, y) => x >= 0 && x < SIZE && y >= 0 && y < SIZE;
  const letterOn = (play, k) => play.frame().grids[0].cells[k][3] === '-' ? '' : play.frame().grids[0].cells[k][0];
  const claimed = () => words.value.toUpperCase().split(/[^A-Z]+/).filter(Boolean);
  function step(k, by) {  // the next cell from k along the cursor's way (by: 1 on, -1 back), or null
    const x = Math.floor(k / SIZE) + by * WAYS[way][0], y = k % SIZE + by * WAYS[way][1];
    return onBoard(x, y) ? x * SIZE + y : null;
  }
  // The plan so far (PVE), read from its game.out text: [{fills: [[x, y, letter], ...], words: [...]}, ...]
  function actions(text) {
    const t = text.split(/\s+/).filter(Boolean), list = [];
    let i = 1;
    for (let a = 0; a < Number(t[0] || 0); a++) {
      const m = Number(t[i++]), fills = [];
      for (let j = 0; j < m; j++, i += 3) fills.push([t[i], t[i + 1], t[i + 2]]);
      const n = Number(t[i++]);
      list.push({fills: fills, words: t.slice(i, i + n)});
      i += n;
    }
    return list;
  }
  // As the referee writes them (Action.to_text, Plan.to_text)
  const actionText = (a) => a.fills.length + '\n' + a.fills.map((f) => f.join(' ') + '\n').join('')
                            + a.words.length + '\n' + a.words.map((w) => w + '\n').join('');
  const planText = (list) => list.length + '\n' + list.map(actionText).join('');

  async function act(play) {
    if (!play.yourTurn() || !typed.length) return;
    const action = {fills: typed.map(([k, c]) => [Math.floor(k / SIZE), k % SIZE, c]), words: claimed()};
    const text = play.state().oneShot ? planText([...actions(play.plan()), action]) : '1\n' + actionText(action);
    added = '';
    if (await play.submit(text)) {
      typed = [];
      cursor = null;
      words.value = '';
      words.blur();  // the keys are the board's again
    } else {
      // the referee names one formed word at a time: add it to the box, for the person to play again
      const named = /formed word '([A-Z]+)' on .* is not declared/.exec(play.refusal());
      added = named && !claimed().includes(named[1]) ? named[1] : '';
      if (added) words.value = [...claimed(), added].join(' ');
    }
    play.redraw();
  }
  function type(play, letter) {
    while (cursor !== null && letterOn(play, cursor)) cursor = step(cursor, 1);  // over the board's letters
    if (cursor === null) return;
    typed = typed.filter(([k]) => k !== cursor);
    typed.push([cursor, letter]);
    cursor = step(cursor, 1);
    play.redraw();
  }
  function back(play) {
    if (typed.length) {
      cursor = typed.pop()[0];
      play.redraw();
    } else if (play.state().oneShot && play.yourTurn() && actions(play.plan()).length) {
      play.submit(planText(actions(play.plan()).slice(0, -1)));
    }
  }
  function drop(play) { typed = []; play.redraw(); }
  function turn(play) { way = (way + 1) % WAYS.length; play.redraw(); }
  function pass(play) { if (play.yourTurn() && !play.state().oneShot) play.submit('0\n'); }

  arenaPlay.use({
    buttons: [['play', 'play the typed letters and the words claimed (Enter)', act],
              ['turn ↻', 'turn the way the cursor moves (Space, or click its cell again)', turn],
              ['⌫ back', 'take back the last letter typed; with none, the plan\'s last action (Backspace)', back],
              ['drop', 'drop the typed letters (Escape)', drop],
              ['pass', 'pass (PVP): the game ends when the second player passes', pass]],
    cell(grid, k, play) {
      if (!play.yourTurn()) return;
      if (cursor === k) turn(play);
      else { cursor = k; play.redraw(); }
    },
    key(e, play) {
      if (!play.yourTurn() || e.ctrlKey || e.metaKey || e.altKey) return false;
      if (/^[a-zA-Z]$/.test(e.key)) { type(play, e.key.toUpperCase()); return true; }
      if (e.key === 'Enter') { act(play); return true; }
      if (e.key === 'Backspace') { back(play); return true; }
      if (e.key === 'Escape') { drop(play); return true; }
      if (e.key === ' ') { turn(play); return true; }
      const arrow = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]}[e.key];
      if (arrow && cursor !== null) {
        const x = Math.floor(cursor / SIZE) + arrow[0], y = cursor % SIZE + arrow[1];
        if (onBoard(x, y)) { cursor = x * SIZE + y; play.redraw(); }
        return true;
      }
      return false;
    },
    drawn(play) {
      const mine = play.yourTurn() && play.latest(), letters = new Map(typed);
      play.cells(0).forEach((sq) => {
        const k = Number(sq.dataset.i), c = sq.firstChild;
        c.classList.toggle('picked', mine && k === cursor);
        c.classList.toggle('cursor', mine && k === cursor);  // (its arrow: crossword.css)
        c.dataset.way = mine && k === cursor ? WAYS[way][2] : '';
        if (mine && letters.has(k)) {
          c.textContent = letters.get(k);
          c.classList.add('typed', 'letter');
        }
      });
      const box = document.getElementById('controls');
      if (!box.contains(words)) box.append(words);
      for (const b of box.querySelectorAll('button')) {
        if (b.textContent === 'pass') b.hidden = play.state().oneShot;
      }
      const so = typed.length + ' letter' + (typed.length === 1 ? '' : 's') + ' typed, the cursor moving '
                 + WAYS[way][3] + ': ';
      play.say(added ? 'the referee finds ' + added + ' formed on the action\'s line and not claimed: it is in '
                       + 'your box now; Enter plays the action again'
               : so + (cursor === null && !typed.length ? 'click a cell to start an action'
                       : 'type the letters, the words you claim in the box, then Enter to play them'));
    },
  });
  words.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') { e.preventDefault(); act(arenaPlay); }
  });
})();
