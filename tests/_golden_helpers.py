"""The golden games: one seeded game of each game, played by a fixed policy, and its
transcript checked in under tests/golden/ (not a test module).

A transcript is the game's record, then every action with the sentences of the events it
caused (``describe(event)``, the full table's), then the final position: the full table's
view as JSON, or the game's own text of it (Kings Under Mountains' board, the court's table
and score). ``tests/core/test_conformance.py`` plays each and compares it character for
character, and replays the record pinned in each file to the same transcript.

A change to a game's rules, its text forms or its seeded deal shows up as a diff. If the
change is intended, regenerate the files and review the diff:

    KUM_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/core/test_conformance.py -k golden

(the regenerating run writes the files, warns, and then compares as usual).
"""

from __future__ import annotations

import json
import os
import random
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from _conformance_helpers import ConnectFour, Expeditions, Undercut, Whispers, Woodcutters

import kum_widget as kum
from kum_widget.core import Session
from kum_widget.core.examples import Bust

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
COURT_TABLE = "tests/golden/court_table_v1.csv"  # a frozen copy of the standard table, relative to ROOT


def check_transcript(text: str, golden: Path) -> None:
    """``text`` must equal the checked-in ``golden`` file; ``KUM_REGEN_GOLDEN=1`` writes it
    anew (review its diff before committing). A mismatch names the first line that differs."""
    if os.environ.get("KUM_REGEN_GOLDEN"):
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(text, encoding="utf-8")
        warnings.warn(f"regenerated {golden}: review its diff before committing", stacklevel=2)
    expected = golden.read_text(encoding="utf-8")
    if text != expected:
        got, want = text.splitlines(), expected.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), min(len(got), len(want)))
        pytest.fail(
            f"transcript differs from {golden.name} at line {first + 1}:\n"
            f"  expected: {want[first] if first < len(want) else '<end of file>'}\n"
            f"  got:      {got[first] if first < len(got) else '<end of file>'}\n"
            "(regenerate with KUM_REGEN_GOLDEN=1 if the change is intended)"
        )


def any_action(s: Session, rng: random.Random) -> Any:
    """The policy of most golden games: any legal action, uniformly."""
    return rng.choice(s.legal_action_ids())


def court_choose(game: Session, rng: random.Random) -> str:
    """The court's policy: fight whenever a fight can be declared; else buy (6 times in 10) or any action."""
    legal = [game.action_text(a) for a in game.legal_action_ids()]
    fights = [t for t in legal if t.startswith("fight")]
    if fights:
        return fights[0]
    buys = [t for t in legal if t.startswith("buy")]
    if buys and rng.random() < 0.6:
        return rng.choice(buys)
    return rng.choice(legal)


def final_view(s: Session) -> list[str]:
    """The full table's view, a line per key."""
    view = s.view(None)
    return ["## Final view", "", *(f"{key}: {json.dumps(view[key], sort_keys=True, ensure_ascii=False)}" for key in sorted(view))]


def court_final(game: Session) -> list[str]:
    assert isinstance(game, kum.Court)
    return ["## Final table", "", *str(game).splitlines(), "", "## Score", "",
            *(f"{part}: {value}" for part, value in game.score_breakdown().items()),
            f"score: {game.scores()[0]:g}", f"rank: {game.rank()}"]


@dataclass(frozen=True)
class Golden:
    """One golden game: its file, the transcript's header, the game at its start, the policy
    (seeded with 7) and the closing sections."""

    file: str
    header: tuple[str, ...]
    new: Callable[[], Session]
    choose: Callable[[Session, random.Random], Any] = any_action
    final: Callable[[Session], list[str]] = final_view

    @property
    def path(self) -> Path:
        return GOLDEN / self.file

    def play(self) -> Session:
        s, rng = self.new(), random.Random(7)
        while not s.is_over:
            assert s.move_number < 2000
            s.apply(self.choose(s, rng))
        return s

    def __str__(self) -> str:
        return self.file.removesuffix(".txt")


def _gallery(file: str, title: str, make: Callable[[], Any], players: list[str], seed: int) -> Golden:
    return Golden(file, (f"# {title} golden playthrough", f"# players {players}, seed {seed}, policy random.Random(7).choice(legal_action_ids())"),
                  lambda: Session(make(), players, seed=seed))


GOLDENS: list[Golden] = [
    Golden("seed_2024_2p.txt", ("# Kings Under Mountains golden playthrough",
                                "# players ['Ada', 'Bo'], seed 2024, policy random.Random(7).choice(game.legal_actions())"),
           lambda: kum.Game(["Ada", "Bo"], seed=2024), final=lambda s: ["## Final board", "", *str(s).splitlines()]),
    # the court plays on a frozen table, so that re-tuning court_cards.csv does not move it (the
    # record carries the table as its CSV text, never the path); the file's header names the
    # policy as test_court_golden.choose, which is court_choose
    Golden("court_seed_2028.txt", ("# Court of the Three Clans golden playthrough",
                                   f"# seed 2028, table {COURT_TABLE}, policy test_court_golden.choose with random.Random(7)"),
           lambda: kum.Court(seed=2028, rules=kum.CourtRules(table=str(ROOT / COURT_TABLE), ranks=(25, 40, 60))),
           court_choose, court_final),
    _gallery("bust_seed_11_3p.txt", "Bust", Bust, ["Ada", "Bo", "Cy"], 11),
    _gallery("expeditions_seed_12.txt", "Expeditions", Expeditions, ["Ada", "Bo"], 12),
    _gallery("undercut_seed_13.txt", "Undercut", Undercut, ["Ada", "Bo"], 13),
    _gallery("connect_four_seed_14.txt", "Connect Four", ConnectFour, ["Ada", "Bo"], 14),
    _gallery("whispers_seed_15_3p.txt", "Whispers at Court", Whispers, ["Ada", "Bo", "Cy"], 15),
    _gallery("woodcutters_seed_16.txt", "Woodcutters", Woodcutters, ["Ada", "Bo"], 16),
]


def steps(s: Session) -> list[tuple[str, list[Any]]]:
    """Each action of ``s``'s history, as its text then, with the events it caused."""
    replay = s.clone()
    replay.undo(replay.move_number)
    out = []
    for action in s.history:
        text = replay.action_text(action)
        out.append((text, replay.apply(action)))
    return out


def transcript(golden: Golden, s: Session) -> str:
    lines = [*golden.header, "", "## Record", "", *s.record().rstrip("\n").splitlines(), "", "## Actions and events", ""]
    for i, (text, events) in enumerate(steps(s), start=1):
        lines.append(f"{i:3d}. {text}")
        lines += [f"       {s.describe(e)}" for e in events]
    lines += ["", *golden.final(s)]
    return "\n".join(lines) + "\n"


def pinned_record(text: str) -> str:
    """The record a transcript holds."""
    return text.split("## Record\n\n", 1)[1].split("\n\n## Actions", 1)[0] + "\n"
