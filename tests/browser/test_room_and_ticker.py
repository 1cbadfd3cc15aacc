"""Issue 17 item 5: the director types an announcement and the projector shows it with
the chip leaders from the live counts; the room screen shows two running events in a
column each and follows their clocks live."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import director_page
from tests.browser.test_dealer_browser import call

pytestmark = [pytest.mark.browser]

LEVELS = [{"kind": "level", "game": "PO", "duration_seconds": 1200, "small_blind": 25,
           "big_blind": 50},
          {"kind": "level", "game": "F7S/8", "duration_seconds": 1200, "ante": 25,
           "bring_in": 50, "small_bet": 200, "big_bet": 400}]


def event(server: Any, name: str, players: list[str]) -> int:
    tid = call(server, "POST", "/api/tournaments", {"name": name, "levels": LEVELS})[1]["id"]
    call(server, "POST", f"/api/tournaments/{tid}/money/settings",
         {"buy_in": "100", "starting_stack": 10_000})
    for player in players:
        call(server, "POST", f"/api/tournaments/{tid}/seating/players", {"name": player})
    call(server, "POST", f"/api/tournaments/{tid}/seating/draw")
    return tid


def test_ticker_leaders_and_room(chromium: Any, live_server: Any, artifacts: Any) -> None:
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"]
    first = event(live_server, "Main event", names)
    second = event(live_server, "Stud side event", names[:4])
    for tid in (first, second):
        call(live_server, "POST", f"/api/tournaments/{tid}/clock/start")

    projector = chromium.new_context(viewport={"width": 1280, "height": 720}).new_page()
    projector.goto(f"{live_server.url}/clock/{first}")
    leaders = projector.locator("#p-leaders li")
    assert leaders.count() == 5
    players = {p["name"]: p["id"] for p in
               call(live_server, "GET", f"/api/tournaments/{first}/seating")[1]["players"]}
    call(live_server, "POST", f"/api/tournaments/{first}/seating/chips",
         {"player_id": players["Gus"], "chips": 31_000})
    projector.wait_for_function(
        "() => document.querySelector('#p-leaders li .p-who').textContent === 'Gus'")
    assert "31,000" in leaders.first.inner_text()

    page = director_page(chromium, live_server, width=1366, height=900)
    page.goto(f"{live_server.url}/director/{first}")
    page.fill("#ticker-text", "x" * 10)
    page.fill("#ticker-text", "Dinner break after level 8 · the final table plays on table 1")
    page.click("#ticker-save")
    assert "on the screens" in page.locator(".flash").inner_text()
    projector.wait_for_function(
        "() => document.querySelector('#p-ticker-text').textContent.startsWith('Dinner break')")
    assert projector.locator("#p-ticker").is_visible()
    projector.screenshot(path=str(artifacts / "projector-ticker-leaders.png"))

    refused = call(live_server, "POST", f"/api/tournaments/{first}/announcement", {"text": "y" * 300})
    assert refused[0] == 400 and "text" in refused[1]["errors"]
    assert projector.locator("#p-ticker-text").inner_text().startswith("Dinner break")

    room = chromium.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    room.goto(f"{live_server.url}/room")
    columns = room.locator(".room-column")
    assert columns.count() == 2
    assert "Main event" in columns.nth(0).inner_text()
    assert "Stud side event" in columns.nth(1).inner_text()
    call(live_server, "POST", f"/api/tournaments/{second}/clock/next")
    room.wait_for_function(
        "() => document.querySelectorAll('.room-column')[1].querySelector('.room-level-number')"
        ".textContent === 'Level 2'")
    assert "Bring-in 50" in columns.nth(1).inner_text()
    room.screenshot(path=str(artifacts / "room-screen.png"))
    page.click("#ticker-clear")
    projector.wait_for_function("() => document.querySelector('#p-ticker').classList.contains('hidden')")
    for p in (projector, room, page):
        p.context.close()
