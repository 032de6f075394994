"""Golden playthrough: one seeded 2-player game, played by a fixed policy, compared
to a checked-in transcript character for character.

The transcript is: the game record, then every action with the sentences of the events
it caused (``game.describe(event)``), then the final board (``str(game)``).

A change to the rules, the deck table, the text forms or the seeded shuffle shows up
here as a diff. If the change is intended, regenerate the file and review the diff:

    KUM_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_golden.py

(the regenerating run writes the file, warns, and then compares as usual).
"""

from __future__ import annotations

import random
from pathlib import Path

from _golden_helpers import check_transcript

import kum_widget as kum

GOLDEN = Path(__file__).parent / "golden" / "seed_2024_2p.txt"
PLAYERS = ["Ada", "Bo"]
SEED = 2024
POLICY_SEED = 7


def play_golden_game() -> tuple[kum.Game, list[tuple[str, list[kum.Event]]]]:
    game = kum.Game(PLAYERS, seed=SEED)
    policy = random.Random(POLICY_SEED)
    steps: list[tuple[str, list[kum.Event]]] = []
    while not game.is_over:
        assert len(steps) < 1000
        action = policy.choice(game.legal_actions())
        text = game.action_text(action)
        steps.append((text, game.apply(action)))
    return game, steps


def transcript() -> str:
    game, steps = play_golden_game()
    lines = ["# Kings Under Mountains golden playthrough", f"# players {PLAYERS}, seed {SEED}, "
             f"policy random.Random({POLICY_SEED}).choice(game.legal_actions())", "", "## Record", ""]
    lines += game.record().rstrip("\n").splitlines()
    lines += ["", "## Actions and events", ""]
    for i, (text, events) in enumerate(steps, start=1):
        lines.append(f"{i:3d}. {text}")
        lines += [f"       {game.describe(e)}" for e in events]
    lines += ["", "## Final board", ""]
    lines += str(game).splitlines()
    return "\n".join(lines) + "\n"


def test_golden_playthrough_matches_the_checked_in_transcript() -> None:
    check_transcript(transcript(), GOLDEN)


def test_golden_game_replays_from_its_record_and_dict() -> None:
    game, _steps = play_golden_game()
    assert game.is_over
    assert kum.Game.from_record(game.record()) == game
    assert kum.Game.from_dict(game.to_dict()) == game
    # The record embedded in the golden file replays to the same final board.
    expected = GOLDEN.read_text(encoding="utf-8")
    record = expected.split("## Record\n\n", 1)[1].split("\n\n## Actions", 1)[0] + "\n"
    replayed = kum.Game.from_record(record)
    assert replayed == game
    assert str(replayed) in expected


def test_golden_game_claims_go_to_the_king_of_the_last_cards_race() -> None:
    game, steps = play_golden_game()
    kings = {game.king(seat): seat for seat in range(2)}
    claims = 0
    for _text, events in steps:
        for e in events:
            if isinstance(e, kum.Claimed):
                claims += 1
                last = game.deck[e.to_camp[-1]]
                assert e.race == last.race.index
                assert e.seat == kings.get(last.race, e.by)
    assert claims > 0
