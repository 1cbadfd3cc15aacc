"""What the director sees at the desk (issue 17 item 7): a seat chosen with its reason, the
room filling, two players put on the waiting list, a bust, the next one seated with one
click from the seating page, and an alternate taking a no-show's seat.  Each page is
checked for text drawn over text and for anything off the screen at 1366×768 and at
390×844 (a phone), and kept as a screenshot."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import director_page
from tests.browser.test_layout import CHECK, call

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = ((1366, 768), (1024, 768), (390, 844))
NAMES = ["Ann Berg", "Bo Ek", "Cy Dahl", "Di Holm", "Ed Lund", "Flo Nyberg", "Gus Ek",
         "Hal Lindqvist", "Ida Sund", "Jo Wijaya", "Kim Setiabudi"]


def looks_right(page: Any, artifacts: Any, name: str) -> None:
    """At each size: no sideways scrolling, no text over text, the waiting list's buttons
    inside the window; a full-page screenshot of each."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        page.screenshot(path=str(artifacts / f"waiting_list_{name}_{width}x{height}.png"),
                        full_page=True)
        page.locator("#waiting-list").screenshot(
            path=str(artifacts / f"waiting_list_{name}_{width}x{height}_panel.png"))
        result = page.evaluate(CHECK)
        assert result["width"] <= result["inner"], (name, width, result)
        assert not result["overlaps"], (name, width, result["overlaps"])
        for box in page.locator("#waiting-list button, #waiting-list select, "
                                "#waiting-list input:not([type=hidden])").all():
            if box.is_visible():
                rect = box.bounding_box()
                assert rect is not None and rect["x"] >= 0 and \
                    rect["x"] + rect["width"] <= width + 0.5, (name, width, rect)
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})


def test_the_desk_runs_seat_choice_waiting_list_and_alternates(chromium, live_server,
                                                               artifacts) -> None:
    from playwright.sync_api import expect

    server = live_server
    tid = int(call(server, "POST", "/api/tournaments", {"name": "Satellite PLO", "levels": [
        {"kind": "level", "game": "PO", "duration_seconds": 1200, "small_blind": 25,
         "big_blind": 50}]})["id"])
    call(server, "POST", f"/api/tournaments/{tid}/money/settings",
         {"buy_in": "100", "starting_stack": 10000, "late_registration_level": 4})
    call(server, "POST", f"/api/tournaments/{tid}/seating/settings",
         {"table_size": 6, "room_tables": 2})
    for name in NAMES:
        call(server, "POST", f"/api/tournaments/{tid}/money/entries",
             {"kind": "buy-in", "name": name})
    call(server, "POST", f"/api/tournaments/{tid}/seating/draw", {})
    tables = call(server, "GET", f"/api/tournaments/{tid}/seating")["tables"]
    table = next(t for t in tables if len(t["seats"]) < t["size"])
    seat = min(set(range(1, table["size"] + 1)) - {s["seat"] for s in table["seats"]})

    page = director_page(chromium, server, 1366, 768)
    page.goto(f"{server.url}/director/{tid}/desk")
    expect(page.locator("#room-state")).to_contain_text("1 seat open in the room")

    # ---- a seat picked by the director, with its reason
    page.click("#seat-choice summary")
    page.fill("#choose-table", str(table["number"]))
    page.fill("#choose-seat", str(seat))
    page.fill("#desk-name", "Wim Rolstoel")
    page.click("#take-buy-in")          # no reason: refused, the field named, nothing taken
    expect(page.locator("#desk-errors")).to_contain_text("Give the reason for choosing the seat")
    expect(page.locator('#seat-choice [data-field="reason"]')).to_be_visible()
    page.locator("#seat-choice").screenshot(path=str(artifacts / "waiting_list_seat_choice.png"))
    page.fill("#choose-reason", "wheelchair: the table by the door")
    page.click("#take-buy-in")
    expect(page.locator(".flash, [role=status]").first).to_contain_text(
        f"Buy-in taken: Wim Rolstoel — table {table['number']} seat {seat}.")
    expect(page.locator("#ticket-seat")).to_have_text(
        f"Table {table['number']} · Seat {seat}")
    expect(page.locator("#room-state")).to_contain_text("The room is full")

    # ---- the room is full: two buy-ins go on the waiting list, unpaid
    for number, name in enumerate(("Mo Waiting", "Ned Alternate"), start=1):
        page.fill("#desk-name", name)
        page.click("#take-buy-in")
        expect(page.get_by_text(f"The room is full: {name} is number {number} on the "
                                "waiting list.")).to_be_visible()
    expect(page.locator("#waiting-entries .wl-name")).to_have_text(["Mo Waiting",
                                                                    "Ned Alternate"])
    assert page.locator('#ledger-table tr[data-kind="buy-in"]').count() == 12
    looks_right(page, artifacts, "desk_full")

    # ---- a bust on the seating page; a seat is open; one click seats the next
    page.goto(f"{server.url}/director/{tid}/seating")
    assert page.locator("#seat-open").count() == 0
    out = page.locator("#player-table tbody tr").first
    out_name = out.locator(".pname").inner_text()
    out.locator("input[type=checkbox]").check()
    page.click("#eliminate-button")
    expect(page.locator("#seat-open")).to_contain_text(
        "Seat open: next on the waiting list is Mo Waiting.")
    looks_right(page, artifacts, "seating_seat_open")
    page.click("#seat-next")
    expect(page.get_by_text("From the waiting list: buy-in taken. Mo Waiting: table")) \
        .to_be_visible()
    expect(page.locator("#waiting-entries .wl-name")).to_have_text(["Ned Alternate"])
    assert out_name != "Mo Waiting"

    # ---- an alternate for a no-show, back at the desk
    page.goto(f"{server.url}/director/{tid}/desk")
    seating = call(server, "GET", f"/api/tournaments/{tid}/seating")
    no_show = next(p for p in seating["players"] if p["name"] == "Bo Ek")
    page.select_option("#no-show-player", str(no_show["id"]))
    expect(page.locator("#no-show-button")).to_have_text("Give the seat to Ned Alternate")
    looks_right(page, artifacts, "desk_alternate")
    page.click("#no-show-button")
    expect(page.get_by_text("Alternate Ned Alternate takes the place of Bo Ek "
                            "(buy-in refunded).")).to_be_visible()
    expect(page.locator("#ticket-name")).to_have_text("Ned Alternate")
    expect(page.locator("#ticket-seat")).to_have_text(
        f"Table {no_show['table']} · Seat {no_show['seat']}")
    expect(page.locator("#nobody-waiting")).to_be_visible()
    expect(page.locator('#ledger-table tr.undone[data-kind="buy-in"]')).to_have_count(1)
    looks_right(page, artifacts, "desk_done")

    # ---- the same desk in Swedish, the room full again
    call(server, "POST", f"/api/tournaments/{tid}/desk/buy-in", {"name": "Åsa Väntar"})
    page.goto(f"{server.url}/language/sv?next=/director/{tid}/desk")
    expect(page.locator("html")).to_have_attribute("lang", "sv")
    expect(page.locator("#room-state")).to_have_attribute("data-full", "yes")
    looks_right(page, artifacts, "desk_sv")
    page.context.close()
