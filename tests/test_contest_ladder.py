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
    people = {name: contestant(site, name, bot) for name, bot in (("ann", RANDOM), ("bea", GREEDY), ("cid", RANDOM))}
    organiser = site.organiser()
    wait_for_ladder(organiser, lambda data: data["games"] >= 12 and all(row["rank"] for row in data.get("rows", []))
                    and len(data.get("rows", [])) == 3)
    return people, organiser


def test_entries_play_rated_games_and_the_page_says_how(site, field):
    people, organiser = field
    page = organiser.get("/ladder/")
    assert page.status == 200 and "How the rating is computed" in page.text and "joint Elo fit" in page.text
    assert 'id="plot"' in page.text and "<polyline" in page.text and "<script" not in page.text.split("</head>")[1]
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
    assert config["system"] == {"name": "knockout", "seeding": f"the order in {site.folder / 'results' / 'seeding.txt'}"}
    assert [bot["name"] for bot in config["bots"]] == order
