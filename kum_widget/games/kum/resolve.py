"""What a caller may hand ``kum.Game`` for an action, read into its id.

The game's own action objects (those ``legal_actions()`` hands out) and ids are looked up
by ``Game._resolve`` itself, on every move's path; this module reads the rest: a
``Play``/``Draw``/``Discard`` built by hand, checked against the deck and the mines, and
text, whose loose card references (``'goblin 7'``) are matched against the hand of the
player to move. Whether the action is legal now is not decided here: the session asks
the rules (``refusal`` gives the reason).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import Discard, Draw, ParsedAction, Play, action_id, parse_action
from .cards import match_ids
from .errors import IllegalActionError, InvalidActionError, KumError, shown
from .state import State

__all__ = ["resolve_action"]


def resolve_action(s: State, action: Any, players: Sequence[str]) -> int:
    """The id of ``action`` (an action object or its text) in position ``s``; raises
    :class:`InvalidActionError` for what is no action of this deck and
    :class:`IllegalActionError` for a mine that does not exist."""
    if isinstance(action, (Play, Draw, Discard)):
        aid = action_id(action, s.n, s.m)
        if (isinstance(action, Play) and action.card >= s.n) or (isinstance(action, Discard) and action.card >= s.n):
            raise InvalidActionError(f"no card #{action.card} in this deck (ids 0..{s.n - 1})")
        if isinstance(action, Play) and action.claim is not None and action.claim >= s.n:
            raise IllegalActionError(f"no claimed mine {action.claim + 1}")
        if isinstance(action, Play) and (action.slot or 0) >= s.m:
            raise IllegalActionError(f"there is no mine {action.slot + 1}: mines are 1..{s.m}")  # type: ignore[operator]
        return aid
    if isinstance(action, str):
        return _resolve_text(s, parse_action(action), action, players)
    raise InvalidActionError(f"an action is text, an action object or an id, got {type(action).__name__}")


def _resolve_text(s: State, p: ParsedAction, text: str, players: Sequence[str]) -> int:
    if p.kind == "draw":
        return action_id(Draw(p.race), s.n, s.m)
    try:
        ids = match_ids(s.cards, p.card or "")
    except KumError as exc:
        raise InvalidActionError(f"{shown(text)}: {exc}") from None
    hand = s.hands[s.current]
    mine = [c for c in ids if c in hand]
    if len(ids) == 1 or not mine:
        card = ids[0]  # refusal() will say it is not in hand
    elif len(mine) == 1:
        card = mine[0]
    else:
        options = " or ".join(repr(s.cards[c].label) for c in mine)
        raise InvalidActionError(f"{shown(text)} is ambiguous: {players[s.current]} holds {options}")
    if p.kind == "discard":
        return action_id(Discard(card), s.n, s.m)
    if p.slot is not None and p.slot >= s.m:
        raise IllegalActionError(f"{shown(text)}: there is no mine {p.slot + 1}: mines are 1..{s.m}")
    if p.claim is not None and p.claim >= s.n:
        raise IllegalActionError(f"{shown(text)}: no claimed mine {p.claim + 1}")
    return action_id(Play(card, slot=p.slot, claim=p.claim), s.n, s.m)
