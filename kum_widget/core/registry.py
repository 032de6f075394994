"""Games by name, for records, ``simulate(game="...")`` and the board's new-game form."""

from __future__ import annotations

import importlib

from .errors import InvalidOptionError, shown
from .game import CardGame

__all__ = ["register", "game_class", "game_names"]

# The games that ship with kum_widget load on first use (import kum_widget stays light).
_BUILT_IN = {
    "kings-under-mountains": "kum_widget.games.kum.game:KingsUnderMountains",
    "court": "kum_widget.games.court.rules:CourtOfTheThreeClans",
    "bust": "kum_widget.core.examples:Bust",
}
_ALIASES = {"kum": "kings-under-mountains"}
_GAMES: dict[str, type[CardGame]] = {}


def register(cls: type[CardGame]) -> type[CardGame]:
    """Make ``cls`` known by its ``name`` (a class decorator): records name it, and
    ``simulate(game=name)`` finds it."""
    if not (isinstance(cls, type) and issubclass(cls, CardGame)):
        raise InvalidOptionError(f"register takes a CardGame subclass, got {shown(cls)}")
    if not cls.name or not isinstance(cls.name, str):
        raise InvalidOptionError(f"{cls.__name__} needs a name (class attribute name = 'my-game') to be registered")
    _GAMES[cls.name] = cls
    return cls


def game_class(name: str) -> type[CardGame]:
    """The game registered as ``name`` (or a built-in one by name or alias)."""
    key = _ALIASES.get(name, name) if isinstance(name, str) else name
    if key in _GAMES:
        return _GAMES[key]
    if key in _BUILT_IN:
        module, attr = _BUILT_IN[key].split(":")
        cls: type[CardGame] = getattr(importlib.import_module(module), attr)
        _GAMES[key] = cls
        return cls
    raise InvalidOptionError(f"no game named {shown(name)}: known games are {', '.join(game_names())}")


def game_names() -> list[str]:
    return sorted({*_GAMES, *_BUILT_IN, *_ALIASES})
