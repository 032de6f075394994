"""Kings Under Mountains' golden game (tests/golden/seed_2024_2p.txt), read for its rules.

That the game matches its transcript character for character, and that the record pinned
in the file replays to it, is tests/core/test_conformance.py's (every game has a golden file:
``_golden_helpers.GOLDENS``); here, what the transcript shows of this game's own rules.
"""

from __future__ import annotations

from _golden_helpers import GOLDENS, steps

import kum_widget as kum

KUM = next(g for g in GOLDENS if g.file == "seed_2024_2p.txt")


def test_golden_game_claims_go_to_the_king_of_the_last_cards_race() -> None:
    game = KUM.play()
    assert isinstance(game, kum.Game)
    kings = {game.king(seat): seat for seat in range(2)}
    claims = 0
    for _text, events in steps(game):
        for e in events:
            if isinstance(e, kum.Claimed):
                claims += 1
                last = game.deck[e.to_camp[-1]]
                assert e.race == last.race.index
                assert e.seat == kings.get(last.race, e.by)
    assert claims > 0
