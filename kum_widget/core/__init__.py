"""The game-agnostic core: what a card game implements, and what every game gets.

- :class:`CardGame`: the protocol (rules as functions of the game's own state), and
  :func:`game_type`: what a game class declares and which optional methods it writes,
  read once (:class:`GameType`).
- :class:`Session`: one game being played: players, seed, history, undo/redo,
  state id, listeners, refusal before change, records.
- :class:`Action`: what a session hands out for an action, in every game: its id (an
  ``int``) with its text, and the game's own object (``move``) if it has one.
- :func:`check_game`: the conformance checker a game author runs from a cell.
- :func:`measure_chance`, :func:`foreign_randomness`: where a game's chance comes from (the
  deal, play), and that it comes only from the generator ``setup()`` is handed.
- :func:`register`: make a game known by name (records, ``simulate(game=...)``).

Standard library only. See GAMES.md for the protocol and a complete example.
"""

from typing import Any

from .actions import Action
from .errors import GameError, GameFault, IllegalMoveError, InvalidOptionError, InvalidSaveError
from .events import Note
from .game import CardGame, GameType, RuleOptions, game_type, top_actions
from .registry import game_class, game_names, register
from .session import Session

VERSION = "0.1.0"  # kum_widget's version (kum_widget.__version__): a referee and its clients must run the same

__all__ = [
    "VERSION",
    "Action", "CardGame", "Chance", "CheckReport", "CountingRandom", "GameError", "GameFault", "GameType", "IllegalMoveError",
    "InvalidOptionError", "InvalidSaveError", "Note", "RuleOptions", "Session", "check_game", "foreign_randomness",
    "game_class", "game_names", "game_type", "measure_chance", "register", "top_actions",
]


def __getattr__(name: str) -> Any:
    # The checker loads on first use: a game being played never needs it.
    if name in ("check_game", "CheckReport"):
        from . import checker

        return getattr(checker, name)
    if name in ("measure_chance", "foreign_randomness", "Chance", "CountingRandom"):  # the same: only a game's author asks
        from . import chance

        return getattr(chance, name)
    raise AttributeError(f"module 'kum_widget.core' has no attribute {name!r}")
