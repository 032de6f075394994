"""Court of the Three Clans: the solitaire engine on the core's ``CardGame`` protocol.

The rules are in COURT.md at the repository root (decisions C1-C10, each a rule option).
Places of the Society Row are 1 (left) to 4 (right); spaces of the Royal Court are
``r.c``: row 1 or 2, column 1 to 4 (``1.1`` top left, ``2.4`` bottom right).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...core.errors import IllegalMoveError, InvalidOptionError, shown
from ...core.game import CardGame
from .cards import CLANS, ROLES, Card, CardTable, table_for

__all__ = ["Court", "CourtState", "START", "BUY", "PASS", "FIGHT", "SKIP", "RANKS", "space_name"]

PLACES, SPACES = 4, 8
START, BUY, PASS, FIGHT, SKIP = 0, 100, 200, 210, 220  # start/buy: base + (place-1)*8 + (space-1); fight: base + place-1
SETUP, BUYING, FIGHTING, OVER = "setup", "buy", "fight", "over"
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


_SHORT = re.compile(r"(start|buy)\s+(?:place\s+)?([1-4])\s+(?:to\s+)?(?:space\s+)?([12])[.\s]([1-4])|(fight)\s+(?:place\s+)?([1-4])")


class Court(CardGame):
    """The court solitaire of the Sun, Moon and Earth clans against the Daemon Princes."""

    name = "court"
    title = "Court of the Three Clans"
    min_players = max_players = 1
    defaults = {
        "table": "standard",  # C1: the card table ("standard" or a CSV file's path)
        "first_refill": "open",  # C2: "open" (princes may appear) or "court" (set aside again)
        "price": "descending",  # C3: "descending" (cost - (place - 1)) or "printed"
        "full_court": "replace",  # C4: "replace" (discard a court card) or "closed" (no buying)
        "empty_pass_pays": True,  # C5: a pass that finds nothing to discard still pays its CP
        "fights_per_turn": 1,  # C6: fights allowed in one phase 2 (each pays exactly what it lacks)
        "last_prince_ends": True,  # C7: the game ends once no prince is left to draw
        "court_vp": True,  # C8: the printed VP of the Royal Court's cards score at the end
        "row_princes_subtract": False,  # C9: undefeated princes in the row subtract their VP too
        "ranks": "25,40,60",  # C10: the scores that reach Troubled Reign, Prosperous Reign, Golden Age
        "start_cp": 10,  # source: the player starts with 10 CP
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        r = self.rules
        choices = {"first_refill": ("open", "court"), "price": ("descending", "printed"), "full_court": ("replace", "closed")}
        for key, allowed in choices.items():
            if r[key] not in allowed:
                raise InvalidOptionError(f"option {key!r} must be one of {', '.join(map(repr, allowed))}, got {shown(r[key])}")
        if not 0 <= r["fights_per_turn"] <= 4:
            raise InvalidOptionError(f"option 'fights_per_turn' must be 0..4, got {r['fights_per_turn']}")
        if not 0 <= r["start_cp"] <= 100:
            raise InvalidOptionError(f"option 'start_cp' must be 0..100, got {r['start_cp']}")
        parts = r["ranks"].split(",")
        if len(parts) != 3 or not all(p.strip().lstrip("-").isdigit() and len(p.strip()) < 5 for p in parts):
            raise InvalidOptionError(f"option 'ranks' is three whole numbers like '20,30,40', got {shown(r['ranks'])}")
        self.thresholds = tuple(int(p) for p in parts)
        if not self.thresholds[0] < self.thresholds[1] < self.thresholds[2]:
            raise InvalidOptionError(f"option 'ranks' must rise, got {shown(r['ranks'])}")
        self.table: CardTable = table_for(r["table"])

    # -- helpers -------------------------------------------------------------------

    def card(self, card: int) -> Card:
        return self.table[card]

    def price(self, card: int, place: int) -> int:
        """What the card at ``place`` (1..4) costs now (C3)."""
        cost = self.table[card].cost
        return max(0, cost - (place - 1)) if self.rules["price"] == "descending" else cost

    def strength(self, s: CourtState) -> int:
        """The Generals' combined strength, +2 with all three clans' Generals."""
        generals = [self.table[c] for c in s.court if c is not None and self.table[c].role == "general"]
        bonus = 2 if {g.clan for g in generals} >= set(CLANS) else 0
        return sum(g.strength for g in generals) + bonus

    def tax_collectors(self, s: CourtState) -> int:
        return sum(1 for c in s.court if c is not None and self.table[c].role == "tax collector")

    def _prince(self, card: int | None) -> bool:
        return card is not None and self.table[card].prince

    def princes_in_pile(self, s: CourtState) -> int:
        return sum(1 for c in s.pile if self.table[c].prince)

    def daemons_drawn(self, s: CourtState) -> int:
        """Princes drawn into the row since setup (the ones set aside then went back)."""
        return len(self.table.princes) - self.princes_in_pile(s) - len(s.aside)

    def _draw(self, s: CourtState) -> int | None:
        if not s.pile:
            s.exhausted = True
            return None
        return s.pile.pop()

    def _refill(self, s: CourtState) -> None:
        """Close every gap by the sliding rule: the cards slide right, new cards come in at place 1."""
        cards: list[int | None] = [c for c in s.row if c is not None]
        new: list[int | None] = []
        while len(cards) + len(new) < PLACES:
            card = self._draw(s)
            if card is None:
                break
            new.append(card)
        s.row = [None] * (PLACES - len(cards) - len(new)) + new[::-1] + cards

    def _rightmost_court_card(self, s: CourtState) -> int | None:
        """The place index (0..3) of the rightmost card that is not a prince (C5: None)."""
        for i in range(PLACES - 1, -1, -1):
            card = s.row[i]
            if card is not None and not self.table[card].prince:
                return i
        return None

    def _fight_cost(self, s: CourtState, place: int) -> int | None:
        """The CP a fight against the card at ``place`` (1..4) would pay (None: no fight)."""
        card = s.row[place - 1]
        if card is None or not self.table[card].prince:
            return None
        return max(0, self.table[card].strength - self.strength(s))

    def _can_fight(self, s: CourtState) -> bool:
        return s.fights < self.rules["fights_per_turn"] and any(self._fight_legal(s, p) for p in range(1, PLACES + 1))

    def _fight_legal(self, s: CourtState, place: int) -> bool:
        cost = self._fight_cost(s, place)
        return cost is not None and cost <= s.cp

    def power_vp(self, s: CourtState) -> int:
        """The VP the Poets and Courtesans award (C1's powers, C8)."""
        total = 0
        for space, card in enumerate(s.court):
            if card is None:
                continue
            c = self.table[card]
            if c.role == "poet":
                total += len({self.table[n].clan for n in (s.court[x] for x in neighbours(space)) if n is not None})
            elif c.role == "courtesan":
                r = space // 4
                mates = [s.court[x] for x in range(r * 4, r * 4 + 4) if x != space]
                total += sum(1 for m in mates if m is not None and self.table[m].clan == c.clan)
        return total

    def breakdown(self, s: CourtState) -> dict[str, int]:
        """The parts of the score (they add up to it): positive parts, then the negative ones."""
        cards = [self.table[c] for c in s.court if c is not None]
        return {
            "defeated": sum(self.table[c].vp for c in s.defeated),
            "court": sum(c.vp for c in cards) if self.rules["court_vp"] else 0,
            "powers": self.power_vp(s),
            "cp": s.cp // 3,
            "captured": -sum(self.table[c].vp for c in s.captured),
            "row_princes": -sum(self.table[c].vp for c in s.row if c is not None and self.table[c].prince) if self.rules["row_princes_subtract"] else 0,
        }

    def score(self, s: CourtState) -> int:
        return sum(self.breakdown(s).values())

    def rank(self, s: CourtState) -> str:
        """The verdict on a score (C10)."""
        score = self.score(s)
        return RANKS[sum(1 for t in self.thresholds if score >= t)]

    def scenario(self, row: Sequence[int | None], court: Sequence[int | None], *, cp: int = 10,
                 pile: Sequence[int] | None = None, phase: str = BUYING, **piles: Sequence[int]) -> CourtState:
        """A position built by hand (tests, teaching): ``row`` (4 places), ``court`` (8 spaces),
        ``pile`` (its top card last; left out: every card not placed elsewhere, in id order),
        and the piles ``discarded``, ``defeated``, ``captured``, ``aside`` (setup only).
        Checked: every card exactly once, princes only where they may be."""
        unknown = sorted(set(piles) - {"discarded", "defeated", "captured", "aside"})
        if unknown:
            raise InvalidOptionError(f"scenario: unknown pile {unknown[0]!r} (piles: discarded, defeated, captured, aside)")
        if len(row) != PLACES or len(court) != SPACES:
            raise InvalidOptionError(f"scenario: the row has {PLACES} places and the court {SPACES} spaces, got {len(row)} and {len(court)}")
        if phase not in (SETUP, BUYING, FIGHTING):
            raise InvalidOptionError(f"scenario: phase must be one of {SETUP!r}, {BUYING!r}, {FIGHTING!r}, got {shown(phase)}")
        if type(cp) is not int or cp < 0:
            raise InvalidOptionError(f"scenario: cp must be a whole number >= 0, got {shown(cp)}")
        lists = {key: list(piles.get(key, ())) for key in ("discarded", "defeated", "captured", "aside")}
        placed = [c for c in (*row, *court) if c is not None] + [c for v in lists.values() for c in v]
        n = len(self.table)
        bad = [c for c in [*placed, *(pile or ())] if type(c) is not int or not 0 <= c < n]
        if bad:
            raise InvalidOptionError(f"scenario: {shown(bad[0])} is not a card (ids 0..{n - 1})")
        full = [*placed, *pile] if pile is not None else placed
        if len(set(full)) != len(full):
            raise InvalidOptionError(f"scenario: card {next(c for c in full if full.count(c) > 1)} is in two places")
        if pile is None:
            pile = [c for c in range(n) if c not in set(placed)]
        elif len(full) != n:
            raise InvalidOptionError(f"scenario: {n - len(full)} card(s) are nowhere (every card is in exactly one place)")
        if any(self.table[c].prince for c in (*(x for x in court if x is not None), *lists["discarded"], *lists["captured"])):
            raise InvalidOptionError("scenario: a Daemon Prince can be only in the pile, the row or the defeated pile")
        if any(not self.table[c].prince for c in (*lists["defeated"], *lists["aside"])):
            raise InvalidOptionError("scenario: only Daemon Princes are defeated or set aside")
        if lists["aside"] and phase != SETUP:
            raise InvalidOptionError("scenario: princes are set aside only during setup")
        return CourtState(pile=list(pile), row=list(row), court=list(court), cp=cp, seed=0, phase=phase,
                          discarded=lists["discarded"], defeated=lists["defeated"], captured=lists["captured"], aside=lists["aside"])

    # -- the protocol --------------------------------------------------------------------

    def setup(self, players: int, rng: random.Random) -> CourtState:
        self.check_players(players)
        pile = list(range(len(self.table)))
        rng.shuffle(pile)
        s = CourtState(pile=pile, row=[None] * PLACES, court=[None] * SPACES, cp=self.rules["start_cp"], seed=rng.randrange(2**31))
        self._deal_court_cards(s)
        return s

    def _deal_court_cards(self, s: CourtState) -> None:
        """Fill the row's gaps by the sliding rule, princes drawn set aside."""
        while None in s.row and s.pile:
            card = s.pile.pop()
            if self.table[card].prince:
                s.aside.append(card)
                continue
            cards: list[int | None] = [c for c in s.row if c is not None]
            row: list[int | None] = [None] * (PLACES - len(cards) - 1)
            s.row = [*row, card, *cards]

    def current_player(self, s: CourtState) -> int:
        return 0

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
        elif s.phase == BUYING:
            full = None not in s.court
            targets = [] if full and self.rules["full_court"] == "closed" else list(range(SPACES)) if full else [x for x in range(SPACES) if s.court[x] is None]
            for p in range(PLACES):
                card = s.row[p]
                if card is not None and not self.table[card].prince and self.price(card, p + 1) <= s.cp:
                    out += [BUY + p * SPACES + x for x in targets]
            out.append(PASS)
        elif s.phase == FIGHTING:
            out = [FIGHT + p - 1 for p in range(1, PLACES + 1) if self._fight_legal(s, p)]
            out.append(SKIP)
        return out

    def apply(self, s: CourtState, action: int) -> list[str]:
        if s.phase == SETUP:
            return self._start(s, action)
        events: list[str] = []
        if s.phase == BUYING:
            events += self._buy(s, action) if action != PASS else self._pass(s)
            s.phase = FIGHTING
        elif action == SKIP:
            s.fights = self.rules["fights_per_turn"]
        else:
            events += self._fight(s, action - FIGHT + 1)
        if s.phase == FIGHTING and not self._can_fight(s):
            events += self._daemons(s)
        return events

    def _start(self, s: CourtState, action: int) -> list[str]:
        p, x = divmod(action - START, SPACES)
        card = s.row[p]
        assert card is not None
        s.row[p] = None
        s.court[x] = card
        events = [f"{self.table[card].name} starts in space {space_name(x)}."]
        if sum(c is not None for c in s.court) == STARTING_CARDS:
            if self.rules["first_refill"] == "court":
                self._deal_court_cards(s)
            s.pile += s.aside
            s.aside = []
            random.Random(s.seed).shuffle(s.pile)
            self._refill(s)
            s.phase = BUYING
            events.append("The princes set aside are shuffled back; the row is refilled. Turn 1.")
        return events

    def _buy(self, s: CourtState, action: int) -> list[str]:
        p, x = divmod(action - BUY, SPACES)
        card = s.row[p]
        assert card is not None
        price = self.price(card, p + 1)
        s.cp -= price
        s.row[p] = None
        events = []
        old = s.court[x]
        if old is not None:
            s.discarded.append(old)
            events.append(f"{self.table[old].name} leaves space {space_name(x)} for the discard.")
        s.court[x] = card
        s.bought.append(card)
        c = self.table[card]
        events.append(f"Bought {c.name} for {price} CP into space {space_name(x)}.")
        if c.role == "minister":
            r = x // 4
            gain = sum(1 for y in range(r * 4, r * 4 + 4) if y != x and s.court[y] is not None)
            s.cp += gain
            events.append(f"The Minister brings {gain} CP.")
        self._refill(s)
        return events

    def _pass(self, s: CourtState) -> list[str]:
        i = self._rightmost_court_card(s)
        events = []
        if i is not None:
            card = s.row[i]
            assert card is not None
            s.row[i] = None
            s.discarded.append(card)
            self._refill(s)
            events.append(f"Passed: {self.table[card].name} is discarded.")
        else:
            events.append("Passed: no court card in the row to discard.")
        if i is not None or self.rules["empty_pass_pays"]:
            gain = 1 + self.tax_collectors(s)
            s.cp += gain
            events.append(f"Gained {gain} CP.")
        return events

    def _fight(self, s: CourtState, place: int) -> list[str]:
        cost = self._fight_cost(s, place)
        card = s.row[place - 1]
        assert cost is not None and card is not None
        s.cp -= cost
        s.row[place - 1] = None
        s.defeated.append(card)
        s.fights += 1
        self._refill(s)
        c = self.table[card]
        return [f"Defeated {c.name} (strength {c.strength}) paying {cost} CP: +{c.vp} VP."]

    def _daemons(self, s: CourtState) -> list[str]:
        """Phase 3, the end check, and the next turn."""
        events = []
        if any(self._prince(c) for c in s.row):
            i = self._rightmost_court_card(s)
            if i is not None:
                card = s.row[i]
                assert card is not None
                s.row[i] = None
                s.captured.append(card)
                self._refill(s)
                events.append(f"The daemons take {self.table[card].name} into their court.")
        princes_in_row = sum(1 for c in s.row if self._prince(c))
        if princes_in_row >= 4 or s.exhausted or (self.rules["last_prince_ends"] and not self.princes_in_pile(s)):
            s.phase = OVER
            why = "four princes in the row" if princes_in_row >= 4 else "the draw pile ran out" if s.exhausted else "every prince has been drawn"
            events.append(f"The game ends ({why}): {self.score(s)} points, {self.rank(s)}.")
        else:
            s.turn += 1
            s.fights = 0
            s.phase = BUYING
        return events

    # -- views -----------------------------------------------------------------------------

    def view(self, s: CourtState, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "phase": s.phase,
            "turn": s.turn,
            "row": s.row[:],
            "prices": [None if c is None or self.table[c].prince else self.price(c, p + 1) for p, c in enumerate(s.row)],
            "court": s.court[:],
            "cp": s.cp,
            "vp": sum(self.table[c].vp for c in s.defeated),
            "strength": self.strength(s),
            "fight_costs": [self._fight_cost(s, p) for p in range(1, PLACES + 1)],  # CP a fight would pay, per place
            "draw_pile": len(s.pile),
            "aside": s.aside[:],
            "discarded": s.discarded[:],
            "defeated": s.defeated[:],
            "captured": s.captured[:],
            "bought": s.bought[:],
            "daemons_drawn": self.daemons_drawn(s),
            "fights": s.fights,
            "exhausted": s.exhausted,
            "score": self.score(s),
        }
        if seat is None:
            out["pile"] = s.pile[:]
            out["seed"] = s.seed
        return out

    def public_view(self, s: CourtState) -> dict[str, Any]:
        return self.view(s, -1)

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> CourtState:
        seen = {c for key in ("row", "court") for c in view[key] if c is not None}
        seen |= {c for key in ("aside", "discarded", "defeated", "captured") for c in view[key]}
        unseen = [c for c in range(len(self.table)) if c not in seen]
        rng.shuffle(unseen)
        return CourtState(
            pile=unseen, row=list(view["row"]), court=list(view["court"]), cp=view["cp"], seed=rng.randrange(2**31),
            aside=list(view["aside"]), phase=view["phase"], discarded=list(view["discarded"]), defeated=list(view["defeated"]),
            captured=list(view["captured"]), bought=list(view["bought"]), turn=view["turn"], fights=view["fights"],
            exhausted=view["exhausted"],
        )

    def clone(self, s: CourtState) -> CourtState:
        return CourtState(s.pile[:], s.row[:], s.court[:], s.cp, s.seed, s.aside[:], s.phase, s.discarded[:],
                          s.defeated[:], s.captured[:], s.bought[:], s.turn, s.fights, s.exhausted)

    # -- text --------------------------------------------------------------------------------

    def action_text(self, s: CourtState, action: int) -> str:
        if action == PASS:
            return "pass"
        if action == SKIP:
            return "skip"
        if FIGHT <= action < FIGHT + PLACES:
            return f"fight place {action - FIGHT + 1}"
        for base, verb in ((START, "start"), (BUY, "buy")):
            if base <= action < base + PLACES * SPACES:
                p, x = divmod(action - base, SPACES)
                return f"{verb} place {p + 1} to space {space_name(x)}"
        raise IllegalMoveError(f"{shown(action)} is not an action of {self.title}")

    def parse_action(self, s: CourtState, text: str) -> int:
        key = " ".join(text.lower().split())
        if key in ("pass", "skip"):
            return PASS if key == "pass" else SKIP
        m = _SHORT.fullmatch(key)
        if m is not None:
            if m[5]:
                return FIGHT + int(m[6]) - 1
            base = START if m[1] == "start" else BUY
            return base + (int(m[2]) - 1) * SPACES + (int(m[3]) - 1) * 4 + int(m[4]) - 1
        return super().parse_action(s, text)

    def refusal(self, s: CourtState, action: int) -> str | None:
        self.action_text(s, action)  # an unknown id raises: the session says "not an action of this game"
        if s.phase == OVER:
            return "the game is over"
        kind = "start" if action < BUY else "buy" if action < PASS else "pass" if action == PASS else "fight" if action < SKIP else "skip"
        wanted = {SETUP: ("start",), BUYING: ("buy", "pass"), FIGHTING: ("fight", "skip")}[s.phase]
        if kind not in wanted:
            doing = {SETUP: "setup: choose a starting card and its space ('start place 1 to space 1.1')",
                     BUYING: "phase 1: buy a card from the row or pass",
                     FIGHTING: "phase 2: fight a Daemon Prince or skip"}[s.phase]
            return f"it is {doing}"
        if kind == "fight":
            place = action - FIGHT + 1
            if s.fights >= self.rules["fights_per_turn"]:
                return f"at most {self.rules['fights_per_turn']} fight(s) a turn (C6)"
            card = s.row[place - 1]
            if card is None or not self.table[card].prince:
                return f"place {place} holds no Daemon Prince"
            return f"the Generals' strength {self.strength(s)} plus your {s.cp} CP cannot reach its strength {self.table[card].strength} (C6: a fight must be winnable)"
        p, x = divmod(action - (START if kind == "start" else BUY), SPACES)
        card = s.row[p]
        if card is None:
            return f"place {p + 1} of the Society Row is empty"
        if self.table[card].prince:
            return "a Daemon Prince cannot be bought: fight it in phase 2"
        if kind == "buy":
            price = self.price(card, p + 1)
            if price > s.cp:
                return f"it costs {price} CP and you have {s.cp}"
            if None not in s.court:
                return "the Royal Court is full and this game does not allow replacing (C4)"
        if s.court[x] is not None:
            return f"space {space_name(x)} is taken: place into an empty space (a card may replace one only when the court is full)"
        return "not a legal action now"

    # -- bots and the lab ---------------------------------------------------------------------

    def _card_value(self, s: CourtState, card: int, space: int) -> float:
        """A rough worth, in VP, of ``card`` in ``space`` for the rest of the game."""
        c = self.table[card]
        value = float(c.vp) if self.rules["court_vp"] else 0.0
        trial = s.court[:]
        trial[space] = card
        if c.role == "general":
            value += 0.8 * c.strength
        elif c.role == "tax collector":
            value += 1.5
        elif c.role == "minister":
            r = space // 4
            value += sum(1 for y in range(r * 4, r * 4 + 4) if y != space and trial[y] is not None) / 3
        else:
            before = self.power_vp(s)
            after = self.power_vp(CourtState([], [], trial, 0, 0))
            value += after - before + 0.5
        return value

    def heuristic(self, s: CourtState, actions: list[int]) -> list[float]:
        out = []
        for a in actions:
            if a == PASS:
                out.append((1 + self.tax_collectors(s)) / 3 + 0.2)
            elif a == SKIP:
                out.append(0.0)
            elif FIGHT <= a < SKIP:
                card = s.row[a - FIGHT]
                cost = self._fight_cost(s, a - FIGHT + 1)
                assert card is not None and cost is not None
                out.append(self.table[card].vp + 1.0 - cost / 3)
            else:
                base = START if a < BUY else BUY
                p, x = divmod(a - base, SPACES)
                card = s.row[p]
                assert card is not None
                value = self._card_value(s, card, x)
                old = s.court[x]
                if old is not None:
                    value -= self._card_value(s, old, x)
                out.append(value if base == START else value - self.price(card, p + 1) / 3)
        return out

    def summary(self, s: CourtState, logs: Sequence[Sequence[Any]]) -> dict[str, Any]:
        parts = self.breakdown(s)
        out: dict[str, Any] = {f"vp_{k}": v for k, v in parts.items()}
        out.update(
            turns=s.turn, princes_defeated=len(s.defeated), cards_captured=len(s.captured),
            cp_left=s.cp, rank=self.rank(s), daemons_drawn=self.daemons_drawn(s),
        )
        for role in ROLES:
            out[f"bought_{role.replace(' ', '_')}"] = sum(1 for c in s.bought if self.table[c].role == role)
        return out
