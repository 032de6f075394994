"""Court of the Three Clans: a solitaire of the Sun, Moon and Earth clans against the
Daemon Princes of the Fire Clan, on the core's ``CardGame`` protocol (rules: COURT.md).

``Court`` is a game you play (a core Session with the game's own reading API);
``CourtOfTheThreeClans`` is the rules, for the bots, the lab and ``check_game``.
"""

from __future__ import annotations

from .card_game import CourtOfTheThreeClans
from .cards import CLANS, POWERS, PRINCE, ROLES, Card, CardTable, table_for
from .game import Court
from .ruleset import CourtRules
from .state import BUY, FIGHT, PASS, RANKS, SKIP, START, CourtState, space_name

__all__ = ["BUY", "CLANS", "FIGHT", "PASS", "POWERS", "PRINCE", "RANKS", "ROLES", "SKIP", "START",
           "Card", "CardTable", "Court", "CourtOfTheThreeClans", "CourtRules", "CourtState", "space_name", "table_for"]
