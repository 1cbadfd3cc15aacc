"""Issue 17, bounties, as the director does it: the money settings form sets a PKO bounty,
the desk takes buy-ins with the bounty in the price, the seating chart shows each player's
bounty, the eliminate form records who knocked a player out (and a PKO raises his head),
the projector shows the bounties in play, and the results and the house summary show the
bounties paid.  A refused "Knocked out by" says why and changes nothing."""

from __future__ import annotations

import pytest
import requests

from tests.browser.conftest import director_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_director_runs_a_pko_event_from_the_settings_to_the_results(chromium, live_server,
                                                                      artifacts):
    from playwright.sync_api import expect

    url, auth = live_server.url, {"Authorization": f"Bearer {live_server.token}"}
    created = requests.post(f"{url}/api/tournaments", headers=auth, timeout=10, json={
        "name": "PKO Omaha", "levels": [
            {"kind": "level", "game": "PO", "duration_seconds": 1200, "small_blind": 25,
             "big_blind": 50}]})
    assert created.status_code == 201
    tid = created.json()["id"]

    page = director_page(chromium, live_server, 1366, 900)
    page.goto(f"{url}/director/{tid}/money")
    page.fill("#m-buy_in", "100")
    page.fill("#m-fee", "10")
    page.fill("#m-starting_stack", "20000")
    page.fill("#m-late_registration_level", "0")
    page.select_option("#m-bounty_kind", "pko")
    page.click("#save-settings")
    page.wait_for_selector("#money-errors")           # a PKO with no amount: refused, named
    assert page.locator('[data-field="bounty"]').count() == 1
    page.fill("#m-bounty", "50")
    page.click("#save-settings")
    page.wait_for_selector("text=Money settings saved.")
    assert page.locator("#m-bounty_kind").input_value() == "pko"
    page.locator("#bounty-settings").screenshot(path=str(artifacts / "bounties-settings.png"))

    page.goto(f"{url}/director/{tid}/desk")
    assert "€160.00" in page.text_content("#take-buy-in")
    for name in ("Ann", "Bo", "Cy", "Di"):
        page.fill("#desk-name", name)
        page.click("#take-buy-in")
        page.wait_for_selector(f"text=Buy-in taken: {name}.")
    assert page.text_content("#stat-pool") == "€400.00"     # the bounties are not in the pool

    projector = page.context.new_page()
    projector.goto(f"{url}/clock/{tid}")
    projector.wait_for_selector("#p-connection.live")
    expect(projector.locator("#p-bounty")).to_have_text("PKO: bounty €50.00, €200.00 in play")

    requests.post(f"{url}/api/tournaments/{tid}/seating/draw", headers=auth, timeout=10)
    page.goto(f"{url}/director/{tid}/seating")
    assert page.locator("svg .bounty-tag").count() == 4
    ids = {row.get_attribute("data-player"): row.text_content() for row in
           page.locator("#player-table tbody tr").all()}
    by_name = {text.split()[0]: pid for pid, text in ids.items()}

    # A refused pick: the busted player cannot knock himself out; nothing changes.
    page.check(f'#player-table input[value="{by_name["Cy"]}"]')
    page.select_option("#eliminate-by", by_name["Cy"])
    page.click("#eliminate-button")
    page.wait_for_selector('[data-field="by"]')
    assert "cannot knock himself out" in page.text_content('[data-field="by"]')
    assert page.locator("#player-table tbody tr").count() == 4

    page.goto(f"{url}/director/{tid}/seating")
    page.check(f'#player-table input[value="{by_name["Cy"]}"]')
    page.select_option("#eliminate-by", by_name["Ann"])
    page.click("#eliminate-button")
    page.wait_for_selector("text=Eliminated (place 4).")
    ann_row = page.locator(f'#player-table tr[data-player="{by_name["Ann"]}"]')
    assert ann_row.locator("td.bounty").text_content() == "€75.00"
    assert "€75.00" in page.locator("svg .bounty-tag > text").all_text_contents()
    page.screenshot(path=str(artifacts / "bounties-seating.png"), full_page=True)
    expect(projector.locator("#p-bounty")).to_have_text("PKO: bounty €50.00, €175.00 in play")
    projector.screenshot(path=str(artifacts / "bounties-projector.png"))

    page.goto(f"{url}/results/{tid}")
    row = page.locator(f'#results-table tr[data-player="{by_name["Cy"]}"]')
    assert row.locator("td.knocked-out-by").text_content() == "Ann"
    ann = page.locator(f'#results-table tr[data-player="{by_name["Ann"]}"]')
    assert ann.locator("td.bounties").text_content() == "€25.00"
    page.goto(f"{url}/director/{tid}/money/summary")
    assert page.text_content("#sum-bounties") == "€200.00"
    assert page.text_content("#sum-bounties-paid") == "€25.00"
    assert page.text_content("#sum-bounties-in-play") == "€175.00"
    page.screenshot(path=str(artifacts / "bounties-summary.png"), full_page=True)
    page.context.close()
