"""Deals: the stacks entered must add up to the chips in play (or the director confirms the
difference with a reason, which is logged); an amount may be left to play for, won by
whoever wins the rest; a deal that shares out everything finishes the event."""

from __future__ import annotations

from typing import Any

import pytest

from director.services import audit
from tests.conftest import level

SETTINGS: dict[str, Any] = {"buy_in": "100", "fee": "10", "starting_stack": 250_000,
                            "late_registration_level": 0, "payout_template": "custom",
                            "custom_payouts": "50, 30, 20"}


@pytest.fixture
def event(client, auth, make_tournament):
    """Three players left of five: 5 x 250,000 = 1,250,000 chips in play; 50/30/20."""
    tid = make_tournament(levels=[level(25, 50), level(50, 100)])

    class Event:
        id = tid
        ids: list[int] = []

        def post(self, path: str, **body: Any) -> Any:
            return client.post(f"/api/tournaments/{tid}/{path}", json=body, headers=auth)

        def clock(self) -> dict[str, Any]:
            return dict(client.get(f"/api/tournaments/{tid}/clock").get_json())

        def results(self) -> dict[str, dict[str, Any]]:
            rows = client.get(f"/api/tournaments/{tid}/results").get_json()["results"]
            return {r["name"]: r for r in rows}

    e = Event()
    assert e.post("money/settings", **SETTINGS).status_code == 200
    for name in ("Ann", "Bo", "Cia", "Dan", "Eve"):
        response = e.post("money/entries", kind="buy-in", name=name)
        e.ids.append(int(response.get_json()["player_id"]))
    assert e.post("clock/start").status_code == 200           # late registration is over
    e.post("seating/eliminate", player_ids=[e.ids[4]])
    e.post("seating/eliminate", player_ids=[e.ids[3]])
    return e


def stacks(event: Any, *chips: int) -> dict[str, int]:
    return {f"stack_{pid}": c for pid, c in zip(event.ids[:3], chips, strict=True)}


def test_deal_refused_when_the_stacks_do_not_add_up_to_the_chips_in_play(event):
    quote = event.post("money/deal/quote", method="chip-chop", **stacks(event, 600_000, 400_000,
                                                                         165_000)).get_json()
    assert quote["chips_in_play"] == 1_250_000 and quote["stacks_difference"] == -85_000
    assert "1,165,000" in quote["stacks_refusal"]
    refused = event.post("money/deal", method="chip-chop",
                         **stacks(event, 600_000, 400_000, 165_000))
    assert refused.status_code == 400
    assert "1,165,000 chips, but 1,250,000 chips are in play" in \
        refused.get_json()["errors"]["stacks"]
    assert event.clock()["status"] != "finished"


def test_a_difference_confirmed_with_a_reason_is_saved_and_logged(event, app):
    saved = event.post("money/deal", method="chip-chop",
                       stacks_reason="A 100,000 plaque was found under the table later",
                       **stacks(event, 600_000, 400_000, 165_000))
    assert saved.status_code == 201, saved.get_json()
    deal = saved.get_json()["deal"]
    assert deal["stacks_reason"].startswith("A 100,000 plaque")
    with app.app_context():
        lines = [e for e in audit.recent(text=f"tournament {event.id}")
                 if e.action == "deal stacks confirmed"]
    assert lines and lines[0].details["difference"] == -85_000


def test_a_deal_that_shares_out_everything_finishes_the_event(event):
    saved = event.post("money/deal", method="chip-chop", **stacks(event, 600_000, 400_000,
                                                                   250_000))
    assert saved.status_code == 201 and saved.get_json()["status"] == "finished"
    state = event.clock()
    assert state["status"] == "finished" and state["running"] is False
    assert event.post("money/entries", kind="buy-in", name="Late").status_code == 400


def test_an_amount_left_to_play_for_goes_to_the_winner_and_the_event_goes_on(event):
    body = {"method": "chip-chop", "left_to_play": "100", **stacks(event, 500_000, 500_000,
                                                                   250_000)}
    quote = event.post("money/deal/quote", **body).get_json()
    assert quote["money_left"] == 50_000 and quote["left_to_play"] == 10_000
    assert quote["dealt"] == 40_000 and sum(p["amount"] for p in quote["players"]) == 40_000
    saved = event.post("money/deal", **body)
    assert saved.status_code == 201 and saved.get_json()["status"] != "finished"
    dealt = {p["name"]: p["amount"] for p in quote["players"]}
    # The event goes on: Cia and Bo bust, Ann wins the 100 played for.
    assert event.post("seating/eliminate", player_ids=[event.ids[2]]).status_code == 200
    assert event.post("seating/eliminate", player_ids=[event.ids[1]]).status_code == 200
    assert event.clock()["status"] == "finished"
    results = event.results()
    assert results["Ann"]["prize"] == dealt["Ann"] + 10_000
    assert results["Bo"]["prize"] == dealt["Bo"]
    paid = event.post(f"results/{event.ids[0]}/pay")
    assert paid.status_code == 201 and paid.get_json()["payment"]["prize"] == 10_000


def test_left_to_play_must_leave_something_to_deal(event):
    refused = event.post("money/deal", method="icm", left_to_play="500",
                         **stacks(event, 500_000, 500_000, 250_000))
    assert refused.status_code == 400 and "left_to_play" in refused.get_json()["errors"]


def test_the_deal_page_asks_for_the_reason_and_the_amount_left_to_play_for(event, client,
                                                                          login, csrf):
    login()
    query = "&".join(f"{k}={v}" for k, v in stacks(event, 600_000, 400_000, 165_000).items())
    page = client.get(f"/director/{event.id}/deal?method=chip-chop&{query}")
    text = page.get_data(as_text=True)
    assert 'id="stacks-reason"' in text and 'id="left-to-play"' in text
    assert "1,165,000 chips, but 1,250,000 chips are in play" in text
    form = {"csrf_token": csrf(), "method": "chip-chop",
            **{k: str(v) for k, v in stacks(event, 600_000, 400_000, 165_000).items()}}
    refused = client.post(f"/director/{event.id}/deal", data=form)
    assert refused.status_code == 400 and 'data-field="stacks"' in refused.get_data(as_text=True)
    saved = client.post(f"/director/{event.id}/deal",
                        data={**form, "stacks_reason": "Counted twice, confirmed"})
    assert saved.status_code == 302


def test_save_and_pay_clicked_twice_pays_the_deal_once_and_says_done_already(
        event, client, login, csrf, app):
    """A double click on *Save and pay* (one form, one key): the deal is paid once, the
    event finishes once, and the second click reads "Done already" where it said "the
    event is finished" (the page the browser shows is the second click's)."""
    login()
    query = "&".join(f"{k}={v}" for k, v in stacks(event, 600_000, 400_000, 250_000).items())
    text = client.get(f"/director/{event.id}/deal?method=chip-chop&{query}").get_data(as_text=True)
    key = text[text.index('id="deal-save"'):].split('name="idempotency_key" value="', 1)[1]
    form = {"csrf_token": csrf(), "method": "chip-chop", "idempotency_key": key.split('"')[0],
            **{k: str(v) for k, v in stacks(event, 600_000, 400_000, 250_000).items()}}
    said = []
    for _ in range(2):
        answer = client.post(f"/director/{event.id}/deal", data=form, follow_redirects=True)
        assert answer.status_code == 200
        said.append(answer.get_data(as_text=True))
    assert "The deal is saved and paid, and the event is finished" in said[0]
    assert "Done already: the deal is saved and paid, once (the same request arrived twice)." in said[1]
    assert event.clock()["status"] == "finished"
    with app.app_context():
        from sqlalchemy import func, select

        from director.db import db
        from director.models.money import Payment
        payouts = db.session.scalar(select(func.count(Payment.id)).where(
            Payment.tournament_id == event.id, Payment.kind == "payout"))
    assert payouts == 3


def test_a_deal_sent_again_through_the_api_with_its_key_answers_the_deal_saved(event, app):
    body = {"method": "chip-chop", "idempotency_key": "deal-1",
            **stacks(event, 600_000, 400_000, 250_000)}
    first = event.post("money/deal", **body)
    again = event.post("money/deal", **body)
    assert first.status_code == 201, first.get_json()
    assert again.status_code == 200 and again.get_json()["done_already"] is True
    assert again.get_json()["deal"]["amounts"] == first.get_json()["deal"]["amounts"]
    assert again.get_json()["status"] == "finished"
    other = event.post("money/deal", **{**body, "idempotency_key": "deal-2"})
    assert other.status_code == 400                       # a new request: the event is over


def test_copies_of_one_deal_racing_each_other_pay_it_once(event, app, auth):
    from tests.web.test_concurrency import posted_at_once
    body = {"method": "chip-chop", "idempotency_key": "race-1",
            **stacks(event, 600_000, 400_000, 250_000)}
    statuses = posted_at_once(app, f"/api/tournaments/{event.id}/money/deal", body, auth, 4)
    assert sorted(statuses) == [200, 200, 200, 201], statuses
    with app.app_context():
        from sqlalchemy import func, select

        from director.db import db
        from director.models.money import Payment
        assert db.session.scalar(select(func.count(Payment.id)).where(
            Payment.tournament_id == event.id, Payment.kind == "payout")) == 3


@pytest.mark.parametrize("key", ["", "x" * 101, 7, ["k"]])
def test_a_deal_with_a_bad_key_is_a_400_naming_it_and_pays_nothing(event, key):
    refused = event.post("money/deal", method="chip-chop", idempotency_key=key,
                         **stacks(event, 600_000, 400_000, 250_000))
    assert refused.status_code == 400
    assert list(refused.get_json()["errors"]) == ["idempotency_key"]
    assert event.clock()["status"] != "finished"
    assert not any(r["prize"] for r in event.results().values())
