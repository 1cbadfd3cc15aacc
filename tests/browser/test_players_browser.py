"""What the director sees of a player across events: Ann Berg buys in at the desk on Monday and
busts in third place; on Tuesday the desk suggests her record as her name is typed, and the
buy-in is hers; her history shows both events; a league ranks Monday's and Tuesday's players;
the player list downloads as CSV.  Every page fits at 1366×768 and 390×844, and no text is
drawn over other text (in English and in Indonesian)."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.browser.conftest import Server, director_page
from tests.browser.test_layout import CHECK

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = ((1366, 768), (390, 844))
MONEY = {"buy_in": "100", "fee": "10", "starting_stack": 20000, "late_registration_level": 4,
         "payout_template": "custom", "custom_payouts": "60, 40"}


def call(server: Server, method: str, path: str, body: Any = None) -> Any:
    answer = requests.request(method, f"{server.url}{path}", json=body, timeout=10,
                              headers={"Authorization": f"Bearer {server.token}"})
    assert answer.status_code in (200, 201), (path, answer.text)
    return answer.json()


def event(server: Server, name: str) -> int:
    tid = int(call(server, "POST", "/api/tournaments", {"name": name, "levels": [
        {"kind": "level", "game": "PO", "duration_seconds": 1200, "small_blind": 25,
         "big_blind": 50}]})["id"])
    call(server, "POST", f"/api/tournaments/{tid}/money/settings", MONEY)
    return tid


def fits(page: Any, name: str, artifacts: Path, full: bool = True) -> None:
    """The page is no wider than the window and no text overlaps other text (screenshot kept)."""
    page.wait_for_timeout(150)
    shot = artifacts / "players" / f"{name}.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shot), full_page=full)
    result = page.evaluate(CHECK)
    assert result["width"] <= result["inner"], f"{name} is too wide ({shot}): {result}"
    assert not result["overlaps"], f"text over text on {name} ({shot}): {result['overlaps']}"


def test_a_returning_player_is_found_at_the_desk_and_his_history_and_league_follow(
        chromium: Any, live_server: Server, artifacts: Path) -> None:
    from playwright.sync_api import expect

    server = live_server
    monday, tuesday = event(server, "Monday PLO"), event(server, "Tuesday PLO")
    page = director_page(chromium, server, 1366, 768)
    page.wait_for_url("**/director/**")

    # Monday: Ann Berg buys in at the desk (a new name: a new record), then busts third.
    page.goto(f"{server.url}/director/{monday}/desk")
    page.fill("#desk-name", "Ann Berg")
    page.click("#take-buy-in")
    page.wait_for_selector("text=Buy-in taken: Ann Berg.")
    others = [call(server, "POST", f"/api/tournaments/{monday}/money/entries",
                   {"kind": "buy-in", "name": name})["player_id"] for name in ("Bo Ek", "Cy Lind")]
    seating = call(server, "GET", f"/api/tournaments/{monday}/seating")
    ann = next(p["id"] for p in seating["players"] if p["name"] == "Ann Berg")
    for player_id in (ann, others[1]):          # Ann third, Cy second, Bo wins
        call(server, "POST", f"/api/tournaments/{monday}/seating/eliminate",
             {"player_ids": [player_id]})
    ann_record = call(server, "GET", "/api/players?q=ann")["players"][0]
    assert ann_record["name"] == "Ann Berg" and ann_record["events"] == 1
    call(server, "POST", "/api/players", {"name": "Anna Bergström", "nickname": "Annie"})

    # Tuesday: typing "ann" suggests both records; she picks hers, the buy-in is hers.
    call(server, "POST", f"/api/tournaments/{tuesday}/money/entries",
         {"kind": "buy-in", "name": "Di Falk"})
    page.goto(f"{server.url}/director/{tuesday}/desk")
    page.locator("#desk-name").press_sequentially("ann", delay=40)
    options = page.locator("#desk-suggestions button")
    expect(options).to_have_count(2)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.locator("#desk-name").scroll_into_view_if_needed()
        expect(page.locator("#desk-suggestions")).to_be_visible()
        fits(page, f"desk-suggestions-{width}x{height}", artifacts, full=False)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.locator(f'#desk-suggestions button[data-person="{ann_record["id"]}"]').click()
    expect(page.locator("#desk-name")).to_have_value("Ann Berg")
    expect(page.locator("#desk-returning")).to_have_text("Returning player: Ann Berg")
    assert page.input_value("#desk-person") == str(ann_record["id"])
    page.click("#take-buy-in")
    page.wait_for_selector("text=Buy-in taken: Ann Berg.")
    history = call(server, "GET", f"/api/players/{ann_record['id']}")
    assert [e["name"] for e in history["events"]] == ["Tuesday PLO", "Monday PLO"]

    # Her history, from the header's Players link.
    page.click("#nav-players")
    page.wait_for_selector("#players-table")
    page.click(f'#players-table tr[data-person="{ann_record["id"]}"] a')
    page.wait_for_selector("#history-table")
    rows = page.locator("#history-table tbody tr")
    expect(rows).to_have_count(2)
    assert page.text_content(f'#history-table tr[data-tournament="{monday}"] td.place') == "3"
    assert page.text_content(f'#history-table tr[data-tournament="{tuesday}"] td.place') \
        == "still in"

    # A league over both events, the formula picked on the page.
    page.goto(f"{server.url}/director/players/leagues")
    page.fill("#league-name", "Spring league")
    page.check('#league-formula input[value="top-eight"]')
    page.check(f'#league-events input[value="{monday}"]')
    page.check(f'#league-events input[value="{tuesday}"]')
    page.click("#new-league-form button[type=submit]")
    page.wait_for_selector("#standings-table")
    ranking = page.locator("#standings-table tbody tr")
    expect(ranking).to_have_count(3)                    # Tuesday is not finished: nobody scores
    assert page.locator("#standings-table tbody tr td:nth-child(2)").all_text_contents() == [
        "Bo Ek", "Cy Lind", "Ann Berg"]
    unfinished = page.text_content("#league-unfinished")
    assert "Tuesday PLO" in unfinished and "Monday PLO" not in unfinished
    page.check('#league-formula input[value="linear"]')
    page.click("#league-form button[type=submit]")
    page.wait_for_selector("text=League saved.")
    assert page.locator("#standings-table tbody tr td.points").all_text_contents() == [
        "3", "2", "1"]

    # The CSV export of the whole list.
    page.goto(f"{server.url}/director/players")
    with page.expect_download() as download:
        page.click("#export-link")
    text = Path(download.value.path()).read_bytes().decode("utf-8-sig")
    exported = {row["name"]: row for row in csv.DictReader(io.StringIO(text))}
    assert exported["Ann Berg"]["events"] == "2" and exported["Ann Berg"]["best_place"] == "3"
    assert "Anna Bergström" in exported

    # Every page fits its screen, in English and in Indonesian.
    screens = {"list": "/director/players", "history": f"/director/players/{ann_record['id']}",
               "leagues": "/director/players/leagues"}
    leagues = call(server, "GET", "/api/players/leagues")["leagues"]
    screens["league"] = f"/director/players/leagues/{leagues[0]['id']}"
    for code in ("en", "id"):
        page.goto(f"{server.url}/language/{code}?next=/director/players")
        for name, path in screens.items():
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                page.goto(server.url + path)
                fits(page, f"{name}-{width}x{height}-{code}", artifacts)
    page.context.close()
