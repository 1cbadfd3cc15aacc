"""The projector in Swedish, in a real browser (issue 8).

A person opens the clock page in English, picks "Svenska" in the switch and
reads Swedish: "Nivå 1", "Mörkar 1 000/2 000" with Swedish digit grouping (a
no-break space).  Then the director moves the clock on: the page re-renders
from the live stream in JavaScript (Intl.NumberFormat with the page's
language), still in Swedish.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import requests
from playwright.sync_api import expect

from tests.browser.conftest import Server

pytestmark = pytest.mark.browser

GROUP = "[\u00a0\u202f ]"  # a Swedish thousands separator: (narrow) no-break space


def create_event(server: Server) -> int:
    levels = [
        {"kind": "level", "game": "PO", "duration_seconds": 1200, "small_blind": 1000,
         "big_blind": 2000},
        {"kind": "level", "game": "PO", "duration_seconds": 1200, "small_blind": 1500,
         "big_blind": 3000, "ante": 3000, "big_blind_ante": True},
        {"kind": "break", "duration_seconds": 600},
    ]
    response = requests.post(f"{server.url}/api/tournaments", timeout=10,
                             json={"name": "Fredag Omaha", "levels": levels},
                             headers={"Authorization": f"Bearer {server.token}"})
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def test_clock_switches_to_swedish_blinds_and_numbers(chromium: object, live_server: Server,
                                                      artifacts: Path) -> None:
    event = create_event(live_server)
    context = chromium.new_context(locale="en-US")  # type: ignore[attr-defined]
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/clock/{event}")
        assert page.locator("#p-level-number").inner_text() == "Level 1"
        assert page.locator("#p-stakes").text_content() == "Blinds 1,000/2,000"

        page.get_by_role("link", name="Svenska").click()
        page.wait_for_url(re.compile(rf"/clock/{event}$"))
        assert page.locator("html").get_attribute("lang") == "sv"
        assert page.locator("#p-level-number").inner_text() == "Nivå 1"
        stakes = page.locator("#p-stakes").text_content()
        assert re.fullmatch(rf"Mörkar 1{GROUP}000/2{GROUP}000", stakes), stakes
        assert page.get_by_text("Nästa nivå").is_visible()
        assert page.get_by_text("Inte startad").is_visible()
        assert page.locator("#p-next").inner_text() == "Nivå 2 · Pot limit-Omaha"
        next_stakes = page.locator("#p-next-stakes").inner_text()
        assert re.fullmatch(rf"Mörkar 1{GROUP}500/3{GROUP}000 · BB-ante 3{GROUP}000",
                            next_stakes), next_stakes

        # The director starts the clock and moves to level 2: the screen re-renders from the
        # live stream in JavaScript, still Swedish, still Swedish numbers.
        auth = {"Authorization": f"Bearer {live_server.token}"}
        for control in ("start", "next"):
            response = requests.post(f"{live_server.url}/api/tournaments/{event}/clock/{control}",
                                     headers=auth, timeout=10)
            assert response.status_code == 200, response.text
        expect(page.locator("#p-level-number")).to_have_text("Nivå 2", timeout=10000)
        stakes = page.locator("#p-stakes").text_content()
        assert re.fullmatch(rf"Mörkar 1{GROUP}500/3{GROUP}000 · BB-ante 3{GROUP}000",
                            stakes), stakes
        assert page.locator("#p-next").inner_text() == "Paus"
        assert page.locator("#p-game").inner_text() == "Pot limit-Omaha"
        assert page.locator("#p-status").inner_text() == ""
        page.screenshot(path=str(artifacts / "projector-swedish.png"))
        # a card picker on this page shows the Swedish letters
        assert page.evaluate("[DirectorLive.i18n.card('Jh'), DirectorLive.i18n.card('As'),"
                             " DirectorLive.i18n.ranks().slice(0, 4).map(r => r[1]).join(' ')]") == [
            "Kn♥", "E♠", "E K D Kn"]

        # Indonesian: dots for thousands, blinds as Indonesian dealers say them.
        page.get_by_role("link", name="Bahasa Indonesia").click()
        expect(page.locator("html")).to_have_attribute("lang", "id", timeout=10000)
        page.wait_for_load_state("load")    # the page's scripts too, before DirectorLive is read
        assert page.locator("#p-level-number").inner_text() == "Level 2"
        assert page.locator("#p-stakes").text_content() == (
            "Blind 1.500/3.000 · Ante big blind 3.000")
        assert page.locator("#p-next").inner_text() == "Istirahat"
        assert page.evaluate("DirectorLive.i18n.card('As')") == "As♠"
    finally:
        context.close()
