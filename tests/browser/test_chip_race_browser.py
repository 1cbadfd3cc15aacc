"""Issue 17 item 4: the chip set, the planned colour-ups and the chip race from the
director's page: counts entered per player, the race shown, confirmed, the stacks
and the smallest chip in play updated; a count beyond a stack is refused, named."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import director_page
from tests.browser.test_dealer_browser import call

pytestmark = [pytest.mark.browser]

LEVELS = [
    {"kind": "level", "game": "PO", "duration_seconds": 1200, "small_blind": 25, "big_blind": 50},
    {"kind": "level", "game": "PO", "duration_seconds": 1200, "small_blind": 75, "big_blind": 150},
    {"kind": "break", "duration_seconds": 600, "note": ""},
    {"kind": "level", "game": "PO", "duration_seconds": 1200, "small_blind": 100, "big_blind": 200},
]


def test_the_director_runs_the_chip_race_and_confirms_it(chromium: Any, live_server: Any,
                                                         artifacts: Any) -> None:
    status, made = call(live_server, "POST", "/api/tournaments", {"name": "Race", "levels": LEVELS})
    tid = made["id"]
    call(live_server, "POST", f"/api/tournaments/{tid}/money/settings",
         {"buy_in": "100", "starting_stack": 10_000})
    call(live_server, "POST", f"/api/tournaments/{tid}/seating/settings", {"table_size": 6})
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"):
        call(live_server, "POST", f"/api/tournaments/{tid}/seating/players", {"name": name})
    call(live_server, "POST", f"/api/tournaments/{tid}/seating/draw")
    players = {p["name"]: p for p in call(live_server, "GET", f"/api/tournaments/{tid}/seating")[1]["players"]}
    for name in ("Ann", "Bob", "Cid"):
        call(live_server, "POST", f"/api/tournaments/{tid}/seating/chips",
             {"player_id": players[name]["id"], "chips": 10_050})

    page = director_page(chromium, live_server, width=1366, height=900)
    page.goto(f"{live_server.url}/director/{tid}")
    page.click("#chip-race-link")
    # Each button posts the form and the page is drawn again: expect() waits for the new
    # page (a bare read right after the click can see the old one, or none yet).
    page.fill("#chip-set-input", "25, 60")
    page.click("#chip-set button[type=submit]")
    expect(page.locator(".error")).to_contain_text("T60")
    page.fill("#chip-set-input", "25, 100, 500")
    page.click("#chip-set button[type=submit]")
    expect(page.locator("#smallest-chip")).to_contain_text("Smallest chip in play: T25")
    expect(page.locator("#planned-colour-ups")).to_contain_text("Break before level 3")

    ann, bob, cid = (players[n]["id"] for n in ("Ann", "Bob", "Cid"))
    page.fill(f"input[name=count-{ann}]", "999")
    page.click("#race-run")
    expect(page.locator(f"input[name=count-{ann}][aria-invalid=true]")).to_have_count(1)
    expect(page.locator(".error")).to_contain_text("Ann has 10,050 chips")
    page.fill(f"input[name=count-{ann}]", "2")
    page.click("#race-run")                     # Bob's and Cid's T25 chips are missing
    expect(page.locator(".error")).to_contain_text("Bob has 10,050 chips")
    for pid, count in ((ann, "2"), (bob, "6"), (cid, "2")):
        page.fill(f"input[name=count-{pid}]", count)
    page.click("#race-run")
    result = page.locator("#race-result")
    expect(result).to_contain_text("wins a T100 chip")
    page.screenshot(path=str(artifacts / "chip-race-result.png"), full_page=True)
    before = call(live_server, "GET", f"/api/tournaments/{tid}/seating")[1]["players"]
    assert {p["name"]: p["chips"] for p in before}["Ann"] == 10_050     # not yet applied
    # Level 1 is being played: the race waits for the break (or a paused clock), and the
    # same race stays on the screen to be confirmed then.
    call(live_server, "POST", f"/api/tournaments/{tid}/clock/start", {})
    cards = result.inner_text()
    page.click("#race-confirm")
    expect(page.locator(".error")).to_contain_text(
        "The chip race is confirmed at a break: level 1 is being played")
    assert page.locator("#race-result").inner_text() == cards
    page.screenshot(path=str(artifacts / "chip-race-refused-mid-level.png"), full_page=True)
    after_refusal = call(live_server, "GET", f"/api/tournaments/{tid}/seating")[1]["players"]
    assert {p["name"]: p["chips"] for p in after_refusal}["Ann"] == 10_050
    call(live_server, "POST", f"/api/tournaments/{tid}/clock/pause", {})
    page.click("#race-confirm")
    page.wait_for_url(f"**/director/{tid}/chip-race")
    expect(page.locator(".flash")).to_contain_text("T100 is the smallest chip in play")
    after = call(live_server, "GET", f"/api/tournaments/{tid}/seating")[1]
    assert all(p["chips"] % 100 == 0 for p in after["players"])
    assert after["policy"]["smallest_chip"] == 100
    assert "Smallest chip in play: T100" in page.locator("#smallest-chip").inner_text()
    page.context.close()
