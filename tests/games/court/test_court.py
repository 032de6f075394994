"""Court of the Three Clans (issue 11, the engine): the protocol checker and one scenario
per rule and decision of the setup, the Society Row and the turn's phases, C2-C6 (COURT.md,
section by section), at the rules-class level. The end, the powers, the score and the card
table (C1, C7-C10) are in ``test_court_scoring.py``.

The same rules through the public ``kum.Court`` API are in ``test_court_api.py``, bad input
in ``test_court_hostile.py``; properties over random games in ``test_court_properties.py``;
a whole pinned game in ``test_court_golden.py``."""

from __future__ import annotations

import random

import pytest
from _court_helpers import PRINCES, TABLE, check_invariants, cid, play, position

from kum_widget import core
from kum_widget.games.court import BUY, FIGHT, PASS, SKIP, START, space_name
from kum_widget.games.court import CourtOfTheThreeClans as Court
from kum_widget.games.court.state import BUYING, FIGHTING, OVER, SETUP, neighbours, row_of

# -- the protocol ---------------------------------------------------------------------------------


def test_check_game_passes() -> None:
    report = core.check_game(Court(), games=30)
    assert report.ok, str(report)


def test_check_game_passes_with_other_options() -> None:
    game = Court(first_refill="court", price="printed", full_court="closed", empty_pass_pays=False,
                 fights_per_turn=2, last_prince_ends=False, court_vp=False, row_princes_subtract=True)
    report = core.check_game(game, games=10)
    assert report.ok, str(report)


def test_action_ids_space_names_and_neighbours() -> None:
    game = Court()
    s = position([None] * 4, {})
    assert game.parse_action(s, "start place 2 to space 1.3") == START + 1 * 8 + 2
    assert game.parse_action(s, "buy place 3 to space 2.1") == BUY + 2 * 8 + 4 == 120
    assert [game.parse_action(s, t) for t in ("pass", "fight place 1", "fight place 4", "skip")] == [200, 210, 213, 220]
    for a in [*range(32), *range(100, 132), PASS, *range(FIGHT, FIGHT + 4), SKIP]:
        assert game.parse_action(s, game.action_text(s, a)) == a
    assert [space_name(x) for x in range(8)] == ["1.1", "1.2", "1.3", "1.4", "2.1", "2.2", "2.3", "2.4"]
    assert sorted(neighbours(0)) == [1, 4] and sorted(neighbours(5)) == [1, 4, 6] and sorted(neighbours(7)) == [3, 6]
    assert list(row_of(2)) == [0, 1, 2, 3] and list(row_of(6)) == [4, 5, 6, 7]


# -- setup (source, C2) ---------------------------------------------------------------------------


def test_setup_deals_four_court_cards_and_sets_princes_aside() -> None:
    for seed in range(40):
        s = Court().setup(1, random.Random(seed))
        assert all(c is not None and not TABLE[c].prince for c in s.row)
        assert all(TABLE[c].prince for c in s.aside)
        assert s.cp == 10 and s.phase == SETUP
        check_invariants(Court(), s)
    assert any(Court().setup(1, random.Random(seed)).aside for seed in range(40))


def test_setup_choices_are_actions_and_starting_powers_do_not_trigger() -> None:
    game = Court()
    minister = cid("sun", "minister")
    s = position([cid("moon", "poet"), minister, cid("earth", "general"), cid("sun", "poet")], {}, phase=SETUP,
                 aside=[PRINCES[3]])
    events = play(game, s, "start place 1 to space 1.1", "start place 3 to space 1.2")
    assert s.phase == SETUP and s.row[0] is None and s.row[2] is None
    play(game, s, "start place 2 to space 1.3")  # a Minister beside two cards: no CP at setup
    assert s.cp == 10 and s.phase == BUYING and not s.aside
    assert s.court[:3] == [cid("moon", "poet"), cid("earth", "general"), minister]
    assert s.row[3] == cid("sun", "poet")  # the card left slid to place 4
    assert all(c is not None for c in s.row) and len(s.pile) == 54 - 7
    assert any("start" in e for e in events)
    assert game.legal_actions(s)[-1] == PASS


def test_setup_start_cp_and_the_shuffle_back_does_not_depend_on_the_choice() -> None:
    assert Court(start_cp=0).setup(1, random.Random(1)).cp == 0 and Court(start_cp=25).setup(1, random.Random(1)).cp == 25
    game = Court()
    for seed in range(10):
        a = game.setup(1, random.Random(seed))
        b = game.clone(a)
        play(game, a, "start place 1 to space 1.1", "start place 2 to space 1.2", "start place 3 to space 1.3")
        play(game, b, "start place 4 to space 2.4", "start place 2 to space 2.1", "start place 3 to space 1.4")
        assert a.pile == b.pile and a.row[:3] == b.row[:3]  # the same cards come, whatever was chosen


def test_sliding_rule_fills_several_gaps_gap_by_gap() -> None:
    game = Court()
    left = cid("moon", "poet")
    s = position([cid("sun", "poet"), left, cid("earth", "poet"), cid("sun", "general")], {}, phase=SETUP)
    s.seed = 5
    expected = s.pile[:]
    random.Random(5).shuffle(expected)
    first, second, third = expected[-1], expected[-2], expected[-3]
    play(game, s, "start place 1 to space 1.1", "start place 3 to space 1.2", "start place 4 to space 1.3")
    assert s.row == [third, second, first, left]  # the card left slides to place 4; the first drawn ages furthest


def test_c2_open_first_refill_may_show_a_prince() -> None:
    game = Court()
    s = position([cid("sun", "poet"), cid("moon", "poet"), cid("earth", "poet"), cid("sun", "general")],
                 {"1.1": cid("sun", "minister"), "1.2": cid("moon", "minister")}, phase=SETUP)
    # the pile's order is shuffled by the seed after the choice; over seeds a prince turns up
    seen_prince = False
    for seed in range(30):
        t = game.clone(s)
        t.seed = seed
        play(game, t, "start place 1 to space 1.3")
        seen_prince |= any(c is not None and TABLE[c].prince for c in t.row)
    assert seen_prince


def test_c2_court_first_refill_sets_princes_aside_again() -> None:
    game = Court(first_refill="court")
    base = [cid("sun", "poet"), cid("moon", "poet"), cid("earth", "poet"), cid("sun", "general")]
    for seed in range(30):
        s = position(base, {"1.1": cid("sun", "minister"), "1.2": cid("moon", "minister")}, phase=SETUP)
        s.pile.sort(key=lambda c: not TABLE[c].prince)  # every prince on top: the refill must set them aside
        s.seed = seed
        play(game, s, "start place 1 to space 1.3")
        assert all(c is not None and not TABLE[c].prince for c in s.row)
        assert game.princes_in_pile(s) == 9 and not s.aside
        check_invariants(game, s)


# -- the row: sliding and the auction (C3) ---------------------------------------------------------


def test_sliding_rule_cards_age_left_to_right() -> None:
    game = Court()
    a, b, c, d, new = cid("sun", "poet"), cid("moon", "poet"), cid("earth", "poet"), cid("sun", "general"), cid("moon", "general")
    s = position([a, b, c, d], {}, top=(new,))
    play(game, s, "buy place 3 to space 1.1")
    assert s.row == [new, a, b, d] and s.court[0] == c


def test_c3_descending_auction_price() -> None:
    game = Court()
    courtesan = cid("sun", "courtesan", 2)  # cost 6
    assert [game.price(courtesan, p) for p in (1, 2, 3, 4)] == [6, 5, 4, 3]
    cheap = cid("sun", "tax collector")  # cost 2
    assert game.price(cheap, 4) == 0
    s = position([cid("moon", "poet"), cid("earth", "poet"), cid("sun", "poet"), courtesan], {}, cp=3)
    play(game, s, "buy place 4 to space 2.1")
    assert s.cp == 0
    assert Court(price="printed").price(courtesan, 4) == 6
    s = position([cid("moon", "poet"), cid("earth", "poet"), cid("sun", "poet"), courtesan], {}, cp=3)
    assert game.parse_action(s, "buy place 4 to space 2.1") not in Court(price="printed").legal_actions(s)


# -- phase 1A / 1B ------------------------------------------------------------------------------------


def test_1a_buy_pays_and_places() -> None:
    game = Court()
    general = cid("earth", "general", 1)  # cost 4
    s = position([general, cid("sun", "poet"), cid("moon", "poet"), cid("earth", "poet")], {})
    play(game, s, "buy 1 2.4")  # the short form
    assert s.court[7] == general and s.cp == 6 and s.bought == [general]
    assert s.phase in (BUYING, FIGHTING, OVER)


def test_a_prince_cannot_be_bought() -> None:
    game = Court()
    s = position([PRINCES[3], cid("sun", "poet"), cid("moon", "poet"), cid("earth", "poet")], {})
    action = game.parse_action(s, "buy place 1 to space 1.1")
    assert action not in game.legal_actions(s)
    assert "Daemon Prince cannot be bought" in (game.refusal(s, action) or "")


def test_1b_pass_discards_the_rightmost_court_card_and_pays() -> None:
    game = Court()
    poet, prince = cid("moon", "poet"), PRINCES[12]
    s = position([cid("sun", "poet"), poet, cid("earth", "poet"), prince],
                 {"1.1": cid("sun", "tax collector"), "2.1": cid("moon", "tax collector")}, cp=0, top=(cid("sun", "general"),))
    play(game, s, "pass")
    assert s.discarded == [cid("earth", "poet")]
    assert s.cp == 3  # 1 + one per Tax Collector
    # then phase 3: a prince is in the row, so the daemons take the rightmost court card (moon poet)
    assert s.captured == [poet]


def test_c4_full_court_replace_or_closed() -> None:
    full = {f"{r}.{c}": cid(["sun", "moon"][r - 1], ["minister", "poet", "courtesan", "general"][c - 1]) for r in (1, 2) for c in (1, 2, 3, 4)}
    row = [cid("earth", "poet"), cid("earth", "minister"), cid("earth", "general"), cid("earth", "courtesan")]
    game = Court()
    s = position(row, full)
    old = s.court[0]
    play(game, s, "buy place 1 to space 1.1")
    assert s.court[0] == cid("earth", "poet") and s.discarded == [old]
    closed = Court(full_court="closed")
    s = position(row, full)
    assert closed.legal_actions(s) == [PASS]
    assert "full" in (closed.refusal(s, closed.parse_action(s, "buy place 1 to space 1.1")) or "")
    s = position(row, {"1.1": cid("sun", "poet")})
    assert "taken" in (game.refusal(s, game.parse_action(s, "buy place 1 to space 1.1")) or "")


def test_c5_nothing_to_take_but_the_pass_pays() -> None:
    row = [PRINCES[12], PRINCES[10], PRINCES[9], None]
    s = position(row, {}, cp=0, pile=[])  # an exhausted pile, only princes in the row
    s.exhausted = True
    game = Court()
    play(game, s, "pass")
    assert s.cp == 1 and not s.discarded and not s.captured and s.phase == OVER
    s = position(row, {}, cp=0, pile=[])
    s.exhausted = True
    game = Court(empty_pass_pays=False)
    play(game, s, "pass")
    assert s.cp == 0


# -- phase 2: combat (C6) ---------------------------------------------------------------------------------


def test_strength_and_the_three_clan_bonus() -> None:
    game = Court()
    two = position([None] * 4, {"1.1": cid("sun", "general", 0), "1.2": cid("moon", "general", 1)})
    assert game.strength(two) == 2 + 3
    three = position([None] * 4, {"1.1": cid("sun", "general", 0), "1.2": cid("moon", "general", 1), "2.4": cid("earth", "general", 2)})
    assert game.strength(three) == 2 + 3 + 4 + 2


def test_c6_fight_pays_exactly_what_it_lacks_and_gains_vp() -> None:
    game = Court()
    prince = PRINCES[8]
    s = position([prince, cid("sun", "poet"), cid("moon", "poet"), cid("earth", "poet")],
                 {"1.1": cid("sun", "general", 1)}, cp=5, phase=FIGHTING)  # strength 3: lacks 5
    assert game.parse_action(s, "fight place 1") in game.legal_actions(s)
    events = play(game, s, "fight place 1")
    assert s.cp == 0 and s.defeated == [prince] and game.view(s, 0)["vp"] == TABLE[prince].vp
    assert any("Defeated" in e for e in events)
    assert s.phase in (BUYING, OVER)  # one fight a turn: phase 3 ran


def test_c6_an_unwinnable_fight_cannot_be_declared() -> None:
    game = Court()
    s = position([PRINCES[12], cid("sun", "poet"), cid("moon", "poet"), cid("earth", "poet")], {}, cp=11, phase=FIGHTING)
    assert game.legal_actions(s) == [SKIP]
    reason = game.refusal(s, game.parse_action(s, "fight place 1")) or ""
    assert "cannot reach" in reason
    assert "no Daemon Prince" in (game.refusal(s, game.parse_action(s, "fight place 2")) or "")


def test_c6_fights_per_turn() -> None:
    row = [PRINCES[3], PRINCES[4], cid("sun", "poet"), cid("moon", "poet")]
    for limit, fights in ((1, 1), (2, 2)):
        game = Court(fights_per_turn=limit)
        s = position(row, {}, cp=20, phase=FIGHTING, top=(cid("earth", "poet"), cid("earth", "minister")))
        play(game, s, "fight place 2")
        if limit == 2:
            assert s.phase == FIGHTING
            play(game, s, "fight place 2")  # the first prince slid right
        assert len(s.defeated) == fights and s.phase == BUYING
    game = Court(fights_per_turn=0)
    s = position([cid("moon", "poet"), PRINCES[3], cid("sun", "poet"), cid("earth", "poet")], {}, cp=20)
    play(game, s, "pass")  # no fight allowed: straight to phase 3
    assert s.phase == BUYING and len(s.captured) == 1


def test_the_fight_phase_is_skipped_when_no_fight_is_possible() -> None:
    game = Court()
    s = position([cid("sun", "poet"), cid("moon", "poet"), cid("earth", "poet"), cid("sun", "general")], {}, cp=0)
    play(game, s, "pass")
    assert s.phase == BUYING and s.turn == 2


def test_skip_ends_the_fight_phase_and_the_daemons_act() -> None:
    game = Court()
    taken, new = cid("earth", "poet"), cid("earth", "minister")
    s = position([cid("sun", "poet"), PRINCES[3], cid("moon", "poet"), taken], {"1.1": cid("sun", "general")}, cp=5,
                 phase=FIGHTING, top=(new,))
    assert game.fight_cost(s, 2) == 1 and game.fight_cost(s, 1) is None
    assert game.parse_action(s, "fight place 2") in game.legal_actions(s)
    play(game, s, "skip")
    assert s.defeated == [] and s.captured == [taken] and s.cp == 5
    assert s.row == [new, cid("sun", "poet"), PRINCES[3], cid("moon", "poet")]
    assert s.phase == BUYING and s.turn == 2 and s.fights == 0


# -- phase 3 (C5) ----------------------------------------------------------------------------------------


def test_phase_3_the_daemons_take_the_rightmost_court_card() -> None:
    game = Court()
    taken = cid("earth", "courtesan")
    s = position([cid("sun", "poet"), PRINCES[12], taken, PRINCES[10]], {}, cp=0, top=(cid("moon", "poet"), cid("sun", "minister")))
    play(game, s, "pass")  # discards the earth courtesan (rightmost court card)
    assert s.discarded == [taken] and len(s.captured) == 1 and s.captured[0] in (cid("sun", "poet"), cid("moon", "poet"))



# -- views and scenarios ------------------------------------------------------------------------------------


def test_views_hide_the_pile_order_and_determinize_reshuffles() -> None:
    game = Court()
    s = core.Session(game, 1, seed=3)
    for text in ("start place 1 to space 1.1", "start place 2 to space 1.2", "start place 3 to space 1.3"):
        s.apply(text)
    view = s.view(0)
    assert "pile" not in view and "seed" not in view and view["draw_pile"] == 47
    full = s.view(None)  # the teacher's view adds the pile's order and the hidden seed
    assert full["pile"] == s.state.pile and full["seed"] == s.state.seed
    assert {k: v for k, v in full.items() if k not in ("pile", "seed")} == view
    assert game.public_view(s.state) == view
    dealt = game.determinize(view, 0, random.Random(5))
    assert game.view(dealt, 0) == view and sorted(dealt.pile) == sorted(s.state.pile)


def test_scenario_builds_checked_positions() -> None:
    game = Court()
    row = [PRINCES[5], cid("sun", "poet"), cid("moon", "poet"), cid("earth", "poet")]
    s = game.scenario(row, [cid("sun", "general"), *[None] * 7], cp=4, defeated=[PRINCES[3]])
    check_invariants(game, s)
    assert game.legal_actions(s)[-1] == PASS
    same = game.scenario(["daemon prince 5", "#" + str(row[1]), "moon poet 3", row[3]], ["sun general 3", *[None] * 7],
                         cp=4, defeated=["daemon prince 3"])
    assert game.same(s, same) and s.pile[-1] == same.pile[-1] == 0  # labels and "#id"; the pile in id order, top first
    for bad in (
        lambda: game.scenario(row, [None] * 7),
        lambda: game.scenario(row, [row[1], *[None] * 7]),  # one card in two places
        lambda: game.scenario(row, [PRINCES[4], *[None] * 7]),  # a prince at court
        lambda: game.scenario(row, [None] * 8, pile=[]),  # cards nowhere
        lambda: game.scenario(row, [None] * 8, cp=-1),
        lambda: game.scenario(row, [None] * 8, phase="over"),
        lambda: game.scenario(row, [None] * 8, aside=[PRINCES[4]]),
        lambda: game.scenario([99, None, None, None], [None] * 8),
        lambda: game.scenario(row, [None] * 8, discarded=[PRINCES[4]]),  # a prince in the discard
        lambda: game.scenario(row, [None] * 8, bought=[cid("sun", "minister")]),  # bought, but in the pile
        lambda: game.scenario(row, [None] * 8, wizards=[1]),
    ):
        with pytest.raises(core.InvalidOptionError, match="scenario"):
            bad()
