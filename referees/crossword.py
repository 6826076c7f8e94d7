"""The crossword game, PVE and PVP (docs/rules.md, crossword; source 002, "填字游戏").

A 20×20 board of empty cells and letters, a dictionary (``words.txt``) and a
list of used words.  An action fills empty cells on one line (row, column or
diagonal) without gaps so that the line gets *formed words*: dictionary words
through a filled cell, none of whose prefixes or suffixes (itself included)
was used before the action.  The action declares every formed word of its
line, and may declare formed words of other lines; it scores the distinct
cells of the declared words' occurrences minus the cells it filled.  The
game ends after 30 actions.

* PVE (one-shot, one player): ``game.out`` is a plan of up to 30 actions;
  any illegal action or bad output scores -1 (``fault_score``).
* PVP (per move, two players): ``game.in`` has an extra last line
  ``actions_left my_score their_score``; ``game.out`` is one action (T = 1)
  or ``0`` to pass.  A pass by the seat that moved second ends the game; a
  pass by the seat that moved first only hands the turn over; a pass is not
  one of the 30 actions.  Higher total wins.

Both referees share this module's rules core.  Cells are kept row-major in a
400-character string (index ``x * 20 + y``, x the row, y the column).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from operator import itemgetter

from referees.base import BadInput, BadOutput, IllegalMove, Outcome, Referee, TokenReader, number_text

SIZE = 20
MAX_ACTIONS = 30
#: PVP seats: the one that acts first, and the one whose pass ends the game.
FIRST, SECOND = 0, 1
EMPTY = "-"
LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
WORDS_FILE = "words.txt"

#: The four line directions and how each is read: (name, (row step, column step)).
#: A line starts at a cell whose predecessor is off the board.  Reversing a
#: step reverses that reading direction (docs/rules.md, crossword: left to right, columns
#: top to bottom).
DIRECTIONS: tuple[tuple[str, tuple[int, int]], ...] = (
    ("row", (0, 1)),
    ("column", (1, 0)),
    ("down-right diagonal", (1, 1)),
    ("up-right diagonal", (-1, 1)),
)


# ---------------------------------------------------------------- geometry
@dataclass(frozen=True, eq=False)
class Line:
    """One line of the board: its direction (index into ``DIRECTIONS``) and
    its cells in reading order.  Lines are made once (``all_lines``), so
    they compare by identity."""

    direction: int
    cells: tuple[int, ...]

    @cached_property
    def read(self) -> Callable[[str], str]:
        """A function giving this line's text on a board's cells."""
        if len(self.cells) == 1:
            return itemgetter(self.cells[0])
        getter = itemgetter(*self.cells)
        return lambda cells: "".join(getter(cells))

    @property
    def name(self) -> str:
        x, y = divmod(self.cells[0], SIZE)
        return f"the {DIRECTIONS[self.direction][0]} from ({x}, {y})"


@cache
def all_lines() -> tuple[Line, ...]:
    """Every line of the board, direction by direction."""
    lines = []
    for d, (_, (dx, dy)) in enumerate(DIRECTIONS):
        for x in range(SIZE):
            for y in range(SIZE):
                if 0 <= x - dx < SIZE and 0 <= y - dy < SIZE:
                    continue  # not a start: the line comes from (x - dx, y - dy)
                cells, (a, b) = [], (x, y)
                while 0 <= a < SIZE and 0 <= b < SIZE:
                    cells.append(a * SIZE + b)
                    a, b = a + dx, b + dy
                lines.append(Line(d, tuple(cells)))
    return tuple(lines)


@cache
def lines_through() -> tuple[tuple[tuple[Line, int], ...], ...]:
    """For each cell, the line of each direction through it and the cell's
    position on that line."""
    found: list[list[tuple[Line, int]]] = [[] for _ in range(SIZE * SIZE)]
    for line in all_lines():
        for pos, cell in enumerate(line.cells):
            found[cell].append((line, pos))
    return tuple(tuple(entry) for entry in found)


def xy(cell: int) -> tuple[int, int]:
    return divmod(cell, SIZE)


# ---------------------------------------------------------------- values
@dataclass(frozen=True, eq=False)
class Dictionary:
    """The words of ``words.txt`` (and its text, copied to the bots' folders)."""

    words: frozenset[str]
    text: str

    @cached_property
    def lengths(self) -> tuple[int, int]:
        """The shortest and longest word length (0, 0 when empty)."""
        sizes = [len(w) for w in self.words]
        return (min(sizes), max(sizes)) if sizes else (0, 0)

    @cached_property
    def by_length(self) -> dict[int, tuple[str, ...]]:
        """The words of each length, sorted."""
        groups: dict[int, list[str]] = {}
        for word in sorted(self.words):
            groups.setdefault(len(word), []).append(word)
        return {k: tuple(v) for k, v in groups.items()}

    @cached_property
    def patterns(self) -> dict[tuple[int, int, str], frozenset[str]]:
        """(length, position, letter) -> the words of that length with that
        letter there: matching a window is an intersection of these."""
        index: dict[tuple[int, int, str], frozenset[str]] = {}
        for k, group in self.by_length.items():
            for pos in range(k):
                buckets: dict[str, list[str]] = {}
                for word in group:
                    bucket = buckets.get(word[pos])
                    if bucket is None:
                        buckets[word[pos]] = bucket = []
                    bucket.append(word)
                index.update(((k, pos, ch), frozenset(bucket)) for ch, bucket in buckets.items())
        return index

    def matching(self, pattern: str) -> Iterable[str]:
        """The words that fit ``pattern`` (letters, and ``-`` for any letter)."""
        k = len(pattern)
        known = [(pos, ch) for pos, ch in enumerate(pattern) if ch != EMPTY]
        if not known:
            return self.by_length.get(k, ())
        sets = sorted((self.patterns.get((k, pos, ch), frozenset()) for pos, ch in known), key=len)
        return sets[0].intersection(*sets[1:])


@dataclass(frozen=True)
class CrosswordState:
    """A position: the cells, the used words in order, the dictionary, the
    actions taken, each seat's total, the seat to act and whether the game has
    ended early (a pass by the second seat, or the PVE plan played)."""

    cells: str
    used: tuple[str, ...]
    dictionary: Dictionary = field(compare=False, repr=False)
    actions: int = 0
    scores: tuple[int, int] = (0, 0)
    seat: int = 0
    ended: bool = False

    @cached_property
    def used_set(self) -> frozenset[str]:
        return frozenset(self.used)


@dataclass(frozen=True)
class Action:
    """One action: the cells filled, as (x, y, letter) in the bot's order, and
    the declared words."""

    fills: tuple[tuple[int, int, str], ...]
    words: tuple[str, ...]

    def to_text(self) -> str:
        return "".join([f"{len(self.fills)}\n", *(f"{x} {y} {c}\n" for x, y, c in self.fills),
                        f"{len(self.words)}\n", *(w + "\n" for w in self.words)])


@dataclass(frozen=True)
class Plan:
    """A ``game.out``: T actions (PVE: up to 30; PVP: 0 to pass, or 1)."""

    actions: tuple[Action, ...]

    def to_text(self) -> str:
        return f"{len(self.actions)}\n" + "".join(a.to_text() for a in self.actions)


# ---------------------------------------------------------------- files
def parse_words(text: str) -> Dictionary:
    """Parse ``words.txt``: n, then n upper-case words."""
    tokens = text.split()
    body = "".join(tokens[1:])
    if tokens and tokens[0].isdigit() and int(tokens[0]) == len(tokens) - 1 and (
            not body or (body.isascii() and body.isalpha() and body.isupper())):
        return Dictionary(frozenset(tokens[1:]), text)  # the usual case, fast; else find the error
    reader = TokenReader(text, BadInput)
    n = reader.int("the number of words n", 0)
    words = [_word(reader, f"dictionary word {i + 1} of {n}", BadInput) for i in range(n)]
    reader.end(f"the end of the dictionary after {n} words")
    return Dictionary(frozenset(words), text)


def _word(reader: TokenReader, what: str, error: type[BadInput | BadOutput]) -> str:
    line = reader.line
    word = reader.word(what)
    if not set(word) <= LETTERS:
        lower = " (letters must be upper case)" if word.upper() != word or not word.isascii() else ""
        raise error(f"expected {what} of letters A-Z, found {word!r}{lower}", line=line)
    return word


def parse_board(text: str, dictionary: Dictionary) -> tuple[CrosswordState, tuple[int, int, int] | None]:
    """Parse a board file / ``game.in``: 20 rows, m, m used words, and in PVP
    a last line ``actions_left my_score their_score`` (returned, else None)."""
    reader = TokenReader(text, BadInput)
    rows = [_board_row(reader, x) for x in range(SIZE)]
    m = reader.int("the number of used words m", 0)
    used = tuple(_word(reader, f"used word {i + 1} of {m}", BadInput) for i in range(m))
    extra = None
    if not reader.at_end():
        extra = (reader.int("the actions left", 0, MAX_ACTIONS), reader.int("my score"), reader.int("their score"))
    reader.end("the end of the board")
    return CrosswordState("".join(rows), used, dictionary), extra


def _board_row(reader: TokenReader, x: int) -> str:
    line = reader.line
    row = reader.word(f"row {x} of the board")
    if len(row) != SIZE or not set(row) <= LETTERS | {EMPTY}:
        raise reader.fail(f"row {x} must be {SIZE} characters '-' or A-Z, found {row!r}", line)
    return row


def board_text(state: CrosswordState) -> str:
    """The position in board-file format (the source's ``example.in``)."""
    rows = [state.cells[x * SIZE:(x + 1) * SIZE] for x in range(SIZE)]
    return "\n".join([*rows, str(len(state.used)), *state.used]) + "\n"


def load(text: str, extras: Mapping[str, str] | None) -> CrosswordState:
    """The initial state from a board file and its ``words.txt``."""
    if not extras or WORDS_FILE not in extras:
        raise BadInput(f"the crossword needs {WORDS_FILE} beside the board file")
    try:
        dictionary = parse_words(extras[WORDS_FILE])
    except BadInput as exc:
        raise exc.located(WORDS_FILE) from None
    state, extra = parse_board(text, dictionary)
    if extra is not None:
        raise BadInput("a board file ends after the used words (the last line of numbers is PVP game.in only)")
    return state


def parse_plan(text: str, most: int | None = None) -> Plan:
    """Parse ``game.out``: T, then T actions (count, ``x y C`` lines, word
    count, words).  ``most`` bounds T (PVP: 1)."""
    reader = TokenReader(text, BadOutput)
    t = reader.int("the number of actions T", 0, most)
    actions = tuple(_action(reader, k + 1) for k in range(t))
    reader.end(f"the end of the output after {t} action{'s' * (t != 1)}")
    return Plan(actions)


def _action(reader: TokenReader, k: int) -> Action:
    m = reader.int(f"the number of letters of action {k}", 0)
    fills = []
    for i in range(m):
        x = reader.int(f"the row x of letter {i + 1} of action {k}")
        y = reader.int(f"the column y of letter {i + 1} of action {k}")
        line = reader.line
        letter = reader.word(f"letter {i + 1} of action {k}")
        if len(letter) != 1 or letter not in LETTERS:
            raise BadOutput(f"expected letter {i + 1} of action {k}, one upper-case letter A-Z, found {letter!r}",
                            line=line)
        fills.append((x, y, letter))
    n = reader.int(f"the number of words of action {k}", 0)
    words = tuple(_word(reader, f"word {j + 1} of action {k}", BadOutput) for j in range(n))
    return Action(tuple(fills), words)


# ---------------------------------------------------------------- formed words
def blocked_by(word: str, used: frozenset[str]) -> str | None:
    """The used word that is a prefix or suffix of ``word`` (itself
    included), or None."""
    for k in range(1, len(word) + 1):
        if word[:k] in used:
            return word[:k]
        if word[-k:] in used:
            return word[-k:]
    return None


def marks_by_line(filled: Iterable[int]) -> dict[Line, list[int]]:
    """Each line through a filled cell, with the filled cells' positions on it."""
    marks: dict[Line, list[int]] = {}
    for cell in filled:
        for line, pos in lines_through()[cell]:
            marks.setdefault(line, []).append(pos)
    for positions in marks.values():
        positions.sort()
    return marks


def occurrences(cells: str, line: Line, marks: list[int], state: CrosswordState
                ) -> list[tuple[str, tuple[int, ...]]]:
    """The formed words on ``line`` of the board ``cells``, whose filled
    cells are at positions ``marks`` (sorted): (word, its cells) for each
    contiguous run of letters through a filled cell that is in the
    dictionary and not blocked by a used word."""
    text = line.read(cells)
    shortest = state.dictionary.lengths[0]
    found: list[tuple[str, tuple[int, ...]]] = []
    end = -1
    for f in marks:
        if f < end:
            continue  # in the run already searched
        start = text.rfind(EMPTY, 0, f) + 1  # the maximal run of letters around f: [start, end)
        end = text.find(EMPTY, f)
        end = len(text) if end < 0 else end
        if end - start >= shortest:
            found.extend(_run_words(text, line, start, end, [g for g in marks if start <= g < end], state))
    return found


def _run_words(text: str, line: Line, a: int, b: int, marks: list[int], state: CrosswordState
               ) -> Iterator[tuple[str, tuple[int, ...]]]:
    """The formed words inside the run ``text[a:b]`` whose filled positions are ``marks``."""
    shortest, longest = state.dictionary.lengths
    words, used = state.dictionary.words, state.used_set
    k = 0
    for i in range(a, marks[-1] + 1):
        while marks[k] < i:
            k += 1  # marks[k]: the first filled cell a word from i must reach
        for j in range(max(i + shortest, marks[k] + 1), min(b, i + longest) + 1):
            word = text[i:j]
            if word in words and blocked_by(word, used) is None:
                yield word, line.cells[i:j]


@dataclass(frozen=True)
class Filling:
    """An action's letters written on the board: the cells after, the filled
    cells, and the formed words on each line through them."""

    after: str
    filled: frozenset[int]
    formed: dict[Line, list[tuple[str, tuple[int, ...]]]]

    @cached_property
    def found(self) -> dict[str, set[int]]:
        """Each formed word, on any line, with the cells of all its occurrences."""
        found: dict[str, set[int]] = {}
        for on_line in self.formed.values():
            for word, cells in on_line:
                found.setdefault(word, set()).update(cells)
        return found

    def score(self, words: Iterable[str]) -> int:
        """The distinct cells of the words' occurrences, minus the cells filled."""
        return len(set().union(*(self.found[w] for w in words))) - len(self.filled)


def fill(state: CrosswordState, action: Action) -> Filling:
    """Write the action's letters (rule 1 checked: raises ``IllegalMove``)
    and find the formed words."""
    filled = _check_cells(state, action)
    cells = list(state.cells)
    for x, y, letter in action.fills:
        cells[x * SIZE + y] = letter
    after = "".join(cells)
    formed = {line: occurrences(after, line, marks, state) for line, marks in marks_by_line(filled).items()}
    return Filling(after, filled, formed)


@dataclass(frozen=True)
class Evaluation:
    """A legal action's effect: the cells after it, its score, its line."""

    cells: str
    score: int
    line: Line


class _Failure(Exception):
    """One line's reason to reject an action; ``stage`` orders the rules so
    that, for a one-letter action, the most advanced failure is reported."""

    def __init__(self, stage: int, rule: str, message: str):
        super().__init__(message)
        self.stage, self.rule, self.message = stage, rule, message


def evaluate(state: CrosswordState, action: Action) -> Evaluation:
    """Check one action against docs/rules.md, crossword (raise ``IllegalMove`` naming
    the rule) and return its effect."""
    filling = fill(state, action)
    failures = []
    for line in _candidate_lines(filling.filled):
        try:
            return _evaluate_on(state, action, filling, line)
        except _Failure as failure:
            failures.append(failure)
    if not failures:
        raise IllegalMove("not-one-line", "the filled cells do not lie on one row, column or diagonal: "
                          + ", ".join(f"({x}, {y})" for x, y, _ in action.fills))
    worst = max(failures, key=lambda f: f.stage)
    raise IllegalMove(worst.rule, worst.message)


def _check_cells(state: CrosswordState, action: Action) -> frozenset[int]:
    """Rule 1's cells: at least one, on the board, distinct and empty."""
    if not action.fills:
        raise IllegalMove("no-letter", "an action must fill at least one cell (m = 0)")
    seen: set[int] = set()
    for x, y, letter in action.fills:
        if not (0 <= x < SIZE and 0 <= y < SIZE):
            raise IllegalMove("off-board", f"cell ({x}, {y}) is off the {SIZE}x{SIZE} board")
        cell = x * SIZE + y
        if cell in seen:
            raise IllegalMove("duplicate-cell", f"cell ({x}, {y}) is filled twice")
        if state.cells[cell] != EMPTY:
            raise IllegalMove("occupied", f"cell ({x}, {y}) already holds {state.cells[cell]!r}")
        seen.add(cell)
    return frozenset(seen)


def _candidate_lines(filled: frozenset[int]) -> list[Line]:
    """The lines holding every filled cell (one; four for a single cell)."""
    first = next(iter(filled))
    return [line for line, _ in lines_through()[first] if filled <= set(line.cells)]


def _evaluate_on(state: CrosswordState, action: Action, filling: Filling, line: Line) -> Evaluation:
    """Rules 2-4 with ``line`` as the action's line L, and the score."""
    on_line = _line_words(filling, line)
    missing = sorted({w for w, _ in on_line} - set(action.words))
    if missing:
        raise _Failure(4, "undeclared-word", f"formed word {missing[0]!r} on {line.name} is not declared")
    seen: set[str] = set()
    for word in action.words:
        if word in seen:
            raise _Failure(6, "declared-twice", f"word {word!r} is declared twice")
        seen.add(word)
        if word not in filling.found:
            raise _Failure(5, *_why_not_formed(state, word))
    return Evaluation(filling.after, filling.score(action.words), line)


def _line_words(filling: Filling, line: Line) -> list[tuple[str, tuple[int, ...]]]:
    """Rules 2 and 3 on ``line``: no gap, some formed word, every filled
    cell inside one.  Returns the formed words on the line."""
    after, filled = filling.after, filling.filled
    spots = [pos for pos, c in enumerate(line.cells) if c in filled]
    gap = next((c for c in line.cells[spots[0]:spots[-1] + 1] if after[c] == EMPTY), None)
    if gap is not None:
        raise _Failure(1, "gap", f"on {line.name}, cell {xy(gap)} between the filled cells stays empty")
    on_line = filling.formed[line]
    if not on_line:
        raise _Failure(2, "no-word", f"{line.name} reads {line.read(after)!r}: no formed word through the "
                       "filled cells (in the dictionary, and no prefix or suffix used before)")
    covered = {c for _, cells in on_line for c in cells}
    loose = sorted(filled - covered)
    if loose:
        raise _Failure(3, "cell-outside-word", f"filled cell {xy(loose[0])} is in no formed word on {line.name}")
    return on_line


def _why_not_formed(state: CrosswordState, word: str) -> tuple[str, str]:
    if word not in state.dictionary.words:
        return "not-in-dictionary", f"declared word {word!r} is not in the dictionary"
    used = blocked_by(word, state.used_set)
    if used is not None:
        kind = "itself" if used == word else ("a prefix" if word.startswith(used) else "a suffix")
        return "used-word", f"declared word {word!r} is blocked: {used!r}, {kind}, is a used word"
    return "not-formed", f"declared word {word!r} does not appear on the board through a filled cell"


def apply_action(state: CrosswordState, action: Action) -> CrosswordState:
    """The state after a legal action (checked again here: rules are cheap)."""
    result = evaluate(state, action)
    scores = list(state.scores)
    scores[state.seat] += result.score
    return replace(state, cells=result.cells, used=state.used + action.words, actions=state.actions + 1,
                   scores=(scores[0], scores[1]))


def play_plan(state: CrosswordState, plan: Plan) -> CrosswordState:
    """A PVE plan played out (raises ``IllegalMove`` naming the action)."""
    if len(plan.actions) > MAX_ACTIONS - state.actions:
        raise IllegalMove("too-many-actions", f"the plan has {len(plan.actions)} actions; the game ends after "
                          f"{MAX_ACTIONS}")
    for k, action in enumerate(plan.actions, start=1):
        try:
            state = apply_action(state, action)
        except IllegalMove as exc:
            raise IllegalMove(exc.rule, f"action {k}: {exc.message}") from None
    return replace(state, ended=True)


# ---------------------------------------------------------------- finding actions (bots, random moves)
def complete(state: CrosswordState, fills: tuple[tuple[int, int, str], ...],
             keep: Callable[[str], bool] = lambda word: True) -> tuple[Action, int] | None:
    """The legal action filling ``fills``, if there is one, with its score:
    it declares every formed word of its line and those formed elsewhere
    that ``keep`` accepts (all, by default: the best immediate score)."""
    try:
        filling = fill(state, Action(fills, ()))
    except IllegalMove:
        return None
    for line in _candidate_lines(filling.filled):
        try:
            required = {w for w, _ in _line_words(filling, line)}
        except _Failure:
            continue
        others = sorted(set(filling.found) - required)
        words = tuple(sorted(required)) + tuple(w for w in others if keep(w))
        return Action(fills, words), filling.score(words)
    return None


@dataclass(frozen=True)
class Window:
    """A stretch of ``length`` cells of a line from position ``start``, with
    how many of them hold letters already."""

    line: Line
    start: int
    length: int
    letters: int

    def pattern(self, cells: str) -> str:
        return "".join(cells[c] for c in self.line.cells[self.start:self.start + self.length])

    def fills(self, cells: str, word: str) -> tuple[tuple[int, int, str], ...]:
        """The cells ``word`` fills when written into this window."""
        spots = self.line.cells[self.start:self.start + self.length]
        return tuple((*xy(c), ch) for c, ch in zip(spots, word) if cells[c] == EMPTY)


def windows(state: CrosswordState) -> list[Window]:
    """Every window of a dictionary word's length with at least one empty
    cell and one letter, most letters first (the likeliest high scores)."""
    found = []
    lengths = sorted(state.dictionary.by_length)
    for line in all_lines():
        text = line.read(state.cells)
        for k in lengths:
            for start in range(len(text) - k + 1):
                part = text[start:start + k]
                empty = part.count(EMPTY)
                if 0 < empty < k:
                    found.append(Window(line, start, k, k - empty))
    found.sort(key=lambda w: (-w.letters, w.length))
    return found


def placements(state: CrosswordState, window: Window) -> Iterator[tuple[tuple[int, int, str], ...]]:
    """The fills of the unused dictionary words that fit ``window``."""
    for word in sorted(state.dictionary.matching(window.pattern(state.cells))):
        if blocked_by(word, state.used_set) is None:
            yield window.fills(state.cells, word)


def best_action(state: CrosswordState, deadline: float | None = None) -> tuple[Action, int] | None:
    """The best-scoring action over the windows examined before ``deadline``
    (``time.process_time()``; None: all of them)."""
    best: tuple[Action, int] | None = None
    tried: set[tuple[tuple[int, int, str], ...]] = set()
    for window in windows(state):
        if deadline is not None and time.process_time() > deadline:
            break
        for fills in placements(state, window):
            key = tuple(sorted(fills))
            if key in tried:
                continue
            tried.add(key)
            found = complete(state, fills)
            if found is not None and (best is None or found[1] > best[1]):
                best = found
    return best


def random_action(state: CrosswordState, rng: random.Random, tries: int = 300) -> Action | None:
    """A random legal action (a random word in a random window, declaring
    the line's formed words and a random choice of the others), or None
    when ``tries`` attempts found none."""
    shortest, _ = state.dictionary.lengths
    lines = [line for line in all_lines() if len(line.cells) >= max(shortest, 1)]
    lengths = sorted(state.dictionary.by_length)
    for _ in range(tries if lines and lengths else 0):
        line = rng.choice(lines)
        k = rng.choice([k for k in lengths if k <= len(line.cells)])
        start = rng.randrange(len(line.cells) - k + 1)
        window = Window(line, start, k, 0)
        pattern = window.pattern(state.cells)
        if EMPTY not in pattern:
            continue
        words = state.dictionary.matching(pattern)
        if not words:
            continue
        word = rng.choice(words if isinstance(words, tuple) else sorted(words))
        if blocked_by(word, state.used_set) is not None:
            continue
        found = complete(state, window.fills(state.cells, word), keep=lambda w: rng.random() < 0.5)
        if found is not None:
            return found[0]
    return None


# ---------------------------------------------------------------- referees
class _CrosswordReferee(Referee):
    """What both modes share: the board and its dictionary, seats, move text."""

    board_files = (WORDS_FILE,)

    def load(self, text: str, extras: Mapping[str, str] | None = None) -> CrosswordState:
        return load(text, extras)

    def to_move(self, state: CrosswordState) -> int:
        return state.seat

    def move_text(self, move: Plan) -> str:
        return move.to_text()


class CrosswordPVEReferee(_CrosswordReferee):
    name = "crossword-pve"
    players = 1
    protocol = "one-shot"
    cpu_limit = 10.0
    fault_score = -1.0
    judge_inputs = ("BOARD", "OUTPUT")
    judge_help = ("BOARD OUTPUT: score the PVE plan in OUTPUT (example.out format) on BOARD (words.txt beside "
                  "it); print the score, or -1 and the action and rule broken.")

    def render(self, state: CrosswordState, seat: int) -> dict[str, str]:
        return {"game.in": board_text(state), WORDS_FILE: state.dictionary.text}

    def parse(self, state: CrosswordState, text: str) -> Plan:
        return parse_plan(text)

    def check(self, state: CrosswordState, move: Plan) -> None:
        if state.ended:
            raise IllegalMove("game-over", "the plan has been played already; the game is over")
        play_plan(state, move)

    def apply(self, state: CrosswordState, move: Plan) -> CrosswordState:
        return play_plan(state, move)

    def outcome(self, state: CrosswordState) -> Outcome | None:
        if not state.ended:
            return None
        return Outcome.scored(state.scores[0], f"{state.actions} action{'s' * (state.actions != 1)} played")

    def random_move(self, state: CrosswordState, rng: random.Random) -> Plan:
        actions = []
        for _ in range(rng.randint(0, MAX_ACTIONS - state.actions)):
            action = random_action(state, rng)
            if action is None:
                break
            actions.append(action)
            state = apply_action(state, action)
        return Plan(tuple(actions))

    def judge_case(self, board: str, extras: Mapping[str, str], moves: list[str],
                   outcome: Outcome) -> tuple[list[str], str]:
        return [board, moves[0]], number_text(outcome.score)

    def judge(self, texts: list[str], extras: Mapping[str, str]) -> Iterator[str]:
        board, output = texts
        state = load(board, extras)
        try:
            yield str(self.outcome(self.apply(state, parse_plan(output))).score)
        except BadOutput as exc:
            yield "-1"
            yield f"bad output: {exc}"
        except IllegalMove as exc:
            yield "-1"
            yield f"illegal: {exc}"


class CrosswordPVPReferee(_CrosswordReferee):
    name = "crossword-pvp"
    players = 2
    protocol = "per-move"

    def render(self, state: CrosswordState, seat: int) -> dict[str, str]:
        mine, theirs = state.scores[seat], state.scores[1 - seat]
        game_in = board_text(state) + f"{MAX_ACTIONS - state.actions} {mine} {theirs}\n"
        return {"game.in": game_in, WORDS_FILE: state.dictionary.text}

    def parse(self, state: CrosswordState, text: str) -> Plan:
        return parse_plan(text, most=1)

    def check(self, state: CrosswordState, move: Plan) -> None:
        if self.outcome(state) is not None:
            raise IllegalMove("game-over", "the game is over")
        for action in move.actions:
            evaluate(state, action)

    def apply(self, state: CrosswordState, move: Plan) -> CrosswordState:
        if not move.actions:
            # The source ends the game when the second player gives up, so that both
            # players have had as many turns; the first player's pass hands the turn over.
            return replace(state, ended=True) if state.seat == SECOND else replace(state, seat=SECOND)
        return replace(apply_action(state, move.actions[0]), seat=1 - state.seat)

    def outcome(self, state: CrosswordState) -> Outcome | None:
        if not state.ended and state.actions < MAX_ACTIONS:
            return None
        first, second = state.scores
        why = "second player passed" if state.ended else f"{MAX_ACTIONS} actions played"
        why += f"; scores {first}-{second}"
        if first == second:
            return Outcome.draw(why)
        return Outcome.win(0 if first > second else 1, why)

    def random_move(self, state: CrosswordState, rng: random.Random) -> Plan:
        action = random_action(state, rng)
        return Plan(() if action is None else (action,))
