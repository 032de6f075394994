"""Court of the Three Clans (issue 11, the engine): the protocol checker and one scenario
per rule and decision C1-C10 (COURT.md, section by section), at the rules-class level.

The same rules through the public ``kum.Court`` API, and bad input, are in
``test_court_api.py``; properties over random games in ``test_court_properties.py``; a
whole pinned game in ``test_court_golden.py``."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from kum_widget import core
from kum_widget.games.court import BUY, FIGHT, PASS, POWERS, SKIP, START, CourtState, space_name, table_for
from kum_widget.games.court import CourtOfTheThreeClans as Court
from kum_widget.games.court.cards import STANDARD, CardTable
from kum_widget.games.court.state import BUYING, FIGHTING, OVER, SETUP, neighbours, row_of

TABLE = table_for("standard")
PRINCES = {c.strength: c.id for c in TABLE.cards if c.prince}  # strength -> id (3,4,5,6,7,8,9,10,12)


def cid(clan: str, role: str, copy: int = 0) -> int:
    """The id of the ``copy``-th (0..2) card of ``clan`` and ``role`` in the standard table."""
    return [c.id for c in TABLE.cards if c.clan == clan and c.role == role][copy]


def position(row: Sequence[int | None], court: dict[str, int] | None = None, *, cp: int = 10, top: tuple[int, ...] = (),
             pile: list[int] | None = None, phase: str = BUYING, **kw: Any) -> CourtState:
    """A position: ``court`` by space name ("1.1"); ``top`` the next cards drawn, first first;
    every other card lies below them in the pile (or in ``kw``'s piles)."""
    spaces: list[int | None] = [None] * 8
    for name, card in (court or {}).items():
        r, c = map(int, name.split("."))
        spaces[(r - 1) * 4 + c - 1] = card
    used = {c for c in row if c is not None} | {c for c in spaces if c is not None} | set(top)
    for key in ("discarded", "defeated", "captured", "aside"):
        used |= set(kw.get(key, ()))
    if pile is None:
        pile = [c for c in range(len(TABLE)) if c not in used] + list(reversed(top))
    return CourtState(pile=pile, row=list(row), court=spaces, cp=cp, seed=1, phase=phase, **kw)


def play(game: Court, s: CourtState, *texts: str) -> list[str]:
    events: list[str] = []
    for text in texts:
        action = game.parse_action(s, text)
        assert action in game.legal_actions(s), f"{text!r} is not legal: {game.refusal(s, action)}"
        events += game.apply(s, action)
    return events


def all_cards(s: CourtState) -> list[int]:
    return [*s.pile, *(c for c in s.row if c is not None), *(c for c in s.court if c is not None),
            *s.discarded, *s.defeated, *s.captured, *s.aside]


def check_invariants(game: Court, s: CourtState) -> None:
    assert sorted(all_cards(s)) == list(range(len(game.table))), "every card exactly once"
    assert len(s.row) == 4 and len(s.court) == 8
    assert sum(c is not None for c in s.row) <= 4 and sum(c is not None for c in s.court) <= 8
    assert game.scores(s) == [float(sum(game.breakdown(s).values()))]
    assert s.cp >= 0


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


# -- phase 3 and the end (C7) -------------------------------------------------------------------------------


def test_phase_3_the_daemons_take_the_rightmost_court_card() -> None:
    game = Court()
    taken = cid("earth", "courtesan")
    s = position([cid("sun", "poet"), PRINCES[12], taken, PRINCES[10]], {}, cp=0, top=(cid("moon", "poet"), cid("sun", "minister")))
    play(game, s, "pass")  # discards the earth courtesan (rightmost court card)
    assert s.discarded == [taken] and len(s.captured) == 1 and s.captured[0] in (cid("sun", "poet"), cid("moon", "poet"))


def test_the_game_ends_with_four_princes_in_the_row() -> None:
    game = Court()
    s = position([PRINCES[12], PRINCES[10], PRINCES[9], cid("sun", "poet")], {}, cp=0, top=(PRINCES[8],))
    events = play(game, s, "pass")
    assert s.phase == OVER and "four princes" in events[-1]
    assert s.captured == []  # C5: phase 3 finds no court card to take
    assert game.legal_actions(s) == []


def test_c7_the_game_ends_once_every_prince_is_drawn() -> None:
    others = [c for c in range(54) if c not in PRINCES.values()]
    row = [PRINCES[12], cid("sun", "poet"), cid("moon", "poet"), cid("earth", "poet")]
    last = PRINCES[3]
    pile = [c for c in others if c not in row] + [last]
    used = set(pile) | set(row)
    s = position(row, {}, cp=0, pile=pile, defeated=[c for c in PRINCES.values() if c not in used])
    game = Court()
    events = play(game, s, "pass")  # the last prince comes in: the game ends after phase 3
    assert s.phase == OVER and "every prince" in events[-1]
    assert game.daemons_drawn(s) == 9 and game.view(s, 0)["daemons_drawn"] == 9
    s = position(row, {}, cp=0, pile=pile[:], defeated=[c for c in PRINCES.values() if c not in used])
    play(Court(last_prince_ends=False), s, "pass")
    assert s.phase == BUYING


def test_c7_an_empty_pile_leaves_the_place_empty_and_ends_the_game() -> None:
    game = Court(last_prince_ends=False)
    row = [cid("sun", "poet"), cid("moon", "poet"), cid("earth", "poet"), cid("sun", "general")]
    s = position(row, {}, cp=0, pile=[cid("earth", "general")], discarded=[c for c in range(54) if c not in [*row, cid("earth", "general")]])
    play(game, s, "pass")
    assert s.phase == BUYING and s.pile == [] and None not in s.row
    events = play(game, s, "pass")
    assert s.row[0] is None and s.exhausted and s.phase == OVER and "ran out" in events[-1]


# -- the powers (C1) -------------------------------------------------------------------------------------------


def test_minister_gains_cp_for_the_cards_in_its_row() -> None:
    game = Court()
    minister = cid("moon", "minister")  # cost 3
    s = position([cid("sun", "poet"), cid("moon", "poet"), cid("earth", "poet"), minister],
                 {"1.1": cid("sun", "poet", 1), "1.2": cid("sun", "poet", 2), "2.1": cid("earth", "poet", 1)}, cp=5)
    play(game, s, "buy place 4 to space 1.4")  # price 0 at place 4; two cards in row 1
    assert s.cp == 5 + 2
    s = position([cid("sun", "poet"), cid("moon", "poet"), cid("earth", "poet"), minister],
                 {"1.1": cid("sun", "poet", 1), "1.2": cid("sun", "poet", 2), "2.1": cid("earth", "poet", 1)}, cp=5)
    play(game, s, "buy place 4 to space 2.4")  # one card in row 2
    assert s.cp == 5 + 1


def test_poet_scores_the_clans_next_to_it() -> None:
    game = Court()
    poet = cid("sun", "poet")
    s = position([None] * 4, {"1.2": poet, "1.1": cid("moon", "general"), "1.3": cid("earth", "general"), "2.2": cid("moon", "minister")})
    assert game.power_vp(s) == 2  # moon and earth
    s = position([None] * 4, {"1.4": poet, "2.1": cid("moon", "general")})  # not a neighbour
    assert game.power_vp(s) == 0


def test_courtesan_scores_her_clan_in_her_row() -> None:
    game = Court()
    s = position([None] * 4, {"2.1": cid("earth", "courtesan"), "2.3": cid("earth", "general"), "2.4": cid("earth", "minister"),
                              "1.1": cid("earth", "tax collector"), "2.2": cid("sun", "tax collector")})
    assert game.power_vp(s) == 2


# -- score (C8, C9) and rank (C10) -----------------------------------------------------------------------------


def test_score_breakdown_c8_c9() -> None:
    court = {"1.1": cid("sun", "minister", 2), "1.2": cid("sun", "courtesan", 2)}  # vp 2 + 2, courtesan +1
    row: list[int | None] = [PRINCES[12], cid("moon", "poet"), cid("moon", "poet", 1), cid("moon", "poet", 2)]
    s = position(row, court, cp=8, defeated=[PRINCES[3], PRINCES[5]], captured=[cid("earth", "courtesan", 2)])
    parts = Court().breakdown(s)
    assert parts == {"defeated": 2 + 3, "court": 4, "powers": 1, "cp": 2, "captured": -2, "row_princes": 0}
    assert Court().scores(s) == [10.0]
    assert Court(court_vp=False).breakdown(s)["court"] == 0
    assert Court(court_vp=False).breakdown(s)["captured"] == -2  # C8 off: captured cards still cost their VP
    assert Court(row_princes_subtract=True).breakdown(s)["row_princes"] == -TABLE[PRINCES[12]].vp


def test_c10_ranks() -> None:
    s = position([None] * 4, {}, cp=0)
    game = Court(ranks="0,5,10")
    assert game.rank(s) == "Troubled Reign"
    s.cp = 15  # 5 VP
    assert game.rank(s) == "Prosperous Reign"
    s.cp = 30
    assert game.rank(s) == "Golden Age"
    assert Court(ranks="1,2,3").rank(position([None] * 4, {}, cp=0)) == "Overthrown"
    assert Court().thresholds == (25, 40, 60)
    s.cp = 75  # exactly 25: a threshold reached is the higher title
    assert Court().rank(s) == "Troubled Reign" and Court().score(s) == 25
    s.cp = 74
    assert Court().rank(s) == "Overthrown"


# -- the card table (C1) ------------------------------------------------------------------------------------------


def test_c1_the_standard_table() -> None:
    assert len(TABLE) == 54 and len(TABLE.princes) == 9 and len(TABLE.court_cards) == 45
    counts = {(c.clan, c.role) for c in TABLE.cards if not c.prince}
    assert len(counts) == 15
    assert all(sum(1 for c in TABLE.cards if (c.clan, c.role) == k) == 3 for k in counts)
    assert all(c.strength > 0 for c in TABLE.cards if c.role in ("general", "daemon prince"))


def test_c1_the_clans_carry_identical_values_and_each_power_is_one_sentence() -> None:
    values: dict[tuple[str, str], list[tuple[int, int, int]]] = {}
    for c in TABLE:
        values.setdefault((c.role, c.clan), []).append((c.cost, c.vp, c.strength))
    for role in ("minister", "tax collector", "general", "poet", "courtesan"):
        assert sorted(values[role, "sun"]) == sorted(values[role, "moon"]) == sorted(values[role, "earth"])
    assert all(c.clan == "fire" and c.strength > 0 for c in TABLE if c.prince)
    assert all(text.count(".") == 1 and text.endswith(".") for text in POWERS.values())


def test_c1_a_custom_table_loads_and_bad_rows_are_named(tmp_path: Path) -> None:
    text = STANDARD.read_text()
    path = tmp_path / "mine.csv"
    path.write_text(text.replace("0,sun,minister,3,1,0", "0,sun,minister,9,1,0"))
    game = Court(table=str(path))
    assert game.table[0].cost == 9
    assert core.check_game(game, games=3).ok
    with pytest.raises(core.InvalidOptionError, match=r"row 2, field 'role'"):
        CardTable.from_csv_text(text.replace("1,sun,minister", "1,sun,wizard"))
    with pytest.raises(core.InvalidOptionError, match=r"row 1, field 'cost'"):
        CardTable.from_csv_text(text.replace("0,sun,minister,3", "0,sun,minister,x"))
    with pytest.raises(core.InvalidOptionError, match="missing column"):
        CardTable.from_csv_text("id,clan\n0,sun\n")
    with pytest.raises(core.InvalidOptionError, match="cannot read"):
        Court(table=str(tmp_path / "none.csv"))
    header, *rows = text.splitlines()
    with pytest.raises(core.InvalidOptionError, match=r"row 1, field 'id': expected 0"):
        CardTable.from_csv_text("\n".join([header, rows[1], rows[0], *rows[2:]]))
    with pytest.raises(core.InvalidOptionError, match="at least 4 court cards"):
        CardTable.from_csv_text("\n".join([header, *rows[:3], f"3,{rows[-1].split(',', 1)[1]}"]))
    with pytest.raises(core.InvalidOptionError, match="at least one daemon prince"):
        CardTable.from_csv_text("\n".join([header, *rows[:6]]))


# -- properties over random games ------------------------------------------------------------------------------------

OPTIONS: dict[str, list[Any]] = {
    "first_refill": ["open", "court"],
    "price": ["descending", "printed"],
    "full_court": ["replace", "closed"],
    "empty_pass_pays": [True, False],
    "fights_per_turn": [0, 1, 2],
    "last_prince_ends": [True, False],
    "court_vp": [True, False],
    "row_princes_subtract": [True, False],
}


def test_every_game_ends_under_every_option_combination_with_the_invariants() -> None:
    rng = random.Random(11)
    for n, values in enumerate(itertools.product(*OPTIONS.values())):
        game = Court(**dict(zip(OPTIONS, values, strict=True)))
        s = game.setup(1, random.Random(n))
        for _ in range(500):
            check_invariants(game, s)
            if game.is_over(s):
                break
            legal = game.legal_actions(s)
            assert legal, "a legal action until the end"
            game.apply(s, rng.choice(legal))
        assert game.is_over(s), f"game {n} did not end"
        parts = game.breakdown(s)
        assert game.scores(s)[0] == sum(parts.values())
        summary = game.summary(s, [])
        json.dumps(summary)
        assert sum(v for k, v in summary.items() if k.startswith("vp_")) == game.scores(s)[0]


def test_greedy_play_beats_random_play() -> None:
    def mean(greedy: bool) -> float:
        total = 0.0
        for seed in range(40):
            game, rng = Court(), random.Random(seed)
            s = game.setup(1, random.Random(seed))
            while not game.is_over(s):
                legal = game.legal_actions(s)
                h = game.heuristic(s, legal)
                game.apply(s, legal[max(range(len(legal)), key=h.__getitem__)] if greedy else rng.choice(legal))
            total += game.scores(s)[0]
        return total / 40

    assert mean(True) > mean(False) + 10


def test_summary_gives_the_lab_its_columns() -> None:
    s = core.Session(Court(), 1, seed=6)
    rng = random.Random(6)
    while not s.is_over:
        s.apply(rng.choice(s.legal_action_ids()))
    state, summary = s.state, s.summary()
    roles = {f"bought_{r.replace(' ', '_')}" for r in ("minister", "tax collector", "general", "poet", "courtesan")}
    assert {"turns", "princes_defeated", "cards_captured", "cp_left", "rank", "daemons_drawn"} | roles <= set(summary)
    assert {f"vp_{k}" for k in Court().breakdown(state)} <= set(summary)
    assert (summary["princes_defeated"], summary["cards_captured"], summary["cp_left"]) == (
        len(state.defeated), len(state.captured), state.cp)
    assert summary["rank"] == Court().rank(state) and sum(summary[r] for r in roles) == len(state.bought)


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
