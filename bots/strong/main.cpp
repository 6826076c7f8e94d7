// bots/strong: the champion of the painting game (docs/rules.md, paint).
//
// One move per run: game.in in, game.out out, within 1 s of CPU for the whole
// process (this bot stops thinking at DEADLINE).  bots/strong/README.md
// explains the search; in short:
//
//   1. exact search (bit-mask positions split into independent parts, valued
//      by Sprague-Grundy once no draw is possible, win/draw/loss before; the
//      moves that last won at each depth tried first), with part of the time:
//      if it settles the position, a move of the best value;
//   2. else Monte Carlo tree search over a few candidate regions per number,
//      random playouts, and the exact search settling small positions in the
//      tree (a child proven lost for the opponent is played at once).
//
// What the exact search learnt is kept in strong.memory (in the working
// folder, kept for the whole game) and read back at the next move.
//
// "./bot --solve SECONDS" reads a board on standard input and prints the
// exact value and a best move (used by `arena solve`); "./bot --rank COUNT"
// prints the ranking's first COUNT moves of a board on standard input, and
// "./bot --playouts COUNT" the mean result of COUNT of the tree's playouts.
// The arena compiles with -O2 alone: ask for the CPU's popcount (every x86-64 for 15 years has it).
#if defined(__x86_64__)
#pragma GCC target("popcnt")
#endif
#include <algorithm>
#include <climits>
#include <csignal>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <new>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

using namespace std;
typedef uint32_t u32;
typedef uint64_t u64;

// ------------------------------------------------------------------ memory
// Every node of the search builds and drops a few small vectors (a part's numbers and zones, the
// parts after a move): with malloc and free that was 7 % of a solve's instructions.  Blocks of up
// to 1 KiB come from free lists, one per size class of 16 bytes (a 16-byte header holds the
// class), carved from 1 MiB chunks and never given back (the move's live blocks are few); bigger
// ones from malloc (NOTES.md, section 23).
namespace blocks {
static const size_t STEP = 16, CLASSES = 64, HEAD = 16, CHUNK = 1 << 20;
static void* freeList[CLASSES + 1];
static char *cur = nullptr, *end = nullptr;
static void* take(size_t n) {
    size_t c = (n + STEP - 1) / STEP;
    if (c == 0) c = 1;
    if (c > CLASSES) {
        if (n > SIZE_MAX - HEAD) throw std::bad_alloc();
        char* b = (char*)malloc(n + HEAD);
        if (!b) throw std::bad_alloc();
        *(size_t*)b = 0;
        return b + HEAD;
    }
    if (void* f = freeList[c]) {
        freeList[c] = *(void**)f;
        return f;
    }
    size_t need = HEAD + c * STEP;
    if (cur == nullptr || (size_t)(end - cur) < need) {  // (the chunk's tail is left unused)
        cur = (char*)malloc(CHUNK);
        if (!cur) throw std::bad_alloc();
        end = cur + CHUNK;
    }
    char* b = cur;
    cur += need;
    *(size_t*)b = c;
    return b + HEAD;
}
static void give(void* p) {
    if (!p) return;
    char* b = (char*)p - HEAD;
    size_t c = *(size_t*)b;
    if (c == 0) {
        free(b);
        return;
    }
    *(void**)p = freeList[c];
    freeList[c] = p;
}
static void* tryTake(size_t n) noexcept {
    try {
        return take(n);
    } catch (...) {
        return nullptr;
    }
}
}  // namespace blocks
void* operator new(size_t n) { return blocks::take(n); }
void* operator new[](size_t n) { return blocks::take(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return blocks::tryTake(n); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return blocks::tryTake(n); }
void operator delete(void* p) noexcept { blocks::give(p); }
void operator delete[](void* p) noexcept { blocks::give(p); }
void operator delete(void* p, size_t) noexcept { blocks::give(p); }
void operator delete[](void* p, size_t) noexcept { blocks::give(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { blocks::give(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { blocks::give(p); }

static double DEADLINE = 0.80;  // CPU seconds of the process by which the move is chosen
static int USE_MCTS = 1, MODEL = 1;
// The model's look: MODEL_SHARE of what the exact search and the ranking left (the tree has the
// rest; none when the look plays a model win).  0.85 instead: more model wins played, no gain a
// match could show (NOTES.md, section 35).
static double MODEL_SHARE = 0.6;
static double RANK_SHARE = 0.3;  // of the move's time, at most, for the ranking by Grundy estimates
static int TREE_GRUNDY = 0, ROUNDS = 1, ROOT_RANKED = 1;
// The exact search's share of the move: EXACT_SMALL_SHARE up to EXACT_SURE live numbers (where it
// usually finishes), EXACT_MID_SHARE from there to 40, EXACT_SHARE to EXACT_NUMBERS, 0.15 beyond.
// With 0.85 up to 40, a group 2 game's first moves went to rounds that settled nothing and left the
// model and the tree a tenth of the move: against search.py, 30 pairs of fresh group 2 boards,
// 60.0 % of the points; with 0.4 from 11 live numbers on, 81.7 % (NOTES.md, section 6).
static double EXACT_SMALL_SHARE = 0.85;
static int EXACT_SURE = 10;
// A position whose live numbers can reach at most SMALL_ROOM free cells in all (the cells of their
// zones; and at most SMALL_ROOM_LIVE live numbers) is small too: EXACT_SMALL_SHARE and the narrow
// rounds (decay 2) whatever its live count.  The live count alone misjudges a search's size: the
// first positions of 10x10 boards have 11 to 22 live numbers in 52 to 88 cells, group 2 positions
// of 12 to 24 live numbers 78 to 160 cells, group 3 ones 200 to 400 (a 10x10 number of 1 to 9 has
// far fewer regions than a 15x15 one of 5 to 10).  Of 80 10x10 boards the solver calls won, the
// bot lost 13 with it, 17 or 18 without (NOTES.md, section 21).  0: the live count alone, as before.
// Beyond SMALL_ROOM_LIVE live numbers a position in at most SMALL_ROOM cells (small numbers close
// together) keeps the middle game's share but has the narrow rounds: 27 live numbers in 72 cells
// that the solver wins in 0.16 s (81 000 steps) were thrown with the wide rounds, which ended in
// round 1 (8 000 steps for the first move); narrow, the move proves the win in 0.14-0.18 s.  With
// EXACT_SMALL_SHARE as well, a position of 25 live numbers in 75 cells that no move's search settles
// was thrown: the tree, which wins it, got no time (NOTES.md, section 28).
static int SMALL_ROOM = 90;
static const int SMALL_ROOM_LIVE = 24;
// In a small position the rounds' order comes from the ranking without the model, as arena solve's
// does: the model's ranking, given a tenth of the move, ran out of it before valuing the moves that
// matter and left them behind 200 others; 19 live numbers in 74 cells that the solver wins in 0.24 s
// (214 000 steps) were thrown with it (the rounds need 2.5 s in its order) and are won in 0.23-0.24 s
// without it (NOTES.md, section 30).  Where the exact search fails, the model's look and the tree take
// that order too.  0: the model's ranking, as before.
static int SMALL_NO_MODEL = 1;
// The bot's first move of a game (no memory of an earlier move), more than FIRST_LIVE live numbers
// (up to EXACT_NUMBERS), neither small nor dense (a group 2 board's first position, or the first
// after the opponent's first move): the exact search gets FIRST_SHARE of the move, where it had
// 40 % (60 % above 40 live numbers) and settled next to nothing (1 root move proven lost of 3 700 to
// 5 800, in 14 such positions of 22 to 39 live numbers in 134 to 191 cells); the model's look and
// the tree get the rest.  Against search.py, group 2, the same 180 pairs of boards: 0.878 of the
// points, 0.833 without (NOTES.md, section 31).  0: as before.
static int FIRST_LIVE = 20;
static double FIRST_SHARE = 0.12;
static double EXACT_MID_SHARE = 0.4;
static int EXACT_NUMBERS = 80;
static double EXACT_SHARE = 0.6;

static double cpu() {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static u64 mix(u64 x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

struct Rng {
    u64 s;
    u64 next() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; }
    u32 below(u32 n) { return (u32)((next() >> 11) % n); }
};
static Rng rng{0x2545F4914F6CDD1DULL};

// ------------------------------------------------------------------ the engine, for 16 or 32 rows
// Everything below works on masks of R rows (one u32 per row): boards up to 16x16 use R = 16, which
// halves the work of every whole-mask operation and of every copy (NOTES.md, section 24); bigger
// boards R = 32.  main (at the end) reads the board's size and runs Engine<16> or Engine<32>.  (The
// body is not indented: read it as a namespace.)
static string stdinText;  // --solve, --grundy-check, --rank and --playouts: the board, as read from standard input by main
enum Mode { MOVE, SOLVE, GRUNDY_CHECK, RANK, PLAYOUTS };  // what main was asked for (its arguments)

template <int R> struct Engine {

// ------------------------------------------------------------------ masks
// Cell (x, y) is bit y of row x; a board of the mask engine has N <= 16 (R = 16) or N <= 31 (R =
// 32).  The rows from N on are 0 in every mask the operations below make: OR, AND, ANDNOT, ANY,
// MEETS, COUNT and GROW work on all R rows (fixed-length loops the compiler turns into vector
// instructions: 8 steps on a 30x30 board where a loop to N took 30; NOTES.md, section 23); the _ROWS
// forms and the loops that fill a mask row by row touch the board's rows only.
static inline int N = 0;
static inline u32 COLS = 0;

struct Mask {
    u32 r[R];
};
static inline void zero(Mask& m) { memset(m.r, 0, sizeof m.r); }
static inline Mask OR(const Mask& a, const Mask& b) { Mask m; for (int x = 0; x < R; ++x) m.r[x] = a.r[x] | b.r[x]; return m; }
static inline Mask AND(const Mask& a, const Mask& b) { Mask m; for (int x = 0; x < R; ++x) m.r[x] = a.r[x] & b.r[x]; return m; }
static inline Mask ANDNOT(const Mask& a, const Mask& b) { Mask m; for (int x = 0; x < R; ++x) m.r[x] = a.r[x] & ~b.r[x]; return m; }
static inline bool ANY(const Mask& a) { u32 o = 0; for (int x = 0; x < R; ++x) o |= a.r[x]; return o != 0; }
// (..._ROWS: only the rows from..to, clamped to the board; a mask's other rows are left alone)
static inline bool MEETS_ROWS(const Mask& a, const Mask& b, int from, int to) {
    u32 o = 0;
    for (int x = max(from, 0), e = min(to, N - 1); x <= e; ++x) o |= a.r[x] & b.r[x];
    return o != 0;
}
static inline bool MEETS(const Mask& a, const Mask& b) { u32 o = 0; for (int x = 0; x < R; ++x) o |= a.r[x] & b.r[x]; return o != 0; }
static inline bool EQ(const Mask& a, const Mask& b) { for (int x = 0; x < N; ++x) if (a.r[x] != b.r[x]) return false; return true; }
static inline int COUNT(const Mask& a) { int c = 0; for (int x = 0; x < R; ++x) c += __builtin_popcount(a.r[x]); return c; }
static inline bool TEST(const Mask& a, int c) { return (a.r[c >> 5] >> (c & 31)) & 1; }
static inline void SET(Mask& a, int c) { a.r[c >> 5] |= 1u << (c & 31); }
static inline void RESET(Mask& a, int c) { a.r[c >> 5] &= ~(1u << (c & 31)); }
static inline void GROW_ROWS(const Mask& a, Mask& m, int from, int to) {
    for (int x = max(from, 0), e = min(to, N - 1); x <= e; ++x) {
        u32 v = a.r[x] | a.r[x] << 1 | a.r[x] >> 1;
        if (x) v |= a.r[x - 1];
        if (x + 1 < N) v |= a.r[x + 1];
        m.r[x] = v & COLS;
    }
}
static inline u32 ROWS[R];  // COLS in the board's rows, 0 below them
static inline Mask GROW(const Mask& a) {
    Mask m;
    m.r[0] = (a.r[0] | a.r[0] << 1 | a.r[0] >> 1 | a.r[1]) & ROWS[0];
    for (int x = 1; x < R - 1; ++x) m.r[x] = (a.r[x] | a.r[x] << 1 | a.r[x] >> 1 | a.r[x - 1] | a.r[x + 1]) & ROWS[x];
    m.r[R - 1] = (a.r[R - 1] | a.r[R - 1] << 1 | a.r[R - 1] >> 1 | a.r[R - 2]) & ROWS[R - 1];
    return m;
}
static inline int LOWEST(const Mask& a) {
    for (int x = 0; x < N; ++x) if (a.r[x]) return x * 32 + __builtin_ctz(a.r[x]);
    return -1;
}
// HASH(AND(a, b)) with the cells of a in rows from..to only.  (Empty rows are skipped: a mask's
// hash costs what its rows of cells do.)
static inline u64 HASH_AND(const Mask& a, const Mask& b, int from = 0, int to = 31) {
    u64 h = 0x51ed27u;
    for (int x = max(from, 0), e = min(to, N - 1); x <= e; ++x)
        if (u32 w = a.r[x] & b.r[x]) h = mix(h ^ ((u64)x << 32 | w));
    return h;
}
static inline u64 HASH(const Mask& a) { return HASH_AND(a, a); }
static inline Mask SINGLE(int c) { Mask m; zero(m); SET(m, c); return m; }
// Cell c with its side neighbours (as cells).
static inline int around(int c, int* out) {
    int k = 0, x = c >> 5, y = c & 31;
    out[k++] = c;
    if (x > 0) out[k++] = c - 32;
    if (x + 1 < N) out[k++] = c + 32;
    if (y > 0) out[k++] = c - 1;
    if (y + 1 < N) out[k++] = c + 1;
    return k;
}
template <class F> static inline void each(const Mask& a, F f, int from = 0, int to = 31) {
    for (int x = max(from, 0), e = min(to, N - 1); x <= e; ++x) {
        u32 w = a.r[x];
        while (w) { int y = __builtin_ctz(w); w &= w - 1; f(x * 32 + y); }
    }
}

// ------------------------------------------------------------------ budget
struct TooBig {};
struct Budget {
    double deadline = 1e18;
    long nodes = 0, limit = -1;  // limit: give up after this many steps (-1: none)
    void check() {
        if ((limit >= 0 && nodes > limit) || cpu() > deadline) throw TooBig();
    }
    inline void tick() {
        ++nodes;
        if (!(nodes & 127)) check();
        else if (limit >= 0 && nodes > limit) throw TooBig();
    }
    // check() without a step: the clock (a system call: 8 % of a search's time when read at every
    // number of every position) in one call of 32.
    unsigned polls = 0;
    inline void poll() {
        if (!(++polls & 31)) check();
        else if (limit >= 0 && nodes > limit) throw TooBig();
    }
};
static inline Budget budget;

// Runs f within `steps` more search steps (no step limit of its own when negative) and by `until`
// (CPU) if that comes before the budget's deadline: true when f finished, false when it ran out
// (TooBig).  The budget's limit and deadline are restored however f ends (a refused allocation
// too); the steps spent stay counted.
template <class F> static bool within(long steps, F f, double until = 1e18) {
    struct Restore {
        Budget saved;
        ~Restore() {
            long used = budget.nodes;
            budget = saved;
            budget.nodes = used;
        }
    } restore{budget};
    if (steps >= 0) budget.limit = budget.nodes + steps;
    budget.deadline = min(budget.deadline, until);
    try {
        f();
    } catch (TooBig&) {
        return false;
    }
    return true;
}

// ------------------------------------------------------------------ positions
struct Num { int at, v; };
struct Part {
    Mask empty, cells;
    vector<Num> nums;
    vector<Mask> zones;
};
struct Pos {
    vector<Part> parts;
    bool dead = false;
    int numbers() const { int c = 0; for (auto& p : parts) c += p.nums.size(); return c; }
};

// Cells within distance v - 1 of `at` walking through `empty` (rows outside the zone are left alone).
// With `enough`, stops as soon as the zone has v cells (then only its size matters).
static Mask zoneOf(int at, int v, const Mask& empty, bool enough = false) {
    Mask z;
    zero(z);
    int x0 = at >> 5, lo = x0, hi = x0, count = 1;
    z.r[x0] = 1u << (at & 31);
    for (int i = 0; i < v - 1; ++i) {
        if (enough && count >= v) break;
        int a = max(0, lo - 1), b = min(N - 1, hi + 1);
        u32 changed = 0, above = a > 0 ? z.r[a - 1] : 0;  // (row x - 1 as it was before this step)
        count = 0;
        for (int x = a; x <= b; ++x) {  // (in place: row x + 1 is read before it changes)
            u32 cur = z.r[x], below = x + 1 < N ? z.r[x + 1] : 0;
            u32 w = ((cur | cur << 1 | cur >> 1 | above | below) & COLS & empty.r[x]) | cur;
            changed |= w ^ cur;
            above = cur;
            z.r[x] = w;
            count += __builtin_popcount(w);
        }
        if (!changed) break;
        if (z.r[a]) lo = a;
        if (z.r[b]) hi = b;
    }
    return z;
}

// Every cell number k of part p could ever paint, and their neighbours: what its moves can take.
static Mask paintReach(const Part& p, int k) { return GROW(OR(AND(p.zones[k], p.empty), SINGLE(p.nums[k].at))); }
// Whether number i of part p outlives any paint within `reach` (cells and neighbours): its cell is
// not in it, and it keeps v cells within reach once all of it is gone (a zone only shrinks as
// cells go, so any move taking part of `reach` leaves it alive).
static bool outlives(const Part& p, int i, const Mask& reach) {
    const Num& n = p.nums[i];
    return !TEST(reach, n.at) && COUNT(zoneOf(n.at, n.v, ANDNOT(AND(p.empty, p.zones[i]), reach), true)) >= n.v;
}

struct Live { Num n; Mask z; };

// The parts the live numbers fall into (zones that overlap or touch), appended to `out`: each
// part's numbers in their order in `live`, the parts in the order of their last number.
static inline const int MAX_CELLS = 31 * 31;
static void makeParts(const Mask& empty, const vector<Live>& live, vector<Part>& out) {
    static int up[MAX_CELLS], last[MAX_CELLS], lo[MAX_CELLS], hi[MAX_CELLS];
    static Mask halo[MAX_CELLS];  // (no recursion in here: static is safe)
    int n = live.size();
    auto find = [&](int i) { while (up[i] != i) i = up[i] = up[up[i]]; return i; };
    for (int i = 0; i < n; ++i) {
        // A zone is connected: its rows are the run of non-empty rows around its number's.  Only
        // those rows (and one more each way for the halo) are looked at.
        const Mask& z = live[i].z;
        int a = live[i].n.at >> 5, b = a;
        while (a > 0 && z.r[a - 1]) --a;
        while (b + 1 < N && z.r[b + 1]) ++b;
        lo[i] = a;
        hi[i] = b;
        up[i] = i;
        GROW_ROWS(z, halo[i], a - 1, b + 1);
        for (int j = 0; j < i; ++j) {
            int from = max(a, lo[j] - 1), to = min(b, hi[j] + 1);
            if (from > to) continue;
            int ra = find(i), rb = find(j);
            if (ra != rb && MEETS_ROWS(halo[j], z, from, to)) up[ra] = rb;
        }
    }
    // Each part's members in order, as a list through next[] (first[root]; count[root] of them).
    static int first[MAX_CELLS], tail[MAX_CELLS], next[MAX_CELLS], count[MAX_CELLS];
    for (int i = 0; i < n; ++i) count[up[i] = find(i)] = 0;
    for (int i = 0; i < n; ++i) {
        int root = up[i];
        if (count[root]++) next[tail[root]] = i;
        else first[root] = i;
        tail[root] = last[root] = i;
    }
    for (int i = 0; i < n; ++i) {
        int root = up[i];
        if (last[root] != i) continue;
        Part p;
        zero(p.cells);
        p.nums.reserve(count[root]);
        p.zones.reserve(count[root]);
        for (int m = first[root], k = 0; k < count[root]; ++k, m = next[m]) {
            p.cells = OR(p.cells, live[m].z);
            p.nums.push_back(live[m].n);
            p.zones.push_back(live[m].z);
        }
        p.empty = AND(empty, p.cells);
        out.push_back(std::move(p));
    }
}
static vector<Part> makeParts(const Mask& empty, const vector<Live>& live) {
    vector<Part> parts;
    makeParts(empty, live, parts);
    return parts;
}

static Pos build(const Mask& empty, const vector<Num>& numbers, bool dead) {
    vector<Live> live;
    for (auto& n : numbers) {
        Mask z = zoneOf(n.at, n.v, empty);
        if (COUNT(z) >= n.v) live.push_back({n, z});
        else dead = true;
    }
    Pos p;
    p.parts = makeParts(empty, live);
    p.dead = dead;
    return p;
}

// Equal keys, equal games: the part moved to the top-left corner.
static u64 partKey(const Part& p) {
    int top = -1, left = 31;
    for (int x = 0; x < N; ++x) if (p.cells.r[x]) { if (top < 0) top = x; left = min(left, __builtin_ctz(p.cells.r[x])); }
    u64 h = 0x1234567u;
    for (int x = top; x < N; ++x) if (p.cells.r[x] || p.empty.r[x]) h = mix(h ^ ((u64)(x - top) << 32 | (p.empty.r[x] >> left)));
    for (auto& n : p.nums) h = mix(h ^ (0xabcdef00000000ULL + ((u64)((n.at >> 5) - top) << 16 | (u64)((n.at & 31) - left) << 8) * 4096 + n.v));
    return h | 1;
}

// ------------------------------------------------------------------ memo (one open-addressing table)
// cost: the search steps the value took (what a full slot keeps, and what the memory file keeps)
struct Entry { u64 key; int32_t value; int32_t cost; };
static inline u64 TBITS = 21;  // 2^21 entries (32 MiB) in a move; more for --solve
static inline Entry* table = nullptr;
static inline const u64 TAG_GRUNDY = 0x1111, TAG_WINS = 0x2222, TAG_VALUE = 0x3333;
// gExact: the exact game (every effect of every number), or the model (candidate regions only).
static inline bool gExact = true;
static inline u64 tkey(u64 k, u64 tag) { u64 h = mix(k ^ mix(tag + (gExact ? 0 : 0x8888))); return h ? h : 1; }
static bool lookup(u64 k, int& v) {
    u64 mask = (1ULL << TBITS) - 1;
    for (u64 i = 0, j = k & mask; i < 8; ++i, j = (j + 1) & mask) {
        if (table[j].key == k) { v = table[j].value; return true; }
        if (!table[j].key) return false;
    }
    return false;
}
static void store(u64 k, int v, long cost = 0) {
    u64 mask = (1ULL << TBITS) - 1;
    int32_t c = (int32_t)min(cost, (long)INT32_MAX);
    u64 cheapest = k & mask;
    for (u64 i = 0, j = k & mask; i < 8; ++i, j = (j + 1) & mask) {
        if (!table[j].key || table[j].key == k) { table[j] = Entry{k, v, max(c, table[j].key ? table[j].cost : 0)}; return; }
        if (table[j].cost < table[cheapest].cost) cheapest = j;
    }
    table[cheapest] = Entry{k, v, c};  // full: the cheapest of the 8 goes
}

// ------------------------------------------------------------------ moves
// chosen plus `left` cells of reach, breadth first.
static Mask fillFrom(Mask chosen, const Mask& reach, int left) {
    while (left) {
        Mask ring = ANDNOT(AND(GROW(chosen), reach), chosen);
        if (!ANY(ring)) break;
        for (int x = 0; x < N && left; ++x) {
            u32 w = ring.r[x];
            while (w && left) { int y = __builtin_ctz(w); w &= w - 1; chosen.r[x] |= 1u << y; --left; }
        }
    }
    return chosen;
}

// Regions held by the exact search at once (the move lists of every level of its recursion, and
// the enumeration under way): past HELD_MAX it gives up (TooBig), as when out of time.  A Mask is
// 128 bytes and the arena allows 256 MiB (RLIMIT_DATA): a 20 on an open board has over a million
// regions, which the enumeration once tried to hold (a refused allocation, and the plain fallback
// move).  2^18 regions: 32 MiB held (64 MiB of vectors' capacity), 32 MiB for the enumeration.
// Only regions of distinct effects are held (see Enum): before, every trace was, and late in a
// 30x30 game the search gave up at once even with 2 or 3 live numbers (thousands of effects,
// hundreds of thousands of traces).  Unlimited for --solve, which runs outside the sandbox.
static inline size_t held = 0, HELD_MAX = (size_t)1 << 18;
struct Hold {
    size_t n;
    explicit Hold(size_t k) : n(k) { held += k; }
    ~Hold() { held -= n; }
};

// Hashes held in HashSets at once (the effects seen by every enumeration under way, at every level
// of the search's recursion): past HASHED_MAX (2^21: at most about 45 MiB of slots) the search
// gives up (TooBig) as when out of time.  Unlimited for --solve.
static inline size_t hashed = 0, HASHED_MAX = (size_t)1 << 21;

// A set of 64-bit hashes (open addressing; the enumeration below inserts millions of them).
struct HashSet {
    vector<u64> slot = vector<u64>(64, 0);
    size_t used = 0;
    HashSet() = default;
    HashSet(const HashSet&) = delete;
    HashSet& operator=(const HashSet&) = delete;
    HashSet(HashSet&& o) noexcept : slot(std::move(o.slot)), used(o.used) { o.used = 0; }
    ~HashSet() { hashed -= used; }
    bool contains(u64 h) const {
        h |= 1;
        size_t m = slot.size() - 1;
        for (size_t i = h & m; slot[i]; i = (i + 1) & m)
            if (slot[i] == h) return true;
        return false;
    }
    bool insert(u64 h) {  // whether h is new
        h |= 1;           // (0 marks a free slot)
        if (hashed >= HASHED_MAX) throw TooBig();
        if (4 * (used + 1) > 3 * slot.size()) {
            vector<u64> old(slot.size() * 2, 0);
            old.swap(slot);
            for (u64 k : old)
                if (k) place(k);
        }
        size_t m = slot.size() - 1;
        for (size_t i = h & m; slot[i]; i = (i + 1) & m)
            if (slot[i] == h) return false;
        place(h);
        ++used;
        ++hashed;
        return true;
    }
    void place(u64 h) {
        size_t m = slot.size() - 1, i = h & m;
        while (slot[i]) i = (i + 1) & m;
        slot[i] = h;
    }
};

// IMMUNE: a branch of the enumeration whose last other survivor no region of the moving number can
// kill is finished once that survivor was seen spared (Tracked::immuneAt; 0: only once it was seen
// both killed and spared, as before 2026-11-29, for the tests; NOTES.md, section 36); and a part
// none of whose numbers can ever be killed is valued as so many single moves (independent()).
static inline int IMMUNE = 1;

// A move of number k of part p, and the other numbers that may outlive it (those beside it die
// anyway): `others`, their zones, is where a region's effect lies.  The enumeration tracks the
// death of at most 64 of them; any further ones count as alive, which is only slower.
struct Tracked {
    const Part* p;
    int k, m = 0, j[64];
    u64 all = 0;     // the bits of the m numbers
    Mask others;     // the zones of every other number that may outlive the move
    Mask untracked;  // zones of others beyond the 64
    bool more = false;
    Tracked(const Part& part, int number) : p(&part), k(number) {
        zero(others);
        zero(untracked);
        Mask beside = GROW(SINGLE(part.nums[k].at));
        for (int i = 0; i < (int)part.nums.size(); ++i) {
            if (i == k || TEST(beside, part.nums[i].at)) continue;
            others = OR(others, part.zones[i]);
            if (m < 64) j[m++] = i;
            else { untracked = OR(untracked, part.zones[i]); more = true; }
        }
        all = m == 64 ? ~0ULL : (1ULL << m) - 1;
    }
    // At most one other number alive: it is alone after the move (a part of one number, the same
    // game whatever its zone), so only which numbers die matters, not the cells.
    bool single(u64 dead) const { return !more && __builtin_popcountll(all & ~dead) <= 1; }
    // The key of a move that leaves at most one other number alive: which ones it kills.
    static u64 deaths(u64 dead) { return mix(dead + 0x51); }
    // What a move changes for the rest of the game, as a hash: which of the others it kills, and
    // the cells of the survivors' zones it covers or touches (the dead ones' zones no longer matter).
    // (from..to: the rows the effect may have cells in; all by default)
    u64 key(const Mask& effect, const Mask& live, u64 dead, int from = 0, int to = 31) const {
        if (single(dead)) return deaths(dead);
        return HASH_AND(effect, live, from, to) ^ mix(dead + 0x9e3779b9ULL);
    }
    // Whether the t-th tracked number is dead once the cells `effect` of the others' zones are
    // painted or beside paint (as survivors() decides: its cell among them, or fewer than v cells
    // left within reach).  Cells only ever join the effect, so a dead number stays dead.
    // A number found alive keeps the cells that showed it (wit[t]: at least v connected cells of its
    // zone from its own, all empty but its own): while an effect misses them it is alive whatever
    // else the effect holds (v of them within v - 1 steps of it), and no zone is grown.  Effects
    // only grow along a branch of the enumeration, and most of them stay far from most numbers:
    // growing those zones was 14-21 % of solving a group 3 position.
    mutable vector<Mask> wit;
    mutable u64 witnessed = 0;
    // (a..b: the rows the effect may have cells in; all by default)
    bool dies(int t, const Mask& effect, int a = 0, int b = 31) const {
        const Num& n = p->nums[j[t]];
        if (TEST(effect, n.at)) return true;
        if ((witnessed >> t & 1) && !MEETS_ROWS(wit[t], effect, a, b)) return false;
        Mask z = zoneOf(n.at, n.v, ANDNOT(AND(p->empty, p->zones[j[t]]), effect), true);
        if (COUNT(z) < n.v) return true;
        if (wit.empty()) wit.resize(m);
        wit[t] = z;
        witnessed |= 1ULL << t;
        return false;
    }
    // The zones of the numbers not in `dead`.
    // (from..to: only these rows are filled, the others are left empty)
    Mask live(u64 dead, int from = 0, int to = 31) const {
        Mask l;
        zero(l);
        from = max(from, 0);
        to = min(to, N - 1);
        for (int x = from; x <= to; ++x) l.r[x] = untracked.r[x];
        for (int t = 0; t < m; ++t)
            if (!(dead >> t & 1))
                for (int x = from; x <= to; ++x) l.r[x] |= p->zones[j[t]].r[x];
        return l;
    }
    // Whether no region of the move's number can kill the t-th tracked number (it outlives all the
    // number's paint reach).  (Computed once per tracked number, when asked.)
    mutable u64 immuneKnown = 0, immune = 0;
    bool immuneAt(int t) const {
        if (immuneKnown >> t & 1) return immune >> t & 1;
        immuneKnown |= 1ULL << t;
        bool safe = outlives(*p, j[t], paintReach(*p, k));
        if (safe) immune |= 1ULL << t;
        return safe;
    }
    // The dead set once `effect` meets the zones of the numbers not yet dead at the cells `fresh`.
    u64 update(u64 dead, const Mask& effect, const Mask& fresh) const {
        for (int t = 0; t < m; ++t)
            if (!(dead >> t & 1) && MEETS(fresh, p->zones[j[t]]) && dies(t, effect)) dead |= 1ULL << t;
        return dead;
    }
};

// Tracked::key of a whole region of the move's number (its effect on tr.others).
static u64 regionKey(const Tracked& tr, const Mask& region) {
    Mask effect = AND(GROW(region), tr.others);
    u64 dead = tr.update(0, effect, effect);
    return tr.key(effect, tr.live(dead), dead);
}

// Redelmeier's enumeration of connected sets of v cells (bit at plus cells of allowed), one per
// distinct effect on `others` (the cells of the other numbers' zones that the region covers or
// touches; nothing else of a move matters to the rest of the game).  The effect E of the cells
// chosen so far grows cell by cell; a branch whose reachable cells can add nothing to it (none
// touches a cell of a surviving number's zone outside E) is finished at once.  A number killed by
// the cells chosen so far (touched, or left fewer cells than its value) stays dead whatever
// follows: its zone stops mattering, and once every other number is dead the branch is finished
// at once (a 20 among a 10 and a 14 in 30 cells kills both in most of its millions of regions);
// with one survivor left, a branch is cut once that survivor has been seen both killed and spared
// (Tracked::single).  Different branches may still reach one effect: only its first region is
// kept (`seen`).  Solving a group 3 position of 4 live numbers
// (NOTES.md, section 7), the enumeration by traces on the others' surroundings ended 16.5 million
// of them (1.6 million effects kept) in 8.2 s; this one ends 4.7 million regions (0.9 million
// effects) in 2.1 s.  Masks are only worked on within the rows [lo, hi] of the number and its
// allowed cells (the rows outside stay zero).
// Each region is handed to `f` as it ends (f returns true to stop the enumeration: finish and
// allRegions then return true), so a search finds a winning move without enumerating the rest.
template <class F> struct Enum {
    const Mask* allowed;
    const Mask* others;
    const Tracked* tr;
    HashSet* seen;
    F* f;
    int lo, hi;
    const u64* owners;  // owners[cell]: the tracked numbers whose zones hold the cell
    // The dead set once the effect meets, at a new cell, the zones `met` (owners of the new cells).
    u64 update(u64 dead, const Mask& effect, u64 met) const {
        for (u64 w = met & ~dead; w; w &= w - 1) {
            int t = __builtin_ctzll(w);
            if (tr->dies(t, effect, max(0, lo - 1), hi + 1)) dead |= 1ULL << t;
        }
        return dead;
    }
    bool emit(const Mask& r, const Mask& effect, const Mask& live, u64 dead) {
        if (!seen->insert(tr->key(effect, live, dead, lo - 1, hi + 1))) return false;
        return (*f)(r);
    }
    // `live`: the zones of the others not yet dead (`dead`, bits of tr's numbers).
    bool finish(const Mask& chosen, Mask frontier, const Mask& seenCells, int left, const Mask& effect,
                const Mask& live, u64 dead) {
        if (tr->single(dead)) {  // both ends of the last survivor seen (or the one it can have): nothing new below
            u64 last = tr->all & ~dead;
            if (seen->contains(Tracked::deaths(dead)) &&
                ((last && IMMUNE && tr->immuneAt(__builtin_ctzll(last))) || seen->contains(Tracked::deaths(dead | last))))
                return false;
        }
        Mask sensitive, free;  // cells that would add to the effect; allowed cells not looked at yet
        for (int x = lo; x <= hi; ++x) {
            u32 t = live.r[x] & ~effect.r[x], g = t | t << 1 | t >> 1;
            if (x > 0) g |= live.r[x - 1] & ~effect.r[x - 1];
            if (x + 1 < N) g |= live.r[x + 1] & ~effect.r[x + 1];
            sensitive.r[x] = g & COLS;
            free.r[x] = allowed->r[x] & ~seenCells.r[x];
        }
        while (true) {
            u32 any = 0;
            for (int x = lo; x <= hi; ++x) any |= frontier.r[x];
            if (!any) return false;
            budget.tick();
            // The cells reachable within `left` steps: enough of them to finish the region, and one
            // that adds to the effect?  (Breadth first, stopping as soon as both are known.)
            Mask reach = frontier;
            int count = 0;
            u32 adds = 0;
            for (int x = lo; x <= hi; ++x) {
                count += __builtin_popcount(reach.r[x]);
                adds |= reach.r[x] & sensitive.r[x];
            }
            for (int i = 0; i < left - 1 && !(adds && count >= left); ++i) {
                Mask w;
                u32 grew = 0;
                for (int x = lo; x <= hi; ++x) {
                    u32 g = reach.r[x] << 1 | reach.r[x] >> 1;
                    if (x > lo) g |= reach.r[x - 1];
                    if (x < hi) g |= reach.r[x + 1];
                    w.r[x] = reach.r[x] | (g & (free.r[x] | frontier.r[x]));
                    grew |= w.r[x] ^ reach.r[x];
                }
                if (!grew) break;
                for (int x = lo; x <= hi; ++x) reach.r[x] = w.r[x];
                count = 0;
                for (int x = lo; x <= hi; ++x) {
                    count += __builtin_popcount(reach.r[x]);
                    adds |= reach.r[x] & sensitive.r[x];
                }
            }
            if (count < left) return false;
            if (!adds) return emit(fillFrom(chosen, reach, left), effect, live, dead);
            // Branch on the frontier cell that adds most to the effect (deciding the cells that
            // matter first finishes branches sooner: 2 to 4 times fewer regions visited than
            // taking the lowest cell), else on the lowest.
            int c = -1, most = 0;
            for (int x = lo; x <= hi; ++x)
                for (u32 w = frontier.r[x] & sensitive.r[x]; w; w &= w - 1) {
                    int cell = x * 32 + __builtin_ctz(w), near[5], k = around(cell, near), gain = 0;
                    for (int i = 0; i < k; ++i) gain += TEST(live, near[i]) && !TEST(effect, near[i]);
                    if (gain > most) { most = gain; c = cell; }
                }
            if (c < 0) c = LOWEST(frontier);
            RESET(frontier, c);
            Mask chosen2 = chosen, effect2 = effect, frontier2 = frontier, seen2 = seenCells;
            SET(chosen2, c);
            int near[5], k = around(c, near);
            u64 met = 0;  // the numbers whose zones hold a live cell new to the effect
            for (int i = 0; i < k; ++i) {
                int d = near[i];
                if (TEST(*others, d)) {
                    if (!TEST(effect2, d) && TEST(live, d)) met |= owners[d];
                    SET(effect2, d);
                }
                if (TEST(*allowed, d) && !TEST(seenCells, d)) { SET(frontier2, d); SET(seen2, d); }
            }
            u64 dead2 = update(dead, effect2, met);
            Mask live2;
            if (dead2 != dead) live2 = tr->live(dead2, lo - 1, hi + 1);
            const Mask& l2 = dead2 == dead ? live : live2;
            if (left == 1) {
                if (emit(chosen2, effect2, l2, dead2)) return true;
                continue;
            }
            if (finish(chosen2, frontier2, seen2, left - 1, effect2, l2, dead2)) return true;
        }
    }
};

// Every region of the move's number (tr) whose effect is not yet in `seen`, handed to f(region)
// (true: stop, and allRegions returns true).
template <class F> static bool allRegions(const Tracked& tr, HashSet& seen, F f) {
    const Num& n = tr.p->nums[tr.k];
    int at = n.at, v = n.v;
    Mask allowed = AND(tr.p->zones[tr.k], tr.p->empty);
    const Mask& others = tr.others;
    Mask start = SINGLE(at);
    vector<u64> owners(32 * N, 0);
    for (int t = 0; t < tr.m; ++t) each(tr.p->zones[tr.j[t]], [&](int c) { owners[c] |= 1ULL << t; });
    Enum<F> e{&allowed, &others, &tr, &seen, &f, at >> 5, at >> 5, owners.data()};
    for (int x = 0; x < N; ++x)
        if (allowed.r[x]) { e.lo = min(e.lo, x); e.hi = max(e.hi, x); }
    Mask effect = AND(GROW(start), others);
    u64 dead = tr.update(0, effect, effect);
    Mask live = tr.live(dead);
    if (v == 1) return e.emit(start, effect, live, dead);
    Mask front = AND(GROW(start), allowed);
    return e.finish(start, front, OR(start, front), v - 1, effect, live, dead);
}

// Grow `chosen` to v cells of allowed, one neighbour at a time, taking the cell whose new
// surroundings touch the fewest (gentle) or most other numbers, then zone cells; then the most compact.
static Mask growRegion(Mask chosen, int v, const Mask& allowed, const Mask& others, const Mask& numbers, bool gentle) {
    Mask foot = GROW(chosen);
    int sign = gentle ? 1 : -1;
    int have = COUNT(chosen);
    if (have >= v) return chosen;
    int nb[5];
    // A cell's cost reads the cells beside it, so taking a cell changes the costs within two steps
    // of it only: the others are kept (cost[c] for the cells of front), not recomputed at every step.
    static long cost[MAX_CELLS + 32];  // (nothing in here comes back to growRegion)
    // (over c and its four neighbours: the cells y - 1 .. y + 1 of its row, y of the rows beside;
    // a mask has no cells off the board)
    auto costOf = [&](int c) {
        int x = c >> 5, y = c & 31;
        u32 three = (u32)((7ULL << y) >> 1), one = 1u << y, open = ~foot.r[x] & three;
        int kills = __builtin_popcount(numbers.r[x] & open), harm = __builtin_popcount(others.r[x] & open);
        int compact = __builtin_popcount(chosen.r[x] & three);
        for (int z = x - 1; z <= x + 1; z += 2) {
            if (z < 0 || z >= N) continue;
            u32 near = ~foot.r[z] & one;
            kills += (numbers.r[z] & near) != 0;
            harm += (others.r[z] & near) != 0;
            compact += (chosen.r[z] & one) != 0;
        }
        return ((long)(sign * (kills * 16 + harm)) * 8 - compact) * 4096 + c;  // (+ c: no two alike)
    };
    Mask front = ANDNOT(AND(foot, allowed), chosen);
    int lo = 0, hi = N - 1;  // (the rows front can have cells in: those of allowed; on a 30x30 board
    while (lo < hi && !allowed.r[lo]) ++lo;  // scanning every row for the cheapest cell was most of
    while (hi > lo && !allowed.r[hi]) --hi;  // the candidates' time)
    each(front, [&](int c) { cost[c] = costOf(c); }, lo, hi);
    while (have < v) {
        long best = LONG_MAX;
        int bestc = -1;
        each(front, [&](int c) {
            if (cost[c] < best) { best = cost[c]; bestc = c; }
        }, lo, hi);
        if (bestc < 0) break;
        SET(chosen, bestc);
        RESET(front, bestc);
        int k = around(bestc, nb);
        for (int i = 0; i < k; ++i) {
            SET(foot, nb[i]);
            if (TEST(allowed, nb[i]) && !TEST(chosen, nb[i])) SET(front, nb[i]);
        }
        int bx = bestc >> 5, by = bestc & 31;
        for (int x = max(0, bx - 2); x <= min(N - 1, bx + 2); ++x) {  // (the cells of front within 2 steps)
            int dy = 2 - abs(x - bx), y0 = max(0, by - dy), y1 = min(31, by + dy);
            u32 cols = (u32)((2ULL << y1) - (1ULL << y0));
            for (u32 w = front.r[x] & cols; w; w &= w - 1) {
                int c = x * 32 + __builtin_ctz(w);
                cost[c] = costOf(c);
            }
        }
        ++have;
    }
    return chosen;
}

// Path (as cells, from layer 1 to `end`) back through BFS layers.
static vector<int> pathBack(const vector<Mask>& layers, int end) {
    vector<int> path{end};
    int cell = end, nb[5];
    for (int l = (int)layers.size() - 2; l >= 1; --l) {
        int k = around(cell, nb);
        for (int i = 1; i < k; ++i) if (TEST(layers[l], nb[i])) { cell = nb[i]; break; }
        path.push_back(cell);
    }
    reverse(path.begin(), path.end());
    return path;
}

// Shortest paths of at most v cells from `at` to a cell touching another number (nearest first).
static void pathsToNumbers(int at, int v, const Mask& allowed, const Mask& numbers, int reach, vector<Mask>& out) {
    vector<Mask> layers{SINGLE(at)};
    Mask seen = layers[0];
    Mask targets = AND(GROW(numbers), allowed);
    Mask hit = AND(GROW(layers[0]), numbers);
    int found = 0, nb[5];
    while ((int)layers.size() < v && found < reach) {
        Mask ring = ANDNOT(AND(GROW(layers.back()), allowed), seen);
        if (!ANY(ring)) return;
        seen = OR(seen, ring);
        layers.push_back(ring);
        Mask t = AND(ring, targets);
        bool stop = false;
        each(t, [&](int c) {
            if (stop) return;
            int k = around(c, nb);
            bool victim = false;
            for (int i = 1; i < k; ++i) if (TEST(numbers, nb[i]) && !TEST(hit, nb[i])) { victim = true; SET(hit, nb[i]); }
            if (victim && found < reach) {
                ++found;
                Mask m = layers[0];
                for (int cell : pathBack(layers, c)) SET(m, cell);
                out.push_back(m);
            }
            if (found >= reach) stop = true;
        });
    }
}

// At most v cells: shortest paths to the nearest untouched number, again and again.
static Mask sweep(int at, int v, const Mask& allowed, const Mask& numbers) {
    Mask chosen = SINGLE(at);
    while (COUNT(chosen) < v) {
        Mask targets = ANDNOT(AND(GROW(ANDNOT(numbers, GROW(chosen))), allowed), chosen);
        vector<Mask> layers{chosen};
        Mask seen = chosen;
        while (!MEETS(layers.back(), targets)) {
            Mask ring = ANDNOT(AND(GROW(layers.back()), allowed), seen);
            if (!ANY(ring)) return chosen;
            seen = OR(seen, ring);
            layers.push_back(ring);
        }
        if (layers.size() == 1) return chosen;
        int end = LOWEST(AND(layers.back(), targets));
        vector<int> path = pathBack(layers, end);
        int room = v - COUNT(chosen);
        for (int i = 0; i < (int)path.size() && i < room; ++i) SET(chosen, path[i]);
    }
    return chosen;
}

static inline unordered_map<u64, vector<Mask>> candCache;
static inline size_t candCached = 0;  // regions held by candCache
// CAND_HARSH: each path to a near number is also grown harshly (0: gently only, as before
// 2026-11-26; NOTES.md, section 12: the model's wins are more often real with it).
static inline int CAND_HARSH = 1;

// A few regions of number k that differ in what they do to the other numbers: the one that harms
// them least, the one that harms them most, a sweep towards the nearest numbers, and for each of
// the `reach` nearest numbers a shortest path that touches it (kills it), grown to v cells once
// sparing the rest as far as it can and once harming them as much as it can.
static void candidates(const Part& p, int k, vector<Mask>& out, int reach = 4) {
    int at = p.nums[k].at, v = p.nums[k].v;
    Mask allowed = AND(p.zones[k], p.empty), others, numbers;
    zero(others);
    zero(numbers);
    for (int i = 0; i < (int)p.nums.size(); ++i)
        if (i != k) { others = OR(others, p.zones[i]); SET(numbers, p.nums[i].at); }
    // They depend only on what lies within one step of the number's free cells: remembered.
    Mask near = GROW(OR(allowed, SINGLE(at)));
    u64 key = mix(mix(HASH(allowed) ^ (u64)at << 40 ^ (u64)v << 52 ^ (u64)reach << 58) ^ HASH(AND(others, near))) ^ mix(HASH(AND(numbers, near)) + 1);
    auto it = candCache.find(key);
    if (it != candCache.end()) { out.insert(out.end(), it->second.begin(), it->second.end()); return; }
    size_t from = out.size();
    // (a region met twice is kept once: a path that already has v cells, or that grows one way
    // only, gives the same region gently and harshly, 6-28 % of the harsh ones)
    auto add = [&](const Mask& r) {
        for (size_t i = from; i < out.size(); ++i)
            if (EQ(out[i], r)) return;
        out.push_back(r);
    };
    add(growRegion(SINGLE(at), v, allowed, others, numbers, true));
    add(growRegion(SINGLE(at), v, allowed, others, numbers, false));
    add(growRegion(sweep(at, v, allowed, numbers), v, allowed, others, numbers, false));
    vector<Mask> paths;
    pathsToNumbers(at, v, allowed, numbers, reach, paths);
    for (auto& m : paths) add(growRegion(m, v, allowed, others, numbers, true));
    if (CAND_HARSH)
        for (auto& m : paths) add(growRegion(m, v, allowed, others, numbers, false));
    if (candCached > 400000) {  // at most about 50 MiB of regions
        candCache.clear();
        candCached = 0;
    }
    candCached += out.size() - from;
    candCache.emplace(key, vector<Mask>(out.begin() + from, out.end()));
}

// The candidate regions of the move's number (tr) whose effect is not yet in `seen`, handed to
// f(region) (true: stop, and candidateMoves returns true).
template <class F> static bool candidateMoves(const Tracked& tr, HashSet& seen, F f) {
    budget.poll();
    vector<Mask> cand;
    candidates(*tr.p, tr.k, cand);
    Hold hold(cand.size());
    for (auto& r : cand)  // (a region of another size: never, the number is live)
        if (COUNT(r) == tr.p->nums[tr.k].v && seen.insert(regionKey(tr, r)) && f(r)) return true;
    return false;
}

// The moves of number k to consider, one per distinct effect on the others: candidates
// first, then (exact) every other effect.
// It stops once `out` has `most` moves (the candidates counted): false then, true when every
// move was given.
static bool movesOf(const Part& p, int k, bool exact, vector<Mask>& out, size_t most = SIZE_MAX) {
    Tracked tr(p, k);
    HashSet seen;
    candidateMoves(tr, seen, [&](const Mask& r) {
        out.push_back(r);
        return false;
    });
    if (!exact) return true;
    return !allRegions(tr, seen, [&](const Mask& r) {
        if (held + out.size() >= HELD_MAX) throw TooBig();
        out.push_back(r);
        return out.size() >= most;
    });
}

// The moves of the numbers of parts[0..n) that the search tries, one per distinct effect, handed
// to f(part index, number index, region) as they come (true: stop; eachMove returns true): every
// number's candidates first, then (exact) every other effect, number by number.  A good candidate
// settles most positions (a win found, or a Grundy value's options all seen) before anything is
// enumerated: late in a group 3 game a 10 beside an 11 has 50 000 effects and an 18 more than the
// move's time allows, where its candidates show at once that it can kill the 11 or spare it.
template <class F> static bool eachMove(const Part* parts, int n, bool exact, F f) {
    int total = 0;
    for (int i = 0; i < n; ++i) total += parts[i].nums.size();
    vector<Tracked> moves;  // one per number, in order, with its effects seen so far
    vector<HashSet> seen(total);
    vector<int> part;
    moves.reserve(total);
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < (int)parts[i].nums.size(); ++k) {
            moves.emplace_back(parts[i], k);
            part.push_back(i);
            if (candidateMoves(moves.back(), seen[moves.size() - 1], [&](const Mask& r) { return f(i, k, r); }))
                return true;
        }
    if (!exact) return false;
    for (int t = 0; t < total; ++t)
        if (allRegions(moves[t], seen[t], [&](const Mask& r) { return f(part[t], moves[t].k, r); })) return true;
    return false;
}

// The numbers of part p still paintable once number k is painted with a region whose cells and
// neighbours are `gone` (`empty`: the part's empty cells left); `dead` is set when one dies.
static void survivors(const Part& p, int k, const Mask& gone, const Mask& empty, bool enough, vector<Live>& live,
                      bool& dead) {
    for (int i = 0; i < (int)p.nums.size(); ++i) {
        if (i == k) continue;
        const Num& n = p.nums[i];
        if (TEST(gone, n.at)) { dead = true; continue; }
        Mask z = p.zones[i];
        if (MEETS(z, gone)) {
            z = zoneOf(n.at, n.v, empty, enough);
            if (COUNT(z) < n.v) { dead = true; continue; }
        }
        live.push_back({n, z});
    }
}

static void afterPart(const Part& p, int k, const Mask& region, vector<Part>& parts, bool& dead) {
    Mask gone = GROW(region);
    Mask empty = ANDNOT(p.empty, gone);
    static vector<Live> live;  // (not re-entered: survivors and makeParts call nothing that comes back here)
    live.clear();
    survivors(p, k, gone, empty, false, live, dead);
    makeParts(empty, live, parts);
}

static Pos afterMove(const Pos& pos, int i, int k, const Mask& region) {
    Pos r;
    r.dead = pos.dead;
    for (int j = 0; j < (int)pos.parts.size(); ++j)
        if (j != i) r.parts.push_back(pos.parts[j]);
        else afterPart(pos.parts[j], k, region, r.parts, r.dead);
    return r;
}

// ------------------------------------------------------------------ exact solver
enum { LOSS = -1, DRAW = 0, WIN = 1 };

// Whether no move can ever kill a number of part p: no number's cell is within one step of a cell
// another number could paint, and each keeps v cells within reach once every cell the others could
// paint, and their neighbours, are gone.  Moves only take cells, so then every number is painted
// once whatever the order: the part is as many single moves as it has numbers (its Grundy value
// the parity of their count; before the first death, a draw).  In big open rooms late in a group 3
// game such parts, whose numbers' zones touch but whose numbers are too far apart to kill one
// another, took the search every region of each number (NOTES.md, section 36).
static bool independent(const Part& p) {
    int n = p.nums.size();
    if (!IMMUNE || n > 64) return false;
    // (first the cheap test, which rejects most parts: a cell beside number i, or its own, that
    // number j could paint, or j's own cell)
    int near[5];
    for (int i = 0; i < n; ++i) {
        int c = around(p.nums[i].at, near);
        for (int j = 0; j < n; ++j)
            for (int t = 0; j != i && t < c; ++t)
                if (near[t] == p.nums[j].at || (TEST(p.zones[j], near[t]) && TEST(p.empty, near[t]))) return false;
    }
    Mask reach[64];
    for (int j = 0; j < n; ++j) reach[j] = paintReach(p, j);
    for (int i = 0; i < n; ++i) {
        Mask others;
        zero(others);
        for (int j = 0; j < n; ++j)
            if (j != i) others = OR(others, reach[j]);
        if (!outlives(p, i, others)) return false;
    }
    return true;
}

static int grundyOf(const Part& p) { return p.nums.size() == 1 ? 1 : grundyOf(p, partKey(p)); }
static int xorOf(const vector<Part>& parts) {
    int t = 0;
    for (auto& p : parts) t ^= grundyOf(p);
    return t;
}

// pk: partKey(p) (computed once by the callers that also look the part up otherwise).
static int grundyOf(const Part& p, u64 pk) {
    int count = p.nums.size();
    if (count == 1) return 1;
    u64 key = tkey(pk, TAG_GRUNDY);
    int found;
    if (lookup(key, found)) return found;
    if (independent(p)) {
        store(key, count & 1);
        return count & 1;
    }
    long start = budget.nodes;
    budget.tick();
    vector<char> options(count + 2, 0);
    int have = 0;
    eachMove(&p, 1, gExact, [&](int, int k, const Mask& r) {
        vector<Part> parts;
        bool dead = false;
        afterPart(p, k, r, parts, dead);
        int g = xorOf(parts);
        if (g <= count && !options[g]) { options[g] = 1; ++have; }
        return have == count && options[count - 1];  // every value below count: the value is count
    });
    int m = 0;
    while (options[m]) ++m;
    store(key, m, budget.nodes - start);
    return m;
}

// Killer moves: at each depth of the search, the last KILLERS moves that won there, the latest
// first.  The game is the same for both players and a winning reply is often winning again in the
// sibling positions (the move it answered changed little around it): they are tried before the
// position's own moves wherever they are still legal (NOTES.md, section 16).
static inline int KILLERS = 8;
static inline const int KILLER_DEPTHS = 128;
static inline const int KILLER_SLOTS = 16;
static inline Mask killer[KILLER_DEPTHS][KILLER_SLOTS];
static inline bool killerSet[KILLER_DEPTHS][KILLER_SLOTS];
static inline int depth = 0;
// Progress of a root move's search (bestByRounds): the opponent's replies it refuted at the depth
// of the position after the move (`progressDepth`; -1: none counted), in its last try.
static inline long progress = 0;
static inline int progressDepth = -1;
struct Deeper {
    int d;
    Deeper() : d(depth++) {}
    ~Deeper() { --depth; }
};
// Is killer s at depth d a legal move of a number of parts[0..n)? (i, k: which)
static bool killerFits(int d, int s, const Part* parts, int n, int& i, int& k) {
    if (s >= KILLERS || !gExact || d >= KILLER_DEPTHS || !killerSet[d][s]) return false;
    const Mask& r = killer[d][s];
    for (i = 0; i < n; ++i)
        for (k = 0; k < (int)parts[i].nums.size(); ++k) {
            const Num& num = parts[i].nums[k];
            if (!TEST(r, num.at)) continue;
            Mask rest = r;
            RESET(rest, num.at);
            return COUNT(r) == num.v && !ANY(ANDNOT(rest, parts[i].empty));
        }
    return false;
}
static void killerWon(int d, const Mask& r) {
    if (!KILLERS || !gExact || d >= KILLER_DEPTHS) return;
    int s = 0;  // (r moves to the front; the others keep their order)
    while (s < KILLERS - 1 && !(killerSet[d][s] && EQ(killer[d][s], r))) ++s;
    for (; s > 0; --s) {
        killer[d][s] = killer[d][s - 1];
        killerSet[d][s] = killerSet[d][s - 1];
    }
    killer[d][0] = r;
    killerSet[d][0] = true;
}

// Whether the player to move wins the parts plus a Nim heap (no draws).
// HEAP_LATE: when the heap is made smaller.  A smaller heap is a whole search of the part (the one
// that wins is a proof that every move of the part fails); a move of the part is one position.
// 2: after the killer moves and the part's candidates, 1: after the killer moves, 0: first (as
// before 2026-11-27; NOTES.md, section 20).
static inline int HEAP_LATE = 2;
static bool wins(const vector<Part>& parts, int heap) {
    struct Big { const Part* p; u64 pk; };
    vector<Big> big;
    for (auto& p : parts) {
        if (p.nums.size() == 1) { heap ^= 1; continue; }
        u64 pk = partKey(p);
        int g;
        if (p.nums.size() <= 2) heap ^= grundyOf(p, pk);
        else if (lookup(tkey(pk, TAG_GRUNDY), g)) heap ^= g;  // (known: the value grundyOf would find)
        else if (independent(p)) {
            store(tkey(pk, TAG_GRUNDY), p.nums.size() & 1);
            heap ^= p.nums.size() & 1;
        } else big.push_back({&p, pk});
    }
    if (big.empty()) return heap != 0;
    sort(big.begin(), big.end(), [](const Big& a, const Big& b) { return a.p->nums.size() < b.p->nums.size(); });
    int nbig = big.size();
    for (int i = 0; i + 1 < nbig; ++i) heap ^= grundyOf(*big[i].p, big[i].pk);
    const Part& p = *big[nbig - 1].p;
    u64 pk = big[nbig - 1].pk;
    u64 key = tkey(pk ^ mix(heap + 77), TAG_WINS);
    int f;
    if (lookup(key, f)) return f;
    long start = budget.nodes;
    budget.tick();
    Deeper deeper;
    bool found = false;
    auto wonBy = [&](int k, const Mask& r) {
        vector<Part> after;
        bool dead = false;
        afterPart(p, k, r, after, dead);
        if (wins(after, heap)) {
            progress += deeper.d == progressDepth;
            return false;
        }
        killerWon(deeper.d, r);
        return true;
    };
    auto smallerHeap = [&]() {
        for (int smaller = 0; smaller < heap && !found; ++smaller)
            if (!wins(vector<Part>{p}, smaller)) found = true;
            else progress += deeper.d == progressDepth;
    };
    int ki, kk;
    if (HEAP_LATE == 0) smallerHeap();
    for (int s = 0; s < KILLERS && !found; ++s)
        if (killerFits(deeper.d, s, &p, 1, ki, kk)) found = wonBy(kk, Mask(killer[deeper.d][s]));
    if (HEAP_LATE == 2 && heap && !found && gExact)  // (the candidates only; the model has no others)
        found = eachMove(&p, 1, false, [&](int, int k, const Mask& r) { return wonBy(k, r); });
    if (HEAP_LATE) smallerHeap();
    if (!found) found = eachMove(&p, 1, gExact, [&](int, int k, const Mask& r) { return wonBy(k, r); });
    if (!found) store(tkey(pk, TAG_GRUNDY), heap, budget.nodes - start);
    store(key, found, budget.nodes - start);
    return found;
}

static u64 posKey(const Pos& pos) {
    vector<u64> keys;
    for (auto& p : pos.parts) keys.push_back(partKey(p));
    sort(keys.begin(), keys.end());
    u64 h = 0x77;
    for (u64 k : keys) h = mix(h ^ k);
    return tkey(h, TAG_VALUE);
}

static int valueOf(const Pos& pos) {
    if (pos.dead) return wins(pos.parts, 0) ? WIN : LOSS;
    if (pos.parts.empty()) return DRAW;
    u64 key = posKey(pos);
    int found;
    if (lookup(key, found)) return found;
    if (all_of(pos.parts.begin(), pos.parts.end(), [](const Part& p) { return independent(p); })) {
        store(key, DRAW);  // (no number can die: every one is painted)
        return DRAW;
    }
    long start = budget.nodes;
    budget.tick();
    Deeper deeper;
    found = LOSS;
    auto tryMove = [&](int i, int k, const Mask& r) {
        int v = -valueOf(afterMove(pos, i, k, r));
        found = max(found, v);
        if (found == WIN) killerWon(deeper.d, r);
        progress += v == LOSS && deeper.d == progressDepth;
        return found == WIN;
    };
    int ki, kk;
    bool won = false;
    for (int s = 0; s < KILLERS && !won; ++s)
        if (killerFits(deeper.d, s, pos.parts.data(), pos.parts.size(), ki, kk)) won = tryMove(ki, kk, Mask(killer[deeper.d][s]));
    if (!won) eachMove(pos.parts.data(), pos.parts.size(), gExact, tryMove);
    store(key, found, budget.nodes - start);
    return found;
}

// (value, a best move) for the player to move; no move when every move loses (or none exists).
static int bestOf(const Pos& pos, Mask& move, bool& has) {
    has = false;
    if (pos.parts.empty()) return pos.dead ? LOSS : DRAW;
    int best = LOSS;
    eachMove(pos.parts.data(), pos.parts.size(), gExact, [&](int i, int k, const Mask& r) {
        Pos child = afterMove(pos, i, k, r);
        int v = child.dead ? (wins(child.parts, 0) ? LOSS : WIN) : -valueOf(child);
        if (!has || v > best) {
            best = v;
            if (v != LOSS || !pos.dead) { move = r; has = true; }
        }
        return best == WIN;
    });
    return best;
}

// ------------------------------------------------------------------ board (any size)
struct Board {
    int n = 0, S = 0;          // stride S: index x * S + y
    vector<int> cell;          // -1 painted, 0 empty, else the number
};

static bool parseBoard(istream& in, Board& b) {
    int n;
    if (!(in >> n) || n <= 0 || n > 4096) return false;
    b.n = n;
    b.S = n <= 31 ? 32 : n + 1;
    b.cell.assign((size_t)n * b.S, -1);
    for (int x = 0; x < n; ++x)
        for (int y = 0; y < n; ++y) {
            string t;
            if (!(in >> t)) return false;
            int v = t == "#" ? 0 : t == "B" ? -1 : atoi(t.c_str());
            b.cell[x * b.S + y] = v;
        }
    return true;
}

// Fast state for playouts: cells, blocked (painted or beside painted), numbers.
struct Play {
    int n, S;
    vector<int> cell;
    vector<uint8_t> blocked;
    vector<int> nums;       // cells of unpainted numbers that are not known dead
    bool dead = false;      // some unpainted number can never be painted
    vector<int> stamp;
    int tick = 0;
    vector<int> q;
    void init(const Board& b) {
        n = b.n; S = b.S; cell = b.cell;
        blocked.assign(cell.size(), 0);
        stamp.assign(cell.size(), 0);
        for (int x = 0; x < n; ++x)
            for (int y = 0; y < n; ++y) {
                int c = x * S + y;
                if (cell[c] == -1) { blocked[c] = 1; nbr(c, [&](int d) { blocked[d] = 1; }); }
            }
        nums.clear();
        dead = false;
        for (int x = 0; x < n; ++x)
            for (int y = 0; y < n; ++y) {
                int c = x * S + y;
                if (cell[c] > 0) {
                    if (blocked[c]) dead = true;
                    else nums.push_back(c);
                }
            }
    }
    template <class F> inline void nbr(int c, F f) const {
        int x = c / S, y = c % S;
        if (x > 0) f(c - S);
        if (x + 1 < n) f(c + S);
        if (y > 0) f(c - 1);
        if (y + 1 < n) f(c + 1);
    }
    inline bool freeEmpty(int c) const { return cell[c] == 0 && !blocked[c]; }
    // Can the number at c be painted (v cells reachable through free empty cells)?
    bool alive(int c) {
        if (blocked[c] || cell[c] <= 0) return false;
        int v = cell[c];
        ++tick;
        q.clear();
        q.push_back(c);
        stamp[c] = tick;
        for (size_t h = 0; h < q.size(); ++h) {
            if ((int)q.size() >= v) return true;
            nbr(q[h], [&](int d) { if (stamp[d] != tick && freeEmpty(d)) { stamp[d] = tick; q.push_back(d); } });
        }
        return (int)q.size() >= v;
    }
    // Drop dead numbers; returns how many are live.
    // Only numbers that the last region can reach are looked at again (bx0 < 0: all of them).
    bool all = true;
    int bx0 = INT_MAX, bx1 = -1, by0 = INT_MAX, by1 = -1;
    int prune() {
        int k = 0;
        for (int c : nums) {
            if (!all) {
                int x = c / S, y = c % S, v = cell[c];
                int dx = x < bx0 ? bx0 - x : x > bx1 ? x - bx1 : 0;
                int dy = y < by0 ? by0 - y : y > by1 ? y - by1 : 0;
                if (dx + dy > v) { nums[k++] = c; continue; }
            }
            if (alive(c)) nums[k++] = c;
            else dead = true;
        }
        all = false;  // nothing painted since: nothing to look at
        bx0 = by0 = INT_MAX;
        bx1 = by1 = -1;
        nums.resize(k);
        return k;
    }
    // A random region for the live number at c.
    void randomRegion(int c, vector<int>& region) {
        int v = cell[c];
        ++tick;
        region.clear();
        region.push_back(c);
        stamp[c] = tick;
        q.clear();
        nbr(c, [&](int d) { if (freeEmpty(d) && stamp[d] != tick) { stamp[d] = tick; q.push_back(d); } });
        while ((int)region.size() < v && !q.empty()) {
            int i = rng.below(q.size());
            int d = q[i];
            q[i] = q.back();
            q.pop_back();
            region.push_back(d);
            nbr(d, [&](int e) { if (freeEmpty(e) && stamp[e] != tick) { stamp[e] = tick; q.push_back(e); } });
        }
    }
    void paint(const vector<int>& region) {
        for (int c : region) {
            int x = c / S, y = c % S;
            bx0 = min(bx0, x - 1); bx1 = max(bx1, x + 1); by0 = min(by0, y - 1); by1 = max(by1, y + 1);
            cell[c] = -1;
            blocked[c] = 1;
            nbr(c, [&](int d) { blocked[d] = 1; });
        }
        // numbers painted are removed; those blocked or starved die at the next prune
        int k = 0;
        for (int c : nums) if (cell[c] > 0) nums[k++] = c;
        nums.resize(k);
    }
};

// A legal region for the number at c, or empty (a breadth-first walk).
static bool legalCheck(const Board& b, const vector<int>& region) {
    if (region.empty()) return false;
    int numbers = 0, v = 0;
    vector<char> in(b.cell.size(), 0);
    int n = b.n, S = b.S;
    auto nb = [&](int c, auto f) {
        int x = c / S, y = c % S;
        if (x > 0) f(c - S);
        if (x + 1 < n) f(c + S);
        if (y > 0) f(c - 1);
        if (y + 1 < n) f(c + 1);
    };
    for (int c : region) {
        if (c < 0 || c >= (int)b.cell.size() || c % S >= n || in[c]) return false;
        in[c] = 1;
        if (b.cell[c] == -1) return false;
        if (b.cell[c] > 0) { ++numbers; v = b.cell[c]; }
        bool touch = false;
        nb(c, [&](int d) { if (b.cell[d] == -1) touch = true; });
        if (touch) return false;
    }
    if (numbers != 1 || (int)region.size() != v) return false;
    vector<int> st{region[0]};
    vector<char> seen(b.cell.size(), 0);
    seen[region[0]] = 1;
    size_t got = 1;
    while (!st.empty()) {
        int c = st.back();
        st.pop_back();
        nb(c, [&](int d) { if (in[d] && !seen[d]) { seen[d] = 1; ++got; st.push_back(d); } });
    }
    return got == region.size();
}

// ------------------------------------------------------------------ Monte Carlo tree search
struct Node {
    int parent = -1;
    int first = -1, count = 0;      // children, contiguous
    int moveOff = 0, moveLen = 0;   // the move into this node (cells in the pool)
    int visits = 0;
    float wins = 0;                 // for the player who made the move into this node
    float prior = 0;
    int8_t proven = 2;              // value for the player to move here (WIN/DRAW/LOSS), 2: unknown
    bool expanded = false;
};
static inline vector<Node> nodes;
static inline vector<uint16_t> pool;
static inline const size_t MAX_NODES = 1500000, MAX_POOL = 30000000;

static Pos posOfPlay(const Play& pl) {
    Mask painted, empty;
    zero(painted);
    zero(empty);
    vector<Num> numbers;
    bool dead = pl.dead;
    for (int x = 0; x < N; ++x)
        for (int y = 0; y < N; ++y) {
            int c = x * 32 + y, v = pl.cell[c];
            if (v == -1) SET(painted, c);
            else if (v == 0) SET(empty, c);
        }
    Mask blocked = GROW(painted);
    for (int c : pl.nums) numbers.push_back({c, pl.cell[c]});
    // numbers of the board not in nums are dead (pl.dead says so)
    return build(ANDNOT(empty, blocked), numbers, dead);
}

// Candidate moves of a position, best-looking first (prior: a parity heuristic).
struct Cand { Mask region; float prior; int i, k; long long rank; };
// A candidate's rank, smallest first, by fields: not a win, a draw, what it leaves (RANK_TIER:
// 0, unknown, not 0), the parity of the paintable numbers left, their count, less damage.
enum : int { RANK_NOT_WON = 44, RANK_DRAWN = 43, RANK_TIER = 41, RANK_ODD = 40, RANK_LEFT = 16 };

// A part's Grundy value as well as it can be had in a few thousand steps: the exact search's for
// small parts (RANK_PART numbers at most) when it finishes within RANK_STEPS; else, with `model`,
// the model's (every number with its candidate regions only: the same search, far fewer moves)
// when it finishes within MODEL_STEPS, for parts of at most MODEL_PART numbers; else unknown (-1).
// Of the 679 parts of 2 to 16 numbers that the exact search settled within 100 000 steps, among
// those the ranking met in 74 positions of 12 group 3 games, the model told whether the value is
// 0 for 667, the parity of the part's numbers (each number as one move) for 268
// (benchmarks/bench_strong_grundy.py; NOTES.md, section 9).  The parity was the guess for the parts
// left unknown until section 29 of the bot's NOTES.md: it calls half of them 0, and of 119 parts of 11
// to 24 numbers that the model settled, none was (section 23).  With UNKNOWN_PARITY the parity
// again (the benchmarks' knob).
static inline int RANK_PART = 8;       // parts of at most this many numbers are valued exactly
static inline long RANK_STEPS = 3000;  // search steps allowed per part valued
static inline int MODEL_PART = 12;     // parts of at most this many numbers are valued in the model
static inline long MODEL_STEPS = 20000;
static inline double rankUntil = 1e18;  // (CPU) the ranking's estimates give up by then
static inline int UNKNOWN_PARITY = 0;
static inline long rankValued = -1;  // (the last ranking: how many moves it valued before `until`; -1: all)
static int grundyWithin(const Part& p, long steps, bool exact) {
    bool was = gExact;
    gExact = exact;
    int g = -1;
    within(steps, [&] { g = grundyOf(p); }, rankUntil);
    gExact = was;
    return g;
}
static int grundyEstimate(const Part& p, bool model) {
    int count = p.nums.size();
    if (count == 1) return 1;
    int g = count <= RANK_PART ? grundyWithin(p, RANK_STEPS, true) : -1;
    if (g < 0 && model && count <= MODEL_PART) g = grundyWithin(p, MODEL_STEPS, false);
    return g >= 0 ? g : UNKNOWN_PARITY ? count & 1 : -1;
}

// The ranking: a win at once; else leave the opponent a position of Grundy value 0 as far as
// it can be told (grundyEstimate), then one whose value is unknown (a part the estimates do not
// settle: a big part's value is rarely 0, so the player to move there usually has a win, but
// which is unknown), then one of a known value other than 0 (the opponent's win); within each,
// an even number of paintable numbers, fewest first; a draw only as a last resort; then the
// most damage to the other numbers' zones.  Smallest rank first.  Past `until` (CPU), what the
// rest leave is unknown (no time to value it).  With `until` 0 (the tree's nodes) there are no
// estimates: every move is valued by the parity of the paintable numbers it leaves, the ranking
// of the Python bot.  `model`: see grundyEstimate.
static void rankedMoves(const Pos& pos, vector<Cand>& out, double until = 1e18, bool model = false) {
    int total = pos.numbers();
    bool saved = gExact;
    gExact = true;
    vector<int> grundies;
    int all = 0, unknownAll = 0;
    bool grundy = until > 0;
    // Past `until` a ranking by the estimates values what is left as unknown (-1, as it does a
    // part it cannot value), not by parity: else the moves ranked after the clock ran out (the
    // last numbers' candidates), those with an even number left, would go ahead of every move it
    // valued as unknown.
    const bool lateUnknown = grundy && !UNKNOWN_PARITY;
    rankUntil = until;
    rankValued = -1;
    for (auto& p : pos.parts) {
        grundies.push_back(grundy && cpu() <= until ? grundyEstimate(p, model) : lateUnknown ? -1 : (int)(p.nums.size() & 1));
        if (grundies.back() < 0) ++unknownAll;
        else all ^= grundies.back();
    }
    for (int i = 0; i < (int)pos.parts.size(); ++i) {
        const Part& p = pos.parts[i];
        for (int k = 0; k < (int)p.nums.size(); ++k) {
            vector<Mask> moves;
            movesOf(p, k, false, moves);
            for (auto& r : moves) {
                Mask gone = GROW(r);
                Mask empty = ANDNOT(p.empty, gone);
                bool died = false;
                vector<Live> rest;
                survivors(p, k, gone, empty, !grundy, rest, died);
                int left = total - (int)p.nums.size() + (int)rest.size();
                bool won = left == 0 && (died || pos.dead);
                bool drawn = left == 0 && !(died || pos.dead);
                int damage = COUNT(AND(gone, p.cells));
                int after = lateUnknown ? -1 : left & 1;
                if (grundy && cpu() > until) { grundy = false; rankValued = out.size(); }
                if (grundy) {
                    int unknown = unknownAll - (grundies[i] < 0);
                    after = all ^ (grundies[i] < 0 ? 0 : grundies[i]);
                    for (auto& q : makeParts(empty, rest)) {
                        int g = grundyEstimate(q, model);
                        if (g < 0) ++unknown;
                        else after ^= g;
                    }
                    if (unknown) after = -1;
                }
                int tier = after == 0 ? 0 : after < 0 ? 1 : 2;  // (0, unknown, not 0)
                long long rank = ((long long)!won << RANK_NOT_WON) | ((long long)drawn << RANK_DRAWN) |
                                 ((long long)tier << RANK_TIER) | ((long long)(left & 1) << RANK_ODD) |
                                 ((long long)left << RANK_LEFT) | (0xffff - damage);
                float prior = won ? 1.0f : drawn ? 0.3f : after == 0 ? 0.65f : (left % 2 == 0 ? 0.5f : 0.35f);
                out.push_back({r, prior, i, k, rank});
            }
        }
    }
    gExact = saved;
    stable_sort(out.begin(), out.end(), [](const Cand& a, const Cand& b) { return a.rank < b.rank; });
}

// The root move by rounds (positions of at most 40 live numbers).  The depth-first bestOf may
// spend the whole move, or a minute, refuting the first moves it tries while a win it would
// prove in a few thousand steps waits behind them.  Here every move (the ranking's candidates
// first, then every other effect) is searched within a step budget: in round r the j-th move gets
// ROUND_STEPS * 4^r / (1 + j / ROUND_WIDTH)^ROUND_DECAY steps, so the first moves are searched
// almost as deep as depth first would, and thousands of others a little, each round four times
// deeper.  A round costs about ROUND_WIDTH * ln(moves / ROUND_WIDTH) times its first move's share
// with ROUND_DECAY 1 (a move's share from 17 live numbers on, where a cheap win far down the order
// is what to find), about ROUND_WIDTH with 2 (`--solve`, whose proofs are long: four 10x10 boards
// took 7.9 s in all with 2, 33 s with 1, 19 s depth first; NOTES.md, section 3; and a move's share
// up to NARROW_LIVE live numbers, and after the tree, section 13).  What is
// settled is remembered in the table, so a round repeats little of the one before.  Out of time,
// it throws TooBig like bestOf; `refuted` then holds the moves proven to lose (the model, the
// ranking and the tree keep away from them) and `drawn` those proven to draw.  Measured on 110
// positions the solver settles as won in 0.15-4 s: 18 thrown against 28 depth first.
static inline unordered_set<u64> refuted, drawn;
static inline long ROUND_STEPS = 2000, ROUND_WIDTH = 8, ROUND_ENUM = 16, roundsSteps = 0;
static inline int ENUM_REACH = 1;  // (0: every round enumerates whether it can reach the effects or not, as before section 17)
static inline int ENUM_TURNS = 1;  // (0: each number's effects after those of the numbers before it, as before section 18)
static inline double ROUND_DECAY = 1;
// Up to this many live numbers a move's rounds have decay 2 from the start (NOTES.md, section 13:
// four won 10x10 positions of 11 to 15 live numbers that the solver wins in 0.1-0.3 s, thrown
// with decay 1 and won with 2 within 0.3 s; as many positions secured where the solver checks
// the move, 59 against 58 over four sets).  Section 37: up to 40 (every move's rounds) keeps more
// of the middle game's won positions (168 of 218 against 154) but won no games against `mcts`.
static inline int NARROW_LIVE = 16;
// Decay 2 for the rounds from here on, unless the benchmarks set STRONG_ROUND_DECAY.
static void narrowRounds() {
    if (!getenv("STRONG_ROUND_DECAY")) ROUND_DECAY = 2;
}
static inline size_t roundsKids = 0;
// Progress first: from round PROGRESS_FROM on, each round starts with the PROGRESS_TOP unsettled
// moves whose last search refuted the most of the opponent's replies (the rest keep their order).
// A move the rounds will prove won usually shows it a round or more before, refuting many more
// replies in its share than the moves above it (the 10x10 first position of section 25's seed 9:
// 866 at the end of round 5, the other 2 860 open moves 68 at most).  The "most proving" move of a
// proof-number search, measured at the root only: a third fewer steps over 189 group 2 positions
// (NOTES.md, section 27).  0: the list's own order alone.
static inline int PROGRESS_TOP = 2, PROGRESS_FROM = 3;
// Counts the replies refuted one depth below this (the position after a root move), then restores.
struct Progress {
    long savedCount = progress;
    int savedDepth = progressDepth;
    Progress() { progress = 0; progressDepth = depth; }
    ~Progress() {
        progress = savedCount;
        progressDepth = savedDepth;
    }
};
static int bestByRounds(const Pos& pos, const vector<Cand>& ranked, Mask& move, bool& has) {
    has = false;
    if (pos.parts.empty()) return pos.dead ? LOSS : DRAW;
    struct Child { Mask r; int i, k; bool settled; int v; long tried; long prog = 0; long order = -1; };
    vector<Child> kids;
    HashSet seen;
    for (auto& c : ranked)
        if (seen.insert(HASH(c.region))) kids.push_back({c.region, c.i, c.k, false, LOSS, 0});
    Hold hold(kids.size());
    roundsKids = kids.size();
    // The first round tries the ranked candidates alone; every other effect joins them from the
    // second round on (a win among the candidates needs no enumeration, which late in a group 3
    // game can take longer than the move).  Each number's effects are enumerated within
    // ROUND_ENUM times the round's first share of steps, again in each round that can reach them
    // (below), four times longer, until the enumeration ends: the effects met before the limit
    // join the round all the same.
    // A 13 whose effects take more than the move (a group 3 game, 8 live numbers) no longer
    // stops the rounds before they have searched the 15 beside it, whose 50 000 effects hold the
    // win.  An enumeration that meets HELD_MAX (or leaves the rounds holding half of it) is not
    // tried again; the position is then never proven lost or drawn by the rounds (they throw
    // TooBig once nothing else is left to do).
    // With ENUM_TURNS, a round's room (the moves it can reach, less those listed) is shared
    // among the numbers not yet enumerated, at least 16 new effects each, and their new effects
    // join the list one of each number in turn: each number's first effects come early, where
    // they were behind every effect of the numbers before it (a group 2 position of 14 live
    // numbers: a win among the first effects of the tenth number, reached in round 1 instead of
    // round 4; NOTES.md, section 18).  An enumeration cut at its share starts again in a later
    // round, its effects met before skipped (`seen`).
    struct Effects { int i, k; bool done, stuck; size_t got = 0; };  // got: what movesOf gave last
    vector<Effects> numbers;
    for (int i = 0; i < (int)pos.parts.size(); ++i)
        for (int k = 0; k < (int)pos.parts[i].nums.size(); ++k) {
            numbers.push_back({i, k, false, false});
            for (auto& c : kids) numbers.back().got += c.i == i && c.k == k;  // (its candidates, given first)
        }
    long listed = 0;
    // (a move whose share is under 10 steps waits for a later round, as do all after it)
    for (long r = 0, top = ROUND_STEPS;; ++r, top *= 4) {
        auto share = [&](size_t j) { return (long)(top / pow(1.0 + (double)j / ROUND_WIDTH, ROUND_DECAY)); };
        // The round stops at the first unsettled move whose share is under 10 steps; the effects
        // an enumeration adds go after the last move, so once an unsettled move lies past `reach`
        // they would not be searched in this round and their enumeration waits for a later one
        // (the enumeration-cut position: with decay 2 a round reaches fewer than 2 000 moves,
        // and enumerating 100 000 effects it could not reach took 0.25 s of the 0.68 s).
        size_t reach = SIZE_MAX;  // the first move whose share is under 10 steps (none with decay 0)
        double estimate = ROUND_DECAY > 0 ? ROUND_WIDTH * (pow(top / 10.0, 1.0 / ROUND_DECAY) - 1) : 1e300;
        if (estimate < 1e15) {
            reach = (size_t)max(0.0, estimate);
            while (reach > 0 && share(reach - 1) < 10) --reach;
            while (share(reach) >= 10) ++reach;
        }
        bool beyond = false;  // an unsettled move at or past `reach`: the round ends before the list does
        for (size_t j = reach; ENUM_REACH && j < kids.size() && !beyond; ++j) beyond = !kids[j].settled;
        bool enumerating = r == 0;  // (the first round is never the last)
        size_t waiting = 0;
        for (auto& e : numbers) waiting += !(e.done || e.stuck);
        vector<vector<Child>> turns;  // (ENUM_TURNS) the round's new effects, number by number
        for (auto& e : numbers) {
            if (r == 0 || e.done || e.stuck) continue;
            if (beyond) {  // (not done: the rounds go on until it is)
                enumerating = true;
                continue;
            }
            if (held >= HELD_MAX / 2) {  // (room for the search's own moves: none left for more effects)
                e.stuck = true;
                continue;
            }
            vector<Mask> moves;
            long before = budget.nodes, cap = ROUND_ENUM * top;
            size_t most = SIZE_MAX;
            if (ENUM_TURNS && reach != SIZE_MAX)
                most = e.got + max<size_t>(16, (reach > kids.size() ? reach - kids.size() : 0) / waiting);
            bool whole = true;
            e.done = within(cap, [&] { whole = movesOf(pos.parts[e.i], e.k, gExact, moves, most); });
            if (ENUM_TURNS) turns.emplace_back();  // (this number's new effects)
            e.got = max(e.got, moves.size());
            if (e.done && !whole) {  // (its share met: the rest in a later round)
                e.done = false;
                enumerating = true;
            } else if (!e.done) {
                if (cpu() > budget.deadline) throw TooBig();
                e.stuck = budget.nodes - before <= cap;  // (HELD_MAX or HASHED_MAX, not its steps)
                enumerating |= !e.stuck;
            }
            for (auto& m : moves) {
                if (held >= HELD_MAX / 2) {
                    e.done = false;
                    e.stuck = true;
                    break;
                }
                if (seen.insert(HASH(m))) {
                    if (ENUM_TURNS) {
                        turns.back().push_back({m, e.i, e.k, false, LOSS, 0});
                    } else {
                        kids.push_back({m, e.i, e.k, false, LOSS, 0});
                    }
                    ++held;
                    ++hold.n;
                }
            }
            // (in turns, each number's first effects come before the round's reach whatever the others')
            beyond = ENUM_REACH && !ENUM_TURNS && kids.size() > reach;
        }
        for (size_t x = 0, any = 1; any; ++x) {  // one of each number in turn
            any = 0;
            for (auto& t : turns)
                if (x < t.size()) { kids.push_back(t[x]); any = 1; }
        }
        for (auto& c : kids)
            if (c.order < 0) c.order = listed++;  // (the list's own order, for the value's move below)
        roundsKids = kids.size();
        roundsSteps = top;
        bool open = enumerating;
        for (size_t j = 0; j < kids.size(); ++j) {
            // (the clock, whatever the kids cost: a kid settled by the table takes no step, and
            // 114 000 of them once ran the rounds 0.17 s past the move's deadline)
            budget.poll();
            Child& c = kids[j];
            if (c.settled) continue;
            long steps = (long)(top / pow(1.0 + (double)j / ROUND_WIDTH, ROUND_DECAY));
            open = true;
            if (steps < 10) break;
            if (c.tried >= steps) continue;
            c.tried = steps;
            Pos child = afterMove(pos, c.i, c.k, c.r);
            long before = budget.nodes;
            Progress counting;
            c.settled = within(steps, [&] { c.v = child.dead ? (wins(child.parts, 0) ? LOSS : WIN) : -valueOf(child); });
            c.prog = progress;
            if (!c.settled) {  // (stopped by its step limit: the next 128 steps read the clock anyway)
                if (budget.nodes - before <= steps && cpu() > budget.deadline) throw TooBig();
                continue;
            }
            if (c.v == WIN) { move = c.r; has = true; return WIN; }
            (c.v == DRAW ? drawn : refuted).insert(HASH(c.r));
        }
        if (!open) break;
        if (r + 1 >= PROGRESS_FROM && PROGRESS_TOP > 0) {
            // The unsettled moves whose searches refuted the most replies go first in the next
            // round, with its largest shares (NOTES.md, section 27).
            vector<size_t> ahead;
            for (size_t j = 0; j < kids.size(); ++j)
                if (!kids[j].settled && kids[j].prog > 0) ahead.push_back(j);
            stable_sort(ahead.begin(), ahead.end(), [&](size_t a, size_t b) { return kids[a].prog > kids[b].prog; });
            if (ahead.size() > (size_t)PROGRESS_TOP) ahead.resize(PROGRESS_TOP);
            vector<bool> moved(kids.size());
            vector<Child> order;
            order.reserve(kids.size());
            for (size_t j : ahead) {
                order.push_back(kids[j]);
                moved[j] = true;
            }
            for (size_t j = 0; j < kids.size(); ++j)
                if (!moved[j]) order.push_back(kids[j]);
            kids.swap(order);
        }
    }
    for (auto& e : numbers)
        if (!e.done) throw TooBig();  // (moves not searched: no value for the position)
    // (among moves of one value, the first of the list's own order)
    stable_sort(kids.begin(), kids.end(), [](const Child& a, const Child& b) { return a.order < b.order; });
    int best = LOSS;
    for (auto& c : kids)
        if (!has || c.v > best) {
            best = c.v;
            if (c.v != LOSS || !pos.dead) { move = c.r; has = true; }
        }
    return best;
}

// The value of `child` (a position after one of our moves) for the opponent, by the rounds with
// decay 2 until `deadline` (2: not settled).  A refutation is one winning reply among thousands,
// which the rounds find in a few thousand steps where depth first may need millions (a model win
// of a group 2 game, 20 live numbers: the rounds refute it in 238 000 steps, 0.14 s; the
// depth-first look did not in the time the move gave it; NOTES.md, section 14).  What the rounds
// prove of the opponent's moves is not kept in `refuted` and `drawn`, which hold our root's.
static inline int REPLY_ROUNDS = 1;  // (0: depth first, as before section 14; for the benchmarks)
// A model win the look did not settle in its share: the look goes on until REPLY_MORE seconds before
// the deadline (0: played at once, the rest of the move unused, as before section 15).
static inline double REPLY_MORE = 0.15;
static int replyValue(const Pos& child, double deadline) {
    if (!REPLY_ROUNDS) {
        int v = 2;
        within(-1, [&] { v = valueOf(child); }, deadline);
        return v;
    }
    unordered_set<u64> rootRefuted, rootDrawn;
    rootRefuted.swap(refuted);
    rootDrawn.swap(drawn);
    double decay = ROUND_DECAY;
    narrowRounds();
    budget.deadline = min(budget.deadline, deadline);  // (the caller sets its own again)
    int v = 2;
    try {
        vector<Cand> ranked;
        rankedMoves(child, ranked, 0);  // (by parity: no time for Grundy estimates)
        Mask move;
        bool has = false;
        v = bestByRounds(child, ranked, move, has);
    } catch (TooBig&) {
    } catch (std::bad_alloc&) {
    }
    ROUND_DECAY = decay;
    refuted.swap(rootRefuted);
    drawn.swap(rootDrawn);
    return v;
}

// Random playout from pl; the winner relative to the player to move at the start: 1 win, 0.5 draw, 0 loss.
static float playout(Play& pl) {
    vector<int> region;
    int side = 0;  // 0: the player to move at the start
    while (true) {
        int live = pl.prune();
        if (live == 0) {
            if (!pl.dead) return 0.5f;
            return side == 0 ? 0.0f : 1.0f;  // the player to move loses
        }
        int c = pl.nums[rng.below(live)];
        pl.randomRegion(c, region);
        pl.paint(region);
        side ^= 1;
    }
}

static inline int exactLimit = 4000, TREE_EXACT = 40;  // steps of the tree's exact look; the most live numbers it is tried at
static inline const vector<Cand>* rootRanked = nullptr;  // the root's children, best first (else ranked by parity)
static inline int EXPAND_AT = 4;  // a node gets children at this many visits (before: playouts from it)
// The tree's exploration constant (UCB1's c; rewards are in [0, 1]).  0.8: self-play on 80 fresh
// group 3 boards against 0.5 scored 0.5875 (NOTES.md, section 22).
static inline double UCT_C = 0.8;

// Expand node (whose position is pl): children for the candidate moves; try the exact search.
static void expand(int id, Play& pl) {
    Node& nd = nodes[id];
    nd.expanded = true;
    int live = pl.prune();
    if (live == 0) {
        nodes[id].proven = pl.dead ? LOSS : DRAW;
        return;
    }
    Pos pos = posOfPlay(pl);
    if (pos.numbers() <= TREE_EXACT) {
        within(exactLimit, [&] { nodes[id].proven = valueOf(pos); });
        if (nodes[id].proven != 2) return;
    }
    vector<Cand> cands;
    if (id == 0 && rootRanked) cands = *rootRanked;  // the move's own ranking, Grundy estimates and all
    else rankedMoves(pos, cands, TREE_GRUNDY ? 1e18 : 0);
    if (nodes.size() + cands.size() > MAX_NODES || pool.size() + cands.size() * 20 > MAX_POOL) return;
    int first = nodes.size();
    for (auto& cd : cands) {
        Node ch;
        ch.parent = id;
        ch.moveOff = pool.size();
        each(cd.region, [&](int c) { pool.push_back(c); });
        ch.moveLen = pool.size() - ch.moveOff;
        ch.prior = cd.prior;
        nodes.push_back(ch);
    }
    nodes[id].first = first;
    nodes[id].count = cands.size();
}

static void applyNode(Play& pl, int id, vector<int>& region) {
    region.clear();
    for (int i = 0; i < nodes[id].moveLen; ++i) region.push_back(pool[nodes[id].moveOff + i]);
    pl.paint(region);
}

static float score(const Node& n) {  // the value for the player who moved into n (proven or estimated)
    if (n.proven == LOSS) return 1.0f;
    if (n.proven == WIN) return 0.0f;
    if (n.proven == DRAW) return 0.5f;
    return n.visits ? n.wins / n.visits : n.prior;
}

static int select(int id) {
    Node& nd = nodes[id];
    // progressive widening: the best-ranked children first
    int width = min(nd.count, 4 + (int)(2.0 * sqrt((double)nd.visits)));
    double logv = log((double)nd.visits + 1);
    int best = -1;
    double bestv = -1e9;
    for (int i = 0; i < width; ++i) {
        int c = nd.first + i;
        const Node& ch = nodes[c];
        if (ch.proven == LOSS) return c;  // a win for us
        double v;
        if (ch.proven == WIN) v = -1;  // lost for us
        else if (ch.visits == 0) v = 10 + ch.prior;
        else v = ch.wins / ch.visits + UCT_C * sqrt(logv / ch.visits) + 0.5 * ch.prior / (1 + ch.visits);
        if (v > bestv) { bestv = v; best = c; }
    }
    return best;
}

// The root's children the exact search settled (bestByRounds): proven, so the tree spends nothing on them.
static void markRoot() {
    for (int i = 0; i < nodes[0].count; ++i) {
        Node& ch = nodes[nodes[0].first + i];
        Mask m;
        zero(m);
        for (int j = 0; j < ch.moveLen; ++j) SET(m, pool[ch.moveOff + j]);
        u64 h = HASH(m);
        if (refuted.count(h)) ch.proven = WIN;  // won for the opponent, who moves there
        else if (drawn.count(h)) ch.proven = DRAW;
    }
}

static int mcts(const Board& root, double deadline, int& iterations) {
    nodes.clear();
    pool.clear();
    nodes.reserve(1 << 16);
    nodes.push_back(Node());
    Play base;
    base.init(root);
    vector<int> region;
    iterations = 0;
    int stale = 0;  // iterations in a row that ended on a proven node
    while (true) {
        if ((iterations & 7) == 0 && cpu() > deadline) break;
        // The tree goes round its proven nodes only (every child it has of the nodes it keeps
        // choosing is proven, while the win, if any, is among the moves it has no child for: once
        // 745 000 iterations on 853 nodes until the deadline): the move's time goes back to the
        // exact search (decide).
        if (stale >= 4096) break;
        ++iterations;
        Play pl = base;
        int id = 0;
        // descend
        while (nodes[id].expanded && nodes[id].proven == 2 && nodes[id].count > 0) {
            int c = select(id);
            applyNode(pl, c, region);
            id = c;
        }
        float result;  // for the player to move at node id
        Node& nd = nodes[id];
        stale = nd.proven != 2 ? stale + 1 : 0;
        if (nd.proven != 2) {
            result = nd.proven == WIN ? 1.0f : nd.proven == LOSS ? 0.0f : 0.5f;
        } else if (!nd.expanded && (nd.visits >= EXPAND_AT || id == 0)) {
            Play copy = pl;
            try {
                expand(id, copy);
            } catch (TooBig&) {
                break;  // out of time while expanding
            }
            if (id == 0) markRoot();
            Node& n2 = nodes[id];
            if (n2.proven != 2) result = n2.proven == WIN ? 1.0f : n2.proven == LOSS ? 0.0f : 0.5f;
            else result = playout(pl);
        } else {
            result = playout(pl);
        }
        // back up; a node with a child lost for its mover is won
        for (int x = id; x >= 0; x = nodes[x].parent) {
            Node& n = nodes[x];
            n.visits++;
            n.wins += 1.0f - result;  // for the player who moved into x
            result = 1.0f - result;
            int p = n.parent;
            if (p >= 0 && n.proven == LOSS && nodes[p].proven == 2) nodes[p].proven = WIN;
        }
        if (nodes[0].proven != 2) break;  // the root proven (a child lost for the opponent, or at its first look)
        if ((iterations & 63) == 0) {  // every child proven (lost or drawn): nothing left for the tree
            int open = 0;
            for (int i = 0; i < nodes[0].count; ++i) open += nodes[nodes[0].first + i].proven == 2;
            if (nodes[0].count > 0 && open == 0) break;
        }
    }
    const Node& r = nodes[0];
    if (r.count == 0) return -1;
    int best = -1;
    double bestv = -1;
    for (int i = 0; i < r.count; ++i) {
        const Node& ch = nodes[r.first + i];
        double v;
        if (ch.proven == LOSS) v = 1e12;
        else if (ch.proven == WIN) v = -1 + ch.visits * 1e-9;
        else if (ch.proven == DRAW) v = ch.visits * 0.5 + 0.1;
        else v = ch.visits + score(ch) * 0.01;
        if (v > bestv) { bestv = v; best = r.first + i; }
    }
    return best;
}

// ------------------------------------------------------------------ memory file
static inline const char* MEMORY = "strong.memory";
static inline const u64 MAGIC = 0x5354524f4e470004ULL;  // "STRONG" v4
// The arena lets no file grow over 1 MiB: at most SAVE_MAX entries of 10 bytes (key, value + 1,
// the bit length of the entry's cost), the costliest of the table: the next move, two plies on,
// searches a subtree of this one, and the entries near this one's root are the ones worth keeping.
static inline const size_t SAVE_MAX = 100000, ENTRY_BYTES = 10;

static inline bool remembered = false;  // a memory of an earlier move of this game was read
static void loadMemory() {
    FILE* f = fopen(MEMORY, "rb");
    if (!f) return;
    u64 head[2];
    if (fread(head, sizeof head, 1, f) == 1 && head[0] == MAGIC && head[1] <= SAVE_MAX) {
        remembered = true;
        vector<unsigned char> raw(head[1] * ENTRY_BYTES);
        if (fread(raw.data(), 1, raw.size(), f) == raw.size())
            for (size_t i = 0; i < head[1]; ++i) {
                const unsigned char* e = &raw[i * ENTRY_BYTES];
                u64 k;
                memcpy(&k, e, 8);
                if (k) store(k, (int)e[8] - 1, e[9] ? 1L << min(30, e[9] - 1) : 0);
            }
    }
    fclose(f);
}

static void saveMemory() {
    vector<u32> kept;
    for (u64 i = 0; i < (1ULL << TBITS); ++i)
        if (table[i].key && table[i].value >= -1 && table[i].value < 255) kept.push_back((u32)i);
    auto costlier = [](u32 a, u32 b) { return table[a].cost > table[b].cost; };
    if (kept.size() > SAVE_MAX) {
        nth_element(kept.begin(), kept.begin() + SAVE_MAX, kept.end(), costlier);
        kept.resize(SAVE_MAX);
    }
    vector<unsigned char> raw;
    size_t count = kept.size();
    for (u32 i : kept) {
        unsigned char e[ENTRY_BYTES];
        memcpy(e, &table[i].key, 8);
        e[8] = (unsigned char)(table[i].value + 1);
        e[9] = (unsigned char)(table[i].cost > 0 ? 32 - __builtin_clz((u32)table[i].cost) : 0);
        raw.insert(raw.end(), e, e + ENTRY_BYTES);
    }
    FILE* f = fopen("strong.memory.tmp", "wb");
    if (!f) return;
    u64 head[2] = {MAGIC, count};
    bool ok = fwrite(head, sizeof head, 1, f) == 1 && fwrite(raw.data(), 1, raw.size(), f) == raw.size();
    ok = fclose(f) == 0 && ok;
    if (ok) rename("strong.memory.tmp", MEMORY);
    else remove("strong.memory.tmp");
}

// ------------------------------------------------------------------ the move
static void maskCells(const Mask& m, vector<int>& out, int S) {
    out.clear();
    each(m, [&](int c) { out.push_back((c >> 5) * S + (c & 31)); });
}

// Any legal move (the first live number, a breadth-first region), or empty.
static void fallback(const Board& b, vector<int>& region) {
    Play pl;
    pl.init(b);
    region.clear();
    if (pl.prune() == 0) return;
    int c = pl.nums[0];
    pl.alive(c);  // q holds a breadth-first walk from c
    region.assign(pl.q.begin(), pl.q.begin() + min((size_t)pl.cell[c], pl.q.size()));
}

static void writeMove(const Board& b, const vector<int>& region) {
    string s = to_string(region.size()) + "\n";
    for (int c : region) s += to_string(c / b.S) + " " + to_string(c % b.S) + "\n";
    FILE* f = fopen("game.out", "w");
    if (!f) return;
    fputs(s.c_str(), f);
    fclose(f);
}

static Pos rootPos(const Board& b) {
    Mask painted, empty;
    zero(painted);
    zero(empty);
    vector<Num> numbers;
    for (int x = 0; x < N; ++x)
        for (int y = 0; y < N; ++y) {
            int c = x * 32 + y, v = b.cell[c];
            if (v == -1) SET(painted, c);
            else if (v == 0) SET(empty, c);
            else numbers.push_back({c, v});
        }
    Mask blocked = GROW(painted);
    vector<Num> freeNums;
    bool dead = false;
    for (auto& n : numbers) {
        if (TEST(blocked, n.at)) dead = true;
        else freeNums.push_back(n);
    }
    return build(ANDNOT(empty, blocked), freeNums, dead);
}

static inline const char* NAMES[3] = {"loss", "draw", "win"};

// The board on standard input (false: not a board).
static bool stdinBoard(Board& b) {
    istringstream ss(stdinText);
    return parseBoard(ss, b);
}
// --grundy-check and --rank: the board on standard input, and a table of 2^TBITS entries; else
// the error printed and the exit status (2: not a board, 1: out of memory).
static int stdinBoardAndTable(Board& b) {
    if (!stdinBoard(b) || b.n > 31) { printf("error: not a board of at most 31x31\n"); return 2; }
    useSize(b.n);
    table = (Entry*)calloc(1ULL << TBITS, sizeof(Entry));
    if (!table) { printf("error: out of memory\n"); return 1; }
    return 0;
}

// The masks' board size (n <= 31).
static void useSize(int n) {
    N = n;
    COLS = (u32)((1ULL << N) - 1);
    for (int x = 0; x < R; ++x) ROWS[x] = x < N ? COLS : 0;
}

static int solveMode(double seconds) {
    Board b;
    if (!stdinBoard(b)) { printf("error: not a board\n"); return 2; }
    if (b.n > 31) { printf("value: unknown (boards above 31x31 are not supported by the fast solver)\n"); return 1; }
    useSize(b.n);
    TBITS = 24;
    HELD_MAX = SIZE_MAX / 2;
    HASHED_MAX = SIZE_MAX / 2;
    table = (Entry*)calloc(1ULL << TBITS, sizeof(Entry));
    if (!table) { TBITS = 21; table = (Entry*)calloc(1ULL << TBITS, sizeof(Entry)); }
    if (!table) { printf("value: unknown (out of memory)\n"); return 1; }
    double start = cpu();
    budget.deadline = start + seconds;
    Pos pos = rootPos(b);
    Mask move;
    bool has = false;
    int value;
    try {
        if (ROUNDS) {  // the root by rounds, as in a move: a win far down the order is found sooner
            narrowRounds();  // (narrower than a move's: see bestByRounds)
            vector<Cand> ranked;
            rankedMoves(pos, ranked, start + 0.05 * seconds);
            value = bestByRounds(pos, ranked, move, has);
        } else {
            value = bestOf(pos, move, has);
        }
    } catch (std::bad_alloc&) {
        printf("value: unknown (out of memory after %ld search steps)\n", budget.nodes);
        return 1;
    } catch (TooBig&) {
        printf("value: unknown (too big to solve within %g s: gave up after %ld search steps; %d paintable numbers)\n",
               seconds, budget.nodes, pos.numbers());
        return 1;
    }
    printf("value: %s (for the player to move)\n", NAMES[value + 1]);
    if (has) {
        vector<int> cells;
        maskCells(move, cells, b.S);
        printf("best move:");
        for (size_t i = 0; i < cells.size(); ++i) printf("%s(%d, %d)", i ? " " : " ", cells[i] / b.S, cells[i] % b.S);
        printf("\ngame.out:\n%zu\n", cells.size());
        for (int c : cells) printf("%d %d\n", c / b.S, c % b.S);
    } else if (pos.parts.empty()) {
        printf("best move: none (the game is over: %s)\n",
               pos.dead ? "the player to move cannot move" : "every number is painted");
    } else {
        printf("best move: none (every move loses against best play)\n");
    }
    printf("searched %ld steps in %.2f s (the C++ engine of bots/strong)\n", budget.nodes, cpu() - start);
    return 0;
}

// `--grundy-check EXACT MODEL`: how good are the ranking's Grundy estimates?  For the parts of
// 2 to 16 numbers of the position on standard input and of the positions after each candidate
// move (the parts the ranking values; at most 40 of them, spread over the moves), one line each:
// its numbers, its Grundy value by the exact search within EXACT steps (-1: not settled), by the
// model within MODEL steps, and the parity of its numbers.  Where the exact search does not settle
// a part that the model values 0, a last field says whether it finds a winning move there within
// EXACT steps (refuted 1: the model's 0 is wrong; 0: none found), else refuted -1.
static int grundyCheckMode(long exactSteps, long modelSteps) {
    if (exactSteps <= 0 || modelSteps <= 0) { printf("error: --grundy-check EXACT MODEL: two step counts above 0\n"); return 2; }
    Board b;
    TBITS = 23;
    if (int error = stdinBoardAndTable(b)) return error;
    Pos pos = rootPos(b);
    vector<Part> parts = pos.parts;
    for (auto& p : pos.parts)
        for (int k = 0; k < (int)p.nums.size(); ++k) {
            vector<Mask> moves;
            movesOf(p, k, false, moves);
            for (auto& r : moves) {
                bool dead = false;
                afterPart(p, k, r, parts, dead);
            }
        }
    unordered_set<u64> done;
    vector<const Part*> distinct;
    for (auto& p : parts)
        if (p.nums.size() >= 2 && p.nums.size() <= 16 && done.insert(partKey(p)).second) distinct.push_back(&p);
    size_t every = (distinct.size() + 39) / 40;  // at most 40 of them, spread over the moves
    for (size_t i = 0; i < distinct.size(); i += every) {
        const Part& p = *distinct[i];
        int exact = grundyWithin(p, exactSteps, true), model = grundyWithin(p, modelSteps, false), wrong = -1;
        if (exact < 0 && model == 0) {
            wrong = 0;
            within(exactSteps, [&] { wrong = wins(vector<Part>{p}, 0); });
        }
        printf("part %zu numbers: exact %d model %d parity %d refuted %d\n", p.nums.size(), exact, model,
               (int)(p.nums.size() & 1), wrong);
    }
    return 0;
}

// `--rank COUNT`: the ranking of the position on standard input, as a move makes it (Grundy
// estimates and all, no clock), its first COUNT candidates one per line: the value the move leaves
// the opponent as far as the ranking tells ("0", a known value "not 0", or "unknown": a part the
// estimates do not settle), the paintable numbers it leaves, and its cells.
static int rankMode(long count) {
    if (count <= 0) { printf("error: --rank COUNT: a count above 0\n"); return 2; }
    Board b;
    if (int error = stdinBoardAndTable(b)) return error;
    Pos pos = rootPos(b);
    vector<Cand> ranked;
    rankedMoves(pos, ranked, 1e18, MODEL_PART > 0);
    const char* leaves[] = {"0", "unknown", "not 0"};
    vector<int> cells;
    for (long j = 0; j < count && j < (long)ranked.size(); ++j) {
        long long rank = ranked[j].rank;
        bool won = !(rank >> RANK_NOT_WON & 1), drawn = rank >> RANK_DRAWN & 1;
        printf("leaves %s, %lld left:", won ? "a win" : drawn ? "a draw" : leaves[rank >> RANK_TIER & 3],
               rank >> RANK_LEFT & ((1LL << (RANK_ODD - RANK_LEFT)) - 1));
        maskCells(ranked[j].region, cells, b.S);
        for (int c : cells) printf(" %d %d", c / b.S, c % b.S);
        printf("\n");
    }
    return 0;
}

// The move, by DEADLINE: see the head of this file and README.md.
static const char* decide(const Board& b, vector<int>& region, bool verbose) {
    double start = cpu();
    Pos pos = rootPos(b);
    if (pos.parts.empty()) return "no move";
    // 1. the exact search: most of the time when the position is small enough to hope
    double now = cpu();
    int live = pos.numbers(), room = 0;
    for (auto& p : pos.parts) room += COUNT(p.empty);
    bool dense = SMALL_ROOM > 0 && room <= SMALL_ROOM;
    bool small = live <= EXACT_SURE || (dense && live <= SMALL_ROOM_LIVE);
    bool firstMove = !remembered && FIRST_LIVE > 0 && live > FIRST_LIVE && !small && !dense && live <= EXACT_NUMBERS;
    budget.deadline = now + (small ? EXACT_SMALL_SHARE : firstMove ? FIRST_SHARE : live <= 40 ? EXACT_MID_SHARE : live <= EXACT_NUMBERS ? EXACT_SHARE : 0.15) * (DEADLINE - now);
    bool lost = false;
    vector<Cand> ranked;
    bool rounds = ROUNDS && live <= 40;
    if (live <= NARROW_LIVE || small || dense) narrowRounds();
    try {
        Mask move;
        bool has = false;
        if (rounds) {  // (a ranking cut short by TooBig is not kept)
            vector<Cand> first;
            rankedMoves(pos, first, now + 0.1 * (DEADLINE - now), MODEL_PART > 0 && !(small && SMALL_NO_MODEL));
            ranked.swap(first);
        }
        int value = rounds ? bestByRounds(pos, ranked, move, has) : bestOf(pos, move, has);
        if (has && value != LOSS) { maskCells(move, region, b.S); return value == WIN ? "exact win" : "exact draw"; }
        lost = value == LOSS;
    } catch (TooBig&) {
    } catch (std::bad_alloc&) {  // (never with HELD_MAX) the ranking and the tree still play
    }
    if (verbose) fprintf(stderr, "exact: %d live in %d cells%s, %zu moves, %zu lost, %zu drawn, last round %ld steps, cpu %.3f\n", live,
                         room, small ? " (small)" : firstMove ? " (first move)" : "", roundsKids, refuted.size(), drawn.size(), roundsSteps, cpu());
    // 2. the candidates, ranked by the Grundy value they leave
    now = cpu();
    budget.deadline = DEADLINE;
    if (ranked.empty()) {
        try {
            rankedMoves(pos, ranked, now + RANK_SHARE * (DEADLINE - now), MODEL_PART > 0);
        } catch (TooBig&) {  // (out of time)
            ranked.clear();
        }
    }
    if (ranked.empty()) return "no candidate";
    if (verbose) {
        int tiers[3] = {0, 0, 0};
        for (auto& c : ranked) ++tiers[c.rank >> RANK_TIER & 3];
        fprintf(stderr, "ranking: %zu candidates, leave 0 %d, unknown %d, not 0 %d (valued before the clock ran out: %s)\n",
                ranked.size(), tiers[0], tiers[1], tiers[2], rankValued < 0 ? "all" : to_string(rankValued).c_str());
    }
    // moves the exact search proved lost (or drawn) last, keeping the ranking's order otherwise
    auto worse = [](const Cand& c) { u64 h = HASH(c.region); return refuted.count(h) ? 2 : drawn.count(h) ? 1 : 0; };
    stable_sort(ranked.begin(), ranked.end(), [&](const Cand& x, const Cand& y) { return worse(x) < worse(y); });
    maskCells(ranked[0].region, region, b.S);
    const char* how = "ranking";
    // 3. the first ranked move after which the opponent loses in the model (candidate regions
    //    only), unless the exact search refutes it
    if (!lost && MODEL) {
        double modelEnd = USE_MCTS ? cpu() + MODEL_SHARE * (DEADLINE - cpu()) : DEADLINE;
        budget.deadline = modelEnd;
        int looked = 0, theirs = 0;
        try {
            for (auto& c : ranked) {
                if (refuted.count(HASH(c.region))) continue;
                Pos child = afterMove(pos, c.i, c.k, c.region);
                gExact = false;
                int v = valueOf(child);
                gExact = true;
                ++looked;
                theirs += v == WIN;
                if (v != LOSS) continue;
                double t = cpu();
                int reply = replyValue(child, t + 0.4 * (modelEnd - t));
                bool late = false;
                if (reply == 2 && REPLY_MORE > 0 && cpu() < DEADLINE - REPLY_MORE) {
                    // Not settled: the move would be played now and the rest of it go unused.  The look
                    // goes on (over the table it filled) until the last REPLY_MORE seconds, which are
                    // left to the tree if it refutes the move.
                    budget.deadline = DEADLINE - REPLY_MORE;
                    reply = replyValue(child, DEADLINE - REPLY_MORE);
                    late = true;
                }
                budget.deadline = modelEnd;
                if (verbose) fprintf(stderr, "model: a win, the exact search on the replies: %s%s, cpu %.3f\n",
                                     reply == 2 ? "not settled" : reply == LOSS ? "proven" : "refuted",
                                     late ? " (looked until the tree's last seconds)" : "", cpu());
                if (reply == LOSS) { maskCells(c.region, region, b.S); return "exact win, the model's"; }
                if (reply != 2 && late) {  // (the tree, left the last seconds, keeps away from it)
                    (reply == WIN ? refuted : drawn).insert(HASH(c.region));
                    break;
                }
                if (reply != 2) continue;
                maskCells(c.region, region, b.S);
                return "model win";
            }
        } catch (TooBig&) {
            gExact = true;
        }
        gExact = true;
        if (verbose) fprintf(stderr, "model look: %d candidates valued, %d won by the opponent in the model, cpu %.3f\n", looked, theirs, cpu());
    }
    // 4. the rest of the time: Monte Carlo tree search (in a lost position too: practical chances)
    if (USE_MCTS && cpu() < DEADLINE - 0.05) {
        budget.deadline = DEADLINE;
        int iterations = 0;
        rootRanked = ROOT_RANKED ? &ranked : nullptr;
        int c = mcts(b, DEADLINE, iterations);
        if (verbose) fprintf(stderr, "mcts: %d iterations, %zu nodes\n", iterations, nodes.size());
        if (!lost && rounds && cpu() < DEADLINE - 0.02) {
            // The tree ended early: its first look proved the root won (the rounds above had not;
            // it then makes no children), or it proved every child it has (the candidates) lost or
            // drawn, or it went round proven nodes only, while a win may be among the other moves.
            // The rest of the move goes to the rounds again, over a table that holds what the tree
            // proved, narrower this time (decay 2, as arena solve's: the first rounds' breadth has
            // not found the win; NOTES.md, section 13).
            budget.deadline = DEADLINE;
            narrowRounds();
            try {
                Mask move;
                bool has = false;
                int value = bestByRounds(pos, ranked, move, has);
                if (has && value != LOSS) {
                    maskCells(move, region, b.S);
                    return value == WIN ? "exact win, after the tree" : "exact draw, after the tree";
                }
            } catch (TooBig&) {
            } catch (std::bad_alloc&) {
            }
        }
        if (c >= 0) {
            region.clear();
            for (int i = 0; i < nodes[c].moveLen; ++i) {
                int m = pool[nodes[c].moveOff + i];
                region.push_back((m >> 5) * b.S + (m & 31));
            }
            how = nodes[0].proven == WIN ? "mcts proven win" : "mcts";
        }
    } else if (!lost) {
        budget.deadline = DEADLINE;  // (Python's way) the exact search again
        try {
            Mask move;
            bool has = false;
            int value = bestOf(pos, move, has);
            if (has && value != LOSS) { maskCells(move, region, b.S); return value == WIN ? "exact win" : "exact draw"; }
        } catch (TooBig&) {
        }
    }
    (void)start;
    return how;
}

// `--playouts COUNT`: COUNT of the tree's random playouts (`playout`, the tree's only judge of a
// position it has not proven) from the position on standard input, and their mean result for the
// player to move (1 a win, 0.5 a draw, 0 a loss): do they tell a won position from a lost one?
// (benchmarks/bench_strong_playouts.py; NOTES.md, section 34).  The same seed every run.
static int playoutsMode(long count) {
    if (count <= 0) { printf("error: --playouts COUNT: a count above 0\n"); return 2; }
    Board b;
    if (!stdinBoard(b) || b.n > 31) { printf("error: not a board of at most 31x31\n"); return 2; }
    useSize(b.n);
    Play base;
    base.init(b);
    double sum = 0;
    for (long i = 0; i < count; ++i) {
        Play pl = base;
        sum += playout(pl);
    }
    printf("playouts %ld mean %.4f\n", count, sum / count);
    return 0;
}

// The whole run: a move, or --solve / --grundy-check / --rank / --playouts (main has told which from argv).
static int run(Mode mode, char** argv) {
    if (const char* d = getenv("STRONG_DEADLINE")) DEADLINE = atof(d);
    if (const char* d = getenv("STRONG_MCTS")) USE_MCTS = atoi(d);
    if (const char* d = getenv("STRONG_MODEL")) MODEL = atoi(d);
    if (const char* d = getenv("STRONG_CAND_HARSH")) CAND_HARSH = atoi(d);
    if (const char* d = getenv("STRONG_RANK")) RANK_SHARE = atof(d);
    if (const char* d = getenv("STRONG_TREE_GRUNDY")) TREE_GRUNDY = atoi(d);
    if (const char* d = getenv("STRONG_UCT_C")) UCT_C = atof(d);
    if (const char* d = getenv("STRONG_ROUNDS")) ROUNDS = atoi(d);
    if (const char* d = getenv("STRONG_ROUND_STEPS")) ROUND_STEPS = atol(d);
    if (const char* d = getenv("STRONG_ROUND_WIDTH")) ROUND_WIDTH = atol(d);
    if (const char* d = getenv("STRONG_ROUND_ENUM")) ROUND_ENUM = atol(d);
    if (const char* d = getenv("STRONG_ROUND_DECAY")) ROUND_DECAY = atof(d);
    if (const char* d = getenv("STRONG_ENUM_REACH")) ENUM_REACH = atoi(d);
    if (const char* d = getenv("STRONG_ENUM_TURNS")) ENUM_TURNS = atoi(d);
    if (const char* d = getenv("STRONG_NARROW_LIVE")) NARROW_LIVE = atoi(d);
    if (const char* d = getenv("STRONG_EXACT_SMALL")) EXACT_SMALL_SHARE = atof(d);
    if (const char* d = getenv("STRONG_EXACT_SURE")) EXACT_SURE = atoi(d);
    if (const char* d = getenv("STRONG_SMALL_ROOM")) SMALL_ROOM = atoi(d);
    if (const char* d = getenv("STRONG_SMALL_NO_MODEL")) SMALL_NO_MODEL = atoi(d);
    if (const char* d = getenv("STRONG_FIRST_LIVE")) FIRST_LIVE = atoi(d);
    if (const char* d = getenv("STRONG_EXACT_MID")) EXACT_MID_SHARE = atof(d);
    if (const char* d = getenv("STRONG_MODEL_PART")) MODEL_PART = atoi(d);
    if (const char* d = getenv("STRONG_UNKNOWN_PARITY")) UNKNOWN_PARITY = atoi(d);
    if (const char* d = getenv("STRONG_MODEL_SHARE")) MODEL_SHARE = atof(d);
    if (const char* d = getenv("STRONG_ROOT_RANKED")) ROOT_RANKED = atoi(d);
    if (const char* d = getenv("STRONG_MODEL_STEPS")) MODEL_STEPS = atol(d);
    if (const char* d = getenv("STRONG_TREE_EXACT")) TREE_EXACT = atoi(d);
    if (const char* d = getenv("STRONG_REPLY_ROUNDS")) REPLY_ROUNDS = atoi(d);
    if (const char* d = getenv("STRONG_REPLY_MORE")) REPLY_MORE = atof(d);
    if (const char* d = getenv("STRONG_HEAP_LATE")) HEAP_LATE = atoi(d);
    if (const char* d = getenv("STRONG_PROGRESS_TOP")) PROGRESS_TOP = atoi(d);
    if (const char* d = getenv("STRONG_PROGRESS_FROM")) PROGRESS_FROM = atoi(d);
    if (const char* d = getenv("STRONG_IMMUNE")) IMMUNE = atoi(d);
    if (const char* d = getenv("STRONG_KILLERS")) KILLERS = max(0, min(KILLER_SLOTS, atoi(d)));
    if (mode == SOLVE) return solveMode(atof(argv[2]));
    if (mode == GRUNDY_CHECK) return grundyCheckMode(atol(argv[2]), atol(argv[3]));
    if (mode == RANK) return rankMode(atol(argv[2]));
    if (mode == PLAYOUTS) return playoutsMode(atol(argv[2]));
    bool verbose = getenv("STRONG_VERBOSE") != nullptr;
    signal(SIGXFSZ, SIG_IGN);  // a file over the size limit: a failed write, not the end of the bot
    Board b;
    {
        ifstream in("game.in");
        if (!parseBoard(in, b)) return 1;
    }
    vector<int> region;
    const char* how = "fallback";
    if (b.n <= 31) {
        useSize(b.n);
        table = (Entry*)calloc(1ULL << TBITS, sizeof(Entry));
        if (table) {
            loadMemory();
            try {
                how = decide(b, region, verbose);
            } catch (TooBig&) {
            } catch (std::bad_alloc&) {
            }
        }
    }
    if (!legalCheck(b, region)) fallback(b, region);
    writeMove(b, region);
    if (verbose) fprintf(stderr, "%s, cpu %.3f\n", how, cpu());
    if (table) saveMemory();
    return 0;
}
};  // Engine

// The board's size picks the engine: standard input is read here (once), game.in's first number here
// and the whole file again by the engine.
int main(int argc, char** argv) {
    Mode mode = argc >= 3 && string(argv[1]) == "--solve"           ? SOLVE
                : argc >= 4 && string(argv[1]) == "--grundy-check" ? GRUNDY_CHECK
                : argc >= 3 && string(argv[1]) == "--rank"          ? RANK
                : argc >= 3 && string(argv[1]) == "--playouts"      ? PLAYOUTS
                                                                   : MOVE;
    int n = 0;
    if (mode != MOVE) {
        stringstream text;
        text << cin.rdbuf();
        stdinText = text.str();
        istringstream(stdinText) >> n;
    } else {
        ifstream("game.in") >> n;
    }
    return n >= 1 && n <= 16 ? Engine<16>::run(mode, argv) : Engine<32>::run(mode, argv);
}
