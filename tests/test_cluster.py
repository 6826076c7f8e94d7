"""Tournaments on a real Dask cluster on this machine: a ``dask scheduler`` and
``arena worker`` processes (each a ``dask worker``) on 127.0.0.1, started and
stopped by the fixtures, against local runs of the same tournaments."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import psutil
import pytest
from conftest import install_new_game, reap_adopted

REPO = Path(__file__).resolve().parent.parent
# first playable number, first legal region: deterministic, and slow enough to be caught mid-game
SLOW = (REPO / "bots" / "template.py").read_text().replace("def main() -> None:\n",
                                                           "def main() -> None:\n    __import__('time').sleep(0.3)\n")
# a crossword PVE bot that needs the dictionary beside its game.in (a plan of no action, deterministic)
READER = """
from pathlib import Path
from referees.crossword import Plan, parse_board, parse_words
state, pvp = parse_board(Path("game.in").read_text(), parse_words(Path("words.txt").read_text()))
Path("game.out").write_text(Plan(()).to_text() if state.actions == 0 else "")
"""
# four moves per game, both seats asked
BOARD = "5\n1 # # # 1\n# # # # #\n# # # # #\n# # # # #\n1 # # # 1\n"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Cluster:
    """A scheduler and workers, each in a session of its own (so a whole worker can be killed)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.address = f"tcp://127.0.0.1:{_free_port()}"
        self.procs: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []

    def _start(self, *command: str, log: str, env: dict[str, str] | None = None, cwd: Path | None = None
               ) -> subprocess.Popen:
        with open(self.folder / log, "wb") as out:
            proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                                    env=env, cwd=cwd or self.folder)
        self.procs.append(proc)
        return proc

    def start(self, workers: int, scheduler: tuple[str, ...] = (), env: dict[str, str] | None = None) -> Cluster:
        port = self.address.rsplit(":", 1)[1]
        self._start(sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", port,
                    "--no-dashboard", "--no-show", *scheduler, log="scheduler.log", env=env)
        for _ in range(workers):
            self.add_worker()
        if workers:
            self.wait_for_workers(workers)
        return self

    def add_worker(self, processes: int = 1, cwd: Path | None = None, options: tuple[str, ...] = (),
                   env: dict[str, str] | None = None) -> subprocess.Popen:
        number = len(self.workers)
        command = [sys.executable, "-m", "arena.cli", "worker", self.address, "--nworkers", str(processes),
                   "--cache", str(self.folder / f"cache{number}"), "--name", f"w{number}", *options]
        proc = self._start(*command, log=f"worker{number}.log", cwd=cwd, env=env)
        self.workers.append(proc)
        return proc

    def wait_for_workers(self, count: int, security=None) -> None:
        from distributed import Client

        with Client(self.address, timeout=30, **({"security": security} if security else {})) as client:
            client.wait_for_workers(count, timeout=120)

    def stop(self) -> None:
        for proc in self.procs:
            _killpg(proc, signal.SIGTERM)
        deadline = time.monotonic() + 10
        for proc in self.procs:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            _killpg(proc, signal.SIGKILL)
            proc.wait()
        reap_adopted()


def _killpg(proc: subprocess.Popen, signum: int) -> None:
    try:
        os.killpg(proc.pid, signum)
    except ProcessLookupError:
        pass


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    running = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        yield running.start(workers=2)
    finally:
        running.stop()


@pytest.fixture
def own_cluster(tmp_path):
    """A cluster of one test's own, for a test that kills its workers."""
    running = Cluster(tmp_path)
    try:
        yield running
    finally:
        running.stop()


def _arena(*args: str, cwd: Path, timeout: float = 120, env: dict[str, str] | None = None
           ) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arena.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, check=False, env=env)


def _records(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]


def _essence(records: list[dict]) -> dict[str, tuple]:
    """What a game is, whoever played it: seats, every move's verdict and output, outcome, points."""
    return {r["id"]: (r["seats"], [(m["seat"], m["verdict"], m["output"]) for m in r["moves"]], r["outcome"],
                      r.get("points"), r["fault"]) for r in records}


@pytest.fixture
def copy(tmp_path):
    """The repository's bots and boards, copied into a folder of the test's own."""
    for name in ("bots", "boards"):
        shutil.copytree(REPO / name, tmp_path / name)
    (tmp_path / "reader.py").write_text(READER)
    return tmp_path


@pytest.mark.parametrize("game, bots, boards", [
    ("paint", ["bots/template.py", "bots/template-cpp.cpp"], ["boards/group1/board1.in"]),
    ("crossword-pve", ["reader.py"], ["boards/crossword/board1.in", "boards/crossword/board2.in"]),
])
def test_a_tournament_on_the_cluster_plays_the_same_games_as_locally(cluster, copy, game, bots, boards):
    common = ("run", "--game", game, "--bots", *bots, "--boards", *boards)
    local = _arena(*common, "--name", "local", "--jobs", "2", cwd=copy)
    assert local.returncode == 0, local.stderr
    remote = _arena(*common, "--name", "remote", "--cluster", cluster.address, cwd=copy)
    assert remote.returncode == 0, remote.stderr
    there, here = _records(copy / "results" / "remote"), _records(copy / "results" / "local")
    assert len(there) == len(here) and _essence(there) == _essence(here)
    assert all(move["verdict"] == "ok" for r in there for move in r["moves"]) or game != "paint"
    standings = [text.split("Records:")[0] for text in (remote.stdout, local.stdout)]
    assert standings[0] == standings[1]
    # the workers ran their own copies of the bots, written from what the client sent
    cached = {p.name for n in (0, 1) for p in (cluster.folder / f"cache{n}").glob("bots/*/*")}
    assert {Path(bot).name for bot in bots} <= cached


def _bot_running_under(proc: subprocess.Popen, name: str) -> bool:
    try:
        tree = psutil.Process(proc.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return False
    return any(name in " ".join(p.cmdline()) for p in tree if p.is_running())


def _wait_for(condition, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_killed_workers_and_a_killed_client_lose_no_game_and_record_none_twice(own_cluster, tmp_path):
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "b1.in").write_text(BOARD)
    (tmp_path / "bots").mkdir()
    bots = []
    for name in ("a", "b", "c"):
        (tmp_path / "bots" / f"{name}.py").write_text(SLOW)
        bots.append(f"bots/{name}.py")
    own_cluster.start(workers=2)
    command = [sys.executable, "-m", "arena.cli", "run", "--bots", *bots, "--boards", "boards", "--name", "t",
               "--cluster", own_cluster.address]
    games = tmp_path / "results" / "t" / "games.jsonl"

    def recorded() -> int:
        return len(games.read_text().splitlines()) if games.exists() else 0

    # the client is killed outright once two games are recorded...
    client = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for(lambda: recorded() >= 2)
    finally:
        client.kill()
        client.wait()
    # ...and resumed with the same command, during which a worker dies in the middle of a game (once the
    # client has counted it: it says that it left)
    log = tmp_path / "results" / "t" / "arena.log"
    resumed = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = own_cluster.workers[0]
        _wait_for(lambda: log.read_text().count("connected to tcp://") == 2)
        _wait_for(lambda: _bot_running_under(first, str(tmp_path / "cache0")))
        _killpg(first, signal.SIGKILL)  # the nanny, its worker process; the bot, in a session of its own, finishes
        _, err = resumed.communicate(timeout=120)
    finally:
        resumed.kill()
    assert resumed.returncode == 0, err
    assert "worker w0 (tcp://127.0.0.1:" in err and "left the cluster" in err, err
    ids = Counter(record["id"] for record in _records(tmp_path / "results" / "t"))
    assert len(ids) == 3 * 2 and set(ids.values()) == {1}, ids
    assert all(m["verdict"] == "ok" for r in _records(tmp_path / "results" / "t") for m in r["moves"])


def test_an_unreachable_scheduler_is_a_clear_error_with_the_resume_command(tmp_path):
    (tmp_path / "b1.in").write_text(BOARD)
    (tmp_path / "a.py").write_text(SLOW)
    (tmp_path / "b.py").write_text(SLOW)
    address = f"tcp://127.0.0.1:{_free_port()}"  # nobody listens there
    started = time.monotonic()
    result = _arena("run", "--bots", "a.py", "b.py", "--boards", "b1.in", "--name", "t", "--cluster", address,
                    "--cluster-timeout", "2", cwd=tmp_path)
    assert time.monotonic() - started < 20
    assert result.returncode == 2
    error = result.stderr[result.stderr.index("arena: error:"):]
    assert f"cannot reach the Dask scheduler at {address}" in error and "Traceback" not in result.stderr
    assert f"Resume with: arena run --bots a.py b.py --boards b1.in --name t --cluster {address}" in error
    bad = _arena("run", "--bots", "a.py", "b.py", "--boards", "b1.in", "--cluster", "udp://x:1", cwd=tmp_path)
    assert bad.returncode == 2 and "'udp://x:1' is not a Dask scheduler's address" in bad.stderr


def test_without_a_cluster_dask_is_not_imported(tmp_path):
    (tmp_path / "b1.in").write_text(BOARD)
    (tmp_path / "a.py").write_text(SLOW.replace("sleep(0.3)", "sleep(0)"))
    (tmp_path / "b.py").write_text(SLOW.replace("sleep(0.3)", "sleep(0)"))
    check = ("import sys\nfrom arena.cli import main\n"
             "status = main(['run', '--bots', 'a.py', 'b.py', '--boards', 'b1.in', '--name', 't'])\n"
             "assert status == 0 and 'distributed' not in sys.modules and 'dask' not in sys.modules\n")
    result = subprocess.run([sys.executable, "-c", check], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                            check=False)
    assert result.returncode == 0, result.stderr



def test_every_worker_of_a_big_cluster_gets_games_and_each_record_names_its_host(own_cluster, tmp_path):
    """More worker processes than distributed's scheduler_info() lists by default (5, from 2025.4):
    every one is counted, and the games spread over all of them."""
    from distributed import Client

    from arena.cluster import slots_of

    own_cluster.start(workers=0)
    own_cluster.add_worker(processes=8)
    own_cluster.wait_for_workers(8)
    with Client(own_cluster.address, timeout=30) as client:
        slots = slots_of(client)
        assert len(slots) == 8 and sum(slots.values()) == 8
    (tmp_path / "boards").mkdir()
    for k in range(3):  # three boards: the first number 1, 2 and 3
        (tmp_path / "boards" / f"b{k}.in").write_text(BOARD.replace("5\n1", f"5\n{k + 1}", 1))
    bots = []
    for name in ("a", "b", "c", "d"):
        (tmp_path / f"{name}.py").write_text(SLOW)
        bots.append(f"{name}.py")
    result = _arena("run", "--bots", *bots, "--boards", "boards", "--name", "t", "--cluster", own_cluster.address,
                    cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "8 workers, 8 game slots" in result.stderr and "its dashboard: http" in result.stderr
    records = _records(tmp_path / "results" / "t")
    assert len(records) == 3 * 12
    assert {r["host"] for r in records} == {socket.gethostname()} and all(r["speed"] > 0 for r in records)
    assert len({r["worker"] for r in records}) > 5, Counter(r["worker"] for r in records)
    assert f"played on {socket.gethostname()} (speed" in result.stderr
    assert "games, 0 time-limit faults, by w0-0 (tcp://127.0.0.1:" in result.stderr  # named as started
    scaled = _arena("run", "--bots", *bots[:2], "--boards", "boards/b0.in", "--name", "s", "--scale-cpu",
                    "--cluster", own_cluster.address, cwd=tmp_path, timeout=300)
    assert scaled.returncode == 0, scaled.stderr
    for record in _records(tmp_path / "results" / "s"):  # 1 s of CPU over the host's speed
        assert record["cpu_limit"] == pytest.approx(1.0 / record["speed"], abs=0.002), record


def _copy_of_the_arena(folder: Path, change: str) -> Path:
    """The arena's packages, copied, with one referee file changed: a machine at another commit."""
    for package in ("arena", "referees", "players", "generator"):
        shutil.copytree(REPO / package, folder / package, ignore=shutil.ignore_patterns("__pycache__"))
    with open(folder / "referees" / "paint.py", "a") as handle:
        handle.write(change)
    return folder


def test_the_shipped_files_as_copies_hash_as_the_checkouts_links(tmp_path):
    """A wheel carries referees/shipped/ (the games' bots, boards, rules) as files where a checkout has
    links: the same code must hash alike (a worker installed from a wheel plays for a checkout)."""
    def code_hash(cwd: Path) -> str:
        script = ("import referees; from arena.cluster import code_hash; "
                  "print(code_hash('paint'), referees.__file__)")
        done = subprocess.run([sys.executable, "-c", script], cwd=cwd, capture_output=True, text=True,
                              check=True)
        digest, module = done.stdout.split()
        assert module.startswith(str(cwd)), module  # that copy's code
        return digest

    copied = _copy_of_the_arena(tmp_path / "copy", "")
    shipped = copied / "referees" / "shipped" / "bots"
    assert shipped.is_dir() and not shipped.is_symlink()  # (copytree copies what a link points to)
    assert code_hash(copied) == code_hash(REPO)


def test_a_worker_with_other_code_is_set_aside_and_the_others_play_its_games(own_cluster, tmp_path):
    other = _copy_of_the_arena(tmp_path / "other", "\n# a rule changed on this machine\n")
    own_cluster.start(workers=0)
    own_cluster.add_worker(cwd=other)  # 'python -m arena.cli' there imports that copy
    own_cluster.add_worker()
    own_cluster.wait_for_workers(2)
    (tmp_path / "b1.in").write_text(BOARD)
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.py").write_text(SLOW)
    result = _arena("run", "--bots", "a.py", "b.py", "c.py", "--boards", "b1.in", "--name", "t", "--cluster",
                    own_cluster.address, cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "is set aside, its games go to the others: its arena differs from the client's" in result.stderr
    records = _records(tmp_path / "results" / "t")
    assert len(records) == 6 and {r["worker"] for r in records} == {"w1"}
    assert Counter(r["id"] for r in records).most_common(1)[0][1] == 1


def test_a_worker_whose_cache_breaks_mid_run_is_set_aside_and_the_others_play_its_games(own_cluster, tmp_path):
    """A worker's cache folder replaced by a file after it joined (a failing disk, a home folder gone):
    the game it is preparing or starting cannot be played there (its bots cannot be written, or their
    sandbox cannot bind them), it sets itself aside, and the other worker plays every game once."""
    own_cluster.start(workers=2)
    (tmp_path / "b1.in").write_text(BOARD)
    bots = []
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.py").write_text(SLOW)
        bots.append(f"{name}.py")
    command = [sys.executable, "-m", "arena.cli", "run", "--bots", *bots, "--boards", "b1.in", "--name", "t",
               "--cluster", own_cluster.address]
    run = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        cache = tmp_path / "cache0"
        _wait_for(lambda: (cache / "bots").is_dir())  # w0 has been sent its first game
        cache.rename(tmp_path / "cache0-gone")
        cache.write_text("a file where the worker's cache was\n")
        _, err = run.communicate(timeout=300)
    finally:
        run.kill()
    assert run.returncode == 0, err
    aside = next(line for line in err.splitlines() if "is set aside" in line)
    assert aside.startswith("worker w0 (tcp://127.0.0.1:") and "its games go to the others: it cannot" in aside
    assert "Error: " in aside and str(cache) in aside and "disk full or failing" in aside, aside
    records = _records(tmp_path / "results" / "t")
    assert len(records) == 6 and set(Counter(r["id"] for r in records).values()) == {1}
    assert all(m["verdict"] == "ok" for r in records for m in r["moves"])
    assert "w1" in {r["worker"] for r in records}
    assert "by w0 (tcp://127.0.0.1:" in err or "by w1 (tcp://127.0.0.1:" in err, err


def test_when_no_worker_can_play_the_run_stops_saying_why(own_cluster, tmp_path):
    other = _copy_of_the_arena(tmp_path / "other", "\n# another commit\n")
    own_cluster.start(workers=0)
    own_cluster.add_worker(cwd=other)
    own_cluster.wait_for_workers(1)
    (tmp_path / "b1.in").write_text(BOARD)
    for name in ("a", "b"):
        (tmp_path / f"{name}.py").write_text(SLOW)
    result = _arena("run", "--bots", "a.py", "b.py", "--boards", "b1.in", "--name", "t", "--cluster",
                    own_cluster.address, cwd=tmp_path, timeout=300)
    assert result.returncode == 2, result.stderr
    error = result.stderr[result.stderr.index("arena: error:"):]
    assert f"no worker of {own_cluster.address} can play (1 connected, 1 set aside" in error
    assert "its arena differs from the client's" in error and "Resume with: arena run" in error


def test_a_worker_without_the_games_package_is_set_aside_and_one_with_it_plays(own_cluster, tmp_path):
    """A game of another package is needed on the workers too: the one without it says so and plays
    nothing; the one with it (the same package, installed) plays every game."""
    site = install_new_game("race7", tmp_path / "game")
    with_game = {**os.environ, "PYTHONPATH": str(site)}
    own_cluster.start(workers=0)
    own_cluster.add_worker()  # no race7 here
    own_cluster.add_worker(env=with_game)
    own_cluster.wait_for_workers(2)
    boards = site / "race7" / "boards"
    bots = [str(site / "race7" / "bots" / name) for name in ("random.py", "perfect.py")]
    result = subprocess.run([sys.executable, "-m", "arena.cli", "run", "--bots", *bots, "--boards", str(boards),
                             "--name", "t", "--cluster", own_cluster.address], cwd=tmp_path, env=with_game,
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    assert "is set aside, its games go to the others: it cannot play 'race7'" in result.stderr
    records = _records(tmp_path / "results" / "t")
    assert len(records) == 8 and {r["worker"] for r in records} == {"w1"} and {r["game"] for r in records} == {"race7"}


def test_a_tls_cluster_plays_and_refuses_whoever_has_not_its_certificates(own_cluster, tmp_path):
    from distributed.security import Security

    certs = tmp_path / "certs"
    made = _arena("certificates", str(certs), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    tls = ("--tls-ca-file", str(certs / "ca.pem"), "--tls-cert", str(certs / "node.pem"),
           "--tls-key", str(certs / "node-key.pem"))
    own_cluster.address = own_cluster.address.replace("tcp://", "tls://")
    own_cluster.start(workers=0, scheduler=("--protocol", "tls", *tls))
    own_cluster.add_worker(options=("--host", "127.0.0.1", *tls))
    own_cluster.wait_for_workers(1, security=Security(tls_ca_file=tls[1], tls_client_cert=tls[3],
                                                      tls_client_key=tls[5], require_encryption=True))
    (tmp_path / "b1.in").write_text(BOARD)
    for name in ("a", "b"):
        (tmp_path / f"{name}.py").write_text(SLOW.replace("sleep(0.3)", "sleep(0)"))
    common = ("run", "--bots", "a.py", "b.py", "--boards", "b1.in", "--cluster", own_cluster.address)
    played = _arena(*common, "--name", "t", *tls, cwd=tmp_path, timeout=300)
    assert played.returncode == 0, played.stderr
    assert len(_records(tmp_path / "results" / "t")) == 2
    refused = _arena(*common, "--name", "u", cwd=tmp_path)
    assert refused.returncode == 2 and "a tls:// address needs the cluster's TLS files" in refused.stderr
    assert "--tls-ca-file or distributed.comm.tls.ca-file (DASK_DISTRIBUTED__COMM__TLS__CA_FILE)" in refused.stderr
    other = tmp_path / "other-certs"  # certificates of another authority
    assert _arena("certificates", str(other), cwd=tmp_path).returncode == 0
    stranger = _arena(*common, "--name", "v", "--cluster-timeout", "5", "--tls-ca-file", str(other / "ca.pem"),
                      "--tls-cert", str(other / "node.pem"), "--tls-key", str(other / "node-key.pem"), cwd=tmp_path)
    assert stranger.returncode == 2 and "cannot reach the Dask scheduler" in stranger.stderr
    assert not (tmp_path / "results" / "v" / "games.jsonl").exists()


def test_a_tls_cluster_configured_the_dask_way_needs_no_tls_option(own_cluster, tmp_path):
    """The scheduler, the worker and the client given their files only by Dask's environment variables
    (the client's certificate and key in one file, which Dask allows): they play; without the
    authority's file the client is refused, told both ways to give it."""
    from distributed.security import Security

    certs = tmp_path / "certs"
    assert _arena("certificates", str(certs), cwd=tmp_path).returncode == 0
    both = certs / "node-and-key.pem"
    both.write_bytes((certs / "node.pem").read_bytes() + (certs / "node-key.pem").read_bytes())
    tls = "DASK_DISTRIBUTED__COMM__TLS__"
    node, key = str(certs / "node.pem"), str(certs / "node-key.pem")
    dask = {**os.environ, f"{tls}CA_FILE": str(certs / "ca.pem"), f"{tls}CLIENT__CERT": str(both)}
    for role in ("SCHEDULER", "WORKER"):
        dask |= {f"{tls}{role}__CERT": node, f"{tls}{role}__KEY": key}
    own_cluster.address = own_cluster.address.replace("tcp://", "tls://")
    own_cluster.start(workers=0, scheduler=("--protocol", "tls"), env=dask)
    dry = _arena("worker", own_cluster.address, "--dry-run", cwd=tmp_path, env=dask)
    assert dry.returncode == 0 and f"--tls-cert {node} --tls-key {key}" in dry.stdout, dry
    own_cluster.add_worker(options=("--host", "127.0.0.1"), env=dask)
    security = Security(tls_ca_file=str(certs / "ca.pem"), tls_client_cert=str(both), require_encryption=True)
    own_cluster.wait_for_workers(1, security=security)
    (tmp_path / "b1.in").write_text(BOARD)
    for name in ("a", "b"):
        (tmp_path / f"{name}.py").write_text(SLOW.replace("sleep(0.3)", "sleep(0)"))
    common = ("run", "--bots", "a.py", "b.py", "--boards", "b1.in", "--cluster", own_cluster.address)
    played = _arena(*common, "--name", "t", cwd=tmp_path, timeout=300, env=dask)
    assert played.returncode == 0, played.stderr
    records = _records(tmp_path / "results" / "t")
    assert len(records) == 2 and {r["worker"] for r in records} == {"w0"}
    no_ca = {name: value for name, value in dask.items() if name != f"{tls}CA_FILE"}
    refused = _arena(*common, "--name", "u", cwd=tmp_path, env=no_ca)
    assert refused.returncode == 2, refused.stderr
    missing = refused.stderr.split("missing: ")[1]
    assert missing.startswith("--tls-ca-file or distributed.comm.tls.ca-file (DASK_DISTRIBUTED__COMM__TLS__CA_FILE).")
    assert "Dask's configuration" in missing


def test_a_swiss_on_the_cluster_plays_round_by_round_as_locally(cluster, copy):
    """A paired format on the cluster: each round's games spread over the workers, the next round paired
    once the last game of this one is recorded, the same pairings and games as a local run."""
    for name in ("t1", "t2"):
        shutil.copy(copy / "bots" / "template.py", copy / f"{name}.py")
    common = ("run", "--bots", "bots/template.py", "bots/greedy.py", "t1.py", "t2.py", "--boards",
              "boards/group1/board1.in", "boards/group1/board2.in", "--system", "swiss", "--rounds", "2")
    local = _arena(*common, "--name", "local", "--jobs", "2", cwd=copy, timeout=300)
    assert local.returncode == 0, local.stderr
    remote = _arena(*common, "--name", "remote", "--cluster", cluster.address, cwd=copy, timeout=300)
    assert remote.returncode == 0, remote.stderr
    there, here = _records(copy / "results" / "remote"), _records(copy / "results" / "local")
    assert Counter(r["id"] for r in there) == Counter(r["id"] for r in here)
    assert set(Counter(r["id"] for r in there).values()) == {1} and len(there) == 2 * 2 * 2 * 2
    assert _essence(there) == _essence(here)
    assert f"connected to {cluster.address}" in remote.stderr and "round 2" in remote.stderr, remote.stderr
    tables = [text.split("Records:")[0] for text in (remote.stdout, local.stdout)]
    assert tables[0] == tables[1]
