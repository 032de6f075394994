"""Help for every game (issue 42, item 7), the kernel's side: a game declares its intro and its
rules text once (``CardGame.how_to_play``) and the board is sent them (the board keys ``intro``
and ``rules``, which the board's "?" opens); the gallery's games declare theirs; a status line
ends at game over (the board's game-over line, not the game's "Round 5 of 5")."""

from __future__ import annotations

from typing import Any

import pytest
from _board_helpers import Recorded

from kum_widget import core
from kum_widget.board.drawing import Viewer, board_payload
from kum_widget.core.help_text import HELP_CHARS, PARAGRAPH_CHARS
from kum_widget.gallery import ConnectFour, Undercut, Whispers, Woodcutters


class Told(core.CardGame):
    """A one-move game that says how to play it in whatever ``said`` holds."""

    name, title = "told", "Told"
    min_players = max_players = 1
    perfect_information = True
    said: Any = None

    def setup(self, players: int, rng: Any) -> dict[str, Any]:
        return {"done": False}

    def current_player(self, s: dict[str, Any]) -> int:
        return 0

    def legal_actions(self, s: dict[str, Any]) -> list[int]:
        return [] if s["done"] else [0]

    def apply(self, s: dict[str, Any], a: int) -> list[str]:
        s["done"] = True
        return ["Done."]

    def is_over(self, s: dict[str, Any]) -> bool:
        return bool(s["done"])

    def scores(self, s: dict[str, Any]) -> list[float]:
        return [3.0]

    def view(self, s: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return dict(s)

    def board(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return {"status": "Step 1 of 1", "zones": [{"id": "table", "label": "Table"}]}

    def how_to_play(self) -> Any:
        return self.said


def told(said: Any) -> Told:
    game = Told()
    game.said = said
    return game


def test_a_games_intro_and_rules_go_to_the_board_as_paragraphs() -> None:
    w = Recorded(told({"intro": "The goal: be done.\n\n  One move:\n  make it.  ", "rules": ["First.", "Then  second."]}))
    assert w.board["intro"] == {"title": "Told: how to play", "paragraphs": ["The goal: be done.", "One move: make it."]}
    assert w.board["rules"] == {"title": "The rules", "paragraphs": ["First.", "Then second."]}
    assert "rules" not in Recorded(told({"intro": "Only this."})).board
    assert {"intro", "rules"}.isdisjoint(Recorded(told(None)).board)  # nothing declared: the board's "?" shows its keys alone


@pytest.mark.parametrize("said", [["a list"], "just text", 7, {"intro": 7}, {"intro": 3}, {"rules": ["ok", 4]}, {"how": "what"}])
def test_a_bad_help_is_named(said: Any) -> None:
    with pytest.raises(core.GameError, match=r"Told: how_to_play\(\)"):
        Recorded(told(said))


class Broken(Told):
    def how_to_play(self) -> Any:
        return {"intro": {}["missing"]}


def test_a_how_to_play_that_raises_is_a_game_fault_naming_the_game_and_the_hook() -> None:
    with pytest.raises(core.GameFault, match=r"^Told: how_to_play\(\) raised KeyError: 'missing', at tests/board/test_widget_help\.py:\d+"):
        Recorded(Broken())


def test_a_huge_help_text_is_cut_per_paragraph_and_in_total() -> None:
    w = Recorded(told({"intro": "x" * 2_000_000, "rules": ["word " * 1_000] * 1_000}))
    intro, rules = w.board["intro"]["paragraphs"], w.board["rules"]["paragraphs"]
    assert len(intro) == 1 and len(intro[0]) == PARAGRAPH_CHARS and intro[0].endswith("...")
    assert all(len(p) <= PARAGRAPH_CHARS for p in rules)
    assert len("".join(rules)) <= HELP_CHARS < len("word " * 1_000) * 1_000


def test_a_board_that_gives_its_own_intro_keeps_it() -> None:
    board = Recorded(bots={1: "greedy"}, seed=1, bot_delay=0).board
    assert board["intro"]["title"] == "Kings Under Mountains: how to play"  # kum/board.py's own


@pytest.mark.parametrize("game", [Undercut, ConnectFour, Whispers, Woodcutters])
def test_every_gallery_game_says_how_to_play_it(game: type[core.CardGame]) -> None:
    w = Recorded(game(), bots={1: "random"}, bot_delay=0)
    intro, rules = w.board["intro"], w.board["rules"]
    assert intro["title"] == f"{game.title}: how to play" and 1 <= len(intro["paragraphs"]) <= 4
    assert len(" ".join(intro["paragraphs"])) < 900  # short: the board opens it the first time
    assert len(rules["paragraphs"]) >= 2 and len(" ".join(rules["paragraphs"])) > len(" ".join(intro["paragraphs"]))


def test_the_status_line_ends_at_game_over() -> None:
    game = core.Session(Undercut(), ["Ada", "Bo"], seed=1)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    status = board_payload(game, Viewer("seat", 0))["status"]
    assert "Round" not in status and status.startswith("Game over"), status
    solo = core.Session(told(None), ["Ada"], seed=1)
    solo.apply(0)
    assert board_payload(solo, Viewer("seat", 0))["status"] == "Game over: final score 3."
    assert board_payload(core.Session(told(None), ["Ada"], seed=1), Viewer("seat", 0))["status"] == "Step 1 of 1"  # the game's own, while it lasts


def test_a_status_line_that_speaks_of_the_game_over_is_the_games_own() -> None:
    import kum_widget as kum

    court = kum.Court(seed=2)
    while not court.is_over:
        court.apply(court.legal_actions()[0])
    status = board_payload(court, Viewer("seat", 0))["status"]
    assert status.startswith("Game over after turn") and "points" in status, status  # its score and rank, not a generic line
