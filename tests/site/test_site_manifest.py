"""The course site's pins (lite/manifest.toml) against what they must match: the Pyodide the
kernel is built for, the hashes in the site's rewritten Pyodide lock, uv.lock's widget packages;
and the course notebooks in the site, generated from notebooks/ (none drifts)."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = [pytest.mark.site, pytest.mark.e2e]  # e2e too: it builds the site (network the first time)

ROOT = Path(__file__).resolve().parents[2]


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def wheel_version(file: str) -> tuple[str, str]:
    name, version = file.split("-")[:2]
    return normalize(name), version


def test_pyodide_is_the_one_the_kernel_is_built_for(lite_build: ModuleType, site_dir: Path) -> None:
    pins = lite_build.manifest()
    venv = lite_build.build_venv(lite_build.cache_dir(), pins["build"]["requirements"])
    kernels = subprocess.run([str(venv / "bin" / "python"), "-c",
                              "from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION; print(PYODIDE_VERSION)"],
                             check=True, capture_output=True, text=True).stdout.strip()
    served = json.loads((site_dir / "static" / "pyodide" / "package.json").read_text())["version"]
    assert pins["pyodide"]["version"] == kernels == served


def test_the_kernel_loads_pyodide_and_packages_from_the_site_only(site_dir: Path) -> None:
    settings = json.loads((site_dir / "jupyter-lite.json").read_text())["jupyter-config-data"]["litePluginSettings"]
    kernel = settings["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["disablePyPIFallback"] is True
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    assert all(url.startswith("./") for url in kernel["pipliteUrls"])


def test_the_site_s_wheels_and_index_are_fetched_at_urls_carrying_their_hash(site_dir: Path) -> None:
    """A republished site reaches a browser that cached the old one: the URL changes with the file."""
    index = site_dir / "pypi" / "all.json"
    files = [f for package in json.loads(index.read_text()).values() for fs in package["releases"].values() for f in fs]
    assert {f["filename"].split("-")[0] for f in files} >= {"kum_widget", "anywidget", "ipywidgets"}
    for file in files:
        digest = hashlib.sha256((site_dir / "pypi" / file["filename"]).read_bytes()).hexdigest()
        assert file["url"] == f"./{file['filename']}?sha256={digest}"
    settings = json.loads((site_dir / "jupyter-lite.json").read_text())["jupyter-config-data"]["litePluginSettings"]
    urls = settings["@jupyterlite/pyodide-kernel-extension:kernel"]["pipliteUrls"]
    assert f"./pypi/all.json?sha256={hashlib.sha256(index.read_bytes()).hexdigest()}" in urls


def test_every_wheel_s_hash_is_in_the_rewritten_lock(lite_build: ModuleType, site_dir: Path) -> None:
    pins = lite_build.manifest()
    folder = site_dir / "static" / "pyodide"
    lock = {normalize(name): entry for name, entry in json.loads((folder / "pyodide-lock.json").read_text())["packages"].items()}
    by_file = {entry["file_name"]: entry for entry in lock.values()}
    for wheel in pins["pyodide"]["wheels"]:
        assert by_file[wheel["file"]]["sha256"] == wheel["sha256"] == hashlib.sha256((folder / wheel["file"]).read_bytes()).hexdigest()
    # what the kernel loads at start (micropip, then IPython for its shell) is all served, each
    # file with its lock's hash: the closure of their dependencies in the lock
    needed, todo = set(), ["micropip", "ipython"]
    while todo:
        name = normalize(todo.pop())
        if name not in needed:
            needed.add(name)
            todo += lock[name]["depends"]
    for name in needed:
        path = folder / lock[name]["file_name"]
        assert path.exists(), f"{name}: the site lacks {path.name}"
        assert hashlib.sha256(path.read_bytes()).hexdigest() == lock[name]["sha256"]


def test_widget_packages_are_uv_lock_s(lite_build: ModuleType, site_dir: Path) -> None:
    locked = lite_build.locked_versions()
    pinned = dict(wheel_version(w["file"]) for w in lite_build.manifest()["wheels"])
    for name in ("anywidget", "ipywidgets", "jupyterlab-widgets", "comm", "psygnal"):
        assert pinned[name] == locked[name], name
        assert list((site_dir / "pypi").glob(f"{name.replace('-', '_')}-{locked[name]}-*.whl")), name
    # the front-end extensions the site serves come from the build tools' venv: the same versions
    venv = lite_build.build_venv(lite_build.cache_dir(), lite_build.manifest()["build"]["requirements"])
    script = "import importlib.metadata as m; print(m.version('anywidget'), m.version('jupyterlab_widgets'))"
    built = subprocess.run([str(venv / "bin" / "python"), "-c", script], check=True, capture_output=True, text=True).stdout.split()
    assert built == [locked["anywidget"], locked["jupyterlab-widgets"]]


def test_kum_widget_s_wheel_is_this_checkout_s_with_its_front_end(site_dir: Path) -> None:
    (wheel,) = (site_dir / "pypi").glob("kum_widget-*.whl")
    with zipfile.ZipFile(wheel) as built:
        names = set(built.namelist())
        assert {"kum_widget/static/widget.js", "kum_widget/static/widget.css", "kum_widget/static/replay.js"} <= names
        assert built.read("kum_widget/lab/checks.py") == (ROOT / "kum_widget" / "lab" / "checks.py").read_bytes()


def test_course_notebooks_are_generated_from_notebooks(lite_build: ModuleType, site_dir: Path) -> None:
    parameters = lite_build.manifest()["notebooks"]["parameters"]
    sources = sorted((ROOT / "notebooks").glob("*.ipynb"))
    assert sorted(p.name for p in (site_dir / "files" / "notebooks").glob("*.ipynb")) == [p.name for p in sources]
    for source in sources:
        served = json.loads((site_dir / "files" / "notebooks" / source.name).read_text())
        assert served == lite_build.lite_notebook(json.loads(source.read_text()), parameters), source.name
        first = served["cells"][0]
        assert first["metadata"]["jupyter"]["source_hidden"] is True
        assert '%pip install "kum-widget[widget]"' in "".join(first["source"])
        assert served["metadata"]["kernelspec"]["name"] == "python"
    for doc in ("RULES.md", "COURT.md", "GAMES.md"):
        assert (site_dir / "files" / doc).read_bytes() == (ROOT / doc).read_bytes()


def test_lite_parameters_replace_only_the_value(lite_build: ModuleType) -> None:
    notebook = {"metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {"tags": ["parameters"]}, "outputs": [], "execution_count": None,
         "source": ["GAMES = 800   # games\n", "WORKERS = 2       # worker processes; 0 plays in this process\n"]},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": ["WORKERS = 2\n"]},
    ]}
    cells = lite_build.lite_notebook(notebook, {"WORKERS": "0"})["cells"]
    assert "".join(cells[1]["source"]) == "GAMES = 800   # games\nWORKERS = 0       # worker processes; 0 plays in this process\n"
    assert cells[2]["source"] == ["WORKERS = 2\n"]  # only the parameters cell
