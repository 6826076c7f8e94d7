"""The ladder of a real contest server (``arena serve`` over HTTP, SQLite and PostgreSQL): entries play
rated games while the round is open, checks go first, a replaced entry leaves the standings, and each
contestant sees what the configuration lets them see; after the deadline it plays on until it is
settled, then stops, and its standings seed the final."""

from __future__ import annotations

import re
import time

import pytest
from contest_site import ROOT, Client, Database, Site, ladder_site, submission_number

pytest.importorskip("django")

RANDOM = (ROOT / "bots" / "random.py").read_bytes()
GREEDY = (ROOT / "bots" / "greedy.py").read_bytes()
def contestant(site: Site, name: str, bot: bytes) -> tuple[Client, int]:
    client = site.client()
    assert client.register(name).status == 200
    number = submission_number(client.upload(f"{name}.py", bot))
    assert "<b>accepted</b>" in site.wait_for(client, number).text
    return client, number


def wait_for_ladder(client: Client, until, timeout: float = 180) -> dict:
    """The ladder's data once ``until(data)`` holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        data = client.get("/ladder/data/").json()
        if until(data):
            return data
        time.sleep(0.5)
    raise AssertionError(f"the ladder did not get there in {timeout} s: {data}")


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def database(request):
    found = Database(request.param)
    yield found
    found.drop()


@pytest.fixture(scope="module")
def site(database, tmp_path_factory):
    made = ladder_site(tmp_path_factory.mktemp("ladder") / "c", database, visible=False, settle=(2, 6),
                       final="knockout", seeding="ladder")
    yield made
    made.stop()


@pytest.fixture(scope="module")
def field(site):
    """Three contestants' entries, rated on the ladder."""
    people = {name: contestant(site, name, bot)
              for name, bot in (("ann", RANDOM), ("bea", GREEDY), ("cid", RANDOM))}
    organiser = site.organiser()
    wait_for_ladder(organiser,
                    lambda data: data["games"] >= 12 and all(row["rank"] for row in data.get("rows", []))
                    and len(data.get("rows", [])) == 3)
    return people, organiser


def test_entries_play_rated_games_and_the_page_says_how(site, field):
    people, organiser = field
    page = organiser.get("/ladder/")
    assert page.status == 200 and "How the rating is computed" in page.text and "joint Elo fit" in page.text
    assert 'id="plot"' in page.text and "<polyline" in page.text \
        and "<script" not in page.text.split("</head>")[1]
    rows = organiser.get("/ladder/data/").json()["rows"]
    assert rows[0]["author"] == "bea"  # (greedy beats random)
    assert all(row["low"] <= row["elo"] <= row["high"] for row in rows)
    dashboard = people["bea"][0].get("/").text
    assert re.search(r'id="ladder-line">On the ladder: rated \+\d+', dashboard), dashboard


def test_hidden_standings_show_each_contestant_their_own_line_only(site, field):
    people, _ = field
    ann = people["ann"][0]
    rows = ann.get("/ladder/data/").json()["rows"]
    assert [row["author"] for row in rows] == ["ann"]
    page = ann.get("/ladder/").text
    assert "bea" not in page.split("Your ladder games")[0].split('id="standings"')[1]
    assert site.client().get("/ladder/").status == 403
    assert site.client().get("/ladder/data/").status == 403


def test_a_ladder_replay_is_its_players_and_the_organisers_only(site, field):
    people, organiser = field
    ann, bea = people["ann"][0], people["bea"][0]
    games = re.findall(r'href="/ladder/games/(\d+)/"', ann.get("/ladder/").text)
    assert games
    theirs = set(re.findall(r'href="/ladder/games/(\d+)/"', bea.get("/ladder/").text))
    game = next(number for number in games if number not in theirs)  # (ann against cid)
    assert ann.get(f"/ladder/games/{game}/").status == 200
    assert "sandbox allow-scripts" in ann.get(f"/ladder/games/{game}/").headers["Content-Security-Policy"]
    assert organiser.get(f"/ladder/games/{game}/").status == 200
    for who in (bea, site.client()):
        answer = who.get(f"/ladder/games/{game}/")
        assert answer.status == 404 or "Log in" in answer.text


def test_a_check_goes_before_the_ladder_and_a_replaced_entry_leaves_the_standings(site, field):
    people, organiser = field
    ann, old = people["ann"]
    started = time.monotonic()
    number = submission_number(ann.upload("ann2.py", GREEDY))
    assert "<b>accepted</b>" in site.wait_for(ann, number, timeout=60).text
    assert time.monotonic() - started < 45  # (the ladder's games wait: at most one pair is in the way)
    data = wait_for_ladder(organiser, lambda data: any(row["entry"] == number and row["rank"]
                                                       for row in data.get("rows", [])))
    assert old not in [row["entry"] for row in data["rows"]]
    # the old entry's games stay in its author's history
    assert f"#{old} ann" in ann.get("/ladder/").text


def wait_for_challenge(client: Client, number: int, timeout: float = 240) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        data = client.get(f"/challenges/{number}/data/").json()
        if data["state"] not in ("queued", "playing"):
            return data
        time.sleep(0.5)
    raise AssertionError(f"challenge {number} not played out in {timeout} s: {data}")


def challenge_number(response) -> int:
    found = re.search(r"/challenges/(\d+)/$", response.url)
    assert found, (response.url, re.findall(r'class="flash[^"]*">([^<]*)', response.text))
    return int(found.group(1))


def test_a_contestant_asks_for_a_match_and_only_they_see_it(site, field):
    """A match of ann's entry against bea's, and one against a house bot: played pair by pair (both
    seats, the ladder's boards), unrated, its games' replays ann's and the organiser's only."""
    people, organiser = field
    ann, bea = people["ann"][0], people["bea"][0]
    asked = ann.post("/challenges/", {"kind": "match", "opponent": "c:bea", "pairs": "2"})
    number = challenge_number(asked)
    house = challenge_number(ann.post("/challenges/",
                                      {"kind": "match", "opponent": "h:random.py", "pairs": "1"}))
    assert wait_for_challenge(ann, number)["state"] == "done" \
        and wait_for_challenge(ann, house)["state"] == "done"
    page = ann.get(f"/challenges/{number}/").text
    assert "bea&#39;s entry" in page and re.search(r'id="challenge-state">State: <b>done</b>', page)
    assert re.search(r'id="match-line">pairs=2 penta=[\d,]+ score=', page) and "result=undecided" in page
    games = re.findall(r'href="/challenges/\d+/games/(\d+)/"', page)
    assert len(games) == 4 and "house bot random.py" in ann.get(f"/challenges/{house}/").text
    assert "Challenges" in ann.get("/").text \
        and f'href="/challenges/{number}/"' in ann.get("/challenges/").text
    replay = ann.get(f"/challenges/{number}/games/{games[0]}/")
    assert replay.status == 200 and "sandbox allow-scripts" in replay.headers["Content-Security-Policy"]
    assert organiser.get(f"/challenges/{number}/").status == 200
    # the attack: the opponent's author, a stranger, and guessed numbers see nothing of it
    for who in (bea, site.client()):
        for path in (f"/challenges/{number}/", f"/challenges/{number}/data/",
                     f"/challenges/{number}/games/{games[0]}/"):
            answer = who.get(path)
            assert answer.status == 404 or "Log in" in answer.text, (path, answer.status)
    other = challenge_number(bea.post("/challenges/", {"kind": "match", "opponent": "c:cid", "pairs": "1"}))
    assert ann.get(f"/challenges/{number}/games/{games[0]}/").status == 200
    assert ann.get(f"/challenges/{other}/games/{games[0]}/").status == 404  # (a game of another challenge)
    assert f"/challenges/{other}/" not in ann.get("/challenges/").text


def test_forged_challenges_are_refused(site, field):
    people, _ = field
    ann, bea = people["ann"][0], people["bea"][0]
    bea_entry = people["bea"][1]
    own = people["ann"][1]

    def listed() -> list[str]:
        return re.findall(r'href="/challenges/(\d+)/"', ann.get("/challenges/").text)

    before = listed()
    for fields, words in (
            ({"kind": "match", "opponent": "c:ann"}, "Choose another contestant who has an entry"),
            ({"kind": "match", "opponent": "c:nobody"}, "Choose another contestant who has an entry"),
            ({"kind": "match", "opponent": "h:../../contest.toml"}, "Choose another contestant"),
            ({"kind": "match", "opponent": "c:bea", "pairs": "11"},
             "The number of pairs must be from 1 to 10"),
            ({"kind": "match", "opponent": "c:bea", "pairs": "x"},
             "the number of pairs must be a whole number"),
            ({"kind": "sprt", "a": str(own), "b": str(bea_entry)},
             "two different accepted submissions of your own"),
            ({"kind": "sprt", "a": str(own), "b": str(own)},
             "two different accepted submissions of your own"),
            ({"kind": "drop table"}, "A challenge is a match or an SPRT")):
        answer = ann.post("/challenges/", fields)
        assert answer.url.endswith("/challenges/") and words in answer.text.replace("&#39;", "'"), \
            (fields, answer.text)
    forged = ann.post("/challenges/", {"kind": "match", "opponent": "c:bea"}, csrf=False)
    assert forged.status == 403
    stranger = site.client().post("/challenges/", {"kind": "match", "opponent": "c:bea"})
    assert stranger.url.split("?")[0].endswith("/login/")
    assert listed() == before  # (none was made)
    assert bea.get("/challenges/").status == 200


def test_challenges_are_rate_limited_per_hour(site, field):
    people, _ = field
    cid = people["cid"][0]
    made = [challenge_number(cid.post("/challenges/",
                                      {"kind": "match", "opponent": "h:random.py", "pairs": "1"}))
            for _ in range(4)]
    refused = cid.post("/challenges/", {"kind": "match", "opponent": "h:random.py", "pairs": "1"})
    assert refused.url.endswith("/challenges/") \
        and "You may ask for 4 challenges an hour; the next one at" in refused.text
    assert len(set(made)) == 4 and all(f"/challenges/{n}/" in refused.text for n in made)


def test_an_sprt_between_two_of_ones_own_submissions_decides(site, field):
    """ann's greedy (her second submission) against her random one: the SPRT's line grows pair by pair,
    and the test accepts H1, as arena match --sprt would on the same counts."""
    from arena import stats, tables

    people, _ = field
    ann, old = people["ann"]
    newer = max(int(n) for n in re.findall(r'href="/submissions/(\d+)/"', ann.get("/").text))
    assert newer != old
    number = challenge_number(ann.post("/challenges/", {"kind": "sprt", "a": str(newer), "b": str(old),
                                                        "elo0": "0", "elo1": "20", "pairs": "60"}))
    data = wait_for_challenge(ann, number)
    page = ann.get(f"/challenges/{number}/").text
    assert data["state"] == "done", page
    line = re.search(r'id="match-line">([^<]+)<', page).group(1)
    counts = [int(n) for n in re.search(r"penta=([\d,]+)", line).group(1).split(",")]
    sprt = stats.Sprt(elo0=0, elo1=20)
    assert line == tables.match_line(counts, sprt, "H1")
    assert "H1 accepted: ann" in page or "H1 accepted: " in page
    assert f'data-points="{sum(counts)}"' in page and "<polyline" in page.split('id="sprt-plot"')[1]
    assert len(re.findall(r'href="/challenges/\d+/games/\d+/"', page)) == min(2 * sum(counts), 60)


def test_after_the_deadline_the_ladder_plays_on_then_stops_and_seeds_the_final(site, field):
    """Closed, the ladder plays until its first two places are separated or for 6 more games (the
    configuration's settle_places = 2, settle_games = 6), then stops; the knockout final is seeded by its
    standings (final.seeding = "ladder"), through arena run --seeding."""
    import json

    _, organiser = field
    before = organiser.get("/ladder/data/").json()["games"]
    organiser.post("/organiser/close/")
    page = organiser.get("/ladder/").text
    assert "The round is closed" in page
    deadline = time.monotonic() + 240
    while "the ladder has stopped" not in (page := organiser.get("/ladder/").text):
        assert time.monotonic() < deadline, page
        time.sleep(1)
    stopped = re.search(r"the ladder has stopped: ([^(]+) \((\d+) games? played since the deadline\)", page)
    assert stopped, page
    after = int(stopped.group(2))
    assert after <= 6 + 1 and (after >= 6 or stopped.group(1).startswith("its standings are settled"))
    assert "After the deadline no entry changes" in page and "its standings then seed the" in page
    assert re.search(r'id="ladder-settle">.*the ladder has stopped', organiser.get("/organiser/").text)
    games = organiser.get("/ladder/data/").json()["games"]
    assert games >= before
    time.sleep(4)  # (a pair begun before it stopped may still be recorded; then nothing more is played)
    settled = organiser.get("/ladder/data/").json()["games"]
    assert settled - games <= 2
    time.sleep(4)
    assert organiser.get("/ladder/data/").json()["games"] == settled
    order = [row["author"] for row in organiser.get("/ladder/data/").json()["rows"] if row["rank"]]
    organiser.post("/organiser/final/")
    deadline = time.monotonic() + 300
    while "final-state\">done" not in (page := organiser.get("/organiser/").text):
        assert time.monotonic() < deadline and "final-state\">failed" not in page, page[-3000:]
        time.sleep(1)
    seeds = (site.folder / "results" / "seeding.txt").read_text()
    assert seeds.startswith("# The final's seeds: the ladder's standings after ")
    assert [line for line in seeds.splitlines() if not line.startswith("#")] == order
    config = json.loads((site.folder / "results" / "final" / "tournament.json").read_text())
    assert config["system"] == {"name": "knockout",
                                "seeding": f"the order in {site.folder / 'results' / 'seeding.txt'}"}
    assert [bot["name"] for bot in config["bots"]] == order
