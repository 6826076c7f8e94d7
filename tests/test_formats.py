"""Tournament formats (arena/formats.py): the pairing logic on its own (no processes), and whole
gauntlets, Swiss tournaments and knockouts through the ``arena`` command with real bot processes in
the sandbox, a Swiss among them killed mid-round and resumed."""

from __future__ import annotations

import itertools
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from arena import formats
from arena.formats import (
    Knockout,
    Match,
    Results,
    Round,
    Standings,
    Swiss,
    bracket_order,
    pair_swiss,
    tie_winner,
)

ROOT = Path(__file__).resolve().parent.parent


def _play(pairs, boards, results: Results, strength: dict[str, float], rng: random.Random) -> None:
    """Simulated games: the stronger bot (with noise) wins."""
    for a, b in pairs:
        for board in boards:
            for seats in ((a, b), (b, a)):
                first = strength[seats[0]] + rng.gauss(0, 0.3) > strength[seats[1]] + rng.gauss(0, 0.3)
                points = [3.0, 0.0] if first else [0.0, 3.0]
                results.add({"id": "|".join((board, *seats)), "board": {"name": board}, "seats": list(seats),
                             "outcome": {"winner": 0 if first else 1}, "points": points})


def _swiss(bots: list[str], rounds: int, boards=("x",), seed: int = 1) -> tuple[list[Round], Results]:
    rng, results = random.Random(seed), Results()
    strength = {bot: rng.random() for bot in bots}
    played = []
    for round_ in Swiss(rounds).rounds(bots, list(boards), results):
        played.append(round_)
        _play(round_.pairs, boards, results, strength, rng)
    return played, results


# ------------------------------------------------------------------ pure: Swiss


@pytest.mark.parametrize("count", [2, 3, 7, 8, 11])
def test_a_swiss_never_pairs_two_bots_twice_and_gives_each_bot_a_bye_at_most_once(count):
    bots = [f"bot{k}" for k in range(count)]
    rounds, _ = _swiss(bots, formats.most_rounds(count))
    assert len(rounds) == formats.most_rounds(count)
    met = [frozenset(pair) for round_ in rounds for pair in round_.pairs]
    assert len(met) == len(set(met))
    byes = [bot for round_ in rounds for bot in round_.byes]
    assert len(byes) == len(set(byes)) == (len(rounds) if count % 2 else 0)
    for round_ in rounds:  # everyone plays once a round (or sits out with the bye)
        seated = [bot for pair in round_.pairs for bot in pair] + list(round_.byes)
        assert sorted(seated) == sorted(bots)


def test_a_swiss_pairs_bots_of_equal_score_and_the_top_half_against_the_bottom_half():
    bots = [f"s{k:02d}" for k in range(16)]
    first = pair_swiss(bots, {b: 0.0 for b in bots}, {b: [] for b in bots}, {})
    assert first == (tuple((bots[k], bots[k + 8]) for k in range(8)), None)  # the Dutch system's round 1
    rounds, results = _swiss(bots, 2)
    table = Standings(bots)
    table.add(rounds[0], [results.match(a, b, ["x"]) for a, b in rounds[0].pairs])
    for a, b in rounds[1].pairs:  # after round 1: winners meet winners, losers losers
        assert table.points[a] == table.points[b]


def test_a_pairing_depends_on_the_records_alone_not_on_the_hash_seed():
    """A resume must pair as the first run did: the same records give the same rounds in another process."""
    code = ("import sys; sys.path.insert(0, 'tests'); from test_formats import _swiss;"
            "rounds, _ = _swiss([f'b{k}' for k in range(41)], 6, boards=('p', 'q'));"
            "print([(r.pairs, r.byes) for r in rounds])")
    outputs = {subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2", "3")}
    assert len(outputs) == 1


def test_pairing_a_round_of_1000_bots_takes_under_a_second():
    _, results = _swiss([f"b{k:04d}" for k in range(1000)], 4)
    table = Swiss(5).standings([f"b{k:04d}" for k in range(1000)], ["x"], results)
    started = time.perf_counter()
    pairs, bye = pair_swiss(table.ranked_for_pairing(), table.points, table.met, table.byes)
    assert time.perf_counter() - started < 1.0
    assert len(pairs) == 500 and bye is None


def test_a_swiss_of_more_rounds_than_pairings_left_ends_when_no_pairing_is_possible():
    """Four bots, where round 2's pairing leaves only rematches in round 3 for some orders: the
    matching finds the one pairing left, and a round that would need a rematch is not played."""
    bots = ["a", "b", "c", "d"]
    rounds, _ = _swiss(bots, 5)
    assert len(rounds) == 3  # every pair met once: a round-robin in three rounds


def test_swiss_tie_breaks():
    """a beat b, b beat c, c drew d, a drew d: Buchholz, Sonneborn-Berger and direct encounter by hand."""
    table = Standings(["a", "b", "c", "d"])

    def match(x, y, px, py):
        return Match(x, y, (px, py), (0, 0), 2)

    table.add(Round(1, (("a", "b"), ("c", "d"))), [match("a", "b", 6, 0), match("c", "d", 3, 3)])
    table.add(Round(2, (("a", "d"), ("b", "c"))), [match("a", "d", 3, 3), match("b", "c", 6, 0)])
    assert table.points == {"a": 1.5, "b": 1.0, "c": 0.5, "d": 1.0}
    assert table.buchholz("a") == 2.0 and table.buchholz("d") == 2.0 and table.buchholz("b") == 2.0
    assert table.sonneborn_berger("b") == 0.5 and table.sonneborn_berger("d") == 1.0
    ranked = [bot for bot, _ in table.ranked()]
    assert ranked == ["a", "d", "b", "c"]  # d and b tie on points and Buchholz: Sonneborn-Berger decides
    table = Standings(["x", "y"])
    table.add(Round(1, (("x", "y"),)), [match("x", "y", 3, 3)])
    table.add(Round(2, (), ("y",)), [])
    table.add(Round(3, (), ("x",)), [])
    # tied on everything: they met, so direct encounter (a draw) leaves them tied, and the seed decides
    assert [(bot, keys[3]) for bot, keys in table.ranked()] == [("x", 0.5), ("y", 0.5)]


# ------------------------------------------------------------------ pure: knockout


def test_bracket_order_keeps_the_best_seeds_apart():
    assert bracket_order(2) == [0, 1]
    assert bracket_order(4) == [0, 3, 1, 2]
    assert bracket_order(8) == [0, 7, 3, 4, 1, 6, 2, 5]
    assert sorted(bracket_order(5)) == list(range(8))


def test_a_knockout_gives_the_top_seeds_the_byes_and_ends_with_one_winner():
    bots = [f"k{k}" for k in range(6)]
    rng, results = random.Random(3), Results()
    strength = {bot: -k for k, bot in enumerate(bots)}  # the seeds are the true order
    rounds = []
    for round_ in Knockout().rounds(bots, ["x"], results):
        rounds.append(round_)
        _play(round_.pairs, ["x"], results, strength, rng)
    assert [r.label for r in rounds] == ["quarter-final", "semi-final", "final"]
    assert rounds[0].byes == ("k0", "k1")
    assert sum(len(r.pairs) for r in rounds) == len(bots) - 1 == Knockout().games(6, 1) // 2
    assert Knockout().winner(bots, ["x"], results) in bots


def test_a_drawn_tie_goes_to_fewer_faults_then_to_the_better_seed():
    seed = {"a": 0, "b": 1}
    assert tie_winner(Match("a", "b", (6, 3), (0, 0), 4), seed) == ("a", "points")
    assert tie_winner(Match("a", "b", (3, 3), (2, 1), 4), seed) == ("b", "faults")
    assert tie_winner(Match("a", "b", (3, 3), (1, 1), 4), seed) == ("a", "seed")


# ------------------------------------------------------------------ real tournaments

RANDOM = """
    import random
    from referees.paint import PaintReferee
    referee = PaintReferee()
    state = referee.load(open("game.in").read())
    open("game.out", "w").write(referee.move_text(referee.random_move(state, random.Random({seed}))))
"""


@pytest.fixture(scope="module")
def field(tmp_path_factory) -> Path:
    """Five seeded random bots and the greedy one, on the four boards of group 1: every game's
    outcome is the same every time it is played, so two runs pair alike."""
    folder = tmp_path_factory.mktemp("formats")
    (folder / "bots").mkdir()
    for k in range(1, 6):
        (folder / "bots" / f"r{k}.py").write_text(textwrap.dedent(RANDOM.format(seed=k)).lstrip())
    (folder / "bots" / "greedy.py").write_text((ROOT / "bots" / "greedy.py").read_text())
    (folder / "boards").symlink_to(ROOT / "boards" / "group1")
    return folder


BOTS = ["bots/greedy.py", "bots/r1.py", "bots/r2.py", "bots/r3.py", "bots/r4.py", "bots/r5.py"]


def _arena(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arena.cli", *args], cwd=folder, capture_output=True, text=True,
                          timeout=300, check=False)


def _ids(folder: Path) -> list[str]:
    return [json.loads(line)["id"] for line in (folder / "games.jsonl").read_text().splitlines()]


def test_a_gauntlet_plays_only_the_challengers_games(field):
    result = _arena(field, "run", "--bots", *BOTS[:4], "--boards", "boards/board1.in", "boards/board2.in",
                    "--system", "gauntlet", "--challengers", "bots/greedy.py", "--name", "g", "--jobs", "2")
    assert result.returncode == 0, result.stderr
    assert ("gauntlet: the challengers (greedy) against the field, each pairing on 2 boards in both seat orders: "
            "12 games (a round-robin of these 4 bots would play 24)") in result.stderr
    ids = _ids(field / "results" / "g")
    assert len(ids) == len(set(ids)) == 12 and all("greedy" in game.split("|")[1:] for game in ids)
    assert "12 of 12 games played; a gauntlet of greedy against the field" in result.stdout
    shown = json.loads(_arena(field, "show", "results/g", "--format", "json").stdout)
    assert shown["played"] == shown["expected"] == 12
    assert shown["tables"]["ratings"]["rows"][0][1] == "greedy"


def test_a_swiss_killed_mid_round_resumes_replaying_nothing_and_pairing_the_same(field):
    args = ["run", "--bots", *BOTS, "--boards", "boards", "--system", "swiss", "--rounds", "3", "--jobs", "2"]
    whole = _arena(field, *args, "--name", "whole")
    assert whole.returncode == 0, whole.stderr
    assert "swiss: 3 rounds of 3 pairings, each pairing on 4 boards in both seat orders: 72 games " \
           "(a round-robin of these 6 bots would play 120)" in whole.stderr
    assert "round 1: waiting for its last 2 games before the next round is paired" in whole.stderr
    expected = _ids(field / "results" / "whole")
    assert len(expected) == len(set(expected)) == 72

    games = field / "results" / "killed" / "games.jsonl"
    arena = subprocess.Popen([sys.executable, "-m", "arena.cli", *args, "--name", "killed"], cwd=field,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not games.exists() or games.read_text().count("\n") < 30):
        time.sleep(0.02)
    arena.send_signal(signal.SIGKILL)
    arena.wait()
    recorded = games.read_text().count("\n")
    assert 30 <= recorded < 72  # killed in round 2 (24 games a round) or 3
    resumed = _arena(field, *args, "--name", "killed")
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming: {recorded} games already recorded" in resumed.stderr
    ids = _ids(field / "results" / "killed")
    assert len(ids) == len(set(ids)) == 72  # every game once: nothing replayed
    assert sorted(ids) == sorted(expected)  # the same pairings as the run never killed
    assert resumed.stdout.split("\nRecords:")[0] == whole.stdout.split("\nRecords:")[0]


def test_a_swiss_in_every_format_of_arena_show(field):
    folder = "results/whole"
    if not (field / folder).exists():
        pytest.skip("needs the Swiss of the test before")
    text = _arena(field, "show", folder).stdout
    assert "Swiss standings after 3 of 3 rounds (seeding: given)" in text
    assert "then Buchholz (the sum of the opponents' match points)" in text
    shown = json.loads(_arena(field, "show", folder, "--format", "json").stdout)
    swiss = shown["tables"]["swiss"]
    assert swiss["headers"][:4] == ["#", "bot", "match points", "Buchholz"] and len(swiss["rows"]) == 6
    assert sum(row[2] for row in swiss["rows"]) == 9  # three matches a round, one point each
    assert len(shown["tables"]["rounds"]["rows"]) == 9
    csv = _arena(field, "show", folder, "--format", "csv", "--table", "swiss").stdout
    assert csv.startswith("#,bot,match points,Buchholz,Sonneborn-Berger,direct encounter,game points,byes\n")
    assert "Swiss standings" in _arena(field, "show", folder, "--format", "github").stdout


def test_a_knockout_seeded_by_an_earlier_tournaments_ratings(field):
    if not (field / "results" / "whole").exists():
        pytest.skip("needs the Swiss of the test before")
    result = _arena(field, "run", "--bots", *BOTS[1:], "bots/greedy.py", "--boards", "boards/board1.in",
                    "--system", "knockout", "--seeding", "results/whole", "--name", "ko", "--jobs", "2")
    assert result.returncode == 0, result.stderr
    config = json.loads((field / "results" / "ko" / "tournament.json").read_text())
    assert config["system"]["seeding"].startswith("ratings of results/whole")
    rated = json.loads(_arena(field, "show", "results/whole", "--format", "json").stdout)["tables"]["ratings"]
    assert [bot["name"] for bot in config["bots"]] == [row[1] for row in rated["rows"]]
    assert len(_ids(field / "results" / "ko")) == 5 * 2  # 5 ties on one board, both seat orders
    shown = json.loads(_arena(field, "show", "results/ko", "--format", "json").stdout)
    labels = [row[0] for row in shown["tables"]["knockout"]["rows"]]
    assert labels.count("final") == 1 and "Knockout: a tie is won by more game points" in result.stdout


def test_a_knockout_seeded_by_a_list_of_names(field):
    """--seeding FILE: the bots in the order the file lists them ('#' comments, blank lines and names
    that are no bot here are passed over), then the bots it leaves out, in the order given."""
    (field / "seeds.txt").write_text("# seeds, best first\nr4\n\nnobody  # (not playing)\nr2\ngreedy\n")
    result = _arena(field, "run", "--bots", *BOTS[:5], "--boards", "boards/board1.in", "--system", "knockout",
                    "--seeding", "seeds.txt", "--name", "listed", "--jobs", "2")
    assert result.returncode == 0, result.stderr
    config = json.loads((field / "results" / "listed" / "tournament.json").read_text())
    assert [bot["name"] for bot in config["bots"]] == ["r4", "r2", "greedy", "r1", "r3"]
    assert config["system"]["seeding"] == "the order in seeds.txt"
    for text, message in (("r1\nr2\nr1\n", "--seeding 'seeds.txt', line 3: 'r1' is listed twice"),
                          ("x\ny\n", "--seeding 'seeds.txt': it lists none of these bots (it lists 'x', 'y'")):
        (field / "seeds.txt").write_text(text)
        refused = _arena(field, "run", "--bots", *BOTS[:2], "--boards", "boards/board1.in", "--system", "knockout",
                         "--seeding", "seeds.txt")
        assert refused.returncode == 2 and message in refused.stderr and "Traceback" not in refused.stderr


@pytest.mark.parametrize("args, message", [
    (["--system", "swiss", "--challengers", "bots/r1.py"], "--challengers is for --system gauntlet, not 'swiss'"),
    (["--system", "gauntlet"], "--system gauntlet needs --challengers"),
    (["--rounds", "3"], "--rounds is for --system swiss, not 'round-robin'"),
    (["--system", "gauntlet", "--challengers", "nobody"], "--challengers 'nobody' is not one of the bots"),
    (["--system", "gauntlet", "--challengers", *BOTS[:2]], "--challengers names every bot"),
    (["--system", "swiss", "--rounds", "2"], "--rounds 2 is too many for 2 bots"),
    (["--system", "knockout", "--seeding", "results/none"], "results/none"),
    (["--seeding", "results/none"], "--seeding is for --system swiss or knockout"),
    (["--system", "elimination"], "invalid choice: 'elimination'"),
])
def test_bad_format_options_are_clear_errors(field, args, message):
    result = _arena(field, "run", "--bots", *BOTS[:2], "--boards", "boards/board1.in", *args)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr


def test_a_one_player_game_is_refused_a_pairing_system(field):
    result = _arena(field, "run", "--game", "threes", "--bots", str(ROOT / "bots" / "threes" / "beam.py"),
                    str(ROOT / "bots" / "threes" / "random.py"), "--boards", str(ROOT / "boards" / "threes"),
                    "--system", "swiss")
    assert result.returncode == 2, result.stderr
    assert "--system swiss pairs bots: it needs a two-player game" in result.stderr


def test_rounds_rebuilt_from_records_match_those_played():
    """``arena show`` rebuilds the rounds from the records alone: the same as the run played."""
    bots = [f"b{k}" for k in range(9)]
    played, results = _swiss(bots, 4, boards=("p", "q"))
    shuffled = Results(random.Random(5).sample(list(results.games.values()), len(results.games)))
    rebuilt = [round_ for round_, _ in Swiss(4).played(bots, ["p", "q"], shuffled)]
    assert rebuilt == played
    assert list(itertools.chain.from_iterable(r.byes for r in rebuilt)) == [r.byes[0] for r in played]
