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

from .games.kum import (
    RACES,
    Action,
    Card,
    Claimed,
    ClaimedMine,
    Deck,
    Developed,
    Discard,
    Discarded,
    Draw,
    Drew,
    Event,
    Game,
    GameOver,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    InvalidDeckError,
    InvalidRecordError,
    InvalidRulesError,
    InvalidStateError,
    KingsUnderMountains,
    KumError,
    Mine,
    MineFace,
    OverseerPlaced,
    Play,
    Played,
    Race,
    Refilled,
    Rules,
    Stuck,
)

__version__ = "0.1.0"
__all__ = [
    "RACES", "Action", "Card", "Claimed", "ClaimedMine", "Deck", "Developed", "Discard", "Discarded",
    "Draw", "Drew", "Event", "Game", "GameOver", "GameWidget", "IllegalActionError", "KingsUnderMountains", "InvalidActionError",
    "InvalidCardError", "InvalidDeckError", "InvalidRecordError", "InvalidRulesError", "InvalidStateError",
    "KumError", "Mine", "MineFace", "OverseerPlaced", "Play", "Played", "Race", "Refilled", "Rules", "Stuck",
    "__version__", "core", "lab", "simulate", "Court", "CourtRules", "court", "save_replay", "replay_html",
]


def __getattr__(name: str) -> object:
    # The widget (anywidget, ipywidgets), the bots and the lab load on first use.
    if name == "GameWidget":
        from .board.widget import GameWidget

        return GameWidget
    if name in ("Court", "CourtRules"):  # the court solitaire (games/court)
        from .games import court

        return getattr(court, name)
    if name == "court":
        import importlib

        return importlib.import_module(".games.court", __name__)
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
