"""A game shipped as its own package: an entry point of the group ``kum_widget.games`` is all
kum_widget needs to find it by name (README, "Your own game").

Each test builds small packages in a temporary folder (the game of tests/game_from_docs.py,
copied in, without its ``@core.register``), installs them with uv into a folder of their own
(``uv pip install --target``, offline, built by an in-tree build backend of a few lines, so no
package is fetched), and runs Python in a subprocess with that folder on PYTHONPATH: the lab
plays the game, a board draws it, and its records read back by name; a plug-in that fails
to import is an error for its own name only.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest
from _paths import ROOT, TESTS

GAME = "plugin-expeditions"

# PEP 517, in-tree (backend-path): a wheel of the package's modules with its metadata and
# entry points, read from its pyproject.toml. Standard library only: nothing to download.
BACKEND = '''
import base64, hashlib, tomllib, zipfile
from pathlib import Path


def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    project = tomllib.loads(Path("pyproject.toml").read_text())["project"]
    dist, version = project["name"].replace("-", "_"), project["version"]
    info = f"{dist}-{version}.dist-info"
    files = {p.as_posix(): p.read_bytes() for p in sorted(Path(".").rglob("*.py")) if p.name != "plugin_backend.py"}
    groups = project.get("entry-points", {})
    points = "".join(f"[{g}]\\n" + "".join(f"{k} = {v}\\n" for k, v in eps.items()) + "\\n" for g, eps in groups.items())
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\\nName: {project['name']}\\nVersion: {version}\\n".encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\\nGenerator: plugin_backend\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"
    files[f"{info}/entry_points.txt"] = points.encode()

    def digest(data):
        return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

    record = "".join(f"{n},sha256={digest(b)},{len(b)}\\n" for n, b in files.items()) + f"{info}/RECORD,,\\n"
    files[f"{info}/RECORD"] = record.encode()
    name = f"{dist}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(Path(wheel_directory) / name, "w") as wheel:
        for n, b in files.items():
            wheel.writestr(n, b)
    return name


def build_sdist(sdist_directory, config_settings=None):
    raise NotImplementedError("this test backend builds wheels only")
'''


def uv() -> str:
    path = ROOT / ".tools" / "bin" / "uv"  # `make env` puts it there
    found = str(path) if path.exists() else shutil.which("uv")
    if found is None:
        pytest.fail("uv is not installed: run `make env`")
    return found


def package(where: Path, name: str, points: dict[str, str], modules: dict[str, str]) -> Path:
    """A source tree: pyproject.toml (its entry points in kum_widget.games), the backend, ``modules``."""
    root = where / name
    root.mkdir()
    table = "\n".join(f'{k} = "{v}"' for k, v in points.items())
    (root / "pyproject.toml").write_text(
        '[build-system]\nrequires = []\nbuild-backend = "plugin_backend"\nbackend-path = ["."]\n\n'
        f'[project]\nname = "{name}"\nversion = "0.1.0"\n\n[project.entry-points."kum_widget.games"]\n{table}\n')
    (root / "plugin_backend.py").write_text(BACKEND)
    for path, text in modules.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return root


def install(sources: list[Path], target: Path) -> None:
    cmd = [uv(), "pip", "install", "--python", sys.executable, "--target", str(target), "--no-deps",
           "--no-build-isolation", "--offline", "--no-cache", "--quiet", *map(str, sources)]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, f"{' '.join(cmd)}:\n{result.stdout}\n{result.stderr}"


def expeditions_source() -> str:
    """tests/game_from_docs.py under another name, registered by its entry point alone."""
    source = (TESTS / "game_from_docs.py").read_text()
    assert source.count("@core.register\n") == 1 and source.count('name = "expeditions"') == 1
    return source.replace("@core.register\n", "").replace('name = "expeditions"', f'name = "{GAME}"')


@pytest.fixture(scope="module")
def plugins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with two installed packages: the game, and a package of broken entry points."""
    where = tmp_path_factory.mktemp("plugins")
    good = package(where, "expeditions-plugin", {GAME: "expeditions_plugin:Expeditions"},
                   {"expeditions_plugin/__init__.py": expeditions_source()})
    broken = package(where, "broken-games", {
        "broken-import": "broken_games.fails:Game",
        "not-a-game": "broken_games:NOT_A_GAME",
        "misnamed": "expeditions_plugin:Expeditions",
    }, {
        "broken_games/__init__.py": "NOT_A_GAME = {'name': 'not-a-game'}\n",
        "broken_games/fails.py": "raise RuntimeError('the plug-in has a bug of its own')\n",
    })
    target = where / "site"
    install([good, broken], target)
    assert (target / "expeditions_plugin" / "__init__.py").exists()
    return target


def run(target: Path, script: str) -> dict:
    """Run ``script`` in a fresh Python with ``target`` on its path; it prints one JSON line last."""
    env = {**os.environ, "PYTHONPATH": str(target), "MPLBACKEND": "Agg"}
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=target.parent, env=env,
                            capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, f"the subprocess failed:\n{result.stdout[-3000:]}\n{result.stderr[-5000:]}"
    out: dict = json.loads(result.stdout.strip().splitlines()[-1])
    return out


def test_an_installed_game_plays_in_the_lab_and_on_a_board_by_its_name(plugins: Path, tmp_path: Path) -> None:
    saved = tmp_path / "saved.json"
    out = run(plugins, f"""
        import json, sys
        import kum_widget
        from kum_widget import core
        from kum_widget.bots import bot_move, make_bot
        quiet = "importlib.metadata" not in sys.modules and "expeditions_plugin" not in sys.modules
        names = core.game_names()
        df = kum_widget.lab.simulate(6, game={GAME!r}, bots=("greedy", "random"), progress=False)
        on_workers = kum_widget.lab.simulate(4, game={GAME!r}, bots="random", executor=2, progress=False)
        board = kum_widget.GameWidget(game={GAME!r}, bots={{1: "random"}}, bot_delay=0, seed=5)
        session = board.game
        bots = [make_bot("random", seed=1), make_bot("random", seed=2)]
        for _ in range(6):
            session.apply(bot_move(session, bots[session.current_player]))
        json.dump({{"record": session.record(), "dict": session.to_dict(), "history": list(session.history)}},
                  open({str(saved)!r}, "w"))
        print(json.dumps({{
            "quiet": quiet, "names": names, "rows": len(df), "game": df.attrs["game"],
            "module": df.attrs["game_class"].__module__, "columns": list(df.columns), "workers": len(on_workers),
            "same_on_workers": df.attrs["game_class"] is on_workers.attrs["game_class"],
            "board_zones": [z["id"] for z in board.board["zones"]], "title": board.board["title"],
            "seats": [s["seat"] for s in board.board["seats"]], "session": type(session.game).__module__,
        }}))
    """)
    assert out["quiet"], "import kum_widget read package metadata or imported the plug-in"
    assert {GAME, "kings-under-mountains", "court", "bust"} <= set(out["names"]) and "broken-import" not in out["names"]
    assert (out["rows"], out["workers"], out["game"], out["module"]) == (6, 4, GAME, "expeditions_plugin")
    assert out["columns"][-2:] == ["expeditions", "margin"] and out["same_on_workers"]  # its summary's columns
    assert out["board_zones"] == ["deck", "discards"] and out["title"] == "Expeditions" and out["seats"] == [0, 1]
    assert out["session"] == "expeditions_plugin"
    # A fresh process reads the record and the saved dict back by the game's name alone.
    back = run(plugins, f"""
        import json, sys
        from kum_widget import core
        from kum_widget.core.records import session_from_dict, session_from_record
        saved = json.load(open({str(saved)!r}))
        before = "expeditions_plugin" in sys.modules
        a, b = core.Session.from_record(saved["record"]), session_from_record(core.Session, saved["record"])
        c = session_from_dict(core.Session, saved["dict"])
        print(json.dumps({{"before": before, "name": a.game.name, "module": type(a.game).__module__,
                           "histories": [list(s.history) for s in (a, b, c)], "same": a == b == c}}))
    """)
    assert not back["before"] and back["name"] == GAME and back["module"] == "expeditions_plugin"
    history = json.loads(saved.read_text())["history"]
    assert len(history) >= 6 and back["histories"] == [history] * 3 and back["same"]


def test_a_plugin_that_fails_is_skipped_with_a_warning_and_an_error_for_its_own_name(plugins: Path) -> None:
    out = run(plugins, f"""
        import json, warnings
        import kum_widget
        from kum_widget import core
        errors = {{}}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            names = core.game_names()  # the broken ones left out, each named once
            again = core.game_names()
        said = [str(w.message) for w in caught]
        for name in ("broken-import", "not-a-game", "misnamed", "no-such-game"):
            try:
                core.game_class(name)
            except core.InvalidOptionError as exc:
                errors[name] = str(exc)
        for name, call in (("simulate", lambda: kum_widget.simulate(2, game="broken-import", progress=False)),
                           ("board", lambda: kum_widget.GameWidget(game="broken-import"))):
            try:
                call()
            except core.GameError as exc:
                errors[name] = str(exc)
        games = [core.game_class(n).name for n in ("bust", "kum", "court", {GAME!r})]
        played = len(kum_widget.simulate(2, game="kum", bots="random", progress=False))
        print(json.dumps({{"errors": errors, "names": names, "again": again, "said": said, "games": games, "played": played}}))
    """)
    errors = out["errors"]
    assert set(errors) == {"broken-import", "not-a-game", "misnamed", "no-such-game", "simulate", "board"}
    assert "entry point broken-import = 'broken_games.fails:Game'" in errors["broken-import"]
    assert "failed to load: RuntimeError: the plug-in has a bug of its own" in errors["broken-import"]
    assert "'broken_games:NOT_A_GAME'" in errors["not-a-game"] and "not a core.CardGame subclass" in errors["not-a-game"]
    assert f"names a game called {GAME!r}" in errors["misnamed"]
    assert errors["no-such-game"].startswith("no game named 'no-such-game': known games are ")
    for where in ("simulate", "board"):
        assert "broken-import" in errors[where] and "RuntimeError: the plug-in has a bug of its own" in errors[where]
    assert GAME in out["names"] and not {"broken-import", "not-a-game", "misnamed"} & set(out["names"])
    assert out["again"] == out["names"]
    said = out["said"]  # one warning for each, in the first call only
    assert len(said) == 3 and all(words.startswith("skipped: the game ") for words in said), said
    assert sorted(said) == sorted(f"skipped: {errors[name]}" for name in ("broken-import", "not-a-game", "misnamed"))
    assert out["games"] == ["bust", "kings-under-mountains", "court", GAME] and out["played"] == 2



# -- issue 42, item 8f: a plug-in never replaces a shipped game, and no failure of its own escapes ----

SHADOWS = """
from kum_widget.core.examples import Bust


class FakeCourt(Bust):
    name, title = "court", "Not the Court"


class FakeBust(Bust):
    name, title = "bust", "Not Bust"


class Shadow(Bust):
    name, title, aliases = "shadow", "Shadow", ("kum", "shadow-alias")


class Claims(Bust):
    name, title, aliases = "bust", "Claims Bust", ("claims",)
"""


@pytest.fixture(scope="module")
def shadows(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Installed: a package whose entry points name the shipped games (``court``, ``bust``), one
    whose class takes a shipped name as an alias or as its own name, and plug-ins whose import
    raises SystemExit or KeyboardInterrupt."""
    where = tmp_path_factory.mktemp("shadows")
    shady = package(where, "shady-games", {
        "court": "shady_games:FakeCourt", "bust": "shady_games:FakeBust", "shadow": "shady_games:Shadow",
        "claims": "shady_games:Claims", "exits": "shady_games.exits:Game", "interrupts": "shady_games.interrupts:Game",
    }, {
        "shady_games/__init__.py": SHADOWS,
        "shady_games/exits.py": "raise SystemExit(3)\n",
        "shady_games/interrupts.py": "raise KeyboardInterrupt\n",
    })
    target = where / "site"
    install([shady], target)
    return target


def test_an_installed_plugin_never_replaces_a_shipped_game_and_says_so(shadows: Path) -> None:
    out = run(shadows, """
        import json, warnings
        from kum_widget import core
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            found = {n: core.game_class(n).__module__ for n in ("court", "bust")}
            shadow, claims = core.game_class("shadow"), core.game_class("claims")
            found["kum"] = core.game_class("kum").__module__  # asked after Shadow (alias "kum") was loaded
            found["bust again"] = core.game_class("bust").__module__  # asked after Claims (named "bust") was loaded
        print(json.dumps({"found": found, "shadow": shadow.__name__, "claims": claims.__name__,
                          "alias": core.game_class("shadow-alias").__name__, "warnings": [str(w.message) for w in caught]}))
    """)
    assert out["found"] == {"court": "kum_widget.games.court.card_game", "bust": "kum_widget.core.examples",
                            "kum": "kum_widget.games.kum.game", "bust again": "kum_widget.core.examples"}, out
    assert (out["shadow"], out["claims"], out["alias"]) == ("Shadow", "Claims", "Shadow")
    said = "\n".join(out["warnings"])
    for words in ("court = 'shady_games:FakeCourt'", "court = 'kum_widget.games.court.card_game:CourtOfTheThreeClans'",
                  "bust = 'shady_games:FakeBust'", "'kum'", "Shadow", "Claims"):
        assert words in said, (words, out["warnings"])


def test_a_plugin_whose_import_exits_is_an_error_for_its_own_name_and_ctrl_c_goes_through(shadows: Path) -> None:
    out = run(shadows, """
        import json
        from kum_widget import core
        said = {}
        try:
            core.game_class("exits")
        except core.InvalidOptionError as exc:
            said["exits"] = str(exc)
        try:
            core.game_class("interrupts")
        except KeyboardInterrupt:
            said["interrupts"] = "KeyboardInterrupt"
        said["court"] = core.game_class("court").__name__
        print(json.dumps(said))
    """)
    assert "entry point exits = 'shady_games.exits:Game'" in out["exits"] and "SystemExit: 3" in out["exits"], out
    assert out["interrupts"] == "KeyboardInterrupt" and out["court"] == "CourtOfTheThreeClans"


# -- the registry, in this process (its tables put back after each test) ---------------------


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    from kum_widget.core import registry as reg

    for table in ("_GAMES", "_ALIASES", "_DEFAULT"):
        monkeypatch.setattr(reg, table, type(getattr(reg, table))(getattr(reg, table)))
    return reg


def test_a_registered_class_wins_over_an_installed_game_of_its_name(registry: ModuleType) -> None:
    from kum_widget.core.examples import Bust

    class NotTheCourt(Bust):
        name, aliases = "court", ("the-court",)

    assert registry.game_class("court").__name__ == "CourtOfTheThreeClans"
    with pytest.warns(UserWarning, match="NotTheCourt replaces the shipped game 'court'"):
        registry.register(NotTheCourt)
    assert registry.game_class("court") is NotTheCourt is registry.game_class("the-court")
    assert {"court", "the-court", "kum"} <= set(registry.game_names())
    for bad in ("kum", ["x", 5], ("",)):
        class Bad(Bust):
            name, aliases = "bad-aliases", bad
        with pytest.raises(ValueError, match=r"Bad\.aliases must be a tuple of other names"):
            registry.register(Bad)
    assert "bad-aliases" not in registry.game_names()


def test_a_class_registered_in_a_cell_may_replace_a_shipped_game_with_a_warning(registry: ModuleType) -> None:
    """A student's own ``court`` variant is a teaching use: it replaces the shipped game, and says so."""
    import warnings

    from kum_widget.core.examples import Bust

    class MyCourt(Bust):
        name = "court"

    with pytest.warns(UserWarning, match=r"MyCourt replaces the shipped game 'court' \(kum_widget\.games\.court"):
        registry.register(MyCourt)
    assert registry.game_class("court") is MyCourt

    class MyGame(Bust):
        name, aliases = "my-own-game", ("mine",)

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a game of one's own, registered again as a cell is run again: nothing to say
        registry.register(MyGame)
        registry.register(MyGame)
        registry.register(Bust)  # the shipped class itself
    assert registry.game_class("mine") is MyGame


@pytest.mark.parametrize("loaded_first", [True, False])
def test_a_cell_class_whose_alias_is_a_shipped_name_plays_it_whatever_was_loaded_first(registry: ModuleType, loaded_first: bool) -> None:
    from kum_widget.core.examples import Bust

    class Variant(Bust):
        name, aliases = "my-court-variant", ("court",)

    if loaded_first:
        assert registry.game_class("court").__name__ == "CourtOfTheThreeClans"
    with pytest.warns(UserWarning, match=r"Variant replaces the shipped game 'court' .* now play Variant"):
        registry.register(Variant)
    assert registry.game_class("court") is Variant is registry.game_class("my-court-variant")


@pytest.mark.parametrize("module", [None, 7])
def test_a_class_whose_module_is_not_text_registers_as_a_cell_class(registry: ModuleType, module: object) -> None:
    from kum_widget.core.examples import Bust

    class Odd(Bust):
        name = "bust"

    Odd.__module__ = module  # type: ignore[assignment]  # (a class made by type() or exec may have any)
    with pytest.warns(UserWarning, match="Odd replaces the shipped game 'bust'"):
        registry.register(Odd)
    assert registry.game_class("bust") is Odd


def test_a_shipped_name_at_the_top_comes_only_from_the_shipped_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    """``kum.court`` (and ``kum.Game`` ...) load the game kum_widget ships, by its entry point:
    a plug-in's entry point of the same name is never taken for it, and with no shipped one
    the error says to reinstall."""
    import importlib.metadata

    import kum_widget

    plugin = importlib.metadata.EntryPoint(name="court", value="someone_elses.court:Court", group="kum_widget.games")
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **select: [plugin] if select.get("name") == "court" else [])
    with pytest.raises(AttributeError, match=r"the game 'court' is not installed \(reinstall kum-widget\)"):
        kum_widget.court  # noqa: B018 (the attribute read is what is tested)
    monkeypatch.undo()
    assert kum_widget.court.__name__ == "kum_widget.games.court"


def test_every_alias_of_a_shipped_game_is_an_entry_point_of_its_own() -> None:
    import importlib
    import tomllib

    from kum_widget.core import game_class

    points = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]["kum_widget.games"]
    by_class: dict[str, set[str]] = {}
    for name, value in points.items():
        by_class.setdefault(value, set()).add(name)
    for value, names in by_class.items():
        module, _, attr = value.partition(":")
        cls = getattr(importlib.import_module(module), attr)
        assert names == {cls.name, *getattr(cls, "aliases", ())}, value
        assert all(game_class(n) is cls for n in names)
    assert game_class("kum").name == "kings-under-mountains"


def test_the_default_game_is_said_in_one_place_and_read_by_the_lab_and_the_board(registry: ModuleType) -> None:
    import kum_widget as kum
    from kum_widget import games

    assert registry.default_game() == games.DEFAULT_GAME == "kings-under-mountains"
    registry.set_default_game("bust")
    assert kum.simulate(2, bots="random", progress=False).attrs["game"] == "bust"
    assert kum.GameWidget(bot_delay=0).game.game.name == "bust"
    with pytest.raises(ValueError, match="a game's name is text, got None"):
        registry.set_default_game(None)
    assert registry.default_game() == "bust"


def test_package_metadata_is_read_only_for_a_name_not_yet_known() -> None:
    script = textwrap.dedent("""
        import sys
        import kum_widget
        from kum_widget.core import game_class
        from kum_widget.core.examples import Bust  # registers Bust (@core.register)
        steps = ["importlib.metadata" in sys.modules]
        game_class("bust")
        steps.append("importlib.metadata" in sys.modules)
        game_class("court")
        steps.append("importlib.metadata" in sys.modules)
        print(steps)
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    assert result.stdout.split() == ["[False,", "False,", "True]"]


def test_a_board_takes_a_game_by_its_name_or_its_class() -> None:
    import kum_widget as kum
    from kum_widget.core import GameError
    from kum_widget.core.examples import Bust

    for game in ("bust", Bust, Bust()):
        board = kum.GameWidget(game, bots={1: "random"}, bot_delay=0, seed=3)
        assert type(board.game.game) is Bust and board.board["title"] == "Bust"
    assert type(kum.GameWidget("kum", bot_delay=0, seed=3).game) is kum.Game
    with pytest.raises(GameError, match=r"game must be a game \(its name, .*kum\.Game: no game named 'nope': known games are "):
        kum.GameWidget("nope")
    with pytest.raises(GameError, match="GameWidget: unknown option 'colour'; the game options are players, seed, rules"):
        kum.GameWidget("bust", colour="red")
    with pytest.raises(GameError, match="unknown option 'colour' for a new game"):  # the game's own new_session says
        kum.GameWidget("kum", colour="red")
