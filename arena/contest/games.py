"""The contest's games as the site shows them: a check's replays, the final's results folder (an
ordinary ``arena run`` results folder: ``arena show``, ``report``, ``replay``, ``rerun`` and resume work
on it), and starting the final."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction

from arena import html, replay, tables
from arena.boards import board_name, find_boards, load_board
from arena.contest import permissions as can
from arena.contest import site
from arena.contest.config import Contest
from arena.contest.models import Job, JobKind, JobState
from arena.errors import ArenaError
from arena.games import referee as get_referee
from arena.store import Store


def final_folder(folder: Path | None = None) -> Path:
    return Path(folder or settings.CONTEST) / site.RESULTS / site.FINAL


def final_store() -> Store | None:
    folder = final_folder()
    return Store(folder) if (folder / "tournament.json").exists() else None


def final_games() -> list[dict[str, Any]]:
    """Every recorded game of the final: its id, seats and outcome (streamed from the records)."""
    store = final_store()
    if store is None:
        return []
    return [{"id": summary.id, "board": summary.board.name, "seats": summary.seats,
             "winner": summary.outcome.winner, "score": summary.outcome.score,
             "fault": summary.fault.verdict if summary.fault else ""}
            for summary in store.summaries()]


def final_tables() -> str:
    """The final's tables, as ``arena show`` prints them."""
    store = final_store()
    if store is None:
        return ""
    return tables.render(store.config(), store.summaries())


def final_seats(game_id: str) -> list[str] | None:
    store = final_store()
    if store is None or not game_id:
        return None
    try:
        return store.record(game_id)["seats"]
    except (ArenaError, KeyError):
        return None


def final_replay(game_id: str) -> str:
    store = final_store()
    assert store is not None  # (final_seats found the game)
    return html.replay_page(replay.load(store, store.record(game_id)), back="/results/")


def check_replay(contest: Contest, record: dict[str, Any], back: str) -> str:
    """The replay page of a game a check or the ladder played, on one of the contest's boards."""
    referee = get_referee(contest.game)
    return html.replay_page(replay.replay(referee, _board_of(contest, referee, record), record), back=back)


def _board_of(contest: Contest, referee, record: dict[str, Any]) -> Any:
    """The initial state of a check's or ladder game's board, found in the contest's folder by its
    name and hash: the record's path is where the folder lay when the game was played, and an
    exported contest imported elsewhere (or a folder moved) lies somewhere else."""
    recorded = record["board"]
    for path in find_boards([str(folder) for folder in (contest.sample_boards, *contest.ladder_boards)]):
        if board_name(path) == recorded["name"]:
            board, state = load_board(referee, path)
            if board.sha256 == recorded["sha256"]:
                return state
    raise ArenaError(f"the board {recorded['name']!r} of game {record['id']!r} is no longer among the contest's "
                     f"boards (or has changed since it was played) in {str(contest.folder)!r}")


def start_final(cluster: str = "") -> str:
    """Queue the final (once): only after the deadline, and never twice at a time; on the Dask
    scheduler ``cluster`` (else the configuration's ``[final] cluster``, else this machine)."""
    if cluster and not cluster.startswith(("tcp://", "tls://")):
        raise ArenaError(f"{cluster!r} is not a Dask scheduler's address: tcp://HOST:PORT or tls://HOST:PORT")
    phase = can.phase()
    if phase == can.OPEN:
        raise ArenaError("The final starts after the deadline: close submissions first (or wait for the deadline).")
    with transaction.atomic():
        if Job.objects.filter(kind=JobKind.FINAL, state__in=[JobState.QUEUED, JobState.RUNNING]).exists():
            raise ArenaError("The final is already queued or being played.")
        Job.queue(JobKind.FINAL, options={"cluster": cluster} if cluster else None)
    where = cluster or can.contest().final.cluster
    return (f"The final is queued: the runner plays it after the checks waiting"
            f"{f', on the cluster at {where}' if where else ''}.")
