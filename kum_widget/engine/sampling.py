"""Determinization: full positions consistent with what one seat has seen.

Search bots (ISMCTS) never read hidden cards. From a seat's ``view`` alone they draw
complete positions that agree with everything the seat knows (D6): its own hand;
every creature face on the table and in the Camp; the mine face of every mine, of
every hand card and of the deck's top card; the creature of hand cards taken from the
Camp. The rest (which copy lies where, other hands' creatures, mines' creatures, the
deck's order) is dealt at random among the cards that fit.

>>> from kum_widget.engine.game import Game
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
        by_face: dict[tuple[int, int, int, bool], list[int]] = {}
        by_creature: dict[tuple[int, int], list[int]] = {}
        own = set(self.own)
        for card in deck:
            if card.id in own:
                continue
            by_face.setdefault((card.defense, card.size, card.points, card.overseer), []).append(card.id)
            by_creature.setdefault((card.race.index, card.value), []).append(card.id)

        def face(f: Mapping[str, Any]) -> list[int]:
            return by_face.get((f["defense"], f["size"], f["points"], bool(f.get("overseer"))), [])

        def creature(c: Mapping[str, Any]) -> list[int]:
            return by_creature.get((_RACE_INDEX[c["race"]], c["value"]), [])

        # Slots to fill, most constrained first: (where, candidates).
        exact: list[tuple[tuple[Any, ...], list[int]]] = []
        creatures: list[tuple[tuple[Any, ...], list[int]]] = []
        faces: list[tuple[tuple[Any, ...], list[int]]] = []
        for p in view["players"]:
            seat = p["seat"]
            for i, c in enumerate(p["hand"]):
                if seat == self.seat:
                    continue
                if c.get("race") is not None:  # taken from the Camp: both faces known
                    both = set(face(c)) & set(creature(c))
                    exact.append((("hand", seat, i), sorted(both)))
                else:
                    faces.append((("hand", seat, i), face(c)))
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
        self.slots = exact + creatures + faces
        self.deck_size: int = view["deck"]["size"]
        self.free = [c.id for c in deck if c.id not in own]

    def sample(self, rng: random.Random) -> State:
        """One full position consistent with the view. A quick random deal usually
        fits; when a choice leaves a later slot with no card, a matching (augmenting
        paths over shuffled candidates) finds one that does."""
        for _ in range(3):
            dealt = self._assign(rng)
            if dealt is not None:
                return self._build(*dealt, rng)
        return self._build(*self._match(rng), rng)

    def _match(self, rng: random.Random) -> tuple[dict[tuple[Any, ...], int], set[int]]:
        cands = [rng.sample(c, len(c)) for _, c in self.slots]
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
        rng.shuffle(order)
        for i in order:
            if not place(i, set()):
                raise InvalidStateError("no position fits this view (is it a view of a real game?)")
        placed = {self.slots[i][0]: card for card, i in owner.items()}
        return placed, set(owner)

    def _assign(self, rng: random.Random) -> tuple[dict[tuple[Any, ...], int], set[int]] | None:
        used: set[int] = set()
        placed: dict[tuple[Any, ...], int] = {}
        for where, candidates in self.slots:
            options = [c for c in candidates if c not in used]
            if not options:
                return None
            card = options[rng.randrange(len(options))] if len(options) > 1 else options[0]
            used.add(card)
            placed[where] = card
        return placed, used

    def _build(self, placed: dict[tuple[Any, ...], int], used: set[int], rng: random.Random) -> State:
        v = self.view
        players = v["players"]
        s = blank(self.rules, [p["name"] for p in players], [_RACE_INDEX[p["king"]] for p in players], None, v["first_player"])
        for p in players:
            seat = p["seat"]
            if seat == self.seat:
                s.hands[seat] = self.own[:]
                for i, c in enumerate(p["hand"]):
                    if c.get("public"):
                        s.known[self.own[i]] = 1
            else:
                s.hands[seat] = [placed[("hand", seat, i)] for i in range(len(p["hand"]))]
                for i, c in enumerate(p["hand"]):
                    if c.get("race") is not None:
                        s.known[s.hands[seat][i]] = 1
            for k, claim in enumerate(p["claimed"]):
                mine = placed[("claimed", seat, k)]
                s.claimed[seat].append(mine)
                s.stacks[mine] = [placed[("cstack", seat, k, j)] for j in range(len(claim["stack"]))]
            s.developed[seat] = [placed[("developed", seat, k)] for k in range(len(p["developed"]))]
        for slot, mine in enumerate(v["mines"]):
            if mine.get("mine") is not None:
                s.mines[slot] = placed[("mine", slot)]
            s.mine_stacks[slot] = [placed[("mstack", slot, j)] for j in range(len(mine["stack"]))]
        for race, pile in v["camp"].items():
            s.camp[Race.parse(race).index] = [placed[("camp", race, j)] for j in range(len(pile))]
        rest = [c for c in self.free if c not in used]
        rng.shuffle(rest)
        if ("decktop",) in placed:
            rest.append(placed[("decktop",)])
        if len(rest) != self.deck_size:
            raise InvalidStateError(f"the view's deck has {self.deck_size} cards but {len(rest)} are unplaced")
        s.deck = rest
        s.current = v["current"]
        s.phase = PHASES.index(v["phase"])
        s.deck_only = bool(v.get("deck_only"))
        s.turn = v["turn"]
        s.pending = [number - 1 for number in v.get("pending", [])]
        return s
