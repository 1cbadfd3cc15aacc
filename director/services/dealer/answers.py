"""What a dealer write answers: the hand JSON and its status, or why not (``Illegal``: a
422 with the engine's sentence; ``Conflict``: a 409 with the hand as it stands)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


class Illegal(Exception):
    """The engine refused the event: ``message`` is its sentence (a 422)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Conflict(Exception):
    """The tablet's version is stale, or a hand is already in progress (a 409)."""

    def __init__(self, hand: dict[str, Any] | None, message: str) -> None:
        super().__init__(message)
        self.hand = hand
        self.message = message


@dataclass(frozen=True)
class Answer:
    """A write's answer: the hand JSON and its HTTP status (a replay gets the original)."""

    body: dict[str, Any]
    status: int = 200
    text: str | None = None          # the body already encoded (stored for retries)


def encode(body: dict[str, Any]) -> str:
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False)
