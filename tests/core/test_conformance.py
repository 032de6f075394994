"""The generic promises, checked on every game: the shipped ones (Kings Under Mountains, the
court, Bust), the game written from GAMES.md alone (Expeditions) and the gallery in
kum_widget/gallery/, with the player counts and rule options in ``_conformance_helpers.CASES``.

In the spirit of OpenSpiel's ``random_sim_test``: random games to the end, every invariant
checked at every step (legal actions stable and read back from their texts, illegal ones
refused before any change, views JSON-safe, no seat's view holding another's secrets,
dealt positions true to the view, the board valid), and the checker; the same seed giving
the same game, copies, the state id, records and dicts at every step, undo and redo; and
each game's golden game (tests/golden/). Bad input is test_conformance_input.py's. A game's
own rules, notation and scenario API are tested in its own files (test_properties.py,
test_court_properties.py, test_golden.py...).
"""

from __future__ import annotations

import random

import pytest
from _conformance_helpers import (
    PARAMS,
    Case,
    check_board,
    check_determinize,
    check_frames,
    check_position,
    check_round_trips,
    check_secrets,
    check_views,
    for_seeds,
    json_round,
    play,
    played,
    positions,
    same_game,
)
from _golden_helpers import GOLDENS, Golden, check_transcript, pinned_record, transcript

from kum_widget.core import GameError, check_game

# -- the checker --------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", PARAMS)
def test_check_game_passes(case: Case) -> None:
    report = check_game(case.make(), games=case.examples, players=case.players, seed=7)
    assert not report.failures and report.steps > 0, str(report)


# -- random games, every invariant at every step ---------------------------------------------------


@pytest.mark.parametrize("case", PARAMS)
def test_random_games_keep_every_invariant(case: Case) -> None:
    """Legal actions stable and read back from their texts, illegal ones refused before any
    change, views JSON-safe, dealt positions true to the view; each action's events, its
    step for the search and the state id as promised; a finished game scored and closed."""

    def run(seed: int) -> None:
        s, rng = case.new(seed), random.Random(seed)
        offered: dict[int, str] = {}
        game = s.game
        while True:
            check_position(s, rng, offered)
            if s.is_over:
                break
            legal = s.legal_action_ids()
            action, before, sid, mover = rng.choice(legal), s.state, s.state_id, s.current_player
            events = s.apply(action)
            assert s.state_id == sid + 1 and s.logs[-1] == tuple(events) and s.action_id(s.history[-1]) == action
            assert s.movers[-1] == mover and len(s.movers) == len(s.history) == len(s.logs)
            game.step(before, action)  # the search's step: the same position, no events
            after = s.state
            assert game.same(before, after) and (type(after).__eq__ is object.__eq__ or before == after), \
                f"step() and apply() of {s.action_text(s.history[-1])!r} give other positions"
            for event in events:
                for viewer in (None, *range(s.num_players)):
                    assert isinstance(s.describe(event, viewer), (str, type(None)))
                assert isinstance(s.describe(event, None, spectator=True), (str, type(None)))
        assert s.legal_actions() == [] and s.legal_action_ids() == []
        scores = s.scores()
        assert len(scores) == s.num_players and all(isinstance(v, (int, float)) for v in scores)
        assert set(s.winners()) <= set(range(s.num_players))
        json_round(s.summary())

    for_seeds(case, run)


@pytest.mark.parametrize("case", PARAMS)
def test_no_view_holds_another_seats_secrets(case: Case) -> None:
    for_seeds(case, lambda seed: played(case, seed, check_secrets))


@pytest.mark.parametrize("case", PARAMS)
def test_every_frame_holds_what_its_viewer_may_know_and_no_more(case: Case) -> None:
    """A seat's, the full table's and a spectator's frame at every step: JSON, the session's
    state id and move count, actions for the seat to act only, no other seat's secret."""
    for_seeds(case, lambda seed: played(case, seed, check_frames))


@pytest.mark.parametrize("case", PARAMS)
def test_the_board_is_valid_at_every_step(case: Case) -> None:
    """For the full table, each seat and a spectator; every click names an id on the board."""
    for_seeds(case, lambda seed: played(case, seed, check_board))


@pytest.mark.parametrize("case", PARAMS)
def test_views_are_json_and_dealt_positions_fit_them_after_undo_and_redo(case: Case) -> None:
    """The same checks on positions reached by undo and redo, and by reading a save."""

    def run(seed: int) -> None:
        rng = random.Random(seed)
        s = play(case.new(seed), rng)
        s.undo(rng.randrange(s.move_number + 1))
        for probe in (s, type(s).from_dict(json_round(s.to_dict()))):
            check_views(probe)
            check_determinize(probe, rng)
            probe.redo(probe.redo_count // 2)
            check_views(probe)
            check_determinize(probe, rng)

    for_seeds(case, run, 0.5)


# -- the same seed, copies, the state id ------------------------------------------------------------


@pytest.mark.parametrize("case", PARAMS)
def test_the_same_seed_and_choices_give_the_same_game(case: Case) -> None:
    def run(seed: int) -> None:
        a = play(case.new(seed), random.Random(seed))
        by_id, by_text = case.new(seed), case.new(seed)
        for action in a.history:
            by_id.apply(action)
        for text in a.to_dict()["actions"]:
            by_text.apply(text)
        same_game(a, by_id)
        same_game(a, by_text)

    for_seeds(case, run)


@pytest.mark.parametrize("case", PARAMS)
def test_a_copy_changes_alone(case: Case) -> None:
    def run(seed: int) -> None:
        rng = random.Random(seed)
        s = case.new(seed)
        for _ in range(rng.randrange(12)):
            if not s.is_over:
                s.apply(rng.choice(s.legal_action_ids()))
        kept = (s.to_dict(), s.view(None), str(s))
        sid, twin = s.state_id, s.clone()
        same_game(twin, s)
        play(twin, random.Random(seed + 1))
        twin.undo(twin.move_number // 2)
        assert (s.to_dict(), s.view(None), str(s)) == kept and s.state_id == sid
        twin = s.clone()
        play(s, rng)  # ... and the other way round
        assert (twin.to_dict(), twin.view(None), str(twin)) == kept

    for_seeds(case, run)


@pytest.mark.parametrize("case", PARAMS)
def test_the_state_id_grows_at_every_change_and_only_then(case: Case) -> None:
    def run(seed: int) -> None:
        s, rng = case.new(seed), random.Random(seed)
        seen = [s.state_id]
        for _ in range(3 * 300):
            if s.is_over and not s.can_undo:
                break
            before, roll = s.state_id, rng.random()
            if roll < 0.15 and s.can_undo:
                s.undo(rng.randint(1, 3))
            elif roll < 0.25 and s.can_redo:
                s.redo()
            elif roll < 0.3:
                s.load(type(s).from_dict(s.to_dict()))
            elif not s.is_over:
                s.apply(rng.choice(s.legal_action_ids()))
            else:
                break
            assert s.state_id == before + 1, "a change adds one to the state id"
            seen.append(s.state_id)
            before = s.state_id
            for call in (lambda: s.apply(-1), lambda: s.apply("no such action at all"), lambda: s.undo(-1), lambda: s.view(-1)):
                with pytest.raises(GameError):
                    call()
            assert s.undo(0) == 0 and s.redo(0) == 0
            if not s.can_redo:
                assert s.redo() == 0
            assert s.state_id == before, "a refused or empty call changes nothing"
        assert seen == sorted(set(seen))

    for_seeds(case, run, 0.5)


# -- saving -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", PARAMS)
def test_records_and_dicts_round_trip_at_every_step_and_with_a_redo_list(case: Case) -> None:
    def run(seed: int) -> None:
        rng = random.Random(seed)
        s = play(case.new(seed), rng, check_round_trips)
        for _ in range(3):
            s.undo(rng.randint(1, 6))
            check_round_trips(s)
            back = type(s).from_dict(json_round(s.to_dict()))
            if back.can_redo:
                assert back.redo() == s.redo() == 1 and back.logs == s.logs
                same_game(back, s)

    for_seeds(case, run, 0.5)


@pytest.mark.parametrize("case", PARAMS)
@pytest.mark.parametrize("seed", [10**12, 2**63, 2**64 - 1])
def test_any_seed_the_game_takes_reads_back(case: Case, seed: int) -> None:
    """Whatever its number of digits; and a record saved by an editor that starts it with a
    byte-order mark and ends its lines with CRLF reads too."""
    s = case.new(seed)
    for action in s.legal_action_ids()[:1]:
        s.apply(action)
    assert s.seed == seed
    check_round_trips(s)
    assert type(s).from_record("\ufeff" + s.record().replace("\n", "\r\n")) == s


# -- undo and redo ----------------------------------------------------------------------------------


@pytest.mark.parametrize("case", PARAMS)
def test_undo_and_redo_give_back_the_same_positions(case: Case) -> None:
    """To any step in any order (each the position a replay of the shorter history reaches),
    one step at a time back to the start, and a new action after an undo ends the redo list."""

    def run(seed: int) -> None:
        rng = random.Random(seed)
        s = play(case.new(seed), rng)
        history, final = s.history, (s.to_dict(), s.record(), str(s))
        replay = positions(case.new(seed), history)
        at = [(p.view(None), str(p), p.to_dict()["actions"]) for p in replay]
        order = list(range(len(history) + 1))
        rng.shuffle(order)
        for k in order:
            now = s.move_number
            assert (s.undo(now - k) if k < now else s.redo(k - now)) == abs(now - k)
            assert s == replay[k] and s.logs == replay[k].logs and s.history == history[:k]
            assert (s.view(None), str(s), s.to_dict()["actions"]) == at[k]
            assert s.redo_count == len(history) - k and s.can_undo == (k > 0) and s.can_redo == (k < len(history))
        s.redo(len(history))
        assert (s.to_dict(), s.record(), str(s)) == final and not s.can_redo
        for k in range(len(history) - 1, -1, -1):
            assert s.undo(1) == 1 and (s.view(None), str(s)) == at[k][:2]
        assert not s.can_undo and s.undo() == 0 and s == case.new(seed)
        assert s.redo(len(history) + 5) == len(history) and s.to_dict() == final[0]
        s.undo(min(3, len(history)))
        twin = s.clone()
        if not s.is_over:
            s.apply(s.legal_action_ids()[0])
            assert not s.can_redo and s.redo() == 0 and twin.can_redo

    for_seeds(case, run, 0.5)


# -- golden games -----------------------------------------------------------------------------------


@pytest.mark.parametrize("golden", GOLDENS, ids=str)
def test_the_golden_game_matches_its_transcript(golden: Golden) -> None:
    """One seeded game of each game, by a fixed policy: its record, every action with the
    sentences of its events, and the final position, character for character."""
    check_transcript(transcript(golden, golden.play()), golden.path)


@pytest.mark.parametrize("golden", GOLDENS, ids=str)
def test_the_record_pinned_in_each_golden_file_replays_to_the_same_game(golden: Golden) -> None:
    text = golden.path.read_text(encoding="utf-8")
    record = pinned_record(text)
    back = type(golden.new()).from_record(record)
    assert transcript(golden, back) == text, "the pinned record replays to another transcript"
    assert back.record() == record and back == golden.play() and back.is_over
    same_game(type(back).from_dict(json_round(back.to_dict())), back)
