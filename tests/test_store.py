from __future__ import annotations

import pytest

from arena.errors import ArenaError
from arena.store import Store


def test_resume_keeps_records_and_refuses_other_config(tmp_path):
    store = Store(tmp_path / "t")
    assert store.start({"game": "paint", "bots": ["a"]}, overwrite=False) == []
    store.append({"id": "1"})
    store.append({"id": "2"})
    again = Store(tmp_path / "t")
    assert [r["id"] for r in again.start({"game": "paint", "bots": ["a"]}, overwrite=False)] == ["1", "2"]
    with pytest.raises(ArenaError, match="different configuration.*'bots'"):
        again.start({"game": "paint", "bots": ["b"]}, overwrite=False)
    assert again.start({"game": "paint", "bots": ["b"]}, overwrite=True) == []


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


def test_corrupt_line_in_the_middle_is_an_error(tmp_path):
    store = Store(tmp_path / "t")
    store.start({"game": "paint"}, overwrite=False)
    store.games_path.write_text('{"id": 1}\nnot json\n{"id": 2}\n')
    with pytest.raises(ArenaError, match="games.jsonl:2"):
        store.records()


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
    assert store.start(moved, overwrite=False) == []
    changed = {**config, "bots": [{"name": "a", "path": "/x/a.py", "sha256": "3"}]}
    with pytest.raises(ArenaError, match="'bots' was"):
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
