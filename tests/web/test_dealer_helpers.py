"""Helpers for the dealer tests (no tests here): a tournament with seated players, and playing actions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from flask.testing import FlaskClient

from tests.conftest import level


def seat_table(client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str],
               names: Sequence[str], *, chips: int | Sequence[int] = 10_000,
               levels: list[dict[str, Any]] | None = None, table_size: int | None = None) -> dict[str, Any]:
    """A tournament whose players are registered and drawn; the first table's ids and seats."""
    tid = make_tournament(levels=levels or [level(100, 200), level(200, 400)])
    if table_size is not None:
        r = client.post(f"/api/tournaments/{tid}/seating/settings", json={"table_size": table_size},
                        headers=auth)
        assert r.status_code == 200, r.get_json()
    stacks = [chips] * len(names) if isinstance(chips, int) else list(chips)
    for name, stack in zip(names, stacks, strict=True):
        r = client.post(f"/api/tournaments/{tid}/seating/players", json={"name": name, "chips": stack},
                        headers=auth)
        assert r.status_code == 201, r.get_json()
    r = client.post(f"/api/tournaments/{tid}/seating/draw", headers=auth)
    assert r.status_code == 200, r.get_json()
    pairing = client.get(f"/api/tournaments/{tid}/dealer/pairing", headers=auth).get_json()["tables"]
    seating = client.get(f"/api/tournaments/{tid}/seating").get_json()
    first = seating["tables"][0]
    return {"tournament_id": tid, "id": pairing[0]["table_id"], "code": pairing[0]["code"],
            "seats": {s["name"]: s["seat"] for s in first["seats"]},
            "player_seats": {s["player_id"]: s["seat"] for s in first["seats"]}}


def play(client: FlaskClient, url: str, headers: dict[str, str], hand: dict[str, Any],
         actions: Sequence[str | tuple[str, int]]) -> dict[str, Any]:
    """Post each action for the player to act; every one must be accepted."""
    for item in actions:
        kind, amount = (item, None) if isinstance(item, str) else item
        r = client.post(f"{url}/hand/actions", headers=headers, json={
            "seat": hand["to_act"], "action": kind, "amount": amount, "version": hand["version"]})
        assert r.status_code == 200, (item, r.get_json())
        hand = r.get_json()
    return hand
