"""The game's session: snapshots for undo, who moved, listeners, text forms (issue 9)."""

from __future__ import annotations

import copy
import logging
import math
import pickle
import random
import re
from fractions import Fraction
from typing import Any

import pytest
from _score_games import BAD_SCORES

import kum_widget as kum
from kum_widget import core
from kum_widget.core import session as game_module
from kum_widget.core.examples import Bust, BustState


def played(seed: int, actions: int, players: int = 2) -> kum.Game:
    g, rng = kum.Game(players, seed=seed), random.Random(seed)
    while not g.is_over and len(g.history) < actions:
        g.apply(rng.choice(g.legal_actions()))
    return g


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_undo_to_every_step_matches_a_replay_from_the_start(seed: int) -> None:
    g = played(seed, 10_000)
    record = list(g.history)
    every = game_module.CHECKPOINT_EVERY
    assert len(g._checkpoints) == len(record) // every + 1
    for back in range(1, len(record) + 1):
        probe = g.clone()
        probe.undo(back)
        fresh = kum.Game(2, seed=seed)
        for action in record[: len(record) - back]:
            fresh.apply(action)
        assert probe == fresh and probe.view(None) == fresh.view(None) and probe.logs == fresh.logs
        assert probe.redo_movers == tuple(g.movers[len(record) - back:])
        probe.redo(back)
        assert probe == g and probe.logs == g.logs and probe.movers == g.movers
    assert all(c == g._checkpoints[k] for k, c in enumerate(played(seed, 10_000)._checkpoints))


def test_snapshots_are_never_changed_by_play_after_an_undo() -> None:
    g = played(4, 80)
    kept = [c.clone() for c in g._checkpoints]
    g.undo(40)
    g.apply(g.legal_actions()[-1])  # a new line of play: the redo list goes, snapshots past it too
    assert not g.can_redo and g._checkpoints == kept[: 40 // game_module.CHECKPOINT_EVERY + 1]
    other = g.clone()
    other.apply(other.legal_actions()[0])
    other.undo(other.move_number)
    assert g._checkpoints[0] == kept[0] and other == kum.Game(2, seed=4)


def test_movers_name_the_seat_of_each_action() -> None:
    g = played(5, 30, players=3)
    replay = kum.Game(3, seed=5)
    for action, seat in zip(g.history, g.movers, strict=True):
        assert replay.current_player == seat
        replay.apply(action)
    assert g.move_number == 30 and g.last_action == g.history[-1] and g.redo_count == 0
    g.undo(4)
    assert g.redo_count == 4 and len(g.redo_movers) == 4 and g.last_action == g.history[-1]
    assert kum.Game(2, seed=1).last_action is None


def test_a_failing_listener_is_logged_and_the_change_stands(caplog: pytest.LogCaptureFixture) -> None:
    g = kum.Game(["Ada", "Bo"], seed=2)
    calls: list[int] = []
    g.on_change(lambda game: 1 / 0)
    g.on_change(lambda game: calls.append(game.state_id))  # the next listener still hears it
    with caplog.at_level(logging.ERROR, logger="kum_widget"):
        events = g.apply(g.legal_actions()[0])
        g.undo()
        g.load(kum.Game(["Ada", "Bo"], seed=3))
    assert events and calls == [1, 2, 3] and g.seed == 3
    assert caplog.text.count("ZeroDivisionError") == 3


def test_action_text_takes_text_objects_and_ids_and_names_bad_ones() -> None:
    g = kum.Game(["Ada", "Bo"], seed=2)
    first = g.legal_actions()[0]
    assert g.action_text(first) == g.action_text(g.action_id(first)) == g.action_text(g.action_text(first))
    assert g.action_text("draw deck") == "draw deck"
    for bad in (None, 3.5, ["draw deck"], "fly away", 10**9):
        with pytest.raises(kum.KumError):
            g.action_text(bad)  # type: ignore[arg-type]


def test_describe_for_a_spectator_hides_every_deck_draw() -> None:
    g = kum.Game(["Ada", "Bo"], seed=2)
    g.apply(g.legal_actions()[0])
    g.apply("draw deck")
    drew = g.log[-1]
    assert isinstance(drew, kum.Drew)
    assert g.describe(drew, spectator=True) == "Ada drew from the deck."
    assert g.describe(drew, 1) == "Ada drew from the deck."
    assert g.describe(drew, 0) == g.describe(drew) != "Ada drew from the deck."
    with pytest.raises(kum.KumError, match="seat"):
        g.describe(drew, 5)


def test_the_state_fields_are_listed_once_and_clone_copies_every_mutable_one() -> None:
    from kum_widget.games.kum import state as st

    groups = st.SHARED + st.FLAT + st.NESTED + st.MAPPED
    assert len(groups) == len(set(groups)) and set(groups) == set(st.State.__annotations__) == set(st.State.__slots__)
    g = played(6, 40)
    s, c = g._state, g._state.clone()
    assert c == s
    for name in st.FLAT + st.NESTED + st.MAPPED:
        assert getattr(c, name) is not getattr(s, name), name
    for name in st.NESTED:
        assert all(a is not b for a, b in zip(getattr(c, name), getattr(s, name), strict=True)), name


def test_rules_show_every_option_in_their_signature() -> None:
    import dataclasses
    import inspect

    params = inspect.signature(kum.Rules).parameters
    fields = [f.name for f in dataclasses.fields(kum.Rules)]
    assert [p for p in params if p != "unknown"] == fields
    defaults = kum.Rules()
    for name in fields:
        default = params[name].default
        assert getattr(defaults, name) == (kum.Deck.standard() if name == "deck" else default), name
    assert "deck: 'Deck' = Deck.standard()" in str(inspect.signature(kum.Rules))
    with pytest.raises(kum.InvalidRulesError, match=r"unknown rule option.*colour"):
        kum.Rules(colour="red")


def test_the_action_id_layout_reads_back_for_every_id() -> None:
    from kum_widget.games.kum.actions import DISCARD_OFFSET, action_from_id, action_id, id_base

    for n, m in ((80, 4), (44, 3), (10, 1)):
        top = id_base(n, m) + DISCARD_OFFSET + n
        assert all(action_id(action_from_id(a, n, m), n, m) == a for a in range(top))
        with pytest.raises(kum.InvalidActionError):
            action_from_id(top, n, m)


# -- a game's scores: finite numbers, or a GameFault naming scores() and the seat ------------------


def finished(game: core.CardGame, seed: int = 1) -> core.Session:
    s, rng = core.Session(game, 2, seed=seed), random.Random(seed)
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize("game, message", BAD_SCORES)
def test_scores_that_are_not_finite_numbers_are_the_games_fault_wherever_the_session_reads_them(
        game: type[Bust], message: str) -> None:
    s = finished(game())
    for read in (s.scores, s.winners, s.summary, s.record):
        with pytest.raises(core.GameFault) as caught:
            read()
        assert str(caught.value) == message, read
    with pytest.raises(core.GameFault, match=re.escape(message)):
        game().winners(s.state)  # CardGame.winners' default takes the top score
    assert s.is_over and s.to_dict()["actions"]  # the rest of the session still works


@pytest.mark.parametrize("value, shown", [(None, "None"), (True, "True"), (-math.inf, "-inf"), ([1], "[1]")])
def test_any_score_but_a_finite_number_is_refused(value: Any, shown: str) -> None:
    class Odd(Bust):
        def scores(self, s: BustState) -> list[Any]:
            return [0.0, value]

    with pytest.raises(core.GameFault, match=rf"^Odd\.scores\(\) gave {re.escape(shown)} for seat 1: scores must be finite numbers$"):
        finished(Odd()).scores()


def test_scores_that_are_no_list_are_refused() -> None:
    class Single(Bust):
        def scores(self, s: BustState) -> Any:
            return 1.0

    with pytest.raises(core.GameFault, match=r"^Single\.scores\(\) gave 1\.0: scores must be a list of numbers, one per seat$"):
        finished(Single()).winners()


def test_finite_scores_of_any_real_kind_are_taken() -> None:
    class Exact(Bust):
        def scores(self, s: BustState) -> list[Any]:
            return [Fraction(1, 3), 10**400]

    s = finished(Exact())
    assert s.scores() == [Fraction(1, 3), 10**400] and s.winners() == [1]
    assert finished(Bust()).summary()["score_0"] in (0.0, 1.0)


# -- a frame per viewer ------------------------------------------------------------------

@pytest.mark.parametrize(("call", "words"), [
    (lambda s: s.frame(2), "a viewer is a seat 0..1, None (the full table) or 'public', got 2"),
    (lambda s: s.frame(-1), "got -1"),
    (lambda s: s.frame(True), "got True"),
    (lambda s: s.frame(0.0), "got 0.0"),
    (lambda s: s.frame("Ada"), "got 'Ada'"),
    (lambda s: s.frame([0]), "got [0]"),
    (lambda s: s.frame(0, offer="2"), "offer must be a list of action ids, got '2'"),
    (lambda s: s.frame(0, offer=[2.0]), "offer must be a list of action ids"),
    (lambda s: s.frame(0, offer=[True]), "offer must be a list of action ids"),
    (lambda s: s.frame(0, log_lines=-1), "log_lines must be a whole number, 0 or more, got -1"),
    (lambda s: s.frame(0, log_lines=None), "log_lines must be a whole number"),
    (lambda s: s.frame(0).action(7), "action id 7 is not offered to seat 0 at state 3"),  # (Bo acts)
    (lambda s: s.frame(1).action(4), "action id 4 is not offered to seat 1 at state 3"),
    (lambda s: s.frame(0).action("play 5"), "action id 'play 5' is not offered"),
    (lambda s: s.frame(0).action(True), "action id True is not offered"),
])
def test_a_bad_frame_request_is_refused_by_name_and_changes_nothing(call: Any, words: str) -> None:
    s = core.Session(Bust(), ["Ada", "Bo"], seed=1)
    s.apply("play 3")
    s.apply(s.legal_actions()[0])
    s.undo()
    before = (s.record(), s.state_id, s.redo_count)
    with pytest.raises(core.InvalidOptionError, match=re.escape(words)):
        call(s)
    assert (s.record(), s.state_id, s.redo_count) == before


def test_a_frame_offers_the_seat_to_act_what_a_board_offers_and_says_what_it_sees() -> None:
    s = core.Session(Bust(), ["Ada", "Bo"], seed=1)
    first = s.frame(0, offer=[2, 100, 999])  # an id not legal is never offered
    assert [(a.id, a.text) for a in first.actions] == [(2, "play 3"), (100, "draw")] and first.action(100).text == "draw"
    assert s.frame(0, offer=[]).actions == () and s.frame(None).actions == s.frame(0).actions
    assert (first.to_act, first.current, first.sequence, first.state_id, first.last_move, first.log) == ((0,), 0, 0, s.state_id, {}, ())
    s.apply("play 3")
    later = s.frame("public", log_lines=1)
    assert later.actions == () and later.board["spectator"] and later.current == 1 and later.sequence == 1
    assert later.log == ("Ada played a 3: the pile is at 3.",) and s.frame(1, log_lines=0).log == ()
    assert later.to_json()["actions"] == [] and later.to_json()["state_id"] == s.state_id
    while not s.is_over:
        s.apply(s.legal_actions()[-1])
    over = s.frame(1)
    assert over.over and over.actions == () and over.current is None and over.to_act == ()
    assert over.status.startswith("Game over") and over.board["outcome"]


@pytest.mark.parametrize(("bad", "error", "words"), [
    (3, core.IllegalMoveError, "play 4 (action 3): not a legal action now"),
    (True, core.InvalidOptionError, "an action id is a whole number, got True"),
    (2.0, core.InvalidOptionError, "got 2.0"),
    ("draw", core.InvalidOptionError, "got 'draw'"),
    (10**4000, core.IllegalMoveError, "action <a number of 4001 digits>: not a legal action now"),
], ids=["illegal", "bool", "float", "text", "huge"])
def test_the_action_for_an_id_is_the_legal_one_and_a_bad_id_is_refused_by_name(bad: Any, error: type, words: str) -> None:
    s = core.Session(Bust(), ["Ada", "Bo"], seed=1)
    assert [s.action(a) for a in s.legal_action_ids()] == s.legal_actions()
    before = (s.record(), s.state_id)
    with pytest.raises(error, match=re.escape(words)):
        s.action(bad)
    assert (s.record(), s.state_id) == before


@pytest.mark.parametrize("how", ["clone", "pickle", "deepcopy"])
def test_a_copied_session_of_any_game_plays_on_by_its_own_game(how: str) -> None:
    """A session binds its game's methods once: a copy (clone, pickle, deepcopy) plays its own
    game and position, and moves in one leave the other as it was."""
    s = core.Session(Bust(), ["Ada", "Bo"], seed=4)
    s.apply(s.legal_actions()[0])
    copy_ = s.clone() if how == "clone" else pickle.loads(pickle.dumps(s)) if how == "pickle" else copy.deepcopy(s)
    assert copy_ == s and copy_.legal_actions() == s.legal_actions() and copy_.is_over == s.is_over
    before = s.to_dict()
    rng = random.Random(4)
    while not copy_.is_over:
        copy_.apply(rng.choice(copy_.legal_action_ids()))
    assert s.to_dict() == before and not s.is_over
    with pytest.raises(core.IllegalMoveError, match="not a legal action now"):
        copy_.apply(s.legal_action_ids()[0])  # the copy's own position decides (its game is over)
