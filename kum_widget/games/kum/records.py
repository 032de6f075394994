"""Saving Kings Under Mountains: the core's saves (``kum-widget-session 1``), as every game's.

``game.record()`` writes what ``core.Session.record()`` writes for any game, and
``kum_widget.core.records`` reads it back (a ``kum.Game``)::

    [Game "kings-under-mountains"]
    [Format "kum-widget-session 1"]
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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ...core import records as core_records
from ...core.errors import GameError, cut
from ...core.session import Session
from .card_game import KumRules
from .cards import RACES, Race
from .errors import InvalidRecordError, InvalidStateError, shown
from .scenario import load_layout
from .seats import king_indexes, player_names
from .state import State

if TYPE_CHECKING:
    from .ruleset import Rules

__all__ = ["InvalidSavedGameError", "game_from_dict", "game_from_record", "named_start", "position_data", "position_state",
           "setup_options"]

G = TypeVar("G", bound=Session)  # kum.Game


class InvalidSavedGameError(InvalidStateError, InvalidRecordError):
    """A saved game (dict or record) that does not read: an ``InvalidRecordError`` (so a
    ``core.InvalidSaveError``, as every game's loader raises) and an ``InvalidStateError``
    (what ``kum.Game.from_dict`` has always raised)."""


def setup_options(kings: Sequence[Race], first_player: int) -> dict[str, Any]:
    """What a dealt ``kum.Game`` was dealt with beyond the seed and the rules (a record's
    Setup): its Kings and first player. A game built from a scenario has none (its start
    position holds them)."""
    return {"races": [k.value for k in kings], "first_player": first_player}


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
    return _laid_out(races, rules, layout, data.get("first_player"))


def _laid_out(kings: list[Any] | tuple[Any, ...], rules: Rules, layout: dict[str, Any], first: Any) -> State:
    """The start position ``layout`` describes, every value checked (a save may hold anything)."""
    names = player_names(len(kings))
    king_ids = king_indexes(kings, len(names)) or []  # (None only for None)
    if type(first) is not int or not 0 <= first < len(names):
        raise InvalidStateError(f"first_player: expected a seat 0..{len(names) - 1}, got {shown(first)}")
    return load_layout(rules, names, king_ids, layout, seed=None, first=first, strict=True)


def named_start(game: Any, state: Any, players: Any) -> State:
    """A copy of ``state`` (a position of ``game``'s rules) for a ``kum.Game`` of ``players``
    that starts there, with no seed (``Game.from_position``)."""
    if not isinstance(game, KumRules) or not isinstance(state, State):
        raise InvalidStateError(f"from_position takes Kings Under Mountains' rules and a position, got {shown(game)}")
    if state.rules != game.kum_rules:
        raise InvalidStateError("the position was laid out under other rules than the game's")
    names = player_names(len(state.kings) if players is None else players)
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
