"""Court of the Three Clans on the core's ``CardGame`` protocol: setup, the three phases
of a turn, the end and the score (COURT.md; decisions C1-C10 are rule options).

What the rules read of a position (prices, strength, powers, the score) is in
``formulas.py``, the text forms of actions in ``notation.py``, the bots' heuristic and the
lab's columns in ``heuristic.py``, the board in ``board.py``; this module is the rules.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ...core.game import CardGame
from . import board, heuristic, notation, scenario, views, why
from .cards import CLANS, CardTable, table_for
from .formulas import CourtFormulas
from .ruleset import CourtRules, parse_ranks
from .state import (
    BUY,
    BUYING,
    FIGHT,
    FIGHTING,
    OVER,
    PASS,
    PLACES,
    SETUP,
    SKIP,
    SPACES,
    START,
    STARTING_CARDS,
    CourtState,
    space_name,
)

__all__ = ["CourtOfTheThreeClans", "parse_ranks"]

_BUYS = [[[BUY + p * SPACES + x for x in range(SPACES) if bits >> x & 1] for p in range(PLACES)] for bits in range(1 << SPACES)]  # [buy_spaces()][place]


class CourtOfTheThreeClans(CourtFormulas, CardGame):
    """The court solitaire of the Sun, Moon and Earth clans against the Daemon Princes.

    >>> from kum_widget.core import Session
    >>> s = Session(CourtOfTheThreeClans(), seed=3)
    >>> s.legal_actions()[:2], s.action_text(0)
    ([Action(0, 'start place 1 to space 1.1'), Action(1, 'start place 1 to space 1.2')], 'start place 1 to space 1.1')
    """

    name = "court"
    title = "Court of the Three Clans"
    min_players = max_players = 1
    fair_heuristic = True  # the heuristic reads the row, the court and the piles, never the pile's order
    # ISMCTS: 400 iterations that exploit more and weigh the heuristic's 8 favourites at the
    # root are not shown weaker than 1000 at UCB's usual 0.7 over every move (bench/README.md:
    # -0.41 [-1.22, +0.39] over 400 paired deals), in about a third of the time
    search_hints = {"iterations": 400, "exploration": 0.25, "breadth": 8, "trees": 2}
    options_class = CourtRules  # the rule options C1-C10, declared there once
    settings: CourtRules

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)  # CourtRules.from_options reads and checks them
        r = self.rules
        self.thresholds = self.settings.ranks
        table = self.settings.table
        self.table: CardTable = table if isinstance(table, CardTable) else table_for(str(table))
        self.descending = r["price"] == "descending"
        self.fights_per_turn, self.closed = r["fights_per_turn"], r["full_court"] == "closed"  # read at every step
        t = self.table.cards  # flat lists: the bots read these thousands of times a second
        self.clan_of = [c.clan for c in t]
        self.role_of = [c.role for c in t]
        self.vp_of = [c.vp for c in t]
        self.prince_of = [c.prince for c in t]
        self.strength_of = [c.strength for c in t]
        self.cost_of = [c.cost for c in t]
        self.price_at = [[self.price(c, place) for place in range(1, PLACES + 1)] for c in range(len(t))]  # [card][place - 1]
        self.base_value = heuristic.base_values(self)  # each card's worth by itself, for the heuristic
        self.clan_index = [CLANS.index(c.clan) if c.clan in CLANS else -1 for c in t]  # a prince: -1
        self.role_code = heuristic.role_codes(self)  # what a placement gains depends on the role by this only
        self.kind_of = [k * 4 + r for k, r in zip(self.clan_index, self.role_code, strict=True)]  # and so on these
        self.worths = heuristic.Worths()  # the heuristic's cache of courts it has met
        # The heuristic's per-court sums re-derive the powers, a Minister's CP and the legal
        # buys: a subclass that changes one of them is scored by the plain formulas instead.
        self.plain_formulas = all(getattr(type(self), f) is getattr(CourtOfTheThreeClans, f) for f in ("power_of", "minister_gain", "legal_actions"))

    # -- the protocol --------------------------------------------------------------------

    def setup(self, players: int, rng: random.Random) -> CourtState:
        self.check_players(players)
        pile = list(range(len(self.table)))
        rng.shuffle(pile)
        s = CourtState(pile=pile, row=[None] * PLACES, court=[None] * SPACES, cp=self.rules["start_cp"], seed=rng.randrange(2**31))
        self._deal_court_cards(s)
        return s

    def current_player(self, s: CourtState) -> int:
        return 0

    def turn(self, s: CourtState) -> int:
        return 0 if s.phase == SETUP else s.turn

    def is_over(self, s: CourtState) -> bool:
        return s.phase == OVER

    def scores(self, s: CourtState) -> list[float]:
        return [float(self.score(s))]

    def legal_actions(self, s: CourtState) -> list[int]:
        out: list[int] = []
        if s.phase == SETUP:
            empty = [x for x in range(SPACES) if s.court[x] is None]
            for p in range(PLACES):
                if s.row[p] is not None:
                    out += [START + p * SPACES + x for x in empty]
        elif s.phase == BUYING:  # this runs in every rollout step
            spaces = self.buy_spaces(s.court)
            if spaces:
                buys = _BUYS[spaces]
                prince, price, cp = self.prince_of, self.price_at, s.cp
                for p, card in enumerate(s.row):
                    if card is not None and not prince[card] and price[card][p] <= cp:
                        out += buys[p]
            out.append(PASS)
        elif s.phase == FIGHTING:
            out = self._fights(s)
            out.append(SKIP)
        return out

    def apply(self, s: CourtState, action: int) -> list[str]:
        events: list[str] = []
        self._act(s, action, events)
        return events

    def step(self, s: CourtState, action: int) -> None:
        self._act(s, action, None)  # search: the same change, no sentences written

    def _act(self, s: CourtState, action: int, log: list[str] | None) -> None:
        """Apply a LEGAL action; the events' sentences go to ``log`` unless it is None."""
        phase = s.phase
        if phase == BUYING:
            if action != PASS:
                self._buy(s, action, log)
            else:
                self._pass(s, log)
            s.phase = FIGHTING
        elif phase == SETUP:
            self._start(s, action, log)
            return
        elif action == SKIP:
            s.fights = self.fights_per_turn
        else:
            self._fight(s, action - FIGHT + 1, log)
        if s.phase == FIGHTING and not self._fights(s):
            self._daemons(s, log)

    # -- the phases ------------------------------------------------------------------------

    def _refill(self, s: CourtState) -> None:
        """Close every gap by the sliding rule: the cards slide right, new cards come in at
        place 1 (the newest leftmost). A draw from an empty pile leaves the place empty (C7)."""
        row = s.row
        if None not in row:
            return
        cards: list[int | None] = [c for c in row if c is not None]
        need, pile = PLACES - len(cards), s.pile
        if len(pile) >= need:
            s.row = [*pile[-need:], *cards]  # the top card (last) is drawn first and slides furthest right
            del pile[-need:]
        else:
            s.exhausted = True
            s.row = [*([None] * (need - len(pile))), *pile, *cards]
            pile.clear()

    def _deal_court_cards(self, s: CourtState) -> None:
        """Fill the row's gaps by the sliding rule, princes drawn set aside (setup)."""
        while None in s.row and s.pile:
            card = s.pile.pop()
            if self.table[card].prince:
                s.aside.append(card)
                continue
            cards: list[int | None] = [c for c in s.row if c is not None]
            s.row = [*([None] * (PLACES - len(cards) - 1)), card, *cards]

    def _take_rightmost(self, s: CourtState, pile: list[int]) -> int | None:
        """Move the rightmost court card of the row onto ``pile`` and refill (1B, phase 3);
        None when the row holds no court card (C5)."""
        i = self.rightmost_court_card(s)
        if i is None:
            return None
        card = s.row[i]
        assert card is not None
        s.row[i] = None
        pile.append(card)
        self._refill(s)
        return card

    def _start(self, s: CourtState, action: int, log: list[str] | None) -> None:
        p, x = divmod(action - START, SPACES)
        card = s.row[p]
        assert card is not None
        s.row[p] = None
        s.court[x] = card
        if log is not None:
            log.append(f"{self.table[card].name} starts in space {space_name(x)}.")
        if sum(c is not None for c in s.court) == STARTING_CARDS:
            if self.rules["first_refill"] == "court":
                self._deal_court_cards(s)
            s.pile += s.aside
            s.aside = []
            random.Random(s.seed).shuffle(s.pile)
            self._refill(s)
            s.phase = BUYING
            if log is not None:
                log.append("The princes set aside are shuffled back; the row is refilled. Turn 1.")

    def _buy(self, s: CourtState, action: int, log: list[str] | None) -> None:
        p, x = divmod(action - BUY, SPACES)
        card = s.row[p]
        assert card is not None
        price = self.price_at[card][p]
        s.cp -= price
        s.row[p] = None
        old = s.court[x]
        if old is not None:
            s.discarded.append(old)
            if log is not None:
                log.append(f"{self.table[old].name} leaves space {space_name(x)} for the discard.")
        s.court[x] = card
        s.bought.append(card)
        if log is not None:
            log.append(f"Bought {self.table[card].name} for {price} CP into space {space_name(x)}.")
        if self.role_of[card] == "minister":
            gain = self.minister_gain(s.court, x)
            s.cp += gain
            if log is not None:
                log.append(f"The Minister brings {gain} CP.")
        self._refill(s)

    def _pass(self, s: CourtState, log: list[str] | None) -> None:
        card = self._take_rightmost(s, s.discarded)
        if log is not None:
            log.append(f"Passed: {self.table[card].name} is discarded." if card is not None else "Passed: no court card in the row to discard.")
        if card is not None or self.rules["empty_pass_pays"]:
            gain = 1 + self.tax_collectors(s)
            s.cp += gain
            if log is not None:
                log.append(f"Gained {gain} CP.")

    def _fight(self, s: CourtState, place: int, log: list[str] | None) -> None:
        cost = self.fight_cost(s, place)
        card = s.row[place - 1]
        assert cost is not None and card is not None
        s.cp -= cost
        s.row[place - 1] = None
        s.defeated.append(card)
        s.fights += 1
        self._refill(s)
        if log is not None:
            c = self.table[card]
            log.append(f"Defeated {c.name} (strength {c.strength}) paying {cost} CP: +{c.vp} VP.")

    def _daemons(self, s: CourtState, log: list[str] | None) -> None:
        """Phase 3, the end check, and the next turn."""
        prince = self.prince_of
        princes_in_row = [c is not None and prince[c] for c in s.row].count(True)
        if princes_in_row:
            card = self._take_rightmost(s, s.captured)
            if card is not None:
                princes_in_row = [c is not None and prince[c] for c in s.row].count(True)
                if log is not None:
                    log.append(f"The daemons take {self.table[card].name} into their court.")
        if princes_in_row >= 4 or s.exhausted or (self.rules["last_prince_ends"] and not any(map(prince.__getitem__, s.pile))):
            s.phase = OVER
            if log is not None:
                why = "four princes in the row" if princes_in_row >= 4 else "the draw pile ran out" if s.exhausted else "every prince has been drawn"
                log.append(f"The game ends ({why}): {self.score(s)} points, {self.rank(s)}.")
        else:
            s.turn += 1
            s.fights = 0
            s.phase = BUYING

    # -- views ------------------------------------------------------------------------------

    def view(self, s: CourtState, seat: int | None) -> dict[str, Any]:
        return views.court_view(self, s, seat)

    def public_view(self, s: CourtState) -> dict[str, Any]:
        return views.court_view(self, s, -1)

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> CourtState:
        return views.determinize(self, view, rng)

    def sampler(self, view: dict[str, Any], seat: int) -> Callable[[random.Random], CourtState]:
        return views.sampler(self, view)

    def clone(self, s: CourtState) -> CourtState:
        return s.copy()

    def save_position(self, s: CourtState) -> dict[str, Any]:
        return views.save_position(s)

    def load_position(self, data: Any) -> CourtState:
        return views.load_position(self, data)

    def board(self, view: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
        return board.court_board(self, view)

    def click(self, s: CourtState, action: int) -> dict[str, Any]:
        return board.court_click(s, action)

    def why_not(self, view: dict[str, Any], seat: int, part: str) -> str | None:
        return why.why_not(self, view, part)

    # -- text, bots and the lab (in their own modules) ---------------------------------------

    def action_text(self, s: CourtState, action: int) -> str:
        return notation.action_text(action)

    def parse_action(self, s: CourtState, text: str) -> int:
        aid = notation.parse(text)
        return super().parse_action(s, text) if aid is None else aid

    def refusal(self, s: CourtState, action: int) -> str | None:
        return notation.refusal(self, s, action)

    def action_kind(self, s: CourtState, action: int) -> str:
        """"start" (a starting card), "buy", "pass", "fight" or "skip" (no fight)."""
        return notation.kind_of(action)

    def heuristic(self, s: CourtState, actions: list[int]) -> list[float]:
        return heuristic.heuristic(self, s, actions)

    def best_actions(self, s: CourtState, legal: list[int]) -> list[int]:
        return heuristic.best_actions(self, s, legal)

    def evaluate(self, s: CourtState) -> list[float]:
        return heuristic.evaluate(self, s)

    def summary(self, s: CourtState, logs: Sequence[Sequence[Any]]) -> dict[str, Any]:
        return heuristic.summary(self, s)

    def columns(self, players: int) -> list[str]:
        return heuristic.columns()

    def scenario(self, row: Sequence[int | None], court: Sequence[int | None], **layout: Any) -> CourtState:
        """A checked position built by hand (see ``scenario.py``)."""
        return scenario.build(self, row, court, **layout)
