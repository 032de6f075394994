"""Shared fixtures: a real headless Chromium (Debian's package) driven by Playwright."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        raise RuntimeError("Chromium is not installed: run `apt-get install -y chromium` (.ci/run does it as root)")
    return path


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(autouse=True)
def _pages_closed(request: pytest.FixtureRequest) -> Iterator[None]:
    """A browser test's pages are closed when it ends, failed or not: a page left open (an
    assertion failed before its ``page.close()``) keeps its notebook's kernel connected and
    its timers running into the next tests."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


@pytest.fixture(autouse=True)
def _no_borrowed_loop(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test that uses no browser sees this thread as a script does, with no event loop
    running. Playwright's sync API (the session's ``browser``, once started) leaves its own
    loop marked as running on the thread between its calls: a board would take it for a
    notebook's and search a slice at a time on a loop nothing turns, and ``asyncio.run``
    would refuse to start. Browser tests keep it: their pages' calls turn it."""
    import asyncio

    loop = asyncio._get_running_loop()
    if loop is None or "browser" in request.fixturenames:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(loop)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def ctrl_c() -> Iterator[None]:
    """Ctrl-C raises KeyboardInterrupt in this process during the test, however pytest was
    started: a shell that starts a background job (``make test &``, nohup) makes it ignore
    SIGINT, the ignoring is inherited, and Python then installs no handler of its own."""
    import signal

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


# -- a run that has given its verdict ends ---------------------------------------------------

EXIT_GRACE = float(os.environ.get("KUM_EXIT_GRACE", "120"))  # seconds the interpreter may take to exit after the verdict


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Once the tests have run, the process must end: a library's exit handler that joins a
    thread stuck for good (seen once in CI: every test passed, the verdict was printed, then
    the run hung until CI killed it) would otherwise hold the run forever. ``EXIT_GRACE``
    seconds from here (the summary and the interpreter's exit take a second or two), a
    watchdog prints the threads still running, their stacks and the child processes, and
    exits with the verdict pytest gave."""
    import threading

    if hasattr(session.config, "workerinput"):  # an xdist worker: its controller ends it
        return
    threading.Thread(target=_end_a_stuck_exit, args=(session,), name="kum-exit-watchdog", daemon=True).start()


def _end_a_stuck_exit(session: pytest.Session) -> None:
    import faulthandler
    import sys
    import time

    time.sleep(EXIT_GRACE)
    status = int(session.exitstatus)  # (set by now: the hook that started this returned long ago)
    err = sys.__stderr__ or sys.stderr
    print(f"\npytest gave its verdict (exit status {status}) but the process has not exited {EXIT_GRACE:.0f} s after the tests ended; "
          "what is still running:", file=err, flush=True)
    import threading

    others = [t for t in threading.enumerate() if t is not threading.current_thread()]
    print("threads: " + ", ".join(f"{t.name} ({'daemon' if t.daemon else 'not daemon'}, id {t.ident:#x})" for t in others),
          file=err, flush=True)
    try:
        faulthandler.dump_traceback(file=err, all_threads=True)
    except (OSError, ValueError):
        pass
    try:
        import psutil

        for child in psutil.Process().children(recursive=True):
            print(f"child process {child.pid}: {' '.join(child.cmdline())[:200]}", file=err, flush=True)
    except Exception as exc:  # the report is best effort: exiting is what matters
        print(f"(child processes unknown: {exc})", file=err, flush=True)
    os._exit(status)


# -- markers: `pytest -m "not e2e and not slow"` is the quick subset; `make test` runs all -----

_E2E_FIXTURES = {"browser", "page", "lab", "lab_server", "server", "notebook_server"}
_SLOW_MODULES = {"test_install", "test_notebooks", "test_widget_saved_state", "test_ismcts_process", "test_makefile"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark what drives a browser or a notebook server ``e2e`` (every test_e2e_* module, and
    any test using the browser fixture) and the modules that build, install or run whole
    notebooks ``slow``, so nobody has to remember to."""
    for item in items:
        module = item.nodeid.split("::")[0].rsplit("/", 1)[-1].removesuffix(".py")
        if module.startswith("test_e2e_") or _E2E_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.e2e)
        if module in _SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
