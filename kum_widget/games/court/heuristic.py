"""What the bots weigh and what the lab counts, for Court of the Three Clans.

The heuristic scores each legal action by a rough worth in VP for the rest of the
game; it reads only what the player sees (the row, the court, the piles), never the
draw pile's order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import ROLES
from .state import BUY, FIGHT, PASS, SKIP, SPACES, START, CourtState, neighbours, row_of

if TYPE_CHECKING:
    from .rules import CourtOfTheThreeClans

__all__ = ["heuristic", "evaluate", "summary", "columns", "ROLE_COLUMNS"]

_SCORING = ("poet", "courtesan")  # the roles whose power reads the court around them
_NEIGHBOURS = tuple(tuple(neighbours(x)) for x in range(SPACES))
_ROW = tuple(tuple(row_of(x)) for x in range(SPACES))
ROLE_COLUMNS = tuple(f"bought_{role.replace(' ', '_')}" for role in ROLES)
COURT_COLUMNS = tuple(f"court_{role.replace(' ', '_')}" for role in ROLES)


def _power_delta(game: CourtOfTheThreeClans, court: list[int | None], card: int, space: int) -> int:
    """How much the end-of-game powers gain when ``card`` goes into ``space`` (replacing
    what is there): its own power, the Poets next to it and the Courtesans in its row."""
    roles, clans = game.role_of, game.clan_of
    old = court[space]
    new_clan, old_clan = clans[card], (None if old is None else clans[old])
    delta = 0
    if new_clan != old_clan:
        for y in _NEIGHBOURS[space]:
            poet = court[y]
            if poet is not None and roles[poet] == "poet":
                others = {clans[z] for w in _NEIGHBOURS[y] if w != space and (z := court[w]) is not None}
                delta += (new_clan not in others) - (old_clan is not None and old_clan not in others)
        for y in _ROW[space]:
            mate = court[y]
            if y != space and mate is not None and roles[mate] == "courtesan":
                delta += (clans[mate] == new_clan) - (clans[mate] == old_clan)
    if old is not None:
        delta -= game.power_of(court, space)
    if roles[card] in _SCORING:
        trial = court[:]  # the position itself is never written to (the greedy bot scores the real one)
        trial[space] = card
        delta += game.power_of(trial, space)
    return delta


def _own_value(game: CourtOfTheThreeClans, s: CourtState, card: int, space: int) -> float:
    """What a card in the court is worth by itself: its VP and what its role brings."""
    role = game.role_of[card]
    value = float(game.vp_of[card]) if game.rules["court_vp"] else 0.0
    if role == "general":
        value += 0.8 * game.table[card].strength
    elif role == "tax collector":
        value += 1.5
    elif role == "minister":
        value += game.minister_gain(s.court, space) / 3
    return value


def _fight_value(game: CourtOfTheThreeClans, s: CourtState, card: int, strength: int) -> float:
    return game.vp_of[card] + 1.0 - max(0, game.table[card].strength - strength) / 3


def card_value(game: CourtOfTheThreeClans, s: CourtState, card: int, space: int) -> float:
    """A rough worth, in VP, of putting ``card`` into ``space`` for the rest of the game
    (less the worth of the card it replaces, if any)."""
    value = _own_value(game, s, card, space) + _power_delta(game, s.court, card, space)
    old = s.court[space]
    return value if old is None else value - _own_value(game, s, old, space)


def _base_values(game: CourtOfTheThreeClans) -> list[float]:
    """Each card's worth by itself apart from a Minister's CP (which depends on the row):
    its VP (C8) and what its role brings. Computed once per rules object."""
    values: list[float] | None = getattr(game, "_heuristic_base", None)
    if values is None:
        values = []
        for c in game.table.cards:
            value = float(c.vp) if game.rules["court_vp"] else 0.0
            if c.role == "general":
                value += 0.8 * c.strength
            elif c.role == "tax collector":
                value += 1.5
            values.append(value)
        game._heuristic_base = values  # type: ignore[attr-defined]
    return values


def heuristic(game: CourtOfTheThreeClans, s: CourtState, actions: list[int]) -> list[float]:
    """A worth per action, as :func:`card_value` and the rules above say, computed once per
    card and space (the rollouts of ISMCTS call this thousands of times a decision)."""
    out = []
    court, row = s.court, s.row
    base, roles, clans = _base_values(game), game.role_of, game.clan_of
    fill = [sum(1 for x in range(4) if court[x] is not None), sum(1 for x in range(4, 8) if court[x] is not None)]
    placed: dict[int, float] = {}  # card * 8 + space -> its worth (one per placement, not per action)
    deltas: dict[tuple[str, str, int], int] = {}  # the powers' gain depends on the clan, the role and the space
    strength = -1
    for a in actions:
        if a == PASS:
            out.append((1 + game.tax_collectors(s)) / 3 + 0.2)
        elif a == SKIP:
            out.append(0.0)
        elif FIGHT <= a < SKIP:
            card = row[a - FIGHT]
            assert card is not None
            if strength < 0:
                strength = game.strength(s)
            out.append(_fight_value(game, s, card, strength))
        else:
            start = a < BUY
            p, x = divmod(a - (START if start else BUY), SPACES)
            card = row[p]
            assert card is not None
            key = card * SPACES + x
            value = placed.get(key)
            if value is None:
                old = court[x]
                others = fill[x // 4] - (old is not None)  # the other cards in the space's court row
                own = base[card] + others / 3 if roles[card] == "minister" else base[card]
                role = roles[card]
                dkey = (clans[card], role if role in _SCORING else "", x)
                delta = deltas.get(dkey)
                if delta is None:
                    delta = deltas[dkey] = _power_delta(game, court, card, x)
                value = own + delta
                if old is not None:
                    value -= base[old] + others / 3 if roles[old] == "minister" else base[old]
                placed[key] = value
            out.append(value if start else value - game.price(card, p + 1) / 3)
    return out


def evaluate(game: CourtOfTheThreeClans, s: CourtState) -> list[float]:
    """The score if the game ended now: ISMCTS stops its rollouts here after a few moves."""
    return [float(game.score(s))]


def summary(game: CourtOfTheThreeClans, s: CourtState) -> dict[str, Any]:
    """The lab's columns: the score's parts, the game's length and outcome, roles bought."""
    out: dict[str, Any] = {f"vp_{k}": v for k, v in game.breakdown(s).items()}
    out.update(
        rank=game.rank(s), turns=s.turn, princes_defeated=len(s.defeated), cards_captured=len(s.captured),
        cards_discarded=len(s.discarded), cp_left=s.cp, daemons_drawn=game.daemons_drawn(s),
    )
    for role, column in zip(ROLES, ROLE_COLUMNS, strict=True):
        out[column] = sum(1 for c in s.bought if game.table[c].role == role)
    court = [game.role_of[c] for c in s.court if c is not None]
    for role, column in zip(ROLES, COURT_COLUMNS, strict=True):
        out[column] = court.count(role)
    return out


def columns() -> list[str]:
    parts = ["vp_defeated", "vp_court", "vp_powers", "vp_cp", "vp_captured", "vp_row_princes"]
    return ["game", "seed", "bot_0", "score_0", "rank", *parts, "turns", "princes_defeated", "cards_captured",
            "cards_discarded", "cp_left", "daemons_drawn", *ROLE_COLUMNS, *COURT_COLUMNS,
            "players", "actions", "n_winners", "winners", "win_0"]
