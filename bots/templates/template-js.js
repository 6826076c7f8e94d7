// A template bot for the painting game in JavaScript (Node.js), with no arena code and no
// packages: copy it, rename it, make it smarter.  The arena runs it once per move (node, its heap
// capped at half the memory limit) in a folder of its own.  A folder bot holds main.js, and
// require('./helper') finds the files beside it.
//
// game.in:  N, then N rows of N tokens: '#' empty, 'B' painted, or a number.
// game.out: the count k of cells painted, then k lines "x y" (row, column, from 0).
// A legal move paints exactly one number v and v - 1 empty cells, all connected through shared
// sides, none painted and none beside a painted cell (docs/rules.md, paint).
//
// This bot paints the first number it can, with the cells a breadth-first walk from it reaches
// first (each one touches an earlier one: connected).
'use strict';
const fs = require('fs');

const EMPTY = 0, PAINTED = -1;
const tokens = fs.readFileSync('game.in', 'utf8').trim().split(/\s+/);
const n = Number(tokens[0]);
// index x * n + y: EMPTY, PAINTED or the number
const cell = tokens.slice(1, 1 + n * n).map((t) => (t === '#' ? EMPTY : t === 'B' ? PAINTED : Number(t)));

function neighbours(i) {
  const x = Math.floor(i / n), y = i % n, out = [];
  if (x > 0) out.push(i - n);
  if (x + 1 < n) out.push(i + n);
  if (y > 0) out.push(i - 1);
  if (y + 1 < n) out.push(i + 1);
  return out;
}

// A cell can be painted when it is not painted and touches no painted cell.
const free = cell.map((c, i) => c !== PAINTED && neighbours(i).every((j) => cell[j] !== PAINTED));

function move() {
  for (let start = 0; start < n * n; start++) {
    if (cell[start] <= 0 || !free[start]) continue;
    // Breadth-first walk from the number through free empty cells.
    const order = [start];
    const seen = new Array(n * n).fill(false);
    seen[start] = true;
    for (let head = 0; head < order.length && order.length < cell[start]; head++) {
      for (const j of neighbours(order[head])) {
        if (!seen[j] && cell[j] === EMPTY && free[j]) {
          seen[j] = true;
          order.push(j);
        }
      }
    }
    if (order.length < cell[start]) continue; // not enough room: try the next number
    return order.slice(0, cell[start]);
  }
  return null;
}

const cells = move();
if (cells === null) process.exit(1); // no legal move (the arena never asks then)
fs.writeFileSync('game.out', `${cells.length}\n` + cells.map((i) => `${Math.floor(i / n)} ${i % n}\n`).join(''));
