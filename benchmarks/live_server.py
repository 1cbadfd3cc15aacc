"""A real ``director serve`` (uvicorn, temp instance, SQLite) for the benchmarks,
or the same app on another candidate server, or a floor (``servers.py``).

Not a benchmark itself: ``clock_fanout.py``, ``dealer_load.py`` and
``fanout_cluster.py`` import it
(running a benchmark as a script puts this folder on ``sys.path``).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def percentile(values: list[float], fraction: float) -> float:
    """The value at ``fraction`` (0.99: p99) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]


def every_page(get: Callable[[str], Any], path: str, key: str = "tables") -> list[Any]:
    """The rows (``key``) of a paged API's answers from ``path`` on, following each
    answer's ``next`` (a path, or null on the last page): e.g. the pairing codes of
    every table, 20 tables an answer.  ``get``: a path's JSON answer."""
    rows: list[Any] = []
    seen = set()
    next_path: str | None = path
    while next_path:
        if next_path in seen:
            raise SystemExit(f"{path}: the pages lead back to {next_path}")
        seen.add(next_path)
        answer = get(next_path)
        rows.extend(answer[key])
        next_path = answer.get("next")
    return rows


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


BENCHMARKS = Path(__file__).resolve().parent


def start_server(folder: Path, port: int, token: str, server: str = "uvicorn",
                 app: str = "director", env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """Create the database in ``folder`` and serve it on 127.0.0.1:``port`` with
    the scheduler off; returns once the port accepts connections.  ``server``: the
    candidate (``uvicorn`` is ``director serve`` itself); ``app``: ``director`` or
    a floor of ``servers.py``."""
    env = {**os.environ, "DIRECTOR_INSTANCE_PATH": str(folder), "DIRECTOR_TOKEN": token,
           "DIRECTOR_SCHEDULER": "off", "HOST": "127.0.0.1", "PORT": str(port),
           "FLOOR_SQLITE": str(folder / "floor.sqlite"), "PYTHONUNBUFFERED": "1",
           "PYTHONPATH": os.pathsep.join(part for part in (
               os.environ.get("PYTHONPATH"), str(BENCHMARKS.parent), str(BENCHMARKS)) if part),
           **(env or {})}
    env.pop("DIRECTOR_DATABASE_URL", None)
    run = [sys.executable, "-c", "from director.cli import main; main()"]
    if app == "director":
        subprocess.run([*run, "init-db"], env=env, check=True, capture_output=True)
    if server == "uvicorn" and app == "director":
        command = [*run, "serve"]
    else:
        command = [sys.executable, str(BENCHMARKS / "servers.py"), server, app, str(port)]
    log = (folder / f"server-{server}-{app}.log").open("wb")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=BENCHMARKS)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server stopped: {(folder / log.name).read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")
