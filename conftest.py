"""The examples in the ``director`` package's docstrings are tests too: a plain
``pytest`` (``make test``) collects them beside ``tests/`` (``testpaths`` in
pyproject.toml).

Only the package's modules are read for doctests, not ``tests/``: a helper module
there may do work when imported (``tests/browser/server_preload.py`` builds an app
and freezes the collector), which ``--doctest-modules`` would do in every worker.
``director/migrations`` is left out: its ``env.py`` runs only inside alembic."""

from __future__ import annotations

from pathlib import Path

from _pytest.doctest import DoctestModule

PACKAGE = Path(__file__).parent / "director"
MIGRATIONS = PACKAGE / "migrations"

collect_ignore = ["director/migrations"]


def pytest_collect_file(file_path: Path, parent):
    """A module of the package (``--doctest-modules`` adds its own, so not twice)."""
    if (file_path.suffix == ".py" and PACKAGE in file_path.parents
            and MIGRATIONS not in file_path.parents
            and not parent.config.getoption("doctestmodules")):
        return DoctestModule.from_parent(parent, path=file_path)
    return None
