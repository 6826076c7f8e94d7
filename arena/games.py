"""The installed games: found through entry points, loaded only when used.

A game is any package that declares an entry point in the group ``arena.games``, named after the
game, whose value is a ``referees.base.Game`` (what it is made of, as dotted names); the arena's own
five are declared the same way in its ``pyproject.toml``.  Nothing here names a game.

Listing the games reads installed packages' metadata only; ``get(name)`` imports that game's
declaration, and its referee, view, generator or solver each only when asked for.  A game that
fails to load is reported with its error and does not stop the others; two packages declaring
one name is an error naming both.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from arena.errors import ArenaError
from referees.base import Game, Referee

GROUP = "arena.games"


class GameError(ArenaError, LookupError):
    """An unknown game, or one that cannot be loaded (the message says which and why)."""


@dataclass(frozen=True)
class Installed:
    """One game as installed: its name, the entry point declaring it and the package it is in."""

    name: str
    value: str  # the entry point's "module:attribute"
    package: str  # the distribution, e.g. "arena-tournaments" (the arena's own games) or "arena-connect4"
    version: str

    @functools.cached_property
    def game(self) -> Game:
        """The declaration (imports its module, not the game's rules)."""
        try:
            game = _resolve(self.value)
        except Exception as exc:  # noqa: BLE001 - any error of a third party's import is the game's
            raise GameError(f"game {self.name!r} (package {self.package} {self.version}) cannot be loaded: "
                            f"{self.value}: {type(exc).__name__}: {exc}") from None
        if not isinstance(game, Game):
            raise GameError(f"game {self.name!r} (package {self.package}): {self.value} is a "
                            f"{type(game).__name__}, not a referees.base.Game")
        return game

    @functools.cached_property
    def root(self) -> Path:
        """The folder the declaration's paths are relative to."""
        if self.game.root:
            return Path(self.game.root)
        spec = importlib.util.find_spec(self.value.partition(":")[0])
        origin = spec.origin if spec and spec.origin else "."
        return Path(origin).resolve().parent

    def referee(self) -> Referee:
        """A fresh referee of this game."""
        referee_class = self._part("referee", self.game.referee)
        if not (isinstance(referee_class, type) and issubclass(referee_class, Referee)):
            raise GameError(f"game {self.name!r}: {self.game.referee} is not a Referee subclass")
        if referee_class.name != self.name:
            raise GameError(f"game {self.name!r}: its referee {self.game.referee} calls itself "
                            f"{referee_class.name!r}; the entry point and the referee must agree")
        return referee_class()

    def view(self) -> type:
        """The view class (built per replay: views remember who did what)."""
        return self._part("view", self.game.view)

    def generator(self) -> ModuleType | None:
        return self._part("generator", self.game.generator) if self.game.generator else None

    def solver(self) -> ModuleType | None:
        return self._part("solver", self.game.solver) if self.game.solver else None

    def paths(self, kind: str) -> list[Path]:
        """The game's ``bots`` or ``boards`` folders (those that exist)."""
        return [path for part in getattr(self.game, kind) if (path := self.root / part).exists()]

    def rules(self) -> str:
        """The rules text for contestants ("" when the game declares none)."""
        if not self.game.rules:
            return ""
        file, _, section = self.game.rules.partition("#")
        path = self.root / file
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise GameError(f"game {self.name!r}: cannot read its rules {str(path)!r}: {exc.strerror}") from None
        return _section(text, section, path) if section else text

    def _part(self, what: str, value: str) -> Any:
        try:
            return _resolve(value)
        except Exception as exc:  # noqa: BLE001
            raise GameError(f"game {self.name!r} (package {self.package} {self.version}): its {what} "
                            f"{value} cannot be loaded: {type(exc).__name__}: {exc}") from None


def _resolve(value: str) -> Any:
    module_name, _, attribute = value.partition(":")
    module = importlib.import_module(module_name)
    for part in filter(None, attribute.split(".")):
        module = getattr(module, part)
    return module


def _section(text: str, name: str, path: Path) -> str:
    """The Markdown section whose heading names ``name`` (in backquotes, or as its anchor)."""
    lines = text.splitlines(keepends=True)
    for start, line in enumerate(lines):
        heading = re.match(r"(#+)\s+(.*)", line)
        if heading and (f"`{name}`" in heading[2] or _slug(heading[2]) == name):
            level = len(heading[1])
            end = next((i for i in range(start + 1, len(lines))
                        if (other := re.match(r"(#+)\s", lines[i])) and len(other[1]) <= level), len(lines))
            return "".join(lines[start:end]).rstrip() + "\n"
    raise GameError(f"{str(path)!r} has no section {name!r}")


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@functools.cache
def installed() -> dict[str, Installed]:
    """Every installed game by name, from the packages' metadata (nothing is imported)."""
    found: dict[str, Installed] = {}
    for point in importlib.metadata.entry_points(group=GROUP):
        dist = point.dist
        entry = Installed(point.name, point.value, dist.name if dist else "?", dist.version if dist else "?")
        other = found.setdefault(point.name, entry)
        # One declaration met twice is one game: an install's metadata and a stale egg-info of the
        # checkout on the path, under the distribution's name of today or of before ("arena").
        if other.value != entry.value:
            raise GameError(f"two packages declare the game {point.name!r}: {other.package} {other.version} "
                            f"({other.value}) and {entry.package} {entry.version} ({entry.value}); "
                            "uninstall one (pip uninstall PACKAGE)")
    if not found:
        raise GameError("no games are installed: the arena's own are declared in its pyproject.toml; "
                        "reinstall it (pip install -e .)")
    return dict(sorted(found.items()))


def names() -> list[str]:
    """Every installed game's name, sorted."""
    return list(installed())


def names_and_aliases() -> list[str]:
    """Every name a game answers to (imports the declarations only)."""
    found = names()
    for entry in installed().values():
        try:
            found.extend(entry.game.aliases)
        except GameError:
            continue
    return found


def solvable() -> list[str]:
    """The installed games that declare a solver (``arena solve``, ``arena replay --solve``): a module
    with ``solve_lines(referee, state, max_seconds) -> lines``, the first ``value: WORD ...``."""
    found = []
    for name, entry in installed().items():
        try:
            if entry.game.solver:
                found.append(name)
        except GameError:
            continue
    return found


def get(name: str) -> Installed:
    """A game by its name or an alias; an unknown name lists the games."""
    games = installed()
    if name in games:
        return games[name]
    for entry in games.values():
        try:
            if name in entry.game.aliases:
                return entry
        except GameError:
            continue
    raise GameError(f"unknown game {name!r}; the games are: {', '.join(games)}")


def referee(name: str) -> Referee:
    """A fresh referee of the game ``name`` (or alias); an ArenaError for an unknown game."""
    return get(name).referee()


def generators() -> dict[str, tuple[Installed, ModuleType]]:
    """``arena generate``'s generators by their names (a generator module's ``GAME``; games
    sharing one module share it), with the first game using each."""
    found: dict[str, tuple[Installed, ModuleType]] = {}
    for entry in installed().values():
        try:
            module = entry.generator()
        except GameError:
            continue  # (arena games shows why)
        if module is not None:
            found.setdefault(getattr(module, "GAME", entry.name), (entry, module))
    return found


def generator(name: str) -> ModuleType:
    """The generator offered under ``name``; an unknown one lists those there are."""
    found = generators()
    if name in found:
        return found[name][1]
    if name in installed() and (module := get(name).generator()) is not None:
        return module
    raise GameError(f"no generator for game {name!r}; generators exist for: {', '.join(found)}")


def of_generator(name: str) -> str | None:
    """The game played on boards a generator ``name`` made (a manifest's ``"game"``): the game of
    that name or alias, else the only game using that generator; ``None`` when unknown or ambiguous."""
    try:
        return get(name).name
    except GameError:
        pass
    users = [entry.name for entry in installed().values()
             if _generator_name(entry) == name]
    return users[0] if len(users) == 1 else None


def _generator_name(entry: Installed) -> str | None:
    try:
        module = entry.generator()
    except GameError:
        return None
    return getattr(module, "GAME", entry.name) if module is not None else None


def package_folders(only: list[str] | None = None) -> list[Path]:
    """Where the installed games' code is (each top-level package of a declaration, referee,
    generator or solver, found without importing it): what a sandboxed Python bot needs to see
    to import its game's rules; ``only``: of these games."""
    tops: set[str] = set()
    for entry in installed().values():
        if only is not None and entry.name not in only:
            continue
        tops.add(entry.value.partition(":")[0].split(".")[0])
        try:
            game = entry.game
        except GameError:
            continue
        tops.update(part.partition(":")[0].split(".")[0] for part in (game.referee, game.generator, game.solver)
                    if part)
    folders = []
    for top in sorted(tops):
        spec = importlib.util.find_spec(top)  # (a top-level name: nothing is imported)
        if spec is None:
            continue
        if spec.submodule_search_locations:
            folders.extend(Path(p).resolve() for p in spec.submodule_search_locations)
        elif spec.origin and spec.origin not in ("built-in", "frozen"):
            folders.append(Path(spec.origin).resolve())
    return folders


def versions(names_: list[str] | None = None) -> dict[str, str]:
    """``{game: "package version"}``, recorded with a tournament and compared by the cluster."""
    games = installed()
    return {name: f"{games[name].package} {games[name].version}" for name in (names_ or games) if name in games}
