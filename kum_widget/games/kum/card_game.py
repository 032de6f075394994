"""Kings Under Mountains as a :class:`~kum_widget.core.CardGame`: the rules as the core's
protocol sees them, so the generic session, bots, lab and board play it.

The work is done by this package's modules on its flat :class:`State` (int action ids,
the hot path of search); this class only names them in the protocol's words.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...core.errors import shown
from ...core.game import CardGame
from .actions import action_kind, action_table, named_actions
from .board import click, kum_board
from .cards import RACES
from .errors import IllegalActionError, InvalidRulesError, InvalidStateError
from .events import Claimed, Developed, Discarded, Event, Stuck, describe
from .heuristic import best_actions, score_actions, score_view
from .resolve import object_id, text_id
from .rules import apply_id, is_legal, legal_ids, points, refusal, scores, winners
from .ruleset import Rules
from .sampling import Determinizer
from .state import OVER, PLAY, State, setup
from .views import view
from .why import why_not

__all__ = ["KumRules", "kum_summary"]


class KumRules(CardGame):
    """The rules of Kings Under Mountains in the core's protocol; ``game.KingsUnderMountains``
    (which adds the ``kum.Game`` sessions) is the class people use."""

    name = "kings-under-mountains"
    aliases = ("kum",)  # another name it is found by (the registry; pyproject.toml's entry points list it too)
    title = "Kings Under Mountains"
    min_players, max_players = 2, 4
    fair_heuristic = True  # score_actions reads the mover's hand, the table and the deck's size
    # ISMCTS steered by the heuristic: 400 iterations play as well as 1000 unsteered, in under
    # half the time; as two trees that split the root's moves, as well again (51.0% [44.5%,
    # 57.5%] against the 1000; bench/README.md: the paired matches on 100 deals)
    search_hints = {"iterations": 400, "prior": 3.0, "trees": 2, "split": True}
    # The four races are dealt to Kings at random and hold the same cards (RULES.md, the
    # deck): a Camp pile of one race is the mirror image of another's.
    mirror_kinds = (tuple(f"draw camp {race.value}" for race in RACES),)
    illegal_error = IllegalActionError  # (kum.IllegalActionError: a core IllegalMoveError)
    option_error = InvalidStateError

    def __init__(self, rules: Rules | None = None, **options: Any) -> None:
        if rules is not None and not isinstance(rules, Rules):
            from .errors import InvalidRulesError

            raise InvalidRulesError(f"rules must be a kum.Rules, got {type(rules).__name__}")
        base = rules or Rules()
        self.kum_rules = Rules.from_dict({**base.to_dict(), **options}) if options else base
        self.rules = self.kum_rules.to_dict()
        self._named = named_actions(self.kum_rules.deck, self.kum_rules.mines)  # (actions() asks at every move)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        del state["_named"]  # the process's shared table, found again when read: not a copy of it
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._named = named_actions(self.kum_rules.deck, self.kum_rules.mines)

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> KumRules:
        """The rules a view was made under (bots called as ``choose(view, legal)``)."""
        return cls(Rules.from_dict(view["rules"]))

    def encode(self, view: dict[str, Any], action: Any) -> int:
        """The id of a ``Play``/``Draw``/``Discard`` object (``game.apply(Play(...))``; bots
        given action objects), checked against the deck and the mines."""
        return object_id(action, len(self.kum_rules.deck), self.kum_rules.mines)

    def move(self, state: State, action: int) -> Any:
        """The ``Play``/``Draw``/``Discard`` of an action id (shared: one object per id and deck size)."""
        return action_table(state.n, state.m)[action]

    def options(self) -> dict[str, Any]:
        return self.kum_rules.to_dict()

    def with_options(self, options: Any) -> KumRules:
        if not isinstance(options, (Rules, Mapping)):
            raise InvalidRulesError(f"options must be a kum.Rules or a mapping of rule options to values, got {shown(options)}")
        rules = options if isinstance(options, Rules) else Rules.from_dict({**self.kum_rules.to_dict(), **dict(options)})
        return type(self)(rules)

    # -- the rules ------------------------------------------------------------------------

    def setup(self, players: int, rng: random.Random) -> State:
        return setup(self.kum_rules, [f"Player {i + 1}" for i in range(players)], rng.randrange(2**31))

    def current_player(self, state: State) -> int:
        return state.current

    def legal_actions(self, state: State) -> list[int]:
        return legal_ids(state)

    def apply(self, state: State, action: int) -> list[Event]:
        log: list[Event] = []
        apply_id(state, action, log)
        return log

    def step(self, state: State, action: int) -> None:
        apply_id(state, action)  # search: no events

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def scores(self, state: State) -> list[float]:
        return scores(state)  # type: ignore[return-value]

    def winners(self, state: State) -> list[int]:
        return winners(state) if state.phase == OVER else []

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def public_view(self, state: State) -> dict[str, Any]:
        return view(state, None, spectator=True)

    def action_text(self, state: State, action: int) -> str:
        return named_actions(state.cards, state.m)[action].text  # made once per deck

    def actions(self, state: State) -> list[Any]:
        """The session's Actions of the legal actions: made once per deck and shared."""
        plays = state.plays
        legal = plays if plays is not None and state.phase == PLAY else legal_ids(state)  # the cached plays: mapped, not copied
        named = self._named if state.rules is self.kum_rules else named_actions(state.cards, state.m)  # (a view's position: its own)
        return list(map(named.__getitem__, legal))

    def parse_action(self, state: State, text: str) -> int:
        """Text in the game's notation, short card forms too (``'play goblin 7 on mine 2'``)."""
        return text_id(state, text, state.names)

    def is_legal(self, state: State, action: int) -> bool:
        return is_legal(state, action)

    def refusal(self, state: State, action: int) -> str | None:
        return refusal(state, action)

    def action_kind(self, state: State, action: int) -> str:
        """Play on an available mine (toward a claim), play on your claimed mine (toward
        developing it), draw from the deck, draw from one race's Camp pile, or discard
        (stuck, D3)."""
        return action_kind(action, state.n, state.m)

    def describe(self, state: State, event: Any, viewer: int | None) -> str | None:
        return describe(event, state.cards, state.names, viewer)

    def clone(self, state: State) -> State:
        return state.clone()

    def same(self, a: State, b: State) -> bool:
        return a == b

    # -- for the bots ---------------------------------------------------------------------

    def sampler(self, view: dict[str, Any], seat: int) -> Callable[[random.Random], State]:
        return Determinizer(view).sample

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        return Determinizer(view).sample(rng)

    def any_position(self, view: dict[str, Any], seat: int) -> State:
        return Determinizer(view).consistent()  # the heuristic reads only what the seat knows

    def heuristic(self, state: State, actions: list[int]) -> list[float]:
        return score_actions(state, actions)

    def best_actions(self, state: State, legal: list[int]) -> list[int]:
        return best_actions(state, legal)

    def view_heuristic(self, view: dict[str, Any], actions: list[int]) -> list[float]:
        """:meth:`heuristic` read from the view of the seat to move, with no position dealt
        (the greedy bot: it reads only what the seat knows, so it needs no deal)."""
        if view.get("seat") is None or view["seat"] != view.get("current"):
            raise ValueError("view_heuristic reads the view of the seat to move")
        return score_view(view, actions, self.kum_rules.deck)

    def evaluate(self, state: State) -> list[float]:
        """Each seat's lead in expected points, squashed into [0, 1]: a claimed mine counts
        by how far its development has got (-points at worst, +points when done)."""
        # Plain loops, no generators: this scores the end of every rollout.
        n = len(state.kings)
        pts, sizes, over = state.cards.points, state.cards.sizes, state.cards.overseers
        stacks = state.stacks
        value = []
        for developed, claimed in zip(state.developed, state.claimed, strict=False):  # one entry a seat each
            done = 0
            for m in developed:
                done += pts[m]
            v = float(done)
            for m in claimed:
                progress = len(stacks[m]) / (sizes[m] + (1 if over[m] else 0))
                v += pts[m] * (2.0 * (0.35 + 0.6 * progress) - 1.0)
            value.append(v)
        out = []
        exp = math.exp
        for p in range(n):
            rival = -math.inf  # the best of the others
            for q in range(n):
                if q != p and value[q] > rival:
                    rival = value[q]
            out.append(1.0 / (1.0 + exp(-(value[p] - rival) / 5.0)))
        return out

    def secrets(self, state: State, seat: int) -> list[Any]:
        if self.kum_rules.visibility == "open":  # every hand is shown: nothing is private
            return []
        return [{"id": c} for c in state.hands[seat]]  # an id names both faces of a card

    # -- the lab and the board ----------------------------------------------------------------

    def summary(self, state: State, logs: Sequence[Sequence[Any]] = ()) -> dict[str, Any]:
        return kum_summary(state, logs)

    def columns(self, players: int) -> list[str]:
        """The lab's table as it has always read: the columns about the whole game, then
        each per-seat column for every seat (``bot_0, bot_1, race_0, race_1...``)."""
        whole = ("game", "seed", "players", "first_player", "turns", "actions", "n_winners", "winners",
                 "claims", "developments", "claims_by_other", "stuck", "discards")
        per_seat = ("bot", "race", "score", "developed", "undeveloped", "win", "claims", "developments",
                    "claims_by_other", "claims_by_other_points", "claims_for_other", "stuck", "discards")
        return [*whole, *(f"{name}_{seat}" for name in per_seat for seat in range(players))]

    def board(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return kum_board(view)

    def click(self, state: State, action: int) -> dict[str, Any]:
        return click(state, action)

    def why_not(self, view: dict[str, Any], seat: int, part: str) -> str | None:
        return why_not(view, seat, part)

    def __repr__(self) -> str:
        diff = self.kum_rules.diff()
        return f"KingsUnderMountains({', '.join(f'{k}={v!r}' for k, v in diff.items())})"


def kum_summary(state: State, logs: Sequence[Sequence[Any]]) -> dict[str, Any]:
    """The lab's Kings Under Mountains columns: claims, developments, stuck turns..."""
    n = len(state.kings)
    pts = state.cards.points
    count = {name: [0] * n for name in ("claims", "developments", "by_other", "by_other_pts", "for_other", "stuck", "discards")}
    for events in logs:
        for event in events:
            if isinstance(event, Claimed):
                count["claims"][event.seat] += 1
                if event.seat != event.by:  # a mine won for `seat` by another player's card
                    count["by_other"][event.seat] += 1
                    count["by_other_pts"][event.seat] += pts[event.mine]
                    count["for_other"][event.by] += 1
            elif isinstance(event, Developed):
                count["developments"][event.seat] += 1
            elif isinstance(event, Stuck):
                count["stuck"][event.seat] += 1
            elif isinstance(event, Discarded):
                count["discards"][event.seat] += 1
    pts_by_seat = [points(state, p) for p in range(n)]
    row: dict[str, Any] = {
        "first_player": state.first,
        "turns": state.turn,
        "claims": sum(count["claims"]),
        "developments": sum(count["developments"]),
        "claims_by_other": sum(count["by_other"]),
        "stuck": sum(count["stuck"]),
        "discards": sum(count["discards"]),
    }
    per_seat: dict[str, list[Any]] = {
        "race": [RACES[k].value for k in state.kings],
        "developed": [p[0] for p in pts_by_seat],
        "undeveloped": [p[1] for p in pts_by_seat],
        "claims": count["claims"],
        "developments": count["developments"],
        "claims_by_other": count["by_other"],
        "claims_by_other_points": count["by_other_pts"],
        "claims_for_other": count["for_other"],
        "stuck": count["stuck"],
        "discards": count["discards"],
    }
    for name, values in per_seat.items():
        for seat, v in enumerate(values):
            row[f"{name}_{seat}"] = v
    return row
