"""Issue 14, item 1: one registration path.  The desk, the seating page and the seating
API all take a buy-in: the payment is recorded, the player gets the event's starting
stack (the money settings' one number) and, once seats are drawn, a random open seat."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from director.db import db
from director.models.money import Payment
from director.models.seating import Player, SeatingSettings

MONEY = {"currency": "EUR", "buy_in": "100", "fee": "10", "starting_stack": 25_000,
         "late_registration_level": 6}


@pytest.fixture
def event(client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> int:
    tid = make_tournament()
    r = client.post(f"/api/tournaments/{tid}/money/settings", json=MONEY, headers=auth)
    assert r.status_code == 200, r.get_json()
    return tid


def entries(client: FlaskClient, tid: int) -> dict[str, tuple[int, int, list[tuple[str, int]]]]:
    """name -> (chips, entry chips, [(payment kind, payment chips)])."""
    with client.application.app_context():
        players = db.session.query(Player).filter_by(tournament_id=tid).all()
        return {p.name: (p.chips, p.entry_chips,
                         [(pay.kind, pay.chips) for pay in db.session.query(Payment).filter_by(
                             player_id=p.id, undone_at=None)]) for p in players}


def test_seating_page_registration_records_the_buy_in_and_the_event_stack(
        client: FlaskClient, auth: dict[str, str], login: Callable[[], None],
        csrf: Callable[[], str], event: int) -> None:
    login()
    page = client.get(f"/director/{event}/seating").get_data(as_text=True)
    assert "starting stack of 25,000 chips" in page and 'name="chips"' not in page.split(
        'id="register"')[1].split("</section>")[0]
    r = client.post(f"/director/{event}/seating/players",
                    data={"csrf_token": csrf(), "name": "Anna Berg"}, follow_redirects=True)
    assert "Anna Berg is registered; seats are drawn later. Buy-in recorded, 25,000 chips." \
        in r.get_data(as_text=True)
    r = client.post(f"/api/tournaments/{event}/money/entries",
                    json={"kind": "buy-in", "name": "Bo Ek"}, headers=auth)
    assert r.status_code in (200, 201), r.get_json()
    r = client.post(f"/api/tournaments/{event}/seating/players", json={"name": "Cy Dahl"},
                    headers=auth)
    assert r.status_code == 201 and r.get_json()["payment_id"]
    assert entries(client, event) == {name: (25_000, 25_000, [("buy-in", 25_000)])
                                      for name in ("Anna Berg", "Bo Ek", "Cy Dahl")}
    money = client.get(f"/api/tournaments/{event}/money", headers=auth).get_json()
    assert money["entries"] == 3


def test_a_late_registration_on_the_seating_page_is_seated_and_pays(
        client: FlaskClient, auth: dict[str, str], login: Callable[[], None],
        csrf: Callable[[], str], event: int) -> None:
    for name in ("Ann", "Bo", "Cy"):
        client.post(f"/api/tournaments/{event}/seating/players", json={"name": name}, headers=auth)
    assert client.post(f"/api/tournaments/{event}/seating/draw", headers=auth).status_code == 200
    login()
    r = client.post(f"/director/{event}/seating/players",
                    data={"csrf_token": csrf(), "name": "Di Late"}, follow_redirects=True)
    html = r.get_data(as_text=True)
    assert "Di Late: table 1 seat" in html and "Buy-in recorded, 25,000 chips." in html
    assert entries(client, event)["Di Late"] == (25_000, 25_000, [("buy-in", 25_000)])


def test_an_explicit_stack_in_the_api_is_still_a_recorded_buy_in(
        client: FlaskClient, auth: dict[str, str], event: int) -> None:
    r = client.post(f"/api/tournaments/{event}/seating/players",
                    json={"name": "Script", "chips": 1_000_000}, headers=auth)
    assert r.status_code == 201, r.get_json()
    assert entries(client, event)["Script"] == (1_000_000, 1_000_000, [("buy-in", 1_000_000)])


def test_without_money_settings_every_way_in_is_refused_with_the_reason(
        client: FlaskClient, auth: dict[str, str], login: Callable[[], None],
        csrf: Callable[[], str], make_tournament: Callable[..., int]) -> None:
    tid = make_tournament()
    r = client.post(f"/api/tournaments/{tid}/seating/players", json={"name": "Ann"}, headers=auth)
    assert r.status_code == 400
    assert r.get_json()["errors"] == {
        "settings": "Set the buy-in and the entry rules first (Money settings)"}
    login()
    page = client.get(f"/director/{tid}/seating").get_data(as_text=True)
    assert "Save the buy-in and the starting stack in the money settings first" in page
    r = client.post(f"/director/{tid}/seating/players", data={"csrf_token": csrf(), "name": "Ann"})
    assert r.status_code == 400
    assert "Set the buy-in and the entry rules first (Money settings)" in r.get_data(as_text=True)
    assert entries(client, tid) == {}


def test_the_seating_settings_have_no_starting_stack_of_their_own(
        client: FlaskClient, auth: dict[str, str], login: Callable[[], None],
        event: int) -> None:
    r = client.post(f"/api/tournaments/{event}/seating/settings",
                    json={"table_size": 9, "starting_chips": 10_000}, headers=auth)
    assert r.status_code == 400 and list(r.get_json()["errors"]) == ["starting_chips"]
    client.post(f"/api/tournaments/{event}/seating/players", json={"name": "Ann"}, headers=auth)
    assert entries(client, event)["Ann"][0] == 25_000
    login()
    assert 'name="starting_chips"' not in client.get(f"/director/{event}/seating").get_data(
        as_text=True)
    with client.application.app_context():
        assert "starting_chips" not in (db.session.get(SeatingSettings, event).policy or {})
