"""kum.Game is the core's Session for Kings Under Mountains; `import kum_widget` stays light."""

from __future__ import annotations

import subprocess
import sys

import kum_widget as kum
from kum_widget import core


def test_game_is_a_core_session_and_passes_the_checker() -> None:
    game = kum.Game(3, seed=5)
    assert isinstance(game, core.Session) and isinstance(game.game, core.CardGame)
    assert game.num_players == 3 and game.game == kum.KingsUnderMountains()
    twin = game.clone()
    twin.apply(twin.legal_actions()[0])
    assert twin.state_id != game.state_id and game.turn == 0 and game.phase == "play"
    report = core.check_game(kum.KingsUnderMountains(), games=1)  # (a game each of the checks: test_conformance plays more)
    assert report.ok, str(report)


def test_import_is_light() -> None:
    code = (
        "import sys, time\n"
        "t = time.perf_counter()\n"
        "import kum_widget\n"
        "ms = (time.perf_counter() - t) * 1000\n"
        "heavy = [m for m in ('pandas', 'matplotlib', 'dask', 'anywidget', 'ipywidgets', 'traitlets', 'jupyter_client', 'numpy')"
        " if m in sys.modules]\n"
        "print(','.join(heavy))\n"
        "print(f'import kum_widget: {ms:.0f} ms', file=sys.stderr)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
    print(out.stderr.strip())  # the figure, for the record (never asserted: timings are not tests)
