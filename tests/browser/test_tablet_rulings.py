"""The tablet's rulings panel in a real browser (issue 13, item 10): a ruling shows the
rule a floor person knows (a TDA rule) and its amounts with the locale's thousands
separator, in English and in Swedish."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server
from tests.browser.test_dealer_browser import hand, setup, tablet

pytestmark = [pytest.mark.browser]

NO_LIMIT = {"game": "NO", "small_blind": 1000, "big_blind": 2000}


@pytest.mark.parametrize(("language", "amounts"), [
    ("en", ("3,000", "1,000", "2,000", "4,000")),
    ("sv", ("3\u00a0000", "1\u00a0000", "2\u00a0000", "4\u00a0000")),
])
def test_TDA_43_A_chips_pushed_silently_cites_TDA_and_groups_the_amounts(
        chromium: Any, live_server: Server, artifacts: Path, language: str,
        amounts: tuple[str, ...]) -> None:
    """Blinds 1,000/2,000: the player to act pushes 3,000 without a word, a raise of 1,000,
    half of the 2,000 needed: he must make it a full raise to 4,000 (TDA 43-A)."""
    t, page = idle_tablet(chromium, live_server, language)
    page.click("#deal-button")
    # the tablet shows the hand dealt (its Deal button was a "#controls button" too)
    page.wait_for_selector("#dealer[data-version]")
    to_act = _to_act(live_server, t["table_id"])
    page.click("#rulings-button")
    page.select_option("#ruling-kind", "silent_push")
    page.select_option("#rulings select[name=seat]", str(to_act))
    page.fill("#rulings input[name=pushed]", "3000")
    page.click("#ruling-preview")
    page.wait_for_selector("#ruling-result .ruling-text")
    rule = page.locator("#ruling-result .ruling-rule").inner_text()
    text = page.locator("#ruling-result .ruling-text").inner_text()
    page.screenshot(path=str(artifacts / f"tablet_ruling_citation_{language}.png"))
    assert rule.startswith("TDA") and rule == "TDA 43-A"
    for shown in (rule, text):
        assert "RULES.md" not in shown and "§" not in shown and "RRP" not in shown
    for amount in amounts:
        assert amount in text, (amount, text)
    assert "3000" not in text and "4000" not in text


def _to_act(server: Server, table_id: int) -> int:
    """The seat to act once the deal is in (the prompt says so in the tablet's language)."""
    for _ in range(50):
        dealt = hand(server, table_id)
        if dealt.get("to_act"):
            return int(dealt["to_act"])
        time.sleep(0.1)
    raise AssertionError("the hand was not dealt")


@pytest.mark.parametrize(("language", "said"), [
    ("en", "No hand is in play"), ("sv", "Ingen hand spelas"), ("id", "Tidak ada tangan"),
])
def test_rulings_tapped_between_hands_says_why_nothing_opens(
        chromium: Any, live_server: Server, artifacts: Path, language: str, said: str) -> None:
    """A ruling is given on the hand being played: tapped before the deal, the Rulings
    button says so in the tablet's language, where it used to do nothing at all."""
    _t, page = idle_tablet(chromium, live_server, language)
    page.click("#rulings-button")
    error = page.locator("#error")
    error.wait_for(state="visible")
    assert error.inner_text().startswith(said)
    assert page.locator("#rulings[open]").count() == 0
    box, viewport = error.bounding_box(), page.viewport_size
    assert box is not None and viewport is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]   # on the screen
    page.screenshot(path=str(artifacts / f"tablet_rulings_between_hands_{language}.png"))
    page.click("#deal-button")                    # the hand dealt: Rulings opens its form
    page.wait_for_selector("#dealer[data-version]")
    error.wait_for(state="hidden")                # and the sentence is gone
    page.click("#rulings-button")
    page.wait_for_selector("#rulings[open] #ruling-kind")


def idle_tablet(chromium: Any, live_server: Server, language: str) -> tuple[dict[str, Any], Any]:
    """A no-limit table of four (blinds 1,000/2,000) and its tablet in ``language``, before
    its first deal."""
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], NO_LIMIT)
    page = tablet(chromium, live_server, t["code"])
    if language != "en":
        page.click(f".language-switch a[hreflang={language}]")
        page.wait_for_selector(f'html[lang="{language}"]')
    page.wait_for_selector("#deal-button")
    return t, page
