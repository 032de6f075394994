"""Issue 35, the kernel's side, continued: the board's ``intro`` and ``outcome`` (the game's
words, else who won), the court's counters saying what they count, replay files (no hint
addressed to a player; a speed control, in Chromium), and GAMES.md's examples."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from _board_helpers import Recorded, unpack_replay, zone
from _chromium import new_page
from _paths import ROOT
from test_board_insight import OVERSEER_2, bust, kum_game

import kum_widget as kum
from kum_widget import core
from kum_widget.board.text import board_text
from kum_widget.bots import analyse
from kum_widget.core.board import board_problems
from kum_widget.core.examples import Bust
from kum_widget.games.court import CourtOfTheThreeClans

# -- 4. the board's intro and outcome ---------------------------------------------------------------


def test_every_game_says_who_won_and_the_games_say_more() -> None:
    session = bust([[0], [1]], [], pile=(8, 17, 10))  # the pile at 20: Ada plays a 1 (21), Bo a 2 and busts
    session.apply("play 1")
    session.apply("play 2")
    board = Recorded(session, bot_delay=0).board
    assert board["over"] and board["outcome"] == "Ada wins with 1 point; Bo 0."
    assert board_text(board).splitlines()[1] == board["outcome"]  # the text board says it too
    game = kum.Game(["Ada", "Bo", "Cy"], seed=5)
    rng = random.Random(2)
    assert "outcome" not in Recorded(game, bot_delay=0, reveal=True).board
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    said = Recorded(game, bot_delay=0, reveal=True).board["outcome"]
    won = game.players[game.winners()[0]]
    assert said.startswith(f"{won} wins with {game.scores()[game.winners()[0]]} points (") and "for mines claimed and not developed" in said
    assert all(name in said for name in game.players)
    court = kum.Court(seed=3)
    while not court.is_over:
        court.apply(rng.choice(court.legal_actions()))
    said = Recorded(court).board["outcome"]
    assert said.startswith("The game ended when ") and f"Final score {int(court.scores()[0])} (" in said and court.rank() in said


def test_the_games_give_a_first_time_panel_and_the_schema_checks_it() -> None:
    for board in (Recorded(kum.Game(["Ada", "Bo"], seed=1), bot_delay=0).board, Recorded(kum.Court(seed=1)).board):
        intro = board["intro"]
        assert intro["title"].endswith("how to play") and len(intro["paragraphs"]) == 4
    kum_intro = " ".join(Recorded(kum.Game(["Ada", "Bo"], seed=1), bot_delay=0).board["intro"]["paragraphs"])
    assert "Claim mines, then develop them" in kum_intro and "counts its points against you" in kum_intro and "two faces" in kum_intro
    court_intro = " ".join(Recorded(kum.Court(seed=1)).board["intro"]["paragraphs"])
    assert "Golden Age from 75" in court_intro and "Reading a card" in court_intro
    assert board_problems({"intro": {"title": "T", "paragraphs": ["a"]}, "outcome": "x"}, 1)[0] == []
    problems, _ = board_problems({"intro": {"title": "T", "paragraphs": "a"}, "outcome": 3}, 1)
    assert any("paragraphs" in p for p in problems) and any("'outcome' must be text" in p for p in problems)


# -- 4. the court's counters say what they count -----------------------------------------------------


def test_the_courts_counters_rank_and_prices_say_what_they_are() -> None:
    game = CourtOfTheThreeClans()
    setup = game.board(game.view(game.setup(1, random.Random(1)), 0), 0)
    assert setup["seats"][0]["badges"][0]["text"] == "verdict at the end"  # not "Overthrown" before a card is chosen
    s = game.scenario(["earth courtesan 6", "sun tax collector 2", None, None],
                      ["moon poet 5", "sun general 3", None, None, "earth minister 4", *[None] * 3], cp=3)
    view = game.view(s, 0)
    board = game.board(view, 0)
    assert board is not None
    counters = {c["label"]: c for c in board["seats"][0]["counters"]}
    assert list(counters) == ["CP", "princes' VP", "score so far"]
    parts = view["breakdown"]
    assert counters["score so far"]["title"] == ("the score if the game ended now: "
                                                 f"{view['score']} = princes +0, court VP +{parts['court']:d}, powers +{parts['powers']:d}, "
                                                 f"CP left +{parts['cp']:d}, daemons' court +0")
    rank = board["seats"][0]["badges"][0]
    assert rank["text"] == f"{view['rank']} so far" and "Troubled Reign from 25, Prosperous Reign from 50, Golden Age from 75" in rank["title"]
    assert zone(board, "place 1")["badges"][0] == {"text": "price 6 CP", "color": "gray", "title": "Its price: costs 6 CP now (printed 6): you have 3 CP"}
    labels = {c["label"] for z in [*board["zones"], *board["seats"]] for c in z.get("counters", [])}
    assert "VP" not in labels and {"court VP", "VP won", "VP lost"} <= labels  # each says which VP it counts


# -- 5. replay files ---------------------------------------------------------------------------------


class Hinted(Bust):
    name = "hinted"

    def board(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
        board = super().board(view, seat)
        board["zones"][1]["hint"] = "your turn to beat 21"
        return board


def test_a_replay_for_everyone_holds_no_hint_addressed_to_a_player() -> None:
    session = core.Session(Hinted(), ["Ann", "Ben"], seed=3)
    for _ in range(4):
        session.apply(session.legal_actions()[0])
    for kwargs, hinted in (({}, False), ({"public": True}, False), ({"seat": 0}, True)):
        (data,) = unpack_replay(kum.replay_html(session, **kwargs))
        assert all(("your turn to beat 21" in json.dumps(f["board"])) == hinted for f in data["frames"]), kwargs
    game = kum_game([["orc 3", "goblin 8"], ["giant 1"]], [["dwarf 2"], ["giant 9"], ["giant 9"], ["dwarf 9"]],
                    [[{"mine": OVERSEER_2[0], "stack": ["goblin 3", "dwarf 5"]}], []])
    for kwargs, hinted in (({}, False), ({"seat": 1}, False), ({"seat": 0}, True)):  # KUM speaks to the mine's owner only
        (data,) = unpack_replay(kum.replay_html(game, **kwargs))
        assert ("needs your own race on top" in json.dumps(data["frames"][0]["board"])) == hinted, kwargs


def test_the_replays_speed_control_plays_faster_in_chromium(browser: Any, tmp_path: Path) -> None:
    rng = random.Random(1)
    game = kum.Court(seed=5)
    while game.move_number < 12:
        game.apply(rng.choice(game.legal_actions()))
    path = kum.save_replay(game, tmp_path / "speed.html")
    page = new_page(browser, width=1100, height=900)
    # the replay's steps on a clock the test runs forward: the speed is measured, not this machine's load
    page.clock.install(time=0)
    page.clock.pause_at(1000)
    page.goto(path.as_uri())
    page.wait_for_selector(".kum-replay[data-ready='true'] .kum-widget[data-state-id]")
    speed = page.locator("[data-control='speed']")
    assert speed.input_value() == "1" and speed.get_attribute("aria-label").startswith("Speed")
    speed.select_option("4")
    page.click("[data-control='play']")
    page.clock.run_for(8 * 900 // 4)  # at 1x: 2 steps
    assert page.locator(".kum-replay").get_attribute("data-step") == "8"
    page.locator(".kum-replay").focus()
    page.keyboard.press("-")
    assert speed.input_value() == "2"
    page.keyboard.press("+")
    page.keyboard.press("+")
    assert speed.input_value() == "4"  # the fastest: no further
    page.close()


# -- 6. GAMES.md's examples do what the page says -------------------------------------------------


def games_md(section: str) -> list[str]:
    text = (ROOT / "GAMES.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text.split(section, 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0], re.S)


def test_the_pages_why_not_and_bot_examples_work() -> None:
    scope: dict[str, Any] = {}
    exec(compile(games_md("\n### Why not")[0], "GAMES.md", "exec"), scope)
    spoken = type("DocBust", (Bust,), {"why_not": scope["why_not"]})
    w = Recorded(bust([[0, 9, 3], [1, 2, 4]], [5, 6, 7], spoken()), bots={1: "random"}, bot_delay=0)
    assert w.why_not == {"card 9": "you play one card of each value: the board offers the lower of two alike"}
    scope = {}
    exec(compile(games_md("\n## What a bot thought")[1], "GAMES.md", "exec"), scope)
    game = kum.Game(["Ada", "Bo"], seed=3)
    table = analyse(game, scope["Cautious"]())
    assert table.bot == "Cautious" and table.measure == "heuristic" and table.moves[-1].action == table.chosen
    assert table.moves[-1].value == 0.0 and table.moves[0].value == 1.0
