"""What the director sees on the structure editor: "Insert a break here" on any row puts a
break between that level and the next, numbered apart from the levels; saved, the break is
where it was put; an error names the level the way a director counts it ("Level 3: …").
The log of changes then reads the save in words, filtered by kind."""

from __future__ import annotations

import pytest
import requests

from tests.browser.conftest import director_page

pytestmark = [pytest.mark.browser]


def level(small: int, big: int) -> dict[str, object]:
    return {"kind": "level", "game": "PO", "duration_seconds": 1200, "small_blind": small,
            "big_blind": big}


def test_a_break_is_inserted_between_two_levels_and_an_error_names_the_level(
        chromium, live_server, artifacts):
    auth = {"Authorization": f"Bearer {live_server.token}"}
    created = requests.post(f"{live_server.url}/api/tournaments", headers=auth, timeout=10, json={
        "name": "Editor PLO", "levels": [level(25, 50), level(50, 100), level(75, 150),
                                         level(100, 200)]})
    assert created.status_code == 201
    tid = created.json()["id"]
    page = director_page(chromium, live_server, 1366, 900)
    page.goto(f"{live_server.url}/director/{tid}")
    rows = page.locator("#structure-table tbody tr")
    rows.nth(1).locator("[data-row=break]").click()          # between level 2 and level 3
    assert rows.count() == 5
    assert rows.nth(2).locator("select[name=kind]").input_value() == "break"
    numbers = [rows.nth(i).locator(".number").inner_text() for i in range(5)]
    assert numbers == ["1", "2", "Break 1", "3", "4"]
    rows.nth(4).locator("[data-row=break]").click()           # after the last level too
    assert rows.nth(5).locator(".number").inner_text() == "Break 2"
    rows.nth(3).locator("input[name=big_blind]").fill("10")  # level 3: big blind below small
    page.locator("section:has(#structure-form)").screenshot(
        path=str(artifacts / "structure-insert-break.png"))
    page.click("#structure-form button[type=submit]")
    page.wait_for_selector("#structure-errors")
    error = page.locator("#structure-errors li[data-field='levels[3].big_blind']").inner_text()
    assert error == "Level 3: the big blind (10) must be at least the small blind (75)"
    page.locator("section:has(#structure-form)").screenshot(
        path=str(artifacts / "structure-error-level.png"))
    page.locator("#structure-table tbody tr").nth(3).locator("input[name=big_blind]").fill("150")
    page.click("#structure-form button[type=submit]")
    page.wait_for_selector(".flash, .notice, [role=status]", timeout=5000)
    saved = requests.get(f"{live_server.url}/api/tournaments/{tid}/structure", timeout=10).json()
    assert [entry["kind"] for entry in saved["levels"]] == [
        "level", "level", "break", "level", "level", "break"]

    page.goto(f"{live_server.url}/director/log?kind=structure")
    sentences = page.locator("td.sentence").all_inner_texts()
    assert sentences == ["Structure saved: 4 levels, 2 breaks"]
    page.goto(f"{live_server.url}/director/log")
    page.screenshot(path=str(artifacts / "director-log.png"), full_page=True)
