"""Challenges: games a contestant asks for during the round, unrated, on the runner's spare time.

Two kinds (``ChallengeKind``): a *match* of the challenger's entry against another contestant's entry
or a house bot, for a number of pairs they choose (at most ``[ladder] challenge_pairs``); and an *SPRT*
between two of their own accepted submissions, played pair after pair until the arena's sequential
test (``arena.stats.Sprt``, as ``arena match --sprt`` runs it) decides, or ``sprt_pairs`` pairs.  A
pair is one of the ladder's boards played twice, the seats swapped, in the ladder's sandbox and limits;
the boards are taken in turn.  The games count for no rating.  Each contestant may ask for
``challenges_per_hour`` an hour, and sees only their own challenges and their replays (as does the
organiser); the opponent's author sees nothing of them.

The runner (``ChallengePlayer.turn``) plays one pair of the challenge it served least lately, after
the checks, beside the ladder's games; the pair, the counts and the SPRT's line are written in one
transaction.  The pages (``context``) read the database only.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from arena import stats, tables

log = logging.getLogger("arena.contest.runner")


class Refused(Exception):
    """A challenge the rules do not allow, in words for the contestant."""


# ------------------------------------------------------------------------------------- asking for one
def ask(user, kind: str, opponent: str = "", a: str = "", b: str = "", pairs: str = "", elo0: str = "0",
        elo1: str = "10"):
    """The challenge ``user`` asks for (form fields as sent), queued; else ``Refused`` saying why.

    A match: ``opponent`` is "c:NAME" (that contestant's entry) or "h:NAME" (a house bot), against the
    user's own entry.  An SPRT: ``a`` and ``b`` are two of the user's own accepted submissions' numbers,
    ``elo0`` and ``elo1`` the test's bounds (logistic Elo of A over B)."""
    from django.utils import timezone

    from arena.contest import permissions as can
    from arena.contest.models import Challenge, ChallengeKind, Contestant, Status, Submission

    settings = can.contest().ladder
    if not settings.enabled or not settings.challenges_per_hour:
        raise Refused("This contest has no challenges.")
    if can.phase() != can.OPEN:
        raise Refused("Challenges are played while the round is open; it is closed.")
    contestant = Contestant.objects.filter(user=user).first()
    if contestant is None:
        raise Refused("Only contestants ask for challenges.")
    if contestant.disqualified:
        raise Refused("You are disqualified.")
    hour_ago = timezone.now() - dt.timedelta(hours=1)
    recent = list(Challenge.objects.filter(author=user, created__gte=hour_ago).order_by("created")
                  .values_list("created", flat=True))
    if len(recent) >= settings.challenges_per_hour:
        again = recent[-settings.challenges_per_hour] + dt.timedelta(hours=1)
        raise Refused(f"You may ask for {settings.challenges_per_hour} challenges an hour; the next one at "
                      f"{again.strftime('%H:%M:%S')} UTC.")
    most = settings.challenge_pairs if kind == ChallengeKind.MATCH else settings.sprt_pairs
    count = _whole(pairs or str(most), "the number of pairs")
    if not 1 <= count <= most:
        raise Refused(f"The number of pairs must be from 1 to {most}; it is {count}.")
    if kind == ChallengeKind.MATCH:
        mine = contestant.current_entry()
        if mine is None:
            raise Refused("You have no entry yet: a submission of yours must be accepted first.")
        found: dict[str, Any] = {"kind": kind, "mine": mine, "pairs": count}
        if opponent.startswith("h:") and opponent[2:] in house_bots():
            found["house"] = opponent[2:]
        elif opponent.startswith("c:"):
            other = Contestant.objects.select_related("user").filter(user__username=opponent[2:]).first()
            entry = other.current_entry() if other and not other.disqualified else None
            if other is None or other.user_id == user.pk or entry is None:
                raise Refused("Choose another contestant who has an entry, or a house bot.")
            found["opponent"] = entry
        else:
            raise Refused("Choose another contestant who has an entry, or a house bot.")
    elif kind == ChallengeKind.SPRT:
        first, second = _whole(a, "submission A"), _whole(b, "submission B")
        own = Submission.objects.in_bulk([first, second])
        if first == second or len(own) != 2 \
                or any(s.author_id != user.pk or s.status != Status.ACCEPTED for s in own.values()):
            raise Refused("An SPRT compares two different accepted submissions of your own.")
        try:
            sprt = stats.Sprt(elo0=float(elo0), elo1=float(elo1))
        except ValueError as exc:
            raise Refused(f"The SPRT's bounds: {exc}.") from None
        found = {"kind": kind, "mine": own[first], "opponent": own[second], "pairs": count,
                 "sprt": {"elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha, "beta": sprt.beta}}
    else:
        raise Refused("A challenge is a match or an SPRT.")
    return Challenge.objects.create(author=user, counts=[0] * 5, **found)


def _whole(text: str, what: str) -> int:
    try:
        return int(str(text).strip())
    except ValueError:
        raise Refused(f"{what} must be a whole number.") from None


def house_bots() -> list[str]:
    """The house bots' names (their file or folder names under house/)."""
    from arena.contest import permissions as can

    return [path.name for path in can.contest().house]


def opponents(user) -> list[tuple[str, str]]:
    """What a match may be against, for the form: (value, label)."""
    from arena.contest.models import Contestant

    found = [(f"c:{c.user.username}", f"{c.user.username}'s entry")
             for c in Contestant.objects.select_related("user").filter(disqualified="").exclude(user=user)
             .order_by("user__username") if c.current_entry() is not None]
    return found + [(f"h:{name}", f"house bot {name}") for name in house_bots()]


# ------------------------------------------------------------------------------------- the runner's side
class ChallengePlayer:
    """The runner's challenges: one pair at a time, of the challenge served least lately."""

    def __init__(self, runner):
        self.runner = runner

    def turn(self) -> bool:
        """Play a pair of the next challenge; False if none waits (or the ladder is off)."""
        from django.db.models import F

        from arena.contest import permissions as can
        from arena.contest.models import Challenge, ChallengeState

        if not self.runner.contest.ladder.enabled:
            return False
        waiting = Challenge.objects.filter(state__in=(ChallengeState.QUEUED, ChallengeState.PLAYING))
        if can.phase() != can.OPEN:
            waiting.update(state=ChallengeState.FAILED, error="The round closed before it was played out.")
            return False
        challenge = (waiting.select_related("author", "mine", "opponent")
                     .order_by(F("served").asc(nulls_first=True), "id").first())
        if challenge is None:
            return False
        try:
            self.play(challenge)
        except Exception as exc:  # (the arena failed, not a bot: the challenge says so, the runner goes on)
            log.exception("runner: challenge #%d failed", challenge.pk)
            Challenge.objects.filter(pk=challenge.pk).update(state=ChallengeState.FAILED,
                                                             error=f"The arena failed at it: {exc}")
        return True

    def play(self, challenge) -> None:
        from django.db import transaction
        from django.utils import timezone

        from arena.contest.ladder_runner import first_score
        from arena.contest.models import Challenge, ChallengeGame, ChallengeState
        from arena.match import GameSpec, play

        ladder = self.runner.ladder
        mine = ladder.bot(challenge.mine_id, challenge.author.username)
        theirs = (self._house_bot(challenge.house) if challenge.house else
                  ladder.bot(challenge.opponent_id, challenge.opponent.author.username))
        if mine is None or theirs is None:
            missing = challenge.mine_id if mine is None else challenge.opponent_id
            why = ladder.broken.get(missing) or f"the house bot {challenge.house!r} is gone"
            Challenge.objects.filter(pk=challenge.pk).update(
                state=ChallengeState.FAILED, error=f"A bot could not be prepared: {why}")
            return
        names = sorted(ladder.boards)
        number = sum(challenge.counts) + 1
        board, initial = ladder.boards[names[(number - 1) % len(names)]]
        games = []
        for mine_first in (True, False):
            seats = (mine, theirs) if mine_first else (theirs, mine)
            record = play(ladder.referee, GameSpec(board, seats), initial, self.runner.limits(),
                          workdir=self.runner.folder / "ladder", sandbox=self.runner.sandbox)
            fault = record.get("fault")
            score = first_score(record) if mine_first else 1 - first_score(record)
            games.append((mine_first, score, fault["verdict"] if fault else "", record))
        counts = list(challenge.counts)
        counts[round(2 * (games[0][1] + games[1][1]))] += 1
        line, result = list(challenge.line), ""
        if challenge.sprt:
            sprt = stats.Sprt(**challenge.sprt)
            llr = sprt.llr(counts)
            line.append([number, round(llr, 4)])
            result = sprt.decision(llr) or ""
        if not result and number >= challenge.pairs:
            result = "max-pairs" if challenge.sprt else "played"
        with transaction.atomic():
            for mine_first, score, verdict, record in games:
                ChallengeGame.objects.create(challenge=challenge, pair=number, board=board.name,
                                             mine_first=mine_first, score=score, verdict=verdict,
                                             record=record)
            Challenge.objects.filter(pk=challenge.pk).update(
                counts=counts, line=line, result=result, served=timezone.now(),
                state=ChallengeState.DONE if result else ChallengeState.PLAYING)
        log.info("runner: challenge #%d: pair %d of %s against %s on %s", challenge.pk, number, mine, theirs,
                 board.name)

    def _house_bot(self, name: str):
        """The house bot ``name``, as the runner prepared it for the checks, named ``house-NAME``."""
        import dataclasses

        bot = next((bot for bot in self.runner.house if bot.path.name == name), None)
        return None if bot is None else dataclasses.replace(bot, name=f"house-{bot.name}")


# ------------------------------------------------------------------------------------- the pages
#: A challenge's games listed on its page, at most (the latest).
GAMES_SHOWN = 60
#: The SPRT plot's size in the SVG's own units.
WIDTH, HEIGHT, MARGIN = 900, 280, 44


def challenge_for(user, number: int):
    """The challenge ``number`` if ``user`` may see it (its author, or the organiser); else 404, as for
    one that does not exist."""
    from django.http import Http404

    from arena.contest import permissions as can
    from arena.contest.models import Challenge

    found = Challenge.objects.select_related("author", "mine", "opponent__author").filter(pk=number).first()
    if found is None \
            or not (can.is_organiser(user) or (user.is_authenticated and found.author_id == user.pk)):
        raise Http404("no such challenge")
    return found


def context(challenge) -> dict[str, Any]:
    """What a challenge's page shows: the match line as ``arena match`` prints it, the verdict, the
    SPRT's line as a plot, and the games."""
    sprt = stats.Sprt(**challenge.sprt) if challenge.sprt else None
    counts = list(challenge.counts)
    a, b = mine_name(challenge), opponent_name(challenge)
    played = sum(counts)
    running = challenge.state in ("queued", "playing")
    # (as arena show prints a match: the SPRT's decision, else running or undecided)
    result = challenge.result if challenge.result in ("H1", "H0") else "running" if running else "undecided"
    verdict = (tables.verdict(challenge.result, a, b) if challenge.result in ("H1", "H0") else
               f"The SPRT did not decide in {played} pairs." if challenge.result == "max-pairs" else "")
    est = stats.pentanomial_elo(counts) if played else None
    return {"challenge": challenge, "a": a, "b": b, "pairs": played, "counts": counts,
            "line": tables.match_line(counts, sprt, result) if played else "", "verdict": verdict,
            "estimate": est, "plot": plot(challenge.line, sprt, challenge.pairs) if sprt else None,
            "games": list(challenge.games.order_by("-pair", "-id").defer("record")[:GAMES_SHOWN]),
            "game_count": 2 * played,
            "version": f"{challenge.state}-{played}"}


def mine_name(challenge) -> str:
    return f"{challenge.mine.name} (#{challenge.mine_id})"


def opponent_name(challenge) -> str:
    if challenge.house:
        return f"house bot {challenge.house}"
    if challenge.opponent.author_id == challenge.author_id:
        return f"{challenge.opponent.name} (#{challenge.opponent_id})"
    return f"{challenge.opponent.author.username}'s entry (#{challenge.opponent_id})"


def plot(line: list[list[float]], sprt: stats.Sprt, most: int) -> dict[str, Any]:
    """The SPRT's log-likelihood ratio after each pair, between its two bounds, as an SVG's coordinates."""
    low, high = sprt.lower * 1.15, sprt.upper * 1.15
    values = [llr for _, llr in line]
    low, high = min([low, *values]), max([high, *values])
    right = max(10, max((pair for pair, _ in line), default=0))
    right = min(right, most) if line and line[-1][0] < most else right

    def x(pair: float) -> float:
        return round(MARGIN + (WIDTH - 2 * MARGIN) * pair / right, 1)

    def y(llr: float) -> float:
        return round(HEIGHT - MARGIN + (llr - low) * (2 * MARGIN - HEIGHT) / (high - low), 1)

    points = " ".join(f"{x(pair)},{y(llr)}" for pair, llr in [[0, 0.0], *line])
    return {"width": WIDTH, "height": HEIGHT, "margin": MARGIN, "right": WIDTH - MARGIN,
            "bottom": HEIGHT - MARGIN, "points": points, "count": len(line),
            "upper": (y(sprt.upper), sprt.upper), "lower": (y(sprt.lower), sprt.lower), "zero": y(0.0),
            "last": right}
