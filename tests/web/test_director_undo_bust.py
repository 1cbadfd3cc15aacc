"""Issue 14, item 2: the director's undo of an elimination (the seating page and
``POST /api/tournaments/<id>/seating/players/<pid>/reinstate``).

The same reinstatement as the tablet's undo: the player is back, in the seat he
went out from if it is open, otherwise in the seat the rules give a player joining
play (TDA 8-A); the places after his move back; the pending plan is made again.
Refused, with the reason, only where it cannot be done."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale
from sqlalchemy import select

from director.db import db
from director.models.seating import Player, SeatingLogEntry, SeatingTable
from director.services import Invalid, busts, seating
from director.services.audit import said_again


def seated(tid: int, number: int, index: int = 0) -> tuple[int, int]:
    """(seat, player id) of the ``index``-th seated player at table ``number``."""
    seat, player = sorted(seating.load_layout(tid).table(number).seats.items())[index]
    return seat, player.player_id


def refusal(tid: int, pid: int) -> str:
    with pytest.raises(Invalid) as exc:
        busts.undo_elimination(tid, pid)
    return next(iter(exc.value.errors.values()))


def test_undo_elimination_puts_the_player_back_in_his_seat_and_later_places_move_back(
        field: Callable[..., int]) -> None:
    tid = field(12, table_size=6)
    seat, ann = seated(tid, 1)
    _, bo = seated(tid, 2)
    before = seating.load_layout(tid)
    busts.eliminate(tid, [ann])                  # Ann 12th
    busts.eliminate(tid, [bo])                   # Bo 11th
    player, move, lines = busts.undo_elimination(tid, ann)
    assert (move.to_table, move.to_seat) == (1, seat)
    assert (player.status, player.place) == ("active", None)
    assert db.session.get(Player, bo).place == 12                   # later place moves back
    assert seating.load_layout(tid).table(1) == before.table(1)
    assert seating.field_stats(tid)["players_left"] == 11
    name = player.name
    assert lines[0].startswith(f"{name} is back in play at table 1 seat {seat} (")
    assert f"{db.session.get(Player, bo).name} now finishes in place 12" in lines
    logged = [said_again(text) for text in db.session.scalars(select(SeatingLogEntry.text).where(
        SeatingLogEntry.tournament_id == tid, SeatingLogEntry.action == "reinstate")).all()]
    assert lines[0] in logged


def test_undo_elimination_after_a_confirmed_plan_seats_the_player_by_the_rules(
        field: Callable[..., int]) -> None:
    tid = field(12, table_size=6)
    seat, ann = seated(tid, 1)
    busts.eliminate(tid, [ann])
    busts.eliminate(tid, [seated(tid, 1)[1]])
    record = busts.eliminate(tid, [seated(tid, 1)[1]])[1]          # table 1: 3 left of 6
    assert record is not None
    seating.confirm_plan(tid, record.id, random.Random(3))           # players moved since
    player, move, _ = busts.undo_elimination(tid, ann)
    assert player.active and move is not None
    layout = seating.load_layout(tid)
    assert layout.where(ann) == (move.to_table, move.to_seat)
    assert sorted(t.count for t in layout.tables) in ([5, 5], [4, 6], [5, 5, 0])


def test_undo_elimination_to_a_taken_seat_gives_a_random_open_seat(
        field: Callable[..., int]) -> None:
    tid = field(10, table_size=6)
    seat, ann = seated(tid, 1)
    busts.eliminate(tid, [ann])
    late, late_move = seating.register_player(tid, "Late Comer", 10_000)
    if late_move is not None and (late_move.to_table, late_move.to_seat) != (1, seat):
        seating.reseat(tid, late.id, 1, seat)
    assert seating.load_layout(tid).table(1).seats[seat].player_id == late.id
    player, move, _ = busts.undo_elimination(tid, ann)
    assert player.active and (move.to_table, move.to_seat) != (1, seat)
    assert seating.load_layout(tid).where(ann) == (move.to_table, move.to_seat)


def test_undo_elimination_of_a_player_still_in_is_refused_with_the_reason(
        field: Callable[..., int]) -> None:
    tid = field(6)
    _, ann = seated(tid, 1)
    name = db.session.get(Player, ann).name
    assert refusal(tid, ann) == f"{name} is not out of the tournament"


def test_undo_elimination_after_a_new_entry_in_the_same_name_is_refused(
        field: Callable[..., int]) -> None:
    tid = field(6)
    _, ann = seated(tid, 1)
    busts.eliminate(tid, [ann])
    name = db.session.get(Player, ann).name
    seating.register_player(tid, name, 10_000)
    layout = seating.load_layout(tid)
    assert refusal(tid, ann) == f"{name} has entered again since going out: undo that entry first"
    assert seating.load_layout(tid) == layout


# ---------------------------------------------------------------- the page and the API

MONEY = {"currency": "EUR", "buy_in": "100", "starting_stack": 20_000,
         "late_registration_level": 6}


@pytest.fixture
def event(client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> int:
    tid = make_tournament()
    assert client.post(f"/api/tournaments/{tid}/money/settings", json=MONEY,
                       headers=auth).status_code == 200
    for i in range(1, 7):
        client.post(f"/api/tournaments/{tid}/seating/players", json={"name": f"P{i}"},
                    headers=auth)
    assert client.post(f"/api/tournaments/{tid}/seating/draw", headers=auth).status_code == 200
    return tid


def test_undo_elimination_from_the_api(client: FlaskClient, auth: dict[str, str],
                                       event: int) -> None:
    data = client.get(f"/api/tournaments/{event}/seating").get_json()
    ann = data["players"][0]
    client.post(f"/api/tournaments/{event}/seating/eliminate", json={"player_ids": [ann["id"]]},
                headers=auth)
    url = f"/api/tournaments/{event}/seating/players/{ann['id']}/reinstate"
    r = client.post(url, headers=auth)
    assert r.status_code == 200, r.get_json()
    assert (r.get_json()["seat"]["to_table"], r.get_json()["seat"]["to_seat"]) == \
        (ann["table"], ann["seat"])
    back = next(p for p in r.get_json()["seating"]["players"] if p["id"] == ann["id"])
    assert (back["status"], back["place"]) == ("active", None)
    again = client.post(url, headers=auth)
    assert again.status_code == 400
    assert again.get_json()["errors"] == {"player_id": f"{ann['name']} is not out of the tournament"}
    assert client.post(f"/api/tournaments/{event}/seating/players/999/reinstate",
                       headers=auth).status_code == 400
    assert client.post(url).status_code == 401


def test_undo_elimination_button_on_the_seating_page(
        client: FlaskClient, auth: dict[str, str], login: Callable[[], None],
        csrf: Callable[[], str], event: int) -> None:
    ann = client.get(f"/api/tournaments/{event}/seating").get_json()["players"][0]
    client.post(f"/api/tournaments/{event}/seating/eliminate", json={"player_ids": [ann["id"]]},
                headers=auth)
    login()
    page = client.get(f"/director/{event}/seating").get_data(as_text=True)
    assert f'id="reinstate-{ann["id"]}"' in page and "Undo elimination" in page
    r = client.post(f"/director/{event}/seating/players/{ann['id']}/reinstate",
                    data={"csrf_token": csrf()}, follow_redirects=True)
    html = r.get_data(as_text=True)
    assert f"{ann['name']} is back in play: table {ann['table']} seat {ann['seat']}" in html
    assert f'id="reinstate-{ann["id"]}"' not in html
    r = client.post(f"/director/{event}/seating/players/{ann['id']}/reinstate",
                    data={"csrf_token": csrf()})
    assert r.status_code == 400 and "is not out of the tournament" in r.get_data(as_text=True)


def test_a_dealer_undo_stores_its_seating_log_line_language_neutral(
        app: Flask, field: Callable[..., int]) -> None:
    """The seating log is said in each reader's language, whatever the language of the
    tablet that wrote it (issue 27, item 2): the line of a player reinstated by a
    dealer's undo is stored as its msgid and parameters, not as Swedish text."""
    tid = field(12, table_size=6)
    seat, ann = seated(tid, 1)
    busts.eliminate(tid, [ann])
    table_id = db.session.scalar(select(SeatingTable.id).where(
        SeatingTable.tournament_id == tid, SeatingTable.number == 1))
    with app.test_request_context(headers={"Accept-Language": "sv"}), force_locale("sv"):
        busts.reinstate(tid, table_id, {ann: seat})
        db.session.commit()
    stored = db.session.scalar(select(SeatingLogEntry.text).where(
        SeatingLogEntry.tournament_id == tid, SeatingLogEntry.action == "reinstate"))
    name = db.session.get(Player, ann).name
    with app.test_request_context(), force_locale("en"):
        english = said_again(stored)
    with app.test_request_context(), force_locale("sv"):
        swedish = said_again(stored)
    assert english == (f"{name} reinstated at table 1 seat {seat}: the hand that eliminated "
                       "them was undone")
    assert swedish != english and name in swedish
