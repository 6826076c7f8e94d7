"""The contest's pages.  Views stay thin: who may see what is ``permissions``', the work is the runner's
(a view only writes jobs and reads results), an upload's checks are ``uploads``'."""

from __future__ import annotations

import datetime as dt
import re

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import authenticate, get_user_model, login, logout, password_validation
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from arena.contest import permissions as can
from arena.contest import site, uploads
from arena.contest.models import (
    ApiToken,
    Contestant,
    ContestState,
    Invitation,
    Job,
    JobKind,
    JobState,
    LoginFailure,
    Release,
    Status,
    Submission,
)
from arena.contest.security import REPLAY_POLICY, client_address
from arena.errors import ArenaError
from arena.text import display

#: A contestant's login name: it names their bot in the final's tables and files.
USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{1,30}")


def _page(request: HttpRequest, template: str, status: int = 200, **context) -> HttpResponse:
    state = ContestState.get()
    context.update(contest=can.contest(), phase=can.phase(state), phases=can.PHASES, deadline=can.deadline(state),
                   organiser=can.is_organiser(request.user), now=timezone.now())
    return render(request, f"contest/{template}", context, status=status)


# -------------------------------------------------------------------------------------------- people
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return _page(request, "welcome.html")
    if can.is_organiser(request.user):
        return redirect("organiser")
    return dashboard(request)


def login_view(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _page(request, "login.html")
    username = request.POST.get("username", "")[:150]
    address = client_address(request)
    if LoginFailure.too_many(username, address):
        return _page(request, "login.html", status=429,
                     error="Too many failed logins: wait 15 minutes, then try again.")
    user = authenticate(request, username=username, password=request.POST.get("password", ""))
    if user is None:
        LoginFailure.objects.create(username=username, address=address)
        return _page(request, "login.html", status=403, error="Wrong name or password.")
    LoginFailure.forget(username)
    login(request, user)
    return redirect("home")


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    logout(request)
    return redirect("home")


def register(request: HttpRequest, token: str = "") -> HttpResponse:
    """Registration: with an unused invitation's link, or by anyone where the configuration allows."""
    invitation = Invitation.objects.filter(token=token, used_by=None).first() if token else None
    if can.contest().registration != "open" and invitation is None:
        return _page(request, "message.html", status=403, title="Registration",
                     text="This contest registers contestants by invitation: ask the organiser for a link.")
    if request.method != "POST":
        return _page(request, "register.html", token=token)
    username = request.POST.get("username", "")
    password = request.POST.get("password", "")
    error = _username_problem(username)
    if not error:
        try:
            password_validation.validate_password(password, get_user_model()(username=username))
        except ValidationError as exc:
            error = " ".join(exc.messages)
    if error:
        return _page(request, "register.html", status=400, token=token, error=error, username=username)
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(username=username, password=password)
            Contestant.objects.create(user=user)
            # (taken in the same transaction, on the condition that it is still unused: two people racing
            # for one link register once)
            if invitation is not None and not Invitation.objects.filter(pk=invitation.pk, used_by=None).update(
                    used_by=user):
                raise _InvitationUsed
    except _InvitationUsed:
        return _page(request, "register.html", status=400, token=token, error="This invitation is used.")
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect("home")


class _InvitationUsed(Exception):
    pass


def _username_problem(username: str) -> str:
    if not USERNAME.fullmatch(username):
        return ("A name is 2 to 31 letters, digits, '-' or '_', starting with a letter or digit: it names your "
                "bot in the results.")
    if get_user_model().objects.filter(username__iexact=username).exists():
        return "That name is taken."
    return ""


# --------------------------------------------------------------------------------------- submissions
@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    contestant = _contestant(request)
    mine = Submission.objects.filter(author=request.user)
    from arena.contest import ladder_pages

    return _page(request, "dashboard.html", submissions=mine[:200], entry=contestant.current_entry(),
                 chosen=contestant.entry_id, contestant=contestant, limits=can.contest().submissions,
                 ladder=ladder_pages.mine(request.user))


def _contestant(request: HttpRequest) -> Contestant:
    try:
        return request.user.contestant
    except Contestant.DoesNotExist:
        raise PermissionDenied("the organiser's account submits no bots") from None


@login_required
@require_POST
def upload(request: HttpRequest) -> HttpResponse:
    contestant = _contestant(request)
    given = request.FILES.get("bot")
    try:
        submission = receive(contestant, given.name if given else "", given.read() if given else None)
    except uploads.UploadRefused as exc:
        messages.error(request, str(exc))
        return redirect("home")
    messages.success(request, f"Submission #{submission.pk} is received; its check is queued.")
    return redirect("submission", number=submission.pk)


def receive(contestant: Contestant, filename: str, data: bytes | None) -> Submission:
    """Take one upload of ``contestant``'s: checked against the phase, their limits and ``uploads``'
    rules, written to disk (forced) before its row and its check's job are made, in one transaction."""
    limits = can.contest().submissions
    if can.phase() != can.OPEN:
        raise uploads.UploadRefused("Submissions are closed (the deadline has passed, or the organiser closed them).")
    if contestant.disqualified:
        raise uploads.UploadRefused("You are disqualified: " + display(contestant.disqualified))
    if data is None:
        raise uploads.UploadRefused("Choose a file to upload.")
    found = uploads.inspect(filename, data, upload_limits())
    _check_language(found)
    with transaction.atomic():
        # (the contestant's row locked while their uploads are counted: two at once cannot both pass the limit)
        list(Contestant.objects.select_for_update().filter(pk=contestant.pk).values_list("pk", flat=True))
        now = timezone.now()
        mine = Submission.objects.filter(author=contestant.user)
        if mine.filter(uploaded__gte=now - dt.timedelta(hours=1)).count() >= limits.per_hour:
            raise uploads.UploadRefused(f"At most {limits.per_hour} submissions an hour: try again later.")
        if mine.filter(uploaded__gte=now - dt.timedelta(days=1)).count() >= limits.per_day:
            raise uploads.UploadRefused(f"At most {limits.per_day} submissions a day: try again tomorrow.")
        sha = site.keep_upload(settings.CONTEST, data)  # (on disk, forced, before the row is committed)
        submission = Submission.objects.create(author=contestant.user, filename=filename, name=found.name,
                                               kind=found.kind, sha256=sha, size=len(data))
        Job.queue(JobKind.CHECK, submission)
    return submission


def _check_language(found: uploads.Upload) -> None:
    """A source in a language the contest does not take is refused at once (an archive's main file is
    checked by the runner, which finds its language as it compiles it)."""
    allowed = can.contest().languages
    if not allowed or found.kind != "source":
        return
    from arena import languages

    row = languages.load(None).of(found.files[0])
    if row is None or row.name not in allowed:
        raise uploads.UploadRefused(f"{display(found.files[0])!r} is not in a language of this contest "
                                    f"(allowed: {', '.join(allowed)}).")


def upload_limits() -> uploads.UploadLimits:
    limits = can.contest().submissions
    return uploads.UploadLimits(max_bytes=limits.max_bytes, max_files=limits.max_files,
                                max_unpacked_bytes=limits.max_unpacked_bytes)


@login_required
def submission(request: HttpRequest, number: int) -> HttpResponse:
    found = can.submission_for(request.user, number)
    report = found.report or {}
    return _page(request, "submission.html", submission=found, report=report,
                 report_text=_report_text(report), job=found.jobs.order_by("-id").first())


def _report_text(report: dict) -> str:
    if not report:
        return ""
    from arena.check import Report

    return Report.from_json(report).render()


@login_required
@require_POST
def choose_entry(request: HttpRequest, number: int) -> HttpResponse:
    contestant = _contestant(request)
    found = can.submission_for(request.user, number)
    if found.author_id != request.user.pk or found.status != Status.ACCEPTED:
        messages.error(request, "Only an accepted submission of yours can be your entry.")
        return redirect("submission", number=number)
    if can.phase() != can.OPEN:
        messages.error(request, "The entries are fixed: the deadline has passed.")
        return redirect("submission", number=number)
    contestant.entry = found
    contestant.save(update_fields=["entry"])
    messages.success(request, f"Submission #{found.pk} is your entry.")
    return redirect("home")


@login_required
def check_game(request: HttpRequest, number: int, case: int) -> HttpResponse:
    """The replay of one game of a check (feedback level "games"): its author's and the organiser's."""
    found = can.submission_for(request.user, number)
    cases = (found.report or {}).get("cases", [])
    if not 0 <= case < len(cases) or not cases[case].get("record"):
        raise Http404("no such game")
    return _replay_or_why(request, cases[case]["record"], back=f"/submissions/{number}/")


def _replay_or_why(request: HttpRequest, record: dict, back: str) -> HttpResponse:
    """A check's or ladder game's replay; or, when its board is gone from the folder, a page saying so."""
    from arena.contest.games import check_replay

    try:
        return _replay_response(check_replay(can.contest(), record, back=back))
    except ArenaError as exc:
        return _page(request, "message.html", status=410, title="Replay", text=f"This replay cannot be drawn: {exc}.")


def _replay_response(html: str) -> HttpResponse:
    response = HttpResponse(html, content_type="text/html; charset=utf-8")
    response.headers["Content-Security-Policy"] = REPLAY_POLICY
    return response


# ------------------------------------------------------------------------------------ the command line
@login_required
def token(request: HttpRequest) -> HttpResponse:
    issued = ApiToken.issue(request.user) if request.method == "POST" else ""
    return _page(request, "token.html", issued=issued, has=ApiToken.objects.filter(user=request.user).exists())


def _token_user(request: HttpRequest):
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        return None
    found = ApiToken.objects.select_related("user").filter(digest=ApiToken.digest_of(header[7:].strip())).first()
    return found.user if found and found.user.is_active else None


@csrf_exempt  # (a token in a header, never a cookie: no other site can make a browser send it)
@require_POST
def api_submit(request: HttpRequest) -> HttpResponse:
    user = _token_user(request)
    if user is None:
        return JsonResponse({"error": "no valid token: make one on the site's 'Command line' page"}, status=401)
    try:
        contestant = user.contestant
    except Contestant.DoesNotExist:
        return JsonResponse({"error": "the organiser's account submits no bots"}, status=403)
    given = request.FILES.get("bot")
    try:
        found = receive(contestant, given.name if given else "", given.read() if given else None)
    except uploads.UploadRefused as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    return JsonResponse(_api_view(request, found), status=201)


@require_GET
def api_submission(request: HttpRequest, number: int) -> HttpResponse:
    user = _token_user(request)
    if user is None:
        return JsonResponse({"error": "no valid token"}, status=401)
    try:
        found = can.submission_for(user, number)
    except Http404:
        return JsonResponse({"error": "no such submission"}, status=404)
    return JsonResponse(_api_view(request, found))


def _api_view(request: HttpRequest, found: Submission) -> dict:
    return {"id": found.pk, "name": found.name, "sha256": found.sha256, "size": found.size,
            "status": found.status, "message": found.message, "report": _report_text(found.report or {}),
            "url": request.build_absolute_uri(f"/submissions/{found.pk}/")}


# ------------------------------------------------------------------------------------------- ladder
def ladder(request: HttpRequest) -> HttpResponse:
    from arena.contest import ladder_pages

    found = ladder_pages.context(request.user)
    if not found["visible"]:
        return _page(request, "message.html", status=404 if not can.contest().ladder.enabled else 403,
                     title="Ladder", text="There is no ladder in this contest." if not can.contest().ladder.enabled
                     else "The ladder's standings are shown to contestants only: log in.")
    return _page(request, "ladder.html", **found)


@require_GET
def ladder_data(request: HttpRequest) -> HttpResponse:
    """The ladder page's live part, for its script: the version of the standings, and, when it is not
    the one the page has (``?since=``), the standings as data and as the page's HTML."""
    from django.template.loader import render_to_string

    from arena.contest import ladder_pages

    found = ladder_pages.context(request.user)
    if not found["visible"]:
        return JsonResponse({"error": "the ladder is not shown to you"}, status=403)
    answer = {"version": found["version"], "games": found["snapshot"].games if found["snapshot"] else 0}
    if request.GET.get("since") != found["version"]:
        answer["rows"] = [row.to_json() for row in found["rows"]]
        answer["html"] = render_to_string("contest/ladder_live.html", found, request=request)
    return JsonResponse(answer)


def ladder_game(request: HttpRequest, number: int) -> HttpResponse:
    """The replay of a ladder game: its players' authors' and the organiser's."""
    game = can.ladder_game_for(request.user, number)
    return _replay_or_why(request, game.record, back="/ladder/")


# ------------------------------------------------------------------------------------------ challenges
@login_required
def challenges(request: HttpRequest) -> HttpResponse:
    """A contestant's challenges and the forms that ask for one (arena.contest.challenges)."""
    from arena.contest import challenges as ch
    from arena.contest.models import Challenge

    ladder = can.contest().ladder
    if not ladder.enabled or not ladder.challenges_per_hour:
        return _page(request, "message.html", status=404, title="Challenges", text="This contest has no challenges.")
    if request.method == "POST":
        fields = ("kind", "opponent", "a", "b", "pairs", "elo0", "elo1")
        try:
            made = ch.ask(request.user, **{name: request.POST.get(name, "")[:100] for name in fields})
        except ch.Refused as exc:
            messages.error(request, str(exc))
            return redirect("challenges")
        return redirect("challenge", made.pk)
    own = Submission.objects.filter(author=request.user, status=Status.ACCEPTED).order_by("-id")
    return _page(request, "challenges.html", challenges=Challenge.objects.filter(author=request.user)
                 .select_related("mine", "opponent__author")[:50], opponents=ch.opponents(request.user), own=own,
                 settings=ladder, mine_name=ch.mine_name, opponent_name=ch.opponent_name)


def challenge(request: HttpRequest, number: int) -> HttpResponse:
    from arena.contest import challenges as ch

    return _page(request, "challenge.html", **ch.context(ch.challenge_for(request.user, number)))


@require_GET
def challenge_data(request: HttpRequest, number: int) -> HttpResponse:
    """A challenge page's live part, for its script (as the ladder's: ``?since=`` the version it has)."""
    from django.template.loader import render_to_string

    from arena.contest import challenges as ch

    try:
        found = ch.context(ch.challenge_for(request.user, number))
    except Http404:
        return JsonResponse({"error": "no such challenge"}, status=404)
    answer = {"version": found["version"], "pairs": found["pairs"], "state": found["challenge"].state}
    if request.GET.get("since") != found["version"]:
        answer["html"] = render_to_string("contest/challenge_live.html", found, request=request)
    return JsonResponse(answer)


def challenge_game(request: HttpRequest, number: int, game: int) -> HttpResponse:
    """The replay of a challenge's game: its challenger's and the organiser's."""
    from arena.contest import challenges as ch

    found = ch.challenge_for(request.user, number).games.filter(pk=game).first()
    if found is None:
        raise Http404("no such game")
    return _replay_or_why(request, found.record, back=f"/challenges/{number}/")


# ------------------------------------------------------------------------------------------ results
def results(request: HttpRequest) -> HttpResponse:
    visible = can.results_visible(request.user)
    if not visible:
        return _page(request, "message.html", status=403 if can.phase() != can.PUBLISHED else 200,
                     title="Results", text="The final's results are not released yet.")
    from arena.contest.games import final_games, final_tables

    games = [game for game in final_games() if can.may_see_game(request.user, game["seats"], visible)]
    return _page(request, "results.html", tables=final_tables() if visible == "all" else "",
                 games=games, visible=visible)


def final_game(request: HttpRequest) -> HttpResponse:
    from arena.contest.games import final_replay, final_seats

    game_id = request.GET.get("id", "")
    visible = can.results_visible(request.user)
    seats = final_seats(game_id) if visible else None
    if seats is None or not can.may_see_game(request.user, seats, visible):
        raise Http404("no such game")
    return _replay_response(final_replay(game_id))


# ---------------------------------------------------------------------------------------- organiser
def _organiser_only(request: HttpRequest) -> None:
    if not can.is_organiser(request.user):
        raise Http404("no such page")


@login_required
def organiser(request: HttpRequest) -> HttpResponse:
    _organiser_only(request)
    state = ContestState.get()
    contestants = Contestant.objects.select_related("user").order_by("user__username")
    return _page(request, "organiser.html", state=state, contestants=contestants,
                 entries={c.pk: c.current_entry() for c in contestants},
                 submissions=Submission.objects.select_related("author")[:100],
                 jobs=Job.objects.select_related("submission")[:50],
                 queued=Job.objects.filter(state=JobState.QUEUED).count(),
                 invitations=Invitation.objects.filter(used_by=None).order_by("-id")[:20],
                 releases=Release.choices, runner_alive=_runner_alive(state), final=can.final_job(),
                 ladder_settle=_ladder_settle())


def _ladder_settle() -> str:
    from arena.contest import ladder_pages

    return ladder_pages.after_deadline() if can.contest().ladder.enabled else ""


def _runner_alive(state: ContestState) -> bool:
    return bool(state.runner_seen and timezone.now() - state.runner_seen < dt.timedelta(seconds=30))


@login_required
@require_POST
def organiser_action(request: HttpRequest, action: str) -> HttpResponse:
    _organiser_only(request)
    state = ContestState.get()
    try:
        text = _act(request, action, state)
    except ArenaError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, text)
    return redirect("organiser")


def _act(request: HttpRequest, action: str, state: ContestState) -> str:
    post = request.POST
    if action == "recheck":
        found = get_object_or_404(Submission, pk=_number(post.get("submission")))
        with transaction.atomic():
            Submission.objects.filter(pk=found.pk).update(status=Status.QUEUED, message="")
            Job.queue(JobKind.CHECK, found)
        return f"Submission #{found.pk} is queued to be checked again."
    if action == "disqualify":
        contestant = get_object_or_404(Contestant, pk=_number(post.get("contestant")))
        contestant.disqualified = post.get("reason", "").strip()[:2000]
        contestant.save(update_fields=["disqualified"])
        return (f"{contestant} is disqualified." if contestant.disqualified else f"{contestant} is no longer "
                "disqualified.")
    if action == "deadline":
        try:
            moment = dt.datetime.fromisoformat(post.get("deadline", ""))
        except ValueError:
            raise ArenaError(f"{post.get('deadline', '')!r} is not a date and time (2027-03-01T18:00+02:00)") from None
        state.deadline = moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)
        state.closed = False
        state.save(update_fields=["deadline", "closed"])
        return f"The deadline is now {state.deadline.isoformat()}."
    if action == "close":
        # (the round ends now: the deadline moves here, and the ladder's games after it count from now)
        state.deadline, state.closed = min(can.deadline(state), timezone.now()), True
        state.save(update_fields=["deadline", "closed"])
        return "Submissions are closed."
    if action == "final":
        from arena.contest.games import start_final

        return start_final(post.get("cluster", "").strip()[:300])
    if action == "release":
        if post.get("release") not in Release.values:
            raise ArenaError(f"no such release: {post.get('release')!r}")
        if post["release"] != Release.HIDDEN and can.phase(state) not in (can.DONE, can.PUBLISHED):
            raise ArenaError("There is nothing to release until the final is played: start the final first.")
        state.release = post["release"]
        state.save(update_fields=["release"])
        return f"The results are released to: {state.get_release_display()}."
    if action == "invite":
        invitation = Invitation.make(post.get("note", "")[:200])
        return f"Invitation for {invitation.note or 'anyone'}: {request.build_absolute_uri('/invite/' + invitation.token + '/')}"
    raise Http404("no such action")


def _number(text: str | None) -> int:
    if not text or not text.isdigit():
        raise Http404("no such row")
    return int(text)


def health(request: HttpRequest) -> HttpResponse:
    """For a load balancer or a test: the site answers and reaches its database."""
    state = ContestState.get()
    return JsonResponse({"ok": True, "phase": can.phase(state), "runner": _runner_alive(state)})

