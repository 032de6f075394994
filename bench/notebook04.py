"""The design-lab notebook at a class's size: notebooks/04_design_lab.ipynb run top to
bottom with GAMES games per variant, timed, and each cell's time printed.

    .venv/bin/python bench/notebook04.py                 # GAMES = 2000, WORKERS = 2
    .venv/bin/python bench/notebook04.py --games 800 --workers 2

The notebook is run by nbclient in a fresh kernel, as `make test` runs it (at its own
small size), with its first cell's GAMES and WORKERS replaced. The wall time counts from
the first cell to the last (the kernel's start is printed apart).
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "04_design_lab.ipynb"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    nb = nbformat.read(NOTEBOOK, as_version=4)
    first = next(c for c in nb.cells if c.cell_type == "code")
    source, n = re.subn(r"^GAMES = \d+", f"GAMES = {args.games}", first.source, flags=re.M)
    source, m = re.subn(r"^WORKERS = \d+", f"WORKERS = {args.workers}", source, flags=re.M)
    if not (n and m):
        raise SystemExit(f"{NOTEBOOK.name}: its first cell no longer sets GAMES and WORKERS")
    first.source = source
    client = NotebookClient(nb, timeout=1200, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    start = time.perf_counter()
    with client.setup_kernel():
        ready = time.perf_counter()
        times = []
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            t = time.perf_counter()
            client.execute_cell(cell, index)
            times.append((time.perf_counter() - t, cell.source.splitlines()[0][:60]))
        done = time.perf_counter()
    print(f"{NOTEBOOK.name}, GAMES = {args.games}, WORKERS = {args.workers}: "
          f"{done - ready:.1f} s for the cells (kernel start {ready - start:.1f} s)")
    for seconds, line in sorted(times, reverse=True)[:8]:
        print(f"  {seconds:6.1f} s  {line}")


if __name__ == "__main__":
    main()
