"""A form that comes back to a part of its page (the address ends in #that-part) shows
what it did there, on the screen: before, the sentence was at the top of the page,
500-1,100 px above what the director was looking at (a late entry's table and seat,
a buy-in's ticket, the waiting list's place)."""

from __future__ import annotations

from typing import Any

import pytest
import requests

from tests.browser.conftest import director_page

pytestmark = [pytest.mark.browser]

SIZES = [(1366, 768), (390, 844)]


def event(server: Any, players: int, **seating: Any) -> int:
    auth = {"Authorization": f"Bearer {server.token}"}
    api = f"{server.url}/api/tournaments"
    tid = requests.post(api, headers=auth, timeout=10, json={
        "name": "Said", "levels": [{"kind": "level", "game": "PO", "duration_seconds": 1200,
                                    "small_blind": 25, "big_blind": 50}]}).json()["id"]
    assert requests.post(f"{api}/{tid}/money/settings", headers=auth, timeout=10,
                         json={"buy_in": 100, "starting_stack": 10_000,
                               "late_registration_level": 1}).status_code == 200
    assert requests.post(f"{api}/{tid}/seating/settings", headers=auth, timeout=10,
                         json={"table_size": 6, **seating}).status_code == 200
    for i in range(players):
        assert requests.post(f"{api}/{tid}/seating/players", headers=auth, timeout=10,
                             json={"name": f"Player {i:02d}"}).status_code == 201
    assert requests.post(f"{api}/{tid}/seating/draw", headers=auth, timeout=10).status_code == 200
    return tid


def assert_on_screen(page: Any, text: str, width: int, height: int) -> None:
    said = page.locator("p.flash", has_text=text)
    said.wait_for()
    assert page.locator("p.flash").count() == 1                      # said once
    box = said.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box


@pytest.mark.parametrize("width,height", SIZES)
def test_a_desk_buy_in_is_said_beside_its_seat_ticket(chromium, live_server, width, height):
    tid = event(live_server, 8)
    page = director_page(chromium, live_server, width, height)
    page.goto(f"{live_server.url}/director/{tid}/desk")
    page.fill("#desk-name", "Walk In Wanda")
    page.click("#take-buy-in")
    page.wait_for_url("**#ticket")
    assert_on_screen(page, "Walk In Wanda", width, height)


@pytest.mark.parametrize("width,height", SIZES)
def test_a_buy_in_in_a_full_room_is_said_on_the_waiting_list(chromium, live_server, width, height):
    tid = event(live_server, 12, room_tables=2)
    page = director_page(chromium, live_server, width, height)
    page.goto(f"{live_server.url}/director/{tid}/desk")
    page.fill("#desk-name", "Waiting Wim")
    page.click("#take-buy-in")
    page.wait_for_url("**#waiting-list")
    assert_on_screen(page, "Waiting Wim is number 1 on the waiting list", width, height)


def test_a_page_opened_without_a_part_keeps_its_sentence_at_the_top(chromium, live_server):
    """A form that comes back to the page itself: the sentence stays where it was."""
    tid = event(live_server, 8)
    page = director_page(chromium, live_server, 1366, 768)
    page.goto(f"{live_server.url}/director/{tid}")
    page.locator("form[action$='/duplicate'] button[type=submit]").click()   # a copy's page
    said = page.locator("main > p.flash", has_text="Created")
    said.wait_for()
    assert said.bounding_box()["y"] < 300
