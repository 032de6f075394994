"""Build the course as a static JupyterLite site in site/ (`make site`): the board, the bots and the
notebooks run in the browser's Pyodide, with nothing to install and no host but the site's own.

Every input is pinned in lite/manifest.toml and fetched once into the cache (KUM_SITE_CACHE, by
default ${XDG_CACHE_HOME:-~/.cache}/kum-widget/site), outside the clone: the build tools' venv,
Pyodide's core (npm), the wheels (PyPI). A rebuild with the cache filled needs no network. Each
build starts clean (a stale JupyterLite build cache drops the kernel's settings): the staging
folder build/lite/ and site/ are made anew. kum_widget's wheel is built from this checkout."""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "lite" / "manifest.toml"
STAGING = ROOT / "build" / "lite"
DOCS = ("RULES.md", "COURT.md", "GAMES.md")
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
LITE_KERNEL = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
INSTALL_CELL = (
    "# This course runs in your browser: this cell installs kum_widget from the site itself "
    "(nothing to install on your computer, nothing fetched from elsewhere).\n"
    '%pip install "kum-widget[widget]"'
)


def cache_dir() -> Path:
    if env := os.environ.get("KUM_SITE_CACHE"):
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "kum-widget" / "site"


def manifest() -> dict[str, Any]:
    with MANIFEST.open("rb") as f:
        return tomllib.load(f)


def say(message: str) -> None:
    print(f"site: {message}", flush=True)


def run(*args: str | Path, cwd: Path | None = None) -> None:
    subprocess.run([str(a) for a in args], cwd=cwd, check=True)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def locked_versions() -> dict[str, str]:
    """uv.lock's version of each package it locks from a registry (names normalized)."""
    with (ROOT / "uv.lock").open("rb") as f:
        packages = tomllib.load(f)["package"]
    return {normalize(p["name"]): p["version"] for p in packages if "registry" in p.get("source", {})}


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def build_venv(cache: Path, requirements: list[str]) -> Path:
    """The build tools' venv, one per set of pins (its name is their hash), made once. A package
    uv.lock locks installs at its version there; any package pinned neither there nor in
    ``requirements`` stops the build."""
    locked = locked_versions()
    constraints = "".join(f"{name}=={version}\n" for name, version in sorted(locked.items()))
    key = hashlib.sha256("\n".join([*requirements, constraints]).encode()).hexdigest()[:12]
    venv = cache / f"build-venv-{key}"
    if (venv / ".complete").exists():
        return venv
    say(f"the build tools' venv in {venv}")
    shutil.rmtree(venv, ignore_errors=True)
    run(sys.executable, "-m", "venv", venv)
    (venv / "constraints.txt").write_text(constraints)
    pip = [venv / "bin" / "python", "-m", "pip"]
    run(*pip, "install", "--quiet", "--disable-pip-version-check", "--only-binary=:all:",
        "-c", venv / "constraints.txt", *requirements)
    pinned = {normalize(r.partition("==")[0]) for r in requirements if "==" in r}
    frozen = subprocess.run([*map(str, pip), "list", "--format=json"], check=True, capture_output=True, text=True).stdout
    unpinned = sorted(f"{p['name']}=={p['version']}" for p in json.loads(frozen)
                      if normalize(p["name"]) not in pinned | set(locked) | {"pip", "setuptools"})
    if unpinned:
        raise SystemExit(f"site: the build tools need {', '.join(unpinned)}, pinned neither in "
                         "lite/manifest.toml nor in uv.lock: pin them in the manifest's [build] requirements")
    (venv / ".complete").touch()
    return venv


def fetch_wheel(venv: Path, cache: Path, file: str, digest: str) -> Path:
    """A pure-Python wheel from PyPI (once), checked against its pinned sha256."""
    wheels = cache / "wheels"
    path = wheels / file
    if not path.exists():
        name, version = file.split("-")[:2]
        say(f"fetching {file}")
        run(venv / "bin" / "python", "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
            "--no-deps", "--only-binary=:all:", "--platform", "any", "--implementation", "py",
            "--abi", "none", "--python-version", "3.14", "-d", wheels, f"{name}=={version}")
    if not path.exists():
        raise SystemExit(f"site: PyPI gave no file {file} (lite/manifest.toml names it)")
    if (found := sha256(path)) != digest:
        raise SystemExit(f"site: {path} has sha256 {found}, lite/manifest.toml pins {digest}")
    return path


def fetch_pyodide(cache: Path, version: str, integrity: str) -> Path:
    """Pyodide's core, the npm package's tarball (once), checked against its pinned integrity."""
    path = cache / f"pyodide-{version}.tgz"
    if not path.exists():
        say(f"fetching Pyodide {version} from the npm registry")
        run("npm", "pack", f"pyodide@{version}", "--silent", "--pack-destination", cache)
    algorithm, _, expected = integrity.partition("-")
    found = base64.b64encode(hashlib.new(algorithm, path.read_bytes()).digest()).decode()
    if found != expected:
        raise SystemExit(f"site: {path} has {algorithm} {found}, lite/manifest.toml pins {expected}")
    return path


def stage_pyodide(tarball: Path, wheels: list[tuple[Path, str]], dest: Path) -> None:
    """Pyodide's core and its lock's wheels in ``dest``; the lock carries the local wheels' hashes."""
    with tarfile.open(tarball) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.startswith("package/"):
                target = dest / member.name.removeprefix("package/")
                target.parent.mkdir(parents=True, exist_ok=True)
                source = tar.extractfile(member)
                assert source is not None
                target.write_bytes(source.read())
    lock_path = dest / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text())
    by_file = {entry["file_name"]: entry for entry in lock["packages"].values()}
    for path, digest in wheels:
        if path.name not in by_file:
            raise SystemExit(f"site: {path.name} is not in Pyodide's lock (lite/manifest.toml names it)")
        by_file[path.name]["sha256"] = digest
        shutil.copy2(path, dest / path.name)
    lock_path.write_text(json.dumps(lock, indent=1, sort_keys=True))


def lite_notebook(notebook: dict[str, Any], parameters: dict[str, str]) -> dict[str, Any]:
    """A course notebook for the site: a first cell, collapsed, that installs kum_widget from the
    site; the Pyodide kernel; ``parameters`` set in the cell tagged ``parameters``."""
    cells = [dict(cell) for cell in notebook["cells"]]
    for i, cell in enumerate(cells):
        if cell["cell_type"] == "code" and "parameters" in cell.get("metadata", {}).get("tags", []):
            source = "".join(cell["source"])
            for name, value in parameters.items():
                source = re.sub(rf"^({re.escape(name)}\s*=\s*)[^#\n]*?(\s*(#.*)?)$",
                                lambda m, value=value: f"{m[1]}{value}{m[2]}", source, flags=re.M)
            cells[i] = {**cell, "source": source.splitlines(keepends=True)}
    install = {"cell_type": "code", "execution_count": None, "outputs": [], "source": INSTALL_CELL.splitlines(keepends=True),
               "metadata": {"jupyter": {"source_hidden": True, "outputs_hidden": True}, "tags": ["install"]}}
    metadata = {**notebook.get("metadata", {}), "kernelspec": LITE_KERNEL}
    return {**notebook, "metadata": metadata, "cells": [install, *cells]}


def stage_files(dest: Path, parameters: dict[str, str]) -> None:
    """What the site's file browser shows: the course notebooks, generated here from notebooks/,
    beside the rules documents (the notebooks link to ../RULES.md) and the gallery's games."""
    (dest / "notebooks").mkdir(parents=True)
    for source in sorted((ROOT / "notebooks").glob("*.ipynb")):
        notebook = lite_notebook(json.loads(source.read_text()), parameters)
        (dest / "notebooks" / source.name).write_text(json.dumps(notebook, indent=1) + "\n")
    for doc in DOCS:
        shutil.copy2(ROOT / doc, dest / doc)
    (dest / "gallery").mkdir()
    for game in sorted((ROOT / "kum_widget" / "gallery").glob("*.py")):
        if not game.name.startswith("_"):
            shutil.copy2(game, dest / "gallery" / game.name)


def build_package(venv: Path, out: Path) -> Path:
    """kum_widget's wheel from this checkout (its front-end bundle, `make js`, inside)."""
    if not (ROOT / "kum_widget" / "static" / "widget.js").exists():
        raise SystemExit("site: kum_widget/static/ is missing: run `make js` first (`make site` does)")
    run(venv / "bin" / "python", "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
        "--no-build-isolation", "--no-index", "-w", out, ROOT)
    (wheel,) = out.glob("kum_widget-*.whl")
    return wheel


def bust_wheel_urls(output: Path) -> None:
    """Each wheel of the site's index is fetched at a URL that carries its sha256, and the index
    at one that carries its own: a republished site's new kum_widget wheel (the same file name)
    reaches a browser that cached the old one."""
    index = output / "pypi" / "all.json"
    releases = json.loads(index.read_text())
    for package in releases.values():
        for files in package["releases"].values():
            for file in files:
                file["url"] = f"./{file['filename']}?sha256={file['digests']['sha256']}"
    index.write_text(json.dumps(releases, indent=1, sort_keys=True))
    config_path = output / "jupyter-lite.json"
    config = json.loads(config_path.read_text())
    kernel = config["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    kernel["pipliteUrls"] = [f"./pypi/all.json?sha256={sha256(index)}" if url.startswith("./pypi/all.json") else url
                             for url in kernel["pipliteUrls"]]
    config_path.write_text(json.dumps(config, indent=2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=ROOT / "site", help="where the site goes (default site/)")
    output = parser.parse_args().output.resolve()
    started = time.perf_counter()
    pins = manifest()
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    venv = build_venv(cache, pins["build"]["requirements"])
    tarball = fetch_pyodide(cache, pins["pyodide"]["version"], pins["pyodide"]["integrity"])
    lock_wheels = [(fetch_wheel(venv, cache, w["file"], w["sha256"]), w["sha256"]) for w in pins["pyodide"]["wheels"]]
    index_wheels = [fetch_wheel(venv, cache, w["file"], w["sha256"]) for w in pins["wheels"]]

    shutil.rmtree(STAGING, ignore_errors=True)
    STAGING.mkdir(parents=True)
    package = build_package(venv, STAGING / "dist")
    stage_pyodide(tarball, lock_wheels, STAGING / "static" / "pyodide")
    stage_files(STAGING / "files", pins["notebooks"]["parameters"])
    # the kernel installs only from the site's own index (never from PyPI: offline, no other host)
    settings = {"jupyter-lite-schema-version": 0,
                "jupyter-config-data": {"litePluginSettings": {KERNEL_PLUGIN: {"disablePyPIFallback": True}}}}
    (STAGING / "jupyter-lite.json").write_text(json.dumps(settings, indent=1))
    config = {"LiteBuildConfig": {"output_dir": str(output)},
              "PipliteAddon": {"piplite_urls": [str(p) for p in [package, *index_wheels]]}}
    (STAGING / "jupyter_lite_config.json").write_text(json.dumps(config, indent=1))

    shutil.rmtree(output, ignore_errors=True)
    say(f"building the site in {output}")
    run(venv / "bin" / "jupyter", "lite", "build", "--no-sourcemaps", "--lite-dir", STAGING, cwd=STAGING)
    bust_wheel_urls(output)
    size = sum(p.stat().st_size for p in output.rglob("*") if p.is_file())
    say(f"done in {time.perf_counter() - started:.0f} s: {size / 1e6:.1f} MB in {output}")


if __name__ == "__main__":
    main()
