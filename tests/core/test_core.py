"""The core: the session every game gets, and a checker that catches each broken rule."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from kum_widget import core
from kum_widget.core import Session, check_game
from kum_widget.core.examples import DRAW, Bust, BustState


def test_the_example_passes_every_check() -> None:
    report = check_game(Bust(), games=40)
    assert report.ok, str(report)
    assert report.skipped == {} and report.steps > 200
    assert "all checks passed" in str(report) and "<table>" in report._repr_html_()


# Each of these breaks one promise of the protocol; the checker must name it.
class NeverEnds(Bust):
    def legal_actions(self, s: BustState) -> list[int]:
        return [DRAW]

    def apply(self, s: BustState, action: int) -> list[Any]:
        s.turn = (s.turn + 1) % len(s.hands)
        return []


class Nondeterministic(Bust):
    def setup(self, players: int, rng: random.Random) -> BustState:
        return super().setup(players, random.Random())


class SharedClone(Bust):
    def clone(self, s: BustState) -> BustState:
        return s


class UnstableLegal(Bust):
    def legal_actions(self, s: BustState) -> list[int]:
        acts = super().legal_actions(s)
        random.shuffle(acts)
        return acts


class ListsABadAction(Bust):
    def legal_actions(self, s: BustState) -> list[int]:  # lists a card that is not in hand
        bad = [c for c in range(18) if c not in s.hands[s.turn]][:1]
        return [*super().legal_actions(s), *bad] if s.loser is None else []


class SaysNothingIsWrong(Bust):
    def refusal(self, s: BustState, action: int) -> str | None:
        return None  # the legal list still decides: the session refuses anyway


class SameText(Bust):
    def action_text(self, s: BustState, action: int) -> str:
        return "move"


class TupleView(Bust):
    def view(self, s: BustState, seat: int | None) -> dict[str, object]:
        return {**super().view(s, seat), "pile": tuple(s.pile)}


class Leaky(Bust):
    def view(self, s: BustState, seat: int | None) -> dict[str, object]:
        return {**super().view(s, seat), "all": [list(h) for h in s.hands]}

    def secrets(self, s: BustState, seat: int) -> list[object]:
        return [[c for c in s.hands[seat]]]


class BadDeal(Bust):
    def determinize(self, view: dict[str, object], seat: int, rng: random.Random) -> BustState:
        dealt = super().determinize(view, seat, rng)
        dealt.turn = (dealt.turn + 1) % len(dealt.hands)
        return dealt


class BadBoard(Bust):
    def board(self, view: dict[str, object], seat: int | None) -> dict[str, object]:
        board = super().board(view, seat)
        board["zones"][0]["colour"] = "red"  # type: ignore[index]
        return board


class BadClick(Bust):
    def click(self, s: BustState, action: int) -> dict[str, str]:
        return {"target": "nowhere"}


class WrongFavourites(Bust):
    def best_actions(self, s: Any, legal: list[int]) -> list[int]:
        return legal[-1:]  # not what the heuristic rates best (it rates a pass above a draw)


class BestActionsThatPlay(Bust):
    def best_actions(self, s: Any, legal: list[int]) -> list[int] | None:
        best = super().best_actions(s, legal)
        s.turn += 1  # right answer, but it changed the position it was asked about
        return best


class ShortScores(Bust):
    def heuristic(self, s: Any, actions: list[int]) -> list[float]:
        return super().heuristic(s, actions)[:-1]  # one score short


class OneScore(Bust):
    def scores(self, s: BustState) -> list[float]:
        return [1.0]


def test_best_actions_are_the_heuristics_top_scores_with_ties_kept() -> None:
    game, rng = Bust(), random.Random(4)
    for seed in range(20):
        s = game.setup(2, random.Random(seed))
        while not game.is_over(s):
            legal = game.legal_actions(s)
            scores = game.heuristic(s, legal)
            assert game.best_actions(s, legal) == [a for a, x in zip(legal, scores, strict=True) if x == max(scores)]
            game.apply(s, rng.choice(legal))
    assert core.top_actions([3, 5, 8], [0.5, 2.0, 2.0 - 1e-12]) == [5, 8]  # within 1e-9 is a tie
    assert core.top_actions([], []) == []
    with pytest.raises(core.GameFault, match="2 scores for 3 actions"):
        core.top_actions([1, 2, 3], [0.0, 1.0])

    class NoOpinion(Bust):
        def heuristic(self, s: Any, actions: list[int]) -> None:  # type: ignore[override]
            return None

    assert NoOpinion().best_actions(game.setup(2, random.Random(0)), [0, 1]) is None
    import numpy as np  # the lab's dependency: a heuristic may well give an array
    assert core.top_actions([1, 2, 3], np.array([0.0, 2.0, 2.0])) == [2, 3]


@pytest.mark.parametrize(
    "broken, check",
    [
        (NeverEnds, "plays to the end"),
        (Nondeterministic, "deterministic by seed"),
        (SharedClone, "clones are independent"),
        (UnstableLegal, "legal actions are stable"),
        (ListsABadAction, "legal actions are stable"),
        (SameText, "action text round trip"),
        (TupleView, "views are JSON-safe"),
        (Leaky, "hidden cards stay hidden"),
        (BadDeal, "determinize fits the view"),
        (BadBoard, "board is valid"),
        (BadClick, "board is valid"),
        (OneScore, "scores and summary"),
        (WrongFavourites, "best actions agree"),
        (BestActionsThatPlay, "best actions agree"),
        (ShortScores, "best actions agree"),
    ],
)
def test_the_checker_names_what_is_broken(broken: type[Bust], check: str) -> None:
    report = check_game(broken(), games=6, max_steps=300)
    assert not report.ok and check in report.failures, str(report)
    assert "seed" in report.failures[check]  # it says on which position
    assert f"FAIL  {check}" in str(report)


def test_a_game_with_no_optional_hooks_is_told_what_was_skipped() -> None:
    class Plain(Bust):
        determinize = core.CardGame.determinize
        board = core.CardGame.board
        secrets = core.CardGame.secrets

    report = check_game(Plain(), games=3)
    assert report.ok and set(report.skipped) == {"hidden cards stay hidden", "determinize fits the view", "board is valid",
                                                 "heuristic reads only the view"}
    assert "unproven" in report.skipped["heuristic reads only the view"]  # Bust's heuristic, with no deal to test it on


# -- the session ---------------------------------------------------------------------------------


def played(seed: int = 3, steps: int = 6) -> Session:
    s, rng = Session(Bust(), ["Ada", "Bo", "Cy"], seed=seed), random.Random(seed)
    for _ in range(steps):
        if not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
    return s


def test_a_refused_action_changes_nothing_and_says_why() -> None:
    s = played()
    before, sid = s.to_dict(), s.state_id
    for bad, words in [(999, "not a legal action"), (-1, "not a legal action"), ("play 10", "not a legal action"),
                       ("x" * 600, "too long"), (None, "an action is an id"), (2.5, "an action is an id"),
                       (10**5000, "not a legal action"), (True, "an action is an id"), (["draw"], "an action is an id")]:
        with pytest.raises(core.IllegalMoveError, match=words):
            s.apply(bad)
        assert s.to_dict() == before and s.state_id == sid


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"players": 5}, "for 2..4 players"),
        ({"players": ["Ada"]}, "for 2..4 players"),
        ({"players": ["Ada", "Ada"]}, "must differ"),
        ({"players": ["Ada", " Bo"]}, "printable"),
        ({"players": "AdaBo"}, "list of 2..4 names"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"seed": "7"}, "seed"),
    ],
)
def test_bad_session_arguments_are_named(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(core.GameError, match=words):
        Session(Bust(), **{"players": 2, **kwargs})


def test_bad_rule_options_are_named() -> None:
    with pytest.raises(core.InvalidOptionError, match="unknown option 'limt'"):
        Bust(limt=20)
    with pytest.raises(core.InvalidOptionError, match="must be a whole number like 21"):
        Bust(limit="21")
    assert Bust(limit=30).rules["limit"] == 30 and Bust().with_options({"hand": 4}) == Bust(hand=4)


def test_undo_redo_movers_and_records() -> None:
    s = played(steps=40)
    n = s.move_number
    again = Session.from_record(s.record())
    assert again == s and Session.from_dict(json.loads(json.dumps(s.to_dict()))) == s
    s.undo(5)
    assert s.move_number == n - 5 and s.redo_count == 5 and len(s.redo_movers) == 5
    back = Session.from_dict(s.to_dict())
    assert back == s and back.redo_count == 5
    s.redo(5)
    assert s == again and s.movers == again.movers


def test_describe_hides_a_draw_from_the_others() -> None:
    s = Session(Bust(), ["Ada", "Bo"], seed=1)
    (note,) = s.apply("draw")
    assert s.describe(note, 0).startswith("Ada drew a ") and s.describe(note) == s.describe(note, 0)
    assert s.describe(note, 1) == s.describe(note, spectator=True) == "Ada drew a card."


@pytest.mark.parametrize(
    "data, words",
    [
        ("not a dict", "is a dict"),
        ({"format": "x"}, "format"),
        ({"format": "kum-widget-session", "version": 9}, "version"),
        ({"format": "kum-widget-session", "version": 1, "game": "chess"}, "no game named 'chess'"),
        ({"format": "kum-widget-session", "version": 1, "game": "bust", "options": {"limit": "x"}, "players": 2, "seed": 1, "actions": []}, "options"),
        ({"format": "kum-widget-session", "version": 1, "game": "bust", "options": {}, "players": 2, "seed": 1, "actions": ["fly"]}, "actions\\[0\\]"),
        ({"format": "kum-widget-session", "version": 1, "game": "bust", "options": {}, "players": 2, "seed": 1, "actions": [], "x": 1}, "unknown field"),
    ],
)
def test_bad_saves_are_named(data: Any, words: str) -> None:
    with pytest.raises(core.InvalidSaveError, match=words):
        Session.from_dict(data)


def test_bad_records_are_named() -> None:
    good = played(steps=2).record()
    for text, words in [
        (3, "is text"),
        (good.replace("kum-widget-session 1", "kum-widget-session 7"), "Format"),
        (good.replace('[Seed "3"]', '[Seed "' + "9" * 5000 + '"]'), "Seed"),
        (good.replace('[Options "', '[Options "' + "[" * 100_000), "Options"),
        (good + "9. Zed: play 1\n", "turn"),
        (good.replace("[Game", "[[Game"), "cannot read tag"),
    ]:
        with pytest.raises(core.InvalidSaveError, match=words):
            Session.from_record(text)
    assert Session.from_record("\ufeff" + good) == Session.from_record(good)


def test_a_game_whose_apply_fails_leaves_the_session_as_it_was() -> None:
    s = Session(ListsABadAction(), ["Ada", "Bo"], seed=2)
    s.apply("draw")
    before = s.to_dict()
    bad = s.legal_action_ids()[-1]
    with pytest.raises(core.GameFault, match=r"apply\(\) failed on 'play .*ValueError") as fault:
        s.apply(bad)
    assert type(fault.value.__cause__) is ValueError and fault.value.__suppress_context__  # the game's own error, chained
    assert s.to_dict() == before and s.movers == (0,)
    s.apply(s.legal_actions()[0])  # and it plays on


def test_the_legal_list_decides_and_refusal_only_explains() -> None:
    assert check_game(SaysNothingIsWrong(), games=5).ok
    s = Session(SaysNothingIsWrong(), 2, seed=1)
    with pytest.raises(core.IllegalMoveError, match="not a legal action now"):
        s.apply(999)


def test_a_listener_that_fails_is_logged_and_the_change_stands(caplog: pytest.LogCaptureFixture) -> None:
    s = Session(Bust(), 2, seed=1)
    seen: list[int] = []
    s.on_change(lambda _: 1 / 0)
    s.on_change(lambda x: seen.append(x.state_id))
    s.apply("draw")
    assert seen == [1] and "ZeroDivisionError" in caplog.text


def test_apply_returns_its_own_events_even_when_a_bot_replies_inside() -> None:
    import kum_widget as kum

    w = kum.GameWidget(Bust(), bots={1: "greedy"}, seed=3, bot_delay=0)
    events = w.act("draw")
    assert [e.seat for e in events] == [0] and w.game.current_player == 0  # the bot has replied
    k = kum.GameWidget(bots={1: "greedy"}, seed=3, bot_delay=0)
    k.act(k.offered[0])
    (drew,) = k.act("draw deck")
    assert drew.seat == 0


def test_an_unknown_id_is_named_as_an_id() -> None:
    s = Session(Bust(), 2, seed=1)
    with pytest.raises(core.IllegalMoveError, match="action 999: not a legal action now"):
        s.apply(999)
    illegal = next(a for a in range(18) if a not in s.legal_action_ids())
    with pytest.raises(core.IllegalMoveError, match=rf"\(action {illegal}\): not a legal action now"):
        s.apply(illegal)


def test_the_checker_on_a_stub_names_the_missing_method_and_runs_nothing_else() -> None:
    class Stub(core.CardGame):
        name = "stub"

    report = check_game(Stub(), games=2)
    assert "must define setup()" in report.failures["plays to the end"]
    assert set(report.failures) | set(report.skipped) == set(core.checker.CHECKS) - {"declarations hold"}
    assert "declarations hold" in report.ran  # a stub declares nothing wrong: only its methods are missing
    for check in ("deterministic by seed", "undo and redo", "records round trip", "views are JSON-safe"):
        assert report.skipped[check].startswith("not run"), check
