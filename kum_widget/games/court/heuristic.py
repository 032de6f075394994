"""What the bots weigh and what the lab counts, for Court of the Three Clans.

The heuristic scores each legal action by a rough worth in VP for the rest of the
game; it reads only what the player sees (the row, the court, the piles), never the
draw pile's order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CLANS, ROLES
from .state import BUY, FIGHT, PASS, PLACES, SKIP, SPACES, START, CourtState, neighbours, row_of

if TYPE_CHECKING:
    from .rules import CourtOfTheThreeClans

__all__ = ["heuristic", "evaluate", "summary", "columns", "ROLE_COLUMNS"]

_SCORING = ("poet", "courtesan")  # the roles whose power reads the court around them
_NEIGHBOURS = tuple(tuple(neighbours(x)) for x in range(SPACES))
_ROW = tuple(tuple(row_of(x)) for x in range(SPACES))
_PLACE_SPACE = {a: divmod(a - base, SPACES) for base in (START, BUY) for a in range(base, base + PLACES * SPACES)}  # a start or buy -> (place, space)
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


class _Court:
    """One court's numbers: what a placement into it gains beyond the card's own worth
    (computed as actions ask for them), the Generals' strength and the pass's worth."""

    __slots__ = ("court", "fill", "gains", "pass_value", "strength")

    def __init__(self, game: CourtOfTheThreeClans, s: CourtState) -> None:
        court = self.court = s.court[:]  # the key's own copy: the state's list changes as the game goes on
        self.fill = (sum(1 for x in range(4) if court[x] is not None), sum(1 for x in range(4, 8) if court[x] is not None))
        self.gains: dict[int, tuple[float, int, float]] = {}  # kind_of[card] + space -> gain()
        self.strength = game.strength(s)  # both read the court only
        self.pass_value = (1 + game.tax_collectors(s)) / 3 + 0.2

    def gain(self, game: CourtOfTheThreeClans, card: int, x: int) -> tuple[float, int, float]:
        """What ``card`` into space ``x`` adds to the card's own base value, in three
        parts: a Minister's CP (else 0.0), the powers' change, and the worth of the card
        it replaces (else 0.0). The heuristic adds them in the order :func:`card_value`
        does, so the scores are the same to the last bit (ties among them decide moves).
        They depend on the card only by its clan and :func:`kinds`: cards alike share them."""
        court, roles, base = self.court, game.role_of, game.base_value
        old = court[x]
        others = self.fill[x // 4] - (old is not None)  # the other cards in the space's court row
        minister = others / 3 if roles[card] == "minister" else 0.0
        replaced = 0.0 if old is None else base[old] + others / 3 if roles[old] == "minister" else base[old]
        parts = self.gains[game.kind_of[card] + x] = (minister, _power_delta(game, court, card, x), replaced)
        return parts


class Worths(dict[tuple[int | None, ...], _Court]):
    """Court -> :class:`_Court`: what the heuristic worked out about a Royal Court, for
    the next time it meets it. ISMCTS's rollouts pass, fight and refill more often than
    they buy, so seven calls in ten meet a court seen before in the same decision.
    Bounded: cleared when full (some 11 MB; one decision meets up to 3,500 courts). A
    pickle or a deep copy of the rules starts empty (it is a cache, not part of the game);
    a shallow copy shares it, which is harmless: the same table, the same options."""

    LIMIT = 4096

    def __reduce__(self) -> tuple[type, tuple[()]]:
        return (Worths, ())


def kinds(game: CourtOfTheThreeClans) -> list[int]:
    """Per card, the key of what a placement of it gains (:meth:`_Court.gain`): its clan
    and whether it is a Minister, a Poet, a Courtesan or another role, times SPACES."""
    kind = {"minister": 1, "poet": 2, "courtesan": 3}
    return [(CLANS.index(c.clan) * 4 + kind.get(c.role, 0)) * SPACES if c.clan in CLANS else len(CLANS) * 4 * SPACES for c in game.table.cards]  # a prince: never placed


def base_values(game: CourtOfTheThreeClans) -> list[float]:
    """Each card's worth by itself apart from a Minister's CP (which depends on the row):
    its VP (C8) and what its role brings. The rules object keeps the list."""
    values = []
    for c in game.table.cards:
        value = float(c.vp) if game.rules["court_vp"] else 0.0
        if c.role == "general":
            value += 0.8 * c.strength
        elif c.role == "tax collector":
            value += 1.5
        values.append(value)
    return values


def heuristic(game: CourtOfTheThreeClans, s: CourtState, actions: list[int]) -> list[float]:
    """A worth per action, as :func:`card_value` and the rules above say, each placement
    worked out once per court (the rollouts of ISMCTS call this thousands of times a
    decision, and meet the same courts again and again)."""
    worths = game._worths
    key = tuple(s.court)
    known = worths.get(key)
    if known is None:
        if len(worths) >= Worths.LIMIT:
            worths.clear()
        known = worths[key] = _Court(game, s)
    gains, row, base, price, kind = known.gains, s.row, game.base_value, game.price_at, game.kind_of
    out = []
    for a in actions:
        if a == PASS:
            out.append(known.pass_value)
        elif a == SKIP:
            out.append(0.0)
        elif a >= FIGHT:
            card = row[a - FIGHT]
            assert card is not None
            out.append(_fight_value(game, s, card, known.strength))
        else:
            p, x = _PLACE_SPACE[a]
            card = row[p]
            assert card is not None
            parts = gains.get(kind[card] + x) or known.gain(game, card, x)
            value = base[card] + parts[0] + parts[1] - parts[2]  # card_value's order of additions
            out.append(value if a < BUY else value - price[card][p] / 3)
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
