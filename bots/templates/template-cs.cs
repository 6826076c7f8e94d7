// A template bot for the painting game in C#, with no arena code: copy it, rename it, make it
// smarter.  The arena compiles it once (Mono's mcs -optimize+) and runs it once per move (mono) in
// a folder of its own.  A folder bot holds Main.cs and the other .cs files it needs beside it.
//
// game.in:  N, then N rows of N tokens: '#' empty, 'B' painted, or a number.
// game.out: the count k of cells painted, then k lines "x y" (row, column, from 0).
// A legal move paints exactly one number v and v - 1 empty cells, all connected through shared
// sides, none painted and none beside a painted cell (docs/rules.md, paint).
//
// This bot paints the first number it can, with the cells a breadth-first walk from it reaches
// first (each one touches an earlier one: connected).
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

static class Template
{
    const int Empty = 0, Painted = -1;

    static List<int> Neighbours(int i, int n)
    {
        var output = new List<int>(4);
        int x = i / n, y = i % n;
        if (x > 0) output.Add(i - n);
        if (x + 1 < n) output.Add(i + n);
        if (y > 0) output.Add(i - 1);
        if (y + 1 < n) output.Add(i + 1);
        return output;
    }

    static int Main()
    {
        var tokens = File.ReadAllText("game.in").Split((char[])null, StringSplitOptions.RemoveEmptyEntries);
        int n = int.Parse(tokens[0]);
        var cell = new int[n * n];  // index x * n + y: Empty, Painted or the number
        for (int i = 0; i < n * n; i++)
        {
            string token = tokens[i + 1];
            cell[i] = token == "#" ? Empty : token == "B" ? Painted : int.Parse(token);
        }
        // A cell can be painted when it is not painted and touches no painted cell.
        var free = new bool[n * n];
        for (int i = 0; i < n * n; i++)
        {
            free[i] = cell[i] != Painted;
            foreach (int j in Neighbours(i, n)) free[i] = free[i] && cell[j] != Painted;
        }
        for (int start = 0; start < n * n; start++)
        {
            if (cell[start] <= 0 || !free[start]) continue;
            // Breadth-first walk from the number through free empty cells.
            var order = new List<int> { start };
            var seen = new bool[n * n];
            seen[start] = true;
            for (int head = 0; head < order.Count && order.Count < cell[start]; head++)
            {
                foreach (int j in Neighbours(order[head], n))
                {
                    if (!seen[j] && cell[j] == Empty && free[j])
                    {
                        seen[j] = true;
                        order.Add(j);
                    }
                }
            }
            if (order.Count < cell[start]) continue;  // not enough room: try the next number
            var output = new StringBuilder();
            output.Append(cell[start]).Append('\n');
            foreach (int i in order.GetRange(0, cell[start])) output.Append(i / n).Append(' ').Append(i % n).Append('\n');
            File.WriteAllText("game.out", output.ToString());
            return 0;
        }
        return 1;  // no legal move (the arena never asks then)
    }
}
