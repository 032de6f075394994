"""Deck tables as DataFrames: read the standard table, change it, save a CSV that
``kum.Deck.from_csv`` loads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..games.kum import Deck

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["deck_table", "face_table"]


def deck_table(deck: Deck | None = None) -> pd.DataFrame:
    """One row per card, in the columns of a deck CSV (``id, race, value, defense, size,
    points, overseer``) plus ``face`` (the mine face as text). ``Deck.standard()`` by
    default. ``table.drop(columns="face").to_csv(path, index=False)`` writes a file
    ``kum.Deck.from_csv(path)`` reads back.
    """
    import pandas as pd

    deck = Deck.standard() if deck is None else deck
    if not isinstance(deck, Deck):
        raise ValueError(f"deck_table: expected a kum.Deck, got {type(deck).__name__}")
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


def face_table(deck: Deck | None = None) -> pd.DataFrame:
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
