"""What a person sees: the director takes 10 buy-ins and 2 rebuys at the registration desk,
each with its seat ticket, while the projector (open in another window, never reloaded)
shows the entries and the prize pool going up live, with the payout ticker."""

from __future__ import annotations

import pytest
import requests

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_desk_takes_10_buy_ins_and_2_rebuys_and_the_clock_prize_pool_follows(
        chromium, live_server, artifacts):
    from playwright.sync_api import expect

    url, auth = live_server.url, {"Authorization": f"Bearer {live_server.token}"}
    created = requests.post(f"{url}/api/tournaments", headers=auth, timeout=10, json={
        "name": "Desk PLO", "levels": [
            {"kind": "level", "game": "PO", "duration_seconds": 1200, "small_blind": 25,
             "big_blind": 50},
            {"kind": "level", "game": "PO", "duration_seconds": 1200, "small_blind": 50,
             "big_blind": 100}]})
    assert created.status_code == 201
    tid = created.json()["id"]
    settings = requests.post(f"{url}/api/tournaments/{tid}/money/settings", headers=auth,
                             timeout=10, json={
                                 "buy_in": "100", "fee": "10", "starting_stack": 20000,
                                 "late_registration_level": 2, "rebuy": True,
                                 "rebuy_price": "100", "rebuy_chips": 20000, "rebuy_until": 2})
    assert settings.status_code == 200, settings.text

    context = chromium.new_context(viewport={"width": 1300, "height": 900})
    projector = context.new_page()
    projector.goto(f"{url}/clock/{tid}")
    projector.wait_for_selector("#p-connection.live")
    assert projector.text_content("#p-prize") == "€0.00"

    page = context.new_page()
    page.goto(f"{url}/login")
    page.fill("input[type=password]", live_server.token)
    page.click("button[type=submit]")
    page.goto(f"{url}/director/{tid}")
    page.click("#desk-link")
    page.wait_for_selector("h1:has-text('Registration desk')")

    names = [f"Player {i:02d}" for i in range(1, 11)]
    for name in names:
        page.fill("#desk-name", name)
        page.click("#take-buy-in")
        page.wait_for_selector(f"text=Buy-in taken: {name}.")
        expect(page.locator("#ticket-name")).to_have_text(name)
    expect(page.locator("#stat-entries")).to_have_text("10")

    for name in names[:2]:
        page.locator(f'tr[data-name="{name}"] button.rebuy').click()
        page.wait_for_selector(f"text=Rebuy taken: {name} (+20,000 chips).")
    # expect waits: the ledger is at the bottom of a page that may still be loading
    expect(page.locator("#stat-pool")).to_have_text("€1,200.00")
    expect(page.locator("#ledger-table tbody tr")).to_have_count(12)
    expect(page.locator('#ledger-table tr[data-kind="rebuy"]')).to_have_count(2)

    # The projector, never reloaded, followed every payment over the live stream.
    expect(projector.locator("#p-prize")).to_have_text("€1,200.00", timeout=5000)
    assert projector.text_content("#p-entries") == "10"
    assert projector.text_content("#p-chips") == "240,000"
    assert projector.text_content("#p-average") == "24,000"
    # 10 entries pay 2 places (65 / 35 %) of €1,200.
    assert projector.locator("#p-payouts li").all_text_contents() == ["1.€780.00", "2.€420.00"]
    assert projector.text_content("#p-late").startswith("Late reg")
    projector.screenshot(path=str(artifacts / "registration_projector.png"))
    page.screenshot(path=str(artifacts / "registration_desk.png"), full_page=True)

    # A refused sale says why and changes nothing.
    page.locator('tr[data-name="Player 01"] input.stack').fill("30000")
    page.locator('tr[data-name="Player 01"] button.rebuy').click()
    page.wait_for_selector("#desk-errors")
    page.wait_for_load_state("load")      # the ledger is further down the page
    assert "A rebuy needs a stack at or below 20,000 chips" in page.text_content("#desk-errors")
    expect(page.locator("#ledger-table tbody tr")).to_have_count(12)
    context.close()
