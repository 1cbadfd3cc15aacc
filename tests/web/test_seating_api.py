"""The seating JSON API and the public "find my seat" search.

Writes need the director's token; bad input answers 400 naming the field and
changes nothing; there is never a 500.  The search stays small and fast with
1,000 players.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director.db import db
from director.models.seating import Player
from director.services import seating

Json = dict[str, Any]


@pytest.fixture
def make_tournament(make_entry_tournament: Callable[..., int]) -> Callable[..., int]:
    """Tournaments that take entries: every registration is a buy-in (issue 14)."""
    return make_entry_tournament


@pytest.fixture
def seated(client: FlaskClient, auth: dict[str, str],
           make_tournament: Callable[..., int]) -> Callable[[int], int]:
    def make(n: int) -> int:
        tid = make_tournament()
        for i in range(1, n + 1):
            r = client.post(f"/api/tournaments/{tid}/seating/players",
                            json={"name": f"Player {i:02d}", "chips": 20_000}, headers=auth)
            assert r.status_code == 201, r.get_json()
        r = client.post(f"/api/tournaments/{tid}/seating/draw", json={}, headers=auth)
        assert r.status_code == 200, r.get_json()
        return tid

    return make


def state(client: FlaskClient, tid: int) -> Json:
    response = client.get(f"/api/tournaments/{tid}/seating")
    assert response.status_code == 200
    data: Json = response.get_json()
    return data


def test_the_director_registers_draws_eliminates_confirms_and_undoes(
        client: FlaskClient, auth: dict[str, str], seated: Callable[[int], int]) -> None:
    tid = seated(20)
    data = state(client, tid)
    assert sorted(len(t["seats"]) for t in data["tables"]) == [6, 7, 7]
    assert data["players_left"] == 20 and data["average_stack"] == 20_000
    short = min(data["tables"], key=lambda t: (len(t["seats"]), t["number"]))
    victim = short["seats"][0]["player_id"]
    r = client.post(f"/api/tournaments/{tid}/seating/eliminate", json={"player_ids": [victim]},
                    headers=auth)
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["finishes"] == [{"first": 20, "last": 20, "player_ids": [victim]}]
    plan = body["pending_plan"]
    assert plan["kind"] == "balance" and len(plan["moves"]) == 1
    move = plan["moves"][0]
    assert move["text"].startswith(f"{move['name']}: table {move['from_table']} seat ")
    # the answer holds what the bust changed: the bust's table and player
    assert body["seating"]["partial"] and body["seating"]["players_left"] == 19
    assert [len(t["seats"]) for t in body["seating"]["tables"]] == [5]
    assert [(p["id"], p["place"]) for p in body["seating"]["players"]] == [(victim, 20)]
    assert sorted(len(t["seats"]) for t in state(client, tid)["tables"]) == [5, 7, 7]
    r = client.post(f"/api/tournaments/{tid}/seating/plans/{plan['id']}/confirm", headers=auth)
    assert r.status_code == 200, r.get_json()
    tables = r.get_json()["seating"]["tables"]
    assert {t["number"] for t in tables} == {move["from_table"], move["to_table"]}
    moved_to = next(t for t in tables if t["number"] == move["to_table"])
    assert {"seat": move["to_seat"], "player_id": move["player_id"], "name": move["name"],
            "waiting": move["status"] == "waits for the button to pass"} in moved_to["seats"]
    r = client.post(f"/api/tournaments/{tid}/seating/undo", headers=auth)
    assert r.status_code == 200
    back = r.get_json()["seating"]
    assert back["pending_plan"]["id"] == plan["id"] and back["partial"]
    assert {t["number"] for t in back["tables"]} == {move["from_table"], move["to_table"]}
    assert move["player_id"] in {p["id"] for p in back["players"]}     # the moves undone
    assert sorted(len(t["seats"]) for t in state(client, tid)["tables"]) == [5, 7, 7]


def test_writes_need_the_director(client: FlaskClient, seated: Callable[[int], int]) -> None:
    tid = seated(4)
    for path in ("players", "draw", "eliminate", "undo", "break", "reseat", "chips",
                 "hand-for-hand", "settings", "tables/1/deal", "plans/1/confirm"):
        r = client.post(f"/api/tournaments/{tid}/seating/{path}", json={})
        assert r.status_code == 401, path
        assert "token" in r.get_json()["error"]
    assert state(client, tid)["players_left"] == 4


@pytest.mark.parametrize(("path", "body", "field"), [
    ("players", {"name": ""}, "name"),
    ("players", {"name": "Eve", "chips": "lots"}, "chips"),
    ("players", {"name": "Eve", "chips": 1.5}, "chips"),
    ("players", [1, 2], "body"),
    ("eliminate", {"player_ids": []}, "player_ids"),
    ("eliminate", {"player_ids": [987654]}, "player_ids"),
    ("eliminate", {"player_ids": [{"x": 1}]}, "player_ids"),
    ("reseat", {"player_id": 1, "table": 1, "seat": 11}, "seat"),
    ("reseat", {"player_id": 1, "table": 99, "seat": 1}, "table"),
    ("reseat", {"player_id": 1, "table": "one", "seat": 1}, "table"),
    ("reseat", {"table": 1, "seat": 1}, "player_id"),
    ("chips", {"player_id": 1, "chips": -1}, "chips"),
    ("chips", {"player_id": "one", "chips": 5}, "player_id"),
    ("chips", {"player_id": 1, "chips": 10**16}, "chips"),
    ("chips", {"player_id": 1, "chips": True}, "chips"),
    ("reseat", {"player_id": 1, "table": 1, "seat": 1.5}, "seat"),
    ("eliminate", {"player_ids": [True]}, "player_ids"),
    ("eliminate", {"player_id": "x1"}, "player_id"),
    ("players", {"name": ["Eve"]}, "name"),
    ("players", {"name": "E\u0000ve"}, "body"),  # refused before any view
    ("hand-for-hand", {}, "action"),
    ("settings", {"table_size": 7}, "table_size"),
    ("settings", {"redraw_at_tables": "three"}, "redraw_at_tables"),
    ("settings", {"stud_only": "maybe"}, "stud_only"),
    ("hand-for-hand", {"action": "finish"}, "action"),
    ("hand-for-hand", {"action": 5}, "action"),
    ("tables/9/deal", {}, "table"),
    ("plans/77/confirm", {}, "plan_id"),
    ("plans/77/discard", {}, "plan_id"),
    ("undo", {}, "undo"),
    ("draw", {}, "draw"),
])
def test_bad_input_is_a_400_naming_the_field_and_changes_nothing(
        client: FlaskClient, auth: dict[str, str], seated: Callable[[int], int],
        path: str, body: Any, field: str) -> None:
    tid = seated(5)
    if path == "undo":                                # the draw is undoable until a hand
        assert client.post(f"/api/tournaments/{tid}/seating/tables/1/deal",
                           headers=auth).status_code == 200
    before = state(client, tid)
    r = client.post(f"/api/tournaments/{tid}/seating/{path}", json=body, headers=auth)
    assert r.status_code == 400, r.get_json()
    assert field in r.get_json()["errors"], r.get_json()
    assert state(client, tid) == before


def test_garbage_bodies_and_unknown_tournaments_never_give_a_500(
        client: FlaskClient, auth: dict[str, str], seated: Callable[[int], int]) -> None:
    tid = seated(3)
    for data in (b"{", b"\xff\xfe", b"null", b"[]", b'"text"'):
        r = client.post(f"/api/tournaments/{tid}/seating/players", data=data, headers={
            **auth, "Content-Type": "application/json"})
        assert r.status_code == 400 and "body" in r.get_json()["errors"]
    assert client.get("/api/tournaments/999/seating").status_code == 404
    assert client.get("/api/tournaments/999/seats?q=a").status_code == 404
    r = client.post("/api/tournaments/999/seating/players", json={"name": "X"}, headers=auth)
    assert r.status_code == 404
    assert client.get(f"/api/tournaments/{tid}/seating/draw").status_code == 405


def test_find_my_seat_ignores_case_and_accents(
        client: FlaskClient, auth: dict[str, str], seated: Callable[[int], int]) -> None:
    tid = seated(3)
    for name in ("Åsa Öberg", "Lars Åsberg"):
        client.post(f"/api/tournaments/{tid}/seating/players", json={"name": name}, headers=auth)
    data = client.get(f"/api/tournaments/{tid}/seats", query_string={"q": "AS"}).get_json()
    assert [m["name"] for m in data["matches"]] == ["Åsa Öberg", "Lars Åsberg"]  # starts first
    assert client.get(f"/api/tournaments/{tid}/seats?q=asa").get_json()["total"] == 1
    where = {(t["number"], s["seat"]) for t in state(client, tid)["tables"] for s in t["seats"]
             if s["name"] == "Åsa Öberg"}
    assert {(m["table"], m["seat"]) for m in data["matches"][:1]} == where
    assert client.get(f"/api/tournaments/{tid}/seats?q=").get_json()["matches"] == []
    r = client.get(f"/api/tournaments/{tid}/seats", query_string={"q": "x" * 81})
    assert r.status_code == 400 and "q" in r.get_json()["errors"]


def test_find_my_seat_with_1000_players_answers_quickly_and_only_with_matches(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int]) -> None:
    tid = make_tournament()
    rng = random.Random(1)
    with app.app_context():
        db.session.add_all(Player(tournament_id=tid, name=f"Player {i:04d}", chips=10_000,
                                  entry_chips=10_000) for i in range(1, 1001))
        db.session.commit()
        seating.draw(tid, rng)
        assert seating.field_stats(tid)["players_left"] == 1000
    timings = []
    for query in ("player 0123", "0123", "player 07", "pla", "zzz"):
        start = time.perf_counter()
        r = client.get(f"/api/tournaments/{tid}/seats", query_string={"q": query})
        timings.append(time.perf_counter() - start)
        assert r.status_code == 200
        data = r.get_json()
        assert len(data["matches"]) <= 12
        assert all(query.lower() in m["name"].lower() for m in data["matches"])
        assert len(r.data) < 2_000
    assert client.get(f"/api/tournaments/{tid}/seats?q=0123").get_json()["total"] == 1
    assert client.get(f"/api/tournaments/{tid}/seats?q=player 07").get_json()["total"] == 100
    assert client.get(f"/api/tournaments/{tid}/seats?q=zzz").get_json()["total"] == 0
    assert max(timings) < 0.5, timings             # typically ~10 ms
    page = client.get(f"/seats/{tid}")
    assert page.status_code == 200 and b"Player 0001" not in page.data
    assert len(page.data) < 20_000                  # no giant DOM: the field is not on the page
    found = client.get(f"/seats/{tid}", query_string={"q": "Player 0999"})
    assert b"Player 0999" in found.data and b"Player 0998" not in found.data


def test_two_directors_confirming_at_once_move_the_players_once(
        app: Flask, auth: dict[str, str], seated: Callable[[int], int]) -> None:
    import threading

    tid = seated(20)
    first = app.test_client()
    data = first.get(f"/api/tournaments/{tid}/seating").get_json()
    short = min(data["tables"], key=lambda t: (len(t["seats"]), t["number"]))
    body = first.post(f"/api/tournaments/{tid}/seating/eliminate",
                      json={"player_ids": [short["seats"][0]["player_id"]]}, headers=auth).get_json()
    plan_id = body["pending_plan"]["id"]
    statuses: list[int] = []
    barrier = threading.Barrier(4)

    def confirm() -> None:
        client = app.test_client()
        barrier.wait()
        statuses.append(client.post(f"/api/tournaments/{tid}/seating/plans/{plan_id}/confirm",
                                    headers=auth).status_code)

    threads = [threading.Thread(target=confirm) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(statuses) == [200, 400, 400, 400]
    after = first.get(f"/api/tournaments/{tid}/seating").get_json()
    assert sorted(len(t["seats"]) for t in after["tables"]) == [6, 6, 7]


def assert_name_refused(client, auth, tid, name, message):
    """A player registered as ``name`` is refused with ``message`` naming the name, and
    nobody is registered."""
    answer = client.post(f"/api/tournaments/{tid}/seating/players", headers=auth,
                         json={"name": name})
    assert answer.status_code == 400
    assert answer.get_json()["errors"]["name"] == message
    assert client.get(f"/api/tournaments/{tid}/seating", headers=auth).get_json()["players"] == []


@pytest.mark.parametrize("name", ["\u202eevil", "Ann \u202dBo", "x\u2066y\u2069", "a\u202ab\u202c"])
def test_a_name_that_would_turn_the_text_around_it_is_refused(
        client, auth, make_tournament, name):
    """A name holding a character that turns the direction of the text around it
    (an override, an embedding, an isolate) would turn the projector's and the
    tablets' lines around it: refused, naming the name, and nobody is registered."""
    assert_name_refused(client, auth, make_tournament(), name,
                        "The name may not contain control characters")


@pytest.mark.parametrize("name", ["\u0301\u0301", "\u200d", "\u200f \u200e", "\u0308 \u20dd"])
def test_a_name_of_marks_or_joiners_alone_is_no_name(client, auth, make_tournament, name):
    """Combining marks, a joiner or direction marks with no letter show nothing on the
    projector or the tablet: "The player needs a name", and nobody is registered."""
    assert_name_refused(client, auth, make_tournament(), name, "The player needs a name")


@pytest.mark.parametrize("name", ["\u05d3\u05d5\u05d3 \u200f\u05dc\u05d5\u05d9", "\u0928\u093f\u0916\u093f\u0932 \u0915\u094d\u200d\u0937", "Zoë O'Neil"])
def test_a_name_written_with_marks_and_joiners_is_taken(client, auth, make_tournament, name):
    """Marks and joiners some scripts are written with (a right-to-left mark, a zero-width
    joiner) are part of the name."""
    tid = make_tournament()
    answer = client.post(f"/api/tournaments/{tid}/seating/players", headers=auth,
                         json={"name": name})
    assert answer.status_code == 201, answer.get_json()
