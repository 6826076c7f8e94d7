from __future__ import annotations

import os

import pytest

from arena import store as store_module
from arena.errors import ArenaError
from arena.store import Store


def test_resume_keeps_records_and_refuses_other_config(tmp_path):
    store = Store(tmp_path / "t")
    store.start({"game": "paint", "bots": ["a"]}, overwrite=False)
    assert list(store.ids()) == []
    store.append({"id": "1"})
    store.append({"id": "2"})
    again = Store(tmp_path / "t")
    again.start({"game": "paint", "bots": ["a"]}, overwrite=False)
    assert list(again.ids()) == ["1", "2"]
    with pytest.raises(ArenaError, match=r'different configuration: bots \["a"\] -> \["b"\]'):
        again.start({"game": "paint", "bots": ["b"]}, overwrite=False)
    again.start({"game": "paint", "bots": ["b"]}, overwrite=True)
    assert list(again.ids()) == []


def test_torn_last_line_is_dropped_before_appending(tmp_path):
    store = Store(tmp_path / "t")
    store.start({"game": "paint"}, overwrite=False)
    store.append({"id": "1"})
    with open(store.games_path, "a") as handle:
        handle.write('{"id": "2", "mo')  # the arena killed mid-write
    assert [r["id"] for r in store.records()] == ["1"]
    store.start({"game": "paint"}, overwrite=False)
    store.append({"id": "3"})
    assert [r["id"] for r in store.records()] == ["1", "3"]
    assert list(store.ids()) == ["1", "3"]


def test_a_torn_line_longer_than_a_block_is_cut_whole(tmp_path):
    store = Store(tmp_path / "t")
    store.start({"game": "paint"}, overwrite=False)
    store.append({"id": "1"})
    with open(store.games_path, "a") as handle:
        handle.write('{"id": "2", "moves": "' + "x" * 200_000)  # torn in the middle of a long record
    store.start({"game": "paint"}, overwrite=False)
    assert store.games_path.read_text() == '{"id":"1"}\n'
    store.games_path.write_text('{"id": "torn, and alone')
    store.start({"game": "paint"}, overwrite=False)
    assert store.games_path.read_text() == ""


def test_corrupt_line_in_the_middle_is_an_error(tmp_path):
    store = Store(tmp_path / "t")
    store.start({"game": "paint"}, overwrite=False)
    store.games_path.write_text('{"id": "1"}\nnot json\n{"id": "2"}\n')
    with pytest.raises(ArenaError, match="games.jsonl:2"):
        store.records()
    with pytest.raises(ArenaError, match="games.jsonl:2"):
        list(store.ids())


def test_summaries_read_what_the_tables_need_and_name_a_bad_line(tmp_path):
    store = Store(tmp_path / "t")
    store.start({"game": "paint"}, overwrite=False)
    store.append({"id": "g|a|b", "board": {"name": "g", "sha256": "1"}, "seats": ["a", "b"],
                  "moves": [{"seat": 0, "output": "a long move"}], "outcome": {"winner": 0, "score": None, "reason": ""},
                  "fault": None, "points": [3.0, 0.0]})
    (game,) = store.summaries()
    assert (game.id, game.board.name, game.seats, game.points, game.outcome.winner) == ("g|a|b", "g", ["a", "b"],
                                                                                         [3.0, 0.0], 0)
    store.append({"id": "g|b|a", "board": {"name": "g"}, "seats": "b, a"})  # seats must be a list
    with pytest.raises(ArenaError, match=r"games.jsonl:2: not a game record \(Expected `array`, got `str`"):
        list(store.summaries())


def test_show_refuses_a_folder_that_is_not_a_tournament(tmp_path):
    with pytest.raises(ArenaError, match="not a tournament results folder"):
        Store.open_existing(tmp_path / "nothing")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "x").write_text("")
    with pytest.raises(ArenaError, match="exists and is not a tournament"):
        Store(tmp_path / "other").start({}, overwrite=False)


def test_resume_ignores_where_files_were_found_but_not_their_content(tmp_path):
    config = {"game": "paint", "bots": [{"name": "a", "path": "/x/a.py", "sha256": "1"}],
              "boards": [{"name": "g/b1", "path": "boards/g/b1.in", "sha256": "2"}]}
    store = Store(tmp_path / "t")
    store.start(config, overwrite=False)
    moved = {**config, "boards": [{"name": "g/b1", "path": "./boards/g/b1.in", "sha256": "2"}]}
    store.start(moved, overwrite=False)  # no error: the same tournament
    changed = {**config, "bots": [{"name": "a", "path": "/x/a.py", "sha256": "3"}]}
    with pytest.raises(ArenaError, match=r"bot 'a' changed \(its files differ\)"):
        store.start(changed, overwrite=False)


def test_count_of_games_reads_no_record_and_skips_a_torn_line(tmp_path):
    store = Store(tmp_path / "t")
    assert store.count() == 0
    store.start({"game": "paint"}, overwrite=False)
    for number in range(3):
        store.append({"id": str(number)})
    with open(store.games_path, "a") as handle:
        handle.write('{"id": "torn')  # the arena killed mid-write
    assert store.count() == len(store.records()) == 3


def test_ids_are_read_from_the_start_of_a_line_or_decoded_when_it_has_another_shape(tmp_path):
    store = Store(tmp_path / "t")
    store.start({"game": "paint"}, overwrite=False)
    names = ["g/b1|a|b", 'g/"quoted"|a\\b|c', "g/é|ü|ß", "g/tab\t|x|y"]
    for name in names:
        store.append({"id": name, "moves": [{"output": '{"id":"not this"}'}]})
    with open(store.games_path, "a") as handle:
        handle.write('{ "moves": [], "id": "spaced|a|b" }\n{"id":"alone|a|b"}\n')
    assert list(store.ids()) == names + ["spaced|a|b", "alone|a|b"]
    assert store.record('g/"quoted"|a\\b|c')["id"] == 'g/"quoted"|a\\b|c'
    with pytest.raises(ArenaError, match="no game 'nothing'"):
        store.record("nothing")


def test_games_are_written_at_once_and_forced_to_disk_in_batches(tmp_path, monkeypatch):
    synced = []
    fsync = os.fsync
    monkeypatch.setattr(store_module.os, "fsync", lambda fd: (synced.append(fd), fsync(fd)))
    monkeypatch.setattr(store_module, "SYNC_EVERY", 60.0)
    store = Store(tmp_path / "t")
    store.start({"game": "paint"}, overwrite=False)
    for number in range(100):
        store.append({"id": str(number)})
    # every game can be read at once (a killed arena loses none of them) ...
    assert list(Store(tmp_path / "t").ids()) == [str(number) for number in range(100)]
    assert len(synced) == 1  # ... but only the first was forced to disk: the next are within SYNC_EVERY
    store.close()
    assert len(synced) == 2  # the rest, as the run ends
    store.close()
    assert len(synced) == 2
    store.append({"id": "after"})  # opened again
    store.close()
    assert list(store.ids())[-1] == "after" and len(synced) == 3


def test_a_mismatch_on_resume_says_what_changed(tmp_path):
    def config(bots, cpu):
        return {"game": "paint", "bots": [{"name": name, "path": f"bots/{name}.py", "sha256": sha} for name, sha in bots],
                "boards": [{"name": "group1/board1", "sha256": "b1"}], "limits": {"cpu": cpu, "memory": 256}}

    Store(tmp_path / "t").start(config([("random", "r1"), ("greedy", "g1")], 1.0), overwrite=False)
    with pytest.raises(ArenaError) as error:
        Store(tmp_path / "t").start(config([("random", "r2"), ("template", "t1")], 2.0), overwrite=False)
    message = str(error.value)
    assert "bot 'template' added" in message and "bot 'greedy' removed" in message
    assert "bot 'random' changed (its files differ)" in message and "limits cpu 1.0 -> 2.0" in message
    assert "memory" not in message and "{" not in message  # what changed, not the blobs


HOLD = """
import os, sys, time
from pathlib import Path
from arena.store import Store
Store(Path(sys.argv[1])).start({"game": "paint"}, overwrite=False)
parent = os.getpid()
if os.fork() == 0:  # a pool worker, forked from the run: it outlives its killed run a moment, holding no lock
    while os.getppid() == parent:
        time.sleep(0.02)
    time.sleep(1)
    os._exit(0)
print("held", flush=True)
time.sleep(60)
"""


def test_a_folder_is_written_by_one_run_at_a_time_and_a_killed_runs_lock_is_taken_over(tmp_path, capsys):
    import signal
    import subprocess
    import sys

    folder = tmp_path / "t"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(folder)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        with pytest.raises(ArenaError, match=rf"is being written by another arena run \(pid {holder.pid} on .*started"):
            Store(folder).start({"game": "paint"}, overwrite=False)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    store = Store(folder)
    store.start({"game": "paint"}, overwrite=False)  # the lock died with its run: taken over
    assert f"from a run that ended without letting go of it (pid {holder.pid}" in capsys.readouterr().err
    store.release()
    again = Store(folder)
    again.start({"game": "paint"}, overwrite=False)  # let go of properly: no notice
    assert capsys.readouterr().err == ""
    again.release()
