"""Property tests of Court of the Three Clans' own rules over random games (hypothesis),
through the public ``kum.Court`` session.

Games are driven by a seeded ``random.Random`` choosing among ``legal_action_ids()``, so a
failure shrinks to a (seed, rule options) pair that replays exactly. At every step: the
54 cards each exactly once (draw pile, row, court, discarded, defeated, captured, aside),
the row at most 4 and the court at most 8, the score equal to its breakdown; every game
ends under every combination of the rule options; a game built from a scenario round-trips;
the seat's view never holds the pile's order. The promises every game makes (the same seed
and choices give the same game; records and dicts at every step and with a redo list; undo
and redo to any step; step() as apply(); the state id) are tests/core/test_conformance.py's, for
the court too (its "court-any-options" case draws the rule options from each game's seed).
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kum_widget as kum

OPTIONS: dict[str, list[Any]] = {
    "first_refill": ["open", "court"],
    "price": ["descending", "printed"],
    "full_court": ["replace", "closed"],
    "empty_pass_pays": [True, False],
    "fights_per_turn": [0, 1, 2, 4],
    "last_prince_ends": [True, False],
    "court_vp": [True, False],
    "row_princes_subtract": [True, False],
}
COMBOS = [dict(zip(OPTIONS, values, strict=True)) for values in itertools.product(*OPTIONS.values())]
SEEDS = st.integers(0, 2**31 - 1)
RULES = st.builds(lambda combo, start_cp: kum.CourtRules(**combo, start_cp=start_cp), st.sampled_from(COMBOS),
                  st.sampled_from([0, 3, 10, 100]))
LIMIT = 600  # actions; random games take 11-80 (every turn that goes on draws a card)

_HC = [HealthCheck.too_slow]
FEW = settings(max_examples=20, deadline=None, suppress_health_check=_HC)
SOME = settings(max_examples=40, deadline=None, suppress_health_check=_HC)
MANY = settings(max_examples=100, deadline=None, suppress_health_check=_HC)


def all_cards(g: kum.Court) -> list[int]:
    s = g.state
    return [*s.pile, *(c for c in s.row if c is not None), *(c for c in s.court if c is not None),
            *s.discarded, *s.defeated, *s.captured, *s.aside]


def check_invariants(g: kum.Court) -> None:
    assert sorted(all_cards(g)) == list(range(len(g.table))) == list(range(54)), "each of the 54 cards exactly once"
    assert len(g.row) == 4 and len(g.court) == 8
    assert sum(c is not None for c in g.row) <= 4 and sum(c is not None for c in g.court) <= 8
    assert not any(c is not None and c.prince for c in g.court), "no prince at court"
    parts = g.score_breakdown()
    assert g.scores() == [float(sum(parts.values()))], "the breakdown adds up to the score"
    assert g.cp >= 0 and g.draw_pile_size == len(g.state.pile)
    assert g.is_over == (g.phase == "over") == (g.legal_actions() == [])
    assert g.state.aside == [] or g.phase == "setup"


def play_out(g: kum.Court, rng: random.Random, each: Callable[[kum.Court], None] | None = None) -> kum.Court:
    for _ in range(LIMIT):
        if each is not None:
            each(g)
        if g.is_over:
            return g
        g.apply(rng.choice(g.legal_action_ids()))
    raise AssertionError(f"the game did not end within {LIMIT} actions")


def same_game(a: kum.Court, b: kum.Court) -> None:
    assert a == b and a.to_dict() == b.to_dict() and a.record() == b.record() and str(a) == str(b)
    assert a.view(None) == b.view(None) and a.logs == b.logs and a.redo_count == b.redo_count


# -- the invariants at every step, under every rule option ---------------------------------------------


@MANY
@given(seed=SEEDS, rules=RULES)
def test_the_invariants_hold_at_every_step_under_random_options(seed: int, rules: kum.CourtRules) -> None:
    g = play_out(kum.Court(seed=seed, rules=rules), random.Random(seed), check_invariants)
    summary = g.summary()
    assert sum(v for k, v in summary.items() if k.startswith("vp_")) == g.scores()[0] == summary["score_0"]


def test_every_option_combination_ends() -> None:
    for n, combo in enumerate(COMBOS):
        g = play_out(kum.Court(seed=n, rules=kum.CourtRules(**combo)), random.Random(n))
        check_invariants(g)
        if combo["last_prince_ends"]:
            assert g.state.exhausted or g.daemons_drawn == 9 or sum(c is not None and c.prince for c in g.row) == 4


# -- games built by hand --------------------------------------------------------------------------------


def check_round_trips(g: kum.Court) -> None:
    data = json.loads(json.dumps(g.to_dict()))
    same_game(kum.Court.from_dict(data), g)  # the dict keeps the redo list too
    back = kum.Court.from_record(g.record())  # the record is the game played: no redo list
    assert back == g and back.record() == g.record() and str(back) == str(g) and back.view(None) == g.view(None)
    assert back.logs == g.logs and back.to_dict() == {**g.to_dict(), "redo": []} and back.redo_count == 0


def scenario_from(g: kum.Court, rules: kum.CourtRules) -> kum.Court:
    """A game built by hand in the position ``g`` is in (through the public scenario constructor)."""
    s = g.state
    layout = {"cp": s.cp, "pile": s.pile[::-1], "phase": s.phase, "turn": s.turn, "fights": s.fights,
              "discarded": s.discarded, "defeated": s.defeated, "captured": s.captured, "aside": s.aside, "bought": s.bought}
    return kum.Court.from_scenario(s.row, s.court, rules=rules, **layout)


@FEW
@given(seed=SEEDS, rules=RULES, moves=st.integers(0, 25), undo=st.integers(0, 3))
def test_games_started_from_a_scenario_round_trip(seed: int, rules: kum.CourtRules, moves: int, undo: int) -> None:
    g = kum.Court(seed=seed, rules=rules)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_action_ids()))
    if g.is_over or g.state.exhausted:  # (a scenario has no field for a pile found empty this turn)
        return
    h = scenario_from(g, rules)
    assert h.seed is None and h.view(None) == {**g.view(None), "seed": 0}
    play_out(h, rng, check_round_trips)
    h.undo(undo)
    check_round_trips(h)


# -- what the seat sees ---------------------------------------------------------------------------------


@SOME
@given(seed=SEEDS, rules=RULES)
def test_the_seat_never_sees_the_pile_order(seed: int, rules: kum.CourtRules) -> None:
    rng = random.Random(seed)

    def each(g: kum.Court) -> None:
        view, state = g.view(0), g.state
        assert "pile" not in view and "seed" not in view and view["draw_pile"] == len(state.pile)
        assert view == g.game.public_view(state)
        other = g.state
        rng.shuffle(other.pile)
        other.seed = rng.randrange(2**31)
        assert g.game.view(other, 0) == view, "the view does not depend on the pile's order"
        dealt = g.game.determinize(view, 0, random.Random(rng.randrange(100)))
        assert g.game.view(dealt, 0) == view and sorted(dealt.pile) == sorted(state.pile)
        if not g.is_over:
            legal = g.legal_action_ids()
            assert g.game.heuristic(state, legal) == g.game.heuristic(dealt, legal)
        assert g.view(None)["pile"] == state.pile  # only the teacher's view holds it

    play_out(kum.Court(seed=seed, rules=rules), rng, each)


