"""A registration sent twice (a retry after a dropped answer, a double tap on the
seating page) is recorded once and answered as the first time, like the desk's sale:
one player, one buy-in, one seat."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient


def _counts(client: FlaskClient, auth: dict[str, str], tid: int) -> tuple[list[str], int]:
    seating = client.get(f"/api/tournaments/{tid}/seating", headers=auth).get_json()
    money = client.get(f"/api/tournaments/{tid}/money", headers=auth).get_json()
    return [p["name"] for p in seating["players"]], len(money["ledger"])


def test_an_api_registration_sent_again_with_its_key_gets_the_same_answer_and_records_one_entry(
        client: FlaskClient, auth: dict[str, str],
        make_entry_tournament: Callable[..., int]) -> None:
    tid = make_entry_tournament()
    body = {"name": "Retry Rita", "request_key": "retry-rita-1"}
    first = client.post(f"/api/tournaments/{tid}/seating/players", json=body, headers=auth)
    again = client.post(f"/api/tournaments/{tid}/seating/players", json=body, headers=auth)
    assert first.status_code == again.status_code == 201, again.get_json()
    keep = ("player_id", "payment_id", "seat")
    assert {k: again.get_json()[k] for k in keep} == {k: first.get_json()[k] for k in keep}
    assert _counts(client, auth, tid) == (["Retry Rita"], 1)


def test_an_api_registration_without_a_key_sent_twice_is_refused_the_second_time(
        client: FlaskClient, auth: dict[str, str],
        make_entry_tournament: Callable[..., int]) -> None:
    tid = make_entry_tournament()
    for status in (201, 400):
        answer = client.post(f"/api/tournaments/{tid}/seating/players",
                             json={"name": "Twice Tom"}, headers=auth)
        assert answer.status_code == status, answer.get_json()
    assert "already registered" in answer.get_json()["errors"]["name"]
    assert _counts(client, auth, tid) == (["Twice Tom"], 1)


def test_a_second_registration_with_another_key_is_a_new_request(
        client: FlaskClient, auth: dict[str, str],
        make_entry_tournament: Callable[..., int]) -> None:
    tid = make_entry_tournament()
    for name, key in (("Ann", "k-1"), ("Bob", "k-2")):
        answer = client.post(f"/api/tournaments/{tid}/seating/players",
                             json={"name": name, "request_key": key}, headers=auth)
        assert answer.status_code == 201, answer.get_json()
    assert _counts(client, auth, tid) == (["Ann", "Bob"], 2)


def test_the_seating_page_form_sent_twice_registers_one_player(
        client: FlaskClient, auth: dict[str, str], login: Callable[[], None],
        csrf: Callable[[], str], make_entry_tournament: Callable[..., int]) -> None:
    tid = make_entry_tournament()
    login()
    page = client.get(f"/director/{tid}/seating").get_data(as_text=True)
    form = page[page.index('id="register"'):]
    key = re.search(r'name="request_key" value="([^"]+)"', form)
    assert key, "the register form carries no request key"
    data: dict[str, Any] = {"csrf_token": csrf(), "name": "Double Dora",
                            "request_key": key.group(1)}
    answers = [client.post(f"/director/{tid}/seating/players", data=data,
                           follow_redirects=True) for _ in range(2)]
    for answer in answers:
        assert answer.status_code == 200
        assert "Double Dora is registered" in answer.get_data(as_text=True)
    assert _counts(client, auth, tid) == (["Double Dora"], 1)
    fresh = client.get(f"/director/{tid}/seating").get_data(as_text=True)
    assert key.group(1) not in fresh, "the page offers the spent key again"
