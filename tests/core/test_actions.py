"""One action type for every game: ``Session.legal_actions()``, ``history``, ``last_action``
and a bot's move are ``core.Action`` values (an ``int``, the action's id, with its ``text``
and the game's own ``move``), for the shipped games and the gallery alike; every session
method that takes an action takes one, and bad input is still named."""

from __future__ import annotations

import copy
import json
import pickle
import random
import re
from typing import Any, NamedTuple

import pytest

import kum_widget as kum
from kum_widget import core
from kum_widget.bots import GreedyBot, RandomBot, bot_move
from kum_widget.core import Action, IllegalMoveError, InvalidOptionError, Session
from kum_widget.core.examples import Bust
from kum_widget.gallery.connect_four import ConnectFour
from kum_widget.gallery.undercut import Undercut
from kum_widget.gallery.whispers import Whispers
from kum_widget.gallery.workers import Woodcutters

GAMES: dict[str, Any] = {
    "bust": lambda seed: Session(Bust(), ["Ada", "Bo"], seed=seed),
    "court": lambda seed: kum.Court(seed=seed),
    "court-core": lambda seed: Session(core.game_class("court")(), seed=seed),
    "kum": lambda seed: kum.Game(["Ada", "Bo", "Cy"], seed=seed),
    "kum-core": lambda seed: Session(kum.KingsUnderMountains(), 2, seed=seed),
    "undercut": lambda seed: Session(Undercut(), ["Ada", "Bo"], seed=seed),
    "connect-four": lambda seed: Session(ConnectFour(), ["Ada", "Bo"], seed=seed),
    "whispers": lambda seed: Session(Whispers(), ["Ada", "Bo", "Cy"], seed=seed),
    "woodcutters": lambda seed: Session(Woodcutters(), ["Ada", "Bo"], seed=seed),
}


def kum_move(a: Action) -> bool:
    return isinstance(a.move, (kum.Play, kum.Draw, kum.Discard))


@pytest.mark.parametrize("name", list(GAMES))
def test_legal_actions_are_actions_equal_to_the_ids_with_text_and_move(name: str) -> None:
    s, rng = GAMES[name](3), random.Random(3)
    steps = 0
    while not s.is_over and steps < 60:
        legal, ids = s.legal_actions(), s.legal_action_ids()
        assert legal and all(type(a) is Action for a in legal)
        assert legal == ids and [int(a) for a in legal] == ids and {a: 1 for a in legal} == {i: 1 for i in ids}
        for a in legal:
            assert a.text == str(a) == s.action_text(a) == s.action_text(int(a))
            assert eval(repr(a), {"Action": Action}) == a  # the repr pastes back
            assert kum_move(a) if name.startswith("kum") else a.move is None  # the game's move(), in any session of it
            assert s.action_id(a) == int(a) and s.action_id(a.text) == int(a)
        if name == "kum":
            assert s.moves() == [a.move for a in legal]
        a = rng.choice(legal)
        s.apply(a)  # accepted as it is
        assert type(s.last_action) is Action and s.last_action == a and s.last_action.text == a.text
        steps += 1
    assert all(type(a) is Action for a in s.history) and len(s.history) == steps
    assert all(type(t) is str for t in s.to_dict()["actions"])  # records keep the texts


@pytest.mark.parametrize("name", ["bust", "whispers", "court", "kum"])
def test_history_names_each_action_as_it_read_when_it_was_taken(name: str) -> None:
    s, rng = GAMES[name](5), random.Random(5)
    texts, ids = [], []
    for _ in range(12):
        if s.is_over:
            break
        a = rng.choice(s.legal_actions())
        texts.append(a.text)
        ids.append(int(a))
        s.apply(a)
    assert [a.text for a in s.history] == texts and s.history == tuple(ids)
    s.undo(4)  # undo, then another line of play: the history follows
    assert [a.text for a in s.history] == texts[:-4]
    s.apply(s.legal_actions()[-1])
    assert [a.text for a in s.history] == [*texts[:-4], s.last_action.text] and s.history[-1] == s.last_action
    twin = s.clone()
    assert twin.history == s.history and [a.text for a in twin.history] == [a.text for a in s.history]


def test_texts_with_placeholders_name_the_seat_that_took_the_action() -> None:
    s = GAMES["whispers"](2)
    rng = random.Random(2)
    for _ in range(8):
        if s.is_over:
            break
        legal = s.legal_actions()
        assert all("{" not in a.text for a in legal) and [a.text for a in legal] == [s.action_text(a) for a in legal]
        s.apply(rng.choice(legal))
    taken = [a.text for a in s.history]
    assert all("{" not in t for t in taken)
    assert Session.from_record(s.record(), game=s.game).history == s.history  # records keep the raw texts


def test_a_bot_s_move_is_an_action_in_every_game() -> None:
    for name in GAMES:
        s = GAMES[name](1)
        for bot in (GreedyBot(1), RandomBot(1)):
            move = bot_move(s, bot)
            assert type(move) is Action and move in s.legal_actions(), name


def test_every_method_that_takes_an_action_takes_one() -> None:
    s = GAMES["bust"](1)
    a = s.legal_actions()[0]
    assert s.heuristic_scores([a]) == s.heuristic_scores([int(a)])
    assert s.action_text(a) == a.text and s.action_id(a) == a
    events = s.apply(a)
    assert events and s.history == (a,)
    g = GAMES["kum"](1)
    b = g.legal_actions()[0]
    assert g.parse_action(b.text) == b and type(g.parse_action(b.text)) is Action
    assert g.heuristic_scores([b]) == g.heuristic_scores([int(b)])
    g.apply(b.move)  # the game's own object reads too
    assert g.history == (b,) and g.history[0].move == b.move


def test_an_action_is_an_immutable_int() -> None:
    a = Action(3, "play 3")
    assert a == 3 and 3 == a and a != 4 and a == 3.0 and hash(a) == hash(3) and 3 in {a} and a in {3}
    assert sorted([Action(5, "x"), a, 4]) == [3, 4, 5] and a + 1 == 4 and type(a + 1) is int
    assert json.dumps([a]) == "[3]" and f"{a}" == "3" and f"{a:03d}" == "003" and f"{a!s}" == "play 3"
    assert pickle.loads(pickle.dumps(a)).text == "play 3" and copy.deepcopy(a) == a and copy.copy(a).text == "play 3"
    with pytest.raises(AttributeError, match="cannot be changed"):
        a.text = "x"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="cannot be changed"):
        del a.move
    with pytest.raises(AttributeError, match="no attribute 'card'"):
        _ = a.card  # type: ignore[attr-defined]
    for bad_id in (True, 1.5, "3", None):
        with pytest.raises(InvalidOptionError, match="id is a whole number"):
            Action(bad_id, "x")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="text is text"):
        Action(3, 5)  # type: ignore[arg-type]


def illegal_now(s: Session) -> tuple[int, str]:
    """An action of the game (it has a text) that is not legal now, and its text."""
    legal = s.legal_action_ids()
    for a in range(100_000):
        if a not in legal:
            try:
                return a, s.action_text(a)
            except core.GameError:
                continue
    raise AssertionError("every action is legal")


@pytest.mark.parametrize("name", ["bust", "court", "kum", "whispers"])
def test_bad_input_is_still_named_and_changes_nothing(name: str) -> None:
    s = GAMES[name](4)
    before, sid = s.to_dict(), s.state_id
    other, named = illegal_now(s)  # an Action is its id: the error names that action, not the text it carried
    for bad, words in [(Action(other, "a made-up text"), re.escape(named)), (Action(10**30, "huge"), "number of 31 digits|action"),
                       (2.5, r"2\.5|float"), (None, "None"), ([1], r"\[1\]|list"), ("fly to the moon", "fly to the moon")]:
        with pytest.raises(core.GameError, match=words):
            s.apply(bad)
    if s.game.fair_heuristic:
        with pytest.raises(IllegalMoveError, match="heuristic_scores takes legal action ids"):
            s.heuristic_scores([Action(other, "x")])
    assert s.to_dict() == before and s.state_id == sid


def test_an_action_is_its_id_not_its_text_nor_the_game_s_object() -> None:
    g = GAMES["kum"](2)
    play = next(a for a in g.legal_actions() if isinstance(a.move, kum.Play))
    assert play != play.move and play.move not in g.legal_actions() and play == int(play)
    with pytest.raises(AttributeError, match="card"):
        getattr(play, "card")  # noqa: B009  # the move's field: play.move.card
    c = GAMES["court"](2)
    first = c.legal_actions()[0]
    assert first.text == "start place 1 to space 1.1" and first != first.text and first.text not in c.legal_actions()
    with pytest.raises(AttributeError, match="startswith"):
        first.startswith("start")  # type: ignore[attr-defined]  # the text's method: first.text.startswith


def test_a_game_with_objects_of_its_own_hands_them_out_as_move_and_takes_them_back() -> None:
    class Card(NamedTuple):
        value: int

    class Carded(Bust):
        """Bust whose actions are objects of its own too (GAMES.md, "action objects")."""

        def move(self, state: Any, action: int) -> Any:
            return Card(action + 1) if action < 100 else "draw"

        def encode(self, view: dict[str, Any], action: Any) -> int:
            if isinstance(action, Card):
                return action.value - 1
            if action == "draw":
                return 100
            raise IllegalMoveError(f"not a card of Bust: {action!r}")

    s = Session(Carded(), 2, seed=1)
    legal = s.legal_actions()
    assert all(type(a) is Action for a in legal) and legal[0].move == Card(int(legal[0]) + 1)
    assert type(bot_move(s, GreedyBot(1))) is Action
    s.apply(legal[0].move)  # the object is read back through encode
    assert s.history[0].move == legal[0].move and s.last_action.text == legal[0].text
    before = s.state_id
    with pytest.raises(IllegalMoveError, match="not a card of Bust"):
        s.apply(object())
    assert s.state_id == before
