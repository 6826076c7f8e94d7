"""Driving a real contest server in tests: a contest folder made by ``arena contest new``, ``arena serve``
on a free port of 127.0.0.1, and a client that keeps its cookies and sends forms as a browser does.

The database is SQLite in the folder, or a fresh database on the PostgreSQL server named by
``ARENA_TEST_POSTGRES`` (postgresql://USER:PASSWORD@HOST:PORT/postgres, a role that may create
databases); ``.ci/run`` starts one.  Without it the PostgreSQL tests are skipped, except in CI.
"""

from __future__ import annotations

import http.cookiejar
import io
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "organiser-password-1"


def arena(*args: str, cwd: Path = ROOT, check: bool = True, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "arena.cli", *args], cwd=cwd, capture_output=True, text=True,
                          check=False, **kwargs)
    if check and done.returncode != 0:
        raise AssertionError(f"arena {' '.join(args)}: status {done.returncode}\n{done.stdout}\n{done.stderr}")
    return done


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Response:
    status: int
    text: str
    url: str
    headers: dict[str, str]

    def json(self):
        return json.loads(self.text)


class Client:
    """A browser without a screen: cookies kept, redirects followed, the CSRF token sent with forms."""

    def __init__(self, base: str):
        self.base = base.rstrip("/")
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def cookie(self, name: str) -> str:
        return next((c.value for c in self.cookies if c.name == name), "")

    def request(self, path: str, data: bytes | None = None, headers: dict[str, str] | None = None,
                method: str | None = None) -> Response:
        url = path if path.startswith("http") else self.base + path
        request = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
        try:
            with self.opener.open(request, timeout=60) as answer:
                return Response(answer.status, answer.read().decode("utf-8", "replace"), answer.url,
                                dict(answer.headers))
        except urllib.error.HTTPError as exc:
            return Response(exc.code, exc.read().decode("utf-8", "replace"), url, dict(exc.headers))

    def get(self, path: str, **kwargs) -> Response:
        return self.request(path, **kwargs)

    def post(self, path: str, fields: dict[str, str] | None = None, files: dict[str, tuple[str, bytes]] | None = None,
             csrf: bool = True, headers: dict[str, str] | None = None) -> Response:
        fields = dict(fields or {})
        if csrf:
            if not self.cookie("csrftoken"):
                self.get("/login/")
            fields.setdefault("csrfmiddlewaretoken", self.cookie("csrftoken"))
        body, kind = multipart(fields, files or {})
        return self.request(path, body, {"Content-Type": kind, **(headers or {})}, method="POST")

    def login(self, name: str, password: str) -> Response:
        return self.post("/login/", {"username": name, "password": password})

    def register(self, name: str, password: str = "contestant-password-1", token: str = "") -> Response:
        return self.post(f"/invite/{token}/" if token else "/register/", {"username": name, "password": password})

    def upload(self, filename: str, data: bytes) -> Response:
        return self.post("/submissions/", files={"bot": (filename, data)})


def multipart(fields: dict[str, str], files: dict[str, tuple[str, bytes]]) -> tuple[bytes, str]:
    boundary = "test" + secrets.token_hex(12)
    out = io.BytesIO()
    for name, value in fields.items():
        out.write(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for name, (filename, data) in files.items():
        out.write(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                  "Content-Type: application/octet-stream\r\n\r\n".encode())
        out.write(data + b"\r\n")
    out.write(f"--{boundary}--\r\n".encode())
    return out.getvalue(), f"multipart/form-data; boundary={boundary}"


def submission_number(response: Response) -> int:
    found = re.search(r"/submissions/(\d+)/", response.url)
    assert found, (response.status, response.url, response.text[:2000])
    return int(found.group(1))


class Database:
    """Where a test contest keeps its rows: "" (SQLite in the folder) or a fresh PostgreSQL database."""

    def __init__(self, kind: str):
        self.kind = kind
        self.url = ""
        self.name = ""
        if kind == "postgresql":
            server = os.environ.get("ARENA_TEST_POSTGRES", "")
            if not server:
                if os.environ.get("CI") == "true":
                    pytest.fail("CI must test against a real PostgreSQL server: set ARENA_TEST_POSTGRES")
                pytest.skip("no PostgreSQL server: set ARENA_TEST_POSTGRES=postgresql://USER:PASS@HOST:PORT/postgres")
            self.name = "arena_test_" + secrets.token_hex(6)
            self._admin(server, f'CREATE DATABASE "{self.name}"')
            parts = urllib.parse.urlsplit(server)
            self.url = urllib.parse.urlunsplit(parts._replace(path="/" + self.name))
            self.server = server

    @staticmethod
    def _admin(server: str, statement: str) -> None:
        import psycopg

        with psycopg.connect(server, autocommit=True) as connection:
            connection.execute(statement)

    def drop(self) -> None:
        if self.name:
            self._admin(self.server, f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


class Site:
    """A contest folder and its running server."""

    def __init__(self, folder: Path, database: Database, registration: str = "open", feedback: str = "first-move",
                 extra: tuple[str, ...] = (), sample: str = "boards/group1", final: str = "boards/group1"):
        self.folder, self.database = folder, database
        password_file = folder.parent / f"{folder.name}.password"
        password_file.write_text(PASSWORD)
        args = ["contest", "new", str(folder), "--sample-boards", sample, "--final-boards", final,
                "--registration", registration, "--feedback", feedback, "--password-file", str(password_file), *extra]
        if database.url:
            args += ["--database", database.url]
        self.made = arena(*args)
        self.process: subprocess.Popen | None = None
        self.port = 0

    @classmethod
    def of(cls, folder: Path) -> Site:
        """The server of a contest folder made otherwise (``arena contest import``), its database SQLite
        inside it; not yet started."""
        site = cls.__new__(cls)
        site.folder, site.database, site.process, site.port = folder, Database("sqlite"), None, 0
        return site

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, *extra: str, env: dict[str, str] | None = None) -> Site:
        self.port = free_port()
        self.log = open(self.folder.parent / f"{self.folder.name}-serve.log", "ab")  # noqa: SIM115 (the server's)
        self.process = subprocess.Popen([sys.executable, "-m", "arena.cli", "serve", str(self.folder), "--port",
                                         str(self.port), "--web-workers", "2", *extra], cwd=ROOT,
                                        stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True,
                                        env={**os.environ, **(env or {})})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"arena serve ended with {self.process.returncode}:\n{self.messages()}")
            try:
                if Client(self.base).get("/health/").status == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        raise AssertionError(f"arena serve did not answer in 60 s:\n{self.messages()}")

    def messages(self) -> str:
        return (self.folder.parent / f"{self.folder.name}-serve.log").read_text(errors="replace")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, sig) if sig == signal.SIGKILL else self.process.send_signal(sig)
            self.process.wait(30)
        self.process = None

    def client(self) -> Client:
        return Client(self.base)

    def organiser(self) -> Client:
        client = self.client()
        assert client.login("organiser", PASSWORD).status == 200
        return client

    def wait_for(self, client: Client, number: int, timeout: float = 120) -> Response:
        """The submission's page once its check has ended."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            page = client.get(f"/submissions/{number}/")
            status = re.search(r'id="status">Status: <b>(\w+)</b>', page.text)
            if status and status.group(1) not in ("queued", "compiling", "checking"):
                return page
            time.sleep(0.3)
        raise AssertionError(f"submission {number} still unchecked after {timeout} s:\n{self.messages()[-3000:]}")


LADDER = """
[ladder]
enabled = true
games = 2
visible = {visible}
pause_after = 6
settle_places = {places}
settle_games = {games}
"""


def ladder_site(folder: Path, database: Database, visible: bool, settle: tuple[int, int] = (3, 2000),
                final: str = "round-robin", seeding: str = "given") -> Site:
    """A contest with its ladder on (``visible``: the standings shown to everyone; ``settle``: its
    places and games after the deadline) and a ``final`` seeded by ``seeding``, served."""
    site = Site(folder, database)
    toml = site.folder / "contest.toml"
    text = toml.read_text().replace('system = "round-robin"', f"system = {final!r}").replace(
        'seeding = "given"', f"seeding = {seeding!r}")
    toml.write_text(text[:text.index("[ladder]")] + LADDER.format(visible=str(visible).lower(), places=settle[0],
                                                                  games=settle[1]))
    return site.start()
