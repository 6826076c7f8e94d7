// A template bot for the painting game in C++17, with no arena code: copy it,
// rename it, make it smarter.  The arena compiles it once (c++ -O2 -std=c++17)
// and runs it once per move in a folder of its own.  (A bot's name is its file
// name without the extension, so this one is "template-cpp", not "template".)
//
// game.in:  N, then N rows of N tokens: '#' empty, 'B' painted, or a number.
// game.out: the count k of cells painted, then k lines "x y" (row, column, from 0).
// A legal move paints exactly one number v and v - 1 empty cells, all
// connected through shared sides, none painted and none beside a painted
// cell (docs/rules.md, paint).
//
// This bot paints the first number it can, with the cells a breadth-first
// walk from it reaches first (each one touches an earlier one: connected).
#include <fstream>
#include <string>
#include <vector>

int main() {
    std::ifstream in("game.in");
    int n = 0;
    in >> n;
    const int EMPTY = 0, PAINTED = -1;
    std::vector<int> cell(n * n);  // index x * n + y: EMPTY, PAINTED or the number
    for (int& c : cell) {
        std::string token;
        in >> token;
        c = token == "#" ? EMPTY : token == "B" ? PAINTED : std::stoi(token);
    }

    auto neighbours = [n](int i) {
        std::vector<int> out;
        int x = i / n, y = i % n;
        if (x > 0) out.push_back(i - n);
        if (x + 1 < n) out.push_back(i + n);
        if (y > 0) out.push_back(i - 1);
        if (y + 1 < n) out.push_back(i + 1);
        return out;
    };
    // A cell can be painted when it is not painted and touches no painted cell.
    std::vector<bool> free_cell(n * n);
    for (int i = 0; i < n * n; ++i) {
        free_cell[i] = cell[i] != PAINTED;
        for (int j : neighbours(i)) free_cell[i] = free_cell[i] && cell[j] != PAINTED;
    }

    for (int start = 0; start < n * n; ++start) {
        if (cell[start] <= 0 || !free_cell[start]) continue;
        // Breadth-first walk from the number through free empty cells.
        std::vector<int> order{start};
        std::vector<bool> seen(n * n, false);
        seen[start] = true;
        for (std::size_t head = 0; head < order.size() && (int)order.size() < cell[start]; ++head) {
            for (int j : neighbours(order[head])) {
                if (!seen[j] && cell[j] == EMPTY && free_cell[j]) {
                    seen[j] = true;
                    order.push_back(j);
                }
            }
        }
        if ((int)order.size() < cell[start]) continue;  // not enough room: try the next number
        order.resize(cell[start]);
        std::ofstream out("game.out");
        out << order.size() << "\n";
        for (int i : order) out << i / n << " " << i % n << "\n";
        return 0;
    }
    return 1;  // no legal move (the arena never asks then)
}
