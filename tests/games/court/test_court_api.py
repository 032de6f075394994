"""Court of the Three Clans through the public API (``kum.Court``, ``kum.CourtRules``).

First the main rules as scenarios built with ``Court.from_scenario`` and played with the
text notation; then the notation, repr and str. Hostile input is in
``test_court_hostile.py``. Cards are named by
the standard table's labels, looked up by clan and role so that re-tuning the costs does
not break the scenarios.
"""

from __future__ import annotations

import random

import pytest
from _court_helpers import card, cost, labels, prince, refused, spaces
from _paths import GOLDEN

import kum_widget as kum
from kum_widget import core
from kum_widget.core import IllegalMoveError, InvalidOptionError

TABLE = kum.Court(seed=0).table
PRINCES = sorted((c for c in TABLE if c.prince), key=lambda c: c.strength)


# -- the main rules through the public API ----------------------------------------------------------


def test_api_setup_is_three_start_actions_and_powers_do_not_trigger() -> None:
    g = kum.Court(seed=3, player="Ada")
    assert g.phase == "setup" and g.turn == 1 and g.cp == 10 and g.players == ("Ada",)
    assert all(c is not None and not c.prince for c in g.row) and g.court == [None] * 8
    assert {a.text for a in g.legal_actions()} == {f"start place {p} to space {r}.{c}" for p in range(1, 5) for r in (1, 2) for c in range(1, 5)}
    for text in ("start place 1 to space 1.1", "start 2 1.2", "START place 4 to space 1.3"):
        g.apply(text)
    assert g.phase == "buy" and g.cp == 10 and sum(c is not None for c in g.court) == 3
    assert all(a.text == "pass" or a.text.startswith("buy") for a in g.legal_actions()) and g.legal_actions()[-1].text == "pass"
    assert len(g.history) == 3 and g.last_action.text == "start place 4 to space 1.3"


def test_api_buy_pays_the_descending_price_the_minister_brings_cp_and_the_row_slides() -> None:
    row = [card("sun", "poet"), card("moon", "poet"), card("earth", "minister"), card("sun", "general")]
    g = kum.Court.from_scenario(row, spaces(s2_2=card("moon", "general"), s2_3=card("earth", "poet")), cp=5)
    assert g.seed is None and g.prices == [cost(row[0]), max(0, cost(row[1]) - 1), max(0, cost(row[2]) - 2), max(0, cost(row[3]) - 3)]
    price = g.prices[2]
    assert price is not None
    events = g.apply("buy place 3 to space 2.1")
    assert g.court[4] is not None and g.court[4].label == row[2]
    assert g.cp == 5 - price + 2  # two other cards in court row 2
    assert f"Bought Earth Minister for {price} CP into space 2.1." in events and "The Minister brings 2 CP." in events
    assert labels(g.row)[1:] == [row[0], row[1], row[3]]  # the cards to its left slid right
    assert g.view(0)["prices"] == g.prices and g.view(0)["cp"] == g.cp
    assert g.phase == "buy" and g.turn == 2  # no prince: no fight, nothing taken


def test_api_pass_discards_the_rightmost_court_card_pays_and_the_daemons_take() -> None:
    row = [card("sun", "poet"), prince(2), card("moon", "poet"), card("earth", "poet")]
    g = kum.Court.from_scenario(row, spaces(s1_1=card("sun", "tax collector")), cp=0)
    g.apply(" Pass ")
    assert labels(g.discarded) == [card("earth", "poet")] and g.cp == 2
    assert labels(g.captured) == [card("moon", "poet")]  # phase 3: a prince is in the row
    assert g.score_breakdown()["captured"] == -g.captured[0].vp and g.turn == 2


def test_api_fight_pays_what_it_lacks_and_skip_declines() -> None:
    row = [card("sun", "poet"), prince(4), card("moon", "poet"), card("earth", "poet")]
    court = spaces(s1_1=card("sun", "general", 1), s1_2=card("moon", "general", 1), s2_1=card("earth", "general", 1))
    g = kum.Court.from_scenario(row, court, cp=10, phase="fight")
    strength = sum(TABLE[TABLE.find(c)].strength for c in court if c) + 2  # three clans: +2
    assert g.strength == strength and g.fight_cost(1) is None
    lack = max(0, PRINCES[4].strength - strength)
    assert g.fight_cost(2) == lack and [a.text for a in g.legal_actions()] == ["fight place 2", "skip"]
    g.apply("fight place 2")
    assert labels(g.defeated) == [prince(4)] and g.vp == PRINCES[4].vp and g.cp == 10 - lack
    assert g.score_breakdown()["defeated"] == PRINCES[4].vp and g.phase == "buy" and not g.captured
    g.undo()
    g.apply("SKIP")
    assert not g.defeated and labels(g.captured) == [card("earth", "poet")] and g.cp == 10


def test_api_a_full_court_replaces_or_is_closed_c4() -> None:
    court = [card(clan, role) for clan in ("sun", "moon") for role in ("minister", "poet", "courtesan", "general")]
    row = [card("earth", "poet"), card("earth", "minister"), card("earth", "general"), card("earth", "courtesan")]
    g = kum.Court.from_scenario(row, court, cp=10)
    assert len([a for a in g.legal_actions() if a.text.startswith("buy place 1 ")]) == 8  # any space
    g.apply("buy place 1 to space 1.1")
    assert labels(g.discarded) == [court[0]] and g.court[0] is not None and g.court[0].label == row[0]
    closed = kum.Court.from_scenario(row, court, cp=10, rules=kum.CourtRules(full_court="closed"))
    assert [a.text for a in closed.legal_actions()] == ["pass"]
    refused(closed, lambda: closed.apply("buy place 1 to space 1.1"), IllegalMoveError, "full")
    open_space = kum.Court.from_scenario(row, spaces(s1_1=card("sun", "poet")))
    refused(open_space, lambda: open_space.apply("buy 1 1.1"), IllegalMoveError, r"space 1\.1 is taken")


def test_api_the_end_the_score_and_the_rank() -> None:
    g = kum.Court.from_scenario([prince(8), prince(7), prince(6), card("sun", "poet")], spaces(s1_1=card("moon", "poet")),
                                cp=9, pile=None, defeated=[prince(0)])
    g2 = g.clone()
    g.apply("pass")  # the poet goes; if a prince comes in, four princes end the game
    while not g.is_over:
        g.apply(g.legal_actions()[-1])
    assert g.phase == "over" and g.legal_actions() == []
    parts = g.score_breakdown()
    assert g.scores() == [float(sum(parts.values()))] and parts["cp"] == g.cp // 3
    assert g.rank() in kum.court.RANKS and "game over" in str(g) and "over" in repr(g)
    refused(g, lambda: g.apply("pass"), IllegalMoveError, "the game is over")
    assert g2.phase == "buy"  # a clone is independent


def test_api_rule_options_change_the_game() -> None:
    row = [card("moon", "poet"), card("earth", "poet"), card("sun", "poet"), card("sun", "courtesan", 2)]
    printed = kum.Court.from_scenario(row, [None] * 8, rules=kum.CourtRules(price="printed"))
    assert printed.prices == [cost(c) for c in row]  # C3
    only_princes = [prince(8), prince(7), prince(6), None]
    pays = kum.Court.from_scenario(only_princes, [None] * 8, cp=0)
    stingy = kum.Court.from_scenario(only_princes, [None] * 8, cp=0, rules=kum.CourtRules(empty_pass_pays=False))
    assert [a.text for a in pays.legal_actions()] == [a.text for a in stingy.legal_actions()] == ["pass"]
    assert labels(pays.row) == labels(stingy.row)  # nothing to discard; the place stays empty until a draw
    pays.apply("pass")
    stingy.apply("pass")
    assert not pays.discarded and (pays.cp, stingy.cp) == (1, 0)  # C5
    c9 = kum.Court.from_scenario(only_princes, [None] * 8, rules=kum.CourtRules(row_princes_subtract=True))
    assert c9.score_breakdown()["row_princes"] == -sum(PRINCES[r].vp for r in (6, 7, 8))  # C9
    c8 = kum.Court.from_scenario(only_princes, spaces(s1_1=card("sun", "poet", 2)), rules=kum.CourtRules(court_vp=False))
    assert c8.score_breakdown()["court"] == 0  # C8
    ranks = kum.Court(seed=1, rules=kum.CourtRules(ranks=(-10, 0, 1)))
    assert ranks.rank() == "Golden Age"  # C10: 10 CP are 3 VP
    assert kum.Court(seed=1, rules=kum.CourtRules(start_cp=0)).cp == 0


def test_api_one_seat() -> None:
    assert kum.court.CourtOfTheThreeClans.name == "court"
    assert kum.court.CourtOfTheThreeClans.min_players == kum.court.CourtOfTheThreeClans.max_players == 1
    with pytest.raises(InvalidOptionError):
        core.Session(kum.court.CourtOfTheThreeClans(), 2, seed=1)
    assert kum.Court(seed=1).num_players == 1 and kum.Court(seed=1).current_player == 0


def test_every_refusal_names_its_rule() -> None:
    g = kum.Court(seed=2)
    for text in ("buy place 1 to space 1.1", "pass", "fight place 1", "skip"):
        refused(g, lambda t=text: g.apply(t), IllegalMoveError, "it is setup")
    g.apply("start place 1 to space 1.1")
    refused(g, lambda: g.apply("start place 1 to space 1.2"), IllegalMoveError, "place 1 of the Society Row is empty")
    refused(g, lambda: g.apply("start place 2 to space 1.1"), IllegalMoveError, r"space 1\.1 is taken")
    dear = card("sun", "courtesan", 2)
    poor = kum.Court.from_scenario([dear, prince(8), None, card("moon", "poet")], spaces(s1_1=card("sun", "general")), cp=0)
    refused(poor, lambda: poor.apply("buy 1 2.1"), IllegalMoveError, f"it costs {cost(dear)} CP and you have 0")
    refused(poor, lambda: poor.apply("buy 3 2.1"), IllegalMoveError, "place 3 of the Society Row is empty")
    poor.apply("pass")
    assert poor.phase == "buy" and labels(poor.discarded) == [card("moon", "poet")]  # no fight can be won: phase 2 passed
    fight = kum.Court.from_scenario([prince(0), prince(1), card("moon", "poet"), prince(8)], [None] * 8, cp=10, phase="fight")
    refused(fight, lambda: fight.apply("fight place 3"), IllegalMoveError, "place 3 holds no Daemon Prince")
    refused(fight, lambda: fight.apply("fight place 4"), IllegalMoveError, "cannot reach its strength")
    assert fight.view(0)["fight_costs"] == [fight.fight_cost(p) for p in range(1, 5)] == [
        PRINCES[0].strength, PRINCES[1].strength, None, PRINCES[8].strength]
    assert fight.view(0)["prices"] == fight.prices == [None, None, max(0, cost(card("moon", "poet")) - 2), None]
    fight.apply("fight place 1")
    assert fight.phase == "buy"  # one fight a turn (C6)
    # A phase 2 whose fights are used up has passed by itself: such a position is refused.
    with pytest.raises(kum.core.InvalidOptionError, match="no fight can be declared"):
        kum.Court.from_scenario([prince(0), prince(1), card("moon", "poet"), card("sun", "poet")], [None] * 8, cp=20, phase="fight",
                                fights=1, rules=kum.CourtRules(fights_per_turn=1))
    two = kum.Court.from_scenario([prince(0), prince(1), card("moon", "poet"), card("sun", "poet")], [None] * 8, cp=20, phase="fight",
                                  fights=1, rules=kum.CourtRules(fights_per_turn=2))
    two.apply("fight place 1")
    assert two.phase == "buy"  # the second fight of two used them up


# -- the notation, repr and str ----------------------------------------------------------------------


def test_every_legal_action_text_parses_back_and_applies() -> None:
    for seed in range(4):
        g, rng = kum.Court(seed=seed), random.Random(seed)
        while not g.is_over:
            texts, ids = [a.text for a in g.legal_actions()], g.legal_action_ids()
            assert [g.action_id(t) for t in texts] == ids and [g.action_text(a) for a in ids] == texts
            assert [g.action_id(t.upper().replace(" ", "  ")) for t in texts] == ids
            g.apply(rng.choice(texts))


def test_the_notation_of_the_issue_with_case_and_space_variants() -> None:
    row = [prince(2), card("sun", "poet"), card("moon", "poet"), card("earth", "poet")]
    g = kum.Court.from_scenario(row, spaces(s1_1=card("sun", "general", 2)), cp=10)
    buy = g.action_id("buy place 3 to space 2.1")
    assert buy == kum.court.BUY + 2 * 8 + 4 and "buy place 3 to space 2.1" in [a.text for a in g.legal_actions()]
    for text in ("BUY place 3 to SPACE 2.1", "  buy   place 3  to space 2.1 ", "buy 3 2.1", "Buy 3 2 1", "buy place 3 2.1"):
        assert g.action_id(text) == buy, text
    assert [g.action_id(t) for t in ("pass", " PASS ", "Pass\n")] == [kum.court.PASS] * 3
    assert [g.action_id(t) for t in ("fight place 4", "FIGHT 4", "fight  place  4")] == [kum.court.FIGHT + 3] * 3
    assert [g.action_id(t) for t in ("skip", "SKIP", "\tskip")] == [kum.court.SKIP] * 3
    assert g.action_text(" buy 3 2.1 ") == "buy place 3 to space 2.1"
    for bad in ("buy place 5 to space 1.1", "buy place 3 to space 3.1", "buy place 3 to space 2.5", "fight place 0", "fight",
                "buy", "pass pass", "skip 1", "", "   ", "buy \uff13 2.1", "buy 3 2.1 now", "wizard", "fight place 4.0"):
        refused(g, lambda bad=bad: g.apply(bad), IllegalMoveError, "not a legal action")
    refused(g, lambda: g.apply("start place 1 to space 1.1"), IllegalMoveError, "it is phase 1")
    refused(g, lambda: g.apply("skip"), IllegalMoveError, "phase 1: buy a card from the row or pass")
    refused(g, lambda: g.apply("buy place 1 to space 1.2"), IllegalMoveError, "Daemon Prince cannot be bought")


def test_a_court_is_dealt_again_only_from_its_own_seed() -> None:
    """A saved court replays from the seed that dealt it: Court.dealt (how records read a
    save back) deals the same court from it, and refuses no seed by name."""
    g = kum.Court(seed=5)
    assert str(kum.Court.dealt(g.game, ["Ruler"], seed=5)) == str(g)
    with pytest.raises(InvalidOptionError, match="needs the seed that dealt it, got None"):
        kum.Court.dealt(g.game, ["Ruler"], seed=None)


def test_repr_and_str_are_sensible() -> None:
    g = kum.Court(seed=5)
    assert repr(g) == f"<Court seed=5: turn 1, setup; 10 CP; score {g.scores()[0]:g}>"
    lines = str(g).splitlines()
    assert lines[0].startswith("Court of the Three Clans, turn 1, setup") and lines[1].startswith("Society Row:  1 ")
    assert lines[2].startswith("Royal Court:  1.1 -") and lines[4].startswith("Draw pile 49") and lines[5].startswith("Score ")
    assert all(c.label in str(g) for c in g.row if c is not None)
    from IPython.lib.pretty import pretty  # what a notebook shows for a game left last in a cell: the table

    assert pretty(g) == str(g)
    printed = kum.Court(seed=5, rules=kum.CourtRules(price="printed"))
    assert "rules=CourtRules(price='printed')" in repr(printed)
    scenario = kum.Court.from_scenario([card("sun", "poet"), None, None, None], [None] * 8)
    assert repr(scenario).startswith("<Court seed=None: turn 1, buy;") and "Royal Court" in str(scenario)
    assert repr(TABLE) == "<CardTable 'standard': 45 court cards, 9 Daemon Princes>"
    assert str(TABLE[0]) == TABLE[0].name and TABLE[0].power.endswith(".")


@pytest.mark.parametrize("rules", [
    kum.CourtRules(), kum.CourtRules(price="printed"), kum.CourtRules(ranks=(20, 30, 40)), kum.CourtRules(fights_per_turn=0),
    kum.CourtRules(first_refill="court", full_court="closed", empty_pass_pays=False, last_prince_ends=False, court_vp=False,
                   row_princes_subtract=True, start_cp=0, fights_per_turn=4, ranks=(-5, 0, 100)),
    kum.CourtRules(table=str(GOLDEN / "court_table_v1.csv")),
])
def test_court_rules_repr_pastes_back(rules: kum.CourtRules) -> None:
    if isinstance(rules.table, kum.court.CardTable):  # a table read from a file: the repr names it (its text is in options())
        assert repr(rules) == "CourtRules(table=<CardTable 'court_table_v1': 45 court cards, 9 Daemon Princes>)"
        assert rules.options()["table"] == rules.table.to_csv()
    else:
        assert eval(repr(rules), {"CourtRules": kum.CourtRules}) == rules
    assert kum.CourtRules.from_options(rules.options()) == rules
    assert rules.with_(price="printed").price == "printed" and rules.with_() == rules
