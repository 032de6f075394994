"""Why a part of the court's board takes no move now, in the game's words
(``CardGame.why_not``), read from the player's view alone (the row, the court, CP and the
fights' prices are all there; the draw pile's order is not needed).

Parts, as the board names them (``board.py``): ``card <n>`` (a card of the row),
``place <p>`` (an empty one), ``space <r.c>`` (its reason covers the card in it) and
``draw pile``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .state import BUYING, FIGHTING, PLACES, SETUP, SPACES, space_name

if TYPE_CHECKING:
    from .formulas import CourtFormulas

__all__ = ["why_not"]

PILE = "The draw pile is never clicked: the Society Row draws from it by itself, each time a card leaves the row."


def _where(view: dict[str, Any], part: str) -> tuple[str, int] | None:
    """("row", place index) or ("court", space index) of a part, or None."""
    if part.startswith("place "):  # an empty place (a card's reason is its card's)
        p = part[6:]
        return ("row", int(p) - 1) if p.isdigit() and 1 <= int(p) <= PLACES and view["row"][int(p) - 1] is None else None
    if part.startswith("space "):
        names = [space_name(x) for x in range(SPACES)]
        return ("court", names.index(part[6:])) if part[6:] in names else None
    if part.startswith("card ") and part[5:].isdigit():
        card = int(part[5:])
        if card in view["row"]:
            return "row", view["row"].index(card)
    return None


def _row_card(game: CourtFormulas, view: dict[str, Any], p: int) -> str | None:
    card, phase, cp = view["row"][p], view["phase"], view["cp"]
    if card is None:
        return f"Place {p + 1} is empty: nothing to buy or fight there."
    c = game.table[card]
    if c.prince:
        if view["fights_per_turn"] == 0:
            return "A Daemon Prince is never bought, and this game has no fights (fights_per_turn is 0)."
        if phase != FIGHTING:
            return "A Daemon Prince is never bought: fight it in phase 2, with your Generals' strength and CP."
        if view["fights"] >= view["fights_per_turn"]:
            return f"No more fights this turn: at most {view['fights_per_turn']} a turn."
        cost = view["fight_costs"][p]
        return (f"Your strength {view['strength']} and your {cp} CP cannot reach its strength {c.strength}: "
                f"a fight must be one you can win (it would take {cost} CP).")
    if phase == FIGHTING:
        return "Phase 2 is for fighting a Daemon Prince (or skipping): buy again in phase 1 of the next turn."
    if phase != BUYING:
        return None
    price = view["prices"][p]
    if price is not None and price > cp:
        cheaper = " It gets 1 CP cheaper with each place it slides right." if game.descending and p < PLACES - 1 and c.cost > 0 else ""
        return f"It costs {price} CP now and you have {cp}: pass to gain CP.{cheaper}"
    if None not in view["court"] and game.closed:
        return "Your Royal Court is full, and this game does not allow replacing a card (C4)."
    return None


def _space(view: dict[str, Any], x: int) -> str | None:
    phase, court = view["phase"], view["court"]
    if phase == FIGHTING:
        return "Phase 2: nothing goes into your court now; fight a Daemon Prince or skip."
    if court[x] is not None and None in court:
        where = "a starting card" if phase == SETUP else "a bought card"
        return f"Space {space_name(x)} is taken: {where} goes into an empty space (it replaces one only when the court is full)."
    return None


def why_not(game: CourtFormulas, view: dict[str, Any], part: str) -> str | None:
    """The reason ``part`` takes no move now, or None (nothing to say)."""
    if view.get("phase") not in (SETUP, BUYING, FIGHTING):
        return None
    if part == "draw pile":
        return PILE
    where = _where(view, part)
    if where is None:
        return None
    kind, i = where
    return _row_card(game, view, i) if kind == "row" else _space(view, i)
