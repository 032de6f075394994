"""kum_widget: card games in Jupyter: Kings Under Mountains and the court solitaire.

>>> import kum_widget as kum
>>> game = kum.Game(["Ada", "Bo"], seed=1)
>>> game.current_player
0

The court solitaire of the three clans is ``kum.Court`` (rules: ``kum.CourtRules``).
The widget (``kum.GameWidget``), replay files (``kum.save_replay``), the bots (``kum.bots``), the design lab
(``kum.lab``, ``kum.simulate``) and the core every game is written on
(``kum.core``, see GAMES.md) load on first use, so ``import kum_widget`` stays
light: no Jupyter, pandas, matplotlib or dask at import time.
"""

from typing import TYPE_CHECKING

from . import games  # noqa: F401  (it says which game is the default, and imports none of them)

if TYPE_CHECKING:  # what type checkers see; at run time these load on first use (__getattr__)
    from .games.court import Court as Court
    from .games.court import CourtRules as CourtRules
    from .games.kum import RACES as RACES
    from .games.kum import Action as Action
    from .games.kum import Card as Card
    from .games.kum import Claimed as Claimed
    from .games.kum import ClaimedMine as ClaimedMine
    from .games.kum import Deck as Deck
    from .games.kum import Developed as Developed
    from .games.kum import Discard as Discard
    from .games.kum import Discarded as Discarded
    from .games.kum import Draw as Draw
    from .games.kum import Drew as Drew
    from .games.kum import Event as Event
    from .games.kum import Game as Game
    from .games.kum import GameOver as GameOver
    from .games.kum import IllegalActionError as IllegalActionError
    from .games.kum import InvalidActionError as InvalidActionError
    from .games.kum import InvalidCardError as InvalidCardError
    from .games.kum import InvalidDeckError as InvalidDeckError
    from .games.kum import InvalidRecordError as InvalidRecordError
    from .games.kum import InvalidRulesError as InvalidRulesError
    from .games.kum import InvalidStateError as InvalidStateError
    from .games.kum import KingsUnderMountains as KingsUnderMountains
    from .games.kum import KumError as KumError
    from .games.kum import Mine as Mine
    from .games.kum import MineFace as MineFace
    from .games.kum import OverseerPlaced as OverseerPlaced
    from .games.kum import Play as Play
    from .games.kum import Played as Played
    from .games.kum import Race as Race
    from .games.kum import Refilled as Refilled
    from .games.kum import Rules as Rules
    from .games.kum import Stuck as Stuck

from .core import VERSION as __version__

# The names users know at the top, by the game whose package gives them (each package is
# found through its game's entry point, pyproject.toml): Kings Under Mountains, the seed
# game, and the court solitaire.
FACES = {
    "kings-under-mountains": (
        "RACES", "Action", "Card", "Claimed", "ClaimedMine", "Deck", "Developed", "Discard", "Discarded", "Draw", "Drew",
        "Event", "Game", "GameOver", "IllegalActionError", "InvalidActionError", "InvalidCardError", "InvalidDeckError",
        "InvalidRecordError", "InvalidRulesError", "InvalidStateError", "KingsUnderMountains", "KumError", "Mine",
        "MineFace", "OverseerPlaced", "Play", "Played", "Race", "Refilled", "Rules", "Stuck",
    ),
    "court": ("Court", "CourtRules"),
}

__all__ = [
    *FACES["kings-under-mountains"], *FACES["court"], "GameWidget", "join", "tables",
    "__version__", "core", "lab", "simulate", "court", "save_replay", "replay_html",
]


def _game_package(game: str) -> object:
    """The package of the shipped game ``game``, from its entry point (group kum_widget.games)."""
    import importlib
    from importlib.metadata import entry_points  # only here: it costs import time

    for point in entry_points(group="kum_widget.games", name=game):
        module = point.value.partition(":")[0].strip()
        if module.startswith(__name__ + "."):  # the one that ships with kum_widget, not a plug-in's
            return importlib.import_module(module.rpartition(".")[0])
    raise AttributeError(f"module {__name__!r}: the game {game!r} is not installed (reinstall kum-widget)")


def __getattr__(name: str) -> object:
    # The widget (anywidget, ipywidgets), the bots and the lab load on first use.
    if name == "GameWidget":
        from .board.widget import GameWidget

        return GameWidget
    if name == "join":  # a seat at a referee's table (kum-widget serve): websockets load with it
        from .board.seat_board import join

        return join
    if name == "tables":  # the teacher's view of a referee's tables
        from .board.tables_view import tables

        return tables
    for game, names in FACES.items():
        if name in names:
            value = globals()[name] = getattr(_game_package(game), name)  # once: later reads find it here
            return value
    if name == "court":  # the court solitaire's package
        return _game_package("court")
    if name in ("bots", "lab", "core"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    if name in ("save_replay", "replay_html"):  # a game as one HTML file (kum_widget/board/replay.py)
        from .board import replay

        return getattr(replay, name)
    if name == "simulate":  # the design lab; pandas and tqdm load when it runs
        from .lab import simulate

        return simulate
    raise AttributeError(f"module 'kum_widget' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, "bots"})
