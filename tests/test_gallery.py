"""The gallery (examples/): small teaching games, each a whole game in one file under about
150-170 lines. Each passes the checker and plays in the lab with every kind of bot; the
e2e suite (test_e2e_gallery.py) plays them by clicking in JupyterLab."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

import kum_widget as kum
from kum_widget.core import CardGame, check_game

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
sys.path.insert(0, str(EXAMPLES))

GALLERY = {  # module: (class, what it teaches)
    "undercut": ("Undercut", "simultaneous choices"),
    "connect_four": ("ConnectFour", "a grid with tokens"),
    "whispers": ("Whispers", "targeted effects between players, choice menus, notes to two seats"),
    "workers": ("Woodcutters", "worker placement: places that hold pieces"),
}


def game_of(module: str) -> CardGame:
    cls: type[CardGame] = getattr(importlib.import_module(module), GALLERY[module][0])
    return cls()


def test_the_gallery_is_every_example() -> None:
    assert {p.stem for p in EXAMPLES.glob("*.py") if not p.stem.startswith("_")} == set(GALLERY)


@pytest.mark.parametrize("module", sorted(GALLERY))
def test_each_example_is_short_and_passes_the_checker(module: str) -> None:
    assert len((EXAMPLES / f"{module}.py").read_text().splitlines()) <= 175
    game = game_of(module)
    for players in range(game.min_players, game.max_players + 1):
        report = check_game(game, games=15, players=players)
        assert report.ok, str(report)


@pytest.mark.parametrize("module", sorted(GALLERY))
def test_each_example_runs_in_the_lab_with_every_bot(module: str) -> None:
    game = game_of(module)
    bots: Any = ("random", "greedy") if game.perfect_information else ("random", "random")
    df = kum.simulate(30, game=game, bots=bots, seed=1, progress=False)
    assert len(df) == 30 and set(df["players"]) == {game.min_players}
    ismcts = kum.simulate(4, game=game, bots=(lambda s: kum.bots.ISMCTSBot(iterations=60, seed=s), "random"),
                          seed=2, progress=False)
    assert len(ismcts) == 4 and ismcts["actions"].min() > 0


@pytest.mark.parametrize("module", sorted(GALLERY))
def test_each_example_is_found_by_name_once_imported(module: str) -> None:
    game = game_of(module)
    assert kum.core.game_class(game.name) is type(game)
    assert kum.GameWidget(game.name, players=game.min_players, seed=1).board["title"] == game.title
