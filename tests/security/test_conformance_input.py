"""Bad input, checked on every game (the cases of ``_conformance_helpers``): every public
call of a session that takes a value refuses a bad one with a GameError of the core's class
for it (and the game's own class, ``Case.errors``) whose message names what is wrong,
briefly, and leaves the session exactly as it was; no KeyError, IndexError, TypeError,
RecursionError or other exception escapes. The same for saved games: every cut of a
record, every field of a dict left out or hostile, fuzzed values, names and seeds.

The bugs this found are ``_hostile_helpers.FIXED``, each kept as a regression test
(``test_fixed_bugs_stay_fixed``).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from _conformance_helpers import ONE_PER_GAME, Case, check_round_trips, json_round, play
from _hostile_helpers import (
    CALLS,
    FIXED,
    HOSTILE,
    Bug,
    Call,
    check_refusal,
    json_values,
    midgame,
    outcome,
    paths,
    reads_or_refused,
    replaced,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kum_widget.core import GameError
from kum_widget.core.errors import shown

# -- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", ONE_PER_GAME, ids=str)
def test_bad_input_to_every_session_call_is_refused_by_name_and_changes_nothing(case: Case) -> None:
    s = midgame(case)
    other = midgame(next(c for c in ONE_PER_GAME if c.make().name != s.game.name))
    for how in CALLS:
        for value in HOSTILE + [other] * (how.name == "load"):
            check_refusal(s, how, value, case.errors)
    for save, load in ((other.record(), type(s).from_record), (other.to_dict(), type(s).from_dict)):
        error = outcome(lambda save=save, load=load: load(save, game=s.game))
        assert error is not None and other.game.name in str(error) and s.game.name in str(error), error


@pytest.mark.parametrize("case", ONE_PER_GAME, ids=str)
def test_fuzzed_values_and_text_are_refused_or_played(case: Case) -> None:
    """Any JSON value or text to the calls that take one: refused by a GameError that changes
    nothing, or (text naming a legal action) played."""
    s = midgame(case)

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
    @given(value=json_values | st.text(max_size=40), which=st.sampled_from([c for c in CALLS if c.changes]))
    def run(value: Any, which: Call) -> None:
        check_refusal(s, which, value, case.errors)

    run()


@pytest.mark.parametrize("bug", FIXED, ids=lambda b: f"{b.case or 'core'}-{b.where}")
def test_fixed_bugs_stay_fixed(bug: Bug) -> None:
    """Each bug this suite found, on the inputs that met it: refused by name now (it failed
    before the fix: the reason says what it was)."""
    bug.reproduce()


# -- saved games: records and dicts from anywhere ---------------------------------------------------


@pytest.mark.parametrize("case", ONE_PER_GAME, ids=str)
def test_every_cut_of_a_record_and_every_field_of_a_dict_reads_or_is_refused(case: Case) -> None:
    s = midgame(case)
    record, data = s.record(), json_round(s.to_dict())
    for n in range(len(record)):  # an earlier game, or refused
        reads_or_refused(lambda n=n: type(s).from_record(record[:n]), f"record[:{n}]", case.errors)
    for key in data:
        reads_or_refused(lambda key=key: type(s).from_dict({k: v for k, v in data.items() if k != key}), f"without {key!r}",
                         case.errors)
    for path in paths(data)[:400]:
        for value in HOSTILE:
            reads_or_refused(lambda path=path, value=value: type(s).from_dict(replaced(data, path, value)),
                             f"{path} = {shown(value, 30)}", case.errors)


@pytest.mark.parametrize("case", ONE_PER_GAME, ids=str)
def test_fuzzed_saves_read_or_are_refused(case: Case) -> None:
    s = midgame(case)
    data, lines = json_round(s.to_dict()), s.record().splitlines()

    @settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
    @given(path=st.sampled_from(paths(data)), value=json_values, drop=st.booleans(), text=st.text(max_size=60),
           line=st.integers(0, len(lines) - 1), mode=st.integers(0, 2))
    def run(path: tuple[Any, ...], value: Any, drop: bool, text: str, line: int, mode: int) -> None:
        reads_or_refused(lambda: type(s).from_dict(value), "an arbitrary value", case.errors)
        reads_or_refused(lambda: type(s).from_dict(replaced(data, path, value, drop=drop)), f"{path}", case.errors)
        reads_or_refused(lambda: type(s).from_record(text), "arbitrary text", case.errors)
        edited = list(lines)
        if mode == 0:
            edited[line] = text
        elif mode == 1 and (tag := re.fullmatch(r'\[(\w+) "(.*)"\]', edited[line])):
            edited[line] = f'[{tag[1]} "{text}"]'  # a tag with another value
        elif mode == 1 and ":" in edited[line]:
            edited[line] = edited[line].split(":", 1)[0] + ": " + text  # a move line with other actions
        else:
            edited.insert(line, text)
        reads_or_refused(lambda: type(s).from_record("\n".join(edited)), f"line {line}", case.errors)

    run()


NAMES = ["Ada:", "Bo;x", 'Q"uote', "back\\slash", "[Ada]", "{seat1}", "{player}", "{{", "1. Bo", "  Ada", "A\rB", "A\u2028B",
         "A\x85B", "Ada%", "x" * 40]


@pytest.mark.parametrize("case", ONE_PER_GAME, ids=str)
def test_any_name_a_game_takes_survives_its_record(case: Case) -> None:
    """A name the game refuses is refused up front; one it takes reads back from the record and the dict."""

    def check(names: list[str]) -> None:
        try:
            s = case.new(3, players=names)
        except GameError:
            return
        play(s, random.Random(3))
        check_round_trips(s)

    others = ["Bo", "Cy", "Di"][: case.players - 1]
    for name in NAMES:
        check([name, *others])
        check([*others, name])

    @settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
    @given(names=st.lists(st.text(min_size=1, max_size=10), min_size=case.players, max_size=case.players))
    def run(names: list[str]) -> None:
        check(names)

    run()
