"""What the contest server keeps in its database.

People are Django's users: the organiser is a staff user, a contestant is a user with a
``Contestant`` row.  A submission row pins exactly what was uploaded (its SHA-256 names the file
kept under ``uploads/``), so what a check or the final played never changes under it.  Work for
the runner is a ``Job`` row with a state machine; a job's effect is written in the same
transaction that marks it done.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets

from django.conf import settings
from django.db import models, transaction
from django.db.models import F, Q
from django.utils import timezone


class Contestant(models.Model):
    """A contestant's standing in the contest (their login is ``user``)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="contestant")
    """Their account; ``user.username`` is the name their bot plays under in the final."""
    entry = models.ForeignKey("Submission", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    """The accepted submission they chose as their entry; None: their latest accepted one."""
    disqualified = models.TextField(blank=True, default="")
    """Why the organiser disqualified them ("" if not): their entry plays no final and is listed as such."""
    joined = models.DateTimeField(default=timezone.now)
    """When they registered."""

    def __str__(self) -> str:
        return self.user.username

    def current_entry(self) -> Submission | None:
        """The submission that plays for them: the one chosen, else the latest accepted."""
        if self.entry_id and self.entry.status == Status.ACCEPTED:
            return self.entry
        return self.user.submissions.filter(status=Status.ACCEPTED).order_by("-id").first()


class Status(models.TextChoices):
    """Where a submission is in its check."""

    QUEUED = "queued", "queued"
    """Uploaded and kept; its check waits for the runner."""
    COMPILING = "compiling", "compiling"
    """The runner is unpacking it and compiling it (or, in a language not compiled, making it ready)."""
    CHECKING = "checking", "checking"
    """Compiled: the runner is playing it on the sample boards."""
    ACCEPTED = "accepted", "accepted"
    """It compiled and passed the check: it can be an entry."""
    REFUSED = "refused", "refused"
    """It did not compile or failed the check (the report says why): it cannot be an entry."""
    ERROR = "error", "error"
    """The arena failed to check it (not the bot's fault); the organiser can check it again."""


class Submission(models.Model):
    """One upload, kept as it was sent: never changed, never deleted."""

    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="submissions")
    """Who uploaded it."""
    uploaded = models.DateTimeField(default=timezone.now, db_index=True)
    """When it was received (and written to disk)."""
    filename = models.CharField(max_length=255)
    """The file's name as uploaded (checked: one safe name)."""
    name = models.CharField(max_length=255)
    """The bot's name as its files name it (the source's stem, or the archive's)."""
    kind = models.CharField(max_length=16)
    """"source" (one file) or "archive" (a folder bot in a zip or tar.gz)."""
    language = models.CharField(max_length=32, blank=True, default="")
    """Its row of the language table ("" until checked, or for an executable)."""
    sha256 = models.CharField(max_length=64, db_index=True)
    """The SHA-256 of the bytes as uploaded: the file under uploads/."""
    size = models.PositiveIntegerField()
    """Bytes as uploaded."""
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED, db_index=True)
    """Where its check is."""
    report = models.JSONField(null=True, blank=True)
    """The check's report (arena.check.Report.to_json), once checked."""
    message = models.TextField(blank=True, default="")
    """Why it was refused, or the arena's error, in one paragraph."""

    class Meta:
        ordering = ("-id",)

    def __str__(self) -> str:
        return f"#{self.pk} {self.name} by {self.author.username}"


class JobKind(models.TextChoices):
    """What a job does."""

    CHECK = "check", "check"
    """Compile and check one submission."""
    FINAL = "final", "final"
    """Play (or resume) the final: arena run of the entries on the final boards."""


class JobState(models.TextChoices):
    QUEUED = "queued", "queued"
    """Waiting for the runner."""
    RUNNING = "running", "running"
    """Held by a runner (``holder``); found so by a runner that starts, it is run again."""
    DONE = "done", "done"
    """Finished; its effect is written."""
    FAILED = "failed", "failed"
    """The arena failed at it ``attempts`` times; ``error`` says how."""


#: Lower runs first: checks go ahead of the final.
PRIORITY = {JobKind.CHECK: 0, JobKind.FINAL: 10}
#: A job that fails this many times is left failed (its error shown to the organiser).
ATTEMPTS = 3


class JobQuerySet(models.QuerySet):
    def claim(self, holder: str) -> Job | None:
        """The next queued job, now held by ``holder``: the conditional update makes two runners that
        race for one job get it once (on SQLite and PostgreSQL alike, with no row lock)."""
        for job in self.filter(state=JobState.QUEUED).order_by("priority", "id")[:8]:
            taken = self.filter(pk=job.pk, state=JobState.QUEUED).update(
                state=JobState.RUNNING, holder=holder, attempts=F("attempts") + 1, started=timezone.now())
            if taken:
                job.refresh_from_db()
                return job
        return None

    def requeue_abandoned(self) -> int:
        """Jobs left running by a runner that died: queued again (only one runner runs per contest)."""
        return self.filter(state=JobState.RUNNING).update(state=JobState.QUEUED, holder="")


class Job(models.Model):
    """Work for the runner."""

    kind = models.CharField(max_length=16, choices=JobKind.choices)
    """What to do."""
    submission = models.ForeignKey(Submission, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="jobs")
    """The submission a check checks."""
    state = models.CharField(max_length=16, choices=JobState.choices, default=JobState.QUEUED, db_index=True)
    """Where it is."""
    priority = models.IntegerField(default=0)
    """Lower runs first (PRIORITY)."""
    attempts = models.PositiveIntegerField(default=0)
    """How many times a runner took it."""
    holder = models.CharField(max_length=128, blank=True, default="")
    """The runner holding it (host and process id) while running."""
    created = models.DateTimeField(default=timezone.now)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    """The arena's error at its last attempt."""
    options = models.JSONField(default=dict, blank=True)
    """What a final was started with beyond the configuration: ``{"cluster": ADDRESS}`` plays it on that
    Dask scheduler's workers (``arena contest final --cluster``)."""

    objects = JobQuerySet.as_manager()

    class Meta:
        ordering = ("-id",)
        indexes = (models.Index(fields=["state", "priority", "id"]),)

    def __str__(self) -> str:
        return f"{self.kind} job #{self.pk} ({self.state})"

    @classmethod
    def queue(cls, kind: str, submission: Submission | None = None, options: dict | None = None) -> Job:
        return cls.objects.create(kind=kind, submission=submission, priority=PRIORITY[kind], options=options or {})


class Release(models.TextChoices):
    """Who sees the final's results."""

    HIDDEN = "hidden", "hidden"
    """Only the organiser."""
    OWN = "own", "own games"
    """Each contestant their own games (and their own place); the organiser everything."""
    ALL = "all", "everyone"
    """Published: the standings and every game to everyone."""


class ContestState(models.Model):
    """The one row of what changes while the contest runs (the configuration is contest.toml)."""

    deadline = models.DateTimeField(null=True, blank=True)
    """The deadline as extended by the organiser (None: the configuration's)."""
    closed = models.BooleanField(default=False)
    """Closed early by the organiser."""
    release = models.CharField(max_length=16, choices=Release.choices, default=Release.HIDDEN)
    """Who sees the final's results."""
    runner_seen = models.DateTimeField(null=True, blank=True)
    """The runner's last heartbeat."""
    runner = models.CharField(max_length=128, blank=True, default="")
    """The runner's host and process id."""

    @classmethod
    def get(cls) -> ContestState:
        state, _ = cls.objects.get_or_create(pk=1)
        return state


class Invitation(models.Model):
    """A link by which one person may register."""

    token = models.CharField(max_length=64, unique=True)
    """The secret in the link."""
    created = models.DateTimeField(default=timezone.now)
    note = models.CharField(max_length=200, blank=True, default="")
    """The organiser's note of whom it is for."""
    used_by = models.OneToOneField(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    """Who registered with it (None: unused)."""

    @classmethod
    def make(cls, note: str = "") -> Invitation:
        return cls.objects.create(token=secrets.token_urlsafe(24), note=note)


class ApiToken(models.Model):
    """A personal token for the command line (arena submit); only its hash is kept."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_token")
    digest = models.CharField(max_length=64, unique=True)
    """SHA-256 of the token."""
    created = models.DateTimeField(default=timezone.now)

    @staticmethod
    def digest_of(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()

    @classmethod
    def issue(cls, user) -> str:
        """A new token for ``user`` (replacing theirs); the token itself is shown once and not kept."""
        token = "arena_" + secrets.token_urlsafe(30)
        with transaction.atomic():
            cls.objects.filter(user=user).delete()
            cls.objects.create(user=user, digest=cls.digest_of(token))
        return token


class LoginFailure(models.Model):
    """A failed login, for the rate limit (by account and by address)."""

    username = models.CharField(max_length=150, db_index=True)
    address = models.CharField(max_length=64, db_index=True)
    when = models.DateTimeField(default=timezone.now, db_index=True)

    #: At most this many failures in WINDOW, per account and per address, before logins are refused.
    LIMIT = 5
    WINDOW = dt.timedelta(minutes=15)

    @classmethod
    def too_many(cls, username: str, address: str) -> bool:
        since = timezone.now() - cls.WINDOW
        recent = cls.objects.filter(when__gte=since)
        return (recent.filter(username=username).count() >= cls.LIMIT
                or recent.filter(address=address).count() >= 4 * cls.LIMIT)

    @classmethod
    def forget(cls, username: str) -> None:
        cls.objects.filter(Q(username=username) | Q(when__lt=timezone.now() - cls.WINDOW)).delete()


class LadderGame(models.Model):
    """One game of the ladder (arena.contest.ladder): the submissions that played it, pinned, so that
    what a rating was computed from never changes under it, and its record as ``arena.match.play``
    returned it (the replay is drawn from it)."""

    pair = models.PositiveIntegerField(db_index=True)
    """The number of its pair (one board played twice, the seats swapped: the rating fit's unit),
    numbered as pairs are recorded; both games of a pair are written in one transaction."""
    first = models.ForeignKey(Submission, on_delete=models.PROTECT, related_name="+")
    """The submission in the first seat."""
    second = models.ForeignKey(Submission, on_delete=models.PROTECT, related_name="+")
    """The submission in the second seat."""
    board = models.CharField(max_length=255)
    """The board's name (as the record gives it)."""
    score = models.FloatField()
    """The first seat's score: 1 a win, 0.5 a draw, 0 a loss."""
    fault = models.ForeignKey(Submission, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    """The submission whose bot faulted (and so lost), if one did."""
    verdict = models.CharField(max_length=32, blank=True, default="")
    """That fault's verdict (time-limit, crash, no-output, bad-output, illegal...)."""
    record = models.JSONField()
    """The game's record, as arena.match.play returned it."""
    finished = models.DateTimeField(default=timezone.now, db_index=True)
    """When it was recorded."""

    class Meta:
        ordering = ("pair", "id")

    def __str__(self) -> str:
        return f"ladder game #{self.pk} (pair {self.pair})"

    @classmethod
    def games(cls) -> list:
        """Every ladder game as the ratings and the matchmaking read it (``ladder.Game``), in order."""
        from arena.contest.ladder import Game

        fields = ("pair", "first_id", "second_id", "score", "board", "fault_id", "verdict")
        return [Game(*row) for row in cls.objects.order_by("pair", "id").values_list(*fields)]


class LadderSnapshot(models.Model):
    """The ladder's standings as fitted at one moment; the latest is what the ladder page shows, the
    others (thinned as the round goes on) are the plot of each entry's rating over time."""

    taken = models.DateTimeField(default=timezone.now, db_index=True)
    """When they were fitted."""
    games = models.PositiveIntegerField()
    """How many ladder games had been recorded then."""
    lines = models.JSONField()
    """The standings of the current entries, best first, then those not rated yet (elo null):
    [{"entry", "elo", "low", "high", "games", "los", "paused"}] (entry: a submission's number; los: the
    likelihood that it is stronger than the next, or null; paused: the verdicts of the faults that
    paused it, or [])."""

    class Meta:
        ordering = ("-taken", "-id")

    @classmethod
    def latest(cls) -> LadderSnapshot | None:
        return cls.objects.order_by("-taken", "-id").first()


class ChallengeKind(models.TextChoices):
    MATCH = "match", "match"
    """The challenger's entry against another contestant's entry or a house bot, a stated number of pairs."""
    SPRT = "sprt", "SPRT"
    """Two of the challenger's own submissions, until the SPRT decides (or its most pairs)."""


class ChallengeState(models.TextChoices):
    QUEUED = "queued", "queued"
    """Waiting for the runner's spare time (after the checks)."""
    PLAYING = "playing", "playing"
    """Some pairs played; more to come."""
    DONE = "done", "done"
    """Played out, or decided (``result``)."""
    FAILED = "failed", "failed"
    """A bot could not be prepared, or the round closed first (``error``)."""


class Challenge(models.Model):
    """Games a contestant asked for (arena.contest.challenges): unrated, seen by them and the organiser.
    A pair is one of the ladder's boards played twice, the seats swapped; ``counts`` are the pairs'
    pentanomial counts from ``mine``'s side, as ``arena match`` counts them."""

    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges")
    """Who asked for it."""
    kind = models.CharField(max_length=8, choices=ChallengeKind.choices)
    mine = models.ForeignKey(Submission, on_delete=models.PROTECT, related_name="+")
    """The challenger's submission (an SPRT's A: the candidate)."""
    opponent = models.ForeignKey(Submission, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    """The other submission: another contestant's entry, or (an SPRT's B) another of the challenger's own."""
    house = models.CharField(max_length=255, blank=True, default="")
    """Or a house bot, by its name under house/."""
    pairs = models.PositiveIntegerField()
    """Pairs to play (a match), or at most (an SPRT)."""
    sprt = models.JSONField(null=True, blank=True)
    """An SPRT's bounds: {"elo0", "elo1", "alpha", "beta"}."""
    state = models.CharField(max_length=8, choices=ChallengeState.choices, default=ChallengeState.QUEUED,
                             db_index=True)
    counts = models.JSONField(default=list)
    """Pentanomial counts of the pairs played so far: how many pairs ``mine`` scored 0, 1/2, ..., 2 in."""
    line = models.JSONField(default=list)
    """An SPRT's log-likelihood ratio after each pair: [pairs, llr]."""
    result = models.CharField(max_length=16, blank=True, default="")
    """When done: "H1" or "H0" (an SPRT decided), "max-pairs" (it did not), or "played" (a match)."""
    error = models.TextField(blank=True, default="")
    """Why it failed."""
    created = models.DateTimeField(default=timezone.now, db_index=True)
    served = models.DateTimeField(null=True, blank=True)
    """When its last pair was played (the runner serves the challenge it served least lately)."""

    class Meta:
        ordering = ("-id",)

    def __str__(self) -> str:
        return f"challenge #{self.pk} ({self.kind}, {self.state})"


class ChallengeGame(models.Model):
    """One game of a challenge, with its record (the replay is drawn from it)."""

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="games")
    pair = models.PositiveIntegerField()
    """Its pair's number within the challenge, from 1."""
    board = models.CharField(max_length=255)
    mine_first = models.BooleanField()
    """Whether the challenger's submission had the first seat."""
    score = models.FloatField()
    """The challenger's score: 1 a win, 0.5 a draw, 0 a loss."""
    verdict = models.CharField(max_length=32, blank=True, default="")
    """A fault's verdict, if a bot faulted."""
    record = models.JSONField()
    finished = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("pair", "id")
