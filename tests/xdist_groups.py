"""``--dist loadgroup`` under pytest 9: each ``xdist_group`` kept on one worker.

pytest-xdist reads a test's ``xdist_group`` as the ``@group`` suffix of its id. Version 3.8
writes that suffix to ``item._nodeid``, which pytest 9 no longer reads (the id is
``item._id``), so its groups came to nothing: the tests of one group went to any worker (a
notebook was run once per worker for its checks, a module's fixture built on each). This
plug-in writes the suffix where pytest 9 reads it; tests/conftest.py registers it, and
tests/suite/test_xdist_groups.py checks that a group lands on one worker.
"""

from __future__ import annotations

import pytest


def register(config: pytest.Config) -> None:
    """On a pytest-xdist worker under ``--dist loadgroup``: name each test's groups in its id."""
    if hasattr(config, "workerinput") and config.getvalue("loadgroup") and not config.pluginmanager.has_plugin("kum-xdist-groups"):
        config.pluginmanager.register(_GroupsNamed(), "kum-xdist-groups")


def pytest_configure(config: pytest.Config) -> None:  # (as a plug-in of its own: `pytest -p xdist_groups`)
    register(config)


class _GroupsNamed:
    @pytest.hookimpl(trylast=True)  # after every mark is set (the parametrize marks, tests/conftest.py's)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        from _pytest.nodeid import coerce_node_id  # pytest 9's structured id: no public way to set it

        for item in items:
            names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default")) for m in item.iter_markers("xdist_group")})
            if names and "@" not in item.nodeid.rpartition("]")[2]:
                item._id = coerce_node_id(f"{item.nodeid}@{'_'.join(names)}")  # type: ignore[attr-defined]
