"""A form that comes back to a part of its page (the address ends in #that-part) shows
what it did there, on the screen: before, the sentence was at the top of the page,
500-1,100 px above what the director was looking at (a late entry's table and seat,
a buy-in's ticket, the waiting list's place)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import director_page, drawn_event

pytestmark = [pytest.mark.browser]

SIZES = [(1366, 768), (390, 844)]


def assert_on_screen(page: Any, text: str, width: int, height: int) -> None:
    said = page.locator("p.flash", has_text=text)
    said.wait_for()
    assert page.locator("p.flash").count() == 1                      # said once
    box = said.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box


@pytest.mark.parametrize("width,height", SIZES)
def test_a_late_registration_is_said_on_the_seating_chart(chromium, live_server, width, height):
    """The new player's table and seat, to tell him, where the page comes back."""
    tid = drawn_event(live_server, [f"Player {i}" for i in range(8)])
    page = director_page(chromium, live_server, width, height)
    page.goto(f"{live_server.url}/director/{tid}/seating")
    page.fill("#reg-name", "Late Lena")
    page.click("#register-player")
    page.wait_for_url("**#chart")
    assert_on_screen(page, "Late Lena: table", width, height)


@pytest.mark.parametrize("width,height", SIZES)
@pytest.mark.parametrize("players,room,part,text", [
    (8, None, "ticket", "Walk In Wanda"),
    (12, 2, "waiting-list", "Walk In Wanda is number 1 on the waiting list")],
    ids=["a seat: its ticket", "a full room: the waiting list"])
def test_a_desk_buy_in_is_said_where_the_desk_comes_back(
        chromium, live_server, width, height, players, room, part, text):
    tid = drawn_event(live_server, [f"Player {i:02d}" for i in range(players)], room_tables=room)
    page = director_page(chromium, live_server, width, height)
    page.goto(f"{live_server.url}/director/{tid}/desk")
    page.fill("#desk-name", "Walk In Wanda")
    page.click("#take-buy-in")
    page.wait_for_url(f"**#{part}")
    assert_on_screen(page, text, width, height)


@pytest.mark.parametrize("width,height", SIZES + [(360, 740)])
@pytest.mark.parametrize("where,fill,button,box,text", [
    ("desk", {"#desk-name": "Player 03"}, "#take-buy-in", "#desk-errors",
     "This player is already registered"),
    ("money", {"#m-starting_stack": "many"}, "#save-settings", "#money-errors",
     "starting_stack")], ids=["the desk", "the money settings"])
def test_a_refusal_is_said_on_the_first_screen(chromium, live_server, width, height,
                                               where, fill, button, box, text):
    """A buy-in or the money settings refused: the reason is on the screen the page opens
    on, not below the event's figures (on a phone they fill a screen of their own)."""
    tid = drawn_event(live_server, [f"Player {i:02d}" for i in range(8)])
    page = director_page(chromium, live_server, width, height)
    page.goto(f"{live_server.url}/director/{tid}/{where}")
    for field, value in fill.items():
        page.fill(field, value)
    page.click(button)
    said = page.locator(box, has_text=text)
    said.wait_for()
    box = said.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box


def test_a_page_opened_without_a_part_keeps_its_sentence_at_the_top(chromium, live_server):
    """A form that comes back to the page itself: the sentence stays where it was."""
    tid = drawn_event(live_server, ["Ann", "Bo"])
    page = director_page(chromium, live_server, 1366, 768)
    page.goto(f"{live_server.url}/director/{tid}")
    page.locator("form[action$='/duplicate'] button[type=submit]").click()   # a copy's page
    said = page.locator("main > p.flash", has_text="Created")
    said.wait_for()
    assert said.bounding_box()["y"] < 300
