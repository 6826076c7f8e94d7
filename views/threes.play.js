// Threes on arena play's page (views/threes.py names this file): the arrow keys or W A S D play an
// operation (the plan so far with it is sent whole, and saved when the referee accepts it);
// Backspace takes the last operation back; finish the plan when it is done.
(function () {
  const keys = {ArrowUp: 'W', ArrowLeft: 'A', ArrowDown: 'S', ArrowRight: 'D'};
  const moves = (play) => play.plan().trim();
  function operation(play, letter) {
    if (play.yourTurn()) play.submit(moves(play) + letter + '\n');
  }
  function back(play) {
    if (play.yourTurn() && moves(play)) play.submit(moves(play).slice(0, -1) + '\n');
  }
  arenaPlay.use({
    buttons: [['↑ W', 'up', (p) => operation(p, 'W')], ['← A', 'left', (p) => operation(p, 'A')],
              ['↓ S', 'down', (p) => operation(p, 'S')], ['→ D', 'right', (p) => operation(p, 'D')],
              ['⌫ back', 'take the last operation back (Backspace)', back]],
    key(e, play) {
      const letter = keys[e.key] || ('wasdWASD'.includes(e.key) && e.key.length === 1 ? e.key.toUpperCase() : '');
      if (letter) { operation(play, letter); return true; }
      if (e.key === 'Backspace') { back(play); return true; }
      return false;
    },
    drawn(play) {
      const count = moves(play).length;
      play.say(count + ' operation' + (count === 1 ? '' : 's') + ' so far: arrow keys or W A S D, Backspace takes one back');
    },
  });
})();
