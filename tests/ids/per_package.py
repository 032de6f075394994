"""Line and branch coverage of each package of kum_widget, from coverage.py's JSON report, and
how it compares with an earlier report: no package may fall when the suite is reorganised.

Measure (coverage is not in the project's locked environment: install it into the venv first,
``.tools/bin/uv pip install --python .venv/bin/python coverage pytest-cov``)::

    .venv/bin/python -m pytest -p no:cacheprovider -n 2 --dist loadgroup -m "not e2e" --soak \\
        --cov=kum_widget --cov-branch --cov-report=json:after.json

then ``python3 tests/ids/per_package.py after.json [before.json]``. A package is a folder of
kum_widget (``games/kum`` and ``games/court`` each apart); ``top`` is the files at the top.
A file of an earlier report that now lives in another package counts there (``MOVED``), so
each row compares the same code. Reads JSON only: it needs nothing outside the standard library.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

# A module that changed package, by its path in kum_widget then -> the package holding it now.
MOVED = {
    "_board_bots.py": "board", "_board_data.py": "board", "_board_forms.py": "board",
    "_board_insight.py": "board", "_board_text.py": "board", "_board_thoughts.py": "board",
    "_router.py": "board", "_seating.py": "board", "_seats_policy.py": "board",
    "widget.py": "board", "replay.py": "board", "lab/decks.py": "games/kum",
}


def package(path: str) -> str:
    """The package of a file named as in a report (``.../kum_widget/games/kum/rules.py``)."""
    parts = Path(path).parts
    rest = parts[len(parts) - parts[::-1].index("kum_widget"):]
    inside = "/".join(rest)
    if inside in MOVED:
        return MOVED[inside]
    if len(rest) == 1:
        return "top"
    if rest[0] == "games" and len(rest) > 2:
        return "/".join(rest[:2])
    return rest[0]


def totals(report: Path) -> dict[str, tuple[int, int, int, int]]:
    """Per package: covered lines, lines, covered branches, branches."""
    sums: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for path, data in json.loads(report.read_text())["files"].items():
        s, row = data["summary"], sums[package(path)]
        row[0] += s["covered_lines"]
        row[1] += s["num_statements"]
        row[2] += s.get("covered_branches", 0)
        row[3] += s.get("num_branches", 0)
    return {name: (a, b, c, d) for name, (a, b, c, d) in sums.items()}


def cell(covered: int, total: int) -> str:
    return f"{100 * covered / total:5.1f}% {covered:>5}/{total:<5}" if total else f"{'-':>6} {covered:>5}/{total:<5}"


def lower(covered: int, total: int, covered_then: int, total_then: int) -> bool:
    """Whether a smaller share runs now than then (exact: no rounding of percentages)."""
    return bool(total_then) and covered * total_then < covered_then * total


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        print(__doc__)
        return 2
    after = totals(Path(argv[0]))
    before = totals(Path(argv[1])) if len(argv) == 2 else {}
    fell = []
    print(f"{'package':12} {'lines':>18} {'branches':>18}" + (f"   {'lines before':>18} {'branches before':>18}" if before else ""))
    for name in sorted(after.keys() | before.keys()):
        now = after.get(name, (0, 0, 0, 0))
        line = f"{name:12} {cell(now[0], now[1]):>18} {cell(now[2], now[3]):>18}"
        if before:
            then = before.get(name, (0, 0, 0, 0))
            line += f"   {cell(then[0], then[1]):>18} {cell(then[2], then[3]):>18}"
            if lower(now[0], now[1], then[0], then[1]) or lower(now[2], now[3], then[2], then[3]):
                fell.append(name)
                line += "  LOWER"
        print(line)
    if fell:
        print("lower than before:", ", ".join(fell))
    return 1 if fell else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
