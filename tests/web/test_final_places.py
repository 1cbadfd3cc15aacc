"""Final places are stored when they are decided (issue 29).

A bust stores how many entries the event had then (``player.entries_when_out``);
the final place is the place at the bust plus the entries made since.  These
tests play random events through the API (buy-ins before and after busts,
busts of one and two players, buy-ins undone, busts undone) and check every
final place against a model of the event kept by the test itself: the entries
made after each bust, counted in the order things happened.  Then the pages
that show places read only their own lines, whatever the event's history.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, select

from director.db import db
from director.models.seating import Player, Seat
from tests.conftest import EventApi
from tests.web import test_big_event

statements = test_big_event.statements     # the fixture: the SQL statements sent from now on


class Model:
    """The event as the test saw it happen: when each entry was made and each bust was."""

    def __init__(self) -> None:
        self.step = 0
        self.made: dict[int, int] = {}       # entry (player id) -> the step it was made
        self.out: dict[int, int] = {}        # busted player id -> the step of his bust
        self.payment: dict[int, int] = {}    # entry -> its buy-in's payment id

    def tick(self) -> int:
        self.step += 1
        return self.step

    def later(self, player_id: int) -> int:
        """The entries made after his bust (and not taken back)."""
        return sum(1 for made in self.made.values() if made > self.out[player_id])


def _tables(app: Flask, tid: int) -> list[list[int]]:
    """The players at each table (busts of one hand are at one table)."""
    with app.app_context():
        tables: dict[int, list[int]] = {}
        for table_id, player_id in db.session.execute(select(Seat.table_id, Seat.player_id).where(
                Seat.tournament_id == tid).order_by(Seat.table_id, Seat.seat)):
            tables.setdefault(table_id, []).append(player_id)
    return list(tables.values())


def _places(client: FlaskClient, auth: dict[str, str], tid: int) -> dict[int, tuple[Any, Any]]:
    """Every line of the results API, all its pages: player id -> (place, place_last)."""
    found: dict[int, tuple[Any, Any]] = {}
    page, pages = 1, 1
    while page <= pages:
        answer = client.get(f"/api/tournaments/{tid}/results?page={page}", headers=auth).get_json()
        pages = answer["pages"]
        found.update({r["player_id"]: (r["place"], r["place_last"]) for r in answer["results"]})
        page += 1
    return found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_final_place_is_the_place_at_the_bust_plus_the_entries_made_since(
        app: Flask, client: FlaskClient, auth: dict[str, str], seed: int,
        make_entry_tournament: Callable[..., int]) -> None:
    rng = random.Random(seed)
    tid = make_entry_tournament()
    api = EventApi(client, auth, tid)
    model = Model()

    def buy() -> None:
        answer = api.post("money/entries", kind="buy-in", name=f"Player {model.step:03d}")
        assert answer.status_code == 201, answer.get_json()
        body = answer.get_json()
        model.made[int(body["player_id"])] = model.tick()
        model.payment[int(body["player_id"])] = int(body["payment"]["id"])

    for _ in range(10):
        buy()
    assert api.post("seating/draw").status_code == 200
    checked = 0
    for _ in range(45):
        still_in = [pid for pid in model.made if pid not in model.out]
        move = rng.choice(["buy", "buy", "bust", "bust", "two", "undo buy-in", "reinstate"])
        if move == "buy" or len(still_in) < 4:
            buy()
        elif move in ("bust", "two"):
            table = max(_tables(app, tid), key=len)
            victims = rng.sample(table, 2 if move == "two" and len(table) > 2 else 1)
            answer = api.eliminate(*victims)
            assert answer.status_code == 200, answer.get_json()
            step = model.tick()
            model.out.update({pid: step for pid in victims})
            plan = answer.get_json().get("pending_plan")
            while plan:
                plan = api.post(f"seating/plans/{plan['id']}/confirm").get_json().get(
                    "pending_plan")
        elif move == "undo buy-in":
            pid = rng.choice(still_in)
            answer = api.post(f"money/payments/{model.payment[pid]}/undo")
            if answer.status_code == 200:
                del model.made[pid]
                model.tick()
        elif model.out:
            pid = rng.choice(sorted(model.out))
            answer = api.post(f"seating/players/{pid}/reinstate")
            if answer.status_code == 200:
                del model.out[pid]
                model.tick()
        with app.app_context():
            stored = {p.id: (p.place, p.place_last) for p in db.session.scalars(
                select(Player).where(Player.tournament_id == tid, Player.place.is_not(None)))}
        shown = _places(client, auth, tid)
        for pid in model.out:
            place, last = stored[pid]
            later = model.later(pid)
            assert shown[pid] == (place + later, last + later if last else None), \
                (pid, stored[pid], later)
            checked += 1
        assert set(shown) == set(model.out)
    assert checked > 50 and any(model.later(pid) for pid in model.out)


def test_the_results_pages_are_the_whole_results_in_order(
        app: Flask, client: FlaskClient, auth: dict[str, str], make_entry_tournament: Callable[..., int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A page at a time (4 lines a page here), the lines are those of the CSV export,
    which reads them all: the same places, names and prizes, in the same order; two
    players out in one hand share their places and their prizes on either page."""
    from director.views import money as money_views
    monkeypatch.setattr(money_views, "RESULTS_PAGE", 4, raising=False)
    tid = make_entry_tournament()
    api = EventApi(client, auth, tid)
    for i in range(14):
        api.buy_in(f"Player {i:02d}")
    assert api.post("seating/draw").status_code == 200
    for count in (1, 2, 1, 2, 1):
        answer = api.eliminate(*max(_tables(app, tid), key=len)[:count])
        assert answer.status_code == 200, answer.get_json()
        plan = answer.get_json().get("pending_plan")
        while plan:
            plan = api.post(f"seating/plans/{plan['id']}/confirm").get_json().get("pending_plan")
    api.buy_in("Late Lou")                              # every place moves down one
    lines = []
    first = client.get(f"/api/tournaments/{tid}/results", headers=auth).get_json()
    for page in range(1, first["pages"] + 1):
        answer = client.get(f"/api/tournaments/{tid}/results?page={page}", headers=auth)
        lines += answer.get_json()["results"]
    assert first["pages"] == 2 and first["total"] == 7 == len(lines)
    csv_rows = client.get(f"/results/{tid}.csv").get_data(as_text=True).strip().splitlines()[1:]
    assert [(line["place"], line["place_last"], line["name"]) for line in lines] == [
        (int(row.split(",")[0].split("–")[0]),
         int(row.split(",")[0].split("–")[1]) if "–" in row.split(",")[0] else None,
         row.split(",")[1]) for row in csv_rows]
    assert [line["place"] for line in lines] == [9, 10, 10, 12, 13, 13, 15]
    tied = [line for line in lines if line["place_last"]]
    assert [line["prize"] for line in tied[:2]] == [tied[0]["prize"]] * 2


def test_the_places_pages_read_their_own_lines_whatever_the_history(
        app: Flask, client: FlaskClient, auth: dict[str, str], login: Callable[[], None],
        make_entry_tournament: Callable[..., int], statements: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The results page and API (10 lines a page here) and a player's record and history
    send the same statements and load the same player rows with 12 and with 36 busts; a
    league sends the same statements."""
    from director.views import money as money_views
    monkeypatch.setattr(money_views, "RESULTS_PAGE", 10, raising=False)
    tid = make_entry_tournament()
    login()
    api = EventApi(client, auth, tid)
    ids = [api.buy_in(f"Player {i:02d}") for i in range(60)]
    assert api.post("seating/draw").status_code == 200
    person = client.get("/api/players?q=Player 05", headers=auth).get_json()["players"][0]["id"]
    league = client.post("/api/players/leagues", headers=auth, json={
        "name": "Season", "formula": "linear", "tournament_ids": [tid]}).get_json()["id"]
    loaded: list[int] = []

    def on_load(target: Player, _context: Any) -> None:
        loaded.append(target.id)

    paths = {"results page": f"/results/{tid}", "results api": f"/api/tournaments/{tid}/results",
             "record": f"/api/players/{person}", "history": f"/director/players/{person}",
             "league api": f"/api/players/leagues/{league}"}

    def cost() -> dict[str, tuple[int, int]]:
        found = {}
        for name, path in paths.items():
            statements.clear()
            loaded.clear()
            answer = client.get(path, headers=auth)
            assert answer.status_code == 200, (path, answer.status_code)
            found[name] = (len(statements), len(loaded))
        return found

    def bust(victims: list[int]) -> None:
        for pid in victims:
            answer = api.eliminate(pid)
            assert answer.status_code == 200, answer.get_json()
            plan = answer.get_json().get("pending_plan")
            while plan:
                plan = api.post(f"seating/plans/{plan['id']}/confirm").get_json().get(
                    "pending_plan")

    event.listen(Player, "load", on_load)
    try:
        bust(ids[10:22])
        small = cost()
        bust(ids[22:46])
        big = cost()
    finally:
        event.remove(Player, "load", on_load)
    assert big == small
    assert small["results page"][1] <= 10 and small["record"][1] <= 1


def test_a_leagues_ranking_is_worked_out_again_only_when_a_place_changed(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_entry_tournament: Callable[..., int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Read twice, the ranking is worked out once; a bust, a late entry (every place moves
    down one), a buy-in undone and a bust undone each show at once in the standings (the
    places as they were before are the ranking worked out then)."""
    from director.services import league as league_service
    worked: list[int] = []
    real = league_service._finishes

    def counted(tournament: Any, names: dict[Any, str]) -> Any:
        worked.append(tournament.id)
        return real(tournament, names)

    monkeypatch.setattr(league_service, "_finishes", counted)
    tid = make_entry_tournament()
    api = EventApi(client, auth, tid)
    for i in range(9):
        api.buy_in(f"Player {i:02d}")
    assert api.post("seating/draw").status_code == 200
    league = client.post("/api/players/leagues", headers=auth, json={
        "name": "Season", "formula": "linear", "tournament_ids": [tid]}).get_json()["id"]

    def points() -> dict[str, float]:
        answer = client.get(f"/api/players/leagues/{league}", headers=auth).get_json()
        return {line["name"]: line["points"] for line in answer["standings"]}

    assert points() == {}
    worked.clear()
    assert points() == {} and worked == []              # kept: nothing changed
    victim = _tables(app, tid)[0][0]
    bust = api.eliminate(victim)
    assert bust.status_code == 200, bust.get_json()
    name = next(r["name"] for r in client.get(f"/api/tournaments/{tid}/results",
                                              headers=auth).get_json()["results"])
    assert points() == {name: 1.0} and len(worked) == 1       # 9th of 9: 1 point
    late = client.post(f"/api/tournaments/{tid}/money/entries", headers=auth,
                       json={"kind": "buy-in", "name": "Late Lou"}).get_json()
    assert points() == {name: 1.0} and len(worked) == 2       # 10th of 10: still 1 point
    assert api.post(f"money/payments/{late['payment']['id']}/undo").status_code == 200
    assert points() == {name: 1.0}       # the places of before the late entry: kept then
    assert api.post(f"seating/players/{victim}/reinstate").status_code == 200
    assert points() == {}
    worked.clear()
    assert points() == {} and worked == []
    assert api.eliminate(_tables(app, tid)[-1][-1]).status_code == 200
    assert len(points()) == 1 and len(worked) == 1
