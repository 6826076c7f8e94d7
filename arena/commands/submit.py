"""``arena submit``: upload a bot to a contest server from the command line, with a personal token."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import time
import urllib.error
import urllib.request
from pathlib import Path

from arena.commands import read_text
from arena.contest import uploads
from arena.errors import ArenaError
from arena.text import display

#: Where the token is read from when --token-file is not given.
TOKEN_VARIABLE = "ARENA_TOKEN"


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "submit", help="submit a bot to a contest server",
        description="Upload BOT (a source file, or a folder bot as a .zip or .tar.gz; a folder is packed into a "
        "zip) to the contest server at URL, as the owner of the token: the site's 'Command line' page makes one. "
        f"The token is read from the environment variable {TOKEN_VARIABLE} or from --token-file, never from "
        "the command line (where other users of the machine could read it). Exit status 0: accepted (with "
        "--wait) or received; 1: refused; 2: the upload failed.")
    parser.add_argument("url", metavar="URL", help="the contest's address, e.g. https://contest.example.org/")
    parser.add_argument("bot", metavar="BOT", help="the bot: a file, an archive, or a folder (sent as a zip)")
    parser.add_argument("--token-file", metavar="FILE", help=f"read the token from FILE (default: ${TOKEN_VARIABLE})")
    parser.add_argument("--wait", action="store_true", help="wait for the check and print its report")
    parser.add_argument("--timeout", type=float, default=600, help="seconds --wait waits at most (default 600)")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    token = _token(args)
    name, data = uploads.payload(Path(args.bot))
    base = args.url.rstrip("/")
    answer = _call(base + "/api/submissions/", token, _multipart(name, data))
    print(f"arena: submission #{answer['id']} ({display(answer['name'])}, {answer['size']} bytes, sha256 "
          f"{answer['sha256'][:16]}…) received: {answer['status']}; {answer['url']}")
    if not args.wait:
        return 0
    deadline = time.monotonic() + args.timeout
    while answer["status"] in ("queued", "compiling", "checking"):
        if time.monotonic() > deadline:
            raise ArenaError(f"the check of submission #{answer['id']} did not end in {args.timeout:g} s; see {answer['url']}")
        time.sleep(1)
        answer = _call(f"{base}/api/submissions/{answer['id']}/", token)
    print(display(answer["report"], multiline=True) if answer["report"] else "", end="")
    print(f"arena: submission #{answer['id']} is {answer['status']}"
          + (f": {display(answer['message'])}" if answer["message"] else ""))
    return 0 if answer["status"] == "accepted" else 1


def _token(args: argparse.Namespace) -> str:
    token = read_text(args.token_file, "the token file").strip() if args.token_file else os.environ.get(TOKEN_VARIABLE, "")
    if not token:
        raise ArenaError(f"no token: set {TOKEN_VARIABLE} or give --token-file (the site's 'Command line' page makes one)")
    return token


def _multipart(name: str, data: bytes) -> tuple[bytes, str]:
    boundary = "arena" + secrets.token_hex(16)
    quoted = name.replace("\\", "_").replace('"', "_").replace("\r", "_").replace("\n", "_")
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="bot"; filename="{quoted}"\r\n'
            f"Content-Type: application/octet-stream\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def _call(url: str, token: str, upload: tuple[bytes, str] | None = None) -> dict:
    request = urllib.request.Request(url, data=upload[0] if upload else None,
                                     headers={"Authorization": f"Bearer {token}",
                                              **({"Content-Type": upload[1]} if upload else {})})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.load(response)
    except urllib.error.HTTPError as exc:
        try:
            message = json.load(exc).get("error", "")
        except (ValueError, AttributeError):
            message = exc.reason
        raise ArenaError(f"{url}: {exc.code}: {display(str(message), multiline=True)}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise ArenaError(f"cannot reach {url}: {getattr(exc, 'reason', exc)}") from None
