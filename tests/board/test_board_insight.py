"""Issue 35, the kernel's side of the board: why a part takes no move now (``why_not``, in
the game's words), what a bot weighed (``analysis``: a bot's last decision, a hint) and
the bots' ``pace``, through the messages the page sends (``Recorded``, as
tests/security/test_widget_trust.py). The board's intro and outcome, the court's counters and
replay files are in tests/board/test_board_guide.py."""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

import pytest
from _board_helpers import Recorded, offered_id, run_on_own_loop, send, zone

import kum_widget as kum
from kum_widget import core
from kum_widget.bots import GreedyBot, ISMCTSBot, RandomBot, Thoughts, Weighed, analyse, bot_move, make_bot
from kum_widget.core.examples import Bust, BustState
from kum_widget.gallery.connect_four import ConnectFour

DECK = kum.Deck.standard()
DEFENSE_4 = [c.id for c in DECK if DECK.defenses[c.id] == 4]  # mines a stack of 1-3 leaves unclaimed
SIZE_3 = [c.id for c in DECK if not DECK.overseers[c.id] and DECK.sizes[c.id] >= 3 and c.id not in DEFENSE_4]
OVERSEER_2 = [c.id for c in DECK if DECK.overseers[c.id] and DECK.sizes[c.id] == 2]


def kum_game(hands: list[list[str]], tops: list[list[str]], claimed: list[list[Any]], **kw: Any) -> kum.Game:
    """Ada (orc King) and Bo (goblin King); ``tops``: the stack of each mine."""
    return kum.Game.from_scenario(["Ada", "Bo"], races=["orc", "goblin"], hands=hands, claimed=claimed,
                                  mines=[{"mine": DEFENSE_4[k], "stack": t} for k, t in enumerate(tops)], **kw)


def card_id(game: kum.Game, seat: int, label: str) -> str:
    return next(f"card {c.id}" for c in game.hand(seat) if str(c).startswith(label + " "))


# -- 1. why not: Kings Under Mountains, in its own words -------------------------------------------


def test_a_kum_card_that_goes_nowhere_says_why_and_a_playable_one_says_nothing() -> None:
    game = kum_game([["orc 2", "goblin 3", "dwarf 6"], ["giant 1"]], [["dwarf 5"], ["giant 7"], ["giant 9"], ["dwarf 8"]],
                    [[{"mine": SIZE_3[0], "stack": ["goblin 4"]}], [{"mine": SIZE_3[1], "stack": []}]])
    w = Recorded(game, bots={1: "random"}, bot_delay=0)
    why = w.why_not
    assert why[card_id(game, 0, "orc 2")] == (
        "Orc 2 goes on no mine now: mine 1 has dwarf 5, mine 2 has giant 7, mine 3 has giant 9, mine 4 has dwarf 8; "
        "a creature must be higher than the top card (a 0 goes on a 9). And you may not play your own race (orc) on your claimed mines.")
    assert why[card_id(game, 0, "goblin 3")].endswith("And your claimed mine 1 has goblin 4 on top.")
    assert card_id(game, 0, "dwarf 6") not in why and "mine 1" not in why  # dwarf 6 goes on mine 1: a move, no reason
    assert why["mine 2"] == "None of your cards goes on mine 2: its top card is giant 7, and a creature must be higher (a 0 goes on a 9)."
    assert why["claimed 1.1"] == "Only Bo plays on Bo's claimed mines."
    assert why["deck"] == why["camp orc"] == "First play a creature from your hand; then you draw, from the deck or a Camp pile."
    assert not any(k.startswith(("mine 2 ", "camp orc ")) for k in why)  # a zone's reason covers the cards in it
    w.act("play dwarf 6 on mine 1")  # now the draw: every card of the hand and every mine says so
    assert w.why_not[card_id(game, 0, "orc 2")] == w.why_not["mine 3"] == "You have played this turn: now draw, from the deck or a Camp pile."
    assert w.why_not["camp giant"] == "The giant pile of the Camp is empty." and "deck" not in w.why_not
    w.act("draw deck")  # Bo's turn: Ada's board says nothing
    assert w.why_not == {} or w.game.current_player == 0


def test_a_full_overseer_mine_asks_for_the_owners_own_race() -> None:
    game = kum_game([["orc 3", "goblin 8"], ["giant 1"]], [["dwarf 2"], ["giant 9"], ["giant 9"], ["dwarf 9"]],
                    [[{"mine": OVERSEER_2[0], "stack": ["goblin 3", "dwarf 5"]}], []])
    w = Recorded(game, bots={1: "random"}, bot_delay=0)
    assert w.why_not["claimed 0.1"] == ("Your claimed mine 1 is full: only an orc (your own race) higher than its top card "
                                        "(dwarf 5) finishes it, and you hold none that fits.")
    assert zone(w.board, "claimed 0.1")["hint"] == "needs your own race on top"  # on Ada's own board


def test_a_stuck_player_is_told_to_discard() -> None:
    game = kum_game([["orc 1", "goblin 2"], ["giant 1"]], [["dwarf 5"], ["giant 7"], ["giant 9"], ["dwarf 8"]], [[], []])
    assert game.phase == "discard"
    w = Recorded(game, bots={1: "random"}, bot_delay=0)
    assert w.why_not["deck"] == w.why_not["mine 1"] == "No card of yours can be played: discard one from your hand (click it), then draw from the deck."
    assert not any(k.startswith("card ") for k in w.why_not)  # every card of the hand is a discard


# -- 1. why not: the court, in its own words -------------------------------------------------------


def test_court_reasons_in_the_buying_phase() -> None:
    game = kum.Court.from_scenario(row=["earth courtesan 6", "sun tax collector 2", "daemon prince 3", None],
                                   court=["moon poet 5", "sun general 3", *[None] * 6], cp=3)
    why = Recorded(game).why_not
    dear, prince = (f"card {game.row[p].id}" for p in (0, 2))
    assert why[dear] == "It costs 6 CP now and you have 3: pass to gain CP. It gets 1 CP cheaper with each place it slides right."
    assert why[prince] == "A Daemon Prince is never bought: fight it in phase 2, with your Generals' strength and CP."
    assert f"card {game.row[1].id}" not in why  # the tax collector costs 1: bought by a click
    assert why["space 1.1"] == "Space 1.1 is taken: a bought card goes into an empty space (it replaces one only when the court is full)."
    assert why["place 4"] == "Place 4 is empty: nothing to buy or fight there." and "space 1.3" not in why
    assert why["draw pile"].startswith("The draw pile is never clicked")


def test_court_reasons_in_the_fight_and_with_a_closed_full_court() -> None:
    game = kum.Court.from_scenario(row=["sun poet 3", "daemon prince 9", "moon poet 3", "daemon prince 3"],
                                   court=["sun general 6", "moon general 4", *[None] * 6], cp=1, phase="fight")
    why = Recorded(game).why_not
    assert why[f"card {game.row[1].id}"] == ("Your strength 7 and your 1 CP cannot reach its strength 9: "
                                             "a fight must be one you can win (it would take 2 CP).")
    assert why[f"card {game.row[0].id}"].startswith("Phase 2 is for fighting") and f"card {game.row[3].id}" not in why
    assert why["space 2.4"] == "Phase 2: nothing goes into your court now; fight a Daemon Prince or skip."
    court = ["sun general 6", "moon general 4", "earth general 3", "sun poet 4", "moon poet 4", "earth poet 4", "sun minister 4", "moon minister 4"]
    full = kum.Court.from_scenario(row=["sun poet 3", "moon poet 3", "earth poet 3", "sun minister 3"], court=court, cp=9,
                                   rules=kum.CourtRules(full_court="closed"))
    why = Recorded(full).why_not
    assert {why[f"card {c.id}"] for c in full.row} == {"Your Royal Court is full, and this game does not allow replacing a card (C4)."}


# -- 1. why not: any game (the kernel) --------------------------------------------------------------


def bust(hands: list[list[int]], deck: list[int], game: core.CardGame | None = None, pile: tuple[int, ...] = ()) -> core.Session:
    return core.Session.from_position(game or Bust(), BustState(hands, deck, list(pile)), ["Ada", "Bo"])


def test_a_game_without_reasons_gets_a_plain_one_for_its_own_hand_only() -> None:
    session = bust([[0, 9, 3], [1, 2, 4]], [5, 6, 7])  # cards 0 and 9 are both 1s: Bust plays the lower id
    w = Recorded(session, bot_delay=0, seat=0, bots={1: "random"})
    assert w.why_not == {"card 9": "No legal move uses this now. You may: play 1, play 4, draw."}
    assert w.game.game.why_not(w.game.view(0), 0, "card 9") is None  # the declared default: nothing to say


class Spoken(Bust):
    """Bust with reasons: records what it was handed (the view of the seat to act, never the state)."""

    seen: list[tuple[Any, int, str]] = []

    def why_not(self, view: dict[str, Any], seat: int, part: str) -> str | None:
        Spoken.seen.append((view, seat, part))
        return "{player} may play one of each value" if part.startswith("card ") else None


class Broken(Bust):
    def why_not(self, view: dict[str, Any], seat: int, part: str) -> str | None:
        raise KeyError(part)


def test_the_games_reason_is_read_from_the_seats_view_and_names_filled_in() -> None:
    Spoken.seen = []
    w = Recorded(bust([[0, 9, 3], [1, 2, 4]], [5, 6, 7], Spoken()), bot_delay=0, bots={1: "random"})
    assert w.why_not == {"card 9": "Ada may play one of each value"}
    assert Spoken.seen and all(view == w.game.view(0) and seat == 0 for view, seat, _ in Spoken.seen)
    # asked only about the parts no legal action uses: not the deck, the pile, card 0 or card 3
    assert {part for *_, part in Spoken.seen} == {"hand 0", "hand 1", "card 9", "back 1 0", "back 1 1", "back 1 2"}
    broken = Recorded(bust([[0, 9, 3], [1, 2, 4]], [5, 6, 7], Broken()), bot_delay=0, bots={1: "random"})
    assert broken.why_not == {"card 9": "No legal move uses this now. You may: play 1, play 4, draw."} and broken.error == ""


# -- 2. what a bot weighed --------------------------------------------------------------------------


def test_each_bot_says_what_it_weighed() -> None:
    game = kum.Game(["Ada", "Bo"], seed=3)
    ids = game.legal_action_ids()
    bot = ISMCTSBot(seed=1)
    move = bot_move(game, bot)
    t = bot.analysis()
    assert t is not None and t.measure == "win" and t.iterations == bot.last_stats["iterations"] > 0
    assert sorted(t.moves) == sorted(ids) and abs(sum(w.visits or 0 for w in t.moves.values()) - 1) < 1e-9
    assert all(w.value is None or 0 <= w.value <= 1 for w in t.moves.values()) and t.moves[int(move)].visits
    greedy = GreedyBot(seed=1)
    move = bot_move(game, greedy)
    g = greedy.analysis()
    assert g is not None and g.measure == "heuristic" and g.moves[int(move)].value == 1.0
    assert all(w.visits is None and 0 <= (w.value or 0) <= 1 for w in g.moves.values())
    assert RandomBot(seed=1).analysis() is None
    court = kum.Court(seed=2)
    bot_move(court, bot)
    c = bot.analysis()
    assert c is not None and c.measure == "score" and any(w.score is not None and w.score > 1 for w in c.moves.values())


def test_a_single_legal_move_is_no_search() -> None:
    game = bust([[0], [1]], [])  # one card, no deck: one move
    assert len(game.legal_actions()) == 1
    bot = ISMCTSBot(seed=1)
    move = bot_move(game, bot)
    assert bot.analysis() == Thoughts({int(move): Weighed(visits=1.0)})


def test_an_object_bot_may_tell_what_it_weighed_and_anything_else_is_ignored() -> None:
    class Teller:
        name = "Teller"

        def choose(self, view: Any, legal: list[Any]) -> Any:
            return legal[0]

        def analysis(self) -> Any:
            return Thoughts({0: Weighed(0.5, 0.25)}, 9)

    class Liar(Teller):
        def analysis(self) -> Any:
            return {"play": 1.0}

    assert make_bot(Teller()).analysis() == Thoughts({0: Weighed(0.5, 0.25)}, 9)
    assert make_bot(Liar()).analysis() is None


def test_analyse_is_a_small_table_from_the_seats_view() -> None:
    game = kum.Game(["Ada", "Bo"], seed=3)
    before = game.to_dict()
    table = analyse(game, "greedy")
    assert game.to_dict() == before and table.seat == 0 and table.bot == "Greedy bot"
    assert table.moves[0].action == table.chosen and len(table.moves) == len(game.legal_actions())
    assert "<- chosen" in repr(table) and table.rows()[0]["chosen"] is True
    seen: list[bool] = []

    class Spy:
        name = "Spy"

        def choose(self, view: Any, legal: list[Any]) -> Any:
            seen.append(view == game.view(0))
            return legal[0]

        def analysis(self) -> Thoughts:
            return Thoughts({})

    analyse(game, Spy())
    assert seen == [True]
    for call, words in [(lambda: analyse(game, "random"), "shows no analysis"), (lambda: analyse(game, seat=1), "it is Ada's turn"),
                        (lambda: analyse(game.game, "greedy"), "takes a game's session"), (lambda: analyse(game, seed="1"), "seed")]:
        with pytest.raises(core.GameError, match=words):
            call()
    assert game.to_dict() == before


def test_a_bots_thinking_shows_where_its_seat_may_be_seen_and_nowhere_else() -> None:
    boards = []
    for reveal in (False, True):  # Ada's board (Bo's moves name Bo's hand), then a teacher's: every hand shown
        w = Recorded(kum.Game(["Ada", "Bo"], seed=5), bots={1: "greedy"}, bot_delay=0, reveal=reveal)
        w.act(w.offered[0])
        w.act("draw deck")  # Bo (greedy) plays and draws
        boards.append(w)
    mine, table = boards
    # Ada is told how Bo chose and its move as her log tells it, but none of its moves or figures (they name its hand)
    told = mine.analysis
    assert mine.game.move_number == 4 and told is not None and told["hidden"] and told["moves"] == [] and told["chosen"] is None
    assert told["said"][0] == f"Bo (Greedy bot)'s last move: {mine.log_lines[-1]}" and "rule of thumb" in told["said"][1]
    assert not any(str(c) in json.dumps(told) for c in mine.game.hand(1)) and mine.page["analysis"] == told
    a = table.analysis
    assert a is not None and a["kind"] == "bot" and a["seat"] == 1 and a["name"] == "Bo (Greedy bot)" and a["measure"] == "heuristic"
    game = table.game
    pre = game.clone()
    pre.undo(1)  # the position of Bo's last decision (its draw)
    clicks = dict(zip(pre.legal_action_ids(), pre.clicks(), strict=True))
    assert {m["action"] for m in a["moves"]} == {pre.action_text(x) for x in clicks} and len(a["moves"]) == len(clicks)
    for m in a["moves"]:
        click = clicks[pre.action_id(m["action"])]
        assert (m["source"], m["target"]) == (click.get("source"), click.get("target"))
    assert a["chosen"] == game.history[-1].text
    game.undo(1)  # the bot's move taken back (from a cell): its thinking goes with it
    assert table.analysis is None


def test_a_perfect_information_game_shows_the_bots_thinking_to_its_opponent() -> None:
    w = Recorded(ConnectFour(), bots={1: "ismcts"}, bot_delay=0)
    w.act(w.offered[3])
    a = w.analysis
    assert a is not None and a["kind"] == "bot" and a["seat"] == 1 and a["measure"] == "win" and sum(m["share"] for m in a["moves"]) > 0.99
    assert "cannot see" not in " ".join(a["said"])  # nothing is hidden here: no cards are dealt at random
    assert all(m["target"] and m["target"].startswith("column ") for m in a["moves"])
    send(w, "new_game", seed=2)
    assert w.analysis is None


def test_a_hint_plays_nothing_and_is_answered() -> None:
    w = Recorded(kum.Game(["Ada", "Bo"], seed=4), bots={1: "random"}, bot_delay=0)
    before, sid = w.game.to_dict(), w.state_id
    w.sent.clear()
    send(w, "hint", token="h")
    assert [a["id"] for a in w.answers()] == ["h"] and w.error == ""
    assert w.game.to_dict() == before and w.state_id == sid
    a = w.analysis
    assert a["kind"] == "hint" and a["seat"] == 0 and a["name"] == "hint for Ada" and a["said"][0].startswith("The hint played the game out")
    assert (a["chosen"] in w.offered) != bool(a["equal"]) and sorted(m["action"] for m in a["moves"]) == sorted(w.offered)
    w.act(w.offered[0])  # a move: the hint was about the position before it
    assert w.analysis is None
    table = w.hint("greedy")  # the same from a cell
    assert table.bot == "Greedy bot" and w.analysis["kind"] == "hint"
    hot = Recorded(kum.Game(["Ada", "Bo"], seed=4), bot_delay=0)  # the pass screen: nobody has said who is at the screen
    before = hot.game.to_dict()
    send(hot, "hint", token="x")
    assert "no hint" in hot.error and hot.answers()[-1]["id"] == "x" and hot.analysis is None and hot.game.to_dict() == before
    send(hot, "hint", token="y", extra=1)
    assert "unknown field" in hot.error and hot.answers()[-1]["id"] == "y"


# -- 3. pace ----------------------------------------------------------------------------------------


def test_the_pace_scales_the_bots_delay_and_a_bad_one_changes_nothing() -> None:
    async def scenario() -> list[Any]:
        loop = asyncio.get_running_loop()
        w = Recorded(kum.Game(["Ada", "Bo"], seed=3), bots={1: "random"}, bot_delay=0.4)
        out: list[Any] = [w.pace]
        w.act(w.offered[0])
        w.act("draw deck")  # Bo's turn: the move waits on the timer
        out.append(round(w._bots_driver.pending.when() - loop.time(), 1))
        send(w, "pace", value="fast", token="p1")
        out.append(round(w._bots_driver.pending.when() - loop.time(), 1))  # rescheduled at once, at the new pace
        send(w, "pace", value="slow", token="p2")
        out.append(round(w._bots_driver.pending.when() - loop.time(), 1))
        send(w, "pace", value="warp", token="p3")
        out += [w.pace, "pace must be one of slow, normal, fast, instant, got 'warp'" in w.error]
        send(w, "pace", value="instant", token="p4")  # no wait: Bo has moved
        out += [w.game.current_player, w.thinking, [a["id"] for a in w.answers()]]
        with pytest.raises(core.GameError, match="pace must be one of"):
            w.pace = 2
        w.close()
        return out

    assert run_on_own_loop(scenario()) == ["normal", 0.4, 0.1, 0.8, "slow", True, 0, False, ["p1", "p2", "p3", "p4"]]


def test_a_change_of_pace_keeps_the_share_of_the_wait_already_waited() -> None:
    async def scenario() -> list[Any]:
        loop = asyncio.get_running_loop()
        w = Recorded(kum.Game(["Ada", "Bo"], seed=3), bots={1: "random"}, bot_delay=0.4)
        w.act(w.offered[0])
        w.act("draw deck")  # Bo's move on the timer: 0.4 s
        due = w._bots_driver.pending.when()
        await asyncio.sleep(0.2)
        waited = 1 - (due - loop.time()) / 0.4  # the share of the wait gone (a busy machine sleeps longer)
        send(w, "pace", value="slow", token="p1")  # that share of the slow 0.8 s is gone too
        pending = w._bots_driver.pending
        if pending is None:  # the machine slept past the whole wait: the bot has moved, as it should
            kept = waited >= 1
        else:
            kept = abs(pending.when() - loop.time() - 0.8 * (1 - waited)) < 0.05
        moved_at = None
        for i in range(12):  # changed back and forth faster than any delay: the bot still moves
            send(w, "pace", value="normal" if i % 2 else "slow", token=f"q{i}")
            await asyncio.sleep(0.1)
            if moved_at is None and w.game.current_player == 0:
                moved_at = i
        w.close()
        return [kept, moved_at is not None]

    assert run_on_own_loop(scenario()) == [True, True]


def test_hints_asked_again_on_the_same_position_search_once() -> None:
    w = Recorded(kum.Game(["Ada", "Bo"], seed=3), bots={1: "random"}, bot_delay=0)
    calls: list[int] = []
    real = kum.bots.ISMCTSBot.analysis

    def counted(self: Any) -> Any:
        calls.append(1)
        return real(self)

    kum.bots.ISMCTSBot.analysis = counted  # type: ignore[method-assign]
    try:
        first = w.hint()
        for i in range(5):
            send(w, "hint", token=f"h{i}")
        assert w.hint() is first and len(calls) == 1  # the same table, one search
        w.act(w.offered[0])
        w.hint()  # a new position: a new search
        assert len(calls) == 2 and [a["id"] for a in w.answers()] == [f"h{i}" for i in range(5)]
    finally:
        kum.bots.ISMCTSBot.analysis = real  # type: ignore[method-assign]


class NoDeal(Bust):
    """Bust without determinize: hidden cards and nothing a search could deal them from."""

    name = "bust-no-deal"
    determinize = core.CardGame.determinize


def test_a_hint_on_a_game_that_cannot_be_searched_is_a_plain_refusal() -> None:
    w = Recorded(NoDeal(), players=["Ada", "Bo"], bots={1: "random"}, seed=1, bot_delay=0)
    before = (w.game.state_id, w.game.history)
    send(w, "hint", token="h")
    assert w.error.startswith("no hint: ") and "internal error" not in w.error and "determinize" in w.error
    assert (w.game.state_id, w.game.history) == before and [a["id"] for a in w.answers()] == ["h"]


# -- what the board says when a game or a bot misbehaves --------------------------------------------


class Buggy(Bust):
    """Bust whose apply() fails on every card played (a bug in the game)."""

    name = "buggy-bust"

    def apply(self, state: BustState, action: int) -> Any:
        if 0 <= action < 18:
            raise ValueError("cannot play that card")
        return super().apply(state, action)


def test_in_a_hot_seat_a_move_the_game_fails_on_is_not_named_on_the_public_table() -> None:
    w = Recorded(Buggy(), players=["Ada", "Bo"], seed=1)
    send(w, "ready")  # Ada at the screen; the synced traits stay the public table (a saved notebook keeps them)
    play = next(a for a in w.offered if a.startswith("play"))
    before = (w.game.state_id, w.game.history)
    send(w, "act", action_id=offered_id(w, play))
    assert w.error == "the game's own code failed on that move (ValueError: cannot play that card); nothing changed"
    assert play not in w.synced["error"] and (w.game.state_id, w.game.history) == before


class Wordy(Bust):
    name = "wordy-bust"

    def determinize(self, view: Any, seat: int, rng: Any) -> BustState:
        raise core.GameError("no deal: " + "x" * 200_000)


def test_a_refusal_of_any_length_is_shown_as_a_line() -> None:
    w = Recorded(Wordy(), players=["Ada", "Bo"], bots={1: "random"}, seed=1, bot_delay=0)
    send(w, "hint")
    assert w.error.startswith("no deal: xxx") and w.error.endswith("...") and len(w.error) == 500


class NaNBot:
    """A bot from a cell whose figures are no numbers."""

    name = "NaN bot"

    def choose(self, view: Any, legal: list[int]) -> int:
        self._legal = list(legal)
        return legal[0]

    def analysis(self) -> Thoughts:
        return Thoughts({a: Weighed(visits=math.nan, value=math.inf) for a in self._legal}, 3, "heuristic")


def test_figures_that_are_no_numbers_reach_the_page_as_none() -> None:
    w = Recorded(ConnectFour(), players=["Ada", "NaN"], bots={1: NaNBot()}, bot_delay=0, seed=1)
    send(w, "act", action_id=w.offered_ids[0])  # the bot replies; a game of perfect information shows its analysis
    moves = w.analysis["moves"]
    assert moves and all(m["share"] is None and m["value"] is None for m in moves)
    json.dumps(w.get_state()["analysis"], allow_nan=False)  # strict JSON


# -- 4. the bot explains itself to a student (issue 42, item 5) ---------------------------------------


def strings(x: Any) -> list[str]:
    """Every string a trait holds, keys too."""
    if isinstance(x, str):
        return [x]
    if isinstance(x, dict):
        return [s for k, v in x.items() for s in strings(k) + strings(v)]
    if isinstance(x, (list, tuple)):
        return [s for v in x for s in strings(v)]
    return []


def test_every_greedy_move_says_what_it_weighed_by_its_rule_of_thumb_and_never_of_chances() -> None:
    for reveal in (False, True):  # Ada's board (Bo's hand hidden), then a teacher's (every hand shown)
        w = Recorded(kum.Game(["Ada", "Bo"], seed=5), bots={1: "greedy"}, bot_delay=0, reveal=reveal)
        assert w.analysis is None  # no bot has moved: nothing to tell yet
        bot_moves = 0
        while not w.game.is_over and bot_moves < 12:
            w.act(w.offered[0])
            if w.game.movers[-1] != 1:
                continue
            bot_moves += 1
            a = w.analysis
            assert a is not None and a["kind"] == "bot" and a["measure"] == "heuristic" and a["said"], (reveal, w.game.move_number)
            words = " ".join(a["said"])
            assert "rule of thumb" in words and "chance" not in words and "%" not in words
            if reveal:
                assert "rule-of-thumb score 100" in words and a["chosen"] == w.game.history[-1].text
                assert all(m["share"] is None and 0 <= m["value"] <= 1 for m in a["moves"])  # no search: no share
        assert bot_moves >= 6


def test_only_a_searchs_figures_speak_of_a_chance_to_win() -> None:
    w = Recorded(kum.Game(["Ada", "Bo"], seed=5), bots={1: ISMCTSBot(iterations=300, seed=1)}, bot_delay=0, reveal=True)
    w.act(w.offered[0])
    w.act("draw deck")
    said = " ".join(w.analysis["said"])
    assert w.analysis["measure"] == "win" and "chance to win about" in said and "cards it cannot see dealt at random" in said
    best = w.analysis["moves"][0]
    assert 0 <= best["low"] <= best["value"] <= best["high"] <= 1


def test_a_random_bot_says_it_weighs_nothing_and_no_panel_is_left_empty() -> None:
    w = Recorded(kum.Game(["Ada", "Bo"], seed=5), bots={1: "random"}, bot_delay=0)
    w.act(w.offered[0])
    w.act("draw deck")
    a = w.analysis
    assert a is not None and a["measure"] == "none" and "at random: it weighs nothing" in " ".join(a["said"])


def test_no_text_the_board_sends_speaks_of_visits_or_iterations() -> None:
    w = Recorded(kum.Game(["Ada", "Bo"], seed=4), bots={1: ISMCTSBot(iterations=200, seed=1)}, bot_delay=0, reveal=True)
    sent: list[str] = []
    for _ in range(3):
        w.act(w.offered[0])
        w.act("draw deck")
        sent += strings(w.get_state())
        send(w, "hint")
        sent += strings(w.get_state())
    assert w.analysis["kind"] == "hint" and len(sent) > 100
    assert [s for s in sent if "visit" in s.lower() or "iteration" in s.lower()] == []


class Teller:
    """A bot from a cell whose figures are given: (share, chance to win) per legal move, in order."""

    name = "Teller"

    def __init__(self, figures: list[tuple[float, float]], tries: int) -> None:
        self.figures, self.tries = figures, tries

    def choose(self, view: Any, legal: list[Any]) -> Any:
        self._legal = [int(a) for a in legal]
        return legal[0]

    def analysis(self) -> Thoughts:
        moves = {a: Weighed(s, v) for a, (s, v) in zip(self._legal, self.figures + [(0.0, 0.0)] * len(self._legal), strict=False)}
        return Thoughts(moves, self.tries, "win")


def test_the_hint_names_a_best_move_only_when_its_range_is_clear_of_the_runner_ups() -> None:
    w = Recorded(bust([[0, 3, 6, 8], [1, 2, 4]], [5, 7]), bot_delay=0, seat=0, bots={1: "random"})
    texts = [m.text for m in w.game.legal_actions()]
    assert len(texts) >= 4
    w.hint(Teller([(0.7, 0.62), (0.2, 0.40), (0.1, 0.30)], 2000))  # 1,400 games at 62% against 400 at 40%: clear
    a = w.analysis
    assert a["chosen"] == texts[0] and a["equal"] == []
    assert a["said"][-1].startswith(f"Best: {texts[0]}, chance to win about 62% (between ") and f"; next: {texts[1]} (about 40%)" in a["said"][-1]
    w.hint(Teller([(0.4, 0.52), (0.35, 0.50), (0.25, 0.49)], 100))  # 40, 35 and 25 games: the ranges overlap
    a = w.analysis
    assert a["chosen"] is None and a["equal"] == texts[:3]
    assert a["said"][1] == (f"These three are about equal: {texts[0]} (about 52%), {texts[1]} (about 50%), {texts[2]} (about 49%). "
                            "The search cannot tell them apart: any of them is a fair choice.")
    assert "Best" not in " ".join(a["said"])


def test_the_bots_decision_shows_again_once_a_hint_on_it_is_gone() -> None:
    w = Recorded(kum.Game(["Ada", "Bo"], seed=5), bots={1: "greedy"}, bot_delay=0, reveal=True)
    w.act(w.offered[0])
    w.act("draw deck")
    bots = w.analysis
    w.hint("greedy")
    assert w.analysis["kind"] == "hint"
    w.act(w.offered[0])  # the hint's position is gone; Bo's last move still stands
    assert w.analysis == bots


def test_the_hint_stays_available_in_the_solitaire_and_a_bot_there_explains_itself() -> None:
    w = Recorded(kum.Court(seed=3), bot_delay=0)
    assert w.bot_seats == {}
    table = w.hint()
    a = w.analysis
    assert table.measure == "score" and a["kind"] == "hint" and "solitaire" in a["said"][0] and "(about 2" in a["said"][1]
    b = Recorded(kum.Court(seed=3), bots={0: "greedy"}, bot_delay=0)
    b.run_bots(2)
    assert b.bot_seats and b.analysis is not None and "rule of thumb" in " ".join(b.analysis["said"])
