"""What a game is and what it can do, read once from its class: :class:`GameType`.

A game implements seven required methods (:data:`REQUIRED`); everything else is an
optional capability in one of a few groups (:data:`GROUPS`), switched on by writing it.
:func:`kum_widget.core.game_type` reads a game class once into one :class:`GameType` (as
OpenSpiel's GameType declares a game), checking each declaration, and every layer (the
session, the checker, the bots, the lab, the board) asks it rather than looking a method up
on its own.

>>> from kum_widget.core import game_type
>>> from kum_widget.core.examples import Bust
>>> t = game_type(Bust)
>>> t.name, t.players, t.nothing_hidden, t.has("heuristic"), t.has("board")
('bust', (2, 4), False, True, True)
>>> t.groups()["hidden information"]
('public_view', 'determinize', 'secrets')
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .errors import IllegalMoveError, InvalidOptionError, shown

__all__ = ["GROUPS", "REQUIRED", "GameType", "read_game_type"]

REQUIRED = ("setup", "current_player", "legal_actions", "apply", "is_over", "scores", "view")
"""The rules every game writes: the start, who acts, what they may do, doing it, the end,
the scores, and what a seat sees."""

GROUPS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "texts": ("action_text", "parse_action", "refusal", "describe", "how_to_play"),
    "action objects": ("move", "encode"),
    "turns and seats": ("to_act", "winners", "turn", "check_players", "new_session"),
    "hidden information": ("public_view", "determinize", "sampler", "any_position", "secrets", "from_view"),
    "heuristics": ("heuristic", "best_actions", "view_heuristic", "evaluate"),
    "board": ("board", "click", "why_not"),
    "the lab": ("summary", "columns", "action_kind"),
    "speed and saving": ("step", "is_legal", "actions", "clone", "same", "save_position", "load_position"),
})
"""The optional methods, by what they give (GAMES.md, "The idea"): each has a default in
``CardGame``; a game switches one on by writing it."""

_OPTIONAL = frozenset(hook for hooks in GROUPS.values() for hook in hooks)


@dataclass(frozen=True)
class GameType:
    """What a game class declares, checked: its names, its seats, what it hides, what it
    suggests to searching bots, and which optional methods it writes (``hooks``)."""

    name: str
    title: str
    aliases: tuple[str, ...]
    players: tuple[int, int]  # the fewest and the most seats
    simultaneous: bool
    perfect_information: bool  # as declared (check_game verifies the claim)
    fair_heuristic: bool
    search_hints: Mapping[str, Any]
    mirror_kinds: tuple[tuple[str, ...], ...]
    hooks: frozenset[str]  # the optional methods the class (or a base of its own) writes
    illegal_error: type[IllegalMoveError]  # what a session raises for an action the rules refuse now
    option_error: type[InvalidOptionError]  # ... and for a seat or a count it cannot take

    @property
    def nothing_hidden(self) -> bool:
        """Whether a bot may be handed the position itself: perfect information, and no
        simultaneous step (a pick is sealed until the game shows it, whatever it declares)."""
        return self.perfect_information and not self.simultaneous

    def has(self, hook: str) -> bool:
        """Whether the game writes the optional method ``hook`` (a name from :data:`GROUPS`)."""
        if hook not in _OPTIONAL:
            raise InvalidOptionError(f"{shown(hook)} is no optional method of a game (see core.capabilities.GROUPS)")
        return hook in self.hooks

    def groups(self) -> dict[str, tuple[str, ...]]:
        """The optional methods the game writes, by group (a group it writes none of: empty)."""
        return {group: tuple(h for h in hooks if h in self.hooks) for group, hooks in GROUPS.items()}


def read_game_type(cls: type, base: type) -> GameType:
    """``cls``'s declarations, checked (``core.game_type`` reads each class once through
    this): a method counts as written when what the class finds is not ``base``'s (``CardGame``'s)."""
    where = cls.__name__

    def text(attr: str) -> str:
        value = getattr(cls, attr)
        if not isinstance(value, str):
            raise InvalidOptionError(f"{where}.{attr} must be text, got {shown(value)}")
        return value

    def flag(attr: str) -> bool:
        value = getattr(cls, attr)
        if type(value) is not bool:
            raise InvalidOptionError(f"{where}.{attr} must be True or False, got {shown(value)}")
        return value

    lo, hi = cls.min_players, cls.max_players  # type: ignore[attr-defined]
    if type(lo) is not int or type(hi) is not int or not 1 <= lo <= hi:
        raise InvalidOptionError(f"{where}: min_players and max_players must be whole numbers with 1 <= min <= max, "
                                 f"got {shown(lo)} and {shown(hi)}")
    hints = cls.search_hints  # type: ignore[attr-defined]
    if not isinstance(hints, Mapping) or not all(isinstance(k, str) for k in hints):
        raise InvalidOptionError(f"{where}.search_hints must be a dict of ISMCTSBot settings by name, got {shown(hints)}")
    aliases = cls.aliases  # type: ignore[attr-defined]
    if isinstance(aliases, str) or not isinstance(aliases, (tuple, list)) or not all(isinstance(a, str) and a for a in aliases):
        raise InvalidOptionError(f"{where}.aliases must be a tuple of other names (text), like ('mg',), got {shown(aliases)}")
    # Written: what the class finds is not CardGame's own (a subclass may take one back: best_actions = CardGame.best_actions).
    hooks = frozenset(h for h in _OPTIONAL if inspect.getattr_static(cls, h, None) is not inspect.getattr_static(base, h))
    for hook in sorted(hooks):
        if not callable(getattr(cls, hook)):
            raise InvalidOptionError(f"{where}.{hook} must be a method, got {shown(getattr(cls, hook))}")
    def error(attr: str, base_error: type) -> Any:
        value = getattr(cls, attr)
        if not (isinstance(value, type) and issubclass(value, base_error)):
            raise InvalidOptionError(f"{where}.{attr} must be a subclass of core.{base_error.__name__}, got {shown(value)}")
        return value

    return GameType(name=text("name"), title=text("title"), aliases=tuple(aliases), players=(lo, hi),
                    simultaneous=flag("simultaneous"), perfect_information=flag("perfect_information"),
                    fair_heuristic=flag("fair_heuristic"), search_hints=MappingProxyType(dict(hints)),
                    mirror_kinds=tuple(cls.mirror_kinds), hooks=hooks,  # type: ignore[attr-defined]
                    illegal_error=error("illegal_error", IllegalMoveError), option_error=error("option_error", InvalidOptionError))
