"""The browser tests' rooms on the worker's JupyterLab (tests/labserver.py): a room's first
notebook gets the kernel started for it ahead (``LabServer.spare``) and runs in the room's own
folder, as a kernel JupyterLab starts would; its other notebooks start kernels of their own
there; and the room's kernels are gone when the test ends."""

from __future__ import annotations

import os
from typing import Any

from _chromium import watched_page
from labserver import notebook_of, open_notebook, run_cell


def cwd_cell(name: str) -> str:
    """A cell that prints its kernel's folder and process, marked with ``name`` (a page may show
    both notebooks: each cell is found by its own marker)."""
    return f'import os; print("KUM-CWD-{name}", os.getcwd(), os.getpid())'


def test_a_rooms_notebooks_run_in_its_folder_the_first_on_the_spare_kernel(lab_room: Any, browser: Any) -> None:
    room = lab_room({"one.ipynb": notebook_of(cwd_cell("one")), "two.ipynb": notebook_of(cwd_cell("two"))})
    server = room.server
    spare = server.spare
    assert spare is not None and spare.folder == room.folder
    kernel = spare.kernel()
    assert kernel is not None
    ran = []
    for name in ("one", "two"):
        page, errors = watched_page(browser, width=1280, height=900)
        open_notebook(page, room, f"{name}.ipynb")
        said = run_cell(page, f"KUM-CWD-{name}", shows=rf"KUM-CWD-{name} \S+ \d+")
        cwd, pid = said.split(f"KUM-CWD-{name} ", 1)[1].split()[:2]
        ran.append((os.path.realpath(cwd), pid))
        assert errors == []
        page.close()
    assert {cwd for cwd, _ in ran} == {os.path.realpath(room.dir)}
    assert ran[0][1] != ran[1][1]  # a kernel each
    sessions = {s["path"]: s["kernel"]["id"] for s in room.sessions()}
    assert sessions[f"{room.folder}/one.ipynb"] == kernel
    assert sessions[f"{room.folder}/two.ipynb"] != kernel
    assert server.spare is not None and server.spare.folder != room.folder  # the next room's, started already
    room.close()
    assert room.sessions() == []
    assert kernel not in {k["id"] for k in server.kernels()}
