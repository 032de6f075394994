"""The design report and notebook 07, this tree against an earlier commit, in the same minutes.

    python bench/report_against.py [--rev bd02788] [--rounds 1] [--skip-notebook]

Checks ``--rev`` out into a temporary git worktree (checkout.py), then times, on each tree in turn
(``--rounds`` times):

- the Kings Under Mountains 2-player report at its defaults, in this process (one core):
  ``kum.lab.report("kings-under-mountains", progress=False)``, and where its time goes;
- notebook 07 (``notebooks/07_design_report.ipynb``) run top to bottom with its own
  parameters (``nbclient``; 2 worker processes), cell by cell.

Each run is a fresh interpreter (or kernel) whose ``PYTHONPATH`` names the tree, so each
tree's own package runs; interleaving them puts both under the same load. Prints the figures
as they come, then one JSON object. Asserts nothing. The goals (issue 41): the report under
30 s, the notebook under 60 s, on this 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from checkout import ROOT, importing, worktree  # bench/ is the script's folder

REPORT = """
import json, time
import kum_widget as kum
t0 = time.perf_counter()
r = kum.lab.report("kings-under-mountains", progress=False)
wall = time.perf_counter() - t0
print(json.dumps({"wall_s": round(wall, 1), "parts_s": {k: round(v, 1) for k, v in r.timings.items()}}))
"""

NOTEBOOK = """
import json, sys, time
import nbformat
from nbclient import NotebookClient
path = sys.argv[1]
nb = nbformat.read(path, as_version=4)
client = NotebookClient(nb, timeout=1800, kernel_name="python3", resources={"metadata": {"path": sys.argv[2]}})
cells = []
t0 = time.perf_counter()
with client.setup_kernel():
    for i, cell in enumerate(nb.cells):
        t = time.perf_counter()
        client.execute_cell(cell, i)
        if cell.cell_type == "code":
            cells.append(round(time.perf_counter() - t, 1))
print(json.dumps({"wall_s": round(time.perf_counter() - t0, 1), "cells_s": cells}))
"""


def run(tree: Path, code: str, *args: str) -> dict[str, Any]:
    """``code`` in a fresh interpreter that imports ``tree``'s package; its last line, as JSON."""
    env = {**importing(tree), "MPLBACKEND": "Agg"}
    out = subprocess.run([sys.executable, "-c", code, *args], cwd=tree, env=env, check=True, capture_output=True,
                         text=True).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--rev", default="bd02788", help="the earlier commit (default: the lab before issue 41)")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--skip-notebook", action="store_true")
    args = ap.parse_args()
    out: dict[str, Any] = {"rev": args.rev, "cores": os.cpu_count(), "rounds": []}
    with worktree(args.rev, prefix="kum-report-") as earlier:
        trees = {args.rev: earlier, "this tree": ROOT}
        for r in range(1, args.rounds + 1):
            for name, tree in trees.items():
                row: dict[str, Any] = {"round": r, "tree": name, "load_before": round(os.getloadavg()[0], 2)}
                t0 = time.perf_counter()
                row["report"] = run(tree, REPORT)
                print(f"round {r} {name:>10} (load {row['load_before']}): KUM report {row['report']['wall_s']} s "
                      f"{row['report']['parts_s']}", flush=True)
                if not args.skip_notebook:
                    nb = tree / "notebooks" / "07_design_report.ipynb"
                    row["notebook"] = run(tree, NOTEBOOK, str(nb), str(nb.parent))
                    print(f"round {r} {name:>10}: notebook 07 Run All {row['notebook']['wall_s']} s, cells "
                          f"{row['notebook']['cells_s']}", flush=True)
                row["seconds"] = round(time.perf_counter() - t0, 1)
                out["rounds"].append(row)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
