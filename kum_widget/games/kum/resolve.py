"""What a caller may hand ``kum.Game`` for an action, read into its id.

The rules' ``encode`` and ``parse_action`` (what the session asks for anything but an id)
read here: a ``Play``/``Draw``/``Discard`` (one the game handed out is found at once; one
built by hand is checked against the deck and the mines), and text, whose loose card
references (``'goblin 7'``) are matched against the hand of the player to move. Whether
the action is legal now is not decided here: the session asks the rules (``refusal``
gives the reason).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import Discard, Draw, ParsedAction, Play, action_id, action_table, parse_action
from .cards import match_ids
from .errors import IllegalActionError, InvalidActionError, KumError, shown
from .state import State

__all__ = ["object_id", "text_id"]


def object_id(action: Any, n: int, m: int) -> int:
    """The id of ``action``, a ``Play``/``Draw``/``Discard``, for a deck of ``n`` cards and
    ``m`` mines; raises :class:`InvalidActionError` for what is no action of this deck and
    :class:`IllegalActionError` for a mine that does not exist."""
    known = action_table(n, m).ids.get(id(action))
    if known is not None and known[0] is action:  # one of the objects the game hands out: on every move's path
        return known[1]
    if isinstance(action, int) and not isinstance(action, bool):  # an id (a core Action is one): the session checks it
        return int(action)
    if not isinstance(action, (Play, Draw, Discard)):
        raise InvalidActionError(f"an action is text, an action object or an id, got {type(action).__name__}")
    if isinstance(action, (Play, Discard)) and action.card >= n:
        raise InvalidActionError(f"no card #{action.card} in this deck (ids 0..{n - 1})")
    if isinstance(action, Play) and action.claim is not None and action.claim >= n:
        raise IllegalActionError(f"no claimed mine {action.claim + 1}")
    if isinstance(action, Play) and (action.slot or 0) >= m:
        raise IllegalActionError(f"there is no mine {action.slot + 1}: mines are 1..{m}")  # type: ignore[operator]
    return action_id(action, n, m)


def text_id(s: State, text: str, players: Sequence[str]) -> int:
    """The id of the action ``text`` names in position ``s`` (see the module's doc)."""
    return _resolve_text(s, parse_action(text), text, players)


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
