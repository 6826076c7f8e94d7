// A template bot for the painting game in Java, with no arena code: copy it, rename it (the class
// must be named as the file: Bot.java holds class Bot), make it smarter.  The arena compiles it once
// (javac) and runs it once per move (java, its heap capped at half the memory limit) in a folder of
// its own.  A folder bot holds Main.java (class Main) and any other .java files beside it.
//
// game.in:  N, then N rows of N tokens: '#' empty, 'B' painted, or a number.
// game.out: the count k of cells painted, then k lines "x y" (row, column, from 0).
// A legal move paints exactly one number v and v - 1 empty cells, all connected through shared
// sides, none painted and none beside a painted cell (docs/rules.md, paint).
//
// This bot paints the first number it can, with the cells a breadth-first walk from it reaches
// first (each one touches an earlier one: connected).
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

public class TemplateJava {
    static final int EMPTY = 0, PAINTED = -1;

    public static void main(String[] args) throws Exception {
        String[] tokens = Files.readString(Path.of("game.in")).trim().split("\\s+");
        int n = Integer.parseInt(tokens[0]);
        int[] cell = new int[n * n];  // index x * n + y: EMPTY, PAINTED or the number
        for (int i = 0; i < n * n; i++) {
            String token = tokens[i + 1];
            cell[i] = token.equals("#") ? EMPTY : token.equals("B") ? PAINTED : Integer.parseInt(token);
        }
        // A cell can be painted when it is not painted and touches no painted cell.
        boolean[] free = new boolean[n * n];
        for (int i = 0; i < n * n; i++) {
            free[i] = cell[i] != PAINTED;
            for (int j : neighbours(i, n)) free[i] = free[i] && cell[j] != PAINTED;
        }
        for (int start = 0; start < n * n; start++) {
            if (cell[start] <= 0 || !free[start]) continue;
            // Breadth-first walk from the number through free empty cells.
            List<Integer> order = new ArrayList<>(List.of(start));
            boolean[] seen = new boolean[n * n];
            seen[start] = true;
            for (int head = 0; head < order.size() && order.size() < cell[start]; head++) {
                for (int j : neighbours(order.get(head), n)) {
                    if (!seen[j] && cell[j] == EMPTY && free[j]) {
                        seen[j] = true;
                        order.add(j);
                    }
                }
            }
            if (order.size() < cell[start]) continue;  // not enough room: try the next number
            try (PrintWriter out = new PrintWriter("game.out")) {
                out.println(cell[start]);
                for (int i : order.subList(0, cell[start])) out.println(i / n + " " + i % n);
            }
            return;
        }
        System.exit(1);  // no legal move (the arena never asks then)
    }

    static List<Integer> neighbours(int i, int n) {
        List<Integer> out = new ArrayList<>(4);
        int x = i / n, y = i % n;
        if (x > 0) out.add(i - n);
        if (x + 1 < n) out.add(i + n);
        if (y > 0) out.add(i - 1);
        if (y + 1 < n) out.add(i + 1);
        return out;
    }
}
