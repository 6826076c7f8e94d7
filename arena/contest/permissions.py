"""Who may see and do what, and the contest's phase: every view asks here, none decides alone."""

from __future__ import annotations

import datetime as dt
import functools

from django.conf import settings
from django.http import Http404
from django.utils import timezone

from arena.contest import config as contest_config
from arena.contest.models import ContestState, Job, JobKind, JobState, Release, Submission

OPEN, CLOSED, FINAL, FAILED, DONE, PUBLISHED = "open", "closed", "final", "failed", "done", "published"
PHASES = {
    OPEN: "open: submissions are taken",
    CLOSED: "closed: the deadline has passed; the final has not started",
    FINAL: "the final is being played",
    FAILED: "the final failed; the organiser can start it again, and it resumes",
    DONE: "the final is played; its results are not yet published",
    PUBLISHED: "published: the final's results are out",
}


@functools.cache
def contest() -> contest_config.Contest:
    """The contest's configuration (read once per process: restart the server after editing it)."""
    return contest_config.load(settings.CONTEST)


def deadline(state: ContestState | None = None) -> dt.datetime:
    state = state or ContestState.get()
    return state.deadline or contest().deadline


def final_job() -> Job | None:
    return Job.objects.filter(kind=JobKind.FINAL).order_by("-id").first()


def phase(state: ContestState | None = None) -> str:
    """open -> closed (at the deadline, or closed early) -> final (or failed) -> done -> published.

    Published only once the final is done and its results are released to everyone: a release made
    before (the organiser's page refuses one) never closes the round."""
    state = state or ContestState.get()
    job = final_job()
    if job is not None:
        if job.state == JobState.DONE:
            return PUBLISHED if state.release == Release.ALL else DONE
        return FAILED if job.state == JobState.FAILED else FINAL
    if state.closed or timezone.now() >= deadline(state):
        return CLOSED
    return OPEN


def is_organiser(user) -> bool:
    return bool(user.is_authenticated and user.is_staff)


def submission_for(user, number: int) -> Submission:
    """The submission ``number`` if ``user`` may see it (its author or the organiser); else 404, the same
    answer as for a number that does not exist, so that guessing numbers tells nothing."""
    try:
        submission = Submission.objects.select_related("author").get(pk=number)
    except Submission.DoesNotExist:
        raise Http404("no such submission") from None
    if submission.author_id != user.pk and not is_organiser(user):
        raise Http404("no such submission")
    return submission


def results_visible(user, state: ContestState | None = None) -> str:
    """What of the final's results ``user`` may see: "all", "own" or "" (nothing)."""
    state = state or ContestState.get()
    job = final_job()
    if job is None or job.state != JobState.DONE:
        return "all" if is_organiser(user) and job is not None else ""
    if is_organiser(user) or state.release == Release.ALL:
        return "all"
    if state.release == Release.OWN and user.is_authenticated:
        return "own"
    return ""


def may_see_game(user, seats: list[str], visible: str) -> bool:
    """Whether ``user`` may see a final's game between ``seats`` (names, as the bots play)."""
    return visible == "all" or (visible == "own" and user.username in seats)


def ladder_visible(user) -> str:
    """What of the ladder's standings ``user`` may see: "all", "own" (their own entry's line: the
    configuration hides the standings during the round) or "" (nothing: the ladder is off, or the
    standings are hidden and they are no contestant)."""
    ladder = contest().ladder
    if not ladder.enabled:
        return ""
    if is_organiser(user) or ladder.visible:
        return "all"
    return "own" if user.is_authenticated else ""


def ladder_game_for(user, number: int):
    """The ladder game ``number`` if ``user`` may see its replay (an author of one of its two
    submissions, or the organiser); else 404, as for a game that does not exist."""
    from arena.contest.models import LadderGame

    game = LadderGame.objects.select_related("first", "second").filter(pk=number).first()
    if game is None or not (is_organiser(user) or (user.is_authenticated and user.pk in (
            game.first.author_id, game.second.author_id))):
        raise Http404("no such game")
    return game
