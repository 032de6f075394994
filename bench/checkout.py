"""A checkout of another revision beside this tree, for the scripts that measure this tree
against it in the same minutes (against.py, latency_against.py, report_against.py,
speedup.py). A helper, not a benchmark.

- :func:`worktree`: the revision in a temporary git worktree (detached: no branch moves),
  removed again on the way out, whatever happens.
- :func:`own_environment`: that tree's own environment, as its uv.lock pins it (``uv sync``
  from the warm cache; its package installed editable, its front-end built by its own build).
- :func:`build_front_end`: a tree's bundles made with this checkout's esbuild, for a tree
  measured in this tree's environment (:func:`importing`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
FRONT_END = ("widget.js", "widget.css", "replay.js")  # what package.json's build writes into kum_widget/static/


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True).stdout.strip()


def commit(rev: str) -> str:
    """``rev``'s commit id, or a clear stop when this clone does not have it."""
    found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                           capture_output=True, text=True)
    if found.returncode:
        raise SystemExit(f"the revision {rev!r} is not in this clone (a shallow one? `git fetch --unshallow`); name another")
    return found.stdout.strip()


def describe(rev: str) -> str:
    """``rev`` as a person reads it: its short id and subject."""
    return git("log", "-1", "--format=%h %s", commit(rev))


@contextmanager
def worktree(rev: str, prefix: str = "kum-base-") -> Iterator[Path]:
    """``rev`` checked out in a temporary folder, for as long as the block runs."""
    sha = commit(rev)
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        tree = Path(tmp) / "tree"
        git("worktree", "add", "--detach", str(tree), sha)
        try:
            yield tree
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True, check=False)
            subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], capture_output=True, check=False)


def build_front_end(tree: Path) -> None:
    """``tree``'s bundles, as its own package.json's build script makes them, with this
    checkout's esbuild (no npm install in the tree)."""
    if not ESBUILD.exists():
        raise SystemExit("esbuild is missing: run `make env` first")
    script = json.loads((tree / "package.json").read_text())["scripts"]["build"]
    subprocess.run(script.replace("esbuild ", f"{ESBUILD} "), shell=True, cwd=tree, check=True, capture_output=True)


def uv() -> str:
    found = ROOT / ".tools" / "bin" / "uv"  # where `make` puts it
    path = str(found) if found.exists() else shutil.which("uv")
    if path is None:
        raise SystemExit("uv is missing: run `make env` first")
    return path


def own_environment(tree: Path, python: str) -> Path:
    """``tree``'s own environment in ``tree/.venv`` (its uv.lock, its extras and dev group, the
    interpreter ``python`` names), its front-end built: the python to run it with."""
    if not (tree / "uv.lock").exists():
        raise SystemExit(f"{tree} has no uv.lock: its environment cannot be made the way this tree's is")
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT", "PYTHONPATH")}
    result = subprocess.run([uv(), "sync", "--locked", "--all-extras", "--python", python, "--quiet"], cwd=tree, env=env,
                            capture_output=True, text=True, check=False)
    if result.returncode:
        raise SystemExit(f"`uv sync` in {tree} failed:\n{result.stderr[-3000:]}")
    if not all((tree / "kum_widget" / "static" / name).exists() for name in FRONT_END):
        build_front_end(tree)  # a revision whose build did not make them
    return tree / ".venv" / "bin" / "python"


def importing(tree: Path) -> dict[str, str]:
    """The environment for a child of this tree's interpreter that imports ``tree``'s package
    (PYTHONPATH comes before the installed one)."""
    return {**os.environ, "PYTHONPATH": str(tree)}
