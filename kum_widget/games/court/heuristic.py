"""What the bots weigh and what the lab counts, for Court of the Three Clans.

The heuristic scores each legal action by a rough worth in VP for the rest of the
game; it reads only what the player sees (the row, the court, the piles), never the
draw pile's order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...core.game import top_actions
from .cards import ROLES
from .state import BUY, BUYING, FIGHT, PASS, PLACES, SKIP, SPACES, START, CourtState, neighbours, row_of

if TYPE_CHECKING:
    from .formulas import CourtFormulas

__all__ = ["heuristic", "best_actions", "evaluate", "summary", "columns", "ROLE_COLUMNS"]

_SCORING = ("poet", "courtesan")  # the roles whose power reads the court around them
_NEIGHBOURS = tuple(tuple(neighbours(x)) for x in range(SPACES))
_ROW = tuple(tuple(row_of(x)) for x in range(SPACES))
_PLACE_SPACE = {a: divmod(a - base, SPACES) for base in (START, BUY) for a in range(base, base + PLACES * SPACES)}  # a start or buy -> (place, space)
OTHER, MINISTER, POET, COURTESAN = range(4)  # role_codes()
_SPACES_OF = [tuple(x for x in range(SPACES) if bits >> x & 1) for bits in range(1 << SPACES)]  # buy_spaces() -> spaces
_CLANS_IN = [bin(bits).count("1") for bits in range(8)]  # how many clans a set of clan bits holds
_Space = tuple[float, float, tuple[int, int, int], int, tuple[int, int, int]]  # _Court.work_out()
ROLE_COLUMNS = tuple(f"bought_{role.replace(' ', '_')}" for role in ROLES)
COURT_COLUMNS = tuple(f"court_{role.replace(' ', '_')}" for role in ROLES)


def _power_delta(game: CourtFormulas, court: list[int | None], card: int, space: int) -> int:
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


def _own_value(game: CourtFormulas, s: CourtState, card: int, space: int) -> float:
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


def _fight_value(game: CourtFormulas, s: CourtState, card: int, strength: int) -> float:
    return game.vp_of[card] + 1.0 - max(0, game.table[card].strength - strength) / 3


def card_value(game: CourtFormulas, s: CourtState, card: int, space: int) -> float:
    """A rough worth, in VP, of putting ``card`` into ``space`` for the rest of the game
    (less the worth of the card it replaces, if any)."""
    value = _own_value(game, s, card, space) + _power_delta(game, s.court, card, space)
    old = s.court[space]
    return value if old is None else value - _own_value(game, s, old, space)


class _Court:
    """One court's numbers: what a placement into each space gains beyond the card's own
    worth (worked out as actions ask for them), the Generals' strength and a pass's worth."""

    __slots__ = ("court", "fill", "kinds", "pass_value", "spaces", "strength", "targets")

    def __init__(self, game: CourtFormulas, s: CourtState) -> None:
        court = self.court = s.court[:]  # the key's own copy: the state's list changes as the game goes on
        self.fill = (4 - court[:4].count(None), 4 - court[4:].count(None))  # the cards in each court row
        self.spaces: list[_Space | None] = [None] * SPACES  # space -> work_out()
        self.kinds: dict[int, tuple[float, tuple[tuple[float, int], ...]]] = {}  # kind_of[card] -> placements()
        self.strength = -1  # the Generals' (game.strength), when a fight's worth first asks
        self.pass_value = (1 + game.tax_collectors(s)) / 3 + 0.2
        self.targets = _SPACES_OF[game.buy_spaces(court)]  # where a buy may go, as legal_actions lists them

    def work_out(self, game: CourtFormulas, xs: Sequence[int]) -> None:
        """For each space of ``xs``: what a card placed there gains, for every clan at once
        (one look at the court for all of them): a Minister's CP, the worth of the card
        it replaces (else 0.0), the powers' change by the card's clan (the Poets next to
        it, the Courtesans in its row, less the replaced card's own power), and the
        card's own power if it is a Poet (the clans next to it) or a Courtesan (by clan:
        the cards of its clan in its row). The same sums as :func:`_power_delta`, in ints."""
        court, roles, clan, base = self.court, game.role_of, game.clan_index, game.base_value
        bits = [0 if c is None else 1 << clan[c] for c in court]  # each space's card's clan, as a bit
        poets = [c is not None and roles[c] == "poet" for c in court]
        mates, charms = ([0, 0, 0], [0, 0, 0]), ([0, 0, 0], [0, 0, 0])  # each row's cards, and its Courtesans, by clan
        for x in range(SPACES):
            c = court[x]
            if c is not None:
                mates[x // 4][clan[c]] += 1
                if roles[c] == "courtesan":
                    charms[x // 4][clan[c]] += 1
        spaces, fill = self.spaces, self.fill
        for x in xs:
            old, r = court[x], x // 4
            mate, charm = mates[r], charms[r]
            if old is None:
                lost, others, replaced, shift = -1, fill[r], 0.0, 0
            else:  # the card there leaves: it is no longer its row's, and its own power goes
                lost, others = clan[old], fill[r] - 1
                replaced = base[old] + others / 3 if roles[old] == "minister" else base[old]
                mate = mate[:]
                mate[lost] -= 1
                if roles[old] == "courtesan":
                    charm = charm[:]
                    charm[lost] -= 1
                shift = -game.power_of(court, x) - charm[lost]  # and the Courtesans of its clan lose it
            d0, d1, d2 = charm  # each Courtesan of the new card's clan in the row gains it
            near = 0
            for y in _NEIGHBOURS[x]:
                near |= bits[y]
                if poets[y]:  # a Poet next to it gains a clan it did not see, and loses the old card's
                    seen = 0
                    for w in _NEIGHBOURS[y]:
                        if w != x:
                            seen |= bits[w]
                    d0 += not seen & 1
                    d1 += not seen & 2
                    d2 += not seen & 4
                    shift -= lost >= 0 and not (seen >> lost) & 1  # (no card replaced: no loss)
            spaces[x] = (others / 3, replaced, (d0 + shift, d1 + shift, d2 + shift), _CLANS_IN[near], (mate[0], mate[1], mate[2]))

    def gain(self, game: CourtFormulas, card: int, x: int) -> tuple[float, int, float]:
        """What ``card`` into space ``x`` adds to the card's own base value, in three
        parts: a Minister's CP (else 0.0), the powers' change, and the worth of the card
        it replaces (else 0.0). The heuristic adds them in the order :func:`card_value`
        does, so the scores are the same to the last bit (ties among them decide moves)."""
        if not game.plain_formulas:  # a subclass's own powers or Minister: the plain formula, in card_value's terms
            court, old = self.court, self.court[x]
            cp = game.minister_gain(court, x) / 3
            replaced = 0.0 if old is None else game.base_value[old] + cp if game.role_of[old] == "minister" else game.base_value[old]
            return (cp if game.role_of[card] == "minister" else 0.0, _power_delta(game, court, card, x), replaced)
        at = self.spaces[x]
        if at is None:
            self.work_out(game, self.targets if x in self.targets else (x,))
            at = self.spaces[x]
            assert at is not None
        role, k = game.role_code[card], game.clan_index[card]
        return (at[0] if role == MINISTER else 0.0, at[2][k] + (at[3] if role == POET else at[4][k] if role == COURTESAN else 0), at[1])

    def placements(self, game: CourtFormulas, card: int) -> tuple[float, tuple[tuple[float, int], ...]]:
        """What a card of ``card``'s clan and role gains bought into each space it may go
        to, beyond its own worth and its price: the best gain, and (gain, space) for each.
        Kept per clan and role (alike cards share it): scores are multiples of 1/30, so
        adding a card's own worth afterwards keeps the best spaces the best."""
        spaces, role, k, targets = self.spaces, game.role_code[card], game.clan_index[card], self.targets
        entry: tuple[float, tuple[tuple[float, int], ...]]
        if not targets:
            entry = self.kinds[k * 4 + role] = (-math.inf, ())
            return entry
        if spaces[targets[0]] is None:
            self.work_out(game, targets)
        at: Any  # every target's entry is filled by work_out above
        if role == OTHER:
            out = [(at[2][k] - at[1], x) for x in targets if (at := spaces[x])]
        elif role == MINISTER:
            out = [(at[0] + at[2][k] - at[1], x) for x in targets if (at := spaces[x])]
        elif role == POET:
            out = [(at[2][k] + at[3] - at[1], x) for x in targets if (at := spaces[x])]
        else:
            out = [(at[2][k] + at[4][k] - at[1], x) for x in targets if (at := spaces[x])]
        entry = self.kinds[k * 4 + role] = (max(out)[0], tuple(out))
        return entry


class Worths(dict[tuple[int | None, ...], _Court]):
    """Court -> :class:`_Court`: what the heuristic worked out about a Royal Court, for
    the next time it meets it. ISMCTS's rollouts pass, fight and refill more often than
    they buy, so seven calls in ten meet a court seen before in the same decision.
    Bounded: cleared when full (some 14 MB; one decision meets up to 3,500 courts). A
    pickle or a deep copy of the rules starts empty (it is a cache, not part of the game);
    a shallow copy shares it, which is harmless: the same table, the same options."""

    LIMIT = 4096

    def __reduce__(self) -> tuple[type, tuple[()]]:
        return (Worths, ())


def role_codes(game: CourtFormulas) -> list[int]:
    """Per card, what its role means to a placement's gain (:meth:`_Court.gain`):
    MINISTER, POET, COURTESAN or OTHER."""
    code = {"minister": MINISTER, "poet": POET, "courtesan": COURTESAN}
    return [code.get(c.role, OTHER) for c in game.table.cards]


def base_values(game: CourtFormulas) -> list[float]:
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


def heuristic(game: CourtFormulas, s: CourtState, actions: list[int]) -> list[float]:
    """A worth per action, as :func:`card_value` and the rules above say, each placement
    worked out once per court (the rollouts of ISMCTS call this thousands of times a
    decision, and meet the same courts again and again)."""
    known = _known(game, s)
    row, price, base = s.row, game.price_at, game.base_value
    out = []
    for a in actions:
        if a == PASS:
            out.append(known.pass_value)
        elif a == SKIP:
            out.append(0.0)
        elif a >= FIGHT:
            card = row[a - FIGHT]
            assert card is not None
            if known.strength < 0:
                known.strength = game.strength(s)  # it reads the court only
            out.append(_fight_value(game, s, card, known.strength))
        else:
            p, x = _PLACE_SPACE[a]
            card = row[p]
            assert card is not None
            parts = known.gain(game, card, x)
            value = base[card] + parts[0] + parts[1] - parts[2]  # card_value's order of additions
            out.append(value if a < BUY else value - price[card][p] / 3)
    return out


def _known(game: CourtFormulas, s: CourtState) -> _Court:
    worths = game.worths
    key = tuple(s.court)
    known: _Court | None = worths.get(key)
    if known is None:
        if len(worths) >= Worths.LIMIT:
            worths.clear()
        known = worths[key] = _Court(game, s)
    return known


def best_actions(game: CourtFormulas, s: CourtState, legal: list[int]) -> list[int]:
    """The actions :func:`heuristic` rates best, as ``CardGame.best_actions`` says, found
    without scoring every buy: a row card's buys differ only by space, and the best spaces
    for a card's clan and role in a court are worked out once (ISMCTS's rollouts ask this
    at nearly every step). Every score is a multiple of 1/30 (whole VP, a Tax Collector's
    half, CP in thirds, strength in fifths, the pass's 0.2) up to rounding far below the 1e-9 that ties
    allow, so sums taken in another order tie exactly where the heuristic's do.
    ``legal`` should be the legal actions in their order; another list (of another length,
    or not ending in the pass) is scored in full. A subclass with its own powers, Minister
    or legal actions is scored in full too (``plain_formulas``)."""
    if s.phase != BUYING or not game.plain_formulas:
        return top_actions(legal, heuristic(game, s, legal))
    known = _known(game, s)
    kinds, kind, base, prince, price, cp = known.kinds, game.kind_of, game.base_value, game.prince_of, game.price_at, s.cp
    top, count, found = known.pass_value, 1, []
    for p, card in enumerate(s.row):  # the affordable court cards, as legal_actions finds them
        if card is None or prince[card] or price[card][p] > cp:
            continue
        gain, spaces = kinds.get(kind[card]) or known.placements(game, card)
        worth = base[card] - price[card][p] / 3 + gain  # the best of this card's buys
        if worth > top:
            top = worth
        found.append((worth, BUY + p * SPACES, gain - 1e-9, spaces))
        count += len(spaces)
    if count != len(legal) or legal[-1] != PASS:  # not the whole legal list as the rules give it: score what was given
        return top_actions(legal, heuristic(game, s, legal))
    bar, out = top - 1e-9, []
    for worth, first, floor, spaces in found:
        if worth >= bar:
            out += [first + x for value, x in spaces if value >= floor]
    if known.pass_value >= bar:
        out.append(PASS)
    return out


def evaluate(game: CourtFormulas, s: CourtState) -> list[float]:
    """The score if the game ended now: ISMCTS stops its rollouts here after a few moves."""
    return [float(game.score(s))]


def summary(game: CourtFormulas, s: CourtState) -> dict[str, Any]:
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
