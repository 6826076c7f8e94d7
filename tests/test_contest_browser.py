"""A whole contest driven in a real Chromium, as its people use it: the organiser makes invitations,
two contestants register with them and upload bots, watch their checks, the organiser closes the
round, plays the final and releases the results in two stages.  Every page is photographed at
1400x1000 and at 700x900 (into ``ARENA_SCREENSHOTS`` when set, to be looked at)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from contest_site import PASSWORD, ROOT, Database, Site, ladder_site, submission_number

pytest.importorskip("django")

SIZES = {"wide": {"width": 1400, "height": 1000}, "narrow": {"width": 700, "height": 900}}


@pytest.fixture
def contest(tmp_path):
    site = Site(tmp_path / "c", Database("sqlite"), registration="invite").start()
    yield site
    site.stop()


def _shoot(page, name: str, folder: Path) -> None:
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.screenshot(path=str(folder / f"{name}-{size}.png"), full_page=True)
        # nothing runs off the side of the page at either width
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), (name, size)
    page.set_viewport_size(SIZES["wide"])


def test_a_whole_contest_in_the_browser(contest, browser, tmp_path):
    shots = Path(os.environ.get("ARENA_SCREENSHOTS") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    organiser = browser.new_context(viewport=SIZES["wide"]).new_page()
    errors: list[str] = []
    organiser.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    organiser.goto(contest.base + "/")
    _shoot(organiser, "welcome", shots)
    organiser.click("text=Log in")
    _shoot(organiser, "login", shots)
    organiser.fill("input[name=username]", "organiser")
    organiser.fill("input[name=password]", PASSWORD)
    organiser.click("button[type=submit]")
    organiser.wait_for_url(contest.base + "/organiser/")
    links = []
    for who in ("ana", "ben"):
        organiser.fill("input[name=note]", who)
        organiser.click("#invite")
        links.append(re.search(r"https?://\S+/invite/[\w-]+/", organiser.inner_text(".flash")).group(0))
    _shoot(organiser, "organiser-open", shots)

    people = {}
    for (name, bot), link in zip((("ana", "random.py"), ("ben", "greedy.py")), links, strict=True):
        page = browser.new_context(viewport=SIZES["wide"]).new_page()
        page.goto(link)
        if name == "ana":
            _shoot(page, "register", shots)
        page.fill("input[name=username]", name)
        page.fill("input[name=password]", f"{name}-password-123")
        page.click("button[type=submit]")
        page.wait_for_selector("text=My submissions")
        page.set_input_files("input[name=bot]", str(ROOT / "bots" / bot))
        page.click("text=Submit")
        page.wait_for_selector("#status")
        deadline = time.monotonic() + 120
        # (the page reloads itself meanwhile)
        while re.search("queued|compiling|checking", page.inner_text("#status")):
            assert time.monotonic() < deadline
            time.sleep(0.5)
        assert "accepted" in page.inner_text("#status"), page.inner_text("main")
        assert "board1" in page.inner_text("#report")
        people[name] = page
    _shoot(people["ana"], "submission", shots)
    people["ana"].click("text=replay: sample/board1, seat 2")
    people["ana"].wait_for_selector("#boards")
    _shoot(people["ana"], "check-replay", shots)
    people["ana"].goto(contest.base + "/token/")
    people["ana"].click("main button[type=submit]")
    people["ana"].wait_for_selector("#token")
    _shoot(people["ana"], "token", shots)
    people["ana"].goto(contest.base + "/")
    _shoot(people["ana"], "dashboard", shots)
    # used once, an invitation registers nobody else
    other = browser.new_context().new_page()
    other.goto(links[0])
    assert "invitation" in other.inner_text("main")

    organiser.goto(contest.base + "/organiser/")
    organiser.click("text=Close submissions now")
    organiser.click("#start-final")
    deadline = time.monotonic() + 300
    while organiser.inner_text("#final-state") != "done":
        assert time.monotonic() < deadline and organiser.inner_text("#final-state") != "failed", \
            organiser.inner_text("main")
        time.sleep(1)
        organiser.reload()
    people["ana"].goto(contest.base + "/results/")
    assert "not released" in people["ana"].inner_text("main")
    organiser.select_option("select[name=release]", "own")
    organiser.click("#release")
    people["ana"].goto(contest.base + "/results/")
    assert "Your games" in people["ana"].inner_text("main")
    _shoot(people["ana"], "results-own", shots)
    organiser.select_option("select[name=release]", "all")
    organiser.click("#release")
    _shoot(organiser, "organiser-published", shots)
    visitor = browser.new_context(viewport=SIZES["wide"]).new_page()
    visitor.goto(contest.base + "/results/")
    assert "ana" in visitor.inner_text("#tables") and "ben" in visitor.inner_text("#tables")
    _shoot(visitor, "results", shots)
    visitor.click("#games a >> nth=0")
    visitor.wait_for_selector("#boards")
    _shoot(visitor, "replay", shots)
    assert not errors, errors


def test_the_ladder_page_follows_the_games_as_they_are_recorded(browser, tmp_path):
    site = ladder_site(tmp_path / "c", Database("sqlite"), visible=True)
    try:
        page = browser.new_context(viewport=SIZES["wide"]).new_page()
        errors: list[str] = []
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        page.goto(site.base + "/ladder/")
        assert "No entry on the ladder yet" in page.inner_text("#standings")
        page.evaluate("window.notReloaded = true")
        for name, bot in (("ivy", "random.py"), ("jon", "greedy.py"), ("kim", "random.py")):
            client = site.client()
            client.register(name)
            site.wait_for(client, submission_number(client.upload(bot, (ROOT / "bots" / bot).read_bytes())))
        # the page, never reloaded, shows the entries, then their ratings, then the ratings moving
        page.wait_for_selector("#entry-2 .elo", timeout=120_000)
        first = page.inner_text("#standings")
        page.wait_for_function("first => document.querySelector('#standings').innerText !== first", arg=first,
                               timeout=120_000)
        page.wait_for_selector("#plot polyline")
        shots = Path(os.environ.get("ARENA_SCREENSHOTS") or tmp_path / "shots")
        shots.mkdir(parents=True, exist_ok=True)
        _shoot(page, "ladder", shots)
        assert page.evaluate("window.notReloaded === true")
        assert not errors, errors
        # jon compares two of his submissions with an SPRT, asked for on the page, and watches its line grow
        jon = browser.new_context(viewport=SIZES["wide"]).new_page()
        jon.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        jon.goto(site.base + "/login/")
        jon.fill("input[name=username]", "jon")
        jon.fill("input[name=password]", "contestant-password-1")
        jon.click("button[type=submit]")
        jon.set_input_files("input[type=file]", str(ROOT / "bots" / "random.py"))
        jon.click("form.upload button[type=submit]")
        deadline = time.monotonic() + 120
        while jon.goto(site.base + "/") and jon.locator("#submissions .status-accepted").count() < 2:
            assert time.monotonic() < deadline, jon.inner_text("#submissions")
            time.sleep(1)
        jon.click("text=Challenges")
        _shoot(jon, "challenges", shots)
        jon.select_option("#ask-sprt select[name=a]",
                          label=jon.inner_text("#ask-sprt select[name=a] option >> nth=1"))
        jon.select_option("#ask-sprt select[name=b]",
                          label=jon.inner_text("#ask-sprt select[name=b] option >> nth=0"))
        jon.fill("#ask-sprt input[name=elo1]", "20")
        jon.click("#ask-sprt button[type=submit]")
        jon.wait_for_url(re.compile(r".*/challenges/\d+/$"))
        jon.evaluate("window.notReloaded = true")
        jon.wait_for_function("() => document.querySelector('#sprt-plot') && "
                              "Number(document.querySelector('#sprt-plot').dataset.points) >= 1",
                              timeout=120_000)
        seen = jon.get_attribute("#sprt-plot", "data-points")
        jon.wait_for_function("seen => { const p = document.querySelector('#sprt-plot'); return p && "
                              "(p.dataset.points !== seen "
                              "|| /done/.test(document.querySelector('#challenge-state').innerText)); }",
                              arg=seen, timeout=120_000)
        jon.wait_for_selector("#verdict", timeout=240_000)
        assert "H1 accepted" in jon.inner_text("#verdict") and jon.evaluate("window.notReloaded === true")
        _shoot(jon, "challenge-sprt", shots)
        assert not errors, errors
    finally:
        site.stop()
