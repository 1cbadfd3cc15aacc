"""Entries and money end to end through the JSON API: settings, the desk, the ledger and undo,
the prize pool (fees out, guarantee overlay), payouts that add up exactly, late registration,
places and prizes (ties), deals, results, and the clock's money fields."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from tests.conftest import BeforeTheTwinCommitted, break_, level

SETTINGS: dict[str, Any] = {
    "buy_in": "100", "fee": "10", "starting_stack": 20_000, "late_registration_level": 1,
    "rebuy": True, "rebuy_price": "100", "rebuy_chips": 20_000, "rebuy_until": 1,
    "add_on": True, "add_on_price": "50", "add_on_fee": "5", "add_on_chips": 30_000,
    "add_on_break": 1, "re_entry": True, "re_entry_max": 1,
}
LEVELS = [level(25, 50), break_(600), level(50, 100), level(100, 200), level(200, 400)]


@pytest.fixture
def event(client, auth, make_tournament):
    """A tournament with the money settings above; returns helpers bound to it."""
    tid = make_tournament(levels=LEVELS)

    class Event:
        id = tid

        def settings(self, **changes: Any) -> Any:
            return client.post(f"/api/tournaments/{tid}/money/settings",
                               json={**SETTINGS, **changes}, headers=auth)

        def sell(self, kind: str, **body: Any) -> Any:
            return client.post(f"/api/tournaments/{tid}/money/entries",
                               json={"kind": kind, **body}, headers=auth)

        def buy_in(self, name: str, **body: Any) -> int:
            response = self.sell("buy-in", name=name, **body)
            assert response.status_code in (200, 201), response.get_json()
            return int(response.get_json()["player_id"])

        def money(self) -> dict[str, Any]:
            response = client.get(f"/api/tournaments/{tid}/money", headers=auth)
            assert response.status_code == 200
            return dict(response.get_json())

        def clock(self, action: str) -> None:
            assert client.post(f"/api/tournaments/{tid}/clock/{action}",
                               headers=auth).status_code == 200

        def undo(self, payment_id: int) -> Any:
            return client.post(f"/api/tournaments/{tid}/money/payments/{payment_id}/undo",
                               headers=auth)

        def eliminate(self, *ids: int, **body: Any) -> Any:
            response = client.post(f"/api/tournaments/{tid}/seating/eliminate",
                                   json={"player_ids": list(ids), **body}, headers=auth)
            assert response.status_code == 200, response.get_json()
            return response.get_json()

        def results(self) -> list[dict[str, Any]]:
            return list(client.get(f"/api/tournaments/{tid}/results").get_json()["results"])

    assert Event().settings().status_code == 200
    return Event()


def test_a_request_key_sent_again_for_another_sale_is_refused_and_the_first_stands(
        event, client, login, csrf):
    """A key names one sale: sent again for it (a double click, a retry, the name in
    another case) it is answered as the first; sent for another sale (a form kept from
    before and filled in again) it is refused naming ``request_key``, not answered as
    the first with the other sale lost unseen."""
    first = event.sell("buy-in", name="Åsa Berg", request_key="desk-1")
    assert first.status_code == 201, first.get_json()
    asa = first.get_json()["player_id"]
    for same in ("Åsa Berg", "ÅSA  BERG"):
        again = event.sell("buy-in", name=same, request_key="desk-1")
        assert again.status_code == 200 and again.get_json()["repeated"] is True, same
    sentence = "This form was sent before, for the {} of Åsa Berg: reload the page to record another"
    other = event.sell("buy-in", name="Bo", request_key="desk-1")
    assert other.status_code == 400
    assert other.get_json()["errors"] == {"request_key": sentence.format("buy-in")}
    assert event.money()["entries"] == 1
    bo = event.buy_in("Bo", request_key="desk-2")
    # chips: the same key for another player, or for another kind of sale
    assert event.sell("rebuy", player_id=asa, stack=1_000, request_key="chips-1").status_code == 201
    assert event.sell("rebuy", player_id=asa, stack=1_000,
                      request_key="chips-1").get_json()["repeated"] is True
    for kind, player in (("rebuy", bo), ("add-on", asa), ("buy-in", None)):
        body = {"player_id": player} if player else {"name": "Cy"}
        refused = event.sell(kind, stack=1_000, request_key="chips-1", **body)
        assert refused.status_code == 400, kind
        assert refused.get_json()["errors"] == {"request_key": sentence.format("rebuy")}
    # a re-entry: for the busted player's name, not another player
    event.eliminate(asa)
    assert event.sell("re-entry", player_id=asa, request_key="re-1").status_code == 201
    assert event.sell("re-entry", player_id=asa, request_key="re-1").get_json()["repeated"] is True
    refused = event.sell("re-entry", player_id=bo, request_key="re-1")
    assert refused.get_json()["errors"] == {"request_key": sentence.format("re-entry")}
    money = event.money()
    assert (money["entries"], money["re_entries"], money["rebuys"]) == (3, 1, 1)
    # the desk page's form, kept from before and filled in again: said on the page
    login()
    page = client.post(f"/director/{event.id}/desk/buy-in", data={
        "csrf_token": csrf(), "name": "Di", "request_key": "desk-1"}, follow_redirects=True)
    assert "This form was sent before, for the buy-in of Åsa Berg" in page.get_data(as_text=True)
    assert event.money()["entries"] == 3


def test_a_sale_copy_that_lost_the_race_to_its_twin_is_answered_as_the_first(
        event, monkeypatch):
    """Two copies of one rebuy (a double click): the second looked its key up before the
    first committed, then read Åsa's stack after it (40,000 chips: no rebuy at that
    stack).  Its key now names the first's rebuy: answered as that one, 200 repeated,
    not refused for the stack; one rebuy in the ledger."""
    from director.services.money import sales

    asa = event.buy_in("Åsa Berg")
    assert event.sell("rebuy", player_id=asa, request_key="rebuy-1").status_code == 201
    copy = BeforeTheTwinCommitted(sales.payment_for_request)
    monkeypatch.setattr(sales, "payment_for_request", copy)
    again = event.sell("rebuy", player_id=asa, request_key="rebuy-1")
    assert again.status_code == 200, again.get_json()
    assert again.get_json()["repeated"] is True and copy.reads >= 2
    assert event.money()["rebuys"] == 1
    # a refusal with a key nobody sold with stands as it is
    refused = event.sell("rebuy", player_id=asa, request_key="rebuy-2")
    assert refused.status_code == 400 and "kind" in refused.get_json()["errors"]
    assert event.money()["rebuys"] == 1


def test_prize_pool_leaves_the_fees_out_and_counts_rebuys_and_add_ons(event):
    ids = [event.buy_in(f"Player {i}") for i in range(10)]
    assert event.sell("rebuy", player_id=ids[0], stack=1_000).status_code == 201
    event.clock("start")
    event.clock("next")                        # the break after level 1: the add-on is sold
    assert event.sell("add-on", player_id=ids[1]).status_code == 201
    money = event.money()
    assert money["entries"] == 10 and money["rebuys"] == 1 and money["add_ons"] == 1
    assert money["collected"] == 10 * 10_000 + 10_000 + 5_000
    assert money["fees"] == 10 * 1_000 + 500
    assert money["prize_pool"] == 115_000
    assert money["chips_in_play"] == 10 * 20_000 + 20_000 + 30_000
    assert sum(money["payouts"]["amounts"]) == money["prize_pool"]


def test_a_guarantee_shortfall_is_topped_up_by_the_house(event):
    assert event.settings(guarantee="1000").status_code == 200
    for i in range(3):
        event.buy_in(f"P{i}")
    money = event.money()
    assert money["collected"] == 30_000
    assert money["overlay"] == 70_000
    assert money["prize_pool"] == 100_000
    assert money["payouts"]["amounts"] == [100_000]   # 3 entries pay one place


def test_rounding_to_the_unit_still_adds_up_exactly_with_the_remainder_to_first(event):
    assert event.settings(buy_in="33.33", fee="0", unit="5", payout_template="custom",
                          custom_payouts="50, 30, 20").status_code == 200
    for i in range(7):
        event.buy_in(f"P{i}")
    money = event.money()
    pool = 7 * 3_333
    assert money["prize_pool"] == pool
    amounts = money["payouts"]["amounts"]
    assert sum(amounts) == pool
    # €233.31: 30 % = €69.99 and 20 % = €46.66, rounded down to €5; first takes the rest.
    assert amounts[1] == 6_500 and amounts[2] == 4_500
    assert amounts[0] == 12_331
    assert all(a % 500 == 0 for a in amounts[1:])


@pytest.mark.parametrize("changes, field, sentence", [
    ({"buy_in": "-100"}, "buy_in", "cannot be negative"),
    ({"fee": "-1"}, "fee", "cannot be negative"),
    ({"payout_template": "custom", "custom_payouts": "50, 30, 19.5"}, "custom_payouts",
     "adds up to 99.5 %, not 100 %"),
    ({"starting_stack": "lots"}, "starting_stack", "whole number"),
    ({"currency": "XYZW"}, "currency", "not a currency code"),
    ({"rebuy_chips": ""}, "rebuy_chips", "required"),
])
def test_bad_settings_are_refused_naming_the_field_and_change_nothing(event, changes, field,
                                                                      sentence):
    before = event.money()["settings"]
    response = event.settings(**changes)
    assert response.status_code == 400
    assert sentence in response.get_json()["errors"][field]
    assert event.money()["settings"] == before


def test_a_rebuy_after_the_period_is_refused_with_the_reason_and_changes_nothing(event):
    pid = event.buy_in("Anna")
    event.clock("start")
    event.clock("next")
    event.clock("next")                                  # level 2
    before = event.money()
    response = event.sell("rebuy", player_id=pid, stack=0)
    assert response.status_code == 400
    assert response.get_json()["errors"]["kind"] == "Rebuys ended at level 1"
    after = event.money()
    assert after["ledger"] == before["ledger"] and after["prize_pool"] == before["prize_pool"]


def test_an_add_on_twice_or_outside_its_break_is_refused(event):
    pid = event.buy_in("Anna")
    response = event.sell("add-on", player_id=pid)
    assert response.status_code == 400
    assert response.get_json()["errors"]["kind"] == \
        "The add-on is offered only at the break after level 1"
    event.clock("start")
    event.clock("next")
    assert event.sell("add-on", player_id=pid).status_code == 201
    second = event.sell("add-on", player_id=pid)
    assert second.status_code == 400
    assert second.get_json()["errors"]["kind"] == "This player has already taken the add-on"
    assert event.money()["add_ons"] == 1


def test_a_rebuy_needs_a_stack_at_or_below_the_starting_stack(event):
    pid = event.buy_in("Anna")
    response = event.sell("rebuy", player_id=pid, stack=20_001)
    assert response.status_code == 400
    assert "at or below 20,000 chips" in response.get_json()["errors"]["kind"]
    negative = event.sell("rebuy", player_id=pid, stack=-5)
    assert negative.status_code == 400 and "negative" in negative.get_json()["errors"]["stack"]


def test_late_registration_closes_and_locks_the_payout_table(event):
    for i in range(11):
        event.buy_in(f"P{i}")
    assert event.money()["payouts"]["locked"] is False
    event.clock("start")
    event.clock("next")                      # the break after level 1: still open
    event.buy_in("Late")
    event.clock("next")                      # level 2: closed
    refused = event.sell("buy-in", name="Too Late")
    assert refused.status_code == 400
    assert refused.get_json()["errors"]["name"] == \
        "Late registration closed at the end of level 1"
    money = event.money()
    assert money["entries"] == 12
    assert money["payouts"]["locked"] is True
    assert money["late_registration"]["open"] is False


def test_ledger_undo_of_a_rebuy_takes_the_money_and_chips_back(event, client, auth):
    pid = event.buy_in("Anna")
    sale = event.sell("rebuy", player_id=pid, stack=500).get_json()
    assert event.money()["prize_pool"] == 20_000
    response = event.undo(sale["payment"]["id"])
    assert response.status_code == 200
    money = response.get_json()
    assert money["prize_pool"] == 10_000 and money["rebuys"] == 0
    assert [p["undone"] for p in money["ledger"]] == [False, True]
    seating = client.get(f"/api/tournaments/{event.id}/seating").get_json()
    assert seating["players"][0]["chips"] == 20_000   # her count before the rebuy, not the 500 typed
    again = event.undo(sale["payment"]["id"])
    assert again.status_code == 400 and "already undone" in again.get_json()["errors"]["payment_id"]


def test_undoing_a_buy_in_takes_the_entry_out_of_the_seating(event, client, auth):
    ids = [event.buy_in(f"P{i}") for i in range(4)]
    assert client.post(f"/api/tournaments/{event.id}/seating/draw", json={},
                       headers=auth).status_code == 200
    ledger = event.money()["ledger"]
    assert event.undo(ledger[3]["id"]).status_code == 200
    seating = client.get(f"/api/tournaments/{event.id}/seating").get_json()
    assert ids[3] not in [p["id"] for p in seating["players"]]
    assert sum(len(t["seats"]) for t in seating["tables"]) == 3
    money = event.money()
    assert money["entries"] == 3 and money["ledger"][3]["undone"] is True
    # An entry that has busted cannot be undone: its place is in the results.
    event.eliminate(ids[0])
    refused = event.undo(ledger[0]["id"])
    assert refused.status_code == 400 and "already out" in refused.get_json()["errors"]["payment_id"]


def test_a_retried_request_is_recorded_once(event):
    first = event.sell("buy-in", name="Anna", request_key="abc123")
    second = event.sell("buy-in", name="Anna", request_key="abc123")
    assert first.status_code == 201 and second.status_code == 200
    assert second.get_json()["repeated"] is True
    assert event.money()["entries"] == 1


def test_a_registered_player_cannot_buy_in_twice_and_a_busted_one_re_enters(event):
    pid = event.buy_in("Anna")
    again = event.sell("buy-in", name="anna")
    assert again.status_code == 400
    assert "already registered" in again.get_json()["errors"]["name"]
    event.buy_in("Bo")
    event.buy_in("Cia")
    event.eliminate(pid)
    response = event.sell("re-entry", player_id=pid)
    assert response.status_code == 201
    assert event.money()["entries"] == 4 and event.money()["re_entries"] == 1
    new_id = response.get_json()["player_id"]
    event.eliminate(new_id)
    refused = event.sell("re-entry", player_id=new_id)
    assert refused.status_code == 400
    assert refused.get_json()["errors"]["kind"] == "No re-entries left: 1 of 1 used"


def test_bad_json_is_a_400_naming_the_field(event, client, auth):
    for body in ([], "x", None):
        response = client.post(f"/api/tournaments/{event.id}/money/entries", json=body,
                               headers=auth)
        assert response.status_code == 400
    response = client.post(f"/api/tournaments/{event.id}/money/entries",
                           json={"kind": "free-roll"}, headers=auth)
    assert response.status_code == 400 and "kind" in response.get_json()["errors"]
    response = event.sell("rebuy", player_id="x")
    assert response.status_code == 400 and "player_id" in response.get_json()["errors"]
    assert client.post(f"/api/tournaments/{event.id}/money/entries",
                       json={"kind": "buy-in", "name": "X"}).status_code == 401


def test_wrongly_typed_json_fields_are_a_400_naming_the_field_and_record_nothing(
        event, client, auth):
    pid = event.buy_in("Anna")
    before = event.money()
    for body, field in (({"player_id": True}, "player_id"), ({"player_id": pid, "stack": 1.5}, "stack"),
                        ({"player_id": pid, "stack": "lots"}, "stack"),
                        ({"player_id": pid, "request_key": 7}, "request_key"),
                        ({"kind": ["rebuy"], "player_id": pid}, "kind")):
        response = client.post(f"/api/tournaments/{event.id}/money/entries",
                               json={"kind": "rebuy", **body}, headers=auth)
        assert response.status_code == 400 and field in response.get_json()["errors"], body
    response = client.post(f"/api/tournaments/{event.id}/results/{pid}/pay",
                           json={"request_key": 5}, headers=auth)
    assert response.status_code == 400 and "request_key" in response.get_json()["errors"]
    assert event.money() == before


def test_the_clock_json_carries_the_money_and_the_late_registration_countdown(event, client):
    for i in range(3):
        event.buy_in(f"P{i}")
    state = client.get(f"/api/tournaments/{event.id}/clock").get_json()
    assert state["entries"] == 3
    assert state["chips_in_play"] == 60_000
    assert state["prize_pool"] == 300            # major units, for the screens
    assert state["currency"] == "EUR"
    assert state["payouts"] == [{"place": 1, "amount": 300}]
    late = state["late_registration"]
    assert late["open"] is True and late["seconds"] == 1200 + 600  # level 1 and its break
    event.clock("start")
    late = client.get(f"/api/tournaments/{event.id}/clock").get_json()["late_registration"]
    assert late["closes_at"] is not None and 1790 < late["seconds"] <= 1800


def test_places_follow_eliminations_and_hand_for_hand_ties_share_the_prize(event, client, auth):
    assert event.settings(payout_template="custom", custom_payouts="50, 30, 20").status_code == 200
    ids = [event.buy_in(f"P{i:02d}") for i in range(12)]
    assert client.post(f"/api/tournaments/{event.id}/seating/draw", json={},
                       headers=auth).status_code == 200
    seating = client.get(f"/api/tournaments/{event.id}/seating").get_json()
    table_of = {p["id"]: p["table"] for p in seating["players"]}
    by_table: dict[int, list[int]] = {}
    for pid in ids:
        by_table.setdefault(table_of[pid], []).append(pid)
    first, second = sorted(by_table)
    # Eight single busts, four at each table, leave 4 (two per table).
    order = by_table[first][:4] + by_table[second][:4]
    for pid in order:
        event.eliminate(pid)
    left = [p for p in ids if p not in order]
    assert len(left) == 4
    client.post(f"/api/tournaments/{event.id}/seating/hand-for-hand", json={"action": "start"},
                headers=auth)
    at_first = next(p for p in left if table_of[p] == first)
    at_second = next(p for p in left if table_of[p] == second)
    event.eliminate(at_first, at_second)            # same hand, different tables: a tie
    pool = event.money()["prize_pool"]
    results = {r["name"]: r for r in event.results()}
    tied = [r for r in results.values() if r["place"] == 3]
    assert len(tied) == 2 and all(r["place_last"] == 4 for r in tied)
    assert sorted(r["prize"] for r in tied) == [pool * 20 // 100 // 2] * 2
    assert all(r["prize"] == 0 for r in results.values() if r["place"] and r["place"] > 4)


def test_an_entry_busted_during_late_registration_finishes_behind_later_entries(event):
    early = event.buy_in("Early")
    event.buy_in("Bo")
    event.eliminate(early)                    # 2 entries: recorded in place 2
    event.buy_in("Late 1")
    event.buy_in("Late 2")
    places = {r["name"]: r["place"] for r in event.results()}
    assert places["Early"] == 4


def test_a_deal_is_saved_and_paid_and_must_add_up(event, client, auth):
    assert event.settings(payout_template="custom", custom_payouts="50, 30, 20").status_code == 200
    ids = [event.buy_in(f"P{i}") for i in range(5)]
    event.eliminate(ids[4])
    event.eliminate(ids[3])
    stacks = {f"stack_{pid}": s for pid, s in zip(ids[:3], (50_000, 30_000, 20_000), strict=True)}
    quote = client.post(f"/api/tournaments/{event.id}/money/deal/quote",
                        json={"method": "icm", **stacks}, headers=auth).get_json()
    amounts = [p["amount"] for p in quote["players"]]
    assert sum(amounts) == quote["money_left"] == 50_000
    assert amounts == sorted(amounts, reverse=True)
    assert amounts == [19_200, 16_400, 14_400]   # 38.39/32.75/28.86 % rounded to whole euros
    wrong = {f"amount_{ids[0]}": "200", f"amount_{ids[1]}": "160", f"amount_{ids[2]}": "150"}
    refused = client.post(f"/api/tournaments/{event.id}/money/deal",
                          json={"method": "icm", **stacks, **wrong}, headers=auth)
    assert refused.status_code == 400 and "money left" in refused.get_json()["errors"]["deal"]
    agreed = {f"amount_{ids[0]}": "200", f"amount_{ids[1]}": "160", f"amount_{ids[2]}": "140"}
    saved = client.post(f"/api/tournaments/{event.id}/money/deal",
                        json={"method": "icm", **stacks, **agreed}, headers=auth)
    assert saved.status_code == 201
    money = event.money()
    assert money["paid"] == 50_000
    results = {r["name"]: r for r in event.results()}
    assert results["P0"]["prize"] == 20_000 and results["P0"]["deal"] is True
    twice = client.post(f"/api/tournaments/{event.id}/money/deal",
                        json={"method": "icm", **stacks, **agreed}, headers=auth)
    # The deal shared out everything: the event is finished until the director reopens it.
    assert twice.status_code == 400 and "finished" in twice.get_json()["errors"]["event"]
    assert client.post(f"/api/tournaments/{event.id}/reopen", headers=auth).status_code == 200
    twice = client.post(f"/api/tournaments/{event.id}/money/deal",
                        json={"method": "icm", **stacks, **agreed}, headers=auth)
    assert twice.status_code == 400 and "already saved" in twice.get_json()["errors"]["deal"]
    # Undoing one deal payment cancels the deal.
    payout = next(p for p in money["ledger"] if p["kind"] == "payout")
    assert event.undo(payout["id"]).status_code == 200
    assert event.money()["paid"] == 0


def test_a_prize_payments_key_names_one_payment(event, client, auth, monkeypatch):
    """The results page's Pay sent again (a double click, a retry) is recorded once and
    answered as the first, also a copy that read before its twin committed (refused
    as "already paid" by the twin's line); the key sent to pay another player (a form
    kept from before) is refused naming ``request_key``: that prize is not marked paid
    unseen."""
    from director.services.money import places

    assert event.settings(payout_template="custom", custom_payouts="70, 30").status_code == 200
    ids = [event.buy_in(name) for name in ("Anna", "Bo", "Cia")]
    event.eliminate(ids[2])
    event.eliminate(ids[1])                  # Anna wins, Bo second

    def pay(player_id: int, key: str) -> Any:
        return client.post(f"/api/tournaments/{event.id}/results/{player_id}/pay",
                           json={"request_key": key}, headers=auth)

    first = pay(ids[0], "pay-1")
    assert first.status_code == 201 and first.get_json()["repeated"] is False
    sent_again = pay(ids[0], "pay-1")
    assert sent_again.status_code == 200
    assert sent_again.get_json()["repeated"] is True
    assert sent_again.get_json()["payment"] == first.get_json()["payment"]
    copy = BeforeTheTwinCommitted(places.payment_for_request)
    monkeypatch.setattr(places, "payment_for_request", copy)
    again = pay(ids[0], "pay-1")
    assert again.status_code == 200 and again.get_json()["repeated"] is True
    assert again.get_json()["payment"]["prize"] == 21_000
    assert copy.reads >= 2
    monkeypatch.undo()
    other = pay(ids[1], "pay-1")
    assert other.status_code == 400
    assert other.get_json()["errors"] == {"request_key": (
        "This form was sent before, for the prize payment of Anna: reload the page to "
        "record another")}
    assert event.money()["paid"] == 21_000       # Anna's line once, Bo's prize still owed
    assert pay(ids[1], "pay-2").status_code == 201
    assert event.money()["paid"] == 30_000


def test_prizes_are_paid_once_and_the_csv_lists_place_name_prize(event, client, auth):
    assert event.settings(payout_template="custom", custom_payouts="70, 30").status_code == 200
    ids = [event.buy_in(name) for name in ("Anna", "=cmd()", "Cia")]
    event.eliminate(ids[2])
    event.eliminate(ids[1])                  # Anna wins
    pay = client.post(f"/api/tournaments/{event.id}/results/{ids[0]}/pay", json={},
                      headers=auth)
    assert pay.status_code == 201 and pay.get_json()["payment"]["prize"] == 21_000
    again = client.post(f"/api/tournaments/{event.id}/results/{ids[0]}/pay", json={},
                        headers=auth)
    assert again.status_code == 400 and "already paid" in again.get_json()["errors"]["player_id"]
    out = client.post(f"/api/tournaments/{event.id}/results/{ids[2]}/pay", json={}, headers=auth)
    assert out.status_code == 400 and "out of the money" in out.get_json()["errors"]["player_id"]
    response = client.get(f"/results/{event.id}.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(response.get_data().decode("utf-8-sig"))))
    assert rows[0] == ["place", "name", "prize", "currency", "paid", "entries", "rebuys",
                       "add_ons", "deal"]
    assert rows[1][:5] == ["1", "Anna", "210", "EUR", "210"]
    assert rows[2][:5] == ["2", "'=cmd()", "90", "EUR", "0"]
    assert rows[3][:3] == ["3", "Cia", "0"]


def test_the_payout_table_stays_locked_when_an_entry_is_undone_after_the_close(event):
    for i in range(6):
        event.buy_in(f"P{i}")                 # 6 entries pay 2 places
    event.clock("start")
    event.clock("next")
    event.clock("next")                       # level 2: late registration has closed
    locked = event.money()["payouts"]
    assert locked["locked"] is True and locked["percentages"] == ["65", "35"]
    last = event.money()["ledger"][-1]
    assert event.undo(last["id"]).status_code == 200
    money = event.money()
    assert money["entries"] == 5              # 5 entries would pay 1 place
    assert money["payouts"]["percentages"] == ["65", "35"]
    assert sum(money["payouts"]["amounts"]) == money["prize_pool"] == 50_000


def test_the_totals_are_the_ledger_summed_with_undone_lines_left_out(event):
    """The totals (the clock's, the desk's) are summed by the database; they are the
    ledger's own lines summed, kind by kind, whatever was undone in between."""
    anna, budi = event.buy_in("Anna"), event.buy_in("Budi")
    event.buy_in("Cara")
    first = event.sell("rebuy", player_id=anna, stack=400).get_json()["payment"]["id"]
    event.sell("rebuy", player_id=budi, stack=0)
    event.sell("rebuy", player_id=anna, stack=900)
    assert event.undo(first).status_code == 200
    dave = event.buy_in("Dave")
    event.eliminate(dave)
    assert event.sell("re-entry", player_id=dave).status_code in (200, 201)
    ledger = event.money()["ledger"]
    anna_in, cara_in = ledger[0]["id"], ledger[2]["id"]
    assert event.undo(anna_in).status_code == 400        # her rebuy stands: refused
    assert event.undo(cara_in).status_code == 200
    money = event.money()
    live = [line for line in money["ledger"] if not line["undone"]]

    def of(*kinds: str) -> list[dict[str, Any]]:
        return [line for line in live if line["kind"] in kinds]

    assert (money["entries"], money["re_entries"], money["rebuys"]) == (
        len(of("buy-in", "re-entry")), len(of("re-entry")), len(of("rebuy"))) == (4, 1, 2)
    assert money["collected"] == sum(line["prize"] for line in of("buy-in", "re-entry", "rebuy"))
    assert money["fees"] == sum(line["fee"] for line in of("buy-in", "re-entry", "rebuy"))
    assert money["prize_pool"] == money["collected"] == 60_000
    assert sum(line["undone"] for line in money["ledger"]) == 2
