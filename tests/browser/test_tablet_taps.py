"""The dealer tablet tapped as a dealer taps it: fast, twice, with the connection dropping.

Every test goes through the tablet's screen (mouse taps at a button's place, the card
picker, the dialogs); the API is read only to check what the server applied.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Server
from tests.browser.test_dealer_browser import call, deal, hand, setup, tablet, wait_prompt

pytestmark = [pytest.mark.browser]

LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 768, "height": 1024}
PLO = {"game": "PO", "small_blind": 100, "big_blind": 200}
ARMED_MS = 900          # the tablet's buttons act 700 ms after they are drawn; a margin


def seats_with_stacks(server: Server, names: list[str], chips: list[int]) -> dict[str, Any]:
    """A no-limit Omaha table whose players have the stacks given (for side pots)."""
    t = setup(server, names, {"game": "NO", "small_blind": 100, "big_blind": 200})
    state = call(server, "GET", f"/api/tournaments/{t['tournament_id']}/seating")[1]
    players = {p["name"]: p["id"] for p in state["players"]}
    for name, count in zip(names, chips, strict=True):
        status, body = call(server, "POST", f"/api/tournaments/{t['tournament_id']}/seating/chips",
                            {"player_id": players[name], "chips": count})
        assert status == 200, body
    return t


def spot(page: Any, selector: str) -> tuple[float, float]:
    """Where a finger taps a button: the middle of it, once it is drawn and armed."""
    page.wait_for_selector(f"{selector}:not([disabled]):not(.arming)")
    box = page.locator(selector).first.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def actions_in_log(h: dict[str, Any]) -> list[str]:
    return [line["text"] for line in h["log"]
            if re.match(r"Seat \d+ \(.*?\) (calls|checks|bets|raises|folds)", line["text"])]


def second_tap(page: Any, x: float, y: float, gap: int) -> None:
    """The finger's second tap, ``gap`` ms after the page has the first, on whatever
    is then under it.  Timed by the page's own clock: the test's two clicks travel
    through Playwright's driver and the browser process, and on a loaded machine
    the second reached the page more than a second after the first (seen in CI),
    which is no double tap any more."""
    page.evaluate("""([x, y, gap]) => document.addEventListener("click", () => setTimeout(
        () => { const under = document.elementFromPoint(x, y); if (under) { under.click(); } }, gap),
        {capture: true, once: true})""", [x, y, gap])


@pytest.mark.parametrize("viewport", [LANDSCAPE, PORTRAIT], ids=["landscape", "portrait"])
def test_TDA_50_a_double_tap_acts_for_one_player_only(chromium: Any, live_server: Server,
                                                      artifacts: Path, viewport: dict[str, int]) -> None:
    """Two taps 50, 100, 200 and 400 ms apart on Call: one call, by the player it named.
    The next player's Call is drawn at the same place under the finger."""
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"], PLO)
    page = tablet(chromium, live_server, t["code"], viewport=viewport)
    deal(page)
    for gap in (50, 100, 200, 400):
        before = hand(live_server, t["table_id"])
        seat = before["to_act"]
        acting = page.locator("#acting").inner_text()
        assert acting == f"Action of Seat {seat} ({before['to_act_name']})"
        x, y = spot(page, "#controls button.action-call")
        second_tap(page, x, y, gap)
        page.mouse.click(x, y)
        # The first tap is applied (a loaded server may take longer than the gap), then
        # the tablet has drawn the next player's buttons: a second tap that went
        # through would have landed by the time they are armed.
        expect(page.locator("#acting")).not_to_have_text(acting, timeout=10_000)
        page.wait_for_timeout(ARMED_MS)
        after = hand(live_server, t["table_id"])
        assert after["version"] == before["version"] + 1, f"{gap} ms apart: {actions_in_log(after)[:3]}"
        assert after["to_act"] != seat
        assert {s["seat"]: s["bet"] for s in after["seats"]}[seat] == 200
        assert {s["seat"]: s["bet"] for s in after["seats"]}[after["to_act"]] in (0, 100, 200)
        assert actions_in_log(after)[0] == f"Seat {seat} ({before['to_act_name']}) calls"
        assert len(actions_in_log(after)) == len(actions_in_log(before)) + 1
    page.screenshot(path=str(artifacts / f"tablet-double-tap-{viewport['width']}x{viewport['height']}.png"))


def test_TDA_50_a_tap_drawn_for_an_older_state_is_refused(chromium: Any, live_server: Server) -> None:
    """Each tap carries the version its button was drawn for and the seat it names: when
    another tablet moved the hand meanwhile, the tap is refused and nothing is applied."""
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    seen = hand(live_server, t["table_id"])
    x, y = spot(page, "#controls button.action-call")
    # this tablet does not hear of the other tablet's fold: its reads answer the old hand
    page.route(re.compile(r"/events(\?|$)"), lambda route: route.abort())
    page.route("**/hand", lambda route: route.fulfill(status=200, json=seen))
    status, moved = call(live_server, "POST", f"/api/tables/{t['table_id']}/hand/actions",
                         {"seat": seen["to_act"], "action": "fold", "version": seen["version"]})
    assert status == 200, moved
    assert page.locator("#controls button.action-call").first.get_attribute("data-version") == str(seen["version"])
    page.mouse.click(x, y)
    page.wait_for_selector("#error:not([hidden])")
    assert "changed on another tablet" in page.locator("#error").inner_text()
    after = hand(live_server, t["table_id"])
    assert after["version"] == moved["version"]          # the stale tap applied nothing
    assert {s["seat"]: s["status"] for s in after["seats"]}[seen["to_act"]] == "folded"
    assert {s["seat"]: s["bet"] for s in after["seats"]}[seen["to_act"]] == 0


CARDS = iter(["As", "Ks", "Qs", "Js", "Ts", "9s", "8s", "7s", "6s", "5s", "4s", "3s", "2s", "Ah", "Kh", "Qh", "Jh", "Th", "9h", "8h", "7h", "6h", "5h", "4h", "3h", "2h", "Ad", "Kd", "Qd", "Jd", "Td", "9d", "8d", "7d", "6d", "5d", "4d", "3d"])


def pick(page: Any, cards: Any, count: int) -> None:
    for _ in range(count):
        while True:
            card = next(cards)
            button = page.locator(f"#picker .pick[data-card='{card}']")
            if button.count() and button.is_enabled():
                button.click()
                break


def shown(page: Any, server: Server, table_id: int, version: int) -> None:
    """Wait until the server moved past ``version`` and the tablet drew the new state."""
    for _ in range(100):
        now = hand(server, table_id)
        if now["version"] > version:
            break
        page.wait_for_timeout(50)
    page.wait_for_function("v => document.getElementById('dealer').dataset.version === v",
                           arg=f"{now['hand_id']}/{now['version']}")


@pytest.mark.slow
def test_TDA_RP_10_C_stud_with_an_absent_seat_is_dealt_to_the_showdown_from_the_tablet(
        chromium: Any, live_server: Server, artifacts: Path) -> None:
    """The absent seat gets its door card (it counts for the bring-in) and its hand is
    dead; the tablet alone deals the hand through every street to the pots."""
    stud = {"game": "F7S", "ante": 10, "bring_in": 25, "small_bet": 100, "big_bet": 200}
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], stud)
    page = tablet(chromium, live_server, t["code"])
    page.wait_for_selector("#deal-button")
    absent = int(page.locator("#table-view .seat").nth(1).get_attribute("data-seat"))
    page.locator("#table-view .seat").nth(1).click()
    page.click("#deal-button")
    wait_prompt(page, "Deal third street")
    assert [s["status"] for s in hand(live_server, t["table_id"])["seats"] if s["seat"] == absent] == ["dead"]
    cards = iter(["2c", "Kd", "Qh", "Jc", "9c", "8c", "7c", "6c", "5c", "4c", "3c", "Ac", "Kc", "Qc", "Tc", "9d", "8d", "7d", "6d", "5d", "4d", "3d", "2d", "Ad", "Qd", "Jd", "Td", "Ah", "Kh", "Jh", "Th", "9h", "8h", "7h"])
    dealt = hand(live_server, t["table_id"])["version"]
    page.click("#up-cards")
    titles = []
    for _ in range(4):       # every seat's door card, the absent seat's included
        titles.append(page.locator("#picker h2").inner_text())
        pick(page, cards, 1)
    assert any(f"Seat {absent} " in title for title in titles)
    shown(page, live_server, t["table_id"], dealt)
    for _ in range(80):
        h = hand(live_server, t["table_id"])
        if h["finished"]:
            break
        if h["to_act"] is not None:
            page.locator(f"#controls button[data-version='{h['version']}']").filter(
                has_text=re.compile(r"^(Check|Call|Bring in)")).first.click()
        elif h["awaiting"] == "street" and h["street"] == "seventh street":
            page.locator("#controls button.primary").click()
        elif h["awaiting"] == "street":
            page.click("#up-cards")
            live = [s for s in h["seats"] if s["status"] in ("active", "all_in")]
            for _ in live:
                pick(page, cards, 1)
        elif h["awaiting"] == "showdown":
            row = page.locator(".show-row:has(button:text-is('Show'))").first
            row.locator("button:text-is('Show')").click()
            pick(page, cards, 3)
        shown(page, live_server, t["table_id"], h["version"])
    page.wait_for_selector(".award")
    page.screenshot(path=str(artifacts / "tablet-stud-absent-seat.png"))
    done = hand(live_server, t["table_id"])
    assert done["finished"] and not done["misdeal"]
    assert absent not in [a["seat"] for a in done["awards"]]
    total = sum(s["stack"] for s in done["seats"])
    assert total == 4 * 10_000                  # every chip is somewhere
    assert {s["seat"]: s["stack"] for s in done["seats"]}[absent] <= 10_000 - 10


def test_winners_by_hand_are_ranked_and_each_pot_goes_to_a_ranked_player(
        chromium: Any, live_server: Server, artifacts: Path) -> None:
    """Three all-in: main pot and a side pot.  The dealer ranks Ann first and Bo second:
    Ann takes the main pot, Bo the side pot, Cy (not ranked) nothing."""
    t = seats_with_stacks(live_server, ["Ann", "Bo", "Cy"], [2_000, 5_000, 9_000])
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    url = f"/api/tables/{t['table_id']}/hand"
    h = hand(live_server, t["table_id"])
    while h["to_act"] is not None:
        body = {"seat": h["to_act"], "action": "all_in" if h["legal"]["min_to"] else "call",
                "version": h["version"]}
        status, h = call(live_server, "POST", f"{url}/actions", body)
        assert status == 200, h
    while h["awaiting"] == "board":
        status, h = call(live_server, "POST", f"{url}/board", {"cards": None, "version": h["version"]})
        assert status == 200, h
    wait_prompt(page, "Showdown")
    seat = {s["name"]: s["seat"] for s in h["seats"]}
    assert len(h["pots"]) == 2
    # ranking only the short stack leaves the side pot to nobody: refused, nothing applied
    page.click("#award-by-hand")
    page.select_option(f"#award-high-{seat['Ann']}", "1")
    page.click("#award-ok")
    page.wait_for_selector("#error:not([hidden])")
    assert "nobody ranked can win it" in page.locator("#error").inner_text()
    assert hand(live_server, t["table_id"])["finished"] is False
    page.click("#award-by-hand")
    page.select_option(f"#award-high-{seat['Ann']}", "1")
    page.select_option(f"#award-high-{seat['Bo']}", "2")
    page.screenshot(path=str(artifacts / "tablet-award-ranks.png"))
    page.click("#award-ok")
    page.wait_for_selector(".award")
    done = hand(live_server, t["table_id"])
    won = {a["pot"]: a["seat"] for a in done["awards"]}
    assert won == {"Main pot": seat["Ann"], "Side pot 1": seat["Bo"]}
    assert seat["Cy"] not in [a["seat"] for a in done["awards"]]
    lines = {line.split(":")[0]: line for line in page.locator(".award").all_inner_texts()}
    assert f"to seat {seat['Ann']} (Ann)" in lines["Main pot 6,000"]
    assert f"to seat {seat['Bo']} (Bo)" in lines["Side pot 1 6,000"]


def test_TDA_29_calling_the_clock_asks_first_counts_down_and_can_be_cancelled(
        chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    h = hand(live_server, t["table_id"])
    page.click("#clock-button")
    question = page.locator("#rulings h2").inner_text()
    assert question == f"Call the clock on Seat {h['to_act']} ({h['to_act_name']})?"
    page.click("#clock-no")                         # Cancel in the question: nothing called
    page.wait_for_timeout(300)
    assert hand(live_server, t["table_id"])["clock_call"] is None
    page.click("#clock-button")
    page.click("#clock-yes")
    page.wait_for_selector("#clock-left")
    first = int(page.locator("#clock-left").inner_text())
    assert 25 <= first <= 30
    page.wait_for_timeout(1300)
    assert int(page.locator("#clock-left").inner_text()) < first      # it counts down on screen
    called = hand(live_server, t["table_id"])["clock_call"]
    assert called["seat"] == h["to_act"]
    page.click("#clock-cancel", delay=600)          # held past the countdown's tick: one button
    page.wait_for_selector("#clock-call", state="hidden")
    assert hand(live_server, t["table_id"])["clock_call"] is None
    assert any(line["text"] == "Clock cancelled" for line in hand(live_server, t["table_id"])["log"])


def test_a_lost_connection_is_shown_large_and_the_pending_tap_is_sent_once(
        chromium: Any, live_server: Server, artifacts: Path) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    before = hand(live_server, t["table_id"])
    page.wait_for_selector("#controls button.action-call:not(.arming)")
    page.context.set_offline(True)
    x, y = spot(page, "#controls button.action-call")
    page.mouse.click(x, y)
    banner = page.locator("#offline")
    banner.wait_for(state="visible")
    # a poll that failed as the connection dropped may show the banner a moment before
    # the tap is queued: wait for the tap to be named in it
    expect(banner).to_contain_text(
        f"Waiting to send: Seat {before['to_act']} ({before['to_act_name']}): Call 200")
    assert "No connection to the server" in banner.inner_text()
    box = banner.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= LANDSCAPE["height"]
    title_size = page.eval_on_selector("#offline-title", "e => parseFloat(getComputedStyle(e).fontSize)")
    assert title_size >= 24                        # large: read from a step away
    page.mouse.click(x, y)                         # the dealer taps again: still one call
    page.locator("#controls button.action-call").click()       # and Call again, where it is now
    expect(page.locator("#error")).to_have_text(          # and he is told it was not taken
        f"Not taken: Seat {before['to_act']} ({before['to_act_name']}): Call 200 is still waiting "
        "to be sent. Tap again once it is through.")
    page.wait_for_timeout(1500)
    page.screenshot(path=str(artifacts / "tablet-offline.png"))
    page.context.set_offline(False)
    banner.wait_for(state="hidden", timeout=10_000)
    page.wait_for_timeout(ARMED_MS)
    after = hand(live_server, t["table_id"])
    assert after["version"] == before["version"] + 1
    assert actions_in_log(after)[0] == f"Seat {before['to_act']} ({before['to_act_name']}) calls"
    assert len(actions_in_log(after)) == len(actions_in_log(before)) + 1



def test_a_taps_key_comes_from_the_browsers_cryptographic_generator(
        chromium: Any, live_server: Server) -> None:
    """The key that makes a tap sent again count once is drawn from ``crypto``, which
    the browser gives on the room's plain HTTP too: not from ``Math.random``, whose
    next values a player on the Wi-Fi could work out from the keys he sees."""
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    page.evaluate("""() => { const own = crypto.getRandomValues.bind(crypto);
        window.drawn = 0; Math.random = () => 0.5;
        crypto.getRandomValues = (words) => { window.drawn += 1; return own(words); }; }""")
    x, y = spot(page, "#controls button.action-call")
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/hand/actions")) as sent:
        page.mouse.click(x, y)
    key = sent.value.post_data_json["idempotency_key"]
    assert re.fullmatch(r"[0-9a-f]+-[0-9a-f]{32}", key), key
    assert key.split("-")[1] != "80000000" * 4          # not Math.random's (made constant above)
    assert page.evaluate("window.drawn") >= 1
    keys = page.evaluate("() => Array.from({length: 2000}, () => DirectorLive.requestKey())")
    assert len(set(keys)) == 2000


def offline_tap_then_page_gone(page: Any, server: Server,
                               t: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """Call tapped while the server cannot be reached (every send of it fails as on a
    dropped Wi-Fi), then the page unloaded before it got through (the browser puts the
    tab to sleep, or the dealer reloads), and the server reachable again: the hand
    before, and the tablet's address.  Nothing was applied: the page is gone."""
    before = hand(server, t["table_id"])
    address = page.url
    actions = re.compile(r".*/api/tables/\d+/hand/actions$")
    page.route(actions, lambda route: route.abort("internetdisconnected"))
    x, y = spot(page, "#controls button.action-call")
    page.mouse.click(x, y)
    expect(page.locator("#offline")).to_contain_text(
        f"Waiting to send: Seat {before['to_act']} ({before['to_act_name']}): Call 200")
    page.goto("about:blank")
    page.wait_for_timeout(1000)
    page.unroute(actions)
    assert hand(server, t["table_id"])["version"] == before["version"]
    return before, address


def test_a_tap_waiting_for_the_connection_is_sent_once_after_the_page_is_loaded_again(
        chromium: Any, live_server: Server, artifacts: Path) -> None:
    """The dealer taps Call with the Wi-Fi down, then the page is loaded again (his reload,
    or the browser waking a tab it put to sleep) while it is still down.  Once it is back
    and the tablet's page loads, the call is sent with its key: applied once, not lost."""
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    before, address = offline_tap_then_page_gone(page, live_server, t)
    page.goto(address)
    page.wait_for_selector("#controls button")
    page.wait_for_timeout(ARMED_MS)
    after = hand(live_server, t["table_id"])
    assert after["version"] == before["version"] + 1
    assert actions_in_log(after)[0] == f"Seat {before['to_act']} ({before['to_act_name']}) calls"
    assert len(actions_in_log(after)) == len(actions_in_log(before)) + 1
    expect(page.locator("#offline")).to_be_hidden()
    page.reload()                                     # and loaded once more: nothing is sent again
    page.wait_for_selector("#controls button")
    page.wait_for_timeout(ARMED_MS)
    assert hand(live_server, t["table_id"])["version"] == after["version"]
    page.screenshot(path=str(artifacts / "tablet-tap-after-reload.png"))


def test_a_tap_kept_longer_than_ten_minutes_is_not_sent_after_the_page_is_loaded_again(
        chromium: Any, live_server: Server) -> None:
    """A tap kept from long ago (the table has moved on) is let go, not sent."""
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    before, address = offline_tap_then_page_gone(page, live_server, t)
    page.goto(f"{live_server.url}/nothing-here")     # the server's origin, not the tablet
    assert page.evaluate("() => sessionStorage.length") == 1
    page.evaluate("""() => { for (const k of Object.keys(sessionStorage)) {
        const tap = JSON.parse(sessionStorage.getItem(k)); tap.at -= 11 * 60 * 1000;
        sessionStorage.setItem(k, JSON.stringify(tap)); } }""")
    page.goto(address)
    page.wait_for_selector("#controls button")
    page.wait_for_timeout(ARMED_MS + 500)
    assert hand(live_server, t["table_id"])["version"] == before["version"]
    assert page.evaluate("() => sessionStorage.length") == 0


def hand_reads(page: Any) -> list[str]:
    reads: list[str] = []
    page.on("request", lambda r: reads.append(r.url) if r.method == "GET" and r.url.endswith("/hand") else None)
    return reads


def test_the_tablet_is_pushed_its_tables_changes_and_does_not_poll(chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    page.wait_for_timeout(1000)                     # the stream is open
    reads = hand_reads(page)
    page.wait_for_timeout(4000)
    assert reads == []                              # no polling while the stream is open
    h = hand(live_server, t["table_id"])
    status, moved = call(live_server, "POST", f"/api/tables/{t['table_id']}/hand/actions",
                         {"seat": h["to_act"], "action": "call", "version": h["version"]})
    assert status == 200
    page.wait_for_function("s => document.getElementById('prompt').textContent.startsWith('Seat ' + s + ' ')",
                           arg=str(moved["to_act"]), timeout=1200)
    assert len(reads) == 1                          # read once, because it was told


def test_without_the_stream_the_tablet_polls(chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    context = chromium.new_context(viewport=LANDSCAPE)
    context.route(re.compile(r"/events(\?|$)"), lambda route: route.abort())   # the tablet names its table
    page = context.new_page()
    page.goto(f"{live_server.url}/dealer/?table=1&code={t['code']}")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/dealer/table/\d+"))
    deal(page)
    reads = hand_reads(page)
    h = hand(live_server, t["table_id"])
    status, moved = call(live_server, "POST", f"/api/tables/{t['table_id']}/hand/actions",
                         {"seat": h["to_act"], "action": "call", "version": h["version"]})
    assert status == 200
    page.wait_for_function("s => document.getElementById('prompt').textContent.startsWith('Seat ' + s + ' ')",
                           arg=str(moved["to_act"]), timeout=4000)
    page.wait_for_timeout(3200)
    assert len(reads) >= 3                          # every 1.5 s


def test_TDA_35_A_an_exposed_card_is_named_by_seat_and_card_not_by_deal_position(
        chromium: Any, live_server: Server, artifacts: Path) -> None:
    """The dealer picks the seat and which of its cards, and taps the card itself; the
    tablet's ruling names them, and the server works out where it was in the deal."""
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    h = hand(live_server, t["table_id"])
    seat = h["positions"]["button"]               # the button's third card: deep in the deal
    name = {s["seat"]: s["name"] for s in h["seats"]}[seat]
    page.click("#rulings-button")
    page.select_option("#ruling-kind", "exposed_card")
    page.select_option(".exposed-seat", str(seat))
    page.select_option(".exposed-card", "3")
    page.click(".exposed-row .card-grid .pick[data-card='As']")
    page.click("#ruling-preview")
    page.wait_for_selector(".ruling-text")
    page.screenshot(path=str(artifacts / "tablet-exposed-card.png"))
    text = page.locator(".ruling-text").inner_text()
    assert text.startswith(f"Seat {seat} ({name})'s third card (A♠) was exposed. Finish the deal; then seat "
                           f"{seat} ({name}) gets the next card from the stub")
    assert "position" not in text
    # two cards exposed: a misdeal (TDA 35-A item 7)
    page.click("#exposed-more")
    rows = page.locator(".exposed-row")
    rows.nth(1).locator(".exposed-seat").select_option(str(h["to_act"]))
    rows.nth(1).locator(".exposed-card").select_option("2")
    page.click("#ruling-preview")
    page.wait_for_function("() => document.querySelector('.ruling-text').textContent.includes('misdeal')")
    assert page.locator(".ruling-rule").inner_text() == "TDA 35-A item 7"


def test_TDA_RP_10_A_a_stud_exposed_down_card_is_tapped_in_the_picker_without_undoing_the_street(
        chromium: Any, live_server: Server) -> None:
    stud = {"game": "F7S", "ante": 10, "bring_in": 25, "small_bet": 100, "big_bet": 200}
    t = setup(live_server, ["Ann", "Bo", "Cy"], stud)
    page = tablet(chromium, live_server, t["code"])
    page.click("#deal-button")
    wait_prompt(page, "Deal third street")
    dealt = hand(live_server, t["table_id"])["version"]
    page.click("#up-cards")
    for card in ["9d", "Kh", "Qc"]:
        page.click(f"#picker .pick[data-card='{card}']")
    shown(page, live_server, t["table_id"], dealt)
    h = hand(live_server, t["table_id"])
    seat = h["to_act"]
    page.click("#rulings-button")
    page.select_option("#ruling-kind", "stud_exposed_downcards")
    page.select_option(".ruling-fields select[name=seat]", str(seat))
    assert page.locator(".ruling-fields .card-grid .pick[data-card='Kh']").is_disabled()   # another seat's
    page.click(".ruling-fields .card-grid .pick[data-card='Ah']")
    page.click("#ruling-preview")
    page.wait_for_selector(".ruling-text")
    assert page.locator(".ruling-rule").inner_text().startswith("TDA RP-10-A")
    page.click("#ruling-confirm")
    shown(page, live_server, t["table_id"], h["version"])
    after = hand(live_server, t["table_id"])
    assert after["to_act"] == seat and not after["misdeal"]     # the street stands; betting goes on
    assert [s["up_cards"] for s in after["seats"]] == [s["up_cards"] for s in h["seats"]]
