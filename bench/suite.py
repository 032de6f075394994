"""`make test`'s wall time on a fresh clone, this tree's commit and BASE's, in one run
(`make bench-suite BASE=<rev>`).

Each revision is cloned from this repository into a temporary folder, as CI clones main, and
its own `make test` runs there from nothing (its environment from the warm uv and npm caches,
its front-end built, lint, types, then pytest), one after the other, never at once: the two
would share the cores. Printed per revision: the wall time of the whole `make test`, pytest's
own summary line and its exit status. One run of each: the figure is a wall time on this
machine at this load (`uptime` is printed before each), not an interval.

    python bench/suite.py --base fa98186          # BASE first, then HEAD
    python bench/suite.py --base fa98186 --head HEAD~2
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path

from checkout import ROOT, commit, describe  # bench/ is the script's folder

SUMMARY = re.compile(r"=+ (.*\b(passed|failed|error)\b.*) =+\s*$", re.M)


def make_test(rev: str, log: Path) -> tuple[float, int, str]:
    """`make test` in a fresh clone of ``rev``: wall seconds, exit status, pytest's summary."""
    with tempfile.TemporaryDirectory(prefix="kum-suite-") as tmp:
        tree = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(tree)], check=True)
        subprocess.run(["git", "-C", str(tree), "checkout", "--quiet", "--detach", commit(rev)], check=True)
        env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
        start = time.monotonic()
        with log.open("wb") as out:
            status = subprocess.run(["make", "test"], cwd=tree, env=env, stdout=out, stderr=subprocess.STDOUT).returncode
        wall = time.monotonic() - start
    found = SUMMARY.findall(log.read_text(errors="replace"))
    return wall, status, found[-1][0] if found else "no pytest summary (see the log)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the revision to compare with")
    parser.add_argument("--head", default="HEAD", help="this side's revision (default HEAD: commit first; a clone has no uncommitted work)")
    parser.add_argument("--logs", type=Path, default=ROOT / "build" / "bench-suite", help="where each run's full output goes")
    args = parser.parse_args()
    args.logs.mkdir(parents=True, exist_ok=True)
    rows = []
    for side, rev in (("BASE", args.base), ("HEAD", args.head)):
        name = describe(rev)
        log = args.logs / f"suite-{commit(rev)[:10]}.log"
        load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
        print(f"{side} {name}: make test on a fresh clone ({load})", flush=True)
        wall, status, summary = make_test(rev, log)
        print(f"  {wall:7.0f} s  exit {status}  {summary}  (log: {log})", flush=True)
        rows.append((side, name, wall, status, summary))
    print()
    print("| side | revision | make test, wall | exit | pytest |")
    print("|---|---|---|---|---|")
    for side, name, wall, status, summary in rows:
        print(f"| {side} | {name} | {wall / 60:.1f} min ({wall:.0f} s) | {status} | {summary} |")
    base, head = rows[0][2], rows[1][2]
    print(f"\nHEAD takes {head / base:.0%} of BASE's time ({head - base:+.0f} s).")


if __name__ == "__main__":
    main()
