"""Kings Under Mountains, on the core: the rules, in the standard library only.

Modules by concept: ``cards`` (races, cards, deck tables), ``ruleset`` (rule
options), ``state`` (a position), ``actions`` (actions, notation, ids), ``rules``
(legality and effects), ``events``, ``views`` (what a seat sees), ``scenario``
(positions built by hand), ``records`` (saving), ``seats`` (names and Kings),
``card_game`` (the core protocol: ``KumRules``), ``heuristic`` and ``sampling`` (for
the bots), ``board`` (the board's drawing), ``game`` (the public ``Game`` session and
``KingsUnderMountains``, the game as the core sees it).
"""

from .actions import Action, Discard, Draw, Play
from .cards import RACES, Card, Deck, MineFace, Race
from .errors import (
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    InvalidDeckError,
    InvalidRecordError,
    InvalidRulesError,
    InvalidStateError,
    KumError,
)
from .events import (
    Claimed,
    Developed,
    Discarded,
    Drew,
    Event,
    GameOver,
    OverseerPlaced,
    Played,
    Refilled,
    Stuck,
)
from .game import ClaimedMine, Game, KingsUnderMountains, Mine
from .ruleset import Rules

__all__ = [
    "Action", "Card", "Claimed", "ClaimedMine", "Deck", "Developed", "Discard", "Discarded", "Draw",
    "Drew", "Event", "Game", "GameOver", "IllegalActionError", "KingsUnderMountains", "InvalidActionError", "InvalidCardError",
    "InvalidDeckError", "InvalidRecordError", "InvalidRulesError", "InvalidStateError", "KumError", "Mine",
    "MineFace", "OverseerPlaced", "Play", "Played", "RACES", "Race", "Refilled", "Rules", "Stuck",
]
