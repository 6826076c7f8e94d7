"""A person plays a game in the browser (``arena play``): a seat taken by a person, not a game of its own.

The game is played by ``arena.match.play``, as every game is: the person's seat is a
``match.Person`` whose moves come from the page (``Page``), the other seat a bot run by
its sandboxed runner.  Every move the page sends is judged by ``match.judge`` (the
referee's ``parse`` and ``check``) before it counts: a refused one is answered with the
rule it breaks, and the person tries again on the same board.  The page draws the game
with the replay pages' drawing (``arena.html``: the game's view, its style), from a
replay of the moves so far.  For a one-shot game, the page sends the whole plan so far
after every operation; each accepted plan is written to ``out`` as the ``game.out`` a
bot would have written, and the plan is the person's one invocation once finished.

The page is served by ``Server`` (the standard library's, in a thread) on 127.0.0.1 only,
under a secret path: another user of the machine cannot play the person's moves.
"""

from __future__ import annotations

import http.server
import json
import secrets
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from arena import html, match, replay
from arena.errors import ArenaError
from arena.sandbox import Invocation
from referees.base import Referee

#: The longest text the page may send for one move or plan (a bot's game.out is capped alike).
MOST = 1 << 20


class Stopped(Exception):
    """The person left the game (the command was stopped): no record is written."""


class Page:
    """The person's moves (``match.Moves``), as the page sends them; the game's state as the page sees it."""

    def __init__(self, referee: Referee, initial: Any, seats: list[str], person: int, out: Path | None = None):
        self.referee, self.initial, self.seats, self.person, self.out = referee, initial, seats, person, out
        self.one_shot = referee.protocol == "one-shot"
        self.changed = threading.Condition()
        self.moves: list[dict[str, Any]] = []  # the record's entries so far
        self.stepper = replay.Stepper(referee, initial, self._record([]))  # (keeps the state the next move is on)
        self.state = initial
        self.waiting = False  # the person's turn: run() waits for an accepted move
        self.answer: str | None = None
        self.plan: str | None = None  # a one-shot game's accepted plan so far (game.out text)
        self.result: str | None = None  # the outcome in words, once the game is recorded
        self.stopped = False
        self.turn_started = time.monotonic()

    # ------------------------------------------------------------ match.Moves
    def run(self, command: tuple[str, ...], files: dict[str, str]) -> Invocation:
        """Wait for the person's accepted move (a one-shot game's finished plan)."""
        with self.changed:
            self.waiting, self.answer, self.turn_started = True, None, time.monotonic()
            self.changed.notify_all()
            while self.answer is None:
                if self.stopped:
                    raise Stopped
                self.changed.wait(0.5)
            text, self.answer, self.waiting = self.answer, None, False
            return _invocation(text, time.monotonic() - self.turn_started)

    def close(self, keep: bool = True) -> None:
        """(Nothing to close: the person's moves need no process.)"""

    # ------------------------------------------------------------ the game, from arena.match
    def moved(self, entry: dict[str, Any]) -> None:
        """A move was recorded (``match.play``'s ``on_move``): the next one is on the state after it."""
        with self.changed:
            self.moves.append(entry)
            self.stepper.step(entry)
            self.state = self.stepper.state
            self.changed.notify_all()

    def finished(self, record: dict[str, Any]) -> None:
        with self.changed:
            self.result = replay.outcome_text(record)
            self.changed.notify_all()

    def stop(self) -> None:
        with self.changed:
            self.stopped = True
            self.changed.notify_all()

    # ------------------------------------------------------------ what the page asks
    def submit(self, text: str) -> dict[str, Any]:
        """A move (a one-shot game's plan so far) from the page: judged as a bot's output would be."""
        with self.changed:
            if not self.waiting or self.answer is not None:
                return {"refused": "it is not your turn" if self.result is None else "the game is over"}
            verdict, message, move = match.judge(self.referee, self.state, _invocation(text, 0.0))
            if verdict != "ok":
                return {"refused": f"{verdict}: {message}"}
            if not self.one_shot:
                self.answer = text
            else:
                self.plan = self.referee.move_text(move)
                if self.out is not None:
                    _write(self.out, self.plan)
            self.changed.notify_all()
            return {"ok": True}

    def finish(self) -> dict[str, Any]:
        """A one-shot game's plan is done: it becomes the person's one invocation."""
        with self.changed:
            if not self.one_shot or not self.waiting:
                return {"refused": "there is no plan to finish"}
            if self.plan is None:
                return {"refused": "the plan is empty: play an operation first"}
            self.answer = self.plan
            self.changed.notify_all()
            return {"ok": True}

    def view(self) -> dict[str, Any]:
        """What the page shows: the game so far (with a one-shot game's plan so far) drawn as
        the replay pages draw it, whose turn it is, and the outcome once recorded."""
        with self.changed:
            moves = list(self.moves)
            if self.one_shot and self.plan is not None and not moves:
                moves.append({"seat": self.person, "verdict": "ok", "cpu": 0.0, "wall": 0.0, "output": self.plan})
            turn = "over" if self.result is not None else "you" if self.waiting and self.answer is None else "bot"
            data = html._replay_data(replay.replay(self.referee, self.initial, self._record(moves)))
            return {"replay": data, "turn": turn, "result": self.result, "plan": self.plan,
                    "oneShot": self.one_shot, "person": self.person}

    def _record(self, moves: list[dict[str, Any]]) -> dict[str, Any]:
        return {"id": "|".join(["play", *self.seats]), "game": self.referee.name, "seats": self.seats,
                "moves": moves}


def _invocation(text: str, seconds: float) -> Invocation:
    """The person's move as an invocation: the text is its game.out; the time was the person's to think."""
    return Invocation("ok", "", text, 0.0, round(seconds, 4), 0, "", "")


def _write(path: Path, text: str) -> None:
    """The plan so far, whole or not at all."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        raise ArenaError(f"--out: cannot write the plan to {str(path)!r}: {exc.strerror}") from None


class Server:
    """The page of one game, on 127.0.0.1 under a secret path, served by a thread of its own."""

    def __init__(self, page: Page, document: str, port: int = 0):
        self.page, self.document = page, document
        self.secret = secrets.token_urlsafe(18)
        handler = type("Handler", (_Handler,), {"server_of": self})
        try:
            self.http = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
        except OSError as exc:
            raise ArenaError(f"--port {port}: cannot serve the page there: {exc.strerror}") from None
        self.http.daemon_threads = True
        self.thread = threading.Thread(target=self.http.serve_forever, name="arena-play-page", daemon=True)

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.http.server_address[1]}/{self.secret}/"

    def start(self) -> None:
        self.thread.start()

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


class _Handler(http.server.BaseHTTPRequestHandler):
    """GET /SECRET/ (the page), GET /SECRET/state; POST /SECRET/move {"text": ...}, POST /SECRET/finish."""

    server_of: Server

    def do_GET(self) -> None:
        path = self._path()
        if path == "":
            self._send(200, "text/html; charset=utf-8", self.server_of.document.encode())
        elif path == "state":
            self._json(self.server_of.page.view())
        else:
            self._send(404, "text/plain", b"not found\n")

    def do_POST(self) -> None:
        path = self._path()
        if path not in ("move", "finish"):
            self._send(404, "text/plain", b"not found\n")
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > MOST:
            self._json({"refused": f"the move is {length} bytes long; at most {MOST} are read"}, 413)
            return
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
            text = body.get("text", "") if isinstance(body, dict) else None
        except (ValueError, UnicodeDecodeError):
            text = None
        if not isinstance(text, str):
            self._json({"refused": 'the page must send {"text": "..."}'}, 400)
            return
        page = self.server_of.page
        self._json(page.submit(text) if path == "move" else page.finish())

    def _path(self) -> str | None:
        """The request's path under the secret (None: not under it; compared in constant time)."""
        parts = urlsplit(self.path).path.split("/", 2)
        if len(parts) < 2 or not secrets.compare_digest(parts[1], self.server_of.secret):
            return None
        return parts[2] if len(parts) > 2 else ""

    def _json(self, value: Any, status: int = 200) -> None:
        self._send(status, "application/json", json.dumps(value).encode())

    def _send(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")  # (the secret is in the address)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """(Requests are not logged: the terminal is the person's.)"""
