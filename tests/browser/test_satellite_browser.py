"""Issue 17, satellites, as the director does it: the money settings form makes the event a
satellite (seat value = the target event's buy-in), the projector shows the seats and the
remainder for the next place, the bubble banner comes with one player more than seats,
"Seats won" once the bubble bursts, and the deal page's "Everyone left gets a seat" ends the
event: the winner screen lists every seat winner and the results mark the seats."""

from __future__ import annotations

import pytest
import requests

from tests.browser.conftest import director_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_director_runs_a_satellite_to_its_seat_deal(chromium, live_server, artifacts):
    from playwright.sync_api import expect

    url, auth = live_server.url, {"Authorization": f"Bearer {live_server.token}"}
    created = requests.post(f"{url}/api/tournaments", headers=auth, timeout=10, json={
        "name": "Main Event Satellite", "levels": [
            {"kind": "level", "game": "PO", "duration_seconds": 1200, "small_blind": 25,
             "big_blind": 50}]})
    tid = created.json()["id"]

    page = director_page(chromium, live_server, 1366, 900)
    page.goto(f"{url}/director/{tid}/money")
    page.fill("#m-buy_in", "100")
    page.fill("#m-starting_stack", "10000")
    page.fill("#m-late_registration_level", "0")
    page.fill("#m-satellite_seat", "-250")
    page.click("#save-settings")
    page.wait_for_selector('[data-field="satellite_seat"]')      # refused, named, nothing saved
    page.fill("#m-satellite_seat", "250")
    page.click("#save-settings")
    page.wait_for_selector("text=Money settings saved.")

    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim"]
    ids = {}
    for name in names:                          # 11 × €100 = €1,100: 4 seats, €100 to 5th
        answer = requests.post(f"{url}/api/tournaments/{tid}/money/entries", headers=auth,
                               timeout=10, json={"kind": "buy-in", "name": name})
        assert answer.status_code == 201, answer.text
        ids[name] = answer.json()["player_id"]
    page.goto(f"{url}/director/{tid}/money")
    assert "Seats: 4 of €250.00 each" in page.text_content("#satellite-payouts")

    projector = page.context.new_page()
    projector.goto(f"{url}/clock/{tid}")
    projector.wait_for_selector("#p-connection.live")
    expect(projector.locator("#p-payouts li")).to_have_text(["1–4.Seat €250.00", "5.€100.00"])

    page.goto(f"{url}/director/{tid}/seating")
    for name in names[:6]:
        page.check(f'#player-table input[value="{ids[name]}"]')
        page.click("#eliminate-button")
        page.wait_for_selector("text=Eliminated (place")
    expect(projector.locator(".p-banner-seat-bubble")).to_have_text("Seat bubble: 4 seats")
    projector.screenshot(path=str(artifacts / "satellite-bubble.png"))

    page.goto(f"{url}/director/{tid}/deal")       # 5 left for 4 seats: no deal yet, and why
    assert "5 players are left for 4 seats" in page.text_content("#deal-errors")

    page.goto(f"{url}/director/{tid}/seating")
    page.check(f'#player-table input[value="{ids["Gus"]}"]')
    page.click("#eliminate-button")
    page.wait_for_selector("text=Eliminated (place 5)")
    expect(projector.locator("#p-seats-won")).to_have_text("Seats won: Hal, Ida, Jo, Kim")
    projector.screenshot(path=str(artifacts / "satellite-seats-won.png"))

    page.goto(f"{url}/director/{tid}/deal")
    assert page.locator("#deal-method option").all_text_contents() == ["Everyone left gets a seat"]
    assert page.locator("#deal-table td.calculated").all_text_contents() == ["€250.00"] * 4
    page.click("#save-deal")
    page.wait_for_selector("text=the event is finished")
    seats = page.locator("#results-table .seat-won")
    assert seats.count() == 4
    assert "€100.00" in page.locator(f'#results-table tr[data-player="{ids["Gus"]}"]').text_content()
    page.screenshot(path=str(artifacts / "satellite-results.png"), full_page=True)

    expect(projector.locator(".p-winner-label")).to_have_text("Seats won")
    expect(projector.locator("#p-results li .p-who")).to_have_text(["Hal", "Ida", "Jo", "Kim"])
    projector.screenshot(path=str(artifacts / "satellite-winners.png"))
    page.context.close()
