"""The position of Court of the Three Clans, and the layout of its action ids.

Places of the Society Row are 1 (left) to 4 (right); spaces of the Royal Court are
``r.c``: row 1 or 2, column 1 to 4 (``1.1`` top left, ``2.4`` bottom right). In code,
places and spaces count from 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "PLACES", "SPACES", "START", "BUY", "PASS", "FIGHT", "SKIP", "SETUP", "BUYING", "FIGHTING", "OVER",
    "PHASES", "RANKS", "STARTING_CARDS", "CourtState", "space_name", "neighbours", "row_of",
]

PLACES, SPACES = 4, 8
# Action ids: start and buy are base + place * 8 + space (both from 0); fight is FIGHT + place.
START, BUY, PASS, FIGHT, SKIP = 0, 100, 200, 210, 220
SETUP, BUYING, FIGHTING, OVER = "setup", "buy", "fight", "over"
PHASES = (SETUP, BUYING, FIGHTING, OVER)
RANKS = ("Overthrown", "Troubled Reign", "Prosperous Reign", "Golden Age")
STARTING_CARDS = 3


def space_name(space: int) -> str:
    """``0..7`` as ``"1.1".."2.4"``."""
    return f"{space // 4 + 1}.{space % 4 + 1}"


def neighbours(space: int) -> list[int]:
    """The spaces left, right, above and below ``space`` in the 2 x 4 court."""
    r, c = divmod(space, 4)
    out = [space - 1] if c > 0 else []
    out += [space + 1] if c < 3 else []
    out.append((1 - r) * 4 + c)
    return out


def row_of(space: int) -> range:
    """The four spaces of the court row that holds ``space``."""
    r = space // 4
    return range(r * 4, r * 4 + 4)


@dataclass
class CourtState:
    pile: list[int]  # the draw pile, its top card last (hidden order)
    row: list[int | None]  # the Society Row, place 1 (left) first
    court: list[int | None]  # the Royal Court, spaces 1.1..1.4 then 2.1..2.4
    cp: int
    seed: int  # shuffles the set-aside princes back in after the setup choice (hidden)
    aside: list[int] = field(default_factory=list)  # princes set aside while dealing the first row
    phase: str = SETUP
    discarded: list[int] = field(default_factory=list)
    defeated: list[int] = field(default_factory=list)
    captured: list[int] = field(default_factory=list)  # the Court of the Daemon Princes
    bought: list[int] = field(default_factory=list)  # every card bought, in order
    turn: int = 1
    fights: int = 0  # fights this turn
    exhausted: bool = False  # a draw found the pile empty (C7): the game ends after phase 3

    def copy(self) -> CourtState:
        return CourtState(self.pile[:], self.row[:], self.court[:], self.cp, self.seed, self.aside[:], self.phase,
                          self.discarded[:], self.defeated[:], self.captured[:], self.bought[:], self.turn,
                          self.fights, self.exhausted)

    def to_json(self) -> dict[str, object]:
        """Every field, JSON-safe (a record of a game started from a scenario keeps it)."""
        return {k: (v[:] if isinstance(v, list) else v) for k, v in self.__dict__.items()}
