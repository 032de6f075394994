"""Games by name, for records, ``simulate(game="...")`` and the board's new-game form.

A game is known by name in one of two ways:

- :func:`register` (a class decorator): a game defined in a notebook cell or a script;
- an entry point in the group ``kum_widget.games`` of an installed package, named as the
  game (``my-game = "my_package.rules:MyGame"`` in its pyproject.toml). The games that ship
  with kum_widget are found this way too.

Entry points are read only when a name is asked for that no class registered or loaded
so far answers (and by :func:`game_names`): ``import kum_widget`` reads no package
metadata. A registered class wins over an entry point of the same name. A game may have
other names (``aliases = ("kum",)`` on its class); an installed game gives each alias an
entry point of its own, to the same class, so finding it imports nothing else.

The games kum_widget ships keep their names. An installed plug-in's entry point named as a
shipped game is ignored, with a warning naming both entry points; a plug-in class whose
``name`` or an alias is a shipped game's name is known by its entry point's name only, with a
warning naming the class, its entry point and the names it was refused. :func:`register` in
a cell may replace a shipped game, by ``name`` or alias, whichever was loaded first (a
student's own ``court`` variant is a teaching use), with a warning. A plug-in whose import
fails in any way (SystemExit too; not Ctrl-C), or that names no CardGame, is skipped for its
own name only: :func:`game_names` (which imports the installed plug-ins, never on ``import
kum_widget``) leaves it out with a warning naming its entry point and what went wrong, once a
session, and :func:`game_class` raises an InvalidOptionError saying the same.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

from .errors import InvalidOptionError, cut, shown
from .game import CardGame

__all__ = ["GROUP", "register", "game_class", "game_names", "default_game", "set_default_game"]

GROUP = "kum_widget.games"
"""The entry point group an installed package names its games in."""

_PACKAGE = __name__.partition(".")[0]  # "kum_widget": an entry point into it is a shipped game

_GAMES: dict[str, type[CardGame]] = {}  # by name: registered, or loaded from an entry point
_ALIASES: dict[str, str] = {}  # another name of a game known here -> its name
_DEFAULT: list[str] = []  # the default game's name, once set (set_default_game)
_SKIPPED: dict[str, str] = {}  # an installed game game_names left out -> why (each said once)


def register(cls: type[CardGame]) -> type[CardGame]:
    """Make ``cls`` known by its ``name`` and its ``aliases`` (a class decorator): records
    name it, and ``simulate(game=name)`` finds it. It wins over an installed game (an entry
    point) of the same name."""
    if not (isinstance(cls, type) and issubclass(cls, CardGame)):
        raise InvalidOptionError(f"register takes a CardGame subclass, got {shown(cls)}")
    if not cls.name or not isinstance(cls.name, str):
        raise InvalidOptionError(f"{cls.__name__} needs a name (class attribute name = 'my-game') to be registered")
    aliases = _aliases_of(cls)
    _GAMES[cls.name] = cls
    _ALIASES.update(dict.fromkeys(aliases, cls.name))
    if _is_shipped(getattr(cls, "__module__", None)):  # the shipped classes themselves may be registered again, silently
        return cls
    shipped = _shipped(_entry_points())
    for taken in dict.fromkeys((cls.name, *aliases)):
        if taken in shipped:
            warnings.warn(f"{cls.__name__} replaces the shipped game {taken!r} ({shipped[taken]}) in this session: "
                          f"game_class({taken!r}) and simulate(game={taken!r}) now play {cls.__name__}",
                          UserWarning, stacklevel=2)
    for alias in aliases:  # an alias that is another game's name takes it over, whether that game was loaded before or after
        if alias in shipped or alias in _GAMES:
            _GAMES[alias] = cls
    return cls


def game_class(name: str) -> type[CardGame]:
    """The game known as ``name``: registered, or installed (an entry point of the group
    ``kum_widget.games``), by its name or an alias. An installed game that fails to import,
    or is not a ``core.CardGame``, raises an :class:`InvalidOptionError` naming its entry
    point and what went wrong (the other games are unaffected)."""
    if not isinstance(name, str):
        raise InvalidOptionError(f"a game's name is text, got {shown(name)}")
    known = _GAMES.get(name) or _GAMES.get(_ALIASES.get(name, ""))
    if known is not None:
        return known
    points = _entry_points()
    values = points.get(name)
    if not values:
        raise InvalidOptionError(f"no game named {shown(name)}: known games are {', '.join(game_names())}")
    shipped = _shipped(points)
    if name in shipped:  # a plug-in's entry point of a shipped game's name is ignored, and said so
        for value in values:
            if value != shipped[name]:
                warnings.warn(f"the installed entry point {name} = {value!r} (group {GROUP}) is ignored: {name!r} is a game "
                              f"that ships with kum_widget ({name} = {shipped[name]!r}); the plug-in's game needs a name of its own",
                              UserWarning, stacklevel=2)
        values = [shipped[name]]
    if len(values) > 1:
        raise InvalidOptionError(f"two installed packages name a game {name!r} (entry points {' and '.join(map(repr, values))} "
                                 f"in the group {GROUP}): uninstall one")
    cls = _load(name, values[0])
    plugin = not _is_shipped(values[0])
    taken = [n for n in dict.fromkeys((cls.name, *_aliases_of(cls))) if plugin and n in shipped]
    if taken:
        warnings.warn(f"{cls.__name__} (the installed entry point {name} = {values[0]!r}) names itself "
                      f"{' and '.join(map(repr, taken))}, the name of a game that ships with kum_widget: known as "
                      f"{name!r} only, not as {' or '.join(map(repr, taken))}", UserWarning, stacklevel=2)
    key = name if cls.name in taken else cls.name  # a plug-in calling itself "bust" is known by its entry point's name
    if key not in _GAMES:  # a class registered meanwhile under that name wins
        _GAMES[key] = cls
    for alias in _aliases_of(cls):
        if alias not in taken:
            _ALIASES.setdefault(alias, key)
    return _GAMES[key]


def game_names() -> list[str]:
    """Every name a game is known by: registered ones, installed ones and their aliases. An
    installed plug-in is imported here to be sure it plays (the shipped games are not): one
    that fails is left out, with a warning naming its entry point and what went wrong (once a
    session; :func:`game_class` of its name raises the same as an error)."""
    points = _entry_points()
    shipped = _shipped(points)
    names = {*_GAMES, *_ALIASES, *shipped}
    for name in points:
        if name in names:
            continue
        try:
            game_class(name)
        except InvalidOptionError as exc:
            if _SKIPPED.get(name) != str(exc):
                _SKIPPED[name] = str(exc)
                warnings.warn(f"skipped: {exc}", UserWarning, stacklevel=2)
            continue
        names.add(name)
    return sorted(names)


def default_game() -> str:
    """The name of the game ``simulate`` and ``GameWidget`` play when given none: what
    :func:`set_default_game` set (kum_widget's games package sets it, in its
    ``DEFAULT_GAME``)."""
    if not _DEFAULT:
        raise InvalidOptionError("no default game is set: pass a game (game='name' or a core.CardGame)")
    return _DEFAULT[-1]


def set_default_game(name: str) -> None:
    """Make ``name`` (a game's name or alias, found when first used) the default game."""
    if not isinstance(name, str) or not name:
        raise InvalidOptionError(f"a game's name is text, got {shown(name)}")
    _DEFAULT[:] = [name]


def _aliases_of(cls: type[CardGame]) -> tuple[str, ...]:
    aliases: Any = cls.aliases  # (declared on CardGame: empty unless the game names some)
    if isinstance(aliases, str) or not isinstance(aliases, (tuple, list)) or not all(isinstance(a, str) and a for a in aliases):
        raise InvalidOptionError(f"{cls.__name__}.aliases must be a tuple of other names (text), like ('mg',), got {shown(aliases)}")
    return tuple(aliases)


def _entry_points() -> dict[str, list[str]]:
    """The installed games: entry point name -> its values (one, unless two packages claim
    the name). Read afresh each time: only on a miss, so a package installed since counts."""
    from importlib.metadata import entry_points  # only here: it costs import time

    found: dict[str, list[str]] = {}
    for point in entry_points(group=GROUP):
        values = found.setdefault(point.name, [])
        if point.value not in values:  # one package seen twice on sys.path is one
            values.append(point.value)
    return found


def _is_shipped(where: object) -> bool:
    """Whether a module, or an entry point's value (``module:attr``), is inside kum_widget (a
    class's ``__module__`` may be anything: None, or not text, is not)."""
    return isinstance(where, str) and where.partition(":")[0].strip().partition(".")[0] == _PACKAGE


def _shipped(points: dict[str, list[str]]) -> dict[str, str]:
    """The shipped games' names and aliases (entry points into kum_widget itself) -> their values."""
    return {name: value for name, values in points.items() for value in values if _is_shipped(value)}


def _load(name: str, value: str) -> type[CardGame]:
    """The class entry point ``name = value`` names, checked: a CardGame subclass whose name
    (or an alias) is ``name``. Anything its import raises becomes an InvalidOptionError."""
    where = f"the game {name!r} (entry point {name} = {value!r} in the group {GROUP})"
    module, _, attr = value.partition(":")
    try:
        found: Any = importlib.import_module(module.strip())
        for part in filter(None, attr.strip().split(".")):
            found = getattr(found, part)
    except KeyboardInterrupt:  # Ctrl-C is the user's, not the plug-in's failure
        raise
    except BaseException as exc:  # a plug-in's import can raise anything, SystemExit too: name it, keep the cause
        raise InvalidOptionError(f"{where} failed to load: {type(exc).__name__}: {cut(str(exc))}") from exc
    if not (isinstance(found, type) and issubclass(found, CardGame)):
        raise InvalidOptionError(f"{where} is {shown(found)}, not a core.CardGame subclass")
    if name != found.name and name not in _aliases_of(found):
        raise InvalidOptionError(f"{where} names a game called {shown(found.name)}: an entry point is named as its game "
                                 "(its name, or one of its aliases)")
    return found
