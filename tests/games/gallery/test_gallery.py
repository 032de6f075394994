"""The gallery (kum_widget/gallery/): small teaching games, each a whole game in one module
of at most 130 lines of code (its docstrings, comments and help text for the player aside). Each is installed as a game by name (an entry point, as the
shipped games), passes the checker and plays in the lab with every kind of bot; the e2e
suite (test_e2e_gallery.py) plays them by clicking in JupyterLab."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import tomllib
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest
from _gallery_helpers import HELP, code_lines
from _paths import ROOT

import kum_widget as kum
from kum_widget.core import CardGame, check_game

GALLERY_DIR = ROOT / "kum_widget" / "gallery"
STDLIB = set(sys.stdlib_module_names) | {"__future__"}

GALLERY = {  # module: (class, its name, what it teaches)
    "undercut": ("Undercut", "undercut", "simultaneous choices"),
    "connect_four": ("ConnectFour", "connect-four", "a grid with tokens"),
    "whispers": ("Whispers", "whispers", "targeted effects between players, choice menus, notes to two seats"),
    "workers": ("Woodcutters", "woodcutters", "worker placement: places that hold pieces"),
}


def game_of(module: str) -> CardGame:
    cls: type[CardGame] = getattr(importlib.import_module(f"kum_widget.gallery.{module}"), GALLERY[module][0])
    return cls()


def test_the_gallery_is_every_module_of_the_package() -> None:
    assert {p.stem for p in GALLERY_DIR.glob("*.py") if not p.stem.startswith("_")} == set(GALLERY)
    import kum_widget.gallery as gallery

    assert sorted(gallery.__all__) == sorted(cls for cls, _, _ in GALLERY.values())


@pytest.mark.parametrize("module", sorted(GALLERY))
def test_each_game_is_short_and_passes_the_checker(module: str) -> None:
    assert code_lines(GALLERY_DIR / f"{module}.py") <= 130, module
    game = game_of(module)
    for players in range(game.min_players, game.max_players + 1):
        report = check_game(game, games=15, players=players)
        assert report.ok, str(report)


def test_the_length_counts_code_and_not_help_text(tmp_path: Path) -> None:
    """A game's help text (its ``how_to_play``), docstrings and comments are free; code is not."""
    game = tmp_path / "game.py"
    game.write_text('"""A game."""\n\nclass G:\n    """Its rules."""\n\n    x = 1  # why\n    y = (\n        2)\n')
    assert code_lines(game) == 4
    help_text = f"\n    def {HELP}(self):\n        return {{'intro': 'text'\n                          ' more'}}\n"
    game.write_text(game.read_text() + help_text)
    assert code_lines(game) == 4
    game.write_text(game.read_text() + "\n    def more(self):\n        return 1\n")
    assert code_lines(game) == 6


@pytest.mark.parametrize("module", sorted(GALLERY))
def test_each_game_is_written_as_a_student_would_copy_it(module: str) -> None:
    """The standard library and kum_widget's core only (what GAMES.md teaches), imported
    absolutely, so the file works as it is outside the package too."""
    tree = ast.parse((GALLERY_DIR / f"{module}.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{module}: a relative import"
            names = [node.module or ""]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            assert name.split(".")[0] in STDLIB or name == "kum_widget" or name.startswith("kum_widget.core"), f"{module} imports {name}"


@pytest.mark.parametrize("module", sorted(GALLERY))
def test_each_game_runs_in_the_lab_with_every_bot(module: str) -> None:
    game = game_of(module)
    bots: Any = ("random", "greedy") if game.perfect_information else ("random", "random")
    df = kum.simulate(30, game=game, bots=bots, seed=1, progress=False)
    assert len(df) == 30 and set(df["players"]) == {game.min_players}
    ismcts = kum.simulate(4, game=game, bots=(lambda s: kum.bots.ISMCTSBot(iterations=60, seed=s), "random"),
                          seed=2, progress=False)
    assert len(ismcts) == 4 and ismcts["actions"].min() > 0


@pytest.mark.parametrize("module", sorted(GALLERY))
def test_each_game_is_an_entry_point_named_as_the_game(module: str) -> None:
    cls_name, name, _ = GALLERY[module]
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]["kum_widget.games"]
    assert declared[name] == f"kum_widget.gallery.{module}:{cls_name}"
    installed = {point.name: point.value for point in entry_points(group="kum_widget.games")}
    assert installed.get(name) == declared[name], "the installed package is older than pyproject.toml: reinstall it (make env)"
    game = game_of(module)
    assert game.name == name
    assert kum.core.game_class(name) is type(game)
    assert kum.GameWidget(game=name, players=game.min_players, seed=1).board["title"] == game.title


def test_a_gallery_game_is_found_by_name_with_nothing_imported_first() -> None:
    """As the README shows: after `pip install`, a name is all the board and the lab need."""
    code = (
        "import sys\n"
        "import kum_widget as kum\n"
        "assert 'kum_widget.gallery' not in sys.modules\n"
        "board = kum.GameWidget(game='connect-four', bot_delay=0)\n"
        "r = kum.lab.report('connect-four', games=6, ladder=False, what_wins_games=2, luck_games=2, progress=False)\n"
        "print(board.game.title, '|', r.readings()['luck'])\n"
        "from kum_widget.gallery import ConnectFour\n"
        "assert type(board.game.game) is ConnectFour\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False, cwd=ROOT.parent)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Connect Four | "), out.stdout
