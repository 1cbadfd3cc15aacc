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
    r = client.post(f"/api/tournaments/{tid}/money/settings", headers=auth, json={  # a buy-in each
        "buy_in": "100", "starting_stack": stacks[0], "late_registration_level": 6})
    assert r.status_code == 200, r.get_json()
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
            "number": pairing[0]["number"],
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


def drive(client: FlaskClient, url: str, auth: dict[str, str], hand: dict[str, Any],
          choose: Callable[[dict[str, Any]], str | tuple[str, int]],
          boards: list[list[str]] | None = None) -> dict[str, Any]:
    """Play to the showdown (or the end): ``choose`` picks each action, boards in order."""
    boards = list(boards or [])
    while not hand["finished"] and hand["awaiting"] != "showdown":
        if hand["to_act"] is not None:
            hand = play(client, url, auth, hand, [choose(hand)])
        elif hand["awaiting"] == "board":
            cards = boards.pop(0) if boards else None
            r = client.post(f"{url}/hand/board", json={"cards": cards, "version": hand["version"]}, headers=auth)
            assert r.status_code == 200, r.get_json()
            hand = r.get_json()
        else:
            raise AssertionError(hand["prompt"])
    return hand


def passive(hand: dict[str, Any]) -> str:
    return "check" if hand["legal"]["check"] else "call"


O8_BOARD = [["2c", "3d", "8h"], ["Kc"], ["Ks"]]
O8_HANDS = ("Kd7s9c9d", "As4cQdQh", "Ah4dJcJd")
"""The first to show makes three kings; the other two tie for the low, 8-4-3-2-A."""


def o8_showdown(client: FlaskClient, url: str, headers: dict[str, str], hand: dict[str, Any],
                flop_bet: int, at_showdown: Callable[[dict[str, Any]], None] | None = None,
                ) -> tuple[dict[str, Any], list[int]]:
    """Three players in an O8 hand: calls pre-flop, one bet of ``flop_bet`` on the flop that
    both others call, checks to the showdown, then each shows ``O8_HANDS`` in the showdown
    order (``at_showdown`` looks at the hand first).  Returns the finished hand and the
    showdown order (high winner first, then the two low winners)."""
    bet_made: list[int] = []

    def choose(h: dict[str, Any]) -> str | tuple[str, int]:
        if h["street"] == "flop" and not bet_made:
            bet_made.append(h["to_act"])
            return ("bet", flop_bet)
        return passive(h)

    hand = drive(client, url, headers, hand, choose, O8_BOARD)
    order = hand["showdown_order"]
    assert len(order) == 3 and hand["awaiting"] == "showdown", hand["prompt"]
    if at_showdown is not None:
        at_showdown(hand)
    for seat, cards in zip(order, O8_HANDS, strict=True):
        r = client.post(f"{url}/hand/show", json={"seat": seat, "cards": cards, "version": hand["version"]},
                        headers=headers)
        assert r.status_code == 200, r.get_json()
        hand = r.get_json()
    assert hand["finished"]
    return dict(hand), list(order)
