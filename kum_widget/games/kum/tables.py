"""Kings Under Mountains' tables for the design lab: a deck's cards and its mine faces, as
rows (standard library only). They are a plug-in's tables (entry points of the group
``kum_widget.tables``, pyproject.toml): the lab makes each a DataFrame,
``kum.lab.deck_table()`` and ``kum.lab.face_table()``.
"""

from __future__ import annotations

from typing import Any

from .cards import Deck
from .errors import InvalidDeckError

__all__ = ["deck_table", "face_table"]

_FACE = ("face", "defense", "size", "points", "overseer")  # what tells one mine face from another


def deck_table(deck: Deck | None = None) -> list[dict[str, Any]]:
    """One row per card of a deck (a ``kum.Deck``; default the standard one), in the columns
    of a deck CSV (``id, race, value, defense, size, points, overseer``) plus ``face`` (the
    mine face as text). ``table.drop(columns="face").to_csv(path, index=False)`` writes a
    file ``kum.Deck.from_csv(path)`` reads back.

    >>> import kum_widget as kum
    >>> t = kum.lab.deck_table()
    >>> len(t), list(t.columns)
    (80, ['id', 'race', 'value', 'defense', 'size', 'points', 'overseer', 'face'])
    """
    deck = Deck.standard() if deck is None else deck
    if not isinstance(deck, Deck):
        raise InvalidDeckError(f"deck_table: expected a kum.Deck, got {type(deck).__name__}")
    return [{"id": c.id, "race": c.race.value, "value": c.value, "defense": c.defense, "size": c.size,
             "points": c.points, "overseer": c.overseer, "face": str(c.mine)} for c in deck]


def face_table(deck: Deck | None = None) -> list[dict[str, Any]]:
    """The distinct mine faces of a deck with how many cards carry each (the RULES.md D7
    table for the standard deck), the faces without the overseer sign first, by points then
    defense."""
    counts: dict[tuple[Any, ...], int] = {}
    for row in deck_table(deck):
        key = tuple(row[c] for c in _FACE)
        counts[key] = counts.get(key, 0) + 1
    order = sorted(counts, key=lambda k: (k[4], k[3], k[1]))  # stable: ties keep the deck's order
    return [{**dict(zip(_FACE, key, strict=True)), "cards": counts[key]} for key in order]
