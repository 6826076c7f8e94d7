"""The contest's runner: the one process that runs bots.  The web processes write jobs; the runner
takes them one at a time (checks before the final), runs them with the arena's own pieces and writes
each job's effect in the transaction that marks it done; when none waits, it plays a pair of the
challenges contestants asked for (``challenges``) and the ladder's next games (``ladder_runner``).

A check unpacks the upload (``uploads.unpack``) and runs ``arena.check.check`` in the sandbox with the
contest's limits: the same code and the same limits as ``arena check --contest`` on a laptop.  The
final is an ``arena run`` of the entries on the final boards, into ``results/final``: killed, it is
resumed as any run is, by running it again.

Started by ``arena serve`` as ``python -m arena.contest.runner``; a runner that starts runs again the
jobs a dead one left running.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path

log = logging.getLogger("arena.contest.runner")

#: Seconds between the runner's heartbeats (the organiser's page calls it dead after 30 s without one).
HEARTBEAT = 5.0
#: Seconds between looks for new jobs when there are none.
IDLE = 0.5
#: The characters of the final's log that a failed final's error keeps.
TAIL = 4000


class ContestRunner:
    """The runner of one contest folder, with its sandbox and house bots prepared once."""

    def __init__(self, folder: Path):
        from arena import languages
        from arena.bots import Compilers
        from arena.contest import permissions

        self.folder = Path(folder)
        self.contest = permissions.contest()
        self.holder = f"{socket.gethostname()}:{os.getpid()}"
        self.compilers = Compilers.from_environment(languages=languages.load(None))
        self._sandbox = None
        self._house = None
        self.stopping = threading.Event()
        from arena.contest.challenges import ChallengePlayer
        from arena.contest.ladder_runner import LadderPlayer

        self.ladder = LadderPlayer(self)
        self.challenges = ChallengePlayer(self)

    # -- what every check shares, made at the first check
    @property
    def sandbox(self):
        if self._sandbox is None:
            from arena.sandbox import configure

            self._sandbox = configure(disk=self.contest.limits.disk * 2**20)
            log.info("runner: %s", self._sandbox.describe())
        return self._sandbox

    @property
    def house(self):
        if self._house is None:
            from arena.bots import prepare_bots
            from arena.errors import ArenaError
            from arena.sandbox import sandboxed_compiler

            bots, excluded = prepare_bots([str(path) for path in self.contest.house], self.folder / "checks" / ".house",
                                          log=log.info, compilers=self.compilers,
                                          compile=sandboxed_compiler(self.sandbox), sandboxed=True)
            if excluded:
                raise ArenaError("house bot " + "; ".join(f"{bad.path.name!r} cannot play: {bad.reason}"
                                                           for bad in excluded))
            self._house = bots
        return self._house

    def limits(self):
        """The contest's limits, read as ``arena check --contest`` reads them."""
        from arena.commands import limits_of
        from arena.games import referee as get_referee

        given = self.contest.limits
        return limits_of(get_referee(self.contest.game), given.cpu, given.wall, given.memory)

    # -- the loop
    def serve(self) -> None:
        from django.db import close_old_connections

        from arena.contest.models import Job, JobState

        found = Job.objects.requeue_abandoned()
        if found:
            log.warning("runner: %d jobs left running by a runner that stopped are queued again", found)
        beat = threading.Thread(target=self._heartbeat, daemon=True, name="heartbeat")
        beat.start()
        while not self.stopping.is_set():
            close_old_connections()
            job = Job.objects.claim(self.holder)
            if job is None:
                # (only when no job waits: a challenge's pair, then the ladder's, unless a check came meanwhile)
                played = self.challenges.turn()
                if not Job.objects.filter(state=JobState.QUEUED).exists():
                    played = self.ladder.turn() or played
                if not played:
                    self.stopping.wait(IDLE)
                continue
            self.run(job)

    def _heartbeat(self) -> None:
        from django.db import connection
        from django.utils import timezone

        from arena.contest.models import ContestState

        while not self.stopping.is_set():
            try:
                ContestState.get()
                ContestState.objects.filter(pk=1).update(runner_seen=timezone.now(), runner=self.holder)
            except Exception:
                log.exception("runner: heartbeat failed")
            finally:
                connection.close()
            self.stopping.wait(HEARTBEAT)

    def run(self, job) -> None:
        from arena.contest.models import JobKind

        log.info("runner: %s", job)
        started = time.monotonic()
        try:
            if job.kind == JobKind.CHECK:
                self.check(job)
            else:
                self.final(job)
        except Exception as exc:  # noqa: BLE001 - the arena failed at this job: say so, go on with the next
            self._failed(job, exc)
        log.info("runner: %s ended in %.1f s", job, time.monotonic() - started)

    def _failed(self, job, exc: Exception) -> None:
        from django.db import transaction
        from django.utils import timezone

        from arena.contest.models import ATTEMPTS, Job, JobState, Status, Submission
        from arena.errors import ArenaError

        text = str(exc) if isinstance(exc, ArenaError) else "".join(traceback.format_exception(exc))
        log.error("runner: %s failed: %s", job, text)
        final = job.attempts >= ATTEMPTS or isinstance(exc, ArenaError)
        with transaction.atomic():
            Job.objects.filter(pk=job.pk).update(state=JobState.FAILED if final else JobState.QUEUED, holder="",
                                                 error=text[-TAIL:], finished=timezone.now())
            if job.submission_id and final:
                Submission.objects.filter(pk=job.submission_id).update(
                    status=Status.ERROR, message="The arena failed to check this submission (not your bot's fault); "
                    "the organiser can check it again.")

    # -- a check
    def check(self, job) -> None:
        from django.db import transaction
        from django.utils import timezone

        from arena import check
        from arena.boards import find_boards, load_board
        from arena.contest import site, uploads
        from arena.contest.models import Job, JobState, Status, Submission
        from arena.games import referee as get_referee

        submission = job.submission
        Submission.objects.filter(pk=submission.pk).update(status=Status.COMPILING)
        data = site.upload_path(self.folder, submission.sha256).read_bytes()
        unpacked = self.folder / site.BOTS / str(submission.pk)
        shutil.rmtree(unpacked, ignore_errors=True)  # (a check cut short left it half written)
        unpacked.parent.mkdir(parents=True, exist_ok=True)
        limits = self.contest.submissions
        uploads.unpack(submission.filename, data, unpacked,
                       uploads.UploadLimits(limits.max_bytes, limits.max_files, limits.max_unpacked_bytes))
        referee = get_referee(self.contest.game)
        boards = [load_board(referee, path) for path in find_boards([str(self.contest.sample_boards)])]
        workdir = self.folder / site.CHECKS / str(submission.pk)
        shutil.rmtree(workdir, ignore_errors=True)
        report = check.check(next(unpacked.iterdir()), referee, boards, level=self.contest.feedback,
                             house=self.house if referee.players > 1 else [], limits=self.limits(),
                             sandbox=self.sandbox, compilers=self.compilers, workdir=workdir,
                             on_compiled=lambda: Submission.objects.filter(pk=submission.pk).update(
                                 status=Status.CHECKING))
        status, message = (Status.ACCEPTED, "") if report.accepted else (Status.REFUSED, "It failed the check.")
        if refusal := self.contest.refusal(report.language):
            status, message = Status.REFUSED, refusal
        with transaction.atomic():
            Submission.objects.filter(pk=submission.pk).update(status=status, message=message,
                                                               report=report.to_json(),
                                                               language=report.language or "")
            Job.objects.filter(pk=job.pk).update(state=JobState.DONE, holder="", finished=timezone.now(), error="")

    # -- the final
    def final(self, job) -> None:
        from django.utils import timezone

        from arena.contest import dying_with_parent, games
        from arena.contest.models import Job, JobState
        from arena.errors import ArenaError

        entries = self.entries()
        if len(entries) < 2:
            raise ArenaError(f"the final needs at least two entries; there are {len(entries)}")
        argv = self.final_command(entries, cluster=(job.options or {}).get("cluster", ""), seeding=self.seeding())
        folder = games.final_folder(self.folder)
        folder.parent.mkdir(parents=True, exist_ok=True)
        with open(folder.parent / "final.log", "ab") as output:
            output.write(f"\n$ {' '.join(argv)}\n".encode())
            output.flush()
            code = subprocess.run(dying_with_parent(argv), stdin=subprocess.DEVNULL, stdout=output, stderr=output,
                                  cwd=self.folder, check=False).returncode
        if code != 0:
            tail = (folder.parent / "final.log").read_bytes()[-TAIL:].decode("utf-8", "replace")
            raise ArenaError(f"the final's arena run ended with status {code}:\n{tail}")
        Job.objects.filter(pk=job.pk).update(state=JobState.DONE, holder="", finished=timezone.now(), error="")

    def entries(self) -> list[Path]:
        """Every contestant's entry, as a bot named after them (their login name), under results/entries:
        made once, at the final's first start, so that a resumed final plays the same bots."""
        from arena.contest import site
        from arena.contest.models import Contestant

        folder = self.folder / site.RESULTS / "entries"
        if folder.exists():
            return sorted(folder.iterdir())
        building = folder.with_name(".entries")
        shutil.rmtree(building, ignore_errors=True)
        building.mkdir(parents=True)
        for contestant in Contestant.objects.select_related("user").filter(disqualified=""):
            entry = contestant.current_entry()
            if entry is None:
                continue
            source = next((self.folder / site.BOTS / str(entry.pk)).iterdir())
            target = building / (contestant.user.username + (source.suffix if source.is_file() else ""))
            (shutil.copytree if source.is_dir() else shutil.copy2)(source, target)
        os.replace(building, folder)
        return sorted(folder.iterdir())

    def seeding(self) -> Path | None:
        """With ``final.seeding = "ladder"``, the final's seeding file (``arena run --seeding``): the
        authors of the ladder's rated entries, best first, as its latest standings have them; made once,
        at the final's first start, so that a resumed final is seeded as it began.  (Entries without a
        rating come after, by name.)"""
        from arena.contest import site
        from arena.contest.models import LadderSnapshot, Submission

        if self.contest.final.seeding != "ladder":
            return None
        path = self.folder / site.RESULTS / "seeding.txt"
        if path.exists():
            return path
        snapshot = LadderSnapshot.latest()
        lines = [line for line in (snapshot.lines if snapshot else []) if line["elo"] is not None]
        entries = Submission.objects.select_related("author").in_bulk([line["entry"] for line in lines])
        names = [entries[line["entry"]].author.username for line in lines if line["entry"] in entries]
        head = (f"# The final's seeds: the ladder's standings after {snapshot.games} games "
                f"({snapshot.taken.isoformat(timespec='seconds')}), best first.\n" if snapshot else
                "# The final's seeds: the ladder has no standings; the entries are seeded by name.\n")
        path.parent.mkdir(parents=True, exist_ok=True)
        building = path.with_name(".seeding.txt")
        building.write_text(head + "".join(name + "\n" for name in names), encoding="utf-8")
        os.replace(building, path)
        return path

    def final_command(self, entries: list[Path], cluster: str = "", seeding: Path | None = None) -> list[str]:
        """The final's ``arena run``: on ``cluster`` (the address it was started with), else the
        configuration's, else on this machine; seeded by the file ``seeding`` if given."""
        final, limits = self.contest.final, self.contest.limits
        cluster = cluster or final.cluster
        argv = [sys.executable, "-m", "arena.cli", "run", "--game", self.contest.game,
                "--bots", *map(str, entries), "--boards", str(self.contest.final_boards),
                "--results", str(self.folder / "results"), "--name", "final",
                "--memory", str(limits.memory), "--disk", str(limits.disk), "--system", final.system]
        if limits.cpu:
            argv += ["--cpu", str(limits.cpu)]
        if limits.wall:
            argv += ["--wall", str(limits.wall)]
        if final.rounds:
            argv += ["--rounds", str(final.rounds)]
        if final.challengers:
            argv += ["--challengers", *final.challengers]
        if final.jobs:
            argv += ["--jobs", str(final.jobs)]
        if cluster:
            argv += ["--cluster", cluster]
        if seeding is not None:
            argv += ["--seeding", str(seeding)]
        return argv


def main() -> int:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.contest.settings")
    django.setup()
    from arena.text import SafeFormatter

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(SafeFormatter("%(asctime)s %(message)s"))  # (names and messages a contestant chose)
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    runner = ContestRunner(Path(os.environ["ARENA_CONTEST"]))

    def stop(signum, frame):
        # At once, even mid-check or mid-write: the job stays "running" in the database (a transaction
        # cut short is rolled back), and the next runner runs it again. The bots' sandboxes die with this
        # process (bubblewrap's --die-with-parent); the kept ones are killed first. No Python clean-up
        # runs (a SystemExit raised here could land inside logging's or the database's locks and hang).
        from arena.sandbox import close_kept

        runner.stopping.set()
        close_kept()
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    runner.serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
