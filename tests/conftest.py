"""The fixtures every folder of tests/ shares: a real headless Chromium (Debian's package)
driven by Playwright, the worker's notebook servers, and the hooks that mark and end a run. A
folder's own conftest.py holds what only its tests use (tests/README.md)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import xdist_groups

if TYPE_CHECKING:
    from labserver import LabRoom, LabServer

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


@pytest.fixture(scope="session")
def lab_server() -> Iterator[LabServer]:
    """The worker's one JupyterLab, started for its first browser test that needs one and
    shared by all: a server takes seconds to start on a busy machine, a folder (``lab_room``)
    none."""
    from labserver import LabServer

    with LabServer() as server:
        yield server


@pytest.fixture(scope="session")
def notebook7_server() -> Iterator[LabServer]:
    """The worker's one Jupyter Notebook 7 server, as ``lab_server``."""
    from labserver import LabServer

    with LabServer(app="notebook") as server:
        yield server


@pytest.fixture
def lab_room(request: pytest.FixtureRequest, browser: object) -> Iterator[Callable[..., LabRoom]]:
    """``lab_room(notebooks, app="lab", theme=None, settings=None)``: a folder of this test's
    own on the worker's JupyterLab (``app="notebook"``: its Notebook 7) with fresh copies of
    ``notebooks`` (a kernel of their own each), the theme and user settings the test asks for.
    When the test ends its pages are closed, then its kernels shut down and its settings
    taken back: the next test finds the server as it was."""
    rooms: list[LabRoom] = []

    def make(notebooks: dict[str, Any], *, app: str = "lab", theme: str | None = None,
             settings: dict[str, dict[str, Any]] | None = None) -> LabRoom:
        if app not in ("lab", "notebook"):
            raise ValueError(f"app is 'lab' or 'notebook', got {app!r}")
        server: LabServer = request.getfixturevalue("lab_server" if app == "lab" else "notebook7_server")
        rooms.append(server.room(notebooks, theme=theme, settings=settings))
        return rooms[-1]

    yield make
    for server in {id(room.server): room.server for room in rooms}.values():
        server.release_tab(failed=failed(request))  # its documents closed: a page still open would keep its kernel busy
    _close_pages(browser)
    for room in rooms:
        room.close()


FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[pytest.TestReport]:
    report = yield
    if report.failed:
        item.stash[FAILED] = True
    return report


def failed(request: pytest.FixtureRequest) -> bool:
    """Whether the test failed so far (set up or run): its pages are not kept for the next."""
    return request.node.stash.get(FAILED, False)


def _close_pages(browser: Any) -> None:
    """Close every page of the browser but the lab servers' kept ones (``LabServer.tab``)."""
    import sys

    labserver = sys.modules.get("labserver")  # (not imported: no server, nothing kept)
    kept = {id(c) for c in labserver.kept_contexts()} if labserver is not None else set()
    for context in browser.contexts:
        if id(context) not in kept:
            context.close()


@pytest.fixture(autouse=True)
def _pages_closed(request: pytest.FixtureRequest) -> Iterator[None]:
    """A browser test's pages are closed when it ends, failed or not: a page left open (an
    assertion failed before its ``page.close()``) keeps its notebook's kernel connected and
    its timers running into the next tests."""
    yield
    if "browser" in request.fixturenames:
        _close_pages(request.getfixturevalue("browser"))


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


# -- markers: `pytest -m "not e2e and not slow"` is the quick subset; `make test` runs all but the
# soaks, `make soak` the soaks ---------------------------------------------------------------------

_E2E_FIXTURES = {"browser", "page", "lab", "lab_server", "lab_room", "notebook7_server", "server", "notebook_server"}
_SLOW_MODULES = {"test_install", "test_notebooks", "test_widget_saved_state", "test_ismcts_process", "test_makefile"}
_SHARED_SCOPES = {"module", "class", "package"}


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """A conftest.py is pytest's to load, not a module of doctests: ``--doctest-modules`` would
    import each again as the module ``conftest``, the name they all have (tests/ has no
    packages), and find another folder's there."""
    return True if collection_path.name == "conftest.py" else None


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", default=False,
                     help="property tests at their full example counts (tests/_soak.py); `make soak` passes it")


def pytest_configure(config: pytest.Config) -> None:
    # before the test modules are imported: their hypothesis settings read it (tests/_soak.py)
    if config.getoption("soak"):
        os.environ["KUM_SOAK"] = "1"
    xdist_groups.register(config)  # (pytest-xdist's groups under pytest 9: tests/xdist_groups.py)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook reads the xdist_group marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark what drives a browser or a notebook server ``e2e`` (every test_e2e_* module, and
    any test using the browser fixture) and the modules that build, install or run whole
    notebooks ``slow``, so nobody has to remember to.

    Under ``pytest -n N --dist loadgroup`` (``make test``), a test that uses a module's (or
    class's) fixture runs on the worker its module's other such tests run on
    (``xdist_group``): the fixture is built once. Every other test goes to whichever worker
    is free: the browser tests share only their worker's session (one JupyterLab, one Chromium)."""
    for item in items:
        module = item.nodeid.split("::")[0].rsplit("/", 1)[-1].removesuffix(".py")
        if module.startswith("test_e2e_") or _E2E_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.e2e)
        if module in _SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
        info = getattr(item, "_fixtureinfo", None)
        if info is not None and any(d.scope in _SHARED_SCOPES for defs in info.name2fixturedefs.values() for d in defs):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
