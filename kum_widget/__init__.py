"""kum_widget: Kings Under Mountains in Jupyter.

>>> import kum_widget as kum
>>> game = kum.Game(["Ada", "Bo"], seed=1)
>>> game.current_player
0

The widget (``kum.GameWidget``) and the bots (``kum.bots``) load on first use, so
``import kum_widget`` stays light: no Jupyter, pandas or matplotlib at import time.
"""

from .engine import (
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
    "Draw", "Drew", "Event", "Game", "GameOver", "GameWidget", "IllegalActionError", "InvalidActionError",
    "InvalidCardError", "InvalidDeckError", "InvalidRecordError", "InvalidRulesError", "InvalidStateError",
    "KumError", "Mine", "MineFace", "OverseerPlaced", "Play", "Played", "Race", "Refilled", "Rules", "Stuck",
    "__version__",
]


def __getattr__(name: str) -> object:
    # The widget (anywidget, ipywidgets) and the bots load on first use.
    if name == "GameWidget":
        from .widget import GameWidget

        return GameWidget
    if name == "bots":
        import importlib

        return importlib.import_module(".bots", __name__)
    raise AttributeError(f"module 'kum_widget' has no attribute {name!r}")
