"""Where each test of the suite as it stood before it was regrouped by concept is now.

``before.txt`` lists every test id collected then (``pytest --collect-only -q``). This
script collects the suite as it is and, for each old id, says what checks it now:

- the same id: kept (listed with ``--all`` only);
- the same test (name and case) in another file: moved there;
- the same test in several files, one of them of its file's name (moved to another folder):
  moved there;
- the same test function with other cases: its cases now;
- a doctest of a module that moved: the doctest of the same name now;
- else an entry of ``moved.txt`` (``old id or a prefix of it -> what checks it now``): a test
  folded into another, or removed with the thing it tested;
- else nothing: "UNACCOUNTED", and the script exits with status 1.

It also counts, before and after, the tests of three kinds that must never be lost: the
browser tests, the hostile-input tests and the hidden-information tests (by their names, or
the files of tests/security/ that hold bad input).

Run from the repository's root: ``.venv/bin/python tests/ids/where.py [--all]``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).parent
KINDS = {  # a test's kind, by its id (file and name)
    "browser": re.compile(r"(^|/)test_(e2e|frontend)|/e2e/|/browser/|chromium|playwright"),
    "hostile input": re.compile(r"hostile|bad_|_bad|refus|malformed|probe|garbage|huge|trust|attack|forged|spoof"
                            r"|^tests/security/test_\w*(input|files|tables)\.py", re.I),
    "hidden information": re.compile(r"secret|hidden|privacy|private|sealed|hides|leak|peek", re.I),
}


def collected() -> list[str]:
    """The test ids of the suite as it is now."""
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                         capture_output=True, text=True, check=False)
    ids = [line for line in out.stdout.splitlines() if "::" in line]
    if not ids:
        raise SystemExit(f"pytest collected nothing:\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
    return ids


def explained() -> list[tuple[str, str]]:
    """``moved.txt``'s entries: (old id or prefix, what checks it now)."""
    path = HERE / "moved.txt"
    entries = []
    for line in path.read_text().splitlines() if path.exists() else []:
        if line.strip() and not line.startswith("#"):
            old, sep, now = line.partition(" -> ")
            if not sep:
                raise SystemExit(f"moved.txt: a line is 'old id -> what checks it now', got {line!r}")
            entries.append((old.strip(), now.strip()))
    return entries


def where(old: list[str], now: list[str], entries: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """(old id, how it is accounted for, where) for every old id."""
    current = set(now)
    by_case: dict[str, list[str]] = defaultdict(list)  # "test_x[case]" -> ids now
    by_function: dict[str, list[str]] = defaultdict(list)  # "test_x" -> ids now
    for test in now:
        case = test.rpartition("::")[2]
        by_case[case].append(test)
        by_function[case.partition("[")[0].rpartition(".")[2]].append(test)
    out = []
    for test in old:
        case = test.rpartition("::")[2]
        function = case.partition("[")[0].rpartition(".")[2]
        explanation = next((now_ for prefix, now_ in entries if test.startswith(prefix)), None)
        if test in current:
            out.append((test, "kept", test))
        elif len(by_case[case]) == 1:
            out.append((test, "moved", by_case[case][0]))
        elif len(same_file := [t for t in by_case[case] if basename(t) == basename(test)]) == 1:
            out.append((test, "moved", same_file[0]))  # the same name in other files too: the one its file moved to
        elif explanation is not None:
            out.append((test, "explained", explanation))
        elif by_function[function]:
            files = sorted({t.partition("::")[0] for t in by_function[function]})
            out.append((test, "cases changed", f"{len(by_function[function])} cases of {function} in {', '.join(files)}"))
        else:
            out.append((test, "UNACCOUNTED", ""))
    return out


def basename(test: str) -> str:
    """The name of a test's file, without its folder: a file moved to another folder keeps it."""
    return test.partition("::")[0].rpartition("/")[2]


def kinds(ids: list[str]) -> Counter[str]:
    return Counter(kind for test in ids for kind, pattern in KINDS.items() if pattern.search(test))


def main() -> int:
    old = [line for line in (HERE / "before.txt").read_text().splitlines() if line.strip()]
    now = collected()
    rows = where(old, now, explained())
    show_all = "--all" in sys.argv[1:]
    for test, how, now_ in rows:
        if show_all or how != "kept":
            print(f"{test}\n    {how}{': ' + now_ if now_ and how != 'kept' else ''}")
    tally = Counter(how for _, how, _ in rows)
    print(f"\n{len(old)} tests before, {len(now)} now: " + ", ".join(f"{n} {how}" for how, n in sorted(tally.items())))
    before, after = kinds(old), kinds(now)
    for kind in KINDS:
        print(f"{kind} tests: {before[kind]} before, {after[kind]} now")
    return 1 if tally["UNACCOUNTED"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
