"""Board latency in a real JupyterLab: click to confirmed re-render, measured in the page.

    python bench/latency.py [--moves 40] [--server both] [--json-only] [--no-state-size]

For each of two servers (with the project's TCP_NODELAY config, and stock; ``--server``
picks one), opens a
hot-seat board with every hand revealed (so every click is a human move, no bots),
clicks through ``--moves`` moves, and measures inside the page, with
performance.now(), from the click to the render that shows the new state id. Also
reports the bytes the page received over the kernel websocket per move, the time
from selecting a card to its targets lighting up (no kernel round trip), and (unless
``--no-state-size``) the synced state's size a move, measured in this process. The board is
made through the public API only (``kum.GameWidget``, ``kum.Game``), so the same harness
measures an earlier revision's package (against.py, latency_against.py).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from _chromium import dismiss_intro  # noqa: E402
from conftest import CHROMIUM_ARGS, chromium_path  # noqa: E402
from labserver import LabServer, code_cell, open_notebook, run_all  # noqa: E402

BOARD = 'import kum_widget as kum\nboard = kum.GameWidget(kum.Game(["Ada", "Bo"], seed=5), reveal=True)\nboard'

# Runs in the page: click, then resolve when the board has rendered a new state id.
CLICK_AND_WAIT = """async (selector) => {
  const root = document.querySelector('.kum-widget');
  const before = root.dataset.stateId;
  const done = new Promise((resolve) => {
    const onRender = (e) => {
      if (String(e.detail.stateId) !== before) { root.removeEventListener('kum-rendered', onRender); resolve(e.detail); }
    };
    root.addEventListener('kum-rendered', onRender);
  });
  const t0 = performance.now();
  document.querySelector(selector).click();
  const d = await done;
  return [d.renderedAt - t0, d.arrivedAt - d.sentAt, d.renderedAt - d.arrivedAt, d.sentAt - t0];
}"""

SELECT_AND_LIGHT = """() => {
  const card = document.querySelector('.kum-widget [data-playable]');
  if (!card) return null;
  const t0 = performance.now();
  card.click();
  const lit = document.querySelectorAll('.kum-widget .kum-target[data-action]').length;
  const dt = performance.now() - t0;
  card.click();  // deselect again
  return lit ? dt : null;
}"""


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    k = (len(values) - 1) * p
    lo = int(k)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def measure(browser, nodelay: bool, moves: int) -> dict:  # type: ignore[no-untyped-def]
    nb = {"cells": [code_cell(BOARD)], "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}, "nbformat": 4, "nbformat_minor": 5}
    with LabServer({"latency.ipynb": nb}, nodelay=nodelay) as lab:
        page = browser.new_page(viewport={"width": 1280, "height": 1100})
        received: list[int] = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: received.append(len(payload))))
        open_notebook(page, lab, "latency.ipynb")
        run_all(page)
        page.wait_for_selector(".kum-widget[data-state-id]", timeout=60_000)
        dismiss_intro(page.locator(".kum-widget").first)  # the first-time panel lies over the table
        page.wait_for_timeout(1000)
        latencies: list[float] = []
        payloads: list[int] = []
        light: list[float] = []
        trips: list[float] = []
        renders: list[float] = []
        sends: list[float] = []
        for _ in range(moves):
            if page.locator(".kum-widget .kum-over").count():
                break
            draw = page.locator('.kum-widget [data-zone="deck"][data-action], .kum-widget [data-zone^="camp "][data-action], .kum-widget [data-zone^="hand "] [data-action]')
            if draw.count():
                selector = '.kum-widget [data-zone="deck"][data-action], .kum-widget [data-zone^="camp "][data-action], .kum-widget [data-zone^="hand "] [data-action]'
            else:
                dt = page.evaluate(SELECT_AND_LIGHT)
                if dt is not None:
                    light.append(dt)
                page.locator(".kum-widget [data-playable]").first.click()
                selector = ".kum-widget .kum-target[data-action]"
            start = len(received)
            total, trip, render, before_send = page.evaluate(CLICK_AND_WAIT, selector)
            sends.append(before_send)
            latencies.append(total)
            trips.append(trip)
            renders.append(render)
            page.wait_for_timeout(150)  # let the busy/idle status messages land before the next count
            payloads.append(sum(received[start:]))
        page.close()
    return {
        "server": "tcp_nodelay" if nodelay else "stock",
        "moves": len(latencies),
        "median_ms": round(statistics.median(latencies), 1),
        "p95_ms": round(pct(latencies, 0.95), 1),
        "max_ms": round(max(latencies), 1),
        "round_trip_median_ms": round(statistics.median(trips), 1),
        "render_median_ms": round(statistics.median(renders), 1),
        "round_trip_p95_ms": round(pct(trips, 0.95), 1),
        "render_p95_ms": round(pct(renders, 0.95), 1),
        "click_to_send_median_ms": round(statistics.median(sends), 2),
        "ws_bytes_per_move_median": int(statistics.median(payloads)),
        "ws_bytes_per_move_max": max(payloads),
        "select_to_targets_ms_max": round(max(light), 2) if light else None,
        "latencies_ms": [round(x, 2) for x in latencies],  # each move's, for pooling runs (latency_against.py)
    }


def synced_bytes() -> dict:
    """Size of the synced traits after each move, from the kernel side (JSON)."""
    import random

    import kum_widget as kum

    w = kum.GameWidget(kum.Game(["Ada", "Bo"], seed=5), reveal=True)
    rng = random.Random(1)
    sizes = []
    names = ["board", "legal", "log_lines", "error", "state_id", "last_move", "pass_to"]
    while not w.game.is_over:
        w.act(rng.choice(w.game.legal_actions()))
        sizes.append(len(json.dumps({n: getattr(w, n) for n in names})))
    return {"state_bytes_median": int(statistics.median(sizes)), "state_bytes_max": max(sizes)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--server", choices=("both", "tcp_nodelay", "stock"), default="both")
    ap.add_argument("--json-only", action="store_true")
    ap.add_argument("--no-state-size", action="store_true", help="leave out the synced state's size")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    results = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        for nodelay in (True, False):
            if args.server in ("both", "tcp_nodelay" if nodelay else "stock"):
                results.append(measure(browser, nodelay, args.moves))
        browser.close()
    out = {"runs": results, **({} if args.no_state_size else synced_bytes())}
    print(json.dumps(out))
    if not args.json_only:
        for r in results:
            print(
                f"{r['server']:>11}: click to re-render median {r['median_ms']} ms, p95 {r['p95_ms']} ms, max {r['max_ms']} ms "
                f"over {r['moves']} moves (round trip {r['round_trip_median_ms']} ms + render {r['render_median_ms']} ms; 95th percentiles {r['round_trip_p95_ms']} and {r['render_p95_ms']} ms); websocket {r['ws_bytes_per_move_median']} B/move (max {r['ws_bytes_per_move_max']}); "
                f"select to lit targets <= {r['select_to_targets_ms_max']} ms"
            )
        if not args.no_state_size:
            print(f"synced state per move: median {out['state_bytes_median']} B, max {out['state_bytes_max']} B")


if __name__ == "__main__":
    main()
