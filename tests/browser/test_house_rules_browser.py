"""What the director sees: the House rules page, reached from the tournament page; a
bad raise cap comes back named with nothing saved, then the clock call is set to
60 + 10 seconds and saved, and the API reads it back."""

from __future__ import annotations

import pytest
import requests

from tests.browser.conftest import director_page

pytestmark = [pytest.mark.browser]


def test_RULES_11_1_director_sets_house_clock_60_plus_10_in_the_browser(
        chromium, live_server, artifacts):
    auth = {"Authorization": f"Bearer {live_server.token}"}
    created = requests.post(f"{live_server.url}/api/tournaments", headers=auth, timeout=10, json={
        "name": "House PLO", "levels": [{"kind": "level", "game": "PO", "duration_seconds": 1200,
                                         "small_blind": 25, "big_blind": 50}]})
    assert created.status_code == 201
    tid = created.json()["id"]

    page = director_page(chromium, live_server, 1024, 900)
    page.goto(f"{live_server.url}/director/{tid}")
    page.click("#house-rules-link")
    page.wait_for_selector("h1:has-text('House rules')")
    clock = page.locator("#flag-clock_seconds")
    assert "TDA 29 (2024)" in clock.inner_text() and "TDA default" in clock.inner_text()
    assert clock.locator("input[value='25+5']").is_checked()

    clock.locator("input[value='60+10']").check()
    page.fill("#h-limit_raise_cap", "eleven")
    page.click("#save-house-rules")
    error = page.locator("p.field-error[data-field='limit_raise_cap']")
    assert "must be a whole number" in error.inner_text()
    assert page.locator("#flag-clock_seconds input[value='60+10']").is_checked()  # kept as typed
    rules = requests.get(f"{live_server.url}/api/tournaments/{tid}/house-rules", headers=auth,
                         timeout=10).json()["house_rules"]
    assert rules["clock_seconds"] == "25+5" and rules["limit_raise_cap"] == 3

    page.fill("#h-limit_raise_cap", "4")
    page.click("#save-house-rules")
    page.wait_for_selector("text=House rules saved")
    assert page.locator("#flag-clock_seconds input[value='60+10']").is_checked()
    page.screenshot(path=str(artifacts / "house-rules-1024.png"), full_page=True)
    rules = requests.get(f"{live_server.url}/api/tournaments/{tid}/house-rules", headers=auth,
                         timeout=10).json()["house_rules"]
    assert rules["clock_seconds"] == "60+10" and rules["limit_raise_cap"] == 4
    page.context.close()
