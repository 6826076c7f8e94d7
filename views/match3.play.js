// Match-3 on arena play's page (views/match3.py names this file): click a piece, then a piece beside it
// (sharing a side) to swap them: the plan so far with that swap ("x1 y1 x2 y2", rows and columns from 1)
// is sent whole, and saved when the referee accepts it.  A click on a piece not beside the picked one
// picks it instead; Escape unpicks; Backspace takes the last swap back; finish the plan when it is done.
(function () {
  let picked = null;  // the first piece of the swap: its cell's index
  const swaps = (play) => play.plan().trim();
  const count = (play) => (swaps(play) ? swaps(play).split('\n').length : 0);
  const beside = (a, b, n) => Math.abs(a - b) === n || (Math.abs(a - b) === 1 && Math.floor(a / n) === Math.floor(b / n));
  const where = (k, n) => (Math.floor(k / n) + 1) + ' ' + (k % n + 1);
  async function swap(play, a, b) {
    const n = play.frame().grids[0].cols, plan = swaps(play);
    picked = null;
    await play.submit((plan ? plan + '\n' : '') + where(a, n) + ' ' + where(b, n) + '\n');
    play.redraw();
  }
  function unpick(play) { picked = null; play.redraw(); }
  function back(play) {
    if (!play.yourTurn() || !swaps(play)) return;
    picked = null;
    play.submit(swaps(play).split('\n').slice(0, -1).map((line) => line + '\n').join('') || '\n');
  }
  arenaPlay.use({
    buttons: [['unpick', 'unpick the picked piece (Escape)', unpick],
              ['⌫ back', 'take the last swap back (Backspace)', back]],
    cell(grid, k, play) {
      if (!play.yourTurn()) return;
      const n = play.frame().grids[0].cols;
      if (picked === k) unpick(play);
      else if (picked !== null && beside(picked, k, n)) swap(play, picked, k);
      else { picked = k; play.redraw(); }
    },
    key(e, play) {
      if (e.key === 'Escape') { unpick(play); return true; }
      if (e.key === 'Backspace') { back(play); return true; }
      return false;
    },
    drawn(play) {
      play.cells(0).forEach((sq) => sq.firstChild.classList.toggle('picked', Number(sq.dataset.i) === picked));
      const done = count(play), so = done + ' swap' + (done === 1 ? '' : 's') + ' so far: ';
      const n = play.frame().grids[0].cols;
      play.say(so + (picked === null ? 'click a piece, then a piece beside it to swap them; Backspace takes one back'
                                     : 'picked (' + where(picked, n).replace(' ', ', ') + '): click a piece beside '
                                       + 'it to swap them, Escape unpicks'));
    },
  });
})();
