"""The package as a user installs it (issue 32, item 1): built from a fresh copy of the
sources, with no front-end built (kum_widget/static/ is not in git), into new virtual
environments, and a board from each rendered and clicked in JupyterLab, in Chromium.

The copy is the working tree's files that git tracks or would track (`git ls-files --cached
--others --exclude-standard`): uncommitted work is tested, and the developer's built
kum_widget/static/, node_modules/ and .venv/ never are. The wheel is built straight from the
copy (what `pip install .` and `pip install git+...` do) and the sdist from another fresh
copy; each build runs hatch-jupyter-builder's npm builder (npm install, npm run build:
pyproject.toml). The wheel goes into
one new environment and the sdist into another (uv builds a wheel from it), each with the
`widget` extra and ipykernel, pinned to uv.lock's versions. One JupyterLab (the project's)
has a kernel for each environment (kernel specs in a JUPYTER_PATH folder of their own).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _chromium import dismiss_intro, wait_board_changed, watched_page
from _paths import ROOT
from labserver import LabServer, code_cell, open_notebook, run_all, wait_idle

STATIC = ("kum_widget/static/widget.js", "kum_widget/static/widget.css", "kum_widget/static/replay.js")
SDIST_SOURCES = ("js/widget.js", "js/replay.js", "js/widget.css", "package.json", "package-lock.json", "pyproject.toml")
SKIP = ("kum_widget/static/", "node_modules/", ".venv/", ".tools/", "test-artifacts/")
KINDS = ("wheel", "sdist")
BOARD = ".kum-widget[data-state-id]"


def uv() -> str:
    path = ROOT / ".tools" / "bin" / "uv"  # `make` puts it there
    found = str(path) if path.exists() else shutil.which("uv")
    if found is None:
        pytest.fail("uv is not installed: run `make env`")
    return found


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed ({result.returncode}):\n{result.stdout[-3000:]}\n{result.stderr[-5000:]}")
    return result.stdout + result.stderr


def source_files() -> list[str]:
    """What git tracks or would track in the working tree (every file but the ignored ones, with
    no git at hand: a source tree unpacked from an archive)."""
    try:
        listing = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                                 cwd=ROOT, capture_output=True, check=True).stdout.decode()
        return sorted(set(listing.split("\0")))
    except (OSError, subprocess.CalledProcessError):
        ignored = {".git", ".venv", ".tools", "node_modules", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache",
                   ".hypothesis", "dist", "build", "test-artifacts"}
        names = []
        for folder, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs if d not in ignored]
            names += [str((Path(folder) / f).relative_to(ROOT)) for f in files]
        return sorted(names)


def fresh_copy(dest: Path) -> Path:
    """The sources as a fresh clone of this working tree would have them: no built front-end."""
    for name in source_files():
        src = ROOT / name
        if not name or name.startswith(SKIP) or not src.is_file():  # a file deleted in the work tree is still listed
            continue
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest / name)
    assert not (dest / "kum_widget" / "static").exists()
    return dest


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The wheel built from one fresh copy and the sdist from another."""
    base = tmp_path_factory.mktemp("install")
    dist = base / "dist"
    for kind in KINDS:
        src = fresh_copy(base / f"src-{kind}")
        run([uv(), "build", f"--{kind}", "--out-dir", str(dist)], cwd=src)
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


def test_wheel_and_sdist_carry_the_front_end(builds: dict[str, Path]) -> None:
    with zipfile.ZipFile(builds["wheel"]) as whl:
        names = set(whl.namelist())
        for name in STATIC:
            assert name in names, f"the wheel has no {name}"
            assert whl.getinfo(name).file_size > 1000, name
    with tarfile.open(builds["sdist"]) as sdist:
        names = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    missing = [n for n in (*SDIST_SOURCES, *STATIC) if n not in names]
    assert not missing, f"the sdist lacks {missing}"


def test_the_build_ensures_what_package_json_writes() -> None:
    """pyproject.toml's npm builder ensures (and skips npm for) exactly the files package.json's
    build script writes, which `make js` makes too: one list of the built front-end."""
    hook = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]["hooks"]["jupyter-builder"]
    assert hook["build-function"] == "hatch_jupyter_builder.npm_builder"
    script = json.loads((ROOT / "package.json").read_text())["scripts"]["build"]
    written = sorted(re.findall(r"--outfile=(\S+)", script))
    assert sorted(hook["ensured-targets"]) == sorted(hook["skip-if-exists"]) == written == sorted(STATIC)
    make = (ROOT / "Makefile").read_text()
    assert f"STATIC := {' '.join(STATIC)}\n" in make


def test_a_build_without_npm_names_it(tmp_path: Path) -> None:
    """A build with no front-end built and no npm on PATH stops and names npm."""
    src = fresh_copy(tmp_path / "src")
    bare = tmp_path / "bin"
    bare.mkdir()
    (bare / "python3").symlink_to(sys.executable)
    env = {**os.environ, "PATH": str(bare)}
    result = subprocess.run([uv(), "build", "--wheel", "--out-dir", str(tmp_path / "dist")], cwd=src, env=env,
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode != 0
    assert "Could not find cmd (npm)" in result.stderr, result.stderr[-3000:]
    assert not list((tmp_path / "dist").glob("*.whl"))


def test_the_sdist_installs_without_node(builds: dict[str, Path], tmp_path: Path) -> None:
    """The sdist carries the built front-end: a wheel built from it needs no npm."""
    bare = tmp_path / "bin"
    bare.mkdir()
    (bare / "python3").symlink_to(sys.executable)
    run([uv(), "build", "--wheel", "--out-dir", str(tmp_path / "dist"), str(builds["sdist"])], cwd=tmp_path,
        env={**os.environ, "PATH": str(bare)})
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as whl:
        assert set(STATIC) <= set(whl.namelist())


class Venvs:
    """A new environment for each build (the package with its `widget` extra, and ipykernel),
    made the first time a test asks for it: `make test` plays the wheel's board alone."""

    def __init__(self, builds: dict[str, Path], base: Path) -> None:
        self.builds, self.base = builds, base
        self.made: set[str] = set()

    def python(self, kind: str) -> Path:
        """Where the environment's python is (or will be, once a test asks for it)."""
        return self.base / kind / "bin" / "python"

    def __getitem__(self, kind: str) -> Path:
        python = self.python(kind)
        if kind not in self.made:
            pins = self.base / "constraints.txt"  # uv.lock's versions: what the tests run with, from uv's cache
            if not pins.exists():
                pins.write_text(run([uv(), "export", "--frozen", "--no-hashes", "--no-emit-project", "--all-extras",
                                     "--all-groups", "--format", "requirements.txt", "--quiet"], cwd=ROOT))
            env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
            run([uv(), "venv", "--quiet", "--python", sys.executable, str(self.base / kind)], cwd=self.base, env=env)
            run([uv(), "pip", "install", "--quiet", "--python", str(python), "-c", str(pins), f"{self.builds[kind]}[widget]",
                 "ipykernel"], cwd=self.base, env=env)
            self.made.add(kind)
        return python


@pytest.fixture(scope="module")
def venvs(builds: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Venvs:
    return Venvs(builds, tmp_path_factory.mktemp("venvs"))


def notebook(kernel: str) -> dict[str, Any]:
    source = 'import kum_widget as kum\nprint(kum.__file__)\nboard = kum.GameWidget(bots={1: "random"}, seed=1)\nboard'
    return {
        "cells": [code_cell(source)],
        "metadata": {"kernelspec": {"name": kernel, "display_name": kernel, "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


@pytest.fixture(scope="module")
def lab(venvs: Venvs, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    """One JupyterLab with a kernel per new environment (and no other kernel spec it could pick)."""
    data = tmp_path_factory.mktemp("jupyter-data")
    for kind in KINDS:
        python = venvs.python(kind)
        spec = data / "kernels" / f"kum-{kind}"
        spec.mkdir(parents=True)
        (spec / "kernel.json").write_text(json.dumps({
            "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": f"kum-{kind}", "language": "python",
        }))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JUPYTER_PATH", str(data))
        with LabServer({f"{kind}.ipynb": notebook(f"kum-{kind}") for kind in KINDS}) as server:
            yield server


@pytest.mark.parametrize("kind", ["wheel", pytest.param("sdist", marks=pytest.mark.soak)])  # the sdist's board: make soak (its front end is checked in make test, above)
def test_a_board_from_the_installed_package_renders_and_plays(kind: str, lab: LabServer, venvs: Venvs,
                                                              browser: Any, artifacts: Path) -> None:
    venv = venvs[kind].parent.parent  # made now, before its kernel is asked for
    page, errors = watched_page(browser, width=1280, height=1000)
    try:
        open_notebook(page, lab, f"{kind}.ipynb")
        run_all(page)
        page.wait_for_selector(f"{BOARD}, .jp-OutputArea-output:has-text('Traceback')")
        wait_idle(page)
        output = "\n".join(page.locator(".jp-OutputArea-output").all_inner_texts())
        assert "Traceback" not in output, output
        assert output.strip().startswith(str(venv)), f"kum_widget imported from outside the new environment {venv}: {output}"
        board = page.locator(BOARD).first
        before = board.get_attribute("data-state-id")
        dismiss_intro(board)  # the first-time panel lies over the table
        board.locator("[data-playable]:not([disabled])").first.click()
        target = board.locator(".kum-lit[data-action]").first
        target.wait_for()
        target.click()
        wait_board_changed(page, board, before, "the answer to a click")
        page.screenshot(path=str(artifacts / f"install_{kind}.png"))
        assert not errors, errors
    finally:
        page.close()
