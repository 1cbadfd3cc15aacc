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
    # the seats decided: their winners, a name a line, in the payouts' box
    expect(projector.locator("#p-payouts-label")).to_have_text("Seats won")
    expect(projector.locator("#p-payouts li")).to_have_text(["Hal", "Ida", "Jo", "Kim"])
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


def pages_of(projector, rows: str) -> list[list[str]]:
    """The names each page of a paged projector list shows (``rows``: its rows' names),
    page after page (the fake clock moved on a page's 6 s each), until the first comes
    back; every row on a page lies wholly on the screen."""
    height = projector.viewport_size["height"]
    pages: list[list[str]] = []
    for _ in range(20):
        shown = projector.locator(rows)
        names = shown.all_inner_texts()
        if pages and names == pages[0]:
            return pages
        for i in range(shown.count()):
            box = shown.nth(i).bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5, \
                (names[i], box)
        pages.append(names)
        projector.clock.run_for(6_000)
    raise AssertionError("the list's pages never came back to the first")


def test_thirty_seat_winners_are_each_on_a_page_of_the_projector_and_of_its_winner_screen(
        chromium, live_server, artifacts):
    """A satellite of 30 seats: "Seats won: …" was one line of 30 names that ran over the
    payouts and off the screen, and the winner screen cut the list after 18.  Now the
    seat winners take the payouts' box, a name a line, and both lists go a page at a
    time (the page in their heading), every name on a page."""
    url, auth = live_server.url, {"Authorization": f"Bearer {live_server.token}"}
    tid = requests.post(f"{url}/api/tournaments", headers=auth, timeout=10, json={
        "name": "Mega Satellite", "levels": [{"kind": "level", "game": "PO", "duration_seconds": 1200,
                                              "small_blind": 25, "big_blind": 50}]}).json()["id"]
    answer = requests.post(f"{url}/api/tournaments/{tid}/money/settings", headers=auth, timeout=10,
                           json={"buy_in": 100, "starting_stack": 10000, "late_registration_level": 0,
                                 "satellite_seat": 250})           # 75 x €100: 30 seats
    assert answer.status_code == 200, answer.text
    ids = []
    for i in range(75):
        answer = requests.post(f"{url}/api/tournaments/{tid}/money/entries", headers=auth,
                               timeout=10, json={"kind": "buy-in", "name": f"Qualifier {i:02d} Østergaard"})
        assert answer.status_code == 201, answer.text
        ids.append(answer.json()["player_id"])
    for pid in ids[:45]:
        answer = requests.post(f"{url}/api/tournaments/{tid}/seating/eliminate", headers=auth,
                               timeout=10, json={"player_ids": [pid]})
        assert answer.status_code == 200, answer.text
    winners = sorted(f"Qualifier {i:02d} Østergaard" for i in range(45, 75))
    sizes = (("en", (1920, 1080), "Seats won", "of"), ("sv", (1280, 720), "Vunna platser", "av"),
             ("id", (1024, 768), "Kursi dimenangkan", "dari"))
    context = chromium.new_context()
    projector = context.new_page()
    projector.clock.install()
    for code, (width, height), label, word in sizes:
        projector.set_viewport_size({"width": width, "height": height})
        projector.goto(f"{url}/language/{code}")
        projector.goto(f"{url}/clock/{tid}")
        projector.wait_for_selector("#p-connection.live")
        assert projector.locator("#p-payouts-label").text_content() == label
        pages = pages_of(projector, "#p-payouts li .p-who")
        assert sorted(n for page in pages for n in page) == winners, code
        assert len(pages) > 1 and projector.locator("#p-page").inner_text() == f"1 {word} {len(pages)}"
        below = projector.locator("#p-payouts").bounding_box()
        late = projector.locator("#p-late").bounding_box()       # the line under the list
        assert late is None or below["y"] + below["height"] <= late["y"] + 0.5, code
        projector.screenshot(path=str(artifacts / f"satellite-seats-won-{code}-{width}x{height}.png"))

    answer = requests.post(f"{url}/api/tournaments/{tid}/money/deal", headers=auth, timeout=10,
                           json={"method": "seats"})       # everyone left gets a seat: the end
    assert answer.status_code == 201, answer.text
    for code, (width, height), label, word in (*sizes, ("en", (390, 844), "Seats won", "of")):
        projector.set_viewport_size({"width": width, "height": height})
        projector.goto(f"{url}/language/{code}")
        projector.goto(f"{url}/clock/{tid}")
        projector.wait_for_selector("body.finished")
        # The page draws the winners from the state it was served, then again from its
        # stream's first state (with the stream's opening): read once that is in, not
        # while the rows are being replaced (CI's PostgreSQL run once measured a row
        # just taken off the screen).
        projector.wait_for_selector("#p-connection.live")
        projector.wait_for_timeout(300)
        assert projector.locator(".p-winner-label").text_content() == label
        if height > width:                  # a phone held upright: the list scrolls with the page
            names = projector.locator("#p-results li .p-who").all_inner_texts()
            assert sorted(names) == winners and projector.locator("#p-results-page").inner_text() == ""
            assert projector.evaluate("document.documentElement.scrollWidth") <= width
        else:
            pages = pages_of(projector, "#p-results li .p-who")
            assert sorted(n for page in pages for n in page) == winners, code
            assert projector.locator("#p-results-page").inner_text() == f"1 {word} {len(pages)}"
        projector.screenshot(path=str(artifacts / f"satellite-winners-{code}-{width}x{height}.png"))
    context.close()
