"""Fixtures of the course site's tests (`make test-site`, marker ``site``): lite/build.py as a
module, the site built once per session (site/, as `make site` leaves it) and served from
127.0.0.1 under /course/, as a teacher would publish it."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def lite_module(name: str) -> ModuleType:
    """lite/<name>.py (a script folder, not a package) as a module."""
    spec = importlib.util.spec_from_file_location(f"lite_{name}", ROOT / "lite" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def lite_build() -> ModuleType:
    return lite_module("build")


@pytest.fixture(scope="session")
def site_dir() -> Path:
    """The built site: `make test-site` builds it first; built here when site/ has none."""
    site = ROOT / "site"
    if not (site / "index.html").exists():
        subprocess.run([sys.executable, str(ROOT / "lite" / "build.py")], check=True)
    return site


@pytest.fixture(scope="session")
def site_url(site_dir: Path) -> Iterator[str]:
    """The site served from 127.0.0.1 under /course/ (a free port)."""
    httpd, url = lite_module("serve").serve_in_thread(site_dir, "/course/")
    with httpd:
        yield url
        httpd.shutdown()
