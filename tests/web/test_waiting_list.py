"""Issue 17 item 7, at registration: a seat the director chooses, the waiting list of a
full room, alternates for no-shows (``director.services.waiting_list``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import inspect, select

from director import migrations
from director.db import db
from director.models.money import Payment
from director.models.seating import Player, SeatingLogEntry
from director.models.waiting_list import WaitingEntry
from director.services import Invalid, audit, tournaments
from director.services.audit import said_again
from tests.conftest import BeforeTheTwinCommitted, EventApi

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim", "Liv"]


@pytest.fixture
def api(client: FlaskClient, auth: dict[str, str],
        make_entry_tournament: Callable[..., int]) -> EventApi:
    """An event whose room has 2 tables of 6 seats."""
    event = EventApi(client, auth, make_entry_tournament())
    r = event.post("seating/settings", table_size=6, room_tables=2)
    assert r.status_code == 200, r.get_json()
    return event


def full_room(api: EventApi) -> dict[str, int]:
    """12 players bought in and drawn at the room's 2 tables: every seat taken."""
    ids = {name: api.buy_in(name) for name in NAMES}
    assert api.post("seating/draw").status_code == 200
    return ids


def waiting_names(api: EventApi) -> list[str]:
    body = api.client.get(f"/api/tournaments/{api.id}/waiting-list", headers=api.auth).get_json()
    return [entry["name"] for entry in body["waiting"]]


def ledger(client: FlaskClient) -> list[tuple[str, str, bool]]:
    with client.application.app_context():
        return [(p.kind, p.player_name, p.undone) for p in db.session.scalars(
            select(Payment).order_by(Payment.id))]


def seat_of(client: FlaskClient, api: EventApi, name: str) -> tuple[int, int] | None:
    seating = client.get(f"/api/tournaments/{api.id}/seating").get_json()
    for player in seating["players"]:
        if player["name"] == name and player["status"] == "active":
            return player["table"], player["seat"]
    return None


def changes(app: Flask) -> list[str]:
    """The log's changes in the director's words, newest first."""
    with app.test_request_context():
        return [audit.sentence(e.message, e.params) for e in audit.recent(kind="changes")]


# ---------------------------------------------------------------- the waiting list

def test_a_buy_in_in_a_full_room_goes_on_the_waiting_list_unpaid(
        client: FlaskClient, api: EventApi) -> None:
    full_room(api)
    paid = ledger(client)
    r = api.post("desk/buy-in", name="Mo", request_key="k-mo")
    assert r.status_code == 202, r.get_json()
    body = r.get_json()
    assert body["sale"] is None and body["waiting"]["name"] == "Mo"
    assert body["waiting"]["position"] == 1 and body["waiting"]["paid"] is False
    assert body["waiting_list"]["room"] == {"tables": 2, "table_size": 6, "seated": 12,
                                            "open_seats": 0, "capacity": 12, "full": True}
    assert ledger(client) == paid                        # no money taken
    assert api.post("desk/buy-in", name="Ned").status_code == 202
    assert waiting_names(api) == ["Mo", "Ned"]


def test_a_waiting_list_key_sent_again_for_another_name_is_refused(
        client: FlaskClient, api: EventApi) -> None:
    """The desk's key that put Mo on the list, sent again for Ned (a form kept from before
    and filled in again), is refused naming ``request_key``: Ned is not answered as Mo."""
    full_room(api)
    assert api.post("desk/buy-in", name="Mo", request_key="k-mo").status_code == 202
    assert api.post("desk/buy-in", name="MO", request_key="k-mo").get_json()["repeated"] is True
    for path in ("desk/buy-in", "waiting-list"):
        refused = api.post(path, name="Ned", request_key="k-mo")
        assert refused.status_code == 400, path
        assert refused.get_json()["errors"] == {"request_key": (
            "This form was sent before, for Mo on the waiting list: reload the page to "
            "record another")}
    assert waiting_names(api) == ["Mo"]


def test_copies_of_a_desk_post_that_lost_the_race_to_their_twin_are_answered_as_it(
        client: FlaskClient, api: EventApi, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy of a desk post (a double click) that looked its key up before its twin
    committed: a seat's buy-in is answered 200 repeated (it was 201, as if a second
    sale), a name put on the list 200 repeated (it was refused, "Mo is already on the
    waiting list")."""
    from director.services import waiting_list

    for name in NAMES[:9]:
        api.buy_in(name)
    assert api.post("seating/draw").status_code == 200       # 2 seats open after Liv
    assert api.post("desk/buy-in", name="Liv", request_key="k-liv").status_code == 201
    monkeypatch.setattr(waiting_list.money_service, "repeated_payment",
                        BeforeTheTwinCommitted(waiting_list.money_service.repeated_payment))
    again = api.post("desk/buy-in", name="Liv", request_key="k-liv")
    assert again.status_code == 200 and again.get_json()["repeated"] is True
    assert ledger(client).count(("buy-in", "Liv", False)) == 1
    monkeypatch.undo()
    assert api.post("waiting-list", name="Mo", request_key="k-mo").status_code == 201
    monkeypatch.setattr(waiting_list, "_listed_for", BeforeTheTwinCommitted(waiting_list._listed_for))
    again = api.post("waiting-list", name="Mo", request_key="k-mo")
    assert again.status_code == 200 and again.get_json()["repeated"] is True
    assert waiting_names(api) == ["Mo"]


def test_a_retried_waiting_list_post_adds_one_entry(client: FlaskClient, api: EventApi) -> None:
    full_room(api)
    first = api.post("desk/buy-in", name="Mo", request_key="same-key")
    again = api.post("desk/buy-in", name="Mo", request_key="same-key")
    assert (first.status_code, again.status_code) == (202, 200)
    assert again.get_json()["repeated"] is True
    assert api.post("waiting-list", name="Ned", request_key="k2").status_code == 201
    assert api.post("waiting-list", name="Ned", request_key="k2").status_code == 200
    assert waiting_names(api) == ["Mo", "Ned"]


def test_before_the_draw_the_room_fills_with_its_tables_seats(
        client: FlaskClient, api: EventApi) -> None:
    for name in NAMES:
        api.buy_in(name)
    r = api.post("money/entries", kind="buy-in", name="Mo")
    assert r.status_code == 400
    assert r.get_json()["errors"] == {"name": "The room is full: 12 players fill its 2 tables"}
    assert api.post("desk/buy-in", name="Mo").status_code == 202   # the desk: the list
    assert len(ledger(client)) == 12


def test_the_next_player_is_seated_with_one_click_once_a_seat_opens(
        client: FlaskClient, api: EventApi) -> None:
    ids = full_room(api)
    api.post("desk/buy-in", name="Mo")
    api.post("desk/buy-in", name="Ned")
    listed = client.get(f"/api/tournaments/{api.id}/waiting-list", headers=api.auth).get_json()
    mo, ned = (entry["id"] for entry in listed["waiting"])
    assert listed["seat_open"] is False
    r = api.post(f"waiting-list/{mo}/seat")
    assert r.status_code == 400
    assert r.get_json()["errors"] == {"entry_id": "No seat is open: the room is full"}
    where = seat_of(client, api, "Cy")
    assert api.eliminate(ids["Cy"]).status_code == 200
    listed = client.get(f"/api/tournaments/{api.id}/waiting-list", headers=api.auth).get_json()
    assert listed["seat_open"] is True and listed["next"]["name"] == "Mo"
    r = api.post(f"waiting-list/{ned}/seat")
    assert r.status_code == 400 and r.get_json()["errors"]["entry_id"].startswith(
        "Mo is ahead of Ned on the waiting list")
    r = api.post(f"waiting-list/{mo}/seat", request_key="seat-mo")
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    assert body["entry"]["status"] == "seated" and body["sale"]["name"] == "Mo"
    assert (body["sale"]["seat"]["table"], body["sale"]["seat"]["seat"]) == where
    assert api.post(f"waiting-list/{mo}/seat", request_key="seat-mo").status_code == 200
    assert ledger(client).count(("buy-in", "Mo", False)) == 1      # the retry paid once
    assert waiting_names(api) == ["Ned"]
    assert body["waiting_list"]["waiting"][0]["position"] == 1
    assert "Seated from the waiting list: Mo" in changes(client.application)


def test_seating_from_the_list_follows_the_entry_rules(
        client: FlaskClient, api: EventApi, auth: dict[str, str]) -> None:
    ids = full_room(api)
    api.post("desk/buy-in", name="Mo")
    api.eliminate(ids["Cy"])
    api.post("money/settings", currency="EUR", buy_in="100", fee="10", starting_stack=20_000,
             late_registration_level=0)
    api.post("clock/start")
    entry = client.get(f"/api/tournaments/{api.id}/waiting-list",
                       headers=auth).get_json()["next"]["id"]
    r = api.post(f"waiting-list/{entry}/seat")
    assert r.status_code == 400 and "entry_id" in r.get_json()["errors"]
    assert waiting_names(api) == ["Mo"] and ("buy-in", "Mo", False) not in ledger(client)


def test_the_list_can_be_reordered_and_names_removed(client: FlaskClient, api: EventApi) -> None:
    full_room(api)
    for name in ("Mo", "Ned", "Oz"):
        api.post("waiting-list", name=name)
    listed = client.get(f"/api/tournaments/{api.id}/waiting-list", headers=api.auth).get_json()
    ids = {e["name"]: e["id"] for e in listed["waiting"]}
    assert api.post(f"waiting-list/{ids['Oz']}/move", position=1).status_code == 200
    assert waiting_names(api) == ["Oz", "Mo", "Ned"]
    r = api.post(f"waiting-list/{ids['Mo']}/move", position=4)
    assert r.status_code == 400 and r.get_json()["errors"] == {
        "position": "The waiting list has 3 names: the place is 1 to 3"}
    assert api.post(f"waiting-list/{ids['Oz']}/remove").status_code == 200
    assert api.post(f"waiting-list/{ids['Oz']}/remove").status_code == 200   # a retry
    assert waiting_names(api) == ["Mo", "Ned"]
    positions = client.get(f"/api/tournaments/{api.id}/waiting-list",
                           headers=api.auth).get_json()["waiting"]
    assert [e["position"] for e in positions] == [1, 2]
    lines = changes(client.application)
    assert "Waiting list: Oz moved to number 1" in lines
    assert "Waiting list: Oz taken off the list" in lines


def test_a_name_already_listed_or_in_play_is_refused(client: FlaskClient, api: EventApi) -> None:
    full_room(api)
    api.post("waiting-list", name="Mo")
    r = api.post("waiting-list", name="mo")
    assert r.status_code == 400 and r.get_json()["errors"] == {
        "name": "Mo is already on the waiting list (number 1)"}
    r = api.post("waiting-list", name="Ann")
    assert r.get_json()["errors"] == {"name": "Ann already has an entry still in play"}
    assert api.post("waiting-list", name="").get_json()["errors"] == {
        "name": "The player needs a name"}
    assert waiting_names(api) == ["Mo"]


def test_a_table_added_to_the_room_opens_seats_for_the_list(
        client: FlaskClient, api: EventApi) -> None:
    full_room(api)
    api.post("desk/buy-in", name="Mo")
    assert api.post("seating/settings", room_tables=3).status_code == 200
    listed = client.get(f"/api/tournaments/{api.id}/waiting-list", headers=api.auth).get_json()
    assert listed["seat_open"] is True and listed["room"]["open_seats"] == 6
    r = api.post(f"waiting-list/{listed['next']['id']}/seat")
    assert r.status_code == 201 and r.get_json()["sale"]["seat"]["table"] == 3


def test_the_room_setting_is_checked_and_blank_clears_it(client: FlaskClient,
                                                          api: EventApi) -> None:
    full_room(api)
    r = api.post("seating/settings", room_tables=1)
    assert r.status_code == 400 and r.get_json()["errors"] == {
        "room_tables": "The room cannot have fewer tables than the 2 in play"}
    r = api.post("seating/settings", seat_choice="sometimes")
    assert r.status_code == 400 and "seat_choice" in r.get_json()["errors"]
    assert api.post("seating/settings", room_tables=None).status_code == 200
    listed = client.get(f"/api/tournaments/{api.id}/waiting-list", headers=api.auth).get_json()
    assert listed["room"]["tables"] is None and listed["room"]["full"] is False
    assert api.post("desk/buy-in", name="Mo").status_code == 201    # a new table opens


# ---------------------------------------------------------------- a seat the director picks

def seated(client: FlaskClient, api: EventApi, count: int) -> None:
    for name in NAMES[:count]:
        api.buy_in(name)
    assert api.post("seating/draw").status_code == 200


def open_seat(client: FlaskClient, api: EventApi) -> tuple[int, int]:
    seating = client.get(f"/api/tournaments/{api.id}/seating").get_json()
    table = seating["tables"][0]
    taken = {s["seat"] for s in table["seats"]}
    return table["number"], min(set(range(1, table["size"] + 1)) - taken)


def test_a_seat_chosen_with_its_reason_is_given_and_logged(
        client: FlaskClient, api: EventApi) -> None:
    seated(client, api, 8)
    table, seat = open_seat(client, api)
    r = api.post("desk/buy-in", name="Mo", table=table, seat=str(seat),
                 reason="wheelchair access")
    assert r.status_code == 201, r.get_json()
    assert (r.get_json()["sale"]["seat"]["table"], r.get_json()["sale"]["seat"]["seat"]) == \
        (table, seat)
    assert seat_of(client, api, "Mo") == (table, seat)
    assert ("buy-in", "Mo", False) in ledger(client)
    assert f"Seat chosen by the director: Mo, table {table} seat {seat} (wheelchair access)" \
        in changes(client.application)
    with client.application.app_context():
        log = [said_again(e.text) for e in db.session.scalars(select(SeatingLogEntry))]
    assert "Seat chosen by the director for Mo: wheelchair access" in log


@pytest.mark.parametrize(("body", "field", "sentence"), [
    ({"reason": ""}, "reason", "Give the reason for choosing the seat"),
    ({"table": 9}, "table", "There is no table 9 in play"),
    ({"seat": 7}, "seat", "Table 1 has seats 1 to 6"),
    ({"seat": "two"}, "seat", "Seat must be a whole number from 1"),
    ({"taken": True}, "seat", "Table 1 seat"),
])
def test_a_chosen_seat_is_refused_naming_the_field_and_nothing_changes(
        client: FlaskClient, api: EventApi, body: dict[str, Any], field: str,
        sentence: str) -> None:
    seated(client, api, 8)
    table, seat = open_seat(client, api)
    if body.pop("taken", False):
        seat = next(s["seat"] for s in client.get(f"/api/tournaments/{api.id}/seating")
                    .get_json()["tables"][0]["seats"])
    before = ledger(client)
    r = api.post("desk/buy-in", **{"name": "Mo", "table": table, "seat": seat,
                                   "reason": "eyesight", **body})
    assert r.status_code == 400
    assert list(r.get_json()["errors"]) == [field]
    assert r.get_json()["errors"][field].startswith(sentence)
    assert ledger(client) == before and seat_of(client, api, "Mo") is None


def test_the_events_seat_choice_setting_decides(client: FlaskClient, api: EventApi) -> None:
    seated(client, api, 8)
    table, seat = open_seat(client, api)
    api.post("seating/settings", seat_choice="never")
    r = api.post("desk/buy-in", name="Mo", table=table, seat=seat, reason="eyesight")
    assert r.status_code == 400 and r.get_json()["errors"]["table"].startswith(
        "This event's seating settings do not let the director choose a seat")
    api.post("seating/settings", seat_choice="free")
    r = api.post("desk/buy-in", name="Mo", table=table, seat=seat)
    assert r.status_code == 201 and seat_of(client, api, "Mo") == (table, seat)


def test_a_seat_cannot_be_chosen_before_the_draw(client: FlaskClient, api: EventApi) -> None:
    api.buy_in("Ann")
    r = api.post("desk/buy-in", name="Mo", table=1, seat=1, reason="eyesight")
    assert r.status_code == 400 and r.get_json()["errors"]["table"].startswith(
        "Seats are not drawn yet")
    assert len(ledger(client)) == 1


# ---------------------------------------------------------------- alternates

def test_an_alternate_takes_a_no_shows_seat_and_the_buy_in_is_refunded(
        client: FlaskClient, api: EventApi) -> None:
    ids = full_room(api)
    api.post("desk/buy-in", name="Mo")
    where = seat_of(client, api, "Di")
    r = api.post("waiting-list/no-show", player_id=ids["Di"], refund="refund",
                 request_key="alt-1")
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    assert body["no_show"] == "Di" and body["entry"]["status"] == "seated"
    assert seat_of(client, api, "Mo") == where and seat_of(client, api, "Di") is None
    assert ("buy-in", "Di", True) in ledger(client)          # refunded: the line undone
    assert api.post("waiting-list/no-show", player_id=ids["Di"], refund="refund",
                    request_key="alt-1").status_code == 200
    money = client.get(f"/api/tournaments/{api.id}/money", headers=api.auth).get_json()
    assert money["entries"] == 12
    assert "Alternate: Mo takes the place of Di, who did not show up (buy-in refunded)" \
        in changes(client.application)


def test_a_no_show_key_sent_again_for_another_no_show_is_refused(
        client: FlaskClient, api: EventApi) -> None:
    """The no-show form kept from before and sent again for Ed (or a key that seated Mo
    from the list with one click) is refused naming ``request_key``: Ed's no-show is not
    answered as Di's, and Ned still waits."""
    ids = full_room(api)
    api.post("desk/buy-in", name="Mo")
    api.post("desk/buy-in", name="Ned")
    assert api.post("waiting-list/no-show", player_id=ids["Di"], refund="keep",
                    request_key="alt-1").status_code == 201
    assert api.post("waiting-list/no-show", player_id=str(ids["Di"]), refund="keep",
                    request_key="alt-1").get_json()["repeated"] is True
    refused = api.post("waiting-list/no-show", player_id=ids["Ed"], refund="refund",
                       request_key="alt-1")
    assert refused.status_code == 400
    assert refused.get_json()["errors"] == {"request_key": (
        "This form was sent before, for Mo on the waiting list: reload the page to "
        "record another")}
    assert seat_of(client, api, "Ed") is not None and waiting_names(api) == ["Ned"]
    assert ("buy-in", "Ed", False) in ledger(client)
    # A key that seated a listed player at an open seat is not a no-show's.
    assert api.post("waiting-list/no-show", player_id=ids["Flo"],
                    refund="refund").status_code == 201                       # Ned in
    api.post("desk/buy-in", name="Oz")
    assert api.eliminate(ids["Gus"]).status_code == 200
    oz = client.get(f"/api/tournaments/{api.id}/waiting-list", headers=api.auth).get_json()
    oz_id = oz["waiting"][0]["id"]
    assert api.post(f"waiting-list/{oz_id}/seat", request_key="seat-oz").status_code == 201
    refused = api.post("waiting-list/no-show", player_id=ids["Ed"], refund="refund",
                       request_key="seat-oz")
    assert refused.status_code == 400 and "request_key" in refused.get_json()["errors"]
    assert seat_of(client, api, "Ed") is not None and seat_of(client, api, "Oz") is not None
    assert [p[1] for p in ledger(client) if p[1] in ("Ed", "Oz")] == ["Ed", "Oz"]


def test_a_no_show_copy_that_lost_the_race_to_its_twin_is_answered_as_repeated(
        client: FlaskClient, api: EventApi, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two copies of one no-show (a double click): the second read the room before the
    first committed, so it finds no sale for its key and is refused by what the first
    did (Di is gone, or the money moved under it).  Its key now names the first's sale:
    it is answered as that one, 200 repeated, not "someone else changed the money";
    the same race for another no-show is refused naming ``request_key``."""
    from director.services import waiting_list

    ids = full_room(api)
    api.post("desk/buy-in", name="Mo")
    api.post("desk/buy-in", name="Ned")
    assert api.post("waiting-list/no-show", player_id=ids["Di"], refund="refund",
                    request_key="alt-1").status_code == 201
    copy = BeforeTheTwinCommitted(waiting_list.money_service.payment_for_request)
    monkeypatch.setattr(waiting_list.money_service, "payment_for_request", copy)
    again = api.post("waiting-list/no-show", player_id=ids["Di"], refund="refund",
                     request_key="alt-1")
    assert again.status_code == 200, again.get_json()
    assert again.get_json()["repeated"] is True and copy.reads >= 2
    other = api.post("waiting-list/no-show", player_id=ids["Ed"], refund="refund",
                     request_key="alt-1")
    assert other.status_code == 400
    assert list(other.get_json()["errors"]) == ["request_key"]
    assert seat_of(client, api, "Ed") is not None and waiting_names(api) == ["Ned"]
    assert ledger(client).count(("buy-in", "Mo", False)) == 1


def test_a_no_shows_kept_buy_in_stays_in_the_prize_pool(client: FlaskClient,
                                                         api: EventApi) -> None:
    ids = full_room(api)
    api.post("desk/buy-in", name="Mo")
    r = api.post("waiting-list/no-show", player_id=ids["Di"], refund="keep")
    assert r.status_code == 201, r.get_json()
    assert ("buy-in", "Di", False) in ledger(client)
    money = client.get(f"/api/tournaments/{api.id}/money", headers=api.auth).get_json()
    assert money["entries"] == 13 and money["players_left"] == 12
    with client.application.app_context():
        assert db.session.scalar(select(Player).where(Player.name == "Di")) is None


@pytest.mark.parametrize("refund", ["refund", "keep"])
def test_a_no_show_whose_alternate_cannot_buy_in_changes_nothing(
        client: FlaskClient, api: EventApi, monkeypatch: pytest.MonkeyPatch,
        refund: str) -> None:
    """One unit of work: the alternate's sale refused after the no-show's buy-in was
    refunded (or voided) leaves the no-show in his seat, paid, and logs nothing."""
    from director.services import money

    ids = full_room(api)
    api.post("desk/buy-in", name="Mo")
    where, before, logged = seat_of(client, api, "Di"), ledger(client), changes(client.application)

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise Invalid({"name": "refused by the sale"})

    monkeypatch.setattr(money, "sell", refused)
    r = api.post("waiting-list/no-show", player_id=ids["Di"], refund=refund)
    assert r.status_code == 400 and "refused by the sale" in str(r.get_json())
    assert seat_of(client, api, "Di") == where and ledger(client) == before
    assert waiting_names(api) == ["Mo"] and changes(client.application) == logged


def test_a_no_shows_kept_buy_in_is_noted_in_the_directors_language(client: FlaskClient,
                                                                   api: EventApi) -> None:
    ids = full_room(api)
    api.post("desk/buy-in", name="Mo")
    client.get("/language/sv")
    r = api.post("waiting-list/no-show", player_id=ids["Di"], refund="keep")
    assert r.status_code == 201, r.get_json()
    with client.application.app_context():
        [note] = [p.note for p in db.session.scalars(select(Payment).where(
            Payment.player_name == "Di"))]
    assert note == "Uteblev: inte återbetald"


def test_a_no_show_is_refused_when_nothing_can_follow(client: FlaskClient,
                                                      api: EventApi) -> None:
    ids = full_room(api)
    r = api.post("waiting-list/no-show", player_id=ids["Di"], refund="refund")
    assert r.get_json()["errors"] == {"entry_id": "Nobody is on the waiting list to take the seat"}
    api.post("desk/buy-in", name="Mo")
    r = api.post("waiting-list/no-show", player_id=ids["Di"], refund="maybe")
    assert r.get_json()["errors"] == {
        "refund": "Choose whether the no-show's buy-in is refunded or kept"}
    api.eliminate(ids["Ed"])
    r = api.post("waiting-list/no-show", player_id=ids["Ed"], refund="refund")
    assert r.get_json()["errors"] == {"player_id": "Ed is out of the tournament"}
    api.post("money/settings", currency="EUR", buy_in="100", fee="10", starting_stack=20_000,
             late_registration_level=0)
    api.post("clock/start")
    before = ledger(client)
    r = api.post("waiting-list/no-show", player_id=ids["Di"], refund="refund")
    assert r.status_code == 400 and "entry_id" in r.get_json()["errors"]
    assert ledger(client) == before and seat_of(client, api, "Di") is not None


# ---------------------------------------------------------------- the pages

def test_the_desk_shows_the_full_room_and_seats_the_next_with_one_click(
        client: FlaskClient, api: EventApi, login: Callable[[], None],
        csrf: Callable[[], str]) -> None:
    ids = full_room(api)
    login()
    page = client.get(f"/director/{api.id}/desk").get_data(as_text=True)
    assert "The room is full" in page and 'id="seat-open"' not in page
    r = client.post(f"/director/{api.id}/desk/buy-in",
                    data={"csrf_token": csrf(), "name": "Mo", "request_key": "d1"},
                    follow_redirects=True)
    assert "Mo is number 1 on the waiting list. No money was taken" in r.get_data(as_text=True)
    api.eliminate(ids["Cy"])
    page = client.get(f"/director/{api.id}/seating").get_data(as_text=True)
    assert "Seat open: next on the waiting list is Mo." in page
    entry = client.get(f"/api/tournaments/{api.id}/waiting-list",
                       headers=api.auth).get_json()["next"]["id"]
    r = client.post(f"/director/{api.id}/waiting-list/{entry}/seat",
                    data={"csrf_token": csrf(), "request_key": "s1", "back": "desk"},
                    follow_redirects=True)
    html = r.get_data(as_text=True)
    assert "From the waiting list: buy-in taken. Mo: table" in html and 'id="ticket"' in html


def test_a_refused_form_comes_back_with_the_field_named(
        client: FlaskClient, api: EventApi, login: Callable[[], None],
        csrf: Callable[[], str]) -> None:
    seated(client, api, 8)
    taken = client.get(f"/api/tournaments/{api.id}/seating").get_json()["tables"][0]["seats"][0]
    login()
    r = client.post(f"/director/{api.id}/desk/buy-in",
                    data={"csrf_token": csrf(), "name": "Mo", "table": "1",
                          "seat": str(taken["seat"]), "reason": "eyesight"})
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert 'data-field="seat"' in html
    assert f"Table 1 seat {taken['seat']} is taken by {taken['name']}" in html
    r = client.post(f"/director/{api.id}/waiting-list/99/remove",
                    data={"csrf_token": csrf(), "back": "seating"})
    assert r.status_code == 400
    assert "There is no entry 99 on this event&#39;s waiting list" in r.get_data(as_text=True)


def test_a_finished_event_takes_nobody_on_its_list(client: FlaskClient, api: EventApi) -> None:
    full_room(api)
    with client.application.test_request_context():
        tournaments.cancel(api.id)
    r = api.post("waiting-list", name="Mo")
    assert r.status_code == 400 and list(r.get_json()["errors"]) == ["event"]


# ---------------------------------------------------------------- the migration

def test_the_waiting_list_revision_adds_its_table_and_takes_it_away(
        make_app: Callable[..., Flask]) -> None:
    app = make_app(tables=False)
    migrations.migrate(app, "0003", backup=False)
    with app.app_context(), db.engine.connect() as connection:
        assert "waiting_list" not in inspect(connection).get_table_names()
    migrations.migrate(app, "0004", backup=False)
    with app.app_context():
        with db.engine.connect() as connection:
            assert "waiting_list" in inspect(connection).get_table_names()
        assert db.session.scalars(select(WaitingEntry)).all() == []
    migrations.migrate(app, "0003", down=True, backup=False)
    with app.app_context(), db.engine.connect() as connection:
        assert "waiting_list" not in inspect(connection).get_table_names()
