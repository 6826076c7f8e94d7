"""Untrusted text made safe to show: the one place that decides how.

A bot's output, its messages, its file name and anything a record holds are
hostile input.  They reach a terminal (``replay``, ``rerun``, ``show``, the
progress lines), a log file, a spreadsheet (``show --format csv``) and a web
page (the report's replays).  Records keep the bot's text as it was; it is
made safe here, at the moment it is displayed:

* ``display``: control characters (C0, DEL, C1), the invisible format
  characters (bidirectional overrides and isolates, zero-width characters,
  tags, ...), line and paragraph separators and lone surrogates become
  visible escapes (``\\x1b``, ``\\u202e``), so no escape sequence reaches a
  terminal and no line can be forged.  A backslash of the text is shown
  doubled, so that ``\\x1b`` on screen is always an escaped character and
  never four characters a bot printed.
* ``csv_cell``: a spreadsheet cell that would start a formula (``=``, ``+``,
  ``-``, ``@``, tab, carriage return) starts with a quote instead (OWASP's
  "CSV injection"); numbers stay numbers.
* ``json_for_html`` and ``json_for_terminal``: JSON whose text cannot end a
  ``<script>`` element or open a comment in it, and JSON that prints no
  control character (both decode to the very same data).
* ``check_name``: a bot's or board's name must be plain text; a name with a
  control character, a line break or a path separator is refused.
* ``SafeFormatter``: every log line as one line of plain text.
"""

from __future__ import annotations

import json
import logging
import re
import unicodedata
from typing import Any

from arena.errors import ArenaError

#: Unicode categories shown escaped: controls, format characters (bidi overrides and
#: isolates, zero-width characters, tags, ...), surrogates, line and paragraph separators.
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
#: Escapes easier to read than their numbers.
NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
#: What multi-line text keeps as it is.
LAYOUT = "\n\t"
#: Characters a name may not hold besides the unsafe ones: path separators.
SEPARATORS = "/\\"
#: What starts a formula in a spreadsheet (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: A number as a table writes one (``-3``, ``+12``, ``0.5``, ``1e-05``): left as it is in CSV.
NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
#: Characters whose escape ``display`` remembers, at most (per kind of display).
CACHED = 1 << 16
#: Characters of JSON text that a page's parser or a terminal must not see raw.
HTML_JSON = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}

# Text that is printable ASCII (the common case) is returned without a look at each character.
_SUSPECT = {
    (False, True): re.compile(r"[^\x20-\x5b\x5d-\x7e]+"),  # one line, backslash escaped
    (True, True): re.compile(r"[^\x20-\x5b\x5d-\x7e\n\t]+"),
    (False, False): re.compile(r"[^\x20-\x7e]+"),
    (True, False): re.compile(r"[^\x20-\x7e\n\t]+"),
}


def escape_char(char: str) -> str:
    """One character as a visible escape: ``\\n``, ``\\x1b``, ``\\u202e``, ``\\U000e0041``."""
    if char in NAMED:
        return NAMED[char]
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def is_unsafe(char: str) -> bool:
    """Whether a character must not reach a terminal, a log line or a name as it is."""
    return unicodedata.category(char) in UNSAFE_CATEGORIES


class _Escapes(dict):
    """``str.translate``'s table, filled in as characters are met: each maps to
    itself or to its escape (``__missing__`` decides once per character)."""

    def __init__(self, keep: str, backslash: bool):
        super().__init__({ord("\\"): "\\\\"} if backslash else {})
        self.keep = keep

    def __missing__(self, code: int) -> str:
        char = chr(code)
        shown = escape_char(char) if is_unsafe(char) and char not in self.keep else char
        if len(self) < CACHED:  # (text of every character Unicode has must not fill the memory)
            self[code] = shown
        return shown


_TABLES = {(multiline, backslash): _Escapes(LAYOUT if multiline else "", backslash)
           for multiline in (False, True) for backslash in (False, True)}


def display(text: str, *, multiline: bool = False, backslash: bool = True) -> str:
    """``text`` (a bot's output, a name, a message) as display text: every
    unsafe character (``is_unsafe``) as a visible escape, and each backslash
    doubled so that escapes are unambiguous.

    ``multiline`` keeps newlines and tabs (what a bot printed, shown as lines);
    otherwise they are escaped too and the result is one line.  ``backslash=False``
    leaves backslashes alone: for a whole line the arena composed, whose
    untrusted parts are already escaped or quoted with ``repr`` (a last net
    that escapes nothing twice)."""
    suspect = _SUSPECT[multiline, backslash]
    if suspect.search(text) is None:
        return text
    table = _TABLES[multiline, backslash]
    return suspect.sub(lambda found: found.group().translate(table), text)


def csv_cell(value: Any) -> Any:
    """A cell for a CSV file opened in a spreadsheet: text as one safe line
    (``display``), and text that would start a formula prefixed with ``'``
    (OWASP).  Numbers, and text that is just a number (``-3``, ``+12``), are
    left as they are."""
    if not isinstance(value, str):
        return value
    shown = display(value)
    if shown.startswith(FORMULA_STARTS) and not NUMBER.fullmatch(shown) and shown != "-":
        return "'" + shown
    return shown


def json_for_html(value: Any) -> str:
    """``value`` as JSON to put inside ``<script type="application/json">``:
    ``<``, ``>``, ``&``, U+2028 and U+2029 as ``\\u`` escapes, so that no
    ``</script>``, ``<!--`` or ``]]>`` can end or bend the element.
    ``json.loads`` of it gives back ``value``."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text.translate(str.maketrans(HTML_JSON))


def json_for_terminal(value: Any, *, indent: int | None = 2) -> str:
    """``value`` as JSON that prints no unsafe character (``is_unsafe``): each
    is written as a ``\\u`` escape (surrogate pairs above U+FFFF), so the
    text decodes to the same data, and non-ASCII letters stay readable."""
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    return _JSON_SUSPECT.sub(lambda found: "".join(map(_json_escape, found.group())), text)


_JSON_SUSPECT = re.compile(r"[^\x20-\x7e\n]+")


def _json_escape(char: str) -> str:
    """One character of JSON text: as it is, or as a JSON ``\\u`` escape if unsafe."""
    if not is_unsafe(char) or char == "\n":
        return char  # (json.dumps escapes newlines inside strings: a raw one is its own layout)
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def name_problem(name: str, separators: str = SEPARATORS) -> str | None:
    """What is wrong with a bot's or board's name, or None: it must be
    non-empty, one line, with no control or invisible format character and
    none of ``separators`` (path separators)."""
    if not name:
        return "is empty"
    for char in name:
        if char in "\n\r\u2028\u2029\x85":
            return "has a line break"
        if is_unsafe(char):
            return f"has a control or invisible character ({escape_char(char)})"
        if char in separators:
            return f"has a path separator ({char!r})"
    return None


def check_name(name: str, path: str, what: str = "bot file", *, separators: str = SEPARATORS) -> None:
    """Refuse a bot's or board's name that could forge a line or an escape
    sequence, with an ``ArenaError`` that shows the name escaped and says which
    file it comes from and what a name may hold.  (A board's name,
    ``folder/stem``, is checked with ``separators="\\"``: its one ``/`` is the arena's.)"""
    problem = name_problem(name, separators)
    if problem is None:
        return
    raise ArenaError(f"{what} '{display(path)}': its name '{display(name)}' {problem}; rename it "
                     "(a name is shown in tables and logs: letters, digits, spaces, '-', '_', '.', ...)")


class SafeFormatter(logging.Formatter):
    """A log formatter whose message is always one line of plain text
    (``display``, backslashes left alone: the arena's messages quote what
    they take from a bot).  A traceback the record carries is the arena's
    own and keeps its lines."""

    def formatMessage(self, record: logging.LogRecord) -> str:  # (logging's name)
        record.message = display(record.message, backslash=False)
        return super().formatMessage(record)
