"""Fixtures shared by the service-level tests of tests/web (seating, undo of an elimination)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director.services import seating
from tests.web.test_dealer_helpers import seat_table


@pytest.fixture
def ctx(app: Flask) -> Iterator[Flask]:
    with app.app_context():
        yield app


@pytest.fixture
def field(ctx: Flask, make_tournament: Callable[..., int]) -> Callable[..., int]:
    """``field(n, draw=True, **settings)``: a tournament with n registered players, seats drawn."""

    def make(n: int, draw: bool = True, seed: int = 7, **settings: Any) -> int:
        tid = make_tournament()
        if settings:
            seating.configure(tid, settings)
        for i in range(1, n + 1):
            seating.register_player(tid, f"Player {i:02d}", 10_000 + i)
        if draw:
            seating.draw(tid, random.Random(seed))
        return tid

    return make


@pytest.fixture
def four(client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> dict[str, Any]:
    """A PLO 100/200 hand four-handed: ``url``, ``hand`` and the seats in pre-flop order."""
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    pos = hand["positions"]
    utg = hand["to_act"]
    assert utg not in (pos["button"], pos["small_blind"], pos["big_blind"])
    return {"url": url, "hand": hand, "utg": utg, "button": pos["button"],
            "sb": pos["small_blind"], "bb": pos["big_blind"]}
