// 3D tic-tac-toe on arena play's page (views/tictactoe3d.py names this file): a click on a cell of any
// layer drops a ball into its column (x, y); the referee says where it lands.
arenaPlay.use({
  cell(grid, k, play) {
    const n = play.frame().grids[grid].cols;
    if (play.yourTurn()) play.submit((Math.floor(k / n) + 1) + ' ' + (k % n + 1) + '\n');
  },
  drawn(play) { play.say('click a cell of any layer to drop a ball into its column'); },
});
