"""Court of the Three Clans (issue 11, the engine), at the rules-class level: the end of the
game (C7), the powers and the card table (C1), the score (C8, C9) and the rank (C10), and
every option combination played to its end. The setup, the Society Row and the turn's
phases (C2-C6) are in ``test_court.py``."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from _court_helpers import PRINCES, TABLE, check_invariants, cid, play, position

from kum_widget import core
from kum_widget.games.court import POWERS
from kum_widget.games.court import CourtOfTheThreeClans as Court
from kum_widget.games.court.cards import STANDARD, CardTable
from kum_widget.games.court.state import BUYING, OVER

# -- the end (C7) -----------------------------------------------------------------------------------------------


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
    assert Court().thresholds == (25, 50, 75)
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
    game = Court(table=CardTable.from_csv(path).to_csv())  # the rules class takes the table as CSV text, as saves hold it
    assert game.table[0].cost == 9
    assert core.check_game(game, games=3).ok
    with pytest.raises(core.InvalidOptionError, match=r"row 2, field 'role'"):
        CardTable.from_csv_text(text.replace("1,sun,minister", "1,sun,wizard"))
    with pytest.raises(core.InvalidOptionError, match=r"row 1, field 'cost'"):
        CardTable.from_csv_text(text.replace("0,sun,minister,3", "0,sun,minister,x"))
    with pytest.raises(core.InvalidOptionError, match="missing column"):
        CardTable.from_csv_text("id,clan\n0,sun\n")
    with pytest.raises(core.InvalidOptionError, match="cannot read"):
        CardTable.from_csv(tmp_path / "none.csv")
    with pytest.raises(core.InvalidOptionError, match="never names a file"):
        Court(table=str(path))  # a path in the options (a saved game's) is never read
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

