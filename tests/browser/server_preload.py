"""What the browser tests' server processes share, loaded once in the process they
are forked from (``serve_process`` in ``conftest.py``): the app's modules, this
folder's conftest (each server's start function comes from it), and werkzeug's URL
builders compiled for one app (``werkzeug_compiles_each_url_builder_once``; each
server's own app then reuses them).  Measured per server: 0.14 s of CPU for the
conftest's imports and about 0.1 s for the builders.  Nothing here starts a thread:
the forkserver must have none when it forks."""

from __future__ import annotations

import gc
import shutil
import tempfile

import director.cli  # noqa: F401  (the app's modules)
import tests.browser.conftest  # noqa: F401  (where each server's start function is)
from director import create_app
from tests.conftest import werkzeug_compiles_each_url_builder_once

werkzeug_compiles_each_url_builder_once()
_folder = tempfile.mkdtemp(prefix="director-preload-")
create_app({"TESTING": True, "INSTANCE_PATH": _folder, "TOKEN": "preload",
            "SECRET_KEY": "preload",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{_folder}/preload.sqlite"})
shutil.rmtree(_folder, ignore_errors=True)
# What is loaded now stays: each server's collector then walks only what the server
# makes (``settle_garbage_collector`` collects before it serves), not these modules.
gc.freeze()
