"""The money pages as a director uses them: the settings form, the registration desk
(buy-in, seat ticket, refusals with the reason, the ledger's undo), the deal page, the
results (public) and the house summary; the projector's money strip."""

from __future__ import annotations

import re

import pytest

from tests.conftest import break_, level


@pytest.fixture
def tid(make_tournament):
    return make_tournament(levels=[level(25, 50), break_(600), level(50, 100)])


@pytest.fixture
def director(client, login, csrf):
    login()
    return csrf


def _settings_form(token: str, **changes: str) -> dict[str, str]:
    form = {"csrf_token": token, "buy_in": "100", "fee": "10", "starting_stack": "20000",
            "late_registration_level": "1", "currency": "EUR", "unit": "1", "guarantee": "0",
            "rebuy": "on", "rebuy_price": "100", "rebuy_fee": "0", "rebuy_chips": "20000",
            "rebuy_until": "1", "payout_template": "standard"}
    form.update(changes)
    return form


def _configure(client, tid: int, token: str, **changes: str) -> None:
    response = client.post(f"/director/{tid}/money", data=_settings_form(token, **changes))
    assert response.status_code == 302, response.get_data(as_text=True)


def test_money_pages_need_the_director(client, tid):
    for path in (f"/director/{tid}/desk", f"/director/{tid}/money", f"/director/{tid}/deal",
                 f"/director/{tid}/money/summary"):
        response = client.get(path)
        assert response.status_code == 302 and "/login" in response.headers["Location"]
    assert client.get(f"/api/tournaments/{tid}/money").status_code == 401
    assert client.get(f"/results/{tid}").status_code == 200          # results are public


def test_settings_form_saves_and_shows_errors_inline(client, tid, director):
    page = client.get(f"/director/{tid}/money")
    assert page.status_code == 200 and "Money settings" in page.get_data(as_text=True)
    bad = client.post(f"/director/{tid}/money",
                      data=_settings_form(director(), buy_in="-5", payout_template="custom",
                                          custom_payouts="60, 30"))
    text = bad.get_data(as_text=True)
    assert bad.status_code == 400
    assert "The buy-in cannot be negative (-5)" in text
    assert "The payout table adds up to 90 %, not 100 %" in text
    _configure(client, tid, director())
    page = client.get(f"/director/{tid}/money").get_data(as_text=True)
    assert "Money settings saved." in page
    assert 'value="100"' in page and 'value="20000"' in page


def test_desk_takes_a_buy_in_and_shows_the_seat_ticket(client, tid, director, auth):
    _configure(client, tid, director())
    desk = client.get(f"/director/{tid}/desk").get_data(as_text=True)
    assert "Take buy-in €110.00" in desk
    key = re.search(r'name="request_key" value="([^"]+)"', desk).group(1)
    form = {"csrf_token": director(), "kind": "buy-in", "name": "Anna Berg", "request_key": key}
    response = client.post(f"/director/{tid}/desk/sell", data=form)
    assert response.status_code == 302 and "ticket=" in response.headers["Location"]
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Buy-in taken: Anna Berg." in page
    assert 'id="ticket-name">Anna Berg<' in page and "Seats are drawn later" in page
    # The same form sent again (a double click) records nothing more.
    client.post(f"/director/{tid}/desk/sell", data={**form, "csrf_token": director()})
    money = client.get(f"/api/tournaments/{tid}/money", headers=auth).get_json()
    assert money["entries"] == 1 and money["prize_pool"] == 10_000
    # After the draw, the ticket names the table and seat.
    client.post(f"/api/tournaments/{tid}/money/entries", json={"kind": "buy-in", "name": "Cia"},
                headers=auth)
    assert client.post(f"/api/tournaments/{tid}/seating/draw", json={},
                       headers=auth).status_code == 200
    response = client.post(f"/director/{tid}/desk/sell", data={
        "csrf_token": director(), "kind": "buy-in", "name": "Bo Ek", "request_key": "k2"})
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert re.search(r'id="ticket-seat">Table 1 · Seat \d+<', page)


def test_desk_refuses_with_the_reason_and_changes_nothing(client, tid, director, auth):
    _configure(client, tid, director())
    pid = client.post(f"/api/tournaments/{tid}/money/entries",
                      json={"kind": "buy-in", "name": "Anna"}, headers=auth).get_json()["player_id"]
    for action in ("start", "next", "next"):
        client.post(f"/api/tournaments/{tid}/clock/{action}", headers=auth)
    response = client.post(f"/director/{tid}/desk/sell", data={
        "csrf_token": director(), "kind": "rebuy", "player_id": str(pid), "stack": "0"})
    text = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Refused — nothing was changed" in text and "Rebuys ended at level 1" in text
    late = client.post(f"/director/{tid}/desk/sell", data={
        "csrf_token": director(), "kind": "buy-in", "name": "Late Larry"})
    assert late.status_code == 400
    assert "Late registration closed at the end of level 1" in late.get_data(as_text=True)
    money = client.get(f"/api/tournaments/{tid}/money", headers=auth).get_json()
    assert len(money["ledger"]) == 1 and money["rebuys"] == 0


def test_ledger_undo_from_the_desk(client, tid, director, auth):
    _configure(client, tid, director())
    pid = client.post(f"/api/tournaments/{tid}/money/entries",
                      json={"kind": "buy-in", "name": "Anna"}, headers=auth).get_json()["player_id"]
    sale = client.post(f"/api/tournaments/{tid}/money/entries",
                       json={"kind": "rebuy", "player_id": pid, "stack": 0}, headers=auth)
    payment_id = sale.get_json()["payment"]["id"]
    response = client.post(f"/director/{tid}/desk/payments/{payment_id}/undo",
                           data={"csrf_token": director()})
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Undone: rebuy of Anna." in page
    assert f'data-payment="{payment_id}" data-kind="rebuy"' in page
    assert client.get(f"/api/tournaments/{tid}/money", headers=auth).get_json()["prize_pool"] \
        == 10_000
    # Without the CSRF token nothing happens.
    refused = client.post(f"/director/{tid}/desk/payments/1/undo", data={})
    assert refused.status_code in (400, 403)
    assert client.get(f"/api/tournaments/{tid}/money", headers=auth).get_json()["entries"] == 1


def test_results_summary_and_deal_pages(client, tid, director, auth):
    _configure(client, tid, director(), payout_template="custom", custom_payouts="60, 40",
               guarantee="500")
    ids = [client.post(f"/api/tournaments/{tid}/money/entries",
                       json={"kind": "buy-in", "name": name}, headers=auth).get_json()["player_id"]
           for name in ("Anna", "Bo", "Cia")]
    client.post(f"/api/tournaments/{tid}/seating/eliminate", json={"player_ids": [ids[2]]},
                headers=auth)
    deal = client.get(f"/director/{tid}/deal?method=chip-chop&stack_{ids[0]}=30000"
                      f"&stack_{ids[1]}=30000")
    text = deal.get_data(as_text=True)
    assert deal.status_code == 200 and "Save and pay" in text
    assert text.count("€250.00") >= 2                     # an even chip-chop of €500
    results = client.get(f"/results/{tid}").get_data(as_text=True)
    assert "still in" in results and "Cia" in results
    summary = client.get(f"/director/{tid}/money/summary").get_data(as_text=True)
    assert 'id="sum-fees">€30.00<' in summary
    assert 'id="sum-overlay">€200.00<' in summary and 'id="sum-pool">€500.00<' in summary
    assert 'id="sum-house">−€170.00<' in summary


def test_projector_shows_the_money_strip_once_configured(client, tid, director, auth):
    page = client.get(f"/clock/{tid}").get_data(as_text=True)
    assert 'class="p-money hidden"' in page
    _configure(client, tid, director())
    client.post(f"/api/tournaments/{tid}/money/entries", json={"kind": "buy-in", "name": "A"},
                headers=auth)
    page = client.get(f"/clock/{tid}").get_data(as_text=True)
    assert 'class="p-money"' in page
    assert 'data-late-text="Late reg closes in %(time)s"' in page
    assert 'id="p-entries">1<' in page and 'id="p-chips">20,000<' in page


def test_the_results_pages_pay_button_pays_once_and_a_kept_form_is_refused(client, tid,
                                                                           director, auth):
    """The director's Pay on the results page: a double click records the prize once and
    says it was paid; the same form's key sent to pay another player is refused in red,
    and that prize stays owed."""
    _configure(client, tid, director(), payout_template="custom", custom_payouts="70, 30")
    ids = [client.post(f"/api/tournaments/{tid}/money/entries",
                       json={"kind": "buy-in", "name": name}, headers=auth).get_json()["player_id"]
           for name in ("Anna", "Bo", "Cia")]
    client.post(f"/api/tournaments/{tid}/seating/eliminate", json={"player_ids": [ids[2]]},
                headers=auth)
    client.post(f"/api/tournaments/{tid}/seating/eliminate", json={"player_ids": [ids[1]]},
                headers=auth)                                  # Anna wins, Bo second
    page = client.get(f"/results/{tid}").get_data(as_text=True)
    form = re.search(rf'action="/director/{tid}/results/{ids[0]}/pay".*?name="request_key" '
                     r'value="([^"]+)"', page, re.S)
    assert form is not None, page
    key = form.group(1)
    for _click in range(2):
        response = client.post(f"/director/{tid}/results/{ids[0]}/pay",
                               data={"csrf_token": director(), "request_key": key})
        assert response.status_code == 302
        said = client.get(response.headers["Location"]).get_data(as_text=True)
        assert "Paid €210.00 to Anna." in said
    money = client.get(f"/api/tournaments/{tid}/money", headers=auth).get_json()
    assert [line["kind"] for line in money["ledger"]].count("payout") == 1
    kept = client.post(f"/director/{tid}/results/{ids[1]}/pay",
                       data={"csrf_token": director(), "request_key": key})
    said = client.get(kept.headers["Location"]).get_data(as_text=True)
    assert "Not paid: This form was sent before, for the prize payment of Anna" in said
    money = client.get(f"/api/tournaments/{tid}/money", headers=auth).get_json()
    assert [line["kind"] for line in money["ledger"]].count("payout") == 1
