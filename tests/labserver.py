"""A real `jupyter lab` (or Jupyter Notebook 7: ``app="notebook"``) on a free localhost
port, isolated, for end-to-end tests and the latency benchmark. It serves copies of the notebooks (so autosave never touches
the committed ones) and has its own config, settings, runtime and workspace folders.

The tests share one server per worker (conftest's ``lab_server``): each test gets a
``LabRoom`` on it, a folder of its own with fresh copies of its notebooks (so a kernel of its
own for each), whose kernels are shut down when the test ends. They share one page of it too
(``LabServer.tab``): JupyterLab takes seconds to start in a page, a notebook opened in a page
where it runs already a fraction of one. And the next room's first kernel starts while the
current test runs (``LabServer.spare``): a kernel takes seconds to start on a busy machine.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, ClassVar

from _chromium import WAIT_MS, dismiss_intro, wait_board_changed, wait_until

ROOT = Path(__file__).resolve().parent.parent
NODELAY_CONFIG = ROOT / "jupyter" / "jupyter_server_config.py"
START_S = 180  # seconds a server may take to answer: a loaded 2-core machine takes far longer than an idle one
PORT_TRIES = 3  # a free port found is free no more once another process (a parallel worker's server) takes it first

# Settings that keep the page quiet and every cell rendered (no windowing).
SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none", "autoStartDefaultKernel": True},
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def kept_contexts() -> list[Any]:
    """The browser contexts of the running servers' kept pages (``LabServer.tab``)."""
    return [c for c in (server.tab_context() for server in LabServer.running) if c is not None]


class LabServer:
    """``with LabServer(notebooks) as lab: page.goto(lab.url("01_play.ipynb"))``"""

    def __init__(self, notebooks: dict[str, Any] | None = None, *, nodelay: bool = True, theme: str | None = None,
                 app: str = "lab") -> None:
        if app not in ("lab", "notebook"):
            raise ValueError(f"app is 'lab' or 'notebook', got {app!r}")
        self.app = app  # Notebook 7 is a server extension app like Lab: the same flags and folders
        self.notebooks = notebooks or {}  # file name -> notebook JSON (dict)
        self.nodelay = nodelay
        self.theme = theme
        self.port = free_port()
        self.token = os.urandom(16).hex()
        self.tmp = Path(tempfile.mkdtemp(prefix="kum-lab-"))
        self.root = self.tmp / "notebooks"
        self.settings = self.tmp / "settings"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = self.tmp / "server.log"
        self.rooms = 0
        self._tab: Any = None  # the page JupyterLab is kept running in (``tab``)
        self._tab_errors: list[str] = []
        self.spare: Spare | None = None  # the kernel started ahead for the next room's first notebook

    running: ClassVar[list[LabServer]] = []  # (class-wide) the servers entered and not yet exited

    def __enter__(self) -> LabServer:
        LabServer.running.append(self)
        root = self.root
        root.mkdir()
        for name, nb in self.notebooks.items():
            (root / name).write_text(json.dumps(nb))
        settings = self.settings
        for rel, value in SETTINGS.items():
            if self.app == "notebook" and "notification" in rel:
                continue  # Notebook 7 has no news plugin: a settings file for it breaks its settings load
            path = settings / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(value))
        if self.theme:
            path = settings / "@jupyterlab/apputils-extension/themes.jupyterlab-settings"
            path.write_text(json.dumps({"theme": self.theme}))
        env = {
            **os.environ,
            "JUPYTER_CONFIG_DIR": str(self.tmp / "config"),
            "JUPYTER_RUNTIME_DIR": str(self.tmp / "runtime"),
            "JUPYTERLAB_SETTINGS_DIR": str(settings),
            "JUPYTERLAB_WORKSPACES_DIR": str(self.tmp / "workspaces"),
            "IPYTHONDIR": str(self.tmp / "ipython"),
        }
        for attempt in range(PORT_TRIES):
            if attempt:
                self.port = free_port()
            cmd = [
                sys.executable, "-m", "jupyter", self.app, "--no-browser", "--ip=127.0.0.1", f"--port={self.port}",
                f"--ServerApp.token={self.token}", f"--ServerApp.root_dir={root}", "--ServerApp.port_retries=0",
            ]
            if os.geteuid() == 0:
                cmd.append("--allow-root")
            if self.nodelay:
                cmd.append(f"--config={NODELAY_CONFIG}")
            if self.app == "lab":  # window.jupyterapp: the kept page (``tab``) opens notebooks with the app's own commands
                cmd.append("--LabApp.expose_app_in_browser=True")
            if self._started(cmd, env, root):
                self.spare = Spare(self, self._next_folder())
                return self
        raise RuntimeError(f"jupyter {self.app} found no free port in {PORT_TRIES} tries: {self.log_path.read_text()[-2000:]}")

    def _started(self, cmd: list[str], env: dict[str, str], root: Path) -> bool:
        """True once the server answers; False if it exited because its port was taken."""
        log = self.log_path.open("wb")
        self.proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root)
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                text = self.log_path.read_text(errors="replace")
                if "already in use" in text:
                    return False
                raise RuntimeError(f"jupyter {self.app} exited: {text[-2000:]}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/status?token={self.token}", timeout=10) as r:
                    if r.status == 200:
                        return True
            except OSError:
                time.sleep(0.3)  # (polling, within the deadline)
        text = self.log_path.read_text(errors="replace")[-2000:]
        self.__exit__(None, None, None)
        raise RuntimeError(f"jupyter {self.app} did not answer /api/status within {START_S} s: {text}")

    def room(self, notebooks: dict[str, Any], *, theme: str | None = None,
             settings: dict[str, dict[str, Any]] | None = None) -> LabRoom:
        """A folder of its own on this server with ``notebooks`` in it, the theme ``theme``
        (JupyterLab's default without one) and the user ``settings`` (a file under the
        settings folder -> its JSON) while it is open: one test's notebooks, kernels and
        settings. The settings are the server's: one room is open at a time."""
        spare = self.spare
        if spare is not None and spare.room_made:  # its room opened no notebook: a spare for this one
            spare.discard()
            spare = self.spare = Spare(self, self._next_folder())
        if spare is not None:
            spare.room_made = True
        folder = spare.folder if spare is not None else self._next_folder()
        return LabRoom(self, folder, notebooks, theme=theme, settings=settings or {})

    def _next_folder(self) -> str:
        self.rooms += 1
        folder = f"t{self.rooms:04d}"
        (self.root / folder).mkdir()
        return folder

    def open_session(self, room: LabRoom, notebook: str) -> None:
        """Before ``notebook`` of ``room`` opens: its session with the spare kernel, if that was
        started for this room (JupyterLab then joins the session, as it does a notebook's session
        left running); and a spare started for the next room."""
        spare = self.spare
        if spare is None or spare.folder != room.folder:
            return
        self.spare = Spare(self, self._next_folder())
        kernel = spare.kernel()
        if kernel is not None:
            path = f"{room.folder}/{notebook}"
            self._api("/api/sessions", "POST", {"path": path, "name": notebook, "type": "notebook", "kernel": {"id": kernel}})

    def _api(self, path: str, method: str = "GET", body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}?token={self.token}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            answer = r.read()
        return json.loads(answer) if answer else None

    def kernels(self) -> list[dict[str, Any]]:
        return list(self._api("/api/kernels"))

    def wait_kernel_connected(self, timeout: float = WAIT_MS / 1000) -> None:
        """Wait until a kernel is idle with the page's websocket attached."""
        deadline = time.monotonic() + timeout
        kernels: list[dict[str, Any]] = []
        while time.monotonic() < deadline:
            try:
                kernels = self.kernels()
            except OSError:  # the listing can fail while another kernel is shutting down
                kernels = []
            if any(k.get("connections", 0) >= 1 and k.get("execution_state") == "idle" for k in kernels):
                return
            time.sleep(0.25)
        raise RuntimeError(f"no kernel idle with the page connected after {timeout:.0f} s: {kernels}")

    def tab(self, browser: Any, *, width: int, height: int, **media: Any) -> tuple[Any, list[str]]:
        """The page this JupyterLab is kept running in, ``width`` x ``height`` with ``media``
        emulated, as a new page would be: no document open, empty storage (a first-time panel
        shows again), no media emulated but ``media``; and the list its JavaScript errors go
        to from now. ``open_notebook`` opens a notebook in it with JupyterLab's own command,
        without loading JupyterLab again. The test's end hands it back (``release_tab``)."""
        from _chromium import new_page

        if self.app != "lab":
            raise ValueError("only a JupyterLab server keeps a page (Notebook 7 opens a page per notebook)")
        if self._tab is None or self._tab.is_closed():
            self._tab = new_page(browser, width=width, height=height)
            self._tab.on("pageerror", lambda exc: self._tab_errors.append(str(exc)))
        page = self._tab
        self._close_documents()
        page.set_viewport_size({"width": width, "height": height})
        page.emulate_media(**{"media": "null", "color_scheme": "null", "reduced_motion": "null", "forced_colors": "null", **media})
        if page.url.startswith("http"):
            page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
        self._tab_errors = []
        return page, self._tab_errors

    def kept(self, page: Any) -> bool:
        """Whether ``page`` is this server's kept page (``tab``), running JupyterLab."""
        return page is self._tab and not page.is_closed() and bool(page.evaluate("() => !!window.jupyterapp"))

    def release_tab(self, *, failed: bool) -> None:
        """A test is done with the kept page: its documents closed (their kernels left to the
        room to shut down); after a failure the page itself, whatever state it was left in."""
        if self._tab is None or self._tab.is_closed():
            return
        if failed:
            self._tab.context.close()
            return
        try:
            self._close_documents()
        except Exception:  # a page that cannot close its documents is not kept
            self._tab.context.close()

    def tab_context(self) -> Any:
        """The browser context of the kept page (kept open when a test's pages are closed), or None."""
        return None if self._tab is None or self._tab.is_closed() else self._tab.context

    def _close_documents(self) -> None:
        # Disposed without asking: "Save your work?" would hold the close, and autosave may
        # not have run (the notebook's copy is the test's own). The panels as a new page has
        # them: the file browser open on the left, nothing on the right.
        if self._tab.url.startswith("http"):
            self._tab.evaluate("""() => { const app = window.jupyterapp; if (!app) return;
              for (const w of Array.from(app.shell.widgets('main'))) { if (w.context) w.context.model.dirty = false; w.dispose(); }
              document.querySelectorAll('.jp-Dialog').forEach(d => d.remove());
              app.shell.mode = 'multiple-document'; app.shell.activateById('filebrowser'); app.shell.collapseRight(); }""")

    def url(self, notebook: str) -> str:
        if self.app == "notebook":  # one notebook per page, no workspace to reset
            return f"http://127.0.0.1:{self.port}/notebooks/{notebook}?token={self.token}"
        return f"http://127.0.0.1:{self.port}/lab/tree/{notebook}?token={self.token}&reset"

    def __exit__(self, *exc: object) -> None:
        if self in LabServer.running:
            LabServer.running.remove(self)
        if self.proc is not None and self.proc.poll() is None:
            try:  # shut down kernels politely, then the server (killed, it would leave its kernels running)
                req = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/shutdown?token={self.token}", method="POST")
                urllib.request.urlopen(req, timeout=30).close()
                self.proc.wait(timeout=60)
            except Exception:
                self.proc.kill()
                self.proc.wait(timeout=10)
        shutil.rmtree(self.tmp, ignore_errors=True)


THEMES = "@jupyterlab/apputils-extension/themes.jupyterlab-settings"


class Spare:
    """A kernel of ``server`` started now, in the background, with ``folder`` as its working
    folder (a room's folder, so files a notebook writes land where they would), for that room's
    first notebook (``LabServer.open_session``)."""

    def __init__(self, server: LabServer, folder: str) -> None:
        self.server, self.folder = server, folder
        self.room_made = False  # a room has this folder
        self._id: str | None = None
        self._thread = threading.Thread(target=self._start, name=f"spare kernel {folder}", daemon=True)
        self._thread.start()

    def _start(self) -> None:
        try:
            self._id = str(self.server._api("/api/kernels", "POST", {"path": self.folder})["id"])
        except (OSError, KeyError, TypeError, ValueError):
            self._id = None  # the notebook starts its own kernel, as without a spare

    def kernel(self) -> str | None:
        """The kernel's id once it has started; None if it could not start."""
        self._thread.join(START_S)
        return self._id

    def discard(self) -> None:
        kernel = self.kernel()
        if kernel is not None:
            try:
                self.server._api(f"/api/kernels/{kernel}", "DELETE")
            except OSError:
                pass  # a server already gone took its kernels with it


class LabRoom:
    """One test's part of a shared ``LabServer``: a folder with fresh copies of its notebooks
    (opened, each starts a kernel of its own), its theme and settings; ``close()`` shuts its
    kernels down and puts the settings back. Opened as ``LabServer``'s own notebooks are:
    ``open_notebook(page, room, name)``."""

    def __init__(self, server: LabServer, folder: str, notebooks: dict[str, Any], *, theme: str | None,
                 settings: dict[str, dict[str, Any]]) -> None:
        self.server, self.folder, self.app = server, folder, server.app
        # JupyterLab reads its theme and settings when it loads: a room with its own opens a new page
        self.in_tab = server.app == "lab" and not theme and not settings
        self.dir = server.root / folder  # made by the server (``LabServer.room``)
        for name, nb in notebooks.items():
            (self.dir / name).write_text(json.dumps(nb))
        self.written = [server.settings / rel for rel in settings]
        for path, value in zip(self.written, settings.values(), strict=True):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(value))  # read by a page when it loads
        themes = server.settings / THEMES
        if theme:
            themes.parent.mkdir(parents=True, exist_ok=True)
            themes.write_text(json.dumps({"theme": theme}))
            self.written.append(themes)
        else:
            themes.unlink(missing_ok=True)

    def path(self, notebook: str) -> Path:
        """The notebook's file, as the server saves it."""
        return self.dir / notebook

    def url(self, notebook: str) -> str:
        return self.server.url(f"{self.folder}/{notebook}")

    def sessions(self) -> list[dict[str, Any]]:
        """The server's sessions (an open notebook and its kernel) of this room's notebooks."""
        return [s for s in self.server._api("/api/sessions") if str(s.get("path", "")).startswith(f"{self.folder}/")]

    def wait_kernel_connected(self, timeout: float = WAIT_MS / 1000) -> None:
        """Wait until one of this room's kernels is idle with a page's websocket attached."""
        deadline = time.monotonic() + timeout
        kernels: list[dict[str, Any]] = []
        while time.monotonic() < deadline:
            try:
                kernels = [s["kernel"] for s in self.sessions() if s.get("kernel")]
            except OSError:  # the listing can fail while another kernel is shutting down
                kernels = []
            if any(k.get("connections", 0) >= 1 and k.get("execution_state") == "idle" for k in kernels):
                return
            time.sleep(0.25)  # (polling, within the deadline)
        raise RuntimeError(f"no kernel of {self.folder}/ idle with the page connected after {timeout:.0f} s: {kernels}")

    def close(self) -> None:
        """Shut this room's kernels down (the server outlives them) and take its settings back."""
        try:
            for s in self.sessions():
                self.server._api(f"/api/sessions/{s['id']}", method="DELETE")
        except OSError:
            pass  # a server already gone took its kernels with it
        for path in self.written:
            path.unlink(missing_ok=True)


def set_parameters(nb: dict[str, Any], **values: Any) -> dict[str, Any]:
    """Rewrite the notebook's cell tagged "parameters" with ``values``."""
    for cell in nb["cells"]:
        if "parameters" in cell.get("metadata", {}).get("tags", []):
            cell["source"] = "\n".join(f"{k} = {v!r}" for k, v in values.items())
            return nb
    raise ValueError("the notebook has no cell tagged 'parameters'")


def code_cell(source: str) -> dict[str, Any]:
    return {"cell_type": "code", "metadata": {}, "source": source, "outputs": [], "execution_count": None}


def notebook_of(*cells: str | dict[str, Any]) -> dict[str, Any]:
    """A Python 3 notebook of ``cells``: a text is a code cell, a dict a cell as it is."""
    return {"cells": [code_cell(c) if isinstance(c, str) else c for c in cells],
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}}, "nbformat": 4, "nbformat_minor": 5}


def wait_idle(page: Any, timeout: float = WAIT_MS) -> None:
    """Wait until the notebook's kernel is idle (the toolbar's execution indicator),
    accepting the kernel choice if JupyterLab asks for one."""
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle'], .jp-Dialog", timeout=timeout)
    dialog = page.locator(".jp-Dialog .jp-mod-accept")
    if dialog.count():
        dialog.first.click()
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=timeout)


def open_notebook(page: Any, lab: LabServer | LabRoom, name: str) -> None:
    """Open ``name`` and wait for its kernel: idle, with this page connected to it. In the
    server's kept page (``LabServer.tab``), once JupyterLab runs there, with its own command."""
    server = lab.server if isinstance(lab, LabRoom) else lab
    if isinstance(lab, LabRoom):
        server.open_session(lab, name)
    if server.kept(page):
        path = f"{lab.folder}/{name}" if isinstance(lab, LabRoom) else name
        # Awaited, but nothing returned: Playwright would serialize the panel the command
        # returns, JupyterLab's object graph with it (seconds of the page's time).
        page.evaluate("async path => { await window.jupyterapp.commands.execute('docmanager:open', {path, factory: 'Notebook'}); }", path)
    else:
        page.goto(lab.url(name), timeout=WAIT_MS)
    page.wait_for_selector(".jp-NotebookPanel", timeout=WAIT_MS)
    wait_idle(page)
    lab.wait_kernel_connected()


def run_all(page: Any) -> None:
    """Run > Run All Cells; again if no cell started (a click can land before the
    notebook is wired to its kernel). The wait for a start is long: a click that took
    and was repeated would run every cell twice, and replace the boards being clicked."""
    started = "() => [...document.querySelectorAll('.jp-InputPrompt')].some(e => /\\[[0-9*]+\\]/.test(e.textContent))"
    for _ in range(3):
        page.locator(".lm-MenuBar-item", has_text="Run").first.click()
        page.locator(".lm-Menu-item[data-command='runmenu:run-all']").click()
        try:
            wait_until(page, started, what="a cell to start", timeout=WAIT_MS / 2)
            return
        except AssertionError:
            page.keyboard.press("Escape")
    raise RuntimeError("Run All Cells did not start any cell")


# The first code cell whose text has `marker` (case and all, as `cell_with` finds it).
CELL = "marker => [...document.querySelectorAll('.jp-CodeCell')].find(c => c.textContent.includes(marker))"

# The cell has run since its prompt read `before` ("[2]:"; "[*]:" while it runs): a new
# number and, with `shows`, an output that matches that regular expression. Read afresh
# at each check: a run replaces the cell's output elements.
RAN = f"""([marker, before, shows]) => {{
  const cell = ({CELL})(marker), prompt = cell?.querySelector('.jp-InputPrompt').textContent.trim();
  const out = cell ? [...cell.querySelectorAll('.jp-OutputArea-output')].map(o => o.textContent).join('\\n') : '';
  return /\\[\\d+\\]/.test(prompt ?? '') && prompt !== before && (shows === null || new RegExp(shows).test(out));
}}"""


def cell_with(page: Any, marker: str) -> Any:
    """The first code cell whose text (source or output) contains ``marker``."""
    return page.locator(".jp-CodeCell", has_text=re.compile(re.escape(marker))).first


def run_cell(page: Any, marker: str, shows: str | None = None) -> str:
    """Run the code cell whose source contains ``marker`` (click it, Shift+Enter), wait until
    it has run (its prompt shows a new number and, with ``shows``, its output matches that
    regular expression) and return its output's text."""
    cell = cell_with(page, marker)
    # not queued or running already: that run ending would pass for this one
    wait_until(page, f"marker => !/\\*/.test(({CELL})(marker)?.querySelector('.jp-InputPrompt').textContent ?? '*')", marker,
               what=f"the cell with {marker!r}, not running")
    before = cell.locator(".jp-InputPrompt").text_content().strip()
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    outputs = cell.locator(".jp-OutputArea-output")
    try:
        wait_until(page, RAN, [marker, before, shows],
                   what=f"the cell with {marker!r} to run (its prompt was {before})" + (f" and print /{shows}/" if shows else ""))
    except AssertionError as exc:
        raise AssertionError(f"{exc}; it shows {cell.locator('.jp-InputPrompt').text_content()} {outputs.all_text_contents()}") from None
    return "\n".join(outputs.all_text_contents())


def snapshot(board: Any, **selectors: str) -> dict[str, Any]:
    """The board's state id and, for each selector, how many elements match, read in one
    go inside the page: a bot's move cannot fall between reading the id and the board."""
    return dict(board.evaluate(
        "(root, sels) => ({sid: root.dataset.stateId, over: !!root.querySelector('.kum-over'),"
        " ...Object.fromEntries(Object.entries(sels).map(([k, s]) => [k, root.querySelectorAll(s).length]))})",
        selectors,
    ))


def click_once(page: Any, board: Any) -> bool:
    """One decision by clicking: a playable card then a lit target, or a target or a button
    on its own; False once the game is over. Decided from one reading of the page; with
    nothing to click (a bot to move), after the bot's move comes in. The first-time panel,
    open, is put away first (it lies over the board and would take the click)."""
    dismiss_intro(board)
    now = snapshot(board, playable="[data-playable]:not([disabled])", direct="[data-action]:not([disabled]):not(.kum-lit)")
    if now["over"]:
        return False
    if now["playable"]:
        board.locator("[data-playable]:not([disabled])").first.click()
        board.locator(".kum-lit[data-action]").first.click()  # lit at once, no round trip
    elif now["direct"]:
        board.locator("[data-action]:not([disabled]):not(.kum-lit)").first.click()
    else:  # a bot's turn (its reply is late on a busy machine): wait for its move, then decide again
        wait_board_changed(page, board, now["sid"], f"a bot's move (nothing to click on a board that is not over: {now})")
        return click_once(page, board)
    wait_board_changed(page, board, now["sid"], "the answer to a click")
    return True
