"""Determinization: full positions consistent with what one seat has seen.

Search bots (ISMCTS) never read hidden cards. From a seat's ``view`` alone they draw
complete positions that agree with everything the seat knows (D6): its own hand;
every creature face on the table and in the Camp; the mine face of every mine, of
every hand card and of the deck's top card; the creature of hand cards taken from the
Camp. The rest (which copy lies where, other hands' creatures, mines' creatures, the
deck's order) is dealt at random among the cards that fit (D6's variants change
what a view shows of other hands: under "hidden" nothing, so any card fits; under
"open" the card itself, by its id). :meth:`Determinizer.sample` walks a Markov chain
whose deals are uniform over the consistent ones, the posterior of a fair shuffle
given what the seat saw (reading nothing into the other players' choices, as
determinizing search usually does).

>>> from kum_widget.games.kum.game import Game
>>> import random
>>> g = Game(["Ada", "Bo"], seed=3)
>>> s = Determinizer(g.view(0)).sample(random.Random(1))
>>> s.hands[0] == g._state.hands[0], s.deck[-1] != g._state.deck[-1] or True
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .cards import RACES, Race
from .errors import InvalidStateError
from .ruleset import Rules
from .state import PHASES, State, blank

__all__ = ["Determinizer"]

_RACE_INDEX = {race.value: race.index for race in RACES}


class Determinizer:
    """Built once per decision from a view; :meth:`sample` deals one position."""

    def __init__(self, view: Mapping[str, Any], rules: Rules | None = None) -> None:
        self.view = view
        self.rules = rules if rules is not None else Rules.from_dict(view["rules"])
        deck = self.rules.deck
        self.seat: int = view["seat"]
        if self.seat is None:
            raise InvalidStateError("a determinizer needs a seat's view, not the full table")
        me = view["players"][self.seat]
        self.own = [c["id"] for c in me["hand"]]
        own = set(self.own)
        self.free = [c for c in range(len(deck)) if c not in own]
        by_face, by_creature = deck.face_ids, deck.creature_ids

        def face(f: Mapping[str, Any]) -> list[int]:
            key = (f["defense"], f["size"], f["points"], bool(f.get("overseer")))
            return [c for c in by_face.get(key, ()) if c not in own]

        def creature(c: Mapping[str, Any]) -> list[int]:
            return [i for i in by_creature.get((_RACE_INDEX[c["race"]], c["value"]), ()) if i not in own]

        # Slots to fill, most constrained first: (where, candidates).
        exact: list[tuple[tuple[Any, ...], list[int]]] = []
        creatures: list[tuple[tuple[Any, ...], list[int]]] = []
        faces: list[tuple[tuple[Any, ...], list[int]]] = []
        unseen: list[tuple[tuple[Any, ...], list[int]]] = []
        for p in view["players"]:
            seat = p["seat"]
            for i, c in enumerate(p["hand"]):
                if seat == self.seat:
                    continue
                if c.get("id") is not None:  # visibility "open": the card itself
                    exact.append((("hand", seat, i), [c["id"]]))
                elif c.get("race") is not None:  # taken from the Camp: both faces known
                    both = set(face(c)) & set(creature(c))
                    exact.append((("hand", seat, i), sorted(both)))
                elif c.get("defense") is not None:
                    faces.append((("hand", seat, i), face(c)))
                else:  # visibility "hidden": no face shows, any card fits
                    unseen.append((("hand", seat, i), self.free))
            for k, claim in enumerate(p["claimed"]):
                faces.append((("claimed", seat, k), face(claim["mine"])))
                for j, c in enumerate(claim["stack"]):
                    creatures.append((("cstack", seat, k, j), creature(c)))
            for k, f in enumerate(p["developed"]):
                faces.append((("developed", seat, k), face(f)))
        for slot, mine in enumerate(view["mines"]):
            if mine.get("mine") is not None:
                faces.append((("mine", slot), face(mine["mine"])))
            for j, c in enumerate(mine["stack"]):
                creatures.append((("mstack", slot, j), creature(c)))
        for race, pile in view["camp"].items():
            for j, c in enumerate(pile):
                creatures.append((("camp", race, j), creature(c)))
        if view["deck"].get("top") is not None:
            faces.append((("decktop",), face(view["deck"]["top"])))
        self.slots = exact + creatures + faces + unseen
        self.deck_size: int = view["deck"]["size"]
        self._plan(view, me)
        self._chain: list[int] | None = None  # the current deal, slot by slot

    # -- the deal as a Markov chain ------------------------------------------------

    def sample(self, rng: random.Random) -> State:
        """One full position consistent with the view.

        The first call finds one consistent deal (a randomised matching); every call
        then walks a Markov chain of swaps from the last deal: a slot takes a random
        card that fits it, from the unplaced cards or by swapping with the slot that
        holds it when each card fits the other's slot. The proposal is symmetric, so
        the chain's stationary distribution is uniform over the consistent deals. The
        deck below its top is shuffled afresh each time.
        """
        rnd = rng.random
        if self._chain is None:
            self._start(rng)
            self._walk(rnd, self.BURN_IN * len(self._movable))
        else:
            self._walk(rnd, self.STEPS * len(self._movable) // 4 + 4)
        return self._build(rnd)

    def consistent(self) -> State:
        """One position consistent with the view, quickly, but NOT a random draw (the
        same view gives the same deal): for readers that ignore the hidden cards."""
        rng = random.Random(0)
        if self._chain is None:
            self._start(rng, quick=True)
        return self._build(rng.random)

    def _start(self, rng: random.Random, *, quick: bool = False) -> None:
        placed = self._first_fit() if quick else None
        if placed is None:
            placed = self._match(None if quick else rng)
        self._chain = [placed[where] for where, _ in self.slots]
        self._where = [-1] * len(self.rules.deck)
        for i, card in enumerate(self._chain):
            self._where[card] = i
        self._pool = [c for c in self.free if self._where[c] < 0]
        self._pos = [-1] * len(self.rules.deck)
        for p, card in enumerate(self._pool):
            self._pos[card] = p

    BURN_IN = 20  # steps per movable slot before the first deal
    STEPS = 1  # quarter-steps per movable slot between deals: consecutive deals may share
    # cards, as consecutive draws of any Markov chain do; a thousand deals still mix well

    def _walk(self, rnd: Any, steps: int) -> None:
        movable = self._movable
        if not movable:
            return
        chain, where, pool, pos = self._chain, self._where, self._pool, self._pos
        assert chain is not None
        cands, fits = self._cands, self._fits
        k = len(movable)
        for _ in range(steps):
            i = movable[int(rnd() * k)]
            options = cands[i]
            card = options[int(rnd() * len(options))]
            old = chain[i]
            if card == old:
                continue
            j = where[card]
            if j < 0:  # unplaced: it takes the slot, the old card goes back among the unplaced
                chain[i] = card
                where[card], where[old] = i, -1
                p = pos[card]
                pool[p], pos[old], pos[card] = old, p, -1
            elif old in fits[j]:  # placed elsewhere: swap when each fits the other's slot
                chain[i], chain[j] = card, old
                where[card], where[old] = i, j

    def _plan(self, view: Mapping[str, Any], me: Mapping[str, Any]) -> None:
        """Where each slot's card goes in a State, as lists of slot indices."""
        index = {where: i for i, (where, _) in enumerate(self.slots)}
        self._cands = [c for _, c in self.slots]
        self._fits = [frozenset(c) for c in self._cands]
        self._movable = [i for i, c in enumerate(self._cands) if len(c) > 1]
        players = view["players"]
        self._hands = [
            None if p["seat"] == self.seat else [index[("hand", p["seat"], i)] for i in range(len(p["hand"]))]
            for p in players
        ]
        # "public": drawn from the Camp (the view says so under every visibility but "hidden",
        # whose views show nothing of other hands, known or not).
        self._known_slots = [index[("hand", p["seat"], i)] for p in players if p["seat"] != self.seat
                             for i, c in enumerate(p["hand"]) if c.get("public")]
        self._claimed = [[index[("claimed", p["seat"], k)] for k in range(len(p["claimed"]))] for p in players]
        self._cstacks = [
            [[index[("cstack", p["seat"], k, j)] for j in range(len(claim["stack"]))] for k, claim in enumerate(p["claimed"])]
            for p in players
        ]
        self._developed = [[index[("developed", p["seat"], k)] for k in range(len(p["developed"]))] for p in players]
        self._mines = [index[("mine", slot)] if mine.get("mine") is not None else -1 for slot, mine in enumerate(view["mines"])]
        self._mstacks = [[index[("mstack", slot, j)] for j in range(len(mine["stack"]))] for slot, mine in enumerate(view["mines"])]
        self._camp: list[list[int]] = [[] for _ in RACES]
        for race, pile in view["camp"].items():
            self._camp[Race.parse(race).index] = [index[("camp", race, j)] for j in range(len(pile))]
        self._top = index.get(("decktop",), -1)
        template = blank(self.rules, [p["name"] for p in players], [_RACE_INDEX[p["king"]] for p in players], None, view["first_player"])
        for i, c in enumerate(me["hand"]):
            if c.get("public"):
                template.known[self.own[i]] = 1
        template.current = view["current"]
        template.phase = PHASES.index(view["phase"])
        template.deck_only = bool(view.get("deck_only"))
        template.turn = view["turn"]
        template.pending = [number - 1 for number in view.get("pending", [])]
        self._template = template

    def _build(self, rnd: Any) -> State:
        chain = self._chain
        assert chain is not None
        t = self._template
        s = State.__new__(State)
        s.rules, s.cards, s.n, s.m, s.base = t.rules, t.cards, t.n, t.m, t.base
        s.names, s.kings, s.king_seat, s.seed, s.first = t.names, t.kings, t.king_seat, t.seed, t.first
        s.current, s.phase, s.deck_only, s.turn = t.current, t.phase, t.deck_only, t.turn
        s.pending = t.pending[:]
        s.plays = None
        s.hands = [self.own[:] if h is None else [chain[i] for i in h] for h in self._hands]
        s.known = t.known[:]
        for i in self._known_slots:
            s.known[chain[i]] = 1
        s.claimed = [[chain[i] for i in c] for c in self._claimed]
        s.stacks = {
            chain[i]: [chain[j] for j in stack]
            # (zip(strict=True) costs twice as much a pair: _plan builds these lists in step)
            for c, stacks in zip(self._claimed, self._cstacks, strict=False)
            for i, stack in zip(c, stacks, strict=False)
        }
        s.developed = [[chain[i] for i in d] for d in self._developed]
        s.mines = [chain[i] if i >= 0 else -1 for i in self._mines]
        s.mine_stacks = [[chain[i] for i in st] for st in self._mstacks]
        s.camp = [[chain[i] for i in pile] for pile in self._camp]
        deck = self._pool[:]
        for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates on random(): the deck's hidden order
            j = int(rnd() * (i + 1))
            deck[i], deck[j] = deck[j], deck[i]
        if self._top >= 0:
            deck.append(chain[self._top])
        if len(deck) != self.deck_size:
            raise InvalidStateError(f"the view's deck has {self.deck_size} cards but {len(deck)} are unplaced")
        s.deck = deck
        return s

    def _match(self, rng: random.Random | None) -> dict[tuple[Any, ...], int]:
        """A consistent deal by bipartite matching (augmenting paths); with ``rng``,
        over shuffled candidates in a shuffled order."""
        cands = [c if rng is None else rng.sample(c, len(c)) for _, c in self.slots]
        owner: dict[int, int] = {}  # card -> slot index

        def place(i: int, seen: set[int]) -> bool:
            for card in cands[i]:
                if card in seen:
                    continue
                seen.add(card)
                if card not in owner or place(owner[card], seen):
                    owner[card] = i
                    return True
            return False

        order = list(range(len(self.slots)))
        if rng is not None:
            rng.shuffle(order)
        for i in order:
            if not place(i, set()):
                raise InvalidStateError("no position fits this view (is it a view of a real game?)")
        return {self.slots[i][0]: card for card, i in owner.items()}

    def _first_fit(self) -> dict[tuple[Any, ...], int] | None:
        """Each slot its first free candidate: usually a consistent deal, at once."""
        used: set[int] = set()
        placed: dict[tuple[Any, ...], int] = {}
        for where, candidates in self.slots:
            for card in candidates:
                if card not in used:
                    used.add(card)
                    placed[where] = card
                    break
            else:
                return None
        return placed
