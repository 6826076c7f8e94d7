// A template bot for the painting game in Rust, with no arena code and no crates: copy it, rename
// it, make it smarter.  The arena compiles it once (rustc -O, edition 2021) and runs it once per
// move in a folder of its own.  A folder bot holds main.rs (and the modules it names beside it).
//
// game.in:  N, then N rows of N tokens: '#' empty, 'B' painted, or a number.
// game.out: the count k of cells painted, then k lines "x y" (row, column, from 0).
// A legal move paints exactly one number v and v - 1 empty cells, all connected through shared
// sides, none painted and none beside a painted cell (docs/rules.md, paint).
//
// This bot paints the first number it can, with the cells a breadth-first walk from it reaches
// first (each one touches an earlier one: connected).
use std::fs;

const EMPTY: i32 = 0;
const PAINTED: i32 = -1;

fn neighbours(i: usize, n: usize) -> Vec<usize> {
    let (x, y) = (i / n, i % n);
    let mut out = Vec::with_capacity(4);
    if x > 0 { out.push(i - n); }
    if x + 1 < n { out.push(i + n); }
    if y > 0 { out.push(i - 1); }
    if y + 1 < n { out.push(i + 1); }
    out
}

fn main() {
    let text = fs::read_to_string("game.in").expect("game.in");
    let mut tokens = text.split_whitespace();
    let n: usize = tokens.next().unwrap().parse().unwrap();
    // index x * n + y: EMPTY, PAINTED or the number
    let cell: Vec<i32> = tokens.take(n * n).map(|t| match t {
        "#" => EMPTY,
        "B" => PAINTED,
        number => number.parse().unwrap(),
    }).collect();
    // A cell can be painted when it is not painted and touches no painted cell.
    let free: Vec<bool> = (0..n * n)
        .map(|i| cell[i] != PAINTED && neighbours(i, n).iter().all(|&j| cell[j] != PAINTED))
        .collect();
    for start in 0..n * n {
        if cell[start] <= 0 || !free[start] { continue; }
        let want = cell[start] as usize;
        // Breadth-first walk from the number through free empty cells.
        let mut order = vec![start];
        let mut seen = vec![false; n * n];
        seen[start] = true;
        let mut head = 0;
        while head < order.len() && order.len() < want {
            for j in neighbours(order[head], n) {
                if !seen[j] && cell[j] == EMPTY && free[j] {
                    seen[j] = true;
                    order.push(j);
                }
            }
            head += 1;
        }
        if order.len() < want { continue; }  // not enough room: try the next number
        let mut out = format!("{}\n", want);
        for &i in &order[..want] { out += &format!("{} {}\n", i / n, i % n); }
        fs::write("game.out", out).expect("game.out");
        return;
    }
    std::process::exit(1);  // no legal move (the arena never asks then)
}
