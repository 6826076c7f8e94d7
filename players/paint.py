"""Strategy for the painting game, shared by the shipped bots and ``arena solve``.

Positions are bit masks (Python ints): cell (x, y) is bit ``x * (n + 1) + y``;
the spare column n is always 0, so shifting a mask by one never wraps a row.

Three facts make exact search tractable:

* Only *free* cells matter: a cell that is painted or touches a painted cell
  can never be painted again, nor can a number on it.  A number v is *live*
  while v cells around it can still be painted; once dead it stays dead.
* A live number v can only use cells within distance v - 1 of it (its *zone*,
  walking through free empty cells).  Two numbers whose zones neither overlap
  nor touch never affect each other, so a position splits into independent
  *parts* (groups of interacting numbers, with their zones).
* Once some number is dead, nobody can ever paint every number, so the game
  has no draw any more: the player who cannot move loses.  Independent parts
  then add up like Nim heaps (Sprague-Grundy): the position is lost for the
  player to move exactly when the XOR of the parts' Grundy values is 0.

While every number is still live a draw is possible and the whole position is
searched with win / draw / loss values instead.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path

from referees import SHIPPED
from referees.paint import EMPTY, PAINTED, PaintMove, PaintState, board_text

WIN, DRAW, LOSS = 1, 0, -1
VALUE_NAMES = {WIN: "win", DRAW: "draw", LOSS: "loss"}


class TooBig(Exception):
    """Exact search ran out of its time or node budget."""


# ---------------------------------------------------------------- geometry
@dataclass(frozen=True)
class Grid:
    """Bit-mask geometry of an n×n board (row stride n + 1)."""

    n: int
    stride: int
    full: int
    columns: tuple[int, ...]

    def bit(self, x: int, y: int) -> int:
        return x * self.stride + y

    def xy(self, bit: int) -> tuple[int, int]:
        return divmod(bit, self.stride)

    def grow(self, mask: int) -> int:
        """``mask`` with every cell sharing a side with it."""
        s = self.stride
        return (mask | mask << 1 | mask >> 1 | mask << s | mask >> s) & self.full

    def cells(self, mask: int) -> list[tuple[int, int]]:
        return [self.xy(b) for b in bits(mask)]

    @cached_property
    def around(self) -> tuple[int, ...]:
        """For each bit, the mask of that cell and the cells sharing a side with it."""
        return tuple(self.grow(1 << b) if (self.full >> b) & 1 else 0 for b in range(self.n * self.stride))


@cache
def grid(n: int) -> Grid:
    stride = n + 1
    row = (1 << n) - 1
    full = sum(row << (x * stride) for x in range(n))
    columns = tuple(sum(1 << (x * stride + y) for x in range(n)) for y in range(n))
    return Grid(n, stride, full, columns)


def bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def zone(g: Grid, at: int, v: int, empty: int) -> int:
    """Cells within distance v - 1 of bit ``at`` walking through ``empty``
    (``at`` included): every region of the number there lies inside."""
    s, z = g.stride, 1 << at
    for _ in range(v - 1):
        wider = z | ((z << 1 | z >> 1 | z << s | z >> s) & empty)
        if wider == z:
            break
        z = wider
    return z


def alive(g: Grid, at: int, v: int, empty: int) -> bool:
    """Whether the number v at bit ``at`` can still be painted: at least v
    cells reachable through ``empty`` (stops as soon as it knows)."""
    s, z = g.stride, 1 << at
    while z.bit_count() < v:
        wider = z | ((z << 1 | z >> 1 | z << s | z >> s) & empty)
        if wider == z:
            return False
        z = wider
    return True


# ---------------------------------------------------------------- positions
@dataclass(frozen=True)
class Part:
    """Interacting live numbers with the free empty cells of their zones.

    ``numbers`` are (bit, value) pairs in bit order; ``zones`` the matching
    zones.  Parts of one position never interact."""

    empty: int
    numbers: tuple[tuple[int, int], ...]
    zones: tuple[int, ...]
    cells: int  # the union of the zones

    def key(self, g: Grid) -> tuple[int, int, tuple[tuple[int, int], ...]]:
        """The part moved to the top-left corner: equal keys, equal games."""
        shift = _corner(g, self.cells)
        return g.stride, self.empty >> shift, tuple((b - shift, v) for b, v in self.numbers)


def _corner(g: Grid, mask: int) -> int:
    """The shift that moves ``mask`` to row 0 and column 0."""
    top = ((mask & -mask).bit_length() - 1) // g.stride
    left = next(y for y, col in enumerate(g.columns) if mask & col)
    return top * g.stride + left


@dataclass(frozen=True)
class Position:
    """A position as the strategy sees it: its parts (no part: no live
    number), and whether some unpainted number is dead (no draw possible)."""

    grid: Grid
    parts: tuple[Part, ...]
    dead: bool

    @property
    def numbers(self) -> int:
        return sum(len(p.numbers) for p in self.parts)


def position(state: PaintState) -> Position:
    """The strategy's view of a referee state."""
    g = grid(state.n)
    painted = empty = 0
    numbers: list[tuple[int, int]] = []
    for i, v in enumerate(state.cells):
        b = g.bit(*divmod(i, state.n))
        if v == PAINTED:
            painted |= 1 << b
        elif v == EMPTY:
            empty |= 1 << b
        else:
            numbers.append((b, v))
    blocked = g.grow(painted)
    free = [(b, v) for b, v in numbers if not blocked >> b & 1]
    return build(g, empty & ~blocked, free, dead=len(free) < len(numbers))


def build(g: Grid, empty: int, numbers: list[tuple[int, int]] | tuple[tuple[int, int], ...],
          dead: bool = False) -> Position:
    """Split free cells and unpainted free numbers into parts; numbers that
    can no longer be painted are dropped and set ``dead``."""
    live: list[tuple[int, int, int]] = []
    for b, v in numbers:
        z = zone(g, b, v, empty)
        if z.bit_count() >= v:
            live.append((b, v, z))
        else:
            dead = True
    return Position(g, tuple(_parts(g, empty, live)), dead)


def _parts(g: Grid, empty: int, live: list[tuple[int, int, int]]) -> list[Part]:
    """Group live numbers whose zones overlap or touch: each number joins
    (and merges) the groups whose zones' surroundings meet its zone."""
    groups: list[tuple[int, int, list[int]]] = []  # (zones, their surroundings, members)
    for i, (_, _, z) in enumerate(live):
        zones, halo, members = z, g.grow(z), [i]
        kept = []
        for group in groups:
            if group[1] & z:
                zones |= group[0]
                halo |= group[1]
                members += group[2]
            else:
                kept.append(group)
        groups = kept + [(zones, halo, members)]
    parts = []
    for cells, _, members in groups:
        members.sort()
        parts.append(Part(empty & cells, tuple(live[i][:2] for i in members),
                          tuple(live[i][2] for i in members), cells))
    return parts


# ---------------------------------------------------------------- moves
@dataclass
class Budget:
    """A CPU-time deadline (``time.process_time``), checked every 64 search
    steps (positions valued, regions enumerated); ``TooBig`` when it passes.
    ``clock``: what is read instead of ``time.process_time`` (tests give a
    clock that counts its readings, so that the budget is one of steps, the
    same on a loaded host as on an idle one)."""

    deadline: float | None = None
    nodes: int = 0
    clock: Callable[[], float] = time.process_time

    def tick(self) -> None:
        """Count a light node (checks the clock every 64)."""
        self.nodes += 1
        if not self.nodes & 63:
            self.check()

    def check(self) -> None:
        """Check the clock now (before heavy work)."""
        if self.deadline is not None and self.clock() > self.deadline:
            raise TooBig(f"gave up after {self.nodes} search steps")


def effects(g: Grid, part: Part, k: int, budget: Budget) -> Iterator[tuple[int, int]]:
    """The moves of number ``k`` of ``part`` that differ for the rest of the
    game: (region, cells of other zones it removes), one region per effect."""
    at, v = part.numbers[k]
    others = _others(g, part, k)
    seen: set[int] = set()
    for region in regions(g, at, v, part.zones[k] & part.empty, g.grow(others), budget):
        effect = g.grow(region) & others
        if effect not in seen:
            seen.add(effect)
            yield region, effect


def _others(g: Grid, part: Part, k: int) -> int:
    """The zones of the numbers of ``part`` that may outlive a move of number
    ``k`` (those beside it die whatever region it paints)."""
    beside = g.grow(1 << part.numbers[k][0])
    others = 0
    for i, ((b, _), z) in enumerate(zip(part.numbers, part.zones)):
        if i != k and not beside >> b & 1:
            others |= z
    return others


def regions(g: Grid, at: int, v: int, allowed: int, sensitive: int, budget: Budget) -> Iterator[int]:
    """Connected sets of v cells: bit ``at`` plus cells of ``allowed``.

    Redelmeier's enumeration (each frontier cell is taken, or banned for the
    rest of the branch), cut short wherever all ways to finish a branch stay
    outside ``sensitive``: those finish alike for the caller, so one of them
    stands for all.  Every distinct trace on ``sensitive`` is still produced."""
    s = g.stride

    def finish(chosen: int, frontier: int, seen: int, left: int) -> Iterator[int]:
        while frontier:
            budget.tick()
            avail = frontier | (allowed & ~seen)
            reach = frontier
            for _ in range(left - 1):
                wider = reach | ((reach << 1 | reach >> 1 | reach << s | reach >> s) & avail)
                if wider == reach:
                    break
                reach = wider
            if reach.bit_count() < left:
                return
            if not reach & sensitive:
                yield _fill(g, chosen, reach, left)
                return
            w = frontier & -frontier
            frontier ^= w
            if left == 1:
                yield chosen | w
                continue
            new = (w << 1 | w >> 1 | w << s | w >> s) & allowed & ~seen
            yield from finish(chosen | w, frontier | new, seen | new, left - 1)

    start = 1 << at
    if v == 1:
        yield start
        return
    front = g.grow(start) & allowed
    yield from finish(start, front, start | front, v - 1)


def _fill(g: Grid, chosen: int, reach: int, left: int) -> int:
    """``chosen`` plus ``left`` cells of ``reach``, added in breadth-first order."""
    while left:
        ring = g.grow(chosen) & reach & ~chosen
        while ring and left:
            low = ring & -ring
            chosen |= low
            ring ^= low
            left -= 1
    return chosen


def after(g: Grid, part: Part, k: int, region: int) -> Position:
    """What ``part`` becomes when number ``k`` paints ``region``."""
    empty, live, dead = survivors(g, part, k, region)
    return Position(g, tuple(_parts(g, empty, live)), dead)


def after_move(pos: Position, i: int, k: int, region: int) -> Position:
    """The position after number ``k`` of part ``i`` paints ``region``."""
    inner = after(pos.grid, pos.parts[i], k, region)
    return Position(pos.grid, pos.parts[:i] + inner.parts + pos.parts[i + 1:], pos.dead or inner.dead)


def survivors(g: Grid, part: Part, k: int, region: int) -> tuple[int, list[tuple[int, int, int]], bool]:
    """The free empty cells, the live numbers (bit, value, zone) and whether
    a number died, when number ``k`` of ``part`` paints ``region``.  Zones the
    move does not reach are unchanged, so only the others are recomputed."""
    gone = g.grow(region)
    empty = part.empty & ~gone
    live, dead = [], False
    for i, ((b, v), z) in enumerate(zip(part.numbers, part.zones)):
        if i == k:
            continue
        if gone >> b & 1:
            dead = True
            continue
        if z & gone:
            z = zone(g, b, v, empty)
            if z.bit_count() < v:
                dead = True
                continue
        live.append((b, v, z))
    return empty, live, dead


def to_move(g: Grid, region: int) -> PaintMove:
    return PaintMove(tuple(g.cells(region)))


# ---------------------------------------------------------------- exact search
def _mex(values: set[int]) -> int:
    m = 0
    while m in values:
        m += 1
    return m


@dataclass
class Memory:
    """What the searches learnt, by position: kept across calls, and across
    a bot's moves if it saves them (keys do not depend on where on the
    board a part lies).  One set of tables for the exact game, one for the
    model."""

    tables: dict[bool, tuple[dict, dict, dict]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for exact in (True, False):
            self.tables.setdefault(exact, ({}, {}, {}))

    def size(self) -> int:
        return sum(len(table) for tables in self.tables.values() for table in tables)


#: Most bytes a saved memory takes: the arena caps any file a bot writes at 1 MiB.
SAVED_BYTES = 800_000


def load_memory(path: Path) -> Memory:
    """The memory a bot saved at its previous move (an empty one if there is
    none, or if the file cannot be read back)."""
    try:
        tables, remembered = pickle.loads(path.read_bytes())
        memory = Memory(tables)
        memory.size()
    except Exception:  # noqa: BLE001 -- missing, truncated or foreign: start afresh rather than fault
        return Memory()
    _CANDIDATES.update(remembered)
    return memory


def save_memory(path: Path, memory: Memory) -> None:
    """Save ``memory`` and the remembered candidate regions for the next move
    in at most ``SAVED_BYTES``: if they do not fit, the candidates go first,
    then the model's tables, then everything.  A failure to write only
    loses the memory."""
    attempts = ((memory.tables, _CANDIDATES), (memory.tables, {}), ({True: memory.tables[True]}, {}))
    for tables, remembered in attempts:
        data = pickle.dumps((tables, remembered), protocol=pickle.HIGHEST_PROTOCOL)
        if len(data) <= SAVED_BYTES:
            break
    else:
        data = b""
    try:
        path.write_bytes(data)
    except OSError:
        path.unlink(missing_ok=True)


class Solver:
    """Exact values (or, with ``exact=False``, values of a model of the game
    where each number has only its heuristic candidate regions), with memo
    tables kept across calls (``memory``): positions repeat."""

    def __init__(self, exact: bool = True, deadline: float | None = None, memory: Memory | None = None,
                 clock: Callable[[], float] = time.process_time) -> None:
        self.exact = exact
        self.budget = Budget(deadline, clock=clock)
        self.grundies, self.wins_memo, self.values = (memory or Memory()).tables[exact]

    def moves(self, g: Grid, part: Part, k: int) -> Iterator[int]:
        """The regions of number ``k`` to consider, one per distinct effect:
        the heuristic candidates first (good moves early cut the search
        short), then, when exact, every other effect."""
        others = _others(g, part, k)
        seen: set[int] = set()
        self.budget.check()
        for region in candidates(g, part, k):
            seen.add(g.grow(region) & others)
            yield region
        if self.exact:
            for region, effect in effects(g, part, k, self.budget):
                if effect not in seen:
                    seen.add(effect)
                    yield region

    def grundy(self, g: Grid, part: Part) -> int:
        """The Grundy value of a part (the game without draws).  A part of j
        numbers has a value of at most j, which ends the search early."""
        count = len(part.numbers)
        if count == 1:
            return 1
        key = part.key(g)
        found = self.grundies.get(key)
        if found is None:
            self.budget.tick()
            options: set[int] = set()
            for k in range(count):
                for region in self.moves(g, part, k):
                    options.add(self.xor(g, after(g, part, k, region).parts))
                    if len(options) == count and max(options) == count - 1:
                        break
                else:
                    continue
                break
            found = self.grundies[key] = _mex(options)
        return found

    def xor(self, g: Grid, parts: tuple[Part, ...]) -> int:
        """The Grundy value of independent parts together."""
        total = 0
        for part in parts:
            total ^= self.grundy(g, part)
        return total

    def wins(self, g: Grid, parts: tuple[Part, ...], heap: int = 0) -> bool:
        """Whether the player to move wins the parts plus a Nim heap (no draws).

        Parts of at most two numbers, and parts already valued, fold into the
        heap; so do all but the biggest of the rest.  The biggest is searched
        for a move to a lost position; failing that, its Grundy value is the
        heap."""
        big: list[Part] = []
        for part in parts:
            if len(part.numbers) <= 2 or part.key(g) in self.grundies:
                heap ^= self.grundy(g, part)
            else:
                big.append(part)
        if not big:
            return heap != 0
        big.sort(key=lambda p: len(p.numbers))
        for part in big[:-1]:
            heap ^= self.grundy(g, part)
        part = big[-1]
        key = (part.key(g), heap)
        found = self.wins_memo.get(key)
        if found is None:
            self.budget.tick()
            found = any(not self.wins(g, (part,), smaller) for smaller in range(heap)) or any(
                not self.wins(g, after(g, part, k, region).parts, heap)
                for k in range(len(part.numbers)) for region in self.moves(g, part, k))
            if not found:
                self.grundies[part.key(g)] = heap
            self.wins_memo[key] = found
        return found

    def value(self, pos: Position) -> int:
        """WIN, DRAW or LOSS for the player to move."""
        if pos.dead:
            return WIN if self.wins(pos.grid, pos.parts) else LOSS
        if not pos.parts:
            return DRAW  # every number painted (the only way to have no live one)
        key = tuple(sorted(p.key(pos.grid) for p in pos.parts))
        found = self.values.get(key)
        if found is None:
            self.budget.tick()
            found = LOSS
            for _, child in self.children(pos):
                found = max(found, -self.value(child))
                if found == WIN:
                    break
            self.values[key] = found
        return found

    def best(self, pos: Position) -> tuple[int, int | None]:
        """(value, region of one best move) for the player to move; no move
        when the game is over or (without draws) every move loses."""
        if not pos.parts:
            return (LOSS if pos.dead else DRAW), None
        if pos.dead:
            for region, child in self.children(pos):
                if not self.wins(pos.grid, child.parts):
                    return WIN, region
            return LOSS, None
        best, move = LOSS, None
        for region, child in self.children(pos):
            value = -self.value(child)
            if move is None or value > best:
                best, move = value, region
                if best == WIN:
                    break
        return best, move

    def children(self, pos: Position) -> Iterator[tuple[int, Position]]:
        """(region, position after) for each move considered."""
        for i, part in enumerate(pos.parts):
            for k in range(len(part.numbers)):
                for region in self.moves(pos.grid, part, k):
                    yield region, after_move(pos, i, k, region)


# ---------------------------------------------------------------- candidate moves
def candidates(g: Grid, part: Part, k: int, reach: int = 4) -> list[int]:
    """A few regions for number ``k`` of ``part`` that differ in what they do
    to the other numbers: the one that harms them least, the one that harms
    them most, one that reaches out to touch (kill) as many as it can, and
    for each of the ``reach`` nearest other numbers a region that kills it
    by touching it.  Duplicates (same effect) are dropped."""
    at, v = part.numbers[k]
    allowed = part.zones[k] & part.empty
    others = numbers = 0
    for i, ((b, _), z) in enumerate(zip(part.numbers, part.zones)):
        if i != k:
            others |= z
            numbers |= 1 << b
    unique: dict[int, int] = {}
    for region in _candidates(g, at, v, allowed, others, numbers, reach):
        unique.setdefault(g.grow(region) & others, region)
    return list(unique.values())


def _candidates(g: Grid, at: int, v: int, allowed: int, others: int, numbers: int, reach: int) -> list[int]:
    """The regions of ``candidates``, remembered: they depend only on what
    lies within one step of the number's free cells, which most moves
    elsewhere leave alone."""
    near = g.grow(allowed | 1 << at)
    key = (g.n, at, v, allowed, others & near, numbers & near, reach)
    found = _CANDIDATES.get(key)
    if found is None:
        found = [_grow(g, 1 << at, v, allowed, others, numbers, gentle=True),
                 _grow(g, 1 << at, v, allowed, others, numbers, gentle=False),
                 _grow(g, _sweep(g, at, v, allowed, numbers), v, allowed, others, numbers, gentle=False)]
        for path in _paths_to_numbers(g, at, v, allowed, numbers, reach):
            found.append(_grow(g, path, v, allowed, others, numbers, gentle=True))
        if len(_CANDIDATES) > 200_000:
            _CANDIDATES.clear()
        _CANDIDATES[key] = found
    return found


_CANDIDATES: dict[tuple, list[int]] = {}


def _grow(g: Grid, chosen: int, v: int, allowed: int, others: int, numbers: int, gentle: bool) -> int:
    """Grow ``chosen`` to v cells of ``allowed``, one side-neighbour at a time,
    taking the cell whose new surroundings touch the fewest other numbers,
    then the fewest cells of their zones (``gentle``), or the most; then the
    cell with the most neighbours already chosen (compact regions).  A cell's
    cost changes only when a cell within distance 2 is taken."""
    near = g.around
    foot = g.grow(chosen)
    sign = 1 if gentle else -1

    def cost(c: int) -> int:
        # One integer orders (kills, harm, -compactness, cell): kills <= 4, harm <= 5.
        new = near[c] & ~foot
        return ((sign * ((new & numbers).bit_count() * 16 + (new & others).bit_count()) * 8
                 - (near[c] & chosen).bit_count()) << 12) + c

    costs = {c: cost(c) for c in bits(foot & allowed & ~chosen)}
    for _ in range(v - chosen.bit_count()):
        best = min(costs, key=costs.__getitem__)
        del costs[best]
        chosen |= 1 << best
        foot |= near[best]
        for c in bits(g.grow(near[best]) & foot & allowed & ~chosen):
            costs[c] = cost(c)
    return chosen


def _paths_to_numbers(g: Grid, at: int, v: int, allowed: int, numbers: int, reach: int) -> Iterator[int]:
    """Shortest paths of at most v cells from bit ``at`` through ``allowed``
    to a cell touching another number (nearest numbers first), as masks."""
    layers = [1 << at]
    seen = 1 << at
    targets = g.grow(numbers) & allowed
    hit_numbers = 0
    found = 0
    if g.grow(1 << at) & numbers:
        hit_numbers |= g.grow(1 << at) & numbers  # the number itself touches them: every region kills
    while len(layers) < v and found < reach:
        ring = g.grow(layers[-1]) & allowed & ~seen
        if not ring:
            return
        seen |= ring
        layers.append(ring)
        for t in bits(ring & targets):
            victims = g.around[t] & numbers & ~hit_numbers
            if victims and found < reach:
                hit_numbers |= victims
                found += 1
                yield _back(g, layers, t)


def _sweep(g: Grid, at: int, v: int, allowed: int, numbers: int) -> int:
    """At most v cells from bit ``at`` through ``allowed``: shortest paths to
    the nearest number not yet touched, again and again while cells last;
    the last path, if too long, goes only part of the way (closing in on a
    number takes its room even when the region cannot touch it)."""
    chosen = 1 << at
    while chosen.bit_count() < v:
        targets = g.grow(numbers & ~g.grow(chosen)) & allowed & ~chosen
        layers, seen = [chosen], chosen
        while not layers[-1] & targets:
            ring = g.grow(layers[-1]) & allowed & ~seen
            if not ring:
                return chosen
            seen |= ring
            layers.append(ring)
        if len(layers) == 1:
            return chosen
        hit = layers[-1] & targets
        for cell in _path(g, layers, (hit & -hit).bit_length() - 1)[:v - chosen.bit_count()]:
            chosen |= 1 << cell
    return chosen


def _back(g: Grid, layers: list[int], end: int) -> int:
    """Layer 0 and a shortest path from it to bit ``end`` of the last layer, as a mask."""
    mask = layers[0]
    for cell in _path(g, layers, end):
        mask |= 1 << cell
    return mask


def _path(g: Grid, layers: list[int], end: int) -> list[int]:
    """The cells of a shortest path from layer 1 to bit ``end`` of the last layer, in order."""
    path, cell = [end], end
    for layer in reversed(layers[1:-1]):
        step = g.around[cell] & layer
        cell = (step & -step).bit_length() - 1
        path.append(cell)
    return path[::-1]


# ---------------------------------------------------------------- bots
def all_candidates(pos: Position) -> Iterator[tuple[int, int, int]]:
    """(part index, number index, region) for every candidate move."""
    for i, part in enumerate(pos.parts):
        for k in range(len(part.numbers)):
            for region in candidates(pos.grid, part, k):
                yield i, k, region


def live_after(g: Grid, part: Part, k: int, region: int) -> tuple[int, bool]:
    """How many numbers of ``part`` stay paintable when number ``k`` paints
    ``region``, and whether one died (like ``survivors``, without zones)."""
    gone = g.grow(region)
    empty = part.empty & ~gone
    count = 0
    for i, ((b, v), z) in enumerate(zip(part.numbers, part.zones)):
        if i != k and not gone >> b & 1 and (not z & gone or alive(g, b, v, empty)):
            count += 1
    return count, count < len(part.numbers) - 1


@dataclass(frozen=True)
class Outlook:
    """What a move leaves the opponent: how many paintable numbers, whether
    that ends the game (won, or drawn with every number painted), and how
    many cells of the other numbers' zones it took."""

    left: int
    won: bool
    drawn: bool
    damage: int


def ranked_candidates(pos: Position, score: Callable[[Outlook], tuple],
                      deadline: float | None = None,
                      clock: Callable[[], float] = time.process_time) -> list[tuple[tuple, int, int, int]]:
    """(score, part index, number index, region) for each candidate move,
    smallest score first; past ``deadline`` (by ``clock``: process CPU time)
    only those looked at so far."""
    g, total = pos.grid, pos.numbers
    ranked = []
    for count, (i, k, region) in enumerate(all_candidates(pos)):
        if deadline is not None and ranked and not count & 15 and clock() > deadline:
            break
        part = pos.parts[i]
        live, dead = live_after(g, part, k, region)
        left = total - len(part.numbers) + live
        outlook = Outlook(left, left == 0 and (dead or pos.dead), left == 0 and not (dead or pos.dead),
                          (g.grow(region) & part.cells).bit_count())
        ranked.append((score(outlook), i, k, region))
    ranked.sort(key=lambda entry: entry[0])
    return ranked


def best_candidate(pos: Position, score: Callable[[Outlook], tuple], deadline: float | None = None) -> int:
    """The candidate move with the smallest ``score``."""
    return ranked_candidates(pos, score, deadline)[0][3]


def greedy_score(o: Outlook) -> tuple:
    """Fewest paintable numbers for the opponent (a win at once first, a draw
    only when nothing leaves fewer than one), then the most damage."""
    return o.left + (0.5 if o.drawn else 0), -o.damage


def parity_score(o: Outlook) -> tuple:
    """A win at once; else an even number of paintable numbers for the
    opponent (as if each were one more move, the parity of the game once
    nothing interacts any more), fewest first; a draw only as a last resort
    (the exact search takes a draw when it proves nothing better exists)."""
    return not o.won, o.drawn, o.left % 2, o.left, -o.damage


def greedy_region(pos: Position, deadline: float | None = None) -> int:
    return best_candidate(pos, greedy_score, deadline)


def parity_region(pos: Position, deadline: float | None = None) -> int:
    return best_candidate(pos, parity_score, deadline)


def strong_region(pos: Position, deadline: float, memory: Memory | None = None,
                  clock: Callable[[], float] = time.process_time) -> int:
    """The move of the strong bot, decided by ``deadline`` (by ``clock``: process CPU time).

    First the candidate moves ranked by ``parity_score``; then a short exact
    search, which plays a winning (or drawing) move if it finishes; else the
    first move in that ranking that wins in the model of the game (candidate
    regions only), unless the exact search refutes it; else the exact search
    again, with its memo, until the deadline; else the best-ranked move.
    ``memory`` carries what the searches learnt to the next call."""
    memory = memory or Memory()
    now = clock()
    ranked = ranked_candidates(pos, parity_score, now + 0.3 * (deadline - now), clock)
    now = clock()
    exact = Solver(deadline=now + 0.15 * (deadline - now), memory=memory, clock=clock)
    try:
        value, region = exact.best(pos)
        if region is not None and value != LOSS:
            return region
        return _swindle(pos, exact, deadline) or ranked[0][3]
    except TooBig:
        pass
    found = _model_win(pos, [entry[1:] for entry in ranked], exact, Solver(False, deadline, memory, clock), deadline)
    if found is not None:
        return found
    exact.budget.deadline = deadline
    try:
        value, region = exact.best(pos)
        if region is not None and value != LOSS:
            return region
    except TooBig:
        pass
    return ranked[0][3]


def _swindle(pos: Position, exact: Solver, deadline: float) -> int | None:
    """In a lost position, the move that leaves the opponent the largest
    share of moves that lose (one per distinct effect), as far as the exact
    search gets by ``deadline``."""
    exact.budget.deadline = deadline
    best, best_share = None, -1.0
    try:
        for region, child in exact.children(pos):
            replies = [exact.value(grand) for _, grand in exact.children(child)]
            share = replies.count(WIN) / len(replies) if replies else 0.0
            if share > best_share:
                best, best_share = region, share
    except TooBig:
        pass
    return best


def _model_win(pos: Position, moves: list[tuple[int, int, int]], exact: Solver, model: Solver,
               deadline: float) -> int | None:
    """The first of ``moves`` (part index, number index, region) after which
    the opponent loses in the ``model`` of the game, and that ``exact`` does
    not prove wrong within part of the time left."""
    try:
        for i, k, region in moves:
            child = after_move(pos, i, k, region)
            if model.value(child) != LOSS:
                continue
            now = exact.budget.clock()
            exact.budget.deadline = now + 0.4 * (deadline - now)
            try:
                if exact.value(child) != LOSS:
                    continue  # the model missed a reply
            except TooBig:
                pass
            return region
    except TooBig:
        pass
    return None


# ---------------------------------------------------------------- arena solve
#: The champion's C++ source: its ``--solve SECONDS`` mode is the same exact search as below,
#: some 20 times faster; compiled on demand by ``engine()``.
ENGINE_SOURCE = SHIPPED / "bots" / "strong" / "main.cpp"
#: Boards the C++ engine takes (one 32-bit word per row); bigger ones are solved here.
ENGINE_MAX_N = 31


def engine(source: bytes | None = None) -> Path | None:
    """The compiled C++ engine (cached under ``~/.cache/arena`` by the source's hash), or None:
    no source, no C++ compiler, a failed compile, or ``ARENA_SOLVER=python`` in the environment.
    ``source``: another version of ``ENGINE_SOURCE`` (benchmarks compare versions)."""
    if os.environ.get("ARENA_SOLVER") == "python" or (source is None and not ENGINE_SOURCE.is_file()):
        return None
    compiler = shutil.which(os.environ.get("CXX", "g++")) or shutil.which("c++")
    if not compiler:
        return None
    if source is None:
        source = ENGINE_SOURCE.read_bytes()
    digest = hashlib.sha256(source + compiler.encode()).hexdigest()[:16]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "arena"
    binary = cache / f"paint-solver-{digest}"
    if binary.is_file():
        return binary
    try:
        cache.mkdir(parents=True, exist_ok=True)
        partial = cache / f".paint-solver-{digest}.{os.getpid()}"
        built = subprocess.run([compiler, "-O2", "-std=c++17", "-o", str(partial), "-x", "c++", "-"], input=source,
                               capture_output=True, check=False, timeout=300)
        if built.returncode != 0:
            partial.unlink(missing_ok=True)
            return None
        os.replace(partial, binary)  # whole, or not there: another process may be compiling too
    except (OSError, subprocess.TimeoutExpired):
        return None
    return binary


def engine_lines(state: PaintState, max_seconds: float, binary: Path | None = None,
                 env: dict[str, str] | None = None) -> list[str] | None:
    """``solve_lines`` by the C++ engine (or by ``binary``, another build of it: benchmarks compare
    versions; ``env``: the environment it runs in, such as a ``STRONG_...`` setting, where tests
    compare settings), or None when it cannot answer (no engine, a board over ``ENGINE_MAX_N``, or it
    failed): the Python solver answers then."""
    if state.n > ENGINE_MAX_N:
        return None
    binary = binary or engine()
    if binary is None:
        return None
    try:
        run = subprocess.run([str(binary), "--solve", f"{max_seconds:g}"], input=board_text(state),
                             capture_output=True, text=True, check=False, timeout=3 * max_seconds + 30, env=env)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = run.stdout.splitlines()
    return lines if lines and lines[0].startswith("value: ") and run.returncode in (0, 1) else None


def solve_lines(referee: object, state: PaintState, max_seconds: float) -> list[str]:
    """``arena solve paint BOARD``: the exact value for the player to move
    and one best move, or ``value: unknown`` when the search needs more than
    ``max_seconds`` of CPU time.  The C++ engine of bots/strong answers when
    it can (``engine_lines``), else ``python_solve_lines``."""
    return engine_lines(state, max_seconds) or python_solve_lines(state, max_seconds)


def python_solve_lines(state: PaintState, max_seconds: float) -> list[str]:
    """``solve_lines`` by the Python solver of this module."""
    pos = position(state)
    start = time.process_time()
    solver = Solver(exact=True, deadline=start + max_seconds)
    try:
        value, region = solver.best(pos)
    except TooBig as exc:
        return [(f"value: unknown (too big to solve within {max_seconds:g} s: {exc}; "
                f"{pos.numbers} paintable numbers in parts of {_part_sizes(pos)})")]
    lines = [f"value: {VALUE_NAMES[value]} (for the player to move)"]
    if region is not None:
        move = to_move(pos.grid, region)
        lines.append(f"best move: {' '.join(f'({x}, {y})' for x, y in move.cells)}")
        lines.append("game.out:")
        lines.extend(move.to_text().splitlines())
    elif not pos.parts:
        lines.append("best move: none (the game is over: " + (
            "the player to move cannot move)" if pos.dead else "every number is painted)"))
    else:
        lines.append("best move: none (every move loses against best play)")
    lines.append(f"searched {solver.budget.nodes} steps in {time.process_time() - start:.2f} s")
    return lines


def read_solve_lines(lines: list[str]) -> tuple[int | None, str | None]:
    """What ``solve_lines`` says, read back (benchmarks and tests): the value (WIN, DRAW, LOSS;
    None when unknown) and the best move's game.out text (None when it names none)."""
    word = lines[0].split()[1]
    if word == "unknown":
        return None, None
    value = next(v for v, name in VALUE_NAMES.items() if name == word)
    if "game.out:" not in lines:
        return value, None
    start = lines.index("game.out:") + 1
    return value, "\n".join(lines[start:start + int(lines[start]) + 1]) + "\n"


def _part_sizes(pos: Position) -> str:
    return ", ".join(str(len(p.numbers)) for p in sorted(pos.parts, key=lambda p: -len(p.numbers)))
