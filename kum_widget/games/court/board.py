"""The court solitaire as the generic board draws it (GAMES.md, "The board")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .state import CourtState

if TYPE_CHECKING:
    from .rules import CourtOfTheThreeClans

__all__ = ["court_board", "court_click"]


def court_board(game: CourtOfTheThreeClans, view: dict[str, Any]) -> dict[str, Any] | None:
    return None


def court_click(s: CourtState, action: int) -> dict[str, Any]:
    return {}
