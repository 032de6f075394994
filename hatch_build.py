"""Hatch build hook: the board's front-end (js/, bundled by esbuild) is built into
kum_widget/static/ inside every build of the package (wheel, sdist, editable), so
`pip install .`, `pip install git+...` and an sdist install ship a board that renders.

kum_widget/static/ is not in git (a fresh clone has none). The hook runs `npm ci` and
`npm run build` (package.json) when a built file is missing or older than the sources, the
rule `make js` follows; otherwise it builds nothing, so an sdist (which carries the built
files) installs without Node. The built files ship through `artifacts` (pyproject.toml).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# What `npm run build` writes (package.json), each loaded by the board or the replay page.
BUILT = ("kum_widget/static/widget.js", "kum_widget/static/widget.css", "kum_widget/static/replay.js")
SOURCES = ("package.json", "package-lock.json")


def stale(root: Path) -> list[str]:
    """The built files that are missing or older than a source (js/*, package*.json)."""
    sources = [root / name for name in SOURCES] + sorted((root / "js").rglob("*"))
    newest = max((p.stat().st_mtime for p in sources if p.is_file()), default=0.0)
    return [name for name in BUILT if not (root / name).is_file() or (root / name).stat().st_mtime < newest]


class FrontEndBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        todo = stale(root)
        if not todo:
            return
        missing = [name for name in todo if not (root / name).is_file()]
        npm = shutil.which("npm")
        if npm is None or shutil.which("node") is None:
            if not missing:  # present, only older than a source (e.g. dates lost on unpacking): use them
                self.app.display_warning(f"kum_widget: node/npm not found; shipping the built front-end as it is ({', '.join(todo)})")
                return
            raise RuntimeError(
                "kum_widget: building the board's front-end (js/ -> kum_widget/static/) needs Node.js and npm, "
                f"which are not on PATH; install them (e.g. `apt-get install -y nodejs npm`) and build again. Missing: {', '.join(missing)}"
            )
        if not (root / "package.json").is_file() or not (root / "js").is_dir():
            raise RuntimeError(f"kum_widget: {', '.join(missing or todo)} cannot be built: js/ or package.json is missing from {root}")
        self.app.display_info("kum_widget: building the front-end (npm ci, npm run build)")
        for cmd in ([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], [npm, "run", "--silent", "build"]):
            result = subprocess.run(cmd, cwd=root, check=False)
            if result.returncode != 0:
                raise RuntimeError(f"kum_widget: `{' '.join(['npm', *cmd[1:]])}` failed (exit {result.returncode}) in {root}")
        still = [name for name in BUILT if not (root / name).is_file()]
        if still:
            raise RuntimeError(f"kum_widget: `npm run build` did not write {', '.join(still)}")
