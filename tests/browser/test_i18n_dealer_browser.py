"""The dealer's tablet in Swedish and Indonesian, in a real browser (issues 5 and 8).

A dealer pairs the tablet (it opens in English), picks the language in the
tablet's own switch, deals a hand and reads the buttons, the seat statuses and
the card picker in the language: sv E K D Kn, id As K Q J.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.conftest import Server
from tests.conftest import level
from tests.web.test_i18n_dealer import NAMES, TABLET_ENGLISH, TABLET_ENGLISH_SV
from tests.web.test_i18n_pages import english_left

pytestmark = pytest.mark.browser


def seat_players(server: Server) -> tuple[int, str]:
    """A tournament with four players drawn to one table; its table id and pairing code."""
    auth = {"Authorization": f"Bearer {server.token}"}
    created = requests.post(f"{server.url}/api/tournaments", headers=auth, timeout=10, json={
        "name": "Fredag Omaha", "levels": [level(100, 200)]})
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    assert requests.post(f"{server.url}/api/tournaments/{tid}/money/settings", headers=auth,
                         json={"buy_in": "100", "starting_stack": 10_000},  # entries are buy-ins
                         timeout=10).status_code == 200
    for name in NAMES:
        r = requests.post(f"{server.url}/api/tournaments/{tid}/seating/players", headers=auth,
                          json={"name": name, "chips": 10_000}, timeout=10)
        assert r.status_code == 201, r.text
    assert requests.post(f"{server.url}/api/tournaments/{tid}/seating/draw", headers=auth,
                         timeout=10).status_code == 200
    pairing = requests.get(f"{server.url}/api/tournaments/{tid}/dealer/pairing", headers=auth,
                           timeout=10).json()["tables"][0]
    return int(pairing["table_id"]), str(pairing["code"])


@pytest.mark.parametrize(("language", "name", "words", "letters"), [
    ("sv", "Svenska", {"deal": "Ge", "call": "Syna 200", "folded": "har lagt sig", "seat": "Plats"},
     ["E♠", "K♠", "D♠", "Kn♠", "Kn♥"]),
    ("id", "Bahasa Indonesia", {"deal": "Bagikan", "call": "Call 200", "folded": "sudah fold",
                                "seat": "Kursi"},
     ["As♠", "K♠", "Q♠", "J♠", "J♥"]),
])
def test_a_dealer_reads_the_tablet_in_the_language_with_local_card_letters(
        chromium: Any, live_server: Server, artifacts: Path,
        language: str, name: str, words: dict[str, str], letters: list[str]) -> None:
    table_id, code = seat_players(live_server)
    context = chromium.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{live_server.url}/dealer/?table=1&code={code}")
        page.locator("form.pair-form button").click()
        page.wait_for_selector("#deal-button")
        assert page.locator("#deal-button").inner_text() == "Deal"
        page.get_by_role("link", name=name).click()
        page.wait_for_selector("#deal-button")
        assert page.locator("html").get_attribute("lang") == language
        assert page.locator("#deal-button").inner_text() == words["deal"]
        page.click("#deal-button")
        page.wait_for_selector(".action-fold")
        buttons = page.locator("#controls button").all_inner_texts()
        assert words["call"] in buttons, buttons
        page.locator(".action-fold").click()
        page.wait_for_selector(f".seat-status:text('{words['folded']}')")
        deadline = time.monotonic() + 30
        while page.locator("#board-cards").count() == 0:
            assert time.monotonic() < deadline, "the flop never came to be entered"
            # The button of the player to act (a click during its 700 ms wait does nothing);
            # a timeout: the previous tap's answer moved the screen on to the flop meanwhile.
            with contextlib.suppress(PlaywrightTimeoutError):
                page.locator(".action-call, .action-check").first.click(timeout=2000)
            page.wait_for_timeout(200)
        page.click("#board-cards")
        picker = page.locator("#picker .pick").all_inner_texts()
        assert picker[:4] == letters[:4] and letters[4] in picker, picker[:14]
        page.screenshot(path=str(artifacts / f"dealer-{language}-picker.png"))
        text = page.locator("#dealer").inner_text()
        assert words["seat"] in text
        assert english_left(text, TABLET_ENGLISH_SV if language == "sv" else TABLET_ENGLISH) == [], text
        assert errors == []
    finally:
        context.close()
