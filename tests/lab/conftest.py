"""Fixtures of the lab's tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def dask_client() -> Iterator[Any]:
    """A dask cluster of two worker processes on this machine, one per pytest-xdist worker
    that asks for it (a cluster takes seconds to start on a busy machine): its tests leave no
    task, future or dataset behind on it."""
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            yield client
