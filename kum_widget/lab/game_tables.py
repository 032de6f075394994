"""Deck tables of Kings Under Mountains as DataFrames: read the standard table, change it,
save a CSV that ``kum.Deck.from_csv`` loads.

The one part of the lab about a single game; it reaches the game through the registry
(``core.game_class("kings-under-mountains")``), as the rest of the lab does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.errors import GameError
from ..core.registry import game_class
from .play import DEFAULT_GAME

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["deck_table", "face_table"]


def _standard_deck() -> Any:
    return game_class(DEFAULT_GAME)().kum_rules.deck  # type: ignore[attr-defined]


def deck_table(deck: Any = None) -> pd.DataFrame:
    """One row per card of a Kings Under Mountains deck (a ``kum.Deck``; default the
    standard one), in the columns of a deck CSV (``id, race, value, defense, size,
    points, overseer``) plus ``face`` (the mine face as text).
    ``table.drop(columns="face").to_csv(path, index=False)`` writes a file
    ``kum.Deck.from_csv(path)`` reads back.

    >>> t = deck_table()
    >>> len(t), list(t.columns)
    (80, ['id', 'race', 'value', 'defense', 'size', 'points', 'overseer', 'face'])
    """
    import pandas as pd

    standard = _standard_deck()
    deck = standard if deck is None else deck
    if not isinstance(deck, type(standard)):
        raise GameError(f"deck_table: expected a kum.Deck, got {type(deck).__name__}")
    return pd.DataFrame(
        {
            "id": [c.id for c in deck],
            "race": [c.race.value for c in deck],
            "value": [c.value for c in deck],
            "defense": [c.defense for c in deck],
            "size": [c.size for c in deck],
            "points": [c.points for c in deck],
            "overseer": [c.overseer for c in deck],
            "face": [str(c.mine) for c in deck],
        }
    )


def face_table(deck: Any = None) -> pd.DataFrame:
    """The distinct mine faces of a deck with how many cards carry each (the RULES.md
    D7 table for the standard deck)."""
    t = deck_table(deck)
    out = (
        t.groupby(["face", "defense", "size", "points", "overseer"], sort=False)
        .size()
        .rename("cards")
        .reset_index()
        .sort_values(["overseer", "points", "defense"], kind="stable")
    )
    return out.reset_index(drop=True)
