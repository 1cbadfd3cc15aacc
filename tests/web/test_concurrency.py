"""Two writers never overwrite each other: the version column is an optimistic
lock and the loser of a race redoes its unit of work."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from sqlalchemy.orm.exc import StaleDataError

from director.services import retry_on_conflict


def test_a_lost_race_is_retried_on_fresh_rows(app):
    calls = []

    def work():
        calls.append(1)
        if len(calls) == 1:
            raise StaleDataError("another writer committed first")
        return "done"

    with app.app_context():
        assert retry_on_conflict(work) == "done"
    assert len(calls) == 2


def posted_at_once(app: Flask, url: str, body: dict[str, Any], headers: dict[str, str],
                   copies: int = 8, answer: Callable[[Any], Any] = lambda r: r.status_code,
                   ) -> list[Any]:
    """POST ``body`` to ``url`` from ``copies`` threads at once; what ``answer`` reads of
    each response (its status code)."""
    statuses: list[Any] = []

    def post() -> None:
        statuses.append(answer(app.test_client().post(url, json=body, headers=headers)))

    threads = [threading.Thread(target=post) for _ in range(copies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return statuses


def test_parallel_adjustments_all_count(app, auth, make_tournament):
    tournament_id = make_tournament()
    url = f"/api/tournaments/{tournament_id}/clock"
    app.test_client().post(f"{url}/start", headers=auth)
    app.test_client().post(f"{url}/pause", headers=auth)
    statuses = posted_at_once(app, f"{url}/adjust", {"seconds": 10}, auth)
    assert statuses == [200] * 8
    clock = app.test_client().get(url).get_json()
    assert clock["seconds_remaining"] == pytest.approx(1200 + 80, abs=0.5)
