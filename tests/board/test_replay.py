"""A game you can send (issue 13): ``kum.save_replay`` writes one HTML file that replays the
record with the board's own renderer, offline; the board's text and HTML forms show the
game where no widget manager runs.

The browser tests open the files from ``file://`` in Chromium with every request that is
not the file itself aborted (and recorded: there must be none).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from _board_helpers import Recorded, send, unpack_replay
from _chromium import offline_page

import kum_widget as kum
from kum_widget.board.drawing import Viewer, board_payload
from kum_widget.board.text import board_text
from kum_widget.core.errors import GameError

HOSTILE = '<img src=x onerror="pwned=1">&amp;"M"'  # a name's limit is 40 characters


def played(game: Any, seed: int = 1, moves: int | None = None) -> Any:
    rng = random.Random(seed)
    while not game.is_over and (moves is None or game.move_number < moves):
        game.apply(rng.choice(game.legal_actions()))
    return game


# -- the file ---------------------------------------------------------------------


def test_a_replay_holds_every_position_of_the_record_for_the_full_table(tmp_path: Path) -> None:
    game = played(kum.Game(["Ada", "Bo"], seed=4))
    path = kum.save_replay(game, tmp_path / "game.html")
    assert path == tmp_path / "game.html"
    text = path.read_text(encoding="utf-8")
    (data,) = unpack_replay(text)
    assert len(data["frames"]) == game.move_number + 1
    assert [f["moves"] for f in data["frames"]] == list(range(game.move_number + 1))
    assert data["frames"][-1]["board"] == board_payload(game, Viewer("full"))
    assert data["frames"][0]["board"]["status"] == board_payload(kum.Game(["Ada", "Bo"], seed=4), Viewer("full"))["status"]
    assert data["players"] == ["Ada", "Bo"] and data["title"] == "Kings Under Mountains"
    assert len(data["log"]) == game.move_number
    # one file, nothing to fetch: a policy that forbids every request, no URL to load
    assert "Content-Security-Policy" in text and "default-src 'none'" in text
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", text)
    assert len(text) < 400_000, "a whole game packs into a few hundred KB at most"


def test_the_game_itself_is_left_as_it_was(tmp_path: Path) -> None:
    game = played(kum.Game(2, seed=9), moves=40)
    game.undo(5)  # a redo list too
    calls: list[int] = []
    game.on_change(lambda g: calls.append(g.state_id))
    before = (game.to_dict(), game.state_id, game.redo_count)
    (data,) = unpack_replay(kum.replay_html(game))
    assert (game.to_dict(), game.state_id, game.redo_count) == before and not calls
    assert len(data["frames"]) == 36  # up to the position now, not the undone moves


def test_a_seat_sees_only_its_own_hand_and_public_sees_none() -> None:
    game = played(kum.Game(["Ada", "Bo", "Cy"], seed=2), moves=30)
    for seat in range(3):
        (data,) = unpack_replay(kum.replay_html(game, seat=seat))
        for k, frame in enumerate(data["frames"]):
            assert frame["board"]["shown_seat"] == seat
            if k == len(data["frames"]) - 1:
                assert frame["board"] == board_payload(game, Viewer("seat", seat))
    (data,) = unpack_replay(kum.replay_html(game, public=True))
    assert all(f["board"]["spectator"] and f["board"]["shown_seat"] is None for f in data["frames"])
    drew = [line for line in data["log"] if re.search(r"\bdrew\b[^.]*from the deck", line)]
    assert drew and all("drew from the deck." in line for line in drew), "a deck draw names no card to the public"


def test_the_court_solitaire_replays_too(tmp_path: Path) -> None:
    game = played(kum.Court(seed=3))
    (data,) = unpack_replay(kum.save_replay(game, tmp_path / "court.html").read_text())
    assert len(data["frames"]) == game.move_number + 1
    assert data["frames"][-1]["board"] == board_payload(game, Viewer("full"))
    assert data["frames"][-1]["board"]["over"] is True


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda g, p: kum.save_replay("game", p), "takes a game such as a kum.Game"),
        (lambda g, p: kum.save_replay(g, 42), "path must be a file path, got 42"),
        (lambda g, p: kum.save_replay(g, p.parent), "is a folder"),
        (lambda g, p: kum.save_replay(g, p, seat=2), "seat must be 0..1 or None"),
        (lambda g, p: kum.save_replay(g, p, seat="0"), "seat must be 0..1"),
        (lambda g, p: kum.save_replay(g, p, seat=True), "seat must be 0..1"),
        (lambda g, p: kum.save_replay(g, p, seat=0, public=True), "not both"),
        (lambda g, p: kum.save_replay(g, p, public="yes"), "public must be True or False"),
        (lambda g, p: kum.save_replay(g, p, title=3), "title must be text"),
        (lambda g, p: kum.save_replay(kum.GameWidget(g), p), "board.save_replay(path)"),
        (lambda g, p: kum.save_replay(g, p.parent / "missing" / "x.html"), "there is no folder"),
        (lambda g, p: kum.save_replay(g, p.parent / ("x" * 300 + ".html")), "cannot save"),
        (lambda g, p: kum.save_replay(g, str(p) + "\0.html"), "cannot save"),
        (lambda g, p: kum.save_replay(g, b"out.html"), "path must be a file path"),
        (lambda g, p: kum.save_replay(g, ""), "path must be a file path"),
    ],
)
def test_bad_arguments_are_named_and_write_nothing(tmp_path: Path, call: Any, message: str) -> None:
    game = played(kum.Game(2, seed=1), moves=10)
    before = game.to_dict()
    target = tmp_path / "out.html"
    with pytest.raises(GameError, match=re.escape(message)):
        call(game, target)
    assert not target.exists() and game.to_dict() == before
    assert list(tmp_path.iterdir()) == [], "no half-written file left behind"


def test_a_failed_write_leaves_the_old_file_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "game.html"
    target.write_text("the old replay")
    real = __import__("os").replace

    def full_disk(src: Any, dst: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", full_disk)
    with pytest.raises(GameError, match="No space left"):
        kum.save_replay(played(kum.Court(seed=1), moves=3), target)
    monkeypatch.setattr("os.replace", real)
    assert target.read_text() == "the old replay" and sorted(p.name for p in tmp_path.iterdir()) == ["game.html"]


# -- the board's forms ----------------------------------------------------------------


def test_the_boards_plain_text_is_the_text_board_of_what_the_page_shows() -> None:
    w = kum.GameWidget(bots={1: "greedy"}, seed=5, bot_delay=0)
    data, metadata = w._repr_mimebundle_()
    assert set(data) == {"text/plain", "text/html", "application/vnd.jupyter.widget-view+json"}
    assert metadata == {}
    text = data["text/plain"]
    assert text == board_text(w.board, w.log_lines, last=3)
    assert text.startswith("Kings Under Mountains: ")
    own = [c for z in w.board["seats"][0]["zones"] if z["id"].startswith("hand") for c in z["cards"]]
    hands = [line.strip() for line in text.splitlines() if line.strip().startswith("Hand: ")]
    assert len(hands) == 2 and len(own) == 6
    for card in own:  # both faces of the own cards, as the board shows them
        assert f"{card['faces'][0]['title']} {card['faces'][0]['value']} / mine {card['faces'][1]['value']}" in hands[0]
    bot = re.findall(r"(?:^|, )([^,(]+)\(", hands[1].removeprefix("Hand: "))
    assert len(bot) == 6 and all(c.startswith("? / mine ") for c in bot), ("the bot's creatures stay hidden in the text too", bot)
    assert "object at 0x" not in text and repr(w).startswith("<GameWidget: Kings Under Mountains; ")


def test_a_hot_seat_board_shows_no_hand_in_any_form_even_with_a_seat_at_the_screen() -> None:
    w = Recorded(kum.Game(["Ada", "Bo"], seed=6))
    assert w.pass_to == "Ada"
    w.ready()  # Ada is at the screen: the live board shows her hand ...
    assert w.page["board"]["shown_seat"] == 0
    data, _ = w._repr_mimebundle_()  # ... but a displayed board is saved with the notebook: Bo reads it later
    assert "Hand: ?" in data["text/plain"] and not re.search(r"Hand: [a-z]", data["text/plain"])
    (shot,) = unpack_replay(data["text/html"])
    assert shot["frames"][0]["board"]["spectator"] is True and shot["frames"][0]["board"]["shown_seat"] is None


def test_a_board_its_forms_cannot_carry_still_displays_live() -> None:
    from kum_widget.core.examples import Bust

    class Odd(Bust):  # a custom game whose title no UTF-8 page can hold (a lone surrogate)
        name = "odd"
        title = "Odd \ud800"

    w = kum.GameWidget(Odd(), bots={1: "random"}, bot_delay=0)
    w.run_bots()
    data, _ = w._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data and data["text/plain"].startswith("<GameWidget: ")
    game = w.game
    with pytest.raises(GameError, match="cannot carry"):
        kum.replay_html(game)
    with pytest.raises(GameError, match="cannot carry"):
        kum.replay_html(played(kum.Game(2, seed=1), moves=2), title="\ud800")


def test_colab_display_metadata_passes_through(monkeypatch: pytest.MonkeyPatch) -> None:
    from unittest.mock import MagicMock

    fake = MagicMock()
    fake._widgets._installed_url = "https://colab.example/manager.js"
    monkeypatch.setitem(__import__("sys").modules, "google.colab.output", fake)
    w = kum.GameWidget(kum.Court(seed=1))
    data, metadata = w._repr_mimebundle_()
    assert metadata["application/vnd.jupyter.widget-view+json"]["colab"]["custom_widget_manager"]["url"] == "https://colab.example/manager.js"
    assert "text/html" in data


def test_the_replay_button_answers_with_the_file_for_the_boards_viewer() -> None:
    game = played(kum.Game(["Ada", "Bo"], seed=8), moves=12)
    w = Recorded(game, bots={1: "random"}, bot_delay=0)
    send(w, "replay", token="r1")
    answer = w.answers()[-1]
    assert answer["id"] == "r1" and re.fullmatch(r"kings-under-mountains_Ada-Bo_\d{4}-\d\d-\d\d-\d{4}\.html",
                                                 answer["filename"])
    (data,) = unpack_replay(answer["replay"])
    assert {f["board"]["shown_seat"] for f in data["frames"]} == {0}
    assert w.game.to_dict() == game.to_dict() and w.error == ""
    send(w, "replay", token="r2", extra=1)  # hostile: a field the message does not take
    assert w.answers()[-1]["id"] == "r2" and "replay" not in w.answers()[-1] and "unknown field" in w.error


# -- in Chromium, offline --------------------------------------------------------------


def scores_shown(page: Any) -> list[int]:
    cells = page.locator(".kum-over td[data-score]")
    return [int(cells.nth(k).inner_text()) for k in range(cells.count())]


@pytest.mark.parametrize("which", ["kum", "court"])
def test_the_file_replays_offline_in_chromium(browser: Any, artifacts: Path, tmp_path: Path, which: str) -> None:
    names = ["Ada", HOSTILE] if which == "kum" else None
    game = played(kum.Game(names, seed=12) if which == "kum" else kum.Court(seed=12, player=HOSTILE))
    path = kum.save_replay(game, tmp_path / f"{which}.html")
    page, requests, errors = offline_page(browser, path)
    host = page.locator(".kum-replay")
    n = game.move_number
    assert host.get_attribute("data-step") == "0" and host.get_attribute("data-steps") == str(n)
    assert page.locator(".kum-replay-counter").inner_text() == f"Step 0 of {n}"
    page.screenshot(path=str(artifacts / f"replay-{which}-start.png"), full_page=True)
    page.keyboard.press("ArrowRight")  # the keys work as the file opens, before any click
    assert host.get_attribute("data-step") == "1"
    page.keyboard.press("Home")
    # buttons, keyboard and slider
    page.click("[data-control='next']")
    page.click("[data-control='next']")
    assert host.get_attribute("data-step") == "2"
    page.click("[data-control='prev']")
    assert host.get_attribute("data-step") == "1"
    host.focus()
    page.keyboard.press("ArrowRight")
    assert host.get_attribute("data-step") == "2"
    page.locator("input[type='range']").fill(str(n // 2))
    assert host.get_attribute("data-step") == str(n // 2)
    assert page.locator(".kum-widget").get_attribute("data-state-id") == str(n // 2)
    host.focus()
    page.keyboard.press("End")
    assert host.get_attribute("data-step") == str(n)
    assert page.locator("[data-control='next']").is_disabled() and page.locator("[data-control='last']").is_disabled()
    # the final position and scores are the game's
    assert scores_shown(page) == [int(s) for s in game.scores()]
    assert page.locator(".kum-status").inner_text() == board_payload(game, Viewer("full"))["status"]
    assert page.locator(".kum-replay-caption").inner_text() == game_log_last(game)
    # names are text: the hostile one shows as written and runs nothing
    if names:
        assert HOSTILE in page.locator(".kum-widget").inner_text()
    else:
        assert HOSTILE in page.locator(".kum-seat .kum-name").inner_text()
    assert page.evaluate("() => window.pwned") is None and page.locator(".kum-widget img").count() == 0
    page.keyboard.press("Home")
    assert host.get_attribute("data-step") == "0"
    # a button that disables itself keeps the keyboard in the replay
    page.focus("[data-control='next']")
    page.keyboard.press("Enter")
    page.focus("[data-control='last']")
    page.keyboard.press("Enter")
    assert host.get_attribute("data-step") == str(n)
    page.keyboard.press("ArrowLeft")
    assert host.get_attribute("data-step") == str(n - 1)
    page.keyboard.press("End")
    page.screenshot(path=str(artifacts / f"replay-{which}-end.png"), full_page=True)
    assert requests == [] and errors == []
    page.close()


def game_log_last(game: Any) -> str:
    words = [game.describe(e, None) for e in game.logs[-1]]
    return " ".join(w for w in words if w)


def test_play_runs_through_to_the_end(browser: Any, tmp_path: Path) -> None:
    game = played(kum.Court(seed=5), moves=4)
    page, requests, errors = offline_page(browser, kum.save_replay(game, tmp_path / "p.html"))
    page.locator(".kum-replay").focus()
    page.keyboard.press("p")
    assert page.locator("[data-control='play']").get_attribute("aria-pressed") == "true"
    page.wait_for_selector(".kum-replay[data-step='4']")  # 4 steps of 0.9 s
    assert page.locator("[data-control='play']").get_attribute("aria-pressed") == "false"
    assert requests == [] and errors == []
    page.close()


def test_any_game_on_the_shell_replays(tmp_path: Path) -> None:
    from kum_widget.core.examples import Bust
    from kum_widget.core.session import new_session

    game = played(new_session(Bust(), ["Ann", "Ben"], seed=3))
    (data,) = unpack_replay(kum.save_replay(game, tmp_path / "bust.html", public=True).read_text())
    assert len(data["frames"]) == game.move_number + 1 and data["title"] == "Bust"
    assert data["frames"][-1]["board"] == board_payload(game, Viewer("public"))
    assert all("drew a card." in line for line in data["log"] if " drew " in line), "the public reads no drawn card"
