"""The ledger on the registration desk: Undo is a visible button that asks first, naming
what is undone, and undoing a rebuy or an add-on gives the stack back as it was before."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.conftest import EventApi, break_, level

SETTINGS: dict[str, Any] = {
    "buy_in": "100", "fee": "10", "starting_stack": 20_000, "late_registration_level": 2,
    "rebuy": True, "rebuy_price": "180", "rebuy_fee": "20", "rebuy_chips": 25_000,
    "rebuy_until": 2, "add_on": True, "add_on_price": "50", "add_on_chips": 30_000,
    "add_on_break": 1,
}


@pytest.fixture
def event(client, auth, make_tournament):
    tid = make_tournament(levels=[level(25, 50), break_(600), level(50, 100)])

    event = EventApi(client, auth, tid)
    assert event.post("money/settings", **SETTINGS).status_code == 200
    return event


def test_undoing_a_rebuy_restores_the_stack_from_before_it(event):
    ann = event.buy_in("Ann Berg")
    assert event.post("seating/chips", player_id=ann, chips=3_500).status_code == 200
    # The desk counts 1,000 at the table and sells the rebuy: 1,000 + 25,000.
    sold = event.post("money/entries", kind="rebuy", player_id=ann, stack=1_000)
    assert sold.status_code == 201 and event.chips(ann) == 26_000
    assert event.post(f"money/payments/{sold.get_json()['payment']['id']}/undo").status_code == 200
    assert event.chips(ann) == 3_500                       # not the 1,000 typed on the form


def test_undoing_a_rebuy_after_more_hands_keeps_their_result(event):
    ann = event.buy_in("Ann Berg")
    sold = event.post("money/entries", kind="rebuy", player_id=ann, stack=0)   # 20,000 -> 25,000
    assert event.chips(ann) == 25_000
    event.post("seating/chips", player_id=ann, chips=40_000)  # she won 15,000 since
    event.post(f"money/payments/{sold.get_json()['payment']['id']}/undo")
    assert event.chips(ann) == 35_000                        # the rebuy's 5,000 change taken back


def test_undoing_an_add_on_restores_the_stack_from_before_it(event):
    ann = event.buy_in("Ann Berg")
    event.post("clock/start")
    event.post("clock/next")                                 # the break after level 1
    sold = event.post("money/entries", kind="add-on", player_id=ann)
    assert sold.status_code == 201 and event.chips(ann) == 50_000
    event.post(f"money/payments/{sold.get_json()['payment']['id']}/undo")
    assert event.chips(ann) == 20_000


def test_undo_is_a_visible_button_that_names_what_is_undone(event, client, login):
    ann = event.buy_in("Ann Berg")
    event.post("money/entries", kind="rebuy", player_id=ann, stack=0)
    login()
    page = client.get(f"/director/{event.id}/desk").get_data(as_text=True)
    assert 'class="link-button undo"' not in page           # white on a white card
    forms = re.findall(r'<form[^>]*data-confirm="([^"]*)"', page)
    assert "Undo the rebuy of Ann Berg, €200.00, 25,000 chips?" in forms
    assert "Undo the buy-in of Ann Berg, €110.00, 20,000 chips?" in forms
    css = client.get("/static/money.css").get_data(as_text=True)
    assert ".ledger button.undo" in css and "money.js" in page
