"""The README's two commands on a fresh machine (issue 32, item 2): what only root can install
(Debian's Chromium for `make test`, Node.js and npm for both) is installed first as root, or
make stops before running anything, naming the one command to run.

The real Makefile runs (GNU make) in a copy of the project's build files, with a PATH of fakes
only: `id` says root or not, `apt-get` records its arguments and installs a fake command, and
every other command make could start (python3, npm, uv...) records that it ran.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from _paths import ROOT

MAKE = shutil.which("make")  # the README's commands run through make: .ci/run installs it first
FILES = ("Makefile", "pyproject.toml", "uv.lock", "package.json", "package-lock.json")
RECORDED = ("python3", "uv", "pip", "sudo", "curl", "jupyter", "ruff", "mypy", "make")  # node, npm: only if `have`

class Machine:
    """A copy of the build files, and a bin folder that is the whole PATH."""

    def __init__(self, tmp: Path, *, root: bool, have: tuple[str, ...] = (), apt_status: int = 0) -> None:
        self.dir = tmp / "project"
        self.bin = tmp / "bin"
        self.log = tmp / "calls.log"
        self.dir.mkdir()
        self.bin.mkdir()
        self.log.touch()
        for name in FILES:
            shutil.copy2(ROOT / name, self.dir / name)
        shutil.copytree(ROOT / "js", self.dir / "js")
        self.fake("id", f'echo "id $*" >> {self.log}\necho {0 if root else 1000}')
        # apt-get install puts each package's command on PATH (chromium; nodejs npm: node and npm)
        self.fake("apt-get", f'echo "apt-get $* DEBIAN_FRONTEND=$DEBIAN_FRONTEND" >> {self.log}\n'
                             f'[ "$1" = install ] && [ {apt_status} = 0 ] && for p in "$@"; do case "$p" in -*|install) ;; '
                             f'nodejs) cp {self.bin}/.recorder {self.bin}/node;; *) cp {self.bin}/.recorder {self.bin}/$p;; esac; done\n'
                             f'exit {apt_status}')
        self.fake(".recorder", f'echo "$(basename "$0") $*" >> {self.log}')
        for name in (*RECORDED, *have):
            shutil.copy2(self.bin / ".recorder", self.bin / name)
        for tool in ("dirname", "basename", "cp"):  # .ci/run and the fakes use them
            (self.bin / tool).symlink_to(shutil.which(tool) or f"/usr/bin/{tool}")

    def fake(self, name: str, body: str) -> None:
        path = self.bin / name
        path.write_text(f"#!/bin/sh\n{body}\n")
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)

    def hide(self, *names: str) -> None:
        for name in names:
            (self.bin / name).unlink()

    def make(self, *goals: str) -> subprocess.CompletedProcess[str]:
        assert MAKE is not None, "make is not installed (.ci/run installs it: apt-get install -y make)"
        env = {"PATH": str(self.bin), "HOME": str(self.dir)}
        return subprocess.run([MAKE, *goals], cwd=self.dir, env=env, capture_output=True, text=True, timeout=60, check=False)

    def calls(self) -> list[str]:
        """What ran, but `id` (make asks it who runs it)."""
        return [line for line in self.log.read_text().splitlines() if not line.startswith("id ")]

    def made_nothing(self) -> bool:
        return not any((self.dir / d).exists() for d in (".tools", ".venv", "node_modules", "kum_widget"))


def fresh(tmp_path: Path, *, root: bool, have: tuple[str, ...] = (), apt_status: int = 0) -> Machine:
    """A fresh machine: Python and make, and of Chromium, Node.js and npm only what it `have`s."""
    return Machine(tmp_path, root=root, have=have, apt_status=apt_status)


@pytest.mark.parametrize("goal", ["test", "pytest", "-j4 test"])
def test_not_root_without_chromium_stops_at_once_with_the_command(tmp_path: Path, goal: str) -> None:
    m = fresh(tmp_path, root=False, have=("node", "npm"))
    result = m.make(*goal.split())
    assert result.returncode != 0
    assert "sudo apt-get install -y chromium\n" in result.stderr, result.stderr
    assert m.calls() == [], "make ran something before stopping"
    assert m.made_nothing()


@pytest.mark.parametrize("goal", ["test", "lab", "env", "js"])
def test_not_root_without_node_stops_at_once_with_the_command(tmp_path: Path, goal: str) -> None:
    m = fresh(tmp_path, root=False, have=("chromium",))
    result = m.make(goal)
    assert result.returncode != 0
    assert "sudo apt-get install -y nodejs npm\n" in result.stderr, result.stderr
    assert m.calls() == [], "make ran something before stopping"
    assert m.made_nothing()


def test_not_root_without_either_names_chromium_first_for_make_test(tmp_path: Path) -> None:
    result = fresh(tmp_path, root=False).make("test")
    assert result.returncode != 0
    assert "sudo apt-get install -y chromium" in result.stderr
    assert "nodejs" not in result.stderr  # one command at a time: the next run names the next


def test_make_lab_does_not_need_chromium(tmp_path: Path) -> None:
    m = fresh(tmp_path, root=False, have=("node", "npm"))
    result = m.make("lab")
    assert "chromium" not in result.stdout + result.stderr
    assert m.calls()[:1] == ["python3 -m venv .tools"], m.calls()  # on to the bootstrap (which the fakes fail)


def ready(m: Machine) -> None:
    """What a first `make` leaves (uv, the synced .venv with its commands, the built front-end),
    each newer than what it was made from: make goes straight to the goal's own command."""
    import time

    later = time.time() + 60
    for rel in (".tools/bin/uv", ".venv/.synced", ".venv/bin/jupyter", ".venv/bin/python",
                "kum_widget/static/widget.js", "kum_widget/static/widget.css", "kum_widget/static/replay.js"):
        path = m.dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(m.bin / ".recorder", path)
        os.utime(path, (later, later))


def test_make_lab_serves_the_repository_and_opens_the_play_notebook(tmp_path: Path) -> None:
    """The README's `make lab`: JupyterLab rooted at the repository (so RULES.md, COURT.md and
    the notebooks' links to them are reachable), with the server config, on notebooks/01_play.ipynb."""
    m = fresh(tmp_path, root=False, have=("node", "npm"))
    ready(m)
    result = m.make("lab")
    assert result.returncode == 0, result.stderr
    assert m.calls() == [f"jupyter lab --config=jupyter/jupyter_server_config.py --ServerApp.root_dir={m.dir} notebooks/01_play.ipynb"]
    (tmp_path / "as-root").mkdir()
    root = fresh(tmp_path / "as-root", root=True, have=("node", "npm"))
    ready(root)
    root.make("lab")
    assert root.calls()[0].startswith("jupyter lab --allow-root --config=jupyter/jupyter_server_config.py --ServerApp.root_dir=")


def test_make_html_runs_the_readmes_export_command(tmp_path: Path) -> None:
    """README, "Send a game": `make html NB=...` is the nbconvert command written under it."""
    m = fresh(tmp_path, root=False, have=("node", "npm"))
    ready(m)
    readme = (ROOT / "README.md").read_text()
    block = readme.split("make html NB=notebooks/01_play.ipynb\n", 1)[1].split("```", 1)[0]
    said = block.split("# that is: ", 1)[1].strip()
    assert m.make("html", "NB=notebooks/01_play.ipynb").returncode == 0
    assert m.calls() == [said]


def test_make_bench_measures_this_tree_against_base(tmp_path: Path) -> None:
    """`make bench` is bench/against.py (base and this tree in one run); BASE names the base,
    and without it the script picks its default (bench/README.md)."""
    m = fresh(tmp_path, root=False, have=("chromium", "node", "npm"))
    ready(m)
    assert m.make("bench", "BASE=HEAD~3", "BENCH_ARGS=--rounds 1").returncode == 0
    assert m.make("bench").returncode == 0
    assert m.calls() == ["python bench/against.py --base HEAD~3 --rounds 1", "python bench/against.py"]


def test_root_installs_chromium_with_apt_get_then_goes_on(tmp_path: Path) -> None:
    m = fresh(tmp_path, root=True, have=("node", "npm"))
    result = m.make("test")
    calls = m.calls()
    assert calls[:3] == [
        "apt-get update -qq DEBIAN_FRONTEND=",
        "apt-get install -y -qq chromium DEBIAN_FRONTEND=noninteractive",
        "python3 -m venv .tools",  # then the bootstrap, as on any machine (the fakes stop it there)
    ], (calls, result.stderr)
    assert (m.bin / "chromium").exists()


def test_root_installs_chromium_then_node_before_anything_else(tmp_path: Path) -> None:
    m = fresh(tmp_path, root=True)
    m.make("test")
    assert m.calls()[:5] == [
        "apt-get update -qq DEBIAN_FRONTEND=",
        "apt-get install -y -qq chromium DEBIAN_FRONTEND=noninteractive",
        "apt-get update -qq DEBIAN_FRONTEND=",
        "apt-get install -y -qq nodejs npm DEBIAN_FRONTEND=noninteractive",
        "python3 -m venv .tools",
    ], m.calls()


def test_root_when_apt_get_fails_stops(tmp_path: Path) -> None:
    m = fresh(tmp_path, root=True, have=("node", "npm"), apt_status=100)
    result = m.make("test")
    assert result.returncode != 0
    assert [c.split(" DEBIAN")[0] for c in m.calls()] == ["apt-get update -qq"]  # the fake fails every call
    assert m.made_nothing()


@pytest.mark.parametrize("root", [True, False])
def test_with_chromium_and_node_present_nothing_is_installed(tmp_path: Path, root: bool) -> None:
    m = fresh(tmp_path, root=root, have=("chromium", "node", "npm"))
    result = m.make("browser", "node")
    assert result.returncode == 0, result.stderr
    assert m.calls() == []
    assert result.stdout == result.stderr == ""


def test_chromium_browser_counts_as_chromium(tmp_path: Path) -> None:
    m = fresh(tmp_path, root=False, have=("chromium-browser",))
    assert m.make("browser").returncode == 0
    assert m.calls() == []


def test_ci_runs_make_test_which_installs_the_rest(tmp_path: Path) -> None:
    """.ci/run installs make if it must (as root), then runs `make test`, `make soak` and `make test-site` (the fake make here)."""
    m = fresh(tmp_path, root=True)
    (m.dir / ".ci").mkdir()
    shutil.copy2(ROOT / ".ci" / "run", m.dir / ".ci" / "run")
    env = {"PATH": str(m.bin), "HOME": str(m.dir)}
    bash = shutil.which("bash") or "/bin/bash"
    result = subprocess.run([bash, str(m.dir / ".ci" / "run")], env=env, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert m.calls() == ["make test", "make soak", "make test-site"]
    m.hide("make")
    m.log.write_text("")
    result = subprocess.run([bash, str(m.dir / ".ci" / "run")], env=env, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert m.calls() == [
        "apt-get update -qq DEBIAN_FRONTEND=",
        "apt-get install -y -qq make DEBIAN_FRONTEND=noninteractive",
        "make test",
        "make soak",
        "make test-site",
    ]


def test_readme_names_the_same_command() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    assert "sudo apt-get install -y chromium" in section
    assert "nodejs npm" in section
    assert os.access(ROOT / ".ci" / "run", os.X_OK)
