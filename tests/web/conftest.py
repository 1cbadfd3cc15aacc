"""Fixtures shared by the service-level tests of tests/web (seating, undo of an elimination)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask

from director.services import seating


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
