// The painting game on arena play's page (views/paint.py names this file): click the cells of a
// region to pick them (again: to unpick one), then paint them (Enter); Escape unpicks them all.
(function () {
  const picked = new Set();
  function text(play) {
    const n = play.frame().grids[0].cols, cells = Array.from(picked).sort((a, b) => a - b);
    return cells.length + '\n' + cells.map((k) => Math.floor(k / n) + ' ' + (k % n) + '\n').join('');
  }
  async function paint(play) {
    if (!picked.size || !play.yourTurn()) return;
    if (await play.submit(text(play))) picked.clear();
    play.redraw();
  }
  function clear(play) { picked.clear(); play.redraw(); }
  arenaPlay.use({
    buttons: [['paint', 'paint the picked cells (Enter)', paint], ['unpick', 'unpick every cell (Escape)', clear]],
    cell(grid, k, play) {
      if (!play.yourTurn()) return;
      if (picked.has(k)) picked.delete(k); else picked.add(k);
      play.redraw();
    },
    key(e, play) {
      if (e.key === 'Enter') { paint(play); return true; }
      if (e.key === 'Escape') { clear(play); return true; }
      return false;
    },
    drawn(play) {
      play.cells(0).forEach((sq) => sq.firstChild.classList.toggle('picked', picked.has(Number(sq.dataset.i))));
      play.say(picked.size ? picked.size + ' cell' + (picked.size === 1 ? '' : 's') + ' picked: paint them (Enter)'
                           : 'pick the cells of a region: a number and as many cells, joined side by side');
    },
  });
})();
