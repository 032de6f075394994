"""Court of the Three Clans: a solitaire of the Sun, Moon and Earth clans against the
Daemon Princes of the Fire Clan, on the core's ``CardGame`` protocol (rules: COURT.md)."""

from __future__ import annotations

from .cards import CLANS, POWERS, PRINCE, ROLES, Card, CardTable, table_for
from .game import BUY, FIGHT, PASS, RANKS, SKIP, START, Court, CourtState, space_name

__all__ = ["BUY", "CLANS", "FIGHT", "PASS", "POWERS", "PRINCE", "RANKS", "ROLES", "SKIP", "START",
           "Card", "CardTable", "Court", "CourtState", "space_name", "table_for"]
