// Connect Four on arena play's page (view.py names this file): a click on any cell of a column drops
// a disc into it; the keys 1 to 9 name a column too.
arenaPlay.use({
  cell(grid, k, play) {
    if (play.yourTurn()) play.submit((k % play.frame().grids[grid].cols + 1) + '\n');
  },
  key(e, play) {
    if (!/^[1-9]$/.test(e.key)) return false;
    if (play.yourTurn()) play.submit(e.key + '\n');
    return true;
  },
  drawn(play) { play.say('click a column (or press its number) to drop a disc into it'); },
});
