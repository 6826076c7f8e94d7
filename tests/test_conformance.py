"""The conformance checks (arena.conformance) on every installed game, the arena's own and any
other installed package's: random legal games through the referee, the generator by seed, the
view drawing every step, the judge agreeing with the referee, and a short tournament whose
report and replays open in Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena import conformance, games


@pytest.mark.parametrize("game", games.names())
def test_every_game_passes_the_checks_of_its_rules_generator_view_and_judge(game):
    results = list(conformance.run(games.get(game), tournament=False))
    assert [check.split(" (")[0] for check, _ in results] == [
        "declaration", "random games", "generator", "view", "judge"]
    failed = [f"{check}: {problem}" for check, problem in results if problem]
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize("game", games.names())
def test_every_games_declared_bots_and_boards_exist(game):
    entry = games.get(game)
    assert entry.paths("boards") and len(entry.paths("boards")) == len(entry.game.boards)
    assert entry.paths("bots") and len(entry.paths("bots")) == len(entry.game.bots)
    assert entry.rules().lstrip().startswith("#")


@pytest.mark.parametrize("game", games.names())
def test_a_short_tournament_of_every_game_opens_in_the_browser(game, browser, tmp_path: Path):
    index = conformance.tournament(games.get(game), tmp_path)
    conformance.open_pages(browser, game, index)
