"""The design report on small games whose every answer is known by construction
(tests/_design_games.py), at three seeds each: what every reading says.

- Dice: pure luck (the deal decides; two names for one move).
- LastMove: no chance, and the first player, who always moves last, always wins.
- Gems: one kind of action ("gem") causally wins.
- Mirror: a solitaire with two mirror kinds (left, right) and a length confound (the
  share of forced "wait"s falls as the dealt length, and the score, grow).
"""

from __future__ import annotations

from typing import Any

import pytest
from _design_games import Dice, Gems, LastMove, Mirror, MirrorUndeclared

import kum_widget as kum

SEEDS = (0, 1, 2)


def _report(game: Any, seed: int, **kw: Any) -> kum.lab.Report:
    return kum.lab.report(game, games=80, seed=seed, progress=False, what_wins_games=80, luck_games=80, **kw)


@pytest.fixture(scope="module", params=SEEDS)
def dice(request: pytest.FixtureRequest) -> kum.lab.Report:
    return _report(Dice, request.param)


@pytest.fixture(scope="module", params=SEEDS)
def last_move(request: pytest.FixtureRequest) -> kum.lab.Report:
    return _report(LastMove, request.param)


@pytest.fixture(scope="module", params=SEEDS)
def gems(request: pytest.FixtureRequest) -> kum.lab.Report:
    return _report(Gems, request.param)


@pytest.fixture(scope="module", params=SEEDS)
def mirror(request: pytest.FixtureRequest) -> kum.lab.Report:
    return _report(Mirror, request.param)


# -- pure luck --------------------------------------------------------------------------------


def test_pure_luck_reads_as_luck_in_every_section(dice: kum.lab.Report) -> None:
    first = dice["balance"].table.iloc[0]
    assert first["low"] <= 0.5 <= first["high"], dice["balance"].reading  # no edge was built in
    assert "no clear edge" in dice["balance"].reading
    assert dice["length"].table.attrs["mean_turns"] == 6
    d = dice["decisions"].table.attrs
    assert d["proven_none"] and dice["decisions"].reading.startswith("No decision matters")
    luck = dice["luck"].table.attrs
    assert luck["has_chance"] and luck["luck"] == 1.0, dice["luck"].reading
    assert "ended the same way every time it was played (twice)" in dice["luck"].reading
    assert "decided every game" in dice["luck"].reading
    assert dice["skill"].reading.startswith("No decision matters"), dice["skill"].reading
    assert "luck" not in dice["skill"].reading.lower()  # the luck words come from the luck measurement alone
    ww = dice["what_wins"].table
    assert set(ww["what"]) == {"roll", "throw"} and (ww["difference"] == 0).all() and not ww["named"].any()
    assert dice["what_wins"].reading.startswith("No difference found")
    assert dice["associations"].table.attrs["best"] is None
    assert dice["drama"].table.attrs["lead_changes"] == 0


def test_two_names_for_one_move_are_one_option() -> None:
    """Dice's "roll" and "throw" lead to one position: never a real choice, however they are named."""
    t = kum.lab.traced(Dice, 40, progress=False, options=True)
    d = kum.lab.decisions(t).table.attrs
    assert d["sampled"] > 0 and d["real"] == 0 and d["one_position"] == 1.0


# -- no chance, the first player wins -------------------------------------------------------


def test_no_chance_and_a_first_player_win(last_move: kum.lab.Report) -> None:
    b = last_move["balance"]
    assert b.table.attrs["first_share"] == 1.0 and "a real edge" in b.reading
    luck = last_move["luck"].table.attrs
    assert not luck["has_chance"] and luck["luck"] == 0 and luck["luck_high"] == 0
    assert last_move["luck"].reading.startswith("No luck: no chance")
    d = last_move["decisions"].table.attrs
    assert not d["proven_none"] and d["real"] == 0  # different positions, the same result
    skill = last_move["skill"]
    assert skill.reading.startswith("No skill effect found"), skill.reading
    assert skill.table.attrs["skill_low"] == 0
    assert "luck" not in skill.reading.lower()


def test_the_winners_last_move_is_not_what_wins(last_move: kum.lab.Report) -> None:
    """The winner always makes the last move ("finish", alone): it is never a choice, so no
    experiment asks of it, and the association leaves the game's last move out."""
    ww = last_move["what_wins"]
    assert "finish" not in set(ww.table["what"]) and "finish" in ww.table.attrs["no_choice"]
    assert not ww.table["named"].any() and ww.reading.startswith("No difference found")
    assoc = last_move["associations"].table
    assert assoc.attrs["best"] is None and "finish" not in set(assoc["what"])


# -- one kind that causally wins ------------------------------------------------------------


def test_the_kind_that_wins_is_named_by_experiment(gems: kum.lab.Report) -> None:
    ww = gems["what_wins"].table
    named = ww[ww["named"]]
    assert list(named["what"]) == ["gem"] and named["high"].iloc[0] < -0.3
    assert gems["what_wins"].reading.startswith("Never taking “gem” lowers the player's share of wins")
    assert gems["skill"].reading.startswith("The better player wins")
    assert gems["luck"].table.attrs["has_chance"]
    assert not gems["decisions"].table.attrs["proven_none"] and gems["decisions"].table.attrs["real"] > 0


# -- mirror kinds and a length confound -----------------------------------------------------


def test_mirror_kinds_are_one_question(mirror: kum.lab.Report) -> None:
    ww = mirror["what_wins"].table
    assert list(ww["what"]) == ["left / right (mirror images)"] and ww["difference"].iloc[0] == 0
    assert mirror["what_wins"].reading.startswith("No difference found")


@pytest.mark.parametrize("seed", SEEDS)
def test_undeclared_mirror_kinds_read_no_difference_side_by_side(seed: int) -> None:
    r = kum.lab.what_wins(MirrorUndeclared, games=60, seed=seed, progress=False)
    assert sorted(r.table["what"]) == ["left", "right"]
    assert (r.table["difference"] == 0).all() and not r.table["named"].any()
    assert r.table.attrs["best"] is None


def test_a_length_confound_is_no_association(mirror: kum.lab.Report) -> None:
    assoc = mirror["associations"].table.set_index("what")
    wait = assoc.loc["wait"]
    assert wait["unadjusted high"] < 0  # a longer game: more score, fewer waits by share
    assert wait["low"] <= 0 <= wait["high"]  # at equal length, nothing
    assert mirror["associations"].reading.startswith("No association found")
    assert mirror["length"].table.attrs["mean_turns"] > 4  # a solitaire's turns are its decisions
    assert mirror["skill"].reading.startswith("The better player wins")
