"""Golden playthrough of Court of the Three Clans: one seeded game, played by a fixed
policy, compared to a checked-in transcript character for character.

The transcript is: the game record, then every action with the events it caused, then
the final table (``str(game)``) and the score's parts. The game is played on a FROZEN
copy of the card table, ``tests/golden/court_table_v1.csv`` (the standard table as
COURT.md documents it), so that re-tuning ``court_cards.csv`` does not move it; a change
to the rules, the text forms or the seeded shuffle shows up here as a diff. The test reads
the table from its path relative to the repository root (the tests run from the root); the
record carries the table as its CSV text, never the path, so the pinned record replays on
the frozen cards in any checkout.

If a change is intended, regenerate the file and review its diff:

    KUM_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_court_golden.py

(the regenerating run writes the file, warns, and then compares as usual).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from _golden_helpers import check_transcript

import kum_widget as kum

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "court_seed_2028.txt"
TABLE = "tests/golden/court_table_v1.csv"  # relative to ROOT: see the docstring
SEED, POLICY_SEED = 2028, 7


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.chdir(ROOT)
    yield


def choose(game: kum.Court, rng: random.Random) -> str:
    """The policy: fight whenever a fight can be declared; else buy (6 times in 10) or any action."""
    legal = game.legal_actions()
    fights = [t for t in legal if t.startswith("fight")]
    if fights:
        return fights[0]
    buys = [t for t in legal if t.startswith("buy")]
    if buys and rng.random() < 0.6:
        return rng.choice(buys)
    return rng.choice(legal)


def play_golden_game() -> tuple[kum.Court, list[tuple[str, list[str]]]]:
    game = kum.Court(seed=SEED, rules=kum.CourtRules(table=TABLE, ranks=(25, 40, 60)))  # frozen: tuning the defaults must not move the golden game
    rng = random.Random(POLICY_SEED)
    steps: list[tuple[str, list[str]]] = []
    while not game.is_over:
        assert len(steps) < 500
        text = choose(game, rng)
        steps.append((text, game.apply(text)))
    return game, steps


def transcript() -> str:
    game, steps = play_golden_game()
    lines = ["# Court of the Three Clans golden playthrough",
             f"# seed {SEED}, table {TABLE}, policy test_court_golden.choose with random.Random({POLICY_SEED})",
             "", "## Record", ""]
    lines += game.record().rstrip("\n").splitlines()
    lines += ["", "## Actions and events", ""]
    for i, (text, events) in enumerate(steps, start=1):
        lines.append(f"{i:3d}. {text}")
        lines += [f"       {game.describe(e)}" for e in events]
    lines += ["", "## Final table", ""]
    lines += str(game).splitlines()
    lines += ["", "## Score", ""]
    lines += [f"{part}: {value}" for part, value in game.score_breakdown().items()]
    lines += [f"score: {game.scores()[0]:g}", f"rank: {game.rank()}"]
    return "\n".join(lines) + "\n"


def test_golden_playthrough_matches_the_checked_in_transcript() -> None:
    check_transcript(transcript(), GOLDEN)


def test_golden_game_hand_checked_facts() -> None:
    game, steps = play_golden_game()
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


def test_golden_game_replays_from_its_record_and_dict() -> None:
    game, _steps = play_golden_game()
    assert kum.Court.from_record(game.record()) == game
    assert kum.Court.from_dict(game.to_dict()) == game
    expected = GOLDEN.read_text(encoding="utf-8")
    record = expected.split("## Record\n\n", 1)[1].split("\n\n## Actions", 1)[0] + "\n"
    replayed = kum.Court.from_record(record)  # the record pinned in the file replays to the same game
    assert replayed == game and str(replayed) in expected and replayed.record() == record


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
