"""The text forms of Court of the Three Clans' actions, and why one is refused.

    start place 2 to space 1.3   a starting card (setup)
    buy place 3 to space 2.1     phase 1A (the words "place", "to" and "space" may go)
    pass                         phase 1B
    fight place 4                phase 2
    skip                         phase 2: no fight
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...core.errors import IllegalMoveError, shown
from .state import BUY, BUYING, FIGHT, FIGHTING, OVER, PASS, PLACES, SETUP, SKIP, SPACES, START, CourtState, space_name

if TYPE_CHECKING:
    from .formulas import CourtFormulas

__all__ = ["action_text", "parse", "refusal", "kind_of"]

_TEXT = re.compile(
    r"(start|buy)\s+(?:place\s+)?([1-4])\s+(?:to\s+)?(?:space\s+)?([12])[.\s]([1-4])"
    r"|(fight)\s+(?:place\s+)?([1-4])"
)


def kind_of(action: int) -> str:
    """"start", "buy", "pass", "fight" or "skip" (IllegalMoveError for an unknown id)."""
    if type(action) is not int:
        raise IllegalMoveError(f"{shown(action)} is not an action id")
    if START <= action < START + PLACES * SPACES:
        return "start"
    if BUY <= action < BUY + PLACES * SPACES:
        return "buy"
    if FIGHT <= action < FIGHT + PLACES:
        return "fight"
    if action in (PASS, SKIP):
        return "pass" if action == PASS else "skip"
    raise IllegalMoveError(f"{shown(action)} is not an action of Court of the Three Clans")


def action_text(action: int) -> str:
    kind = kind_of(action)
    if kind in ("pass", "skip"):
        return kind
    if kind == "fight":
        return f"fight place {action - FIGHT + 1}"
    p, x = divmod(action - (START if kind == "start" else BUY), SPACES)
    return f"{kind} place {p + 1} to space {space_name(x)}"


def parse(text: str) -> int | None:
    """The id of an action's text, or None when it is not in this notation."""
    key = " ".join(text.lower().split())
    if key in ("pass", "skip"):
        return PASS if key == "pass" else SKIP
    m = _TEXT.fullmatch(key)
    if m is None:
        return None
    if m[5]:
        return FIGHT + int(m[6]) - 1
    base = START if m[1] == "start" else BUY
    return base + (int(m[2]) - 1) * SPACES + (int(m[3]) - 1) * 4 + int(m[4]) - 1


_DOING = {
    SETUP: "setup: choose a starting card and its space ('start place 1 to space 1.1')",
    BUYING: "phase 1: buy a card from the row or pass",
    FIGHTING: "phase 2: fight a Daemon Prince or skip",
}
_WANTED = {SETUP: ("start",), BUYING: ("buy", "pass"), FIGHTING: ("fight", "skip")}


def refusal(game: CourtFormulas, s: CourtState, action: int) -> str | None:
    """Why ``action`` is not legal now, in words (the session asks only for illegal ones)."""
    kind = kind_of(action)  # an unknown id raises: the session says "not an action of this game"
    if s.phase == OVER:
        return "the game is over"
    if kind not in _WANTED[s.phase]:
        return f"it is {_DOING[s.phase]}"
    if kind == "fight":
        place = action - FIGHT + 1
        limit = game.rules["fights_per_turn"]
        if s.fights >= limit:
            return f"at most {limit} fight(s) a turn (C6)"
        card = s.row[place - 1]
        if card is None or not game.table[card].prince:
            return f"place {place} holds no Daemon Prince"
        return (f"the Generals' strength {game.strength(s)} plus your {s.cp} CP cannot reach its strength "
                f"{game.table[card].strength} (C6: a fight must be winnable)")
    p, x = divmod(action - (START if kind == "start" else BUY), SPACES)
    card = s.row[p]
    if card is None:
        return f"place {p + 1} of the Society Row is empty"
    if game.table[card].prince:
        return "a Daemon Prince cannot be bought: fight it in phase 2"
    if kind == "buy":
        price = game.price(card, p + 1)
        if price > s.cp:
            return f"it costs {price} CP and you have {s.cp}"
        if None not in s.court and game.rules["full_court"] == "closed":
            return "the Royal Court is full and this game does not allow replacing (C4)"
    if s.court[x] is not None:
        return f"space {space_name(x)} is taken: place into an empty space (a card may replace one only when the court is full)"
    return "not a legal action now"
