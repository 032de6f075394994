"""Events: what an accepted action caused, in order.

``Game.apply`` returns a list of these. Each reads as a sentence through
:func:`describe`, which hides what the viewing seat may not see (the card a
player drew from the deck).

Events are immutable named tuples (one is built at almost every action, and a
frozen dataclass costs 2.4 times as much to build), but an event equals only an
event of its own kind: ``Refilled(1, 40) != (1, 40)``. Save a game with
``to_dict()`` or ``record()``: a pickle is not a format kept across versions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, TypeVar

from .cards import RACES, Deck

E = TypeVar("E", bound=tuple[Any, ...])


def _own_kind(cls: type[E]) -> type[E]:
    """An event equals only an event of its own kind (a plain tuple compares by values)."""

    def __eq__(a: tuple[Any, ...], b: object) -> Any:
        if not isinstance(b, tuple):
            return NotImplemented  # the other side decides (mock.ANY), else identity
        return type(a) is type(b) and tuple.__eq__(a, b)

    def __ne__(a: tuple[Any, ...], b: object) -> Any:
        same = __eq__(a, b)
        return same if same is NotImplemented else not same

    cls.__eq__, cls.__ne__, cls.__hash__ = __eq__, __ne__, tuple.__hash__  # type: ignore[assignment,method-assign]
    return cls


__all__ = [
    "Played", "Claimed", "Refilled", "OverseerPlaced", "Developed", "Drew",
    "Discarded", "Stuck", "GameOver", "Event", "describe", "event_to_dict",
]


@_own_kind
class Played(NamedTuple):
    """``seat`` played ``card`` onto ``mine``: available slot ``slot``, or the seat's
    claimed mine number ``claim`` (0-based, in claim order)."""
    seat: int
    card: int
    slot: int | None
    claim: int | None
    mine: int


@_own_kind
class Claimed(NamedTuple):
    """Mine ``mine`` at ``slot`` was claimed by ``seat``. ``reason`` is ``"king"`` (seat
    holds the King of the last card's race) or ``"no_king"`` (that race is not in the
    game, so the player who played it, ``by``, claims). ``to_camp`` is the stack, in order."""
    seat: int
    mine: int
    slot: int
    by: int
    race: int
    reason: str
    to_camp: tuple[int, ...]


@_own_kind
class Refilled(NamedTuple):
    """The empty ``slot`` was refilled with the deck's top card, ``mine``."""
    slot: int
    mine: int


@_own_kind
class OverseerPlaced(NamedTuple):
    """``seat`` put ``card`` of its own race on top of overseer mine ``mine``."""
    seat: int
    card: int
    mine: int


@_own_kind
class Developed(NamedTuple):
    """``seat`` developed ``mine``; its stack ``to_camp`` went to the Camp."""
    seat: int
    mine: int
    to_camp: tuple[int, ...]


@_own_kind
class Drew(NamedTuple):
    """``seat`` drew ``card`` from the deck (``race is None``) or a Camp pile."""
    seat: int
    card: int
    race: int | None


@_own_kind
class Discarded(NamedTuple):
    """``seat`` had no legal play and discarded ``card`` to the Camp (D3)."""
    seat: int
    card: int


@_own_kind
class Stuck(NamedTuple):
    """``seat`` starts a turn with no legal play (rule D3 applies): it must ``then``
    "discard" a card and draw from the deck, or (variant) just "draw" from the deck."""
    seat: int
    then: str = "discard"


@_own_kind
class GameOver(NamedTuple):
    """The deck ran out (D2). Final ``scores`` per seat and the ``winners`` (D4)."""
    scores: tuple[int, ...]
    winners: tuple[int, ...]


Event = Played | Claimed | Refilled | OverseerPlaced | Developed | Drew | Discarded | Stuck | GameOver


def _names(seats: Sequence[int], names: Sequence[str]) -> str:
    words = [names[s] for s in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def describe(event: Event, deck: Deck, names: Sequence[str], viewer: int | None = None) -> str:
    """One sentence for ``event``. A deck draw names the card only for its drawer
    (``viewer`` = that seat) or the full table (``viewer=None``)."""
    if isinstance(event, Played):
        if event.slot is not None:
            where = f"mine {event.slot + 1}"
        else:
            where = f"their claimed mine {(event.claim or 0) + 1} ({deck[event.mine].mine})"
        return f"{names[event.seat]} played {deck[event.card].creature} on {where}."
    if isinstance(event, Claimed):
        race = RACES[event.race].value
        where = f"mine {event.slot + 1} ({deck[event.mine].mine})"
        if event.reason == "king":
            return f"{names[event.seat]}'s {race}s claim {where}."
        return f"No one is King of the {race}s, so {names[event.seat]} claims {where}."
    if isinstance(event, Refilled):
        return f"Mine {event.slot + 1} refilled from the deck: {deck[event.mine].mine}."
    if isinstance(event, OverseerPlaced):
        return f"{names[event.seat]} placed the overseer {deck[event.card].creature} on {deck[event.mine].mine}."
    if isinstance(event, Developed):
        pts = deck[event.mine].points
        return f"{names[event.seat]} developed mine {deck[event.mine].mine} for {pts} point{'' if pts == 1 else 's'}."
    if isinstance(event, Drew):
        if event.race is not None:
            return f"{names[event.seat]} drew {deck[event.card].creature} from the {RACES[event.race].value} camp pile."
        if viewer is None or viewer == event.seat:
            return f"{names[event.seat]} drew {deck[event.card].creature} from the deck."
        return f"{names[event.seat]} drew from the deck."
    if isinstance(event, Discarded):
        return f"{names[event.seat]} had no legal play and discarded {deck[event.card].creature}."
    if isinstance(event, Stuck):
        if event.then == "draw":
            return f"{names[event.seat]} has no legal play and draws from the deck instead."
        return f"{names[event.seat]} has no legal play and must discard."
    scores = ", ".join(f"{names[s]} {p}" for s, p in enumerate(event.scores))
    verb = "wins" if len(event.winners) == 1 else "share the win"
    return f"Game over: {scores}. {_names(event.winners, names)} {verb}."


def event_to_dict(event: Event, deck: Deck, names: Sequence[str], viewer: int | None = None) -> dict[str, object]:
    """JSON-safe form for ``viewer`` (None: the full table).

    Cards appear as their visible face only: creatures as ``"goblin 7"``, mines as
    ``"d3 s2 p4"``; a card drawn from the deck is left out for the other seats. Only
    the full table (``viewer=None``) also gets card ids. ``text`` is :func:`describe`.
    """
    out: dict[str, object] = {"kind": type(event).__name__.lower()}
    for name in event._fields:
        value = getattr(event, name)
        if name == "card":
            hidden = isinstance(event, Drew) and event.race is None and viewer is not None and viewer != event.seat
            out["card"] = None if hidden else deck[value].creature
            if viewer is None:
                out["card_id"] = value
        elif name == "mine":
            out["mine"] = str(deck[value].mine)
            if viewer is None:
                out["mine_id"] = value
        elif name == "to_camp":
            out["to_camp"] = [deck[c].creature for c in value]
        elif name == "race":
            out["race"] = None if value is None else RACES[value].value
        else:
            out[name] = list(value) if isinstance(value, tuple) else value
    out["text"] = describe(event, deck, names, viewer)
    return out
