// mcts: a Monte Carlo tree search bot for the painting game (paint), C++17.
// A sparring partner written from the rules alone (docs/rules.md, paint).
//
// Design (see README.md beside this file):
//  * cells: free empty, live number, or obstacle (painted, next to painted,
//    or a number that can never be painted).  A move turns its region and
//    every cell next to it into obstacles.
//  * UCT with progressive widening; a node's moves are all legal regions
//    when there are few, else a few regions per number grown by different
//    rules (quiet: kill nothing and use few cells; aggressive: touch other
//    numbers; random).  Random playouts.
//  * once some number can never be painted, no draw is possible and the game
//    is normal play: the position splits into independent groups of numbers
//    whose reachable regions cannot touch, and an exact Sprague-Grundy solver
//    (every legal region, memoised) values small groups.  It is tried at the
//    root (a winning move is played at once) and at tree nodes.
//  * a legal first move is written before any thinking; thinking stops at
//    about 0.6 s of process CPU.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <cstdlib>
#include <unordered_map>
#include <unordered_set>
#include <vector>

using namespace std;
typedef unsigned long long u64;

static double cpu() { return (double)clock() / CLOCKS_PER_SEC; }

static const int MAXW = 32, MAXC = MAXW * MAXW;
static const uint8_t OB = 255;  // obstacle
static const uint8_t MAXV = 200;
static int N, W, SZ;
static int OFF[4];

struct Rng {
    u64 s = 88172645463325252ULL;
    u64 next() { s ^= s << 7; s ^= s >> 9; return s; }
    int below(int n) { return (int)(next() % (u64)n); }
    double unit() { return (next() >> 11) * (1.0 / 9007199254740992.0); }
};
static Rng rng;

struct State {
    uint8_t g[MAXC];
    bool dead;  // some number can never be painted: no draw is possible any more
};

struct Move {
    uint8_t n = 0;
    uint16_t c[24];
};

static u64 ZC[MAXC];            // per cell (footprint hashes)
static u64 ZV[MAXC][22];        // per cell and value (0 empty, 1..20 numbers, 21 other)

// ---------------------------------------------------------------- stamps
static unsigned stampS[MAXC], stampA[MAXC], stampF[MAXC], stampX[MAXC];
static unsigned curStamp = 0;

// ---------------------------------------------------------------- rules
static inline bool isNum(uint8_t v) { return v >= 1 && v <= MAXV; }

static int labelOf[MAXC], compSize[MAXC + 1];
static int bfsQ[MAXC];

// Mark numbers that can never be painted (no room) as obstacles; returns the
// number of live numbers left.
static int roomKill(State& s) {
    int nl = 0;
    for (int i = 0; i < SZ; ++i) labelOf[i] = -1;
    for (int i = 0; i < SZ; ++i) {
        if (s.g[i] != 0 || labelOf[i] >= 0) continue;
        int h = 0, t = 0;
        bfsQ[t++] = i; labelOf[i] = nl;
        while (h < t) {
            int c = bfsQ[h++];
            for (int k = 0; k < 4; ++k) {
                int q = c + OFF[k];
                if (s.g[q] == 0 && labelOf[q] < 0) { labelOf[q] = nl; bfsQ[t++] = q; }
            }
        }
        compSize[nl++] = t;
    }
    int live = 0;
    for (int i = 0; i < SZ; ++i) {
        uint8_t v = s.g[i];
        if (!isNum(v)) continue;
        int room = 1, seen[4], ns = 0;
        for (int k = 0; k < 4; ++k) {
            int l = labelOf[i + OFF[k]];
            if (l < 0) continue;
            bool dup = false;
            for (int j = 0; j < ns; ++j) dup |= seen[j] == l;
            if (!dup) { seen[ns++] = l; room += compSize[l]; }
        }
        if (room < v) { s.g[i] = OB; s.dead = true; }
        else ++live;
    }
    return live;
}

static void applyMove(State& s, const Move& m) {
    for (int j = 0; j < m.n; ++j) s.g[m.c[j]] = OB;
    for (int j = 0; j < m.n; ++j)
        for (int k = 0; k < 4; ++k) {
            int q = m.c[j] + OFF[k];
            if (s.g[q] != OB) {
                if (s.g[q] != 0) s.dead = true;
                s.g[q] = OB;
            }
        }
}

static u64 footprintHash(const State& s, const Move& m) {
    ++curStamp;
    u64 h = 0;
    for (int j = 0; j < m.n; ++j) {
        int c = m.c[j];
        if (stampX[c] != curStamp) { stampX[c] = curStamp; h ^= ZC[c]; }
        for (int k = 0; k < 4; ++k) {
            int q = c + OFF[k];
            if (s.g[q] != OB && stampX[q] != curStamp) { stampX[q] = curStamp; h ^= ZC[q]; }
        }
    }
    return h;
}

// Grow a region from the number at start.  mode 0 random, 1 quiet (kill no
// number, small footprint), 2 aggressive (touch other numbers), 3 towards the
// number at target (distances in tdist, stamped tst), then quiet.
static int tdist[MAXC];
static unsigned tdStamp[MAXC];
static bool growG(const uint8_t* g, int start, int mode, Move& out, Rng& r, unsigned tst = 0, int target = -1) {
    int v = g[start];
    if (!isNum(v) || v > 24) return false;
    unsigned st = ++curStamp;
    int fr[MAXC];
    int nf = 0;
    out.n = 0;
    out.c[out.n++] = (uint16_t)start;
    stampS[start] = st;
    bool touched = false;
    for (int k = 0; k < 4; ++k) {
        int q = start + OFF[k];
        stampA[q] = st;
        if (q == target) touched = true;
        if (g[q] == 0) { stampF[q] = st; fr[nf++] = q; }
    }
    while (out.n < v) {
        if (nf == 0) return false;
        int pick = 0;
        if (mode == 0) {
            pick = r.below(nf);
        } else {
            double best = 1e18;
            for (int f = 0; f < nf; ++f) {
                int c = fr[f], kills = 0, fp = 0;
                for (int k = 0; k < 4; ++k) {
                    int q = c + OFF[k];
                    uint8_t gv = g[q];
                    if (stampA[q] == st) continue;
                    if (isNum(gv)) ++kills;
                    else if (gv == 0) ++fp;
                }
                double sc;
                if (mode == 3 && !touched) sc = (tdStamp[c] == tst ? 100.0 * tdist[c] : 1e6) + fp + r.unit();
                else sc = (mode == 2 ? -10.0 * kills : 10.0 * kills) + fp + 2.0 * r.unit();
                if (sc < best) { best = sc; pick = f; }
            }
        }
        int c = fr[pick];
        fr[pick] = fr[--nf];
        out.c[out.n++] = (uint16_t)c;
        stampS[c] = st;
        for (int k = 0; k < 4; ++k) {
            int q = c + OFF[k];
            stampA[q] = st;
            if (q == target) touched = true;
            if (g[q] == 0 && stampS[q] != st && stampF[q] != st) { stampF[q] = st; fr[nf++] = q; }
        }
    }
    return true;
}
static bool grow(const State& s, int start, int mode, Move& out) { return growG(s.g, start, mode, out, rng); }

// Every connected region of v cells holding the number at start (Redelmeier's
// enumeration: each region once).  cb(const int* cells, int n) returns false
// to stop.  Returns false if stopped.
template <class CB>
struct Enumerator {
    const uint8_t* g;
    uint8_t* mark;
    int v;
    int sel[24];
    int ns;
    CB* cb;
    bool rec(const int* unt, int un) {
        if (ns == v) return (*cb)(sel, ns);
        for (int i = 0; i < un; ++i) {
            int u = unt[i];
            sel[ns++] = u;
            int nu[160];
            int m = 0;
            for (int j = i + 1; j < un && m < 150; ++j) nu[m++] = unt[j];
            int added[4], na = 0;
            for (int k = 0; k < 4; ++k) {
                int q = u + OFF[k];
                if (g[q] == 0 && !mark[q] && m < 150) { mark[q] = 1; nu[m++] = q; added[na++] = q; }
            }
            bool ok = rec(nu, m);
            for (int j = 0; j < na; ++j) mark[added[j]] = 0;
            --ns;
            if (!ok) return false;
        }
        return true;
    }
};

template <class CB>
static bool enumerateRegions(const uint8_t* g, uint8_t* mark, int start, CB& cb) {
    Enumerator<CB> e;
    e.g = g; e.mark = mark; e.v = g[start]; e.cb = &cb;
    if (e.v > 24) return true;
    e.ns = 0;
    e.sel[e.ns++] = start;
    mark[start] = 1;
    int unt[8], un = 0, added[4], na = 0;
    for (int k = 0; k < 4; ++k) {
        int q = start + OFF[k];
        if (g[q] == 0 && !mark[q]) { mark[q] = 1; unt[un++] = q; added[na++] = q; }
    }
    bool ok = (e.v == 1) ? cb(e.sel, 1) : e.rec(unt, un);
    for (int j = 0; j < na; ++j) mark[added[j]] = 0;
    mark[start] = 0;
    return ok;
}

// ---------------------------------------------------------------- exact solver
// Normal play (valid once some number is dead): Grundy values of independent
// groups, memoised by the group's cells and values.
namespace solver {
static unordered_map<u64, uint8_t> memo, memoA;
static bool approx = false;  // the model: a few candidate regions per number
static unordered_map<u64, long long> failed;  // group hash -> budget it failed with
static long long work = 0, budget = 0, enumCount = 0;
static double deadline = 0;
static bool aborted = false;
static const int MAXD = 200;
static uint8_t buf[MAXD][MAXC];
static uint8_t mark[MAXD][MAXC];
static uint8_t relCount[MAXD][MAXC], relA[MAXD][MAXC];
static int lab[MAXC], owner[MAXC], uf[MAXC], dist[MAXC];
static unsigned ownStamp[MAXC], distStamp[MAXC], gStamp[MAXC];

static void initBufs() {
    for (int d = 0; d < MAXD; ++d) { memset(buf[d], OB, sizeof buf[d]); memset(mark[d], 0, sizeof mark[d]); }
}
static int find(int a) { while (uf[a] != a) a = uf[a] = uf[uf[a]]; return a; }

static inline u64 zv(int c, uint8_t v) { return ZV[c][v <= 20 ? v : 21]; }

// Split the cells (with values vals) at depth d into independent groups of
// live numbers with the cells they may use.  Returns groups as lists of cells.
static void groupsOf(const vector<int>& cells, const vector<uint8_t>& vals, int d, vector<vector<int>>& groups) {
    uint8_t* g = buf[d];
    for (size_t i = 0; i < cells.size(); ++i) g[cells[i]] = vals[i];
    // rooms
    int nl = 0;
    static int csz[MAXC + 1];
    for (int c : cells) lab[c] = -1;
    for (int c0 : cells) {
        if (g[c0] != 0 || lab[c0] >= 0) continue;
        int h = 0, t = 0;
        bfsQ[t++] = c0; lab[c0] = nl;
        while (h < t) {
            int c = bfsQ[h++];
            for (int k = 0; k < 4; ++k) {
                int q = c + OFF[k];
                if (g[q] == 0 && lab[q] < 0) { lab[q] = nl; bfsQ[t++] = q; }
            }
        }
        csz[nl++] = t;
    }
    vector<int> nums;
    for (int c : cells) {
        uint8_t v = g[c];
        if (!isNum(v)) continue;
        int room = 1, seen[4], ns = 0;
        for (int k = 0; k < 4; ++k) {
            int q = c + OFF[k];
            if (g[q] != 0) continue;
            int l = lab[q];
            bool dup = false;
            for (int j = 0; j < ns; ++j) dup |= seen[j] == l;
            if (!dup) { seen[ns++] = l; room += csz[l]; }
        }
        if (room >= v) nums.push_back(c);
    }
    // reach sets and union-find
    unsigned ost = ++curStamp;
    vector<vector<int>> reach(nums.size());
    for (size_t a = 0; a < nums.size(); ++a) uf[a] = (int)a;
    for (size_t a = 0; a < nums.size(); ++a) {
        int s0 = nums[a], v = g[s0];
        unsigned dst = ++curStamp;
        vector<int>& R = reach[a];
        R.push_back(s0);
        distStamp[s0] = dst; dist[s0] = 0;
        for (size_t h = 0; h < R.size(); ++h) {
            int c = R[h];
            if (dist[c] >= v - 1) continue;
            for (int k = 0; k < 4; ++k) {
                int q = c + OFF[k];
                if (g[q] == 0 && distStamp[q] != dst) { distStamp[q] = dst; dist[q] = dist[c] + 1; R.push_back(q); }
            }
        }
        for (int c : R) {
            for (int k = -1; k < 4; ++k) {
                int q = k < 0 ? c : c + OFF[k];
                if (ownStamp[q] == ost) {
                    int x = find((int)a), y = find(owner[q]);
                    if (x != y) uf[x] = y;
                }
            }
        }
        for (int c : R) if (ownStamp[c] != ost) { ownStamp[c] = ost; owner[c] = (int)a; }
    }
    // collect
    unordered_map<int, int> gi;
    unsigned gst = ++curStamp;
    for (size_t a = 0; a < nums.size(); ++a) {
        int r = find((int)a);
        auto it = gi.find(r);
        int idx;
        if (it == gi.end()) { idx = (int)groups.size(); gi[r] = idx; groups.emplace_back(); }
        else idx = it->second;
        for (int c : reach[a]) if (gStamp[c] != gst) { gStamp[c] = gst; groups[idx].push_back(c); }
    }
    // the values of group cells are read from buf[d] by the caller before restore
}

static int grundyGroup(const vector<int>& cells, const vector<uint8_t>& vals, int d, int target, vector<int>* moveOut);

// XOR of the groups' values, or -1 when the budget ran out.
static int valueOf(const vector<int>& cells, const vector<uint8_t>& vals, int d) {
    if (d + 2 >= MAXD) { aborted = true; return -1; }
    vector<vector<int>> groups;
    groupsOf(cells, vals, d, groups);
    vector<vector<uint8_t>> gvals(groups.size());
    for (size_t i = 0; i < groups.size(); ++i)
        for (int c : groups[i]) gvals[i].push_back(buf[d][c]);
    for (int c : cells) buf[d][c] = OB;
    int x = 0;
    // single-number groups first (value 1), cheap
    for (size_t i = 0; i < groups.size(); ++i) {
        int nn = 0;
        for (uint8_t v : gvals[i]) nn += isNum(v);
        if (nn == 1) x ^= 1;
    }
    for (size_t i = 0; i < groups.size(); ++i) {
        int nn = 0;
        for (uint8_t v : gvals[i]) nn += isNum(v);
        if (nn == 1) continue;
        int r = grundyGroup(groups[i], gvals[i], d + 1, -1, nullptr);
        if (r < 0) return -1;
        x ^= r;
    }
    return x;
}

static int grundyGroup(const vector<int>& cells, const vector<uint8_t>& vals, int d, int target, vector<int>* moveOut) {
    u64 h = 0x9E3779B97F4A7C15ULL;
    int nn = 0;
    for (size_t i = 0; i < cells.size(); ++i) { h ^= zv(cells[i], vals[i]); nn += isNum(vals[i]); }
    if (target < 0) {
        if (nn == 0) return 0;
        if (nn == 1) return 1;
        if (approx) {
            auto ie = memo.find(h);
            if (ie != memo.end()) return ie->second;
        }
        auto& mm = approx ? memoA : memo;
        auto it = mm.find(h);
        if (it != mm.end()) return it->second;
        if (!approx) {
            auto f = failed.find(h);
            if (f != failed.end() && f->second >= budget) { aborted = true; return -1; }
        }
    }
    if (d + 2 >= MAXD) { aborted = true; return -1; }
    uint8_t* g = buf[d];
    for (size_t i = 0; i < cells.size(); ++i) g[cells[i]] = vals[i];
    // reach sets of the numbers: a child is decided by the footprint's cells
    // that some other number could still use (the rest is dropped anyway)
    uint8_t* rc = relCount[d];
    vector<int> nums;
    vector<vector<int>> reach;
    for (int c : cells) rc[c] = 0;
    for (int c : cells) {
        if (!isNum(g[c])) continue;
        nums.push_back(c);
        reach.emplace_back();
        vector<int>& R = reach.back();
        unsigned dst = ++curStamp;
        R.push_back(c); distStamp[c] = dst; dist[c] = 0;
        for (size_t h2 = 0; h2 < R.size(); ++h2) {
            int x = R[h2];
            if (dist[x] >= g[c] - 1) continue;
            for (int k = 0; k < 4; ++k) {
                int q = x + OFF[k];
                if (g[q] == 0 && distStamp[q] != dst) { distStamp[q] = dst; dist[q] = dist[x] + 1; R.push_back(q); }
            }
        }
        for (int x : R) if (rc[x] < 250) ++rc[x];
    }
    uint8_t* ra = relA[d];
    u64 seenMask = 0;
    bool found = false;
    vector<int> child;
    vector<uint8_t> childVals;
    unordered_set<u64> seenKeys;
    auto cb = [&](const int* sel, int n) -> bool {
        ++enumCount;
        if ((enumCount & 4095) == 0 && (cpu() > deadline || enumCount > 64 * budget)) { aborted = true; return false; }
        unsigned st = ++curStamp;
        u64 key = 0;
        for (int j = 0; j < n; ++j) {
            for (int k = -1; k < 4; ++k) {
                int q = k < 0 ? sel[j] : sel[j] + OFF[k];
                if (stampX[q] != st) { stampX[q] = st; if (ra[q]) key ^= ZC[q]; }
            }
        }
        if (!seenKeys.insert(key).second) return true;
        ++work;
        if (work > budget || ((work & 255) == 0 && cpu() > deadline)) { aborted = true; return false; }
        child.clear(); childVals.clear();
        for (int c : cells) if (stampX[c] != st) { child.push_back(c); childVals.push_back(g[c]); }
        int r = valueOf(child, childVals, d + 1);
        if (r < 0) return false;
        if (r < 64) seenMask |= 1ULL << r;
        if (target < 0 && nn < 64 && (seenMask & ((1ULL << nn) - 1)) == ((1ULL << nn) - 1)) return false;
        if (target >= 0 && r == target) {
            found = true;
            if (moveOut) moveOut->assign(sel, sel + n);
            return false;
        }
        return true;
    };
    for (size_t a = 0; a < nums.size(); ++a) {
        for (int c : cells) ra[c] = rc[c] > 0;
        for (int x : reach[a]) ra[x] = rc[x] > 1;
        seenKeys.clear();
        if (!approx) {
            if (!enumerateRegions(g, mark[d], nums[a], cb)) break;
            continue;
        }
        // the model's regions: quiet, aggressive, one towards each number it can reach
        vector<Move> cand;
        Rng lr; lr.s = 0x9E3779B97F4A7C15ULL ^ (u64)nums[a] * 0x100000001B3ULL ^ h;
        Move m;
        if (growG(g, nums[a], 1, m, lr)) cand.push_back(m);
        if (growG(g, nums[a], 2, m, lr)) cand.push_back(m);
        if (growG(g, nums[a], 1, m, lr)) cand.push_back(m);
        unsigned st0 = ++curStamp;
        for (int x : reach[a]) stampX[x] = st0;
        int targets = 0;
        for (size_t b = 0; b < nums.size() && targets < 8; ++b) {
            if (b == a) continue;
            int bc = nums[b];
            bool near = false;
            for (int k = 0; k < 4; ++k) near |= stampX[bc + OFF[k]] == st0;
            if (!near) continue;
            ++targets;
            unsigned tst = ++curStamp;
            vector<int> q{bc};
            tdStamp[bc] = tst; tdist[bc] = 0;
            for (size_t h2 = 0; h2 < q.size(); ++h2) {
                int x = q[h2];
                for (int k = 0; k < 4; ++k) {
                    int y = x + OFF[k];
                    if (g[y] == 0 && tdStamp[y] != tst) { tdStamp[y] = tst; tdist[y] = tdist[x] + 1; q.push_back(y); }
                }
            }
            if (growG(g, nums[a], 3, m, lr, tst, bc)) cand.push_back(m);
        }
        bool stop = false;
        for (auto& cm : cand) {
            int sel[24];
            for (int j = 0; j < cm.n; ++j) sel[j] = cm.c[j];
            if (!cb(sel, cm.n)) { stop = true; break; }
        }
        if (stop) break;
    }
    for (int c : cells) g[c] = OB;
    if (target >= 0) return found ? target : (aborted ? -1 : -2);
    if (aborted) {
        if (!approx && failed.size() < 200000) failed[h] = max(failed[h], budget);
        return -1;
    }
    int mex = 0;
    while (mex < 64 && (seenMask >> mex & 1)) ++mex;
    auto& mm = approx ? memoA : memo;
    if (mm.size() < 1000000) mm[h] = (uint8_t)mex;
    return mex;
}

static void cellsOf(const State& s, vector<int>& cells, vector<uint8_t>& vals) {
    cells.clear(); vals.clear();
    for (int i = 0; i < SZ; ++i) if (s.g[i] != OB) { cells.push_back(i); vals.push_back(s.g[i]); }
}

// Normal-play value of a state (XOR of Grundy values), -1 if unknown.
static int solve(const State& s, long long bud, double dl) {
    vector<int> cells; vector<uint8_t> vals;
    cellsOf(s, cells, vals);
    work = 0; enumCount = 0; budget = bud; deadline = dl; aborted = false;
    int r = valueOf(cells, vals, 0);
    return aborted ? -1 : r;
}

// A move to a position of value 0 (a win), if the whole state is solved and
// non-zero; empty otherwise.
static vector<int> winningMove(const State& s, long long bud, double dl, int& value) {
    vector<int> cells; vector<uint8_t> vals;
    cellsOf(s, cells, vals);
    work = 0; enumCount = 0; budget = bud; deadline = dl; aborted = false;
    value = -1;
    vector<vector<int>> groups;
    groupsOf(cells, vals, 0, groups);
    vector<vector<uint8_t>> gvals(groups.size());
    for (size_t i = 0; i < groups.size(); ++i)
        for (int c : groups[i]) gvals[i].push_back(buf[0][c]);
    for (int c : cells) buf[0][c] = OB;
    vector<int> gv(groups.size());
    int x = 0;
    for (size_t i = 0; i < groups.size(); ++i) {
        gv[i] = grundyGroup(groups[i], gvals[i], 1, -1, nullptr);
        if (gv[i] < 0) return {};
        x ^= gv[i];
    }
    value = x;
    if (x == 0) return {};
    for (size_t i = 0; i < groups.size(); ++i) {
        int t = gv[i] ^ x;
        if (t >= gv[i]) continue;
        vector<int> mv;
        aborted = false;
        budget = work + bud;  // the search for the move has its own budget
        int r = grundyGroup(groups[i], gvals[i], 1, t, &mv);
        if (r == t && !mv.empty()) return mv;
    }
    return {};
}
}  // namespace solver

// ---------------------------------------------------------------- MCTS
struct Node {
    State s;
    Move mv;
    int parent = -1;
    vector<int> ch;
    int visits = 0;
    double wins = 0;        // for the player who moved into this node
    int8_t proven = 0;      // for the player to move here: 1 win, -1 loss
    bool terminal = false;
    double termVal = 0;     // value for the player to move (terminal / proven)
    bool init = false;
    bool useAll = false;
    vector<Move> all;
    vector<uint16_t> order;
    int nextK = 0;
    bool exhausted = false;
    vector<u64> fps;
};

static vector<Node> nodes;
static const size_t MAXNODES = 45000;

// Reward for the player to move in s, with random play to the end.
static double playout(State s) {
    int live[MAXC];
    int nl = 0;
    for (int i = 0; i < SZ; ++i) if (isNum(s.g[i])) live[nl++] = i;
    int turn = 0;
    Move m;
    while (nl > 0) {
        int k = rng.below(nl);
        int c = live[k];
        live[k] = live[--nl];
        if (!isNum(s.g[c])) continue;
        if (!grow(s, c, 0, m)) { s.g[c] = OB; s.dead = true; continue; }
        applyMove(s, m);
        turn ^= 1;
    }
    if (!s.dead) return 0.5;
    return turn == 0 ? 0.0 : 1.0;
}

static double solveDeadline = 0.55;

static void evalNew(Node& nd, bool trySolve) {
    int live = roomKill(nd.s);
    if (live == 0) {
        nd.terminal = true;
        nd.termVal = nd.s.dead ? 0.0 : 0.5;
        nd.proven = nd.s.dead ? -1 : 0;
        return;
    }
    if (trySolve && nd.s.dead && cpu() < solveDeadline) {
        int r = solver::solve(nd.s, 1500, solveDeadline);
        if (r >= 0) {
            nd.terminal = true;
            nd.proven = r ? 1 : -1;
            nd.termVal = r ? 1.0 : 0.0;
        }
    }
}

static bool smallEnough(const State& s) {
    int n = 0;
    for (int i = 0; i < SZ; ++i) n += s.g[i] != OB;
    return n <= 260;
}

static void initNode(Node& nd, bool root) {
    nd.init = true;
    // all legal regions when there are few
    uint8_t mk[MAXC];
    memset(mk, 0, sizeof mk);
    int cap = root ? 400 : 120;
    vector<Move> all;
    bool over = false;
    for (int i = 0; i < SZ && !over; ++i) {
        if (!isNum(nd.s.g[i])) continue;
        auto cb = [&](const int* sel, int n) -> bool {
            if ((int)all.size() >= cap) { over = true; return false; }
            Move m; m.n = (uint8_t)n;
            for (int j = 0; j < n; ++j) m.c[j] = (uint16_t)sel[j];
            all.push_back(m);
            return true;
        };
        enumerateRegions(nd.s.g, mk, i, cb);
    }
    if (!over) {
        nd.useAll = true;
        vector<u64> seen;
        for (auto& m : all) {
            u64 h = footprintHash(nd.s, m);
            if (find(seen.begin(), seen.end(), h) != seen.end()) continue;
            seen.push_back(h);
            nd.all.push_back(m);
        }
        for (size_t i = nd.all.size(); i > 1; --i) swap(nd.all[i - 1], nd.all[rng.below((int)i)]);
        return;
    }
    for (int i = 0; i < SZ; ++i) if (isNum(nd.s.g[i])) nd.order.push_back((uint16_t)i);
    for (size_t i = nd.order.size(); i > 1; --i) swap(nd.order[i - 1], nd.order[rng.below((int)i)]);
}

// The next candidate move of nd, false when none is left.
static bool nextMove(Node& nd, Move& m) {
    if (nd.useAll) {
        if (nd.nextK >= (int)nd.all.size()) return false;
        m = nd.all[nd.nextK++];
        return true;
    }
    int L = (int)nd.order.size();
    while (nd.nextK < 4 * L) {
        int k = nd.nextK++;
        int c = nd.order[k % L], mode = k / L;
        int md = mode == 0 ? 1 : mode == 1 ? 2 : 0;
        if (!grow(nd.s, c, md, m)) continue;
        u64 h = footprintHash(nd.s, m);
        if (find(nd.fps.begin(), nd.fps.end(), h) != nd.fps.end()) continue;
        nd.fps.push_back(h);
        return true;
    }
    return false;
}

static void backprop(int n, double r) {  // r: value for the player to move at n
    while (n >= 0) {
        nodes[n].visits++;
        nodes[n].wins += 1.0 - r;
        r = 1.0 - r;
        n = nodes[n].parent;
    }
}

static Move runMcts(const State& root, double stopAt) {
    nodes.clear();
    nodes.reserve(MAXNODES + 2);
    nodes.emplace_back();
    nodes[0].s = root;
    evalNew(nodes[0], false);
    initNode(nodes[0], true);
    int iter = 0;
    while (true) {
        if ((iter++ & 15) == 0) {
            if (cpu() > stopAt || nodes[0].proven == 1) break;
            const Node& rt = nodes[0];
            bool settled = rt.init && (rt.exhausted || (rt.useAll && rt.ch.size() == rt.all.size()));
            for (int id : rt.ch) settled = settled && nodes[id].terminal;
            if (settled && iter > 16) break;  // every move's value is known
        }
        int n = 0;
        double r;
        while (true) {
            Node& nd = nodes[n];
            if (nd.terminal) { r = nd.termVal; break; }
            if (n != 0 && nd.visits == 0) { r = playout(nd.s); break; }
            if (!nd.init) initNode(nd, false);
            size_t allowed = nd.useAll ? (size_t)1e9 : (size_t)(2 + (n == 0 ? 2.0 : 1.0) * sqrt((double)nd.visits));
            if (nd.ch.size() < allowed && !nd.exhausted && nodes.size() < MAXNODES) {
                Move m;
                if (nextMove(nd, m)) {
                    Node c;
                    c.s = nd.s;
                    applyMove(c.s, m);
                    c.mv = m;
                    c.parent = n;
                    evalNew(c, smallEnough(c.s));
                    int id = (int)nodes.size();
                    nodes.push_back(std::move(c));
                    nodes[n].ch.push_back(id);
                    if (nodes[id].proven == -1) { nodes[n].proven = 1; }
                    n = id;
                    continue;
                }
                nodes[n].exhausted = true;
            }
            Node& cur = nodes[n];
            if (cur.ch.empty()) { r = playout(cur.s); break; }
            int best = -1;
            double bv = -1e18, lg = log((double)cur.visits + 1);
            for (int id : cur.ch) {
                const Node& c = nodes[id];
                double v;
                if (c.proven == -1) v = 1e9;
                else if (c.visits == 0) v = 1e8;
                else v = c.wins / c.visits + 0.6 * sqrt(lg / c.visits);
                if (c.proven == 1) v -= 10;  // a proven win for the opponent
                if (v > bv) { bv = v; best = id; }
            }
            n = best;
        }
        backprop(n, r);
    }
    // choose
    const Node& rt = nodes[0];
    int best = -1;
    double bv = -1e18;
    for (int id : rt.ch) {
        const Node& c = nodes[id];
        double v = c.visits + (c.visits ? c.wins / c.visits : 0) * 0.01;
        if (c.proven == -1) v = 1e12;
        if (c.proven == 1) v -= 1e9;
        if (v > bv) { bv = v; best = id; }
    }
    fprintf(stderr, "mcts: %d iterations, %zu nodes, %zu children", iter, nodes.size(), rt.ch.size());
    if (best >= 0) {
        fprintf(stderr, ", best %d visits %.3f\n", nodes[best].visits,
                nodes[best].visits ? nodes[best].wins / nodes[best].visits : 0.0);
        return nodes[best].mv;
    }
    fprintf(stderr, "\n");
    Move m; m.n = 0;
    return m;
}

// ---------------------------------------------------------------- I/O
static vector<int> rawCell;  // -1 painted, 0 empty, v number (row-major, N x N)

static bool writeMove(const vector<pair<int, int>>& cells) {
    FILE* f = fopen("game.out", "w");
    if (!f) return false;
    fprintf(f, "%d\n", (int)cells.size());
    for (auto& p : cells) fprintf(f, "%d %d\n", p.first, p.second);
    fclose(f);
    return true;
}

// A legal move by breadth-first growth from the first number with room.
static vector<pair<int, int>> fallbackMove() {
    int n = N;
    auto painted = [&](int x, int y) { return x >= 0 && y >= 0 && x < n && y < n && rawCell[x * n + y] == -1; };
    auto freeCell = [&](int i) {
        int x = i / n, y = i % n;
        return rawCell[i] != -1 && !painted(x - 1, y) && !painted(x + 1, y) && !painted(x, y - 1) && !painted(x, y + 1);
    };
    for (int s = 0; s < n * n; ++s) {
        if (rawCell[s] <= 0 || !freeCell(s)) continue;
        vector<int> order{s};
        vector<char> seen(n * n, 0);
        seen[s] = 1;
        for (size_t h = 0; h < order.size() && (long long)order.size() < rawCell[s]; ++h) {
            int x = order[h] / n, y = order[h] % n;
            int nx[4] = {x - 1, x + 1, x, x}, ny[4] = {y, y, y - 1, y + 1};
            for (int k = 0; k < 4; ++k) {
                if (nx[k] < 0 || ny[k] < 0 || nx[k] >= n || ny[k] >= n) continue;
                int j = nx[k] * n + ny[k];
                if (!seen[j] && rawCell[j] == 0 && freeCell(j)) { seen[j] = 1; order.push_back(j); }
            }
        }
        if ((long long)order.size() < rawCell[s]) continue;
        order.resize(rawCell[s]);
        vector<pair<int, int>> out;
        for (int i : order) out.push_back({i / n, i % n});
        return out;
    }
    return {};
}

// Check a move against the original board (the rules, independently).
static bool legal(const vector<pair<int, int>>& mv) {
    int n = N;
    if (mv.empty()) return false;
    vector<char> in(n * n, 0);
    int nums = 0, val = 0;
    for (auto& p : mv) {
        if (p.first < 0 || p.second < 0 || p.first >= n || p.second >= n) return false;
        int i = p.first * n + p.second;
        if (in[i] || rawCell[i] == -1) return false;
        in[i] = 1;
        if (rawCell[i] > 0) { ++nums; val = rawCell[i]; }
        int dx[4] = {-1, 1, 0, 0}, dy[4] = {0, 0, -1, 1};
        for (int k = 0; k < 4; ++k) {
            int x = p.first + dx[k], y = p.second + dy[k];
            if (x >= 0 && y >= 0 && x < n && y < n && rawCell[x * n + y] == -1) return false;
        }
    }
    if (nums != 1 || val != (int)mv.size()) return false;
    vector<int> st{mv[0].first * n + mv[0].second};
    vector<char> seen(n * n, 0);
    seen[st[0]] = 1;
    for (size_t h = 0; h < st.size(); ++h) {
        int x = st[h] / n, y = st[h] % n;
        int dx[4] = {-1, 1, 0, 0}, dy[4] = {0, 0, -1, 1};
        for (int k = 0; k < 4; ++k) {
            int a = x + dx[k], b = y + dy[k];
            if (a < 0 || b < 0 || a >= n || b >= n) continue;
            int j = a * n + b;
            if (in[j] && !seen[j]) { seen[j] = 1; st.push_back(j); }
        }
    }
    return st.size() == mv.size();
}

static vector<pair<int, int>> toXY(const int* c, int n) {
    vector<pair<int, int>> out;
    for (int j = 0; j < n; ++j) out.push_back({c[j] / W - 1, c[j] % W - 1});
    return out;
}

int main() {
    std::ifstream in("game.in");
    if (!(in >> N) || N <= 0 || N > 1000) return 0;
    rawCell.assign(N * N, 0);
    int maxv = 0;
    for (int i = 0; i < N * N; ++i) {
        string t;
        if (!(in >> t)) break;
        if (t == "#") rawCell[i] = 0;
        else if (t == "B" || t == "b") rawCell[i] = -1;
        else {
            long long v = 0;
            bool ok = !t.empty() && t.size() < 10;
            for (char ch : t) { if (ch < '0' || ch > '9') ok = false; else v = v * 10 + (ch - '0'); }
            rawCell[i] = ok && v > 0 ? (int)min<long long>(v, 1000000000LL) : 0;
        }
        maxv = max(maxv, rawCell[i]);
    }
    vector<pair<int, int>> fb = fallbackMove();
    if (!fb.empty()) writeMove(fb);
    if (fb.empty() || N > MAXW - 2 || maxv > 20) return 0;

    W = N + 2; SZ = W * W;
    OFF[0] = -W; OFF[1] = W; OFF[2] = -1; OFF[3] = 1;
    {
        u64 seed = 0x2545F4914F6CDD1DULL;
        for (int v : rawCell) seed = seed * 1000003ULL + (u64)(v + 7);
        rng.s = seed ? seed : 1;
        Rng zr; zr.s = 0x123456789ABCDEFULL;
        for (int i = 0; i < MAXC; ++i) { ZC[i] = zr.next(); for (int v = 0; v < 22; ++v) ZV[i][v] = zr.next(); }
    }
    static State root;
    memset(root.g, OB, sizeof root.g);
    root.dead = false;
    for (int x = 0; x < N; ++x)
        for (int y = 0; y < N; ++y) {
            int r = rawCell[x * N + y];
            root.g[(x + 1) * W + y + 1] = r < 0 ? OB : (uint8_t)r;
        }
    for (int x = 0; x < N; ++x)
        for (int y = 0; y < N; ++y) {
            if (rawCell[x * N + y] != -1) continue;
            int c = (x + 1) * W + y + 1;
            for (int k = 0; k < 4; ++k) {
                int q = c + OFF[k];
                if (root.g[q] != OB) { if (root.g[q] != 0) root.dead = true; root.g[q] = OB; }
            }
        }
    // a number next to a painted cell stays on the board: dead (handled above);
    // painted cells themselves are not numbers.
    if (roomKill(root) == 0) return 0;
    solver::initBufs();
    // thinking time in process CPU seconds (MCTS_SECONDS may shorten it, for tests)
    double T = 0.6;
    if (const char* e = getenv("MCTS_SECONDS")) { double t = atof(e); if (t > 0.01 && t < T) T = t; }
    solveDeadline = T * 0.92;

    vector<pair<int, int>> answer;
    int open = 0;
    for (int i = 0; i < SZ; ++i) open += root.g[i] != OB;
    if (root.dead) {
        // exact first; then the model (a few regions per number), whose
        // winning move is played when the exact search cannot decide
        int value = -1;
        vector<int> mv = solver::winningMove(root, 400000, T * (open > 300 ? 0.13 : 0.25), value);
        fprintf(stderr, "exact: value %d, work %lld%s\n", value, solver::work, mv.empty() ? "" : ", winning move");
        if (!mv.empty()) answer = toXY(mv.data(), (int)mv.size());
        if (answer.empty() && value < 0) {
            solver::approx = true;
            int av = -1;
            vector<int> am = solver::winningMove(root, 4000000, T * 0.75, av);
            solver::approx = false;
            fprintf(stderr, "model: value %d, work %lld%s\n", av, solver::work, am.empty() ? "" : ", winning move");
            if (!am.empty()) answer = toXY(am.data(), (int)am.size());
        }
    }
    if (answer.empty()) {
        Move m = runMcts(root, T);
        if (m.n > 0) {
            int cs[24];
            for (int j = 0; j < m.n; ++j) cs[j] = m.c[j];
            answer = toXY(cs, m.n);
        }
    }
    if (!answer.empty() && legal(answer)) writeMove(answer);
    else fprintf(stderr, "fallback move\n");
    return 0;
}
