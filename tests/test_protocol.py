"""kum.Game implements the game-agnostic protocol; `import kum_widget` stays light."""

from __future__ import annotations

import subprocess
import sys

import kum_widget as kum
from kum_widget.protocol import GameState


def test_game_implements_protocol() -> None:
    game = kum.Game(3, seed=5)
    assert isinstance(game, GameState)
    assert game.num_players == 3
    twin = game.clone()
    twin.apply(twin.legal_actions()[0])
    assert twin.state_id != game.state_id and game.turn == 0 and game.phase == "play"


def test_import_is_light() -> None:
    code = (
        "import sys, kum_widget\n"
        "heavy = [m for m in ('pandas', 'matplotlib', 'dask', 'anywidget', 'ipywidgets', 'jupyter_client', 'numpy')"
        " if m in sys.modules]\n"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
