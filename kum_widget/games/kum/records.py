"""Saving Kings Under Mountains: the core's saves (``kum-session 1``), as every game's.

``game.record()`` writes what ``core.Session.record()`` writes for any game, and
``kum_widget.core.records`` reads it back (a ``kum.Game``)::

    [Game "kings-under-mountains"]
    [Format "kum-session 1"]
    [Player0 "Ada"]
    [Player1 "Bo"]
    [Seed "42"]
    [Setup "{\\"first_player\\": 0, \\"races\\": [\\"orc\\", \\"goblin\\"]}"]
    [Options "{\\"camp_cards\\": 4, \\"deck\\": \\"standard\\", ...}"]
    [Result "Ada 9, Bo -2"]

    1. Ada: play goblin 7 #34 on mine 2; draw deck
    2. Bo: play orc 0 #1 on mine 2; draw camp goblin

What the game needs beyond the core's fields goes through the core's extension points:

- the rules are the game's options (``kum.Rules.to_dict()``: the deck is ``"standard"``
  or its CSV text);
- the Kings and the first player are the options the game's session was dealt with
  (``Setup``: ``kum.Game(players, seed=..., races=..., first_player=...)``);
- a game built from a scenario has its start position in place of a seed (``Start``: the
  game's ``save_position``, the keyword arguments of ``from_scenario`` that lay it out:
  ``races``, ``first_player`` and the layout's fields);
- a dict also holds ``state``, the position now (``save_position`` again), which is
  checked when the dict is read.

The formats the game wrote before (``kum-record 1``, ``kum-game``) are read by ``legacy``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from ...core import records as core_records
from ...core.errors import GameError, cut
from .card_game import KumRules
from .cards import RACES
from .errors import InvalidRecordError, InvalidStateError, shown
from .scenario import load_layout
from .seats import _kings, _player_names
from .state import State, setup

if TYPE_CHECKING:
    from .game import Game
    from .ruleset import Rules

__all__ = ["InvalidSavedGameError", "game_from_dict", "game_from_record", "position_data", "position_state",
           "setup_options", "start_state"]

G = TypeVar("G", bound="Game")


class InvalidSavedGameError(InvalidStateError, InvalidRecordError):
    """A saved game (dict or record) that does not read: an ``InvalidRecordError`` (so a
    ``core.InvalidSaveError``, as every game's loader raises) and an ``InvalidStateError``
    (what ``kum.Game.from_dict`` has always raised)."""


def setup_options(game: Game) -> dict[str, Any] | None:
    """What ``kum.Game`` was dealt with beyond the seed and the rules (a record's Setup);
    None for a game built from a scenario (its start position holds them)."""
    if game.seed is None:
        return None
    return {"races": [k.value for k in game.kings], "first_player": game.first_player}


def position_data(state: State) -> dict[str, Any]:
    """A position as JSON: what ``Game.from_scenario`` takes to lay it out (the Kings as
    ``races``, ``first_player``, the layout's fields; see ``scenario``)."""
    return {"races": [RACES[k].value for k in state.kings], "first_player": state.first, **state.layout()}


def position_state(rules: Rules, data: Any) -> State:
    """Inverse of :func:`position_data`, every field checked (InvalidStateError names it)."""
    if not isinstance(data, Mapping):
        raise InvalidStateError(f"a position is a mapping of its races, first_player and layout, got {shown(data)}")
    races = data.get("races")
    if not isinstance(races, (list, tuple)) or not 2 <= len(races) <= 4:
        raise InvalidStateError(f"races: expected one King race per player (2-4 races), got {shown(races)}")
    layout = {k: v for k, v in data.items() if k not in ("races", "first_player")}
    return start_state(len(races), races, rules, None, layout, data.get("first_player"))


def start_state(players: Any, kings: Any, rules: Rules, seed: Any, layout: Any, first: Any) -> State:
    """The start of a saved game: dealt from ``seed`` or laid out by ``layout``, every
    value checked (an old save or a record may hold anything)."""
    # Shapes first: Game's own checks quote a bad value whole, and a saved game may hold
    # anything (a value nested too deep to print, a number too long to write out).
    if not isinstance(players, (list, tuple)) and type(players) is not int:
        raise InvalidStateError(f"players: expected a list of 2-4 names, got {shown(players)}")
    if type(players) is int and not 2 <= players <= 4:
        raise InvalidStateError(f"players: expected 2-4 players, got {shown(players)}")
    for i, name in enumerate(players if isinstance(players, (list, tuple)) else []):
        if not isinstance(name, str):
            raise InvalidStateError(f"players[{i}]: a name is text, got {shown(name)}")
    names = _player_names(players)
    if kings is None:
        raise InvalidStateError("kings: missing")
    if not isinstance(kings, (list, tuple)) or len(kings) != len(names):
        got = f"{len(kings)}" if isinstance(kings, (list, tuple)) else shown(kings)
        raise InvalidStateError(f"kings: expected one King race per player ({len(names)} races), got {got}")
    king_ids = _kings(kings, len(names))
    if king_ids is None:
        raise InvalidStateError("kings: missing")
    if type(first) is not int or not 0 <= first < len(names):
        raise InvalidStateError(f"first_player: expected a seat 0..{len(names) - 1}, got {shown(first)}")
    if layout is not None:
        return load_layout(rules, names, king_ids, layout, seed=None, first=first, strict=True)
    if type(seed) is not int or not 0 <= seed < 2**64:  # as kum.Game(seed=...) takes them
        raise InvalidStateError(f"seed: expected a whole number 0..2**64-1 (or a layout), got {shown(seed)}")
    return setup(rules, names, seed, [RACES[k] for k in king_ids], first)


def named_start(game: Any, state: Any, players: Any) -> State:
    """A copy of ``state`` (a position of ``game``'s rules) for a ``kum.Game`` of ``players``
    that starts there, with no seed (``Game.from_position``)."""
    if not isinstance(game, KumRules) or not isinstance(state, State):
        raise InvalidStateError(f"from_position takes Kings Under Mountains' rules and a position, got {shown(game)}")
    if state.rules != game.kum_rules:
        raise InvalidStateError("the position was laid out under other rules than the game's")
    names = _player_names(len(state.kings) if players is None else players)
    if len(names) != len(state.kings):
        raise InvalidStateError(f"players: this position has {len(state.kings)} seats, got {len(names)} names")
    start = state.clone()
    start.names, start.seed = names, None
    return start


def game_from_dict(cls: type[G], data: Any, rules: Any) -> G:
    """``kum.Game.from_dict`` of a dict in the core's format (``rules``: the game's class)."""
    return _read(core_records.session_from_dict, cls, data, rules)


def game_from_record(cls: type[G], text: Any, rules: Any) -> G:
    """``kum.Game.from_record`` of a record in the core's format."""
    return _read(core_records.session_from_record, cls, text, rules)


def _read(reader: Callable[..., Any], cls: type[G], data: Any, rules: Any) -> G:
    if not (isinstance(rules, KumRules) or (isinstance(rules, type) and issubclass(rules, KumRules))):
        raise InvalidSavedGameError(f"game: kum.Game reads saves of Kings Under Mountains' rules, got {shown(rules)}")
    try:
        game = reader(cls, data, rules)
    except InvalidSavedGameError:
        raise
    except GameError as exc:  # the core's InvalidSaveError: a KumError too, for this game's callers
        raise InvalidSavedGameError(cut(str(exc), 300)) from None
    if not isinstance(game, cls):  # a save read by another kind of session (the core's own)
        raise InvalidSavedGameError(f"this save holds a {type(game).__name__}, not a {cls.__name__}")
    return game
