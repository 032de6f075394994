"""What the court's rules read of a position: prices, the Generals' strength, the fights
within reach, the spaces a buy may fill, the Poets' and Courtesans' powers and the score
(COURT.md). A mixin of :class:`~.rules.CourtOfTheThreeClans`, which fills the per-card
tables these read (``cost_of``, ``role_of``...) when it is built. The rules, the views and
the board call these methods, so a subclass may change a formula here. The heuristic
works some out again for speed: a fight's cost (its own estimate), and in bulk the powers,
a Minister's CP and the legal buys, for which it falls back on these methods when a
subclass changes one of them (``plain_formulas``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from .cards import CLANS, Card, CardTable
from .state import FIGHT, RANKS, SPACES, CourtState, neighbours, row_of

__all__ = ["CourtFormulas"]

_NEIGHBOURS = tuple(tuple(neighbours(x)) for x in range(SPACES))
_ROW = tuple(tuple(row_of(x)) for x in range(SPACES))
_PARTS = ("defeated", "court", "powers", "cp", "captured", "row_princes")  # breakdown()'s keys
_EVERY_SPACE = (1 << SPACES) - 1


class CourtFormulas:
    """The court's formulas, on the per-card tables its game builds (see the module's doc)."""

    rules: dict[str, Any]
    table: CardTable
    thresholds: tuple[int, int, int]
    descending: bool
    fights_per_turn: int
    closed: bool
    clan_of: list[str]
    role_of: list[str]
    vp_of: list[int]
    prince_of: list[bool]
    strength_of: list[int]
    cost_of: list[int]
    price_at: list[list[int]]
    # what the game builds for its heuristic (heuristic.py reads these)
    base_value: list[float]
    clan_index: list[int]
    role_code: list[int]
    kind_of: list[int]
    plain_formulas: bool
    worths: dict[tuple[int | None, ...], Any]  # heuristic.Worths: the courts the heuristic has met
    name: ClassVar[str]

    def legal_actions(self, s: CourtState) -> list[int]:
        """The rules' (``card_game.py``): a scenario checks a position it builds by them."""
        raise NotImplementedError

    def card(self, card: int) -> Card:
        return self.table[card]

    def price(self, card: int, place: int) -> int:
        """What the card at ``place`` (1..4) costs now (C3). Built once into ``price_at``
        (``[card][place - 1]``), which the legal actions and the heuristic read."""
        cost = self.cost_of[card]
        return max(0, cost - (place - 1)) if self.descending else cost

    def strength(self, s: CourtState) -> int:
        """The Generals' combined strength, +2 with all three clans' Generals."""
        role, clan, power = self.role_of, self.clan_of, self.strength_of
        total, clans = 0, set()
        for c in s.court:
            if c is not None and role[c] == "general":
                total += power[c]
                clans.add(clan[c])
        return total + 2 if len(clans) == len(CLANS) else total

    def tax_collectors(self, s: CourtState) -> int:
        role = self.role_of
        return [c is not None and role[c] == "tax collector" for c in s.court].count(True)

    def is_prince(self, card: int | None) -> bool:
        return card is not None and self.prince_of[card]

    def princes_in_pile(self, s: CourtState) -> int:
        prince = self.prince_of
        return sum(1 for c in s.pile if prince[c])

    def daemons_drawn(self, s: CourtState) -> int:
        """Princes drawn into the row since setup (the ones set aside then went back)."""
        return len(self.table.princes) - self.princes_in_pile(s) - len(s.aside)

    def fight_cost(self, s: CourtState, place: int) -> int | None:
        """The CP a fight against the card at ``place`` (1..4) would pay (None: no prince there)."""
        card = s.row[place - 1]
        if card is None or not self.prince_of[card]:
            return None
        return max(0, self.strength_of[card] - self.strength(s))

    def _fights(self, s: CourtState) -> list[int]:
        """The legal fight actions (C6: winnable with the CP in hand, within the turn's limit)."""
        if s.fights >= self.fights_per_turn:
            return []
        strength, prince = -1, self.prince_of
        out = []
        for p, card in enumerate(s.row):
            if card is not None and prince[card]:
                if strength < 0:
                    strength = self.strength(s)
                if self.strength_of[card] - strength <= s.cp:
                    out.append(FIGHT + p)
        return out

    def fight_legal(self, s: CourtState, place: int) -> bool:
        cost = self.fight_cost(s, place)
        return cost is not None and cost <= s.cp and s.fights < self.fights_per_turn

    def buy_spaces(self, court: Sequence[int | None]) -> int:
        """The spaces a buy may fill, as bits (space ``x`` is ``1 << x``): the empty ones;
        in a full court every space, its card replaced, or none when it is closed (C4)."""
        bits = 0
        for x in range(SPACES):
            if court[x] is None:
                bits |= 1 << x
        return bits or (0 if self.closed else _EVERY_SPACE)

    def minister_gain(self, court: Sequence[int | None], space: int) -> int:
        """A Minister bought into ``space`` brings 1 CP per other card in its court row."""
        return sum(1 for y in row_of(space) if y != space and court[y] is not None)

    def power_vp(self, s: CourtState) -> int:
        """The VP the Poets and Courtesans award at the end (C1's powers, C8)."""
        court, power_of = s.court, self.power_of
        return sum([power_of(court, x) for x in range(SPACES) if court[x] is not None])

    def power_of(self, court: Sequence[int | None], space: int) -> int:
        """The end-of-game VP of the card in ``space`` by its power (0 for most roles)."""
        card = court[space]
        if card is None:
            return 0
        role = self.role_of[card]
        if role == "poet":
            clans = self.clan_of
            return len({clans[n] for n in (court[x] for x in _NEIGHBOURS[space]) if n is not None})
        if role == "courtesan":
            clans, clan = self.clan_of, self.clan_of[card]
            return sum(1 for y in _ROW[space] if y != space and (m := court[y]) is not None and clans[m] == clan)
        return 0

    def _parts(self, s: CourtState) -> tuple[int, int, int, int, int, int]:
        """The score's parts, in :data:`_PARTS` order (a tuple: ISMCTS scores thousands of positions)."""
        vp, prince = self.vp_of, self.prince_of
        return (
            sum([vp[c] for c in s.defeated]),
            sum([vp[c] for c in s.court if c is not None]) if self.rules["court_vp"] else 0,
            self.power_vp(s),
            s.cp // 3,
            -sum([vp[c] for c in s.captured]),
            -sum([vp[c] for c in s.row if c is not None and prince[c]]) if self.rules["row_princes_subtract"] else 0,
        )

    def breakdown(self, s: CourtState) -> dict[str, int]:
        """The parts of the score (they add up to it): positive parts, then the negative ones."""
        return dict(zip(_PARTS, self._parts(s), strict=True))

    def score(self, s: CourtState) -> int:
        return sum(self._parts(s))

    def rank(self, s: CourtState) -> str:
        """The verdict on a score (C10)."""
        score = self.score(s)
        return RANKS[sum(1 for t in self.thresholds if score >= t)]

    def rightmost_court_card(self, s: CourtState) -> int | None:
        """The place index (0..3) of the rightmost card that is not a prince (C5: None)."""
        row, prince = s.row, self.prince_of
        for i in (3, 2, 1, 0):
            card = row[i]
            if card is not None and not prince[card]:
                return i
        return None
