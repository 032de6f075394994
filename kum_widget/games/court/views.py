"""What the player sees of a position (everything but the draw pile's order), a position
consistent with it for the bots, and a position as JSON for the records."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.errors import InvalidOptionError, shown
from .scenario import build
from .state import PLACES, CourtState

if TYPE_CHECKING:
    from .formulas import CourtFormulas

__all__ = ["court_view", "sampler", "determinize", "save_position", "load_position"]


def court_view(game: CourtFormulas, s: CourtState, seat: int | None) -> dict[str, Any]:
    """The table as the player (seat 0, or -1 for a spectator: the same) sees it; with
    ``seat=None`` (a teacher's view) also the pile's order and the hidden seed."""
    prince = game.prince_of
    out: dict[str, Any] = {
        "game": game.name,
        "phase": s.phase,
        "turn": s.turn,
        "row": s.row[:],
        "prices": [None if c is None or prince[c] else game.price(c, p + 1) for p, c in enumerate(s.row)],
        "court": s.court[:],
        "cp": s.cp,
        "vp": sum(game.vp_of[c] for c in s.defeated),
        "strength": game.strength(s),
        "fight_costs": [game.fight_cost(s, p) for p in range(1, PLACES + 1)],  # CP a fight would pay, per place
        "draw_pile": len(s.pile),
        "aside": s.aside[:],
        "discarded": s.discarded[:],
        "defeated": s.defeated[:],
        "captured": s.captured[:],
        "bought": s.bought[:],
        "daemons_drawn": game.daemons_drawn(s),
        "princes_to_come": len(game.table.princes) - len(s.defeated) - sum(1 for c in s.row if game.is_prince(c)),
        "fights": s.fights,
        "fights_per_turn": game.rules["fights_per_turn"],
        "exhausted": s.exhausted,
        "score": game.score(s),
        "breakdown": game.breakdown(s),
        "rank": game.rank(s),
    }
    if seat is None:
        out["pile"] = s.pile[:]
        out["seed"] = s.seed
    return out


def sampler(game: CourtFormulas, view: dict[str, Any]) -> Callable[[random.Random], CourtState]:
    """Positions the player cannot tell from the real one: the unseen cards reshuffled.
    What the view shows is read once; each deal is one shuffle (ISMCTS deals thousands)."""
    seen = {c for key in ("row", "court") for c in view[key] if c is not None}
    seen |= {c for key in ("aside", "discarded", "defeated", "captured") for c in view[key]}
    unseen = [c for c in range(len(game.table)) if c not in seen]
    template = CourtState(
        pile=[], row=list(view["row"]), court=list(view["court"]), cp=view["cp"], seed=0,
        aside=list(view["aside"]), phase=view["phase"], discarded=list(view["discarded"]), defeated=list(view["defeated"]),
        captured=list(view["captured"]), bought=list(view["bought"]), turn=view["turn"], fights=view["fights"],
        exhausted=view["exhausted"],
    )

    def deal(rng: random.Random) -> CourtState:
        rnd = rng.random
        pile = unseen[:]
        for i in range(len(pile) - 1, 0, -1):  # Fisher-Yates on random(): a uniform order
            j = int(rnd() * (i + 1))
            pile[i], pile[j] = pile[j], pile[i]
        s = template.copy()
        s.pile, s.seed = pile, int(rnd() * 2**31)  # the seed reshuffles the princes set aside (setup)
        return s

    return deal


def determinize(game: CourtFormulas, view: dict[str, Any], rng: random.Random) -> CourtState:
    """A position the player cannot tell from the real one: the unseen cards reshuffled."""
    return sampler(game, view)(rng)


def save_position(s: CourtState) -> dict[str, Any]:
    """The position as the scenario constructor's fields (a record of a game built by hand keeps it)."""
    return {"row": s.row[:], "court": s.court[:], "cp": s.cp, "pile": s.pile[::-1], "phase": s.phase, "turn": s.turn,
            "fights": s.fights, "discarded": s.discarded[:], "defeated": s.defeated[:], "captured": s.captured[:],
            "aside": s.aside[:], "bought": s.bought[:]}


def load_position(game: CourtFormulas, data: Any) -> CourtState:
    """Inverse of :func:`save_position`, every field checked as a scenario is."""
    if not isinstance(data, dict) or not isinstance(data.get("row"), list) or not isinstance(data.get("court"), list):
        raise InvalidOptionError(f"a position is a dict with a row and a court, got {shown(data)}")
    fields = {k: v for k, v in data.items() if k not in ("row", "court")}
    return build(game, data["row"], data["court"], **fields)
