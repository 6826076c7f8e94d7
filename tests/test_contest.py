"""The contest server, run for real: ``arena contest new``, ``arena serve`` (gunicorn and the runner), a
client over HTTP, on SQLite and on a real PostgreSQL server.  Each attack is written as the attacker
would try it, before the defence: another contestant's numbers, the organiser's forms, forged forms
without their CSRF token, hostile uploads, a flood of uploads and logins."""

from __future__ import annotations

import html
import io
import json
import os
import re
import signal
import tarfile
import time
import urllib.parse
import zipfile

import pytest
from contest_site import (
    PASSWORD,
    ROOT,
    Client,
    Database,
    Site,
    arena,
    free_port,
    multipart,
    submission_number,
)

pytest.importorskip("django")

GOOD = (ROOT / "bots" / "random.py").read_bytes()
# Writes a move no board allows: the check says illegal, with the rule.
ILLEGAL = b"open('game.out', 'w').write('1\\n999 999\\n')\n"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def database(request):
    found = Database(request.param)
    yield found
    found.drop()


@pytest.fixture(scope="module")
def site(database, tmp_path_factory):
    made = Site(tmp_path_factory.mktemp("contest") / "c", database).start()
    yield made
    made.stop()


def _contestant(site: Site, name: str) -> Client:
    client = site.client()
    answer = client.register(name)
    assert answer.status == 200 and "My submissions" in answer.text, answer.text[:3000]
    return client


def test_a_contest_folder_keeps_its_secrets_to_its_owner(site):
    assert (site.folder / "secret.key").stat().st_mode & 0o777 == 0o600
    assert site.folder.stat().st_mode & 0o077 == 0
    assert "organiser 'organiser' made" in site.made.stdout
    assert PASSWORD not in site.made.stdout  # (given in a file: not printed)


def test_a_submission_is_checked_and_its_first_moves_reported(site):
    alice = _contestant(site, "alice")
    number = submission_number(alice.upload("alice.py", GOOD))
    page = site.wait_for(alice, number)
    assert "<b>accepted</b>" in page.text, page.text
    assert "board1" in page.text and "seat 2" in page.text
    assert page.headers["Content-Security-Policy"].startswith("default-src 'self'")
    home = alice.get("/")
    assert "#" + str(number) in home.text and "entry" in home.text


def test_an_illegal_first_move_is_refused_with_the_rule(site):
    bob = _contestant(site, "bob")
    page = site.wait_for(bob, submission_number(bob.upload("bob.py", ILLEGAL)))
    assert "<b>refused</b>" in page.text
    assert "illegal" in page.text


def test_another_contestants_submission_is_not_found_by_its_number(site):
    owner = _contestant(site, "owner")
    number = submission_number(owner.upload("secret.py", GOOD))
    thief = _contestant(site, "thief")
    for path in (f"/submissions/{number}/", f"/submissions/{number}/games/0/"):
        answer = thief.get(path)
        assert answer.status == 404 and "secret" not in answer.text
    # ... nor can it be made their entry, nor read through the API with their own token
    assert thief.post(f"/submissions/{number}/entry/").status == 404
    token = _token(thief)
    api = Client(site.base).get(f"/api/submissions/{number}/", headers={"Authorization": f"Bearer {token}"})
    assert api.status == 404
    assert owner.get(f"/submissions/{number}/").status == 200


def _token(client: Client) -> str:
    page = client.post("/token/")
    return re.search(r'<pre id="token">([^<]+)</pre>', page.text).group(1)


def test_a_contestant_cannot_act_as_the_organiser(site):
    mallory = _contestant(site, "mallory")
    assert mallory.get("/organiser/").status == 404
    for action, fields in (("release", {"release": "all"}), ("close", {}), ("final", {}),
                           ("disqualify", {"contestant": "1", "reason": "x"}), ("invite", {})):
        assert mallory.post(f"/organiser/{action}/", fields).status == 404
    assert "results released to: <b>hidden" in site.organiser().get("/organiser/").text
    admin = mallory.get("/admin/")
    assert "Log in" in admin.text and "Site administration" not in admin.text


def test_every_form_refuses_a_request_without_its_csrf_token(site):
    organiser = site.organiser()
    contestant = _contestant(site, "forger")
    forged = [(organiser, "/organiser/release/", {"release": "all"}), (organiser, "/organiser/close/", {}),
              (contestant, "/submissions/", {}), (contestant, "/token/", {}), (contestant, "/logout/", {}),
              (site.client(), "/login/", {"username": "organiser", "password": PASSWORD}),
              (site.client(), "/register/", {"username": "nocsrf", "password": "contestant-password-1"}),
              (organiser, "/organiser/recheck/", {"submission": "1"}),
              (organiser, "/organiser/disqualify/", {"contestant": "1", "reason": "forged"}),
              (organiser, "/organiser/deadline/", {"deadline": "2020-01-01T00:00"}),
              (organiser, "/organiser/final/", {}), (organiser, "/organiser/invite/", {"note": "forged"}),
              (contestant, "/submissions/1/entry/", {})]
    for client, path, fields in forged:
        answer = client.post(path, fields, csrf=False)
        assert answer.status == 403, (path, answer.status)
        # ... nor with a token of another session
        answer = client.post(path, {**fields, "csrfmiddlewaretoken": "x" * 64}, csrf=False)
        assert answer.status == 403, (path, answer.status)
    assert "results released to: <b>hidden" in organiser.get("/organiser/").text
    assert "forged" not in organiser.get("/organiser/").text  # (no one disqualified, no invitation made)
    # The API takes a token in a header, never the session's cookie: a forged form sent with the
    # contestant's cookies submits nothing
    answer = contestant.post("/api/submissions/", files={"bot": ("forged.py", GOOD)}, csrf=False)
    assert answer.status == 401 and "forged.py" not in contestant.get("/").text


def test_hostile_uploads_are_refused_with_what_is_wrong(site):
    eve = _contestant(site, "eve")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        info = tarfile.TarInfo("../../evil.py")
        info.size = len(GOOD)
        archive.addfile(info, io.BytesIO(GOOD))
    answer = eve.upload("evil.tar.gz", buffer.getvalue())
    assert answer.status == 200 and "evil.py" in answer.text and "/submissions/" not in answer.url
    assert not (site.folder.parent / "evil.py").exists()
    too_big = eve.upload("big.py", b"#" * (2**20 + 1))
    assert "big.py" in too_big.text or "1 MiB" in too_big.text or "too big" in too_big.text
    # (Django's parser keeps only the printable characters of a file name, and its last part)
    for name in ("\x1b[31mred.py", "\u202eyp.evil.py", "../../up.py"):
        answer = eve.upload(name, GOOD)
        assert "\x1b" not in answer.text and "\u202e" not in answer.text and "../" not in answer.text


def test_names_and_outputs_a_contestant_controls_are_escaped(site):
    mark = _contestant(site, "marker")
    script = GOOD + b"\nimport sys\nprint('<script>alert(1)</script>\\x1b[2J', file=sys.stderr)\nsys.exit(3)\n"
    page = site.wait_for(mark, submission_number(mark.upload("x.py", script)))
    assert "crash" in page.text and "&lt;script&gt;alert(1)" in page.text
    assert "<script>alert" not in page.text and "\x1b" not in page.text
    bad = site.client().register("<b>x</b>")
    assert bad.status == 400 and "<b>x</b>" not in bad.text


def test_a_flood_of_uploads_stops_at_the_hourly_limit(site):
    from concurrent.futures import ThreadPoolExecutor

    flood = _contestant(site, "flood")
    answers = [flood.upload(f"f{n}.py", GOOD + f"# {n}\n".encode()) for n in range(8)]
    assert all("/submissions/" in answer.url for answer in answers)
    # ... and six more at once (two web workers): only two of them pass the limit of 10
    with ThreadPoolExecutor(6) as pool:
        burst = list(pool.map(lambda n: flood.upload(f"g{n}.py", GOOD + f"# g{n}\n".encode()), range(6)))
    assert sum("/submissions/" in answer.url for answer in burst) == 2
    assert all("At most 10 submissions an hour" in answer.text for answer in burst if "/submissions/" not in answer.url)


def test_logins_are_rate_limited(site):
    _contestant(site, "victim")
    guesser = site.client()
    statuses = [guesser.login("victim", f"wrong-{n}").status for n in range(6)]
    assert statuses[:5] == [403] * 5 and statuses[5] == 429
    assert guesser.login("victim", "contestant-password-1").status == 429  # (even the right one, for a while)
    # ... the admin site's login form is the same one, with the same limit
    admin = site.client()
    for n in range(6):
        answer = admin.post("/admin/login/", {"username": "someone-else", "password": f"guess-{n}"})
    assert answer.status == 429


@pytest.mark.parametrize("proxy", [False, True], ids=["direct", "behind-a-proxy"])
def test_the_login_limit_counts_the_address_a_guess_came_from(proxy, tmp_path):
    """The attack: each guess claims another client address in X-Forwarded-For.  Served directly, the
    header is the guesser's own text: the limit counts the connection, so twenty guesses lock that
    address out whatever they claim.  Behind a reverse proxy (ARENA_PROXY=1) every connection comes
    from the proxy, so the limit counts the address the proxy forwards: one guesser does not lock out
    every contestant."""
    site = Site(tmp_path / "c", Database("sqlite")).start(env={"ARENA_PROXY": "1" if proxy else "0"})
    try:
        guesser = site.client()
        statuses = [guesser.post("/login/", {"username": f"nobody-{n}", "password": "guess"},
                                 headers={"X-Forwarded-For": "203.0.113.7" if proxy else f"198.51.100.{n}"}).status
                    for n in range(21)]
        assert statuses[:20] == [403] * 20 and statuses[20] == 429
        answer = site.client().post("/login/", {"username": "organiser", "password": PASSWORD},
                                    headers={"X-Forwarded-For": "203.0.113.8"})
        assert answer.status == (200 if proxy else 429), answer.text[:2000]
    finally:
        site.stop()


def test_the_command_line_submits_with_a_token_from_the_environment(site, tmp_path):
    carol = _contestant(site, "carol")
    token = _token(carol)
    bot = tmp_path / "carolbot.py"
    bot.write_bytes(GOOD)
    done = arena("submit", site.base, str(bot), "--wait", env={**os.environ, "ARENA_TOKEN": token}, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "is accepted" in done.stdout and "board1" in done.stdout
    refused = arena("submit", site.base, str(bot), env={**os.environ, "ARENA_TOKEN": "arena_wrong"}, check=False)
    assert refused.returncode == 2 and "401" in refused.stderr
    none = arena("submit", site.base, str(bot), env={k: v for k, v in os.environ.items() if k != "ARENA_TOKEN"},
                 check=False)
    assert none.returncode == 2 and "ARENA_TOKEN" in none.stderr


def test_a_second_server_of_one_contest_is_refused(site):
    second = arena("serve", str(site.folder), "--port", "1", check=False)
    assert second.returncode == 2 and "another arena serve" in second.stderr


def test_arena_check_for_a_contest_says_what_the_server_says(site, tmp_path):
    bot = tmp_path / "offline.py"
    bot.write_bytes(ILLEGAL)
    done = arena("check", str(bot), "--contest", str(site.folder), check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    contestant = _contestant(site, "offline")
    page = site.wait_for(contestant, submission_number(contestant.upload("offline.py", ILLEGAL)))
    report = page.text.split('<pre id="report">')[1].split("</pre>")[0]
    # The same lines, but for the CPU time of each run and the cases where the house bot (random) opened
    def lines(text: str) -> list[str]:
        return [re.sub(r"cpu \d+\.\d+ s", "cpu _ s", line) for line in text.splitlines() if "moving first" in line]

    assert lines(html.unescape(report)) == lines(done.stdout) and len(lines(done.stdout)) == 4


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_folder_bot_in_a_zip_is_accepted(site):
    zoe = _contestant(site, "zoe")
    page = site.wait_for(zoe, submission_number(zoe.upload("zoebot.zip", _zip({"zoebot/main.py": GOOD}))))
    assert "<b>accepted</b>" in page.text


def test_a_contestant_chooses_their_entry_among_their_accepted_submissions(site):
    chooser = _contestant(site, "chooser")
    first, second = (submission_number(chooser.upload(f"{name}.py", GOOD + f"# {name}\n".encode()))
                     for name in ("first", "second"))
    refused = submission_number(chooser.upload("bad.py", ILLEGAL))
    for number in (first, second, refused):
        site.wait_for(chooser, number)
    assert f"Your entry: <a href=\"/submissions/{second}/\">#{second}" in chooser.get("/").text  # (the latest)
    page = chooser.post(f"/submissions/{first}/entry/")
    assert f"Your entry: <a href=\"/submissions/{first}/\">#{first}" in page.text
    assert "your latest accepted submission" not in page.text
    assert "Only an accepted submission" in chooser.post(f"/submissions/{refused}/entry/").text
    # another contestant cannot make it theirs, nor move it
    assert _contestant(site, "poacher").post(f"/submissions/{first}/entry/").status == 404
    assert f"Your entry: <a href=\"/submissions/{first}/\">#{first}" in chooser.get("/").text


def test_the_compile_level_says_whether_it_compiled_with_the_compilers_words(tmp_path):
    site = Site(tmp_path / "c", Database("sqlite"), feedback="compile").start()
    try:
        cole = _contestant(site, "cole")
        page = site.wait_for(cole, submission_number(cole.upload("cole.py", GOOD)))
        assert "<b>accepted</b>" in page.text and "ready to run" in page.text and "board1" not in page.text
        page = site.wait_for(cole, submission_number(cole.upload("broken.c", b"int main(void) { return nonsense; }\n")))
        assert "<b>refused</b>" in page.text and "nonsense" in page.text and "undeclared" in page.text, page.text
    finally:
        site.stop()


def test_arena_check_takes_an_archive_as_the_server_does(site, tmp_path):
    """A folder bot as a zip is checked as the server checks it (unpacked by the same code, under the
    contest's limits), and an archive the server refuses is refused offline with the server's words."""
    good = tmp_path / "zipbot.zip"
    good.write_bytes(_zip({"zipbot/main.py": GOOD}))
    done = arena("check", str(good), "--contest", str(site.folder), check=False)
    assert done.returncode == 0 and "accepted" in done.stdout, done.stdout + done.stderr
    hostile = tmp_path / "climber.zip"
    hostile.write_bytes(_zip({"climber/main.py": GOOD, "climber/../../escaped.py": GOOD}))
    offline = arena("check", str(hostile), "--contest", str(site.folder), check=False)
    assert offline.returncode == 1 and offline.stdout.startswith("refused: "), offline.stdout + offline.stderr
    said = offline.stdout.removeprefix("refused: ").strip()
    online = _contestant(site, "climber").upload("climber.zip", hostile.read_bytes())
    assert html.escape(said, quote=True) in online.text or said in html.unescape(online.text), (said, online.text[-2000:])
    assert not (tmp_path.parent / "escaped.py").exists() and not (tmp_path / "escaped.py").exists()
    # ... and without a contest, an archive is unpacked the same way under the default limits
    plain = arena("check", str(good), "--game", "paint", "--boards", "boards/group1", check=False)
    assert plain.returncode == 0, plain.stdout + plain.stderr


def test_the_final_and_its_results_released_in_stages(site):
    organiser = site.organiser()
    alice, bob = site.client(), site.client()
    assert alice.login("alice", "contestant-password-1").status == 200
    assert bob.login("carol", "contestant-password-1").status == 200
    started = organiser.post("/organiser/final/")
    assert "starts after the deadline" in started.text
    early = organiser.post("/organiser/release/", {"release": "all"})  # (before the final: refused)
    assert "nothing to release until the final is played" in early.text
    assert site.client().get("/health/").json()["phase"] == "open"
    # zoe is disqualified before the final: her accepted entry is left out of it
    zoe = re.search(r'<tr><td class="l">zoe</td>.*?name="contestant" value="(\d+)"', organiser.get("/organiser/").text,
                    re.DOTALL)
    assert "is disqualified" in organiser.post("/organiser/disqualify/", {"contestant": zoe.group(1),
                                                                         "reason": "copied <b>code</b>"}).text
    organiser.post("/organiser/close/")
    assert alice.upload("late.py", GOOD).url.endswith("/")  # (refused: closed)
    organiser.post("/organiser/final/")
    deadline = time.monotonic() + 300
    while "final-state\">done" not in (page := organiser.get("/organiser/")).text:
        assert time.monotonic() < deadline and "final-state\">failed" not in page.text, page.text[-3000:]
        time.sleep(1)
    assert "not released" in alice.get("/results/").text
    # The attack: replays asked for by their ids (the organiser sees them; a contestant could guess them)
    games = {html.unescape(found) for found in re.findall(r'href="/results/game/\?id=([^"]+)"',
                                                          organiser.get("/results/").text)}
    theirs = next(game for game in games if "alice" not in urllib.parse.unquote(game).split("|"))
    hers = next(game for game in games if "alice" in urllib.parse.unquote(game).split("|"))
    assert organiser.get(f"/results/game/?id={theirs}").status == 200
    for game in (theirs, hers):
        assert alice.get(f"/results/game/?id={game}").status == 404  # (not yet released)
    organiser.post("/organiser/release/", {"release": "own"})
    own = alice.get("/results/")
    assert "Your games" in own.text and "alice" in own.text
    assert all("alice" in row for row in own.text.split("<tr>")[2:-1] if "board" in row)
    assert alice.get(f"/results/game/?id={hers}").status == 200
    assert alice.get(f"/results/game/?id={theirs}").status == 404  # (another's game)
    assert site.client().get(f"/results/game/?id={hers}").status == 404  # (a stranger)
    organiser.post("/organiser/release/", {"release": "all"})
    everyone = site.client().get("/results/")
    assert everyone.status == 200 and "carol" in everyone.text and "alice" in everyone.text
    game = everyone.text.split('href="/results/game/?id=')[1].split('"')[0]
    replay = site.client().get(f"/results/game/?id={game}")
    assert replay.status == 200 and "sandbox allow-scripts" in replay.headers["Content-Security-Policy"]
    # the final is an ordinary results folder
    shown = arena("show", str(site.folder / "results" / "final"))
    assert "alice" in shown.stdout and "carol" in shown.stdout and "zoe" not in shown.stdout


@pytest.mark.parametrize("kind", ["sqlite"])
def test_a_server_killed_mid_check_checks_it_again_when_started(kind, tmp_path):
    site = Site(tmp_path / "c", Database(kind)).start()
    try:
        slow = _contestant(site, "slow")
        number = submission_number(slow.upload("slow.py", GOOD + b"\nimport time\ntime.sleep(0.5)\n"))
        deadline = time.monotonic() + 60
        while "checking" not in slow.get(f"/submissions/{number}/").text:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        os.kill(site.process.pid, signal.SIGKILL)  # the server alone: its site and runner die with it
        site.process.wait()
        time.sleep(1)
        site.start()
        again = site.client()
        assert again.login("slow", "contestant-password-1").status == 200
        assert "<b>accepted</b>" in site.wait_for(again, number).text
        assert "queued again" in site.messages()
    finally:
        site.stop()


def test_bad_contest_configuration_is_named_by_file_and_key(tmp_path):
    site = Site(tmp_path / "c", Database("sqlite"))
    toml = site.folder / "contest.toml"
    toml.write_text(toml.read_text().replace('feedback = "first-move"', 'feedback = "everything"'))
    done = arena("serve", str(site.folder), check=False)
    assert done.returncode == 2 and "contest.toml" in done.stderr and "feedback" in done.stderr
    assert "'everything'" in done.stderr
    again = arena("contest", "new", str(site.folder), "--sample-boards", "boards/group1", "--final-boards",
                  "boards/group1", check=False)
    assert again.returncode == 2 and "not an empty folder" in again.stderr


def test_the_final_plays_on_a_dask_cluster_named_when_it_starts(tmp_path):
    """``arena contest final DIR --cluster ADDRESS``: the final's games are played by that scheduler's
    workers (a real scheduler and an arena worker, named w0, on this machine)."""
    pytest.importorskip("distributed")
    from test_cluster import Cluster

    cluster = Cluster(tmp_path).start(workers=1)
    site = Site(tmp_path / "c", Database("sqlite")).start()
    try:
        for name in ("north", "south"):
            client = _contestant(site, name)
            assert "<b>accepted</b>" in site.wait_for(client, submission_number(client.upload(f"{name}.py", GOOD))).text
        organiser = site.organiser()
        organiser.post("/organiser/close/")
        assert "not a Dask scheduler's address" in arena("contest", "final", str(site.folder), "--cluster",
                                                          "http://nowhere", check=False).stderr
        started = arena("contest", "final", str(site.folder), "--cluster", cluster.address)
        assert f"on the cluster at {cluster.address}" in started.stdout
        deadline = time.monotonic() + 240
        while "final-state\">done" not in (page := organiser.get("/organiser/")).text:
            assert time.monotonic() < deadline and "final-state\">failed" not in page.text, site.messages()[-3000:]
            time.sleep(1)
        records = [json.loads(line) for line in (site.folder / "results" / "final" / "games.jsonl").read_text().splitlines()]
        assert records and {record.get("worker") for record in records} == {"w0"}
        assert {tuple(sorted(record["seats"])) for record in records} == {("north", "south")}
    finally:
        site.stop()
        cluster.stop()


def test_a_contest_needs_boards_that_exist(tmp_path):
    done = arena("contest", "new", str(tmp_path / "c"), "--game", "paint", "--sample-boards", str(tmp_path / "none"),
                 "--final-boards", "boards/group1", check=False)
    assert done.returncode == 2 and "none" in done.stderr
    assert not (tmp_path / "c").exists()


def test_a_contest_whose_database_refuses_leaves_nothing_to_block_a_retry(tmp_path):
    """The database is reached last (the folder is filled by then): one that refuses the login must not
    leave a half-made folder that the next try calls "not an empty folder"."""
    password = tmp_path / "password"
    password.write_text(PASSWORD)
    args = ["contest", "new", str(tmp_path / "c"), "--game", "paint", "--sample-boards", "boards/group1",
            "--final-boards", "boards/group1", "--password-file", str(password)]
    refused = arena(*args, "--database", f"postgresql://nobody:wrong@127.0.0.1:{free_port()}/none", check=False)
    assert refused.returncode == 2 and not (tmp_path / "c").exists(), refused.stdout + refused.stderr
    assert "cannot reach the contest's database" in refused.stderr and "wrong" not in refused.stderr
    assert "Traceback" not in refused.stderr
    (tmp_path / "empty").mkdir()  # (an empty folder given is kept, emptied again)
    args[2] = str(tmp_path / "empty")
    refused = arena(*args, "--database", f"postgresql://nobody:wrong@127.0.0.1:{free_port()}/none", check=False)
    assert refused.returncode != 0 and (tmp_path / "empty").is_dir() and not any((tmp_path / "empty").iterdir())
    assert arena(*args).returncode == 0 and (tmp_path / "empty" / "contest.toml").is_file()


def test_export_and_import_carry_every_submission_and_account(site, tmp_path):
    """Exported from either database, imported into a new one of the same kind."""
    archive = tmp_path / "contest.tar.gz"
    arena("contest", "export", str(site.folder), str(archive))
    assert archive.stat().st_mode & 0o077 == 0
    moved = tmp_path / "moved"
    target = Database(site.database.kind)
    arena("contest", "import", str(archive), str(moved), *(["--database", target.url] if target.url else []))
    assert (moved / "secret.key").read_text() != (site.folder / "secret.key").read_text()
    again = Site.of(moved).start()
    try:
        alice = again.client()
        assert alice.login("alice", "contestant-password-1").status == 200
        page = alice.get("/")
        assert "alice.py" in page.text and "accepted" in page.text
    finally:
        again.stop()
        target.drop()


def test_games_feedback_shows_replays_that_survive_a_move_of_the_folder(tmp_path):
    """At the "games" level a check plays whole games against the house bots, with their replays.  The
    replays are drawn from the contest's boards, wherever its folder now lies: exported, the original
    gone, imported elsewhere, they still show (the records hold the path the board had when played)."""
    site = Site(tmp_path / "c", Database("sqlite"), feedback="games").start()
    try:
        dana = _contestant(site, "dana")
        number = submission_number(dana.upload("dana.py", GOOD))
        page = site.wait_for(dana, number)
        assert "<b>accepted</b>" in page.text, page.text
        links = re.findall(rf'href="(/submissions/{number}/games/\d+/)"', page.text)
        assert len(links) >= 2, page.text  # (each sample board, both seats)
        replay = dana.get(links[0])
        assert replay.status == 200 and "sandbox allow-scripts" in replay.headers["Content-Security-Policy"]
        assert "dana" in replay.text
        assert site.client().get(links[0]).url.endswith(f"/login/?next={links[0]}")  # (not to a stranger)
        arena("contest", "export", str(site.folder), str(tmp_path / "c.tar.gz"))
    finally:
        site.stop()
    site.folder.rename(tmp_path / "gone")
    moved = tmp_path / "moved"
    arena("contest", "import", str(tmp_path / "c.tar.gz"), str(moved))
    again = Site.of(moved).start()
    try:
        dana = again.client()
        assert dana.login("dana", "contestant-password-1").status == 200
        replay = dana.get(links[0])
        assert replay.status == 200 and "dana" in replay.text, replay.text[:2000]
    finally:
        again.stop()


def test_a_server_killed_mid_final_resumes_it_with_every_game_once(tmp_path):
    site = Site(tmp_path / "c", Database("sqlite")).start()
    try:
        slow = GOOD + b"\nimport time\ntime.sleep(0.3)\n"
        for name in ("first", "second"):
            client = _contestant(site, name)
            assert "<b>accepted</b>" in site.wait_for(client, submission_number(client.upload(f"{name}.py", slow))).text
        organiser = site.organiser()
        organiser.post("/organiser/close/")
        organiser.post("/organiser/final/")
        games = site.folder / "results" / "final" / "games.jsonl"
        deadline = time.monotonic() + 120
        while not games.exists() or not games.read_bytes().count(b"\n"):
            assert time.monotonic() < deadline, site.messages()[-3000:]
            time.sleep(0.1)
        os.kill(site.process.pid, signal.SIGKILL)
        site.process.wait()
        assert games.read_bytes().count(b"\n") < 8  # (killed mid-final)
        time.sleep(1)
        site.start()
        organiser = site.organiser()
        deadline = time.monotonic() + 180
        while 'final-state">done' not in (page := organiser.get("/organiser/")).text:
            assert time.monotonic() < deadline and 'final-state">failed' not in page.text, page.text[-3000:]
            time.sleep(1)
        ids = [line.split(b'"id":"')[1].split(b'"')[0] for line in games.read_bytes().splitlines()]
        assert len(ids) == 8 == len(set(ids))
        assert "resuming" in (site.folder / "results" / "final.log").read_text()
    finally:
        site.stop()


def test_a_server_killed_mid_upload_keeps_nothing_half_written(tmp_path):
    import socket

    site = Site(tmp_path / "c", Database("sqlite")).start()
    try:
        client = _contestant(site, "halfway")
        body, kind = multipart({"csrfmiddlewaretoken": client.cookie("csrftoken")},
                               {"bot": ("half.py", GOOD + b"#" * 200_000)})
        cookies = "; ".join(f"{c.name}={c.value}" for c in client.cookies)
        with socket.create_connection(("127.0.0.1", site.port)) as raw:
            raw.sendall(f"POST /submissions/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {kind}\r\n"
                        f"Content-Length: {len(body)}\r\nCookie: {cookies}\r\n\r\n".encode() + body[:len(body) // 2])
            time.sleep(0.5)
            os.kill(site.process.pid, signal.SIGKILL)  # mid-upload: half the body sent
            site.process.wait()
        time.sleep(1)
        site.start()
        again = site.client()
        assert again.login("halfway", "contestant-password-1").status == 200
        assert "No submission yet" in again.get("/").text
        uploads = site.folder / "uploads"
        assert not uploads.exists() or not [path for path in uploads.rglob("*") if path.is_file()]
        # ... and the same upload sent whole now is taken
        number = submission_number(again.upload("half.py", GOOD + b"#" * 200_000))
        assert "<b>accepted</b>" in site.wait_for(again, number).text
    finally:
        site.stop()


def test_the_demo_contest_serves_the_shipped_bots_submitted(tmp_path):
    import subprocess
    import sys

    from contest_site import free_port

    port = free_port()
    demo = subprocess.Popen([sys.executable, "-m", "arena.cli", "contest", "demo", str(tmp_path / "demo"), "--port",
                             str(port)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        printed = ""
        while "Ctrl-C stops" not in printed:
            line = demo.stdout.readline()
            assert line, printed
            printed += line
        assert "rita, greta, sergei" in printed and f"http://127.0.0.1:{port}/" in printed
        organiser = Client(f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 60
        while True:
            try:
                if organiser.get("/health/").status == 200:
                    break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.3)
        password = re.search(r"password \(shown once\): (\S+)", printed).group(1)
        assert organiser.login("organiser", password).status == 200
        page = organiser.get("/organiser/").text
        assert all(name in page for name in ("rita", "greta", "sergei", "random", "greedy", "search"))
    finally:
        demo.send_signal(signal.SIGTERM)
        demo.communicate(timeout=60)
    assert demo.returncode == 0
