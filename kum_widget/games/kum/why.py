"""Why a part of the Kings Under Mountains board takes no move now, in the game's words
(``CardGame.why_not``): read from the view of the seat to act alone, so it names only what
that seat sees (its own hand, the table).

Parts, as the board names them (``board.py``): ``card <id>`` (a card of the seat's hand),
``mine <n>``, ``claimed <seat>.<k>``, ``deck`` and ``camp <race>``: a reason on a zone
covers the cards in it (the board shows it when any of them is pointed at), so the cards
on a mine or a Camp pile get none of their own.
"""

from __future__ import annotations

import re
from typing import Any

from .rules import can_follow

__all__ = ["why_not"]

_MINE = re.compile(r"mine (\d+)")
_CLAIMED = re.compile(r"claimed (\d+)\.(\d+)")
ORDER = "a creature must be higher than the top card (a 0 goes on a 9)"


def _top(stack: list[dict[str, Any]]) -> int | None:
    return stack[-1]["value"] if stack else None


def _a(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _named(c: dict[str, Any] | None) -> str:
    return f"{c['race']} {c['value']}" if c else "nothing"


def _claimed_takes(mine: dict[str, Any], race: str, value: int, own: str) -> str | None:
    """None if a ``race`` ``value`` goes on this claimed mine of the seat, else why not."""
    k, top = mine["number"], (mine["stack"][-1] if mine["stack"] else None)
    if mine["needs_overseer"]:
        if race != own:
            return f"your claimed mine {k} is full: only {_a(own)} (your own race) finishes it"
    elif race == own:
        if mine["mine"].get("overseer"):
            return f"your own race ({own}) goes on your claimed mine {k} only as its overseer, once it is full"
        return f"you may not play your own race ({own}) on your claimed mines"
    if not can_follow(_top(mine["stack"]), value):
        return f"your claimed mine {k} has {_named(top)} on top"
    return None


def _card(view: dict[str, Any], me: dict[str, Any], c: dict[str, Any]) -> str | None:
    race, value, own = c["race"], c["value"], me["king"]
    mines = [m for m in view["mines"] if m["mine"] is not None]
    if any(can_follow(_top(m["stack"]), value) for m in mines):
        return None
    claimed = [_claimed_takes(m, race, value, own) for m in me["claimed"]]
    if any(r is None for r in claimed):
        return None
    tops = ", ".join(f"mine {m['number']} has {_named(m['stack'][-1])}" for m in mines)
    said = f"{race.capitalize()} {value} goes on no mine now: {tops or 'there is no mine left'}; {ORDER}."
    if claimed:
        said += " And " + "; ".join(r for r in claimed if r) + "."
    return said


def _mine(view: dict[str, Any], me: dict[str, Any], n: int) -> str | None:
    mine = next((m for m in view["mines"] if m["number"] == n), None)
    if mine is None:
        return None
    if mine["mine"] is None:
        return f"Mine {n} is gone: the deck ran out before it could be refilled."
    top = _top(mine["stack"])
    if any(c.get("value") is not None and can_follow(top, c["value"]) for c in me["hand"]):
        return None
    return f"None of your cards goes on mine {n}: its top card is {_named(mine['stack'][-1])}, and a creature must be higher (a 0 goes on a 9)."


def _claimed(view: dict[str, Any], me: dict[str, Any], owner: int, k: int) -> str | None:
    players = view["players"]
    if not 0 <= owner < len(players):
        return None
    if owner != me["seat"]:
        name = players[owner]["name"]
        return f"Only {name} plays on {name}'s claimed mines."
    mine = next((m for m in me["claimed"] if m["number"] == k), None)
    if mine is None:
        return None
    reasons = {_claimed_takes(mine, c["race"], c["value"], me["king"]) for c in me["hand"] if c.get("value") is not None}
    if None in reasons or not reasons:
        return None
    if mine["needs_overseer"]:
        return (f"Your claimed mine {k} is full: only {_a(me['king'])} (your own race) higher than its top card "
                f"({_named(mine['stack'][-1])}) finishes it, and you hold none that fits.")
    return (f"None of your cards goes on your claimed mine {k}: it takes the other races, higher than its top card "
            f"({_named(mine['stack'][-1] if mine['stack'] else None)}), never your own ({me['king']}) before it is full.")


def why_not(view: dict[str, Any], seat: int, part: str) -> str | None:
    """The reason ``part`` takes no move of ``seat`` (the seat to act) now, or None."""
    players = view.get("players") or []
    if view.get("over") or view.get("current") != seat or not 0 <= seat < len(players):
        return None
    me, phase = players[seat], view["phase"]
    mine, claimed = _MINE.fullmatch(part), _CLAIMED.fullmatch(part)
    if claimed and int(claimed[1]) != seat:
        return _claimed(view, me, int(claimed[1]), int(claimed[2]))  # another's: whatever the phase
    camp = part.startswith("camp ") and part[5:] in view["camp"]  # a Camp pile (not a card on it)
    if phase == "draw":
        if camp:
            race = part[5:]
            if not view["camp"].get(race):
                return f"The {race} pile of the Camp is empty."
            return "After a turn with no legal play you draw from the deck only." if view["deck_only"] else None
        if part == "deck":
            return "The deck is empty." if not view["deck"]["size"] else None
        if part.startswith("card ") or mine or claimed:
            if view["deck_only"]:
                return "You had no legal play this turn: now draw from the deck."
            return "You have played this turn: now draw, from the deck or a Camp pile."
        return None
    if phase == "discard":
        if part == "deck" or camp or mine or claimed:
            return "No card of yours can be played: discard one from your hand (click it), then draw from the deck."
        return None
    if phase != "play":
        return None
    if part == "deck" or camp:
        return "First play a creature from your hand; then you draw, from the deck or a Camp pile."
    if mine:
        return _mine(view, me, int(mine[1]))
    if claimed:
        return _claimed(view, me, int(claimed[1]), int(claimed[2]))
    if part.startswith("card "):
        card = next((c for c in me["hand"] if c.get("id") is not None and f"card {c['id']}" == part), None)
        return _card(view, me, card) if card is not None and card.get("value") is not None else None
    return None
