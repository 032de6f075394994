"""Hostile probe of the board (issue 32, items 8, 9 and 11): a bot move that fails on the
board's timer, closed boards that must be freed, and arguments or messages built to
overflow, recurse or flood an error message.
"""

from __future__ import annotations

import asyncio
import gc
import json
import math
import time
import weakref
from typing import Any

import pytest
from _board_helpers import Recorded, browser_msg, offered_id, run_on_own_loop, send
from ipywidgets.widgets.widget import _instances

import kum_widget as kum
from kum_widget import core
from kum_widget.core.examples import DRAW, Bust

LONG = "x" * 20_000
MOST = 400  # an error message quoting a value says what it is in a line, not 20k characters

# -- 8. a bot move that fails on the board's timer -----------------------------------------------


class BrokenBust(Bust):
    """Bust whose apply() fails on seat 1's moves (a user game with a bug)."""

    name = "broken-bust"

    def apply(self, s: Any, action: int) -> Any:
        if s.turn == 1:
            raise RuntimeError("boom " + LONG)
        return super().apply(s, action)


def test_a_bot_move_the_game_refuses_on_the_timer_shows_the_error_and_the_board_stays_usable() -> None:
    async def scenario() -> None:
        w = Recorded(BrokenBust(), bots={1: "random"}, bot_delay=0.01, seed=2)
        start = w.game.to_dict()
        w.act(w.offered[0])  # the bot's turn: its move is scheduled on the loop
        assert w.thinking and "thinking" in w.board["status"]
        for _ in range(200):
            await asyncio.sleep(0.005)
            if not w.thinking and w.error:
                break
        assert not w.thinking and "thinking" not in w.board["status"]
        assert "Random bot" in w.error and "boom" in w.error and len(w.error) < MOST
        assert w.game.current_player == 1 and len(w.game.history) == 1  # the position is as it was
        assert "thinking" not in w.page["board"]["status"] and w.page["error"] == w.error  # the page was told
        send(w, "undo")  # the board's Undo: back to the human's decision
        assert w.error == "" and w.game.history == () and w.offered
        w.act(w.offered[0])
        for _ in range(200):
            await asyncio.sleep(0.005)
            if not w.thinking:
                break
        send(w, "new_game", seed=5)  # and New game
        assert w.error == "" and w.game.history == () and w.game.seed == 5 and w.offered
        assert start["seed"] != 5
        w.close()

    run_on_own_loop(scenario())


def test_a_bot_move_the_game_refuses_without_a_loop_is_reported_once() -> None:
    # bot_delay 0 (or no event loop): the bot moves at once, inside the human's act; a failing
    # move must neither loop for ever nor escape into the cell that made the human's move
    w = kum.GameWidget(BrokenBust(), bots={1: "random"}, bot_delay=0, seed=2)
    w.act(w.offered[0])
    assert "Random bot" in w.error and "boom" in w.error and len(w.error) < MOST
    assert w.game.current_player == 1 and not w.thinking
    assert w.run_bots() == 0 and "boom" in w.error
    assert w.undo() == 1 and w.offered


def hidden_labels(game: Any, seat: int) -> list[str]:
    """The labels of ``seat``'s cards that nobody else has seen (any session of KUM's rules)."""
    state = game._state
    return [state.cards[c].label for c in state.hands[seat] if not state.known[c]]


def test_a_failed_bot_move_on_the_board_names_no_card_of_the_bots_hidden_hand() -> None:
    # the board's error is read by every seat: the move a bot failed to make names its cards
    from kum_widget.games.kum.card_game import KumRules

    class FaultyKum(KumRules):
        def apply(self, state: Any, action: int) -> Any:
            if self.current_player(state) == 1:
                raise RuntimeError("the game's own bug")
            return super().apply(state, action)

    w = Recorded(FaultyKum(), bots={1: "greedy"}, bot_delay=0, seed=3)
    w.act(next(t for t in w.offered if t.startswith("play")))
    w.act("draw deck")
    assert "could not move" in w.error and "the game's own bug" in w.error
    assert w.game.current_player == 1
    assert [label for label in hidden_labels(w.game, 1) if label in w.error] == []

    class Cheater:
        """Answers with a move of a card of its own hand that is not legal."""

        name = "Cheater"

        def choose(self, view: Any, legal: list[Any]) -> Any:
            return f"play {game.hand(1)[0].label} on mine 9"

    game = kum.Game(["Ada", "Bo"], seed=3)
    w = Recorded(game, bots={1: Cheater()}, bot_delay=0)
    cheat = hidden_labels(game, 1)[0]
    w.act(next(t for t in w.offered if t.startswith("play")))
    w.act("draw deck")
    assert "Bo failed" in w.error and "random legal move" in w.error
    assert cheat not in w.error and cheat not in json.dumps(w.page)


# -- 9. closed boards are freed -----------------------------------------------------------------


def _collected(refs: list[weakref.ref[Any]]) -> int:
    gc.collect()
    return sum(r() is None for r in refs)


def test_closed_boards_their_games_and_bots_are_collected() -> None:
    refs: list[weakref.ref[Any]] = []
    ids: list[str] = []
    for seed in range(50):
        w = kum.GameWidget(bots={1: "greedy"}, seed=seed, bot_delay=0)
        w.act(w.offered[0])
        refs += [weakref.ref(w), weakref.ref(w.game), weakref.ref(w.bots[1]), weakref.ref(w.layout)]
        ids += [w.model_id, w.layout.model_id]
        w.close()
    del w
    assert _collected(refs) == len(refs)  # the board's own Layout widget too (ipywidgets keeps it open)
    assert not set(ids) & set(_instances)


def test_a_closed_board_with_a_bot_move_pending_is_collected() -> None:
    async def scenario() -> tuple[int, int, list[weakref.ref[Any]]]:
        w = kum.GameWidget(bots={1: "random"}, seed=3, bot_delay=5)
        w.act(w.offered[0])
        w.act("draw deck")
        assert w.thinking  # the bot's move waits on the loop's timer
        refs = [weakref.ref(w), weakref.ref(w.game), weakref.ref(w.bots[1])]
        w.close()
        del w
        await asyncio.sleep(0)
        return _collected(refs), len(refs), refs

    done, total, _ = run_on_own_loop(scenario())
    assert done == total


def test_an_open_board_stays_alive_and_loads_its_front_end_from_its_own_text() -> None:
    w = kum.GameWidget(bots={1: "random"}, seed=3, bot_delay=0)
    ref = weakref.ref(w)
    assert _collected([ref]) == 0  # an open board is the page's: ipywidgets keeps it
    static = kum.GameWidget._esm  # the built bundle's text (a Path would be watched, and kept)
    assert isinstance(static, str) and "export" in static and "\n" in static
    assert w._esm == static and w._css == kum.GameWidget._css and ".kum-widget" in w._css
    w.act(w.offered[0])
    assert w.state_id == w.game.state_id
    w.close()


# -- 11. values built to overflow, recurse or flood -----------------------------------------------


@pytest.mark.parametrize("delay", [10**400, -(10**400), 2**1024], ids=["1e400", "-1e400", "2**1024"])
def test_a_huge_bot_delay_is_named(delay: int) -> None:
    with pytest.raises(core.GameError, match="bot_delay") as err:
        kum.GameWidget(bot_delay=delay)
    assert len(str(err.value)) < MOST
    w = kum.GameWidget(bots={1: "random"}, seed=3, bot_delay=0)
    with pytest.raises(core.GameError, match="bot_delay"):
        w.bot_delay = delay
    assert w.bot_delay == 0


@pytest.mark.parametrize("rules", [True, 1, 1.5, "x", [1], b"x", object()])
def test_new_game_with_rules_that_are_not_rules_is_named(rules: Any) -> None:
    w = kum.GameWidget(bots={1: "random"}, seed=3, bot_delay=0)
    w.act(w.offered[0])
    before, sid = w.game.to_dict(), w.state_id
    with pytest.raises(core.GameError, match="rules") as err:
        w.new_game(rules=rules)
    assert len(str(err.value)) < MOST
    assert w.game.to_dict() == before and w.state_id == sid


def test_new_game_of_a_user_game_with_rules_that_are_not_rules_is_named() -> None:
    w = kum.GameWidget(Bust(), bots={1: "random"}, bot_delay=0, seed=1)
    before = w.game.to_dict()
    for rules in (True, [("limit", 3)], "limit"):
        with pytest.raises(core.GameError, match="rules"):
            w.new_game(rules=rules)
    assert w.game.to_dict() == before


def nested(depth: int, leaf: Any = "act") -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def deep_call(depth: int, fn: Any) -> Any:
    """``fn()`` called ``depth`` frames down, as in a kernel's message dispatch."""
    return fn() if depth <= 0 else deep_call(depth - 1, fn)


@pytest.mark.parametrize("depth", [980, 5_000])
@pytest.mark.parametrize("field", ["kind", "bot", "action_id", "seed", "id", "state_id"])
def test_a_deeply_nested_message_field_is_refused_by_name(field: str, depth: int) -> None:
    w = Recorded(bots={1: "random"}, seed=3, bot_delay=0)
    before = w.game.to_dict()
    base = {"kind": "new_game"} if field in ("bot", "seed") else {"kind": "act"}
    content = {**base, "state_id": w.state_id, "id": "t", field: nested(depth)}
    deep_call(60, lambda: browser_msg(w, content))  # the kernel answers from some frames down
    assert w.error and "internal" not in w.error and len(w.error) < MOST, w.error[:200]
    assert len(w.answers()) == 1 and w.game.to_dict() == before


@pytest.mark.parametrize(
    "content, words",
    [
        ({"kind": LONG}, "unknown kind"),
        ({"kind": "act", "action_id": LONG}, "'action_id' must be the id of an action"),
        ({"kind": "act", LONG: 1}, "unknown field"),
        ({"kind": LONG, LONG + "y": 1}, "unknown kind"),
        ({"kind": "new_game", "bot": LONG}, "unknown bot"),
        ({"kind": "new_game", "seed": LONG}, "seed"),
        ({"kind": "act", "action": LONG}, "unknown field action"),
    ],
)
def test_browser_messages_with_20k_values_are_refused_in_a_line(content: dict[str, Any], words: str) -> None:
    w = Recorded(bots={1: "random"}, seed=3, bot_delay=0)
    before = w.game.to_dict()
    browser_msg(w, {"state_id": w.state_id, "id": "t", **content})
    assert words in w.error and len(w.error) < MOST, w.error[:300]
    assert w.game.to_dict() == before and len(w.answers()) == 1


def test_a_browser_write_of_20k_trait_names_is_refused_in_a_line() -> None:
    w = Recorded(bots={1: "random"}, seed=3, bot_delay=0)
    w._handle_msg({"content": {"data": {"method": "update", "state": {LONG + str(i): i for i in range(50)}}}, "buffers": []})
    assert "refused a change of" in w.error and len(w.error) < MOST


@pytest.mark.parametrize(
    "call",
    [
        lambda: kum.GameWidget(**{LONG: 1}),
        lambda: kum.GameWidget(Bust(), **{LONG: 1}),
        lambda: kum.GameWidget(kum.Game(2, seed=1), **{LONG: 1}),
        lambda: kum.GameWidget(kum.Game(2, seed=1), **{LONG + str(i): i for i in range(30)}),
        lambda: kum.GameWidget(type("X" * 20_000, (), {})()),
        lambda: kum.GameWidget(bots={1: "random"}, bot_delay=0).new_game(**{LONG: 1}),
        lambda: kum.GameWidget(Bust(), bots={1: "random"}, bot_delay=0).new_game(**{LONG: 1}),
        lambda: kum.GameWidget(seat=LONG),
        lambda: kum.GameWidget(reveal=LONG),
        lambda: kum.GameWidget(bot_delay=LONG),
        lambda: kum.GameWidget(bots={1: LONG}),
        lambda: kum.GameWidget(bots={LONG: "random"}),
        lambda: kum.GameWidget(bots={1: "random"}, bot_delay=0).run_bots(LONG),
    ],
)
def test_board_calls_with_20k_values_are_named_in_a_line(call: Any) -> None:
    with pytest.raises(core.GameError) as err:
        call()
    assert len(str(err.value)) < MOST, str(err.value)[:300]


class LoudBot:
    """A bot that fails with a 20k-character message, under a 20k-character name."""

    name = "L" * 20_000

    def choose(self, view: Any, legal: list[Any]) -> Any:
        raise RuntimeError("y" * 20_000)


def test_a_bot_that_fails_with_a_20k_message_is_reported_in_a_line() -> None:
    w = Recorded(bots={1: LoudBot()}, seed=3, bot_delay=0)
    w.act(w.offered[0])
    w.act("draw deck")
    assert "failed" in w.error and "RuntimeError" in w.error and len(w.error) < MOST
    assert w.game.current_player == 0  # it played a random legal move instead
    # its name is shown in a line too: on the board's seat list and its badge
    assert all(len(s["name"]) <= 40 for s in w.bot_seats.values())
    assert all(len(p.get("bot") or "") <= 40 for p in w.board["players"])
    assert len(w.page["bot_seats"]["1"]["name"]) <= 40


class BadBoard(Bust):
    """A user game whose board() fails with a 20k-character message after a move."""

    name = "bad-board"

    def board(self, view: Any, seat: int | None) -> Any:
        if view.get("pile"):
            raise RuntimeError("z" * 20_000)
        return super().board(view, seat)


def test_a_board_that_fails_to_draw_after_a_move_is_reported_in_a_line() -> None:
    w = Recorded(BadBoard(), bots={1: "random"}, bot_delay=0, seed=4)
    play = next(t for t in w.offered if t.startswith("play"))
    send(w, "act", action_id=offered_id(w, play))
    assert w.error and len(w.error) < MOST, w.error[:300]
    assert len(w.answers()) == 1



# -- issue 42, item 8e: a sweep of the board's calls and messages with huge and hostile values ------


def _board_calls(w: kum.GameWidget) -> dict[str, Any]:
    def setter(name: str) -> Any:
        return lambda v: setattr(w, name, v)

    return {"act": w.act, "hint": w.hint, "new_game(seed)": lambda v: w.new_game(v), "new_game(bots)": lambda v: w.new_game(bots=v),
            "run_bots": w.run_bots, "seat": setter("seat"), "reveal": setter("reveal"), "step": setter("step"),
            "pace": setter("pace"), "bot_delay": setter("bot_delay"), "play(card, target)": lambda v: w.game.play(w.game.hand(0)[0], v)}


@pytest.mark.parametrize("value", [10**5000, -(10**5000), 2**64, "9" * 5000, f"play #{'9' * 5000} on mine 1", math.nan, math.inf,
                                   True, None, b"x", [1], {"a": 1}, nested(5_000)],
                         ids=["10**5000", "-10**5000", "2**64", "5000 nines", "a 5000-digit card", "nan", "inf", "True", "None",
                              "bytes", "list", "dict", "deep"])
def test_board_calls_and_messages_with_huge_and_hostile_values_are_refused_by_name(value: Any) -> None:
    w = Recorded(kum.Game(["Ada", "Bo"], seed=3), bots={1: "random"}, bot_delay=0)
    for name in _board_calls(w):
        before, sid, error = w.game.to_dict(), w.state_id, w.error
        try:
            _board_calls(w)[name](value)
        except core.GameError as exc:
            assert len(str(exc)) < MOST, (name, str(exc)[:300])
            assert w.game.to_dict() == before and w.state_id == sid, name
        except Exception as exc:  # the point: nothing else escapes a board's public call
            raise AssertionError(f"{name}: {type(exc).__name__} escaped: {str(exc)[:200]}") from exc
        else:
            w.error = error
    for content in ({"kind": "act", "action_id": value}, {"kind": "new_game", "seed": value}, {"kind": "pace", "value": value},
                    {"kind": "act", "state_id": value, "action_id": w.offered_ids[0]}, {"kind": "new_game", "bot": value}):
        if value is None and content["kind"] == "new_game":
            continue  # a new deal, the bots kept: good input
        before = w.game.to_dict()
        browser_msg(w, {"state_id": w.state_id, "id": "t", **content})
        assert w.error and "internal" not in w.error and len(w.error) < MOST, (content["kind"], w.error[:200])
        assert w.game.to_dict() == before


# -- issue 42, item 8c: a search that would run for minutes (a variant whose games loop) -------------

def looping() -> Bust:
    """Bust that never ends: the eighteen cards add up to 90, under the limit, so no one busts."""
    return Bust(limit=100)


async def handled(loop: asyncio.AbstractEventLoop, call: Any) -> float:
    """How long ``call``, put on the loop as a page's message is, waits before it runs."""
    done: asyncio.Future[float] = loop.create_future()
    start = time.perf_counter()
    loop.call_soon(lambda: (call(), done.set_result(time.perf_counter() - start)))
    return await done


async def until(condition: Any, seconds: float) -> float:
    """Wait on the loop for ``condition()``, at most ``seconds``; the time it took."""
    start = time.perf_counter()
    while not condition() and time.perf_counter() - start < seconds:
        await asyncio.sleep(0.005)
    return time.perf_counter() - start


async def turns(condition: Any, n: int) -> int:
    """Let the event loop turn up to ``n`` times while ``condition()`` holds; how many it turned."""
    done = 0
    while done < n and condition():
        await asyncio.sleep(0)  # (one turn: a search's next slice, a deferred move, a click)
        done += 1
    return done


def test_a_hint_that_would_search_for_minutes_leaves_the_board_answering_and_close_stops_it() -> None:
    async def scenario() -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        w = Recorded(looping(), players=["Ada", "Bo"], bots={1: "ismcts"}, seed=1)
        out: dict[str, Any] = {}
        send(w, "hint", token="h")  # the Hint button
        out["answer"], out["searching"] = w.answers()[-1]["id"], w.searching  # answered before its search ended
        out["turns"] = await turns(lambda: w.searching == "hint", 5)  # the loop turns while it searches
        out["click"] = await handled(loop, lambda: send(w, "pace", value="fast", token="p"))  # a click while it searches
        out["pace"], out["still searching"] = w.pace, w.searching
        out["close"] = await handled(loop, w.close)
        out["after close"] = w.searching  # close() stopped it, then and there
        out["analysis"], out["error"] = w.analysis, w.error
        return out

    out = run_on_own_loop(scenario())
    print(out)  # (the click's and close()'s waits: the bench measures them)
    assert out["answer"] == "h" and out["searching"] == "hint" and out["turns"] == 5, out
    assert out["pace"] == "fast" and out["still searching"] == "hint" and out["after close"] is None, out
    assert out["analysis"] is None and out["error"] == ""


def test_a_bot_that_would_search_for_minutes_is_stopped_by_undo_and_by_close() -> None:
    async def scenario() -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        w = Recorded(looping(), players=["Ada", "Bo"], bots={1: "ismcts"}, seed=1, bot_delay=0.01)
        out: dict[str, Any] = {}
        w.act(w.offered[0])
        await until(lambda: w.searching == "bot", 5)  # on the timer, then searching in slices
        out["turns"] = await turns(lambda: w.searching == "bot", 5)
        out["thinking"] = w.thinking and "thinking" in w.board["status"]
        out["undo"] = await handled(loop, lambda: send(w, "undo", token="u"))  # Undo: back to Ada's decision
        out["undone"] = (w.game.move_number, w.searching, w.thinking, w.error)
        w.act(w.offered[0])
        await until(lambda: w.searching == "bot", 5)
        out["close"] = await handled(loop, w.close)
        out["after close"] = w.searching
        out["moves"] = w.game.move_number
        return out

    out = run_on_own_loop(scenario())
    print(out)  # (the waits: the bench measures them)
    assert out["thinking"] and out["turns"] == 5 and out["undone"] == (0, None, False, ""), out
    assert out["after close"] is None and out["moves"] == 1, out  # the bot never moved


class Interrupted(Bust):
    """A looping Bust whose search a Ctrl-C stops: ``step`` (the search's, never the game's)
    raises KeyboardInterrupt while armed."""

    name = "bust-interrupted"
    armed = False

    def step(self, state: Any, action: int) -> None:
        if Interrupted.armed:
            raise KeyboardInterrupt
        super().step(state, action)


def test_after_a_ctrl_c_in_a_hint_the_board_still_plays_and_hints() -> None:
    async def scenario() -> dict[str, Any]:
        w = Recorded(Interrupted(limit=100), players=["Ada", "Bo"], bots={1: "greedy"}, seed=1, bot_delay=0.01)
        out: dict[str, Any] = {}
        Interrupted.armed = True
        try:
            w.hint()  # from a cell: Ctrl-C in the middle of the search
        except KeyboardInterrupt:
            out["interrupted"] = True
        finally:
            Interrupted.armed = False
        out["after"] = (w.error, w.thinking, w.analysis, w.searching)
        w.act(w.offered[0])
        await until(lambda: w.game.current_player == 0, 5)  # the bot moves on the timer
        out["moves"] = w.game.move_number
        send(w, "hint", token="h")
        await until(lambda: (w.analysis or {}).get("kind") == "hint", 5)  # (the greedy bot's own thinking shows until then)
        out["hint"] = (w.answers()[-1]["id"], (w.analysis or {}).get("kind"), w.error)
        w.close()
        return out

    out = run_on_own_loop(scenario())
    assert out["interrupted"] and out["after"] == ("", False, None, None), out
    assert out["moves"] == 2 and out["hint"] == ("h", "hint", ""), out


def test_bots_that_move_at_once_on_and_on_leave_the_board_answering_and_close_stops_them() -> None:
    """Two random bots at no delay (the page's "instant") in a game that never ends: once
    10,000 moves in a row, seconds in which the board answered nothing."""
    async def scenario() -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        out: dict[str, Any] = {}
        w = Recorded(looping(), players=["Ada", "Bo"], bots={0: "random", 1: "random"}, seed=1, bot_delay=5)
        send(w, "pace", value="instant", token="i")
        first = w.game.move_number
        out["answered"] = (w.answers()[-1]["id"], 0 < first < 10_000, w.thinking)  # answered while the bots go on
        out["click"] = await handled(loop, lambda: send(w, "view", token="s"))
        out["click answered"] = w.answers()[-1]["id"]
        await until(lambda: w.game.move_number > first + 50, 5)
        out["going on"] = w.game.move_number > first + 50 and w.error == ""
        out["close"] = await handled(loop, w.close)
        stopped = w.game.move_number
        out["turns"] = await turns(lambda: w.game.move_number == stopped, 50)  # a deferred move would come in a turn
        out["moves after close"] = w.game.move_number - stopped
        return out

    out = run_on_own_loop(scenario())
    print(out)  # (the waits: the bench measures them)
    assert out["answered"] == ("i", True, True) and out["click answered"] == "s" and out["going on"], out
    assert out["turns"] == 50 and out["moves after close"] == 0, out


def test_at_no_delay_a_bot_answers_a_cells_move_at_once_and_a_click_in_slices() -> None:
    """A cell that plays then reads the game finds the bot's reply there (bot_delay=0 is
    "at once", also where an event loop runs); the page's click is answered first, the bot's
    search going on a slice at a time."""
    async def scenario() -> dict[str, Any]:
        w = Recorded(kum.Game(["Ada", "Bo"], seed=4), bots={1: "ismcts"}, bot_delay=0)
        out: dict[str, Any] = {}
        w.act(w.offered[0])  # a cell: Ada plays
        w.act(w.offered[0])  # and draws: the bot's turn
        out["cell"] = (w.game.current_player, w.searching, w.thinking, len(w.game.history) > 2)
        send(w, "act", action_id=w.offered_ids[0], token="p")
        send(w, "act", action_id=w.offered_ids[0], token="a")  # a click: the bot's turn
        out["click"] = (w.answers()[-1]["id"], w.game.current_player, w.searching)
        await until(lambda: w.game.current_player == 0, 10)
        out["replied"] = (w.game.current_player, w.searching, w.thinking, w.error)
        w.close()
        return out

    out = run_on_own_loop(scenario())
    assert out["cell"] == (0, None, False, True), out  # the bot has replied: Ada is to act again
    assert out["click"] == ("a", 1, "bot") and out["replied"] == (0, None, False, ""), out


class DealFailsLater(Bust):
    """A looping Bust whose deals fail from the third on: the Hint's search fails after its
    first slice, on the event loop."""

    name = "bust-deal-fails"
    deals = 0

    def determinize(self, view: dict[str, Any], seat: int, rng: Any) -> Any:
        DealFailsLater.deals += 1
        if DealFailsLater.deals > 2:
            raise RuntimeError("the deal went wrong")
        return super().determinize(view, seat, rng)


def test_a_hint_that_fails_while_it_searches_says_so_and_the_board_plays_on() -> None:
    async def scenario() -> dict[str, Any]:
        w = Recorded(DealFailsLater(limit=100), players=["Ada", "Bo"], bots={1: "greedy"}, seed=1, bot_delay=0.01)
        DealFailsLater.deals = 0
        send(w, "hint", token="h")
        out: dict[str, Any] = {"searching": w.searching, "answer": w.answers()[-1]["id"]}
        await until(lambda: bool(w.error), 5)
        out["after"] = (w.error, w.searching, w.analysis)
        w.act(w.offered[0])  # and the board plays on
        await until(lambda: w.game.current_player == 0, 5)
        out["moves"] = w.game.move_number
        w.close()
        return out

    out = run_on_own_loop(scenario())
    error, search, analysis = out["after"]
    assert out["searching"] == "hint" and out["answer"] == "h" and search is None and analysis is None, out
    assert error == "no hint: RuntimeError: the deal went wrong", error
    assert out["moves"] == 2, out


class Counted(Bust):
    """Bust that counts the deals its searches make: how many searches ran."""

    name = "bust-counted"
    deals = 0

    def determinize(self, view: dict[str, Any], seat: int, rng: Any) -> Any:
        Counted.deals += 1
        return super().determinize(view, seat, rng)


def test_a_cells_hint_never_answers_with_the_hint_buttons_search_which_a_deadline_may_cut() -> None:
    """hint() searches to its budget: the Hint button's search, which answers by a deadline,
    is not what it returns (it once was, cut short or not); the button may show the cell's."""
    async def scenario() -> dict[str, Any]:
        w = Recorded(Counted(), players=["Ada", "Bo"], bots={1: "greedy"}, seed=1, bot_delay=5)
        Counted.deals = 0
        send(w, "hint", token="h")  # the button
        await until(lambda: w.searching is None, 10)
        out: dict[str, Any] = {"button": (Counted.deals > 0, (w.analysis or {}).get("kind"))}
        button = Counted.deals
        first = w.hint()  # a cell: a search of its own
        out["cell"] = Counted.deals > button
        cell = Counted.deals
        out["again"] = (w.hint() is first, Counted.deals == cell)  # asked again: not run again
        send(w, "hint", token="h2")  # the button: the cell's search, to its budget, will do
        out["button again"] = (w.searching, Counted.deals == cell, (w.analysis or {}).get("kind"))
        w.close()
        return out

    out = run_on_own_loop(scenario())
    assert out["button"] == (True, "hint") and out["cell"] and out["again"] == (True, True), out
    assert out["button again"] == (None, True, "hint"), out


class ClickDuringSlice(Bust):
    """A looping Bust whose third deal of a search lets a click in, as a kernel that handles a
    page's message on another thread while a slice of the search runs."""

    name = "bust-click-during-slice"
    deals = 0
    letting_in: Any = None

    def determinize(self, view: dict[str, Any], seat: int, rng: Any) -> Any:
        ClickDuringSlice.deals += 1
        if ClickDuringSlice.deals == 3 and ClickDuringSlice.letting_in is not None:
            ClickDuringSlice.letting_in()
        return super().determinize(view, seat, rng)


def test_a_click_handled_while_a_slice_of_the_hint_runs_stops_it_and_the_bot_moves() -> None:
    """Once "generator already executing": the click's move could not stop the running search,
    the board said it could not follow the game and the bot never moved."""
    async def scenario() -> dict[str, Any]:
        w = Recorded(ClickDuringSlice(limit=100), players=["Ada", "Bo"], bots={1: "greedy"}, seed=1, bot_delay=0.01)
        ClickDuringSlice.deals = 0
        ClickDuringSlice.letting_in = lambda: send(w, "act", action_id=DRAW, token="d")
        try:
            send(w, "hint", token="h")
            await until(lambda: w.game.current_player == 0 and len(w.game.history) >= 2, 10)
        finally:
            ClickDuringSlice.letting_in = None
        out = {"clicked": ClickDuringSlice.deals >= 3, "moves": len(w.game.history), "error": w.error,
               "searching": w.searching, "hint": (w.analysis or {}).get("kind")}
        w.close()
        return out

    out = run_on_own_loop(scenario())
    assert out["clicked"] and out["moves"] == 2 and out["error"] == "" and out["searching"] is None, out
    assert out["hint"] != "hint", out  # the hint's position is gone: it never showed


# -- issue 43, item 3: one wire: a click sends the id of an action the board offered ---------------


class TwinTexts(Bust):
    """Bust whose every action reads "move", and whose text reader fails: only an id can say
    which action a click meant, and nothing may read the text back."""

    name = "bust-twin-texts"

    def action_text(self, s: Any, action: int) -> str:
        super().action_text(s, action)  # (an id the game does not know still fails)
        return "move"

    def parse_action(self, s: Any, text: str) -> int:
        raise AssertionError(f"the board parsed {text!r}: a click is applied by its id")


def the_game(w: kum.GameWidget) -> tuple[Any, ...]:
    """All there is of the game: its record, position, redo list and state id."""
    g = w.game
    return g.to_dict(), g.state_id, g.history, g.redo_count, str(g)


def test_a_click_is_applied_by_the_id_it_sends_and_no_text_is_read() -> None:
    w = Recorded(TwinTexts(), players=["Ada", "Bo"], bots={1: "random"}, bot_delay=0, seed=1)
    ids = w.offered_ids
    assert len(ids) > 1 and set(w.offered) == {"move"}  # the texts cannot tell the actions apart
    assert [(a["id"], a["text"]) for a in w.legal["actions"]] == [(aid, "move") for aid in ids]
    chosen = ids[-1]
    send(w, "act", action_id=chosen, token="c")
    assert w.error == "" and w.answers()[-1]["id"] == "c"
    assert w.game.history[0] == chosen  # the very action clicked, not the first that reads "move"


@pytest.mark.parametrize("value, words", [
    (True, "got True"), (False, "got False"),  # a bool is no id, though Python counts it an int
    (2.0, "got 2.0"), (math.nan, "got nan"), ("2", "got '2'"), ("play 3", "got 'play 3'"), (None, "got None"),
    ([2], "got [2]"), ({"id": 2}, "got {'id': 2}"),
    (2**53, "beyond"), (-(2**53), "beyond"), (10**100, "beyond"), (10**4000, "beyond"),
    (-1, "refused action id -1: not an action the board offers now"),
    (999, "refused action id 999: not an action the board offers now"),
])
def test_a_malformed_action_id_gets_a_clear_answer_and_leaves_the_game_as_it_was(value: Any, words: str) -> None:
    w = Recorded(Bust(), players=["Ada", "Bo"], bots={1: "random"}, bot_delay=0, seed=1)
    before, page = the_game(w), dict(w.page)
    browser_msg(w, {"kind": "act", "action_id": value, "state_id": w.state_id, "id": "x"})
    assert words in w.error and len(w.error) < MOST and "internal" not in w.error, w.error[:300]
    assert [a["id"] for a in w.answers()] == ["x"] and the_game(w) == before
    assert {k: v for k, v in w.page.items() if k != "error"} == {k: v for k, v in page.items() if k != "error"}  # nothing redrawn


@pytest.mark.parametrize("content, words", [
    ({"kind": "act"}, "'action_id' must be the id of an action the board offers, got None"),  # no id at all
    ({"kind": "act", "action": "draw"}, "unknown field action (a move names its action by id: 'action_id')"),  # text: for people
    ({"kind": "act", "action": "draw", "action_id": DRAW}, "unknown field action"),  # both: still refused whole
])
def test_a_move_without_an_id_or_by_its_text_is_refused(content: dict[str, Any], words: str) -> None:
    w = Recorded(Bust(), players=["Ada", "Bo"], bots={1: "random"}, bot_delay=0, seed=1)
    before = the_game(w)
    browser_msg(w, {**content, "state_id": w.state_id, "id": "x"})
    assert words in w.error and [a["id"] for a in w.answers()] == ["x"] and the_game(w) == before


def test_an_id_offered_on_an_older_state_is_refused_even_where_it_is_legal_now() -> None:
    w = Recorded(Bust(), players=["Ada", "Bo"], bots={1: "random"}, bot_delay=0, seed=1)
    old_state, old_ids = w.state_id, w.offered_ids
    assert DRAW in old_ids
    w.act(w.offered_ids[0])  # from a cell: Ada plays, the bot answers; Ada may draw again now
    assert w.game.current_player == 0 and DRAW in w.offered_ids
    before = the_game(w)
    browser_msg(w, {"kind": "act", "action_id": DRAW, "state_id": old_state, "id": "old"})
    assert "old board" in w.error and the_game(w) == before
    for sid in (True, float(w.state_id), str(w.state_id), w.state_id + 1, 10**4000, None):  # a state id is the board's own int
        browser_msg(w, {"kind": "act", "action_id": DRAW, "state_id": sid, "id": "s"})
        assert "old board" in w.error and the_game(w) == before, sid
    assert [a["id"] for a in w.answers()] == ["old"] + ["s"] * 6


def test_a_legal_id_the_board_does_not_offer_is_refused() -> None:
    """A hot seat behind its pass screen offers nothing, and a bot's seat is not the page's to
    move: the player to act's legal ids, sent anyway, change nothing."""
    w = Recorded(Bust(), players=["Ada", "Bo"], bot_delay=0, seed=1)  # two humans: a pass screen first
    legal = w.game.legal_action_ids()
    assert w.pass_to == "Ada" and w.offered_ids == [] and legal
    before = the_game(w)
    for aid in legal:
        browser_msg(w, {"kind": "act", "action_id": aid, "state_id": w.state_id, "id": "p"})
        assert "not your turn" in w.error and the_game(w) == before
    b = Recorded(Bust(), players=["Ada", "Bo"], seat=0, bots={0: "random"}, bot_delay=0, seed=1)  # the board shows the bot's seat
    assert b.offered_ids == [] and b.game.legal_action_ids()
    before = the_game(b)
    browser_msg(b, {"kind": "act", "action_id": b.game.legal_action_ids()[0], "state_id": b.state_id, "id": "b"})
    assert "not your turn" in b.error and the_game(b) == before


def test_an_id_the_page_cannot_carry_is_never_offered() -> None:
    class HugeIds(Bust):
        name = "bust-huge-ids"

        def legal_actions(self, s: Any) -> list[int]:
            return [2**60 + a for a in super().legal_actions(s)]

    with pytest.raises(core.GameError, match=r"beyond ±\(2\*\*53 - 1\)"):
        kum.GameWidget(HugeIds(), players=["Ada", "Bo"], bots={1: "random"}, bot_delay=0, seed=1)
