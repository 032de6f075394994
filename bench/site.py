"""The course site (`make site`): its size on disk, part by part, and what a student waits for
in it: from opening the first notebook in a cold browser (no cache, no storage: Pyodide, its
packages and kum_widget all loaded afresh) and Run All to the board drawn, then click to board
redrawn (a move sent to the browser's Python and its answer drawn), against the greedy bot;
and an ISMCTS decision at its default budget in Pyodide, beside the same in this Python; and
ISMCTS's strength at that budget in Pyodide: its games against the greedy bot, played there and
again here with the same seeds.

Serves site/ from 127.0.0.1 under /course/ with every other host blocked, as the site test
does. Run `make site` first."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "lite"))

from _chromium import dismiss_intro, wait_board_changed  # noqa: E402
from _site_helpers import run_new_cell  # noqa: E402
from conftest import CHROMIUM_ARGS, chromium_path  # noqa: E402
from labserver import run_all, snapshot, wait_idle  # noqa: E402
from serve import serve_in_thread  # noqa: E402

from kum_widget.lab.stats import wilson  # noqa: E402

# ISMCTS (the game's default budget) deciding 20 moves of a Kings Under Mountains game, one by one:
# the median and the longest seconds a decision, as one line typed into a cell.
ISMCTS = ("import time, statistics; from kum_widget.bots import ISMCTSBot, bot_move; g = kum.Game(['a', 'b'], seed=3); "
          "bot = ISMCTSBot(seed=1); t = [(s := time.perf_counter(), g.apply(bot_move(g, bot)), time.perf_counter() - s)[2] "
          "for _ in range(20) if not g.is_over]; print(f'{statistics.median(t):.3f} {max(t):.3f}')")

# ISMCTS (default budget) against GreedyBot, Kings Under Mountains for 2: each deal played twice,
# seats swapped (as bench/bots.py plays them); one result per game (1 win, 0.5 tie, 0 loss).
STRENGTH = ("from kum_widget.bots import GreedyBot, ISMCTSBot, bot_move\n"
            "def strength_game(i):\n"
            "    seat = i % 2; ismcts = ISMCTSBot(seed=i); bots = [GreedyBot(10_000 + i), GreedyBot(20_000 + i)]; bots[seat] = ismcts\n"
            "    g = kum.Game(2, seed=900_000 + i // 2)\n"
            "    while not g.is_over: g.apply(bot_move(g, bots[g.current_player]))\n"
            "    won = g.winners(); return 1.0 if won == [seat] else 0.5 if seat in won else 0.0\n"
            "print(' '.join(str(strength_game(i)) for i in range({games})))")

PARTS = {"static/pyodide": "Pyodide (interpreter, standard library, its lock's wheels)",
         "build": "JupyterLab's application", "extensions": "front-end extensions (kernel, widgets, anywidget)",
         "pypi": "the site's wheels (kum_widget, anywidget, ipywidgets...)"}


def size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="cold browsers opened in turn (default 3)")
    parser.add_argument("--clicks", type=int, default=10, help="moves timed per round (default 10)")
    parser.add_argument("--games", type=int, default=20, help="ISMCTS's games against the greedy bot in Pyodide (default 20; 0: none)")
    args = parser.parse_args()
    site = ROOT / "site"
    if not (site / "index.html").exists():
        raise SystemExit("no site in site/: run `make site` first")

    total = size(site)
    print(f"site: {total / 1e6:.1f} MB")
    for part, what in PARTS.items():
        print(f"  {size(site / part) / 1e6:5.1f} MB  {part}/: {what}")

    from playwright.sync_api import sync_playwright

    httpd, url = serve_in_thread(site)
    firsts: list[float] = []
    clicks: list[float] = []
    ismcts: list[float] = []
    strength: list[float] = []
    strength_s = 0.0
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True)
        for _ in range(args.rounds):
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(url) else route.abort())
            page = context.new_page()
            page.set_default_timeout(300_000)
            started = time.perf_counter()
            page.goto(f"{url}lab/index.html?path=notebooks/01_play.ipynb")
            page.wait_for_selector(".jp-NotebookPanel")
            wait_idle(page, timeout=300_000)
            run_all(page)
            board = page.locator(".kum-widget[data-state-id]").first
            board.wait_for()
            firsts.append(time.perf_counter() - started)
            dismiss_intro(board)
            for _ in range(args.clicks):
                # a card, then its first target: the move goes to the kernel; timed to its redraw
                now = snapshot(board, playable="[data-playable]:not([disabled])")
                if now["over"]:
                    break
                if not now["playable"]:  # the bot's turn, or a draw to make: any move will do, untimed
                    target = board.locator("[data-action]:not([disabled])").first
                    if target.count():
                        target.click()
                    wait_board_changed(page, board, now["sid"])
                    continue
                board.locator("[data-playable]:not([disabled])").first.click()
                t = time.perf_counter()
                board.locator(".kum-lit[data-action]").first.click()
                wait_board_changed(page, board, now["sid"])
                clicks.append(time.perf_counter() - t)
            if not ismcts:
                ismcts = [float(x) for x in run_new_cell(page, ISMCTS).split()]
                if args.games:
                    t = time.perf_counter()
                    code = STRENGTH.format(games=args.games)  # typed as one line: exec of its text
                    strength = [float(x) for x in run_new_cell(page, f"exec({code!r})", timeout=3_600_000).split()]
                    strength_s = time.perf_counter() - t
            context.close()
        browser.close()
    httpd.shutdown()
    print(f"first board (cold browser, Run All): {', '.join(f'{s:.1f}' for s in firsts)} s; median {statistics.median(firsts):.1f} s")
    if clicks:
        print(f"click to board redrawn: median {statistics.median(clicks) * 1000:.0f} ms, "
              f"max {max(clicks) * 1000:.0f} ms over {len(clicks)} moves")
    here = ismcts_here()
    print(f"ISMCTS at its default budget, a Kings Under Mountains decision: median {ismcts[0]:.2f} s, longest "
          f"{ismcts[1]:.2f} s in Pyodide; {here[0]:.2f} s, {here[1]:.2f} s in this Python ({sys.version.split()[0]})")
    if strength:
        t = time.perf_counter()
        same = strength_here(len(strength))
        here_s = time.perf_counter() - t
        low, high = wilson(sum(strength), len(strength))
        print(f"ISMCTS at its default budget against the greedy bot, Kings Under Mountains for 2, {len(strength)} games "
              f"(each deal twice, seats swapped): {sum(strength):g} won in Pyodide, {sum(strength) / len(strength):.0%} "
              f"[{low:.0%}, {high:.0%}] (95% Wilson; a tie counts half), {strength_s:.0f} s; in this Python with the same "
              f"seeds {sum(same):g} won, {here_s:.0f} s; game by game {'identical' if same == strength else 'DIFFERENT: ' + str(same)}")


def strength_here(games: int) -> list[float]:
    namespace: dict[str, object] = {}
    exec("import kum_widget as kum\n" + STRENGTH.format(games=games).replace("print(", "result = ("), namespace)
    return [float(x) for x in str(namespace["result"]).split()]


def ismcts_here() -> list[float]:
    namespace: dict[str, object] = {}
    exec("import kum_widget as kum\n" + ISMCTS.replace("print(", "result = ("), namespace)
    return [float(x) for x in str(namespace["result"]).split()]


if __name__ == "__main__":
    main()
