"""What the bots weigh and what the lab counts, for Court of the Three Clans.

The heuristic scores each legal action by a rough worth in VP for the rest of the
game; it reads only what the player sees (the row, the court, the piles), never the
draw pile's order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import ROLES
from .state import BUY, FIGHT, PASS, SKIP, SPACES, START, CourtState, row_of

if TYPE_CHECKING:
    from .rules import CourtOfTheThreeClans

__all__ = ["heuristic", "summary", "columns", "ROLE_COLUMNS"]

ROLE_COLUMNS = tuple(f"bought_{role.replace(' ', '_')}" for role in ROLES)


def card_value(game: CourtOfTheThreeClans, s: CourtState, card: int, space: int) -> float:
    """A rough worth, in VP, of ``card`` in ``space`` for the rest of the game."""
    c = game.table[card]
    value = float(c.vp) if game.rules["court_vp"] else 0.0
    trial = s.court[:]
    trial[space] = card
    if c.role == "general":
        value += 0.8 * c.strength
    elif c.role == "tax collector":
        value += 1.5
    elif c.role == "minister":
        value += sum(1 for y in row_of(space) if y != space and trial[y] is not None) / 3
    else:
        before = sum(game.power_of(s.court, x) for x in range(SPACES))
        after = sum(game.power_of(trial, x) for x in range(SPACES))
        value += after - before + 0.5
    return value


def heuristic(game: CourtOfTheThreeClans, s: CourtState, actions: list[int]) -> list[float]:
    out = []
    for a in actions:
        if a == PASS:
            out.append((1 + game.tax_collectors(s)) / 3 + 0.2)
        elif a == SKIP:
            out.append(0.0)
        elif FIGHT <= a < SKIP:
            card = s.row[a - FIGHT]
            cost = game.fight_cost(s, a - FIGHT + 1)
            assert card is not None and cost is not None
            out.append(game.table[card].vp + 1.0 - cost / 3)
        else:
            base = START if a < BUY else BUY
            p, x = divmod(a - base, SPACES)
            card = s.row[p]
            assert card is not None
            value = card_value(game, s, card, x)
            old = s.court[x]
            if old is not None:
                value -= card_value(game, s, old, x)
            out.append(value if base == START else value - game.price(card, p + 1) / 3)
    return out


def summary(game: CourtOfTheThreeClans, s: CourtState) -> dict[str, Any]:
    """The lab's columns: the score's parts, the game's length and outcome, roles bought."""
    out: dict[str, Any] = {f"vp_{k}": v for k, v in game.breakdown(s).items()}
    out.update(
        rank=game.rank(s), turns=s.turn, princes_defeated=len(s.defeated), cards_captured=len(s.captured),
        cards_discarded=len(s.discarded), cp_left=s.cp, daemons_drawn=game.daemons_drawn(s),
    )
    for role, column in zip(ROLES, ROLE_COLUMNS, strict=True):
        out[column] = sum(1 for c in s.bought if game.table[c].role == role)
    court = [game.table[c] for c in s.court if c is not None]
    for role in ROLES:
        out[f"court_{role.replace(' ', '_')}"] = sum(1 for c in court if c.role == role)
    return out


def columns() -> list[str]:
    parts = ["vp_defeated", "vp_court", "vp_powers", "vp_cp", "vp_captured", "vp_row_princes"]
    return ["game", "seed", "bot_0", "score_0", "rank", *parts, "turns", "princes_defeated", "cards_captured",
            "cards_discarded", "cp_left", "daemons_drawn", *ROLE_COLUMNS]
