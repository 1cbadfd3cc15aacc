"""What a person sees: the director logs in, builds a tournament of 2-second
levels in the structure table, starts it, and the projector (opened before
the start) counts down and shows the next level's blinds after the change."""

from __future__ import annotations

import itertools
import re
import time

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_director_starts_a_two_second_clock_and_the_projector_follows(
        chromium, live_server, artifacts):
    context = chromium.new_context(viewport={"width": 1400, "height": 900})
    director = context.new_page()

    # 1. log in as the director
    director.goto(f"{live_server.url}/director/")
    assert "/login" in director.url
    director.fill("#token", live_server.token)
    director.click("button[type=submit]")
    director.wait_for_url("**/director/")

    # 2. create a tournament with 2-second levels, from scratch, in the table
    director.click("text=New tournament >> nth=-1")
    director.fill("#name", "Browser PLO")
    director.check("input[value=scratch]")
    director.click("button:has-text('Create')")
    director.wait_for_selector("#structure-table")
    director.wait_for_load_state("load")    # director.js listens to "Add level" once loaded
    rows = director.locator("#structure-table tbody tr")
    assert rows.count() == 1
    for count in (2, 3):
        director.click("#add-level")
        expect(rows).to_have_count(count)
    for index, (duration, small, big) in enumerate([("0:02", "100", "200"),
                                                     ("0:02", "200", "400"),
                                                     ("1:00", "300", "600")]):
        row = rows.nth(index)
        row.locator("input[name=duration]").fill(duration)
        row.locator("input[name=small_blind]").fill(small)
        row.locator("input[name=big_blind]").fill(big)
    assert [rows.nth(i).locator(".starts").inner_text() for i in range(3)] == \
        ["0:00", "0:02", "0:04"]
    director.click("button:has-text('Save structure')")
    director.wait_for_selector("text=Structure saved.")
    assert director.locator("#panel-level").inner_text() == "Blinds 100/200"

    # the projector is open before the clock starts
    projector = context.new_page()
    projector.set_viewport_size({"width": 1600, "height": 900})
    projector.goto(director.url.replace("/director/", "/clock/"))
    # (the strict CSP forbids string evaluation, so wait through locators)
    expect(projector.locator("#p-connection")).to_have_class(re.compile(r"\blive\b"))
    assert projector.locator("#p-stakes").inner_text() == "Blinds 100/200"
    # the next level names its game, its stakes below it
    assert projector.locator("#p-next").inner_text() == "Level 2 · Pot-limit Omaha"
    assert projector.locator("#p-next-stakes").inner_text() == "Blinds 200/400"

    # 3. start it
    director.click("#btn-start")
    expect(director.locator("#btn-pause")).to_be_visible(timeout=15_000)  # the server started it

    # 4. the projector counts down, then shows the next level's blinds
    samples: list[tuple[str, str, str]] = []
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        samples.append((projector.locator("#p-level-number").inner_text(),
                        projector.locator("#p-time").inner_text(),
                        projector.locator("#p-stakes").inner_text()))
        if samples[-1][2] == "Blinds 200/400" and samples[-1][1] in ("0:01", "0:02"):
            break
        time.sleep(0.1)
    # What the projector showed, each sample once with how many times in a row
    seen = [f"{n}x {sample}" for sample, n in
            ((k, len(list(g))) for k, g in itertools.groupby(samples))]
    level_one_times = [t for level, t, stakes in samples if stakes == "Blinds 100/200"]
    assert "0:01" in level_one_times, seen  # it counted down during level 1
    assert level_one_times == sorted(level_one_times, reverse=True), seen
    assert samples[-1][2] == "Blinds 200/400", seen
    # (the three texts of a sample are read one after another: the level's number may
    # have been read just before the screen changed; it follows at once)
    expect(projector.locator("#p-level-number")).to_have_text("Level 2", timeout=2_000)
    assert projector.locator("#p-next").inner_text() == "Level 3 · Pot-limit Omaha"
    assert projector.locator("#p-next-stakes").inner_text() == "Blinds 300/600"
    assert projector.locator("#screen").get_attribute("data-last-tone") == "level"

    # the director's panel followed as well
    expect(director.locator("#panel-level")).to_have_text("Blinds 200/400")
    # 5. a screenshot of what the room sees
    projector.screenshot(path=str(artifacts / "projector-level-2.png"))
    director.screenshot(path=str(artifacts / "director-running.png"), full_page=True)
    context.close()


def test_projector_upright_on_a_phone_shows_the_clock(chromium, live_server, artifacts):
    import requests

    created = requests.post(f"{live_server.url}/api/tournaments", timeout=5,
                            headers={"Authorization": f"Bearer {live_server.token}"},
                            json={"name": "Phone", "levels": [
                                {"game": "PO", "duration_seconds": 1200, "small_blind": 25,
                                 "big_blind": 50},
                                {"kind": "break", "duration_seconds": 600, "note": "remove T25"}]})
    tournament_id = created.json()["id"]
    phone = chromium.new_page(viewport={"width": 390, "height": 844})
    phone.goto(f"{live_server.url}/clock/{tournament_id}")
    assert phone.locator("#p-time").inner_text() == "20:00"
    assert phone.locator("#p-status").inner_text().lower() == "not started"
    box = phone.locator("#p-time").bounding_box()
    assert box is not None and box["width"] <= 390  # the digits fit the upright screen
    director = {"Authorization": f"Bearer {live_server.token}"}
    clock_url = f"{live_server.url}/api/tournaments/{tournament_id}/clock"
    # one minute left: the warning tone
    requests.post(f"{clock_url}/start", headers=director, timeout=5)
    requests.post(f"{clock_url}/adjust", json={"seconds": -1139}, headers=director, timeout=5)
    expect(phone.locator("#screen")).to_have_attribute("data-last-tone", "minute", timeout=4000)
    assert phone.locator("#p-time").inner_text() in ("1:01", "1:00", "0:59")
    # the break screen is distinct, with its own tone
    requests.post(f"{clock_url}/next", headers=director, timeout=5)
    expect(phone.locator("body")).to_have_class(re.compile(r"\bon-break\b"), timeout=3000)
    assert phone.locator("#screen").get_attribute("data-last-tone") == "break"
    assert phone.locator("#p-level-number").inner_text() == "Break"
    # a break note about chips is a colour-up: the server sends it as a banner
    expect(phone.locator(".p-banner-colour-up")).to_have_text("Colour-up: remove T25")
    phone.screenshot(path=str(artifacts / "phone-break.png"))
    phone.close()


def test_the_projector_reconnects_after_a_server_restart(chromium, restartable_server, tmp_path):
    import requests

    from tests.browser.conftest import restart

    server = restartable_server[0]
    director = {"Authorization": f"Bearer {server.token}"}
    tournament_id = requests.post(f"{server.url}/api/tournaments", headers=director, timeout=5,
                                  json={"name": "Restart", "levels": [
                                      {"game": "PO", "duration_seconds": 600, "small_blind": 25,
                                       "big_blind": 50},
                                      {"game": "PO", "duration_seconds": 600, "small_blind": 50,
                                       "big_blind": 100}]}).json()["id"]
    requests.post(f"{server.url}/api/tournaments/{tournament_id}/clock/start", headers=director,
                  timeout=5)
    page = chromium.new_page(viewport={"width": 1280, "height": 720})
    page.goto(f"{server.url}/clock/{tournament_id}")
    expect(page.locator("#p-connection")).to_have_class(re.compile(r"\blive\b"))
    server = restart(restartable_server, tmp_path)  # the screen loses its stream
    requests.post(f"{server.url}/api/tournaments/{tournament_id}/clock/next", headers=director,
                  timeout=5)
    expect(page.locator("#p-stakes")).to_have_text("Blinds 50/100", timeout=10000)
    assert page.locator("#p-level-number").inner_text() == "Level 2"
    page.close()


def test_time_given_back_to_a_paused_first_level_the_projector_says_paused(
        chromium, live_server, artifacts):
    """The director starts the first level, pauses it and gives the minute back
    (+1 min): the projector says the clock is paused, not that the event has not
    started, and the director's page offers Resume, not Start.  (An event nobody has
    registered for yet: its field's figures are a dash, not left blank.)"""
    import requests

    from tests.browser.conftest import director_page
    from tests.browser.test_layout import CHECK

    auth = {"Authorization": f"Bearer {live_server.token}"}
    tournament_id = requests.post(f"{live_server.url}/api/tournaments", headers=auth, timeout=5,
                                  json={"name": "Given back", "levels": [
                                      {"game": "PO", "duration_seconds": 600, "small_blind": 25,
                                       "big_blind": 50}]}).json()["id"]
    director = director_page(chromium, live_server, 1366, 768)
    director.goto(f"{live_server.url}/director/{tournament_id}")
    projector = chromium.new_page(viewport={"width": 1920, "height": 1080})
    projector.goto(f"{live_server.url}/clock/{tournament_id}")
    expect(projector.locator("#p-connection")).to_have_class(re.compile(r"\blive\b"))
    expect(projector.locator("#p-status")).to_have_text("Not started")
    # nobody registered yet: the field's figures are a dash, as the next break is
    for figure in ("#p-players", "#p-average", "#p-entries", "#p-chips"):
        expect(projector.locator(figure)).to_have_text("—")
    director.click("#btn-start")
    expect(director.locator("#btn-pause")).to_be_visible(timeout=15_000)
    director.click("#btn-pause")
    expect(director.locator("#btn-resume")).to_be_visible(timeout=15_000)
    director.click("button[data-adjust='60']")
    expect(projector.locator("#p-time")).to_have_text(re.compile(r"^10:5\d$|^11:00$"),
                                                     timeout=15_000)
    expect(projector.locator("#p-status")).to_have_text("Paused")
    expect(director.locator("#panel-status")).to_have_text("paused")
    expect(director.locator("#btn-resume")).to_be_visible()
    expect(director.locator("#btn-start")).to_be_hidden()
    director.reload()                                       # the page as the server renders it
    expect(director.locator("#btn-resume")).to_be_visible()
    projector.screenshot(path=str(artifacts / "projector-time-given-back.png"))
    # The time's digits are drawn inside its box (line-height 1: the em box); the text
    # rect the layout check measures is the font's whole content area, which reaches
    # into the line below where digits draw nothing.  So the time is checked by its box,
    # and everything else by the layout check.
    time_text = projector.locator("#p-time").inner_text()
    status, clock = projector.locator("#p-status").bounding_box(), \
        projector.locator("#p-time").bounding_box()
    assert status and clock and status["y"] >= clock["y"] + clock["height"] - 1   # below the time
    assert status["x"] >= 0 and status["x"] + status["width"] <= 1920
    shown = projector.evaluate(CHECK)
    others = [pair for pair in shown["overlaps"] if time_text not in pair]
    assert not others and shown["width"] <= shown["inner"], shown
