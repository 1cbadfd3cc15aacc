"""A registration sent twice (a retry after a dropped answer, a double tap on the
seating page) is recorded once and answered as the first time, like the desk's sale:
one player, one buy-in, one seat."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import ENTRY


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


# The transport's ``idempotency_key`` (what the tablet and the director's pages put on
# every write) is the retry key of these routes too: before, they read only their own
# ``request_key`` and let it through unread, so a client keying its writes that way got
# a second payment (a rebuy) or a 400 "already registered" for a registration it had made.
KEYED_WRITES = {
    "registration": ("seating/players", {"name": "Keyed Kim"}, 201),
    "buy-in": ("money/entries", {"kind": "buy-in", "name": "Keyed Kim"}, 201),
    "rebuy": ("money/entries", {"kind": "rebuy", "player_id": 0}, 201),
}


@pytest.mark.parametrize("key", ["tablet-0a1b2c-9f", "tablet: Åsa's 2nd tap / #7"],
                         ids=["request-key-letters", "other-letters"])
@pytest.mark.parametrize("write", list(KEYED_WRITES))
def test_a_write_sent_again_with_only_its_idempotency_key_is_recorded_once(
        client: FlaskClient, auth: dict[str, str], make_entry_tournament: Callable[..., int],
        write: str, key: str) -> None:
    tid = make_entry_tournament()
    path, body, status = KEYED_WRITES[write]
    if write == "rebuy":
        player = client.post(f"/api/tournaments/{tid}/seating/players",
                             json={"name": "Rebuying Rui"}, headers=auth).get_json()
        settings = {**ENTRY, "rebuy": True, "rebuy_price": "50", "rebuy_chips": 10_000, "rebuy_until": 3}
        assert client.post(f"/api/tournaments/{tid}/money/settings", json=settings,
                           headers=auth).status_code == 200
        body = {**body, "player_id": player["player_id"]}
    names_before, ledger_before = _counts(client, auth, tid)
    url = f"/api/tournaments/{tid}/{path}"
    first = client.post(url, json={**body, "idempotency_key": key}, headers=auth)
    again = client.post(url, json={**body, "idempotency_key": key}, headers=auth)
    assert first.status_code == status, first.get_json()
    assert again.status_code in (200, 201), again.get_json()
    assert _payment_id(again.get_json()) == _payment_id(first.get_json())
    names, ledger = _counts(client, auth, tid)
    assert ledger == ledger_before + 1
    assert len(names) == len(names_before) + (write != "rebuy")
    # A new key is a new request.
    other = client.post(url, json={**body, "idempotency_key": key + "-2"}, headers=auth)
    assert other.status_code in (201, 400), other.get_json()
    if other.status_code == 201:
        assert _payment_id(other.get_json()) != _payment_id(first.get_json())


def _payment_id(answer: dict[str, Any]) -> int:
    return int(answer["payment"]["id"] if "payment" in answer else answer["payment_id"])


def test_two_different_keys_on_one_request_are_a_400_naming_the_key_and_record_nothing(
        client: FlaskClient, auth: dict[str, str],
        make_entry_tournament: Callable[..., int]) -> None:
    tid = make_entry_tournament()
    answer = client.post(f"/api/tournaments/{tid}/seating/players", headers=auth, json={
        "name": "Two Keys", "request_key": "one", "idempotency_key": "other"})
    assert answer.status_code == 400, answer.get_json()
    assert "idempotency_key" in answer.get_json()["errors"]
    assert _counts(client, auth, tid) == ([], 0)
    same = client.post(f"/api/tournaments/{tid}/seating/players", headers=auth, json={
        "name": "Two Keys", "request_key": "one", "idempotency_key": "one"})
    assert same.status_code == 201, same.get_json()


@pytest.mark.parametrize("key", [7, ["k"], "x" * 101], ids=["number", "list", "too-long"])
def test_a_malformed_idempotency_key_on_a_sale_is_a_400_naming_it_and_records_nothing(
        client: FlaskClient, auth: dict[str, str], make_entry_tournament: Callable[..., int],
        key: Any) -> None:
    tid = make_entry_tournament()
    answer = client.post(f"/api/tournaments/{tid}/money/entries", headers=auth,
                         json={"kind": "buy-in", "name": "Bad Key", "idempotency_key": key})
    assert answer.status_code == 400 and "idempotency_key" in answer.get_json()["errors"]
    assert _counts(client, auth, tid) == ([], 0)
