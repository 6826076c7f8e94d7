"""Board generator of the crossword game (docs/rules.md, crossword).

A seeded 20×20 board: first ``--placed`` different dictionary words written
on random lines (where they fit; a word that fits nowhere is left out), which start the used-word list like the source's
``example.in``; then ``--letters`` random letters, drawn with English letter
frequencies, on random empty cells.  The dictionary is ``--words`` (by
default the shipped ``boards/crossword/words.txt``), written beside the
boards.  One ``random.Random(seed)`` makes everything in that order.
"""

from __future__ import annotations

import argparse
import hashlib
import random
from pathlib import Path

from generator import BadParameters, GeneratedBoard
from referees.base import BadInput
from referees.crossword import (
    EMPTY,
    SIZE,
    WORDS_FILE,
    CrosswordState,
    Dictionary,
    all_lines,
    board_text,
    parse_words,
)

GAME = "crossword"
HELP = ("Boards of the crossword game (PVE and PVP): dictionary words placed on random lines (and listed as "
        "used) plus random letters (docs/rules.md, crossword).")
#: The shipped dictionary: boards/crossword/words.txt, which the package holds too (a link to it in
#: the repository, a copy in an installed package), so that any install finds it.
DEFAULT_WORDS = Path(__file__).with_name(WORDS_FILE)
#: Relative frequencies of A..Z in English text (per mille), for the random letters.
FREQUENCIES = (82, 15, 28, 43, 127, 22, 20, 61, 70, 2, 8, 40, 24, 67, 75, 19, 1, 60, 63, 91, 28, 10, 24, 2, 20, 1)
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
PLACE_TRIES = 200


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--words", default=str(DEFAULT_WORDS), metavar="FILE",
                        help="the dictionary, words.txt format (default: the shipped boards/crossword/words.txt)")
    parser.add_argument("--placed", type=int, default=8,
                        help="dictionary words written on the board and listed as used (default 8)")
    parser.add_argument("--letters", type=int, default=80, help="random letters on empty cells (default 80)")
    parser.add_argument("--max-length", type=int, default=8, help="longest placed word (default 8)")


def generate(args: argparse.Namespace, seed: int) -> GeneratedBoard:
    """One board from one seed, with the dictionary beside it."""
    dictionary = _dictionary(args.words)
    if args.placed < 0 or args.letters < 0:
        raise BadParameters(f"--placed and --letters must not be negative, got {args.placed}, {args.letters}")
    state = make_board(dictionary, seed, args.placed, args.letters, args.max_length)
    params = {"placed": args.placed, "letters": args.letters, "max_length": args.max_length,
              "words_sha256": hashlib.sha256(dictionary.text.encode()).hexdigest()}
    return GeneratedBoard(board_text(state), params, {WORDS_FILE: dictionary.text})


def _dictionary(path: str) -> Dictionary:
    try:
        return parse_words(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise BadParameters(f"cannot read the dictionary {path!r}: {exc}") from None
    except BadInput as exc:
        raise BadParameters(f"the dictionary does not parse: {exc.located(path)}") from None


def make_board(dictionary: Dictionary, seed: int, placed: int, letters: int, max_length: int = 8
               ) -> CrosswordState:
    """The board of a seed: words placed first, then random letters."""
    rng = random.Random(seed)
    pool = sorted(w for w in dictionary.words if len(w) <= max_length)
    if placed > len(pool):
        raise BadParameters(f"the dictionary has {len(pool)} words of at most {max_length} letters; "
                            f"cannot place {placed} different ones")
    cells = [EMPTY] * (SIZE * SIZE)
    used: list[str] = []
    for word in rng.sample(pool, placed):
        if _place(cells, word, rng):
            used.append(word)
    empty = [i for i, c in enumerate(cells) if c == EMPTY]
    if letters > len(empty):
        raise BadParameters(f"{letters} random letters do not fit in the {len(empty)} empty cells left")
    for i in rng.sample(empty, letters):
        cells[i] = rng.choices(ALPHABET, FREQUENCIES)[0]
    return CrosswordState("".join(cells), tuple(used), dictionary)


def _place(cells: list[str], word: str, rng: random.Random) -> bool:
    """Write ``word`` on a random line where it fits (its letters agree with
    the board), at most ``PLACE_TRIES`` tries; False if it found no place."""
    lines = [line for line in all_lines() if len(line.cells) >= len(word)]
    for _ in range(PLACE_TRIES):
        line = rng.choice(lines)
        start = rng.randrange(len(line.cells) - len(word) + 1)
        spots = line.cells[start:start + len(word)]
        if all(cells[c] in (EMPTY, ch) for c, ch in zip(spots, word)):
            for c, ch in zip(spots, word):
                cells[c] = ch
            return True
    return False
