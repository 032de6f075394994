"""Court of the Three Clans' golden game (tests/golden/court_seed_2028.txt), read for its
rules: the score's parts checked by hand, and the frozen card table it is played on.

The game is played on a FROZEN copy of the card table, ``tests/golden/court_table_v1.csv``
(the standard table as COURT.md documents it), so that re-tuning ``court_cards.csv`` does
not move it. The record carries the table as its CSV text, never the path, so the pinned
record replays on the frozen cards in any checkout. That the game matches its transcript
character for character, and that the pinned record replays to it, is
tests/core/test_conformance.py's (every game has a golden file: ``_golden_helpers.GOLDENS``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from _golden_helpers import GOLDENS, court_choose
from _golden_helpers import steps as golden_steps
from _paths import ROOT

import kum_widget as kum

TABLE = "tests/golden/court_table_v1.csv"  # relative to ROOT: see the docstring
COURT = next(g for g in GOLDENS if g.file == "court_seed_2028.txt")


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.chdir(ROOT)
    yield


choose = court_choose  # the policy the golden file's header names: fight when a fight can be declared, else buy 6 times in 10


def test_golden_game_hand_checked_facts() -> None:
    game = COURT.play()
    assert isinstance(game, kum.Court)
    steps = golden_steps(game)
    parts = game.score_breakdown()
    assert game.is_over and game.scores() == [float(sum(parts.values()))] == [33.0]
    assert parts == {"defeated": 25, "court": 9, "powers": 7, "cp": 0, "captured": -8, "row_princes": 0}
    assert parts["defeated"] == sum(p.vp for p in game.defeated) and parts["captured"] == -sum(c.vp for c in game.captured)
    assert parts["cp"] == game.cp // 3 and game.rank() == "Troubled Reign"  # 25 <= 33 < 40
    assert len(game.defeated) == 6 and all(p.prince for p in game.defeated) and len(game.captured) == 5
    assert len(steps) == 43 and game.turn == 34 and sum(text.startswith("fight") for text, _ in steps) == 6
    assert [text for text, _ in steps[:3]] == [t for t in game.to_dict()["actions"][:3]] and all(
        t.startswith("start") for t, _ in steps[:3])
    summary = game.summary()
    assert all(summary[f"bought_{r.replace(' ', '_')}"] > 0 for r in kum.court.ROLES)  # every role is bought
    frozen = Path(TABLE).read_text(encoding="utf-8")
    assert game.rules.options()["table"] == frozen and game.to_dict()["options"]["table"] == frozen  # the text, not the path
    assert game.rules.table == kum.court.CardTable.from_csv(TABLE) and game.table[0].label == "sun minister 3"


def test_the_frozen_table_is_the_table_court_md_documents() -> None:
    table = kum.CourtRules(table=TABLE)
    cards = kum.Court(seed=1, rules=table).table
    documented = {"minister": [(3, 1), (4, 1), (5, 2)], "tax collector": [(2, 0), (3, 1), (4, 1)],
                  "general": [(3, 0), (4, 1), (6, 1)], "poet": [(3, 1), (4, 1), (5, 2)], "courtesan": [(4, 1), (5, 1), (6, 2)]}
    for clan in kum.court.CLANS:
        for role, copies in documented.items():
            assert sorted((c.cost, c.vp) for c in cards if (c.clan, c.role) == (clan, role)) == copies
        assert sorted(c.strength for c in cards if (c.clan, c.role) == (clan, "general")) == [2, 3, 4]
    princes = sorted((c.strength, c.vp) for c in cards if c.prince)
    assert princes == [(3, 2), (4, 2), (5, 3), (6, 3), (7, 4), (8, 4), (9, 5), (10, 6), (12, 7)]
    assert len(cards) == 54 and [c.id for c in cards] == list(range(54))
