"""The tablet, round two (issue 31), in a real browser: what the dealer sees and taps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from director.services.dealer import utc as dealer_utc
from tests.browser.conftest import Server
from tests.browser.test_dealer_browser import call, hand, setup, tablet, wait_prompt
from tests.browser.test_tablet_hand_view import action_labels, stud_to_fourth
from tests.browser.test_tablet_taps import shown

pytestmark = [pytest.mark.browser, pytest.mark.slow]

STUD = {"game": "F7S", "ante": 10, "bring_in": 25, "small_bet": 100, "big_bet": 200}
HOLDEM = {"game": "NO", "small_blind": 100, "big_blind": 200}


def api(server: Server, table_id: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    status, answer = call(server, "POST", f"/api/tables/{table_id}/hand{path}",
                          {**body, "version": hand(server, table_id)["version"]})
    assert status == 200, answer
    return dict(answer)


def test_TDA_RP_10_A_an_exposed_down_card_ruled_first_is_his_up_card_and_the_picker_skips_him(
        chromium: Any, live_server: Server, artifacts: Path) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy"], STUD)
    page = tablet(chromium, live_server, t["code"])
    page.click("#deal-button")
    wait_prompt(page, "Deal third street")
    seats = sorted(s["seat"] for s in hand(live_server, t["table_id"])["seats"])
    exposed = seats[1]
    dealt = hand(live_server, t["table_id"])["version"]
    page.click("#rulings-button")
    page.select_option("#ruling-kind", "stud_exposed_downcards")
    page.select_option(".ruling-fields select[name=seat]", str(exposed))
    page.click(".ruling-fields .card-grid .pick[data-card='2c']")
    page.click("#ruling-preview")
    page.wait_for_selector(".ruling-text")
    page.click("#ruling-confirm")
    shown(page, live_server, t["table_id"], dealt)
    ruled = hand(live_server, t["table_id"])["version"]
    page.click("#up-cards")
    titles = []
    for card in ["9d", "Kh"]:
        titles.append(page.locator("#picker h2").inner_text())
        assert page.locator("#picker .pick[data-card='2c']").is_disabled()      # on the table
        page.click(f"#picker .pick[data-card='{card}']")
    page.wait_for_function("() => document.getElementById('picker').hidden")
    shown(page, live_server, t["table_id"], ruled)   # the up-cards sent (a closed picker is not yet)
    after = hand(live_server, t["table_id"])
    assert not any(f"Seat {exposed} " in title for title in titles), titles
    assert [s["up_cards"] for s in after["seats"]] == [["9d"], ["2c"], ["Kh"]]
    assert after["to_act"] == exposed                                 # the 2♣ brings in
    page.screenshot(path=str(artifacts / "tablet-stud-exposed-first.png"))


def test_TDA_RP_10_A_an_exposed_down_card_entered_as_his_up_card_can_still_be_ruled(
        chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy"], STUD)
    page = tablet(chromium, live_server, t["code"])
    page.click("#deal-button")
    wait_prompt(page, "Deal third street")
    seats = sorted(s["seat"] for s in hand(live_server, t["table_id"])["seats"])
    dealt = hand(live_server, t["table_id"])["version"]
    page.click("#up-cards")
    for card in ["9d", "2c", "Kh"]:
        page.click(f"#picker .pick[data-card='{card}']")
    shown(page, live_server, t["table_id"], dealt)
    before = hand(live_server, t["table_id"])
    page.click("#rulings-button")
    page.select_option("#ruling-kind", "stud_exposed_downcards")
    page.select_option(".ruling-fields select[name=seat]", str(seats[1]))
    page.wait_for_function("() => !document.querySelector(\".ruling-fields .pick[data-card='2c']\").disabled")
    assert page.locator(".ruling-fields .card-grid .pick[data-card='Kh']").is_disabled()  # another seat's
    page.click(".ruling-fields .card-grid .pick[data-card='2c']")
    page.click("#ruling-preview")
    page.wait_for_selector(".ruling-text")
    assert page.locator(".ruling-rule").inner_text().startswith("TDA RP-10-A")
    page.click("#ruling-confirm")
    shown(page, live_server, t["table_id"], before["version"])
    after = hand(live_server, t["table_id"])
    assert after["to_act"] == before["to_act"] and not after["misdeal"]
    assert any("Ruling" in line["text"] for line in after["log"])


def test_fixed_limit_stud_with_an_open_pair_offers_no_free_amount(
        chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy"], STUD)
    status, body = call(live_server, "POST", f"/api/tournaments/{t['tournament_id']}/house-rules",
                        {"stud_4th_street_double": True})
    assert status == 200, body
    page = tablet(chromium, live_server, t["code"])
    stud_to_fourth(live_server, page, t, ["2c", "Qs", "9h"], ["3d", "Qd", "Js"])
    assert action_labels(page) == ["Check", "Bet 100", "Bet 200 (open pair)", "Fold"]
    assert page.locator("#amount-button").count() == 0


def test_TDA_29_a_hand_killed_by_the_clock_reads_dead_hand_not_folded(
        chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy"], HOLDEM)
    page = tablet(chromium, live_server, t["code"])
    page.click("#deal-button")
    wait_prompt(page, "to act")
    first = hand(live_server, t["table_id"])
    api(live_server, t["table_id"], "/actions", {"seat": first["to_act"], "action": "raise", "amount": 600})
    killed = hand(live_server, t["table_id"])["to_act"]
    api(live_server, t["table_id"], "/rulings", {"ruling": "absent_player", "seat": killed, "back": None,
                                                 "confirm": True})
    page.wait_for_selector(f".seat.dead[data-seat='{killed}']")
    status = page.locator(f".seat[data-seat='{killed}'] .seat-status").inner_text()
    assert status.lower() == "dead hand"


def test_TDA_34_a_dead_button_is_drawn_in_its_empty_seat(chromium: Any, live_server: Server,
                                                          artifacts: Path) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], HOLDEM)
    page = tablet(chromium, live_server, t["code"])
    page.click("#deal-button")
    wait_prompt(page, "to act")
    first = hand(live_server, t["table_id"])
    small_blind = first["positions"]["small_blind"]
    out = next(s for s in first["seats"] if s["seat"] == small_blind)
    while not hand(live_server, t["table_id"])["finished"]:
        now = hand(live_server, t["table_id"])
        api(live_server, t["table_id"], "/actions", {"seat": now["to_act"], "action": "fold"})
    # the small blind is knocked out: the big blind moves on, the button goes to his empty seat
    status, body = call(live_server, "POST", f"/api/tournaments/{t['tournament_id']}/seating/eliminate",
                        {"player_id": out["player_id"]})
    assert status == 200, body
    upcoming = call(live_server, "GET", f"/api/tables/{t['table_id']}/next")[1]
    button = upcoming["positions"]["button"]
    assert button not in [s["seat"] for s in upcoming["seats"]]
    page.click("#next-hand")
    page.wait_for_selector("#dead-button")
    assert page.locator("#dead-button").get_attribute("data-seat") == str(button)
    page.screenshot(path=str(artifacts / "tablet-dead-button-idle.png"))
    page.click("#deal-button")
    wait_prompt(page, "to act")
    assert page.locator("#dead-button .button-mark").is_visible()
    page.screenshot(path=str(artifacts / "tablet-dead-button.png"))


SIZES = [(1024, 768), (1280, 800), (768, 1024)]


def _on_screen(page: Any, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    view = page.viewport_size
    assert box is not None, selector
    assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= view["width"] + 1, (selector, box, view)
    assert box["y"] + box["height"] <= view["height"] + 1, (selector, box, view)


@pytest.mark.parametrize("language", ["en", "id", "sv"])
def test_after_a_showdown_with_several_pots_deal_next_and_undo_are_above_the_fold(
        chromium: Any, live_server: Server, artifacts: Path, language: str) -> None:
    from tests.browser.test_tablet_taps import seats_with_stacks
    names = ["Annabelle", "Bartholomew", "Cyrille", "Dominique", "Evangeline", "Fitzgerald"]
    t = seats_with_stacks(live_server, names, [1000, 2500, 4000, 6000, 10_000, 10_000])
    page = tablet(chromium, live_server, t["code"], viewport={"width": 1024, "height": 768})
    if language != "en":
        page.click(f".language-switch a[hreflang={language}]")
        page.wait_for_selector(f'html[lang="{language}"]')
        page.wait_for_selector("#deal-button")
    page.click("#deal-button")
    page.wait_for_selector("#controls .action-fold")
    h = hand(live_server, t["table_id"])
    while h["to_act"] is not None:
        kind = "all_in" if h["legal"]["all_in_to"] is not None else "call"
        h = api(live_server, t["table_id"], "/actions", {"seat": h["to_act"], "action": kind})
    boards = [["2c", "3d", "8h"], ["Kc"], ["Ks"]]
    while h["awaiting"] == "board":
        h = api(live_server, t["table_id"], "/board", {"cards": boards.pop(0)})
    hands = iter(["Kd7s9c9d", "As4cQdQh", "Ah4dJcJd", "5c6c7c8c", "TsTdJsJh", "2s3s4h5h"])
    for seat in h["showdown_order"]:
        h = api(live_server, t["table_id"], "/show", {"seat": seat, "cards": next(hands)})
    assert h["finished"] and len(h["pots"]) >= 3, h["pots"]
    page.wait_for_selector("#next-hand")
    page.wait_for_function("() => !document.getElementById('undo-button').disabled")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        page.screenshot(path=str(artifacts / f"tablet-multi-pot-{language}-{width}x{height}.png"))
        for selector in ("#next-hand", "#undo-button"):
            _on_screen(page, selector)


def test_TDA_50_a_second_tap_as_the_screen_changes_is_not_taken_and_the_dealer_is_told(
        chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], {"game": "PO", "small_blind": 100, "big_blind": 200})
    page = tablet(chromium, live_server, t["code"])
    page.click("#deal-button")
    page.wait_for_selector("#controls button.action-call:not([disabled])")
    before = hand(live_server, t["table_id"])
    box = page.locator("#controls button.action-call").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.click(x, y)
    page.wait_for_function("v => document.getElementById('dealer').dataset.version.endsWith('/' + v)",
                           arg=str(before["version"] + 1))
    page.mouse.click(x, y)                     # the next player's Call, drawn under the finger
    page.wait_for_selector("#error:not([hidden])")
    assert page.locator("#error").inner_text().startswith("Not taken: that tap came as the screen changed")
    page.wait_for_timeout(900)
    assert hand(live_server, t["table_id"])["version"] == before["version"] + 1     # one call only


@pytest.mark.parametrize(("language", "size"), [("en", (1024, 768)), ("sv", (768, 1024)), ("id", (1280, 800))])
def test_the_shot_clock_is_shown_large_warns_at_10_seconds_and_takes_a_time_bank_card(
        chromium: Any, live_server: Server, artifacts: Path, language: str, size: tuple[int, int]) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], {"game": "PO", "small_blind": 100, "big_blind": 200})
    status, body = call(live_server, "POST", f"/api/tournaments/{t['tournament_id']}/house-rules",
                        {"shot_clock": "30", "time_bank_cards": "2"})
    assert status == 200, body
    page = tablet(chromium, live_server, t["code"], viewport={"width": size[0], "height": size[1]})
    if language != "en":
        page.click(f".language-switch a[hreflang={language}]")
        page.wait_for_selector(f'html[lang="{language}"]')
        page.wait_for_selector("#deal-button")
    page.clock.install()
    page.click("#deal-button")
    page.wait_for_selector("#shot-clock:not([hidden])")
    dealt = hand(live_server, t["table_id"])
    assert page.locator("#shot-clock .shot-seat").inner_text().endswith(str(dealt["to_act"]))
    left = int(page.locator("#shot-left").inner_text())
    assert 28 <= left <= 30
    # read in one go: the countdown redraws its box every second (a handle found a moment
    # before could be a detached element, whose font size reads NaN)
    size_px = page.evaluate(
        "() => parseFloat(getComputedStyle(document.getElementById('shot-left')).fontSize)")
    assert size_px >= 48                                  # read from across the table
    page.clock.run_for(21_000)                            # 21 s later: the warning
    page.wait_for_selector("#shot-clock.warn")
    page.screenshot(path=str(artifacts / f"tablet-shot-clock-warn-{language}-{size[0]}x{size[1]}.png"))
    box = page.locator("#shot-clock").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size[0]
    # a dealer's tap, held longer than the countdown's tick: press and lift on one button
    page.locator("#time-bank").click(delay=600)
    page.wait_for_function("() => document.getElementById('shot-left') && "
                           "Number(document.getElementById('shot-left').textContent) > 30")
    after = hand(live_server, t["table_id"])["shot_clock"]
    assert after["cards_left"] == 1 and after["seat"] == dealt["to_act"]


def test_TDA_53_a_tablet_that_did_not_rule_it_shows_the_reminder_when_the_action_reaches_the_seat(
        chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], {"game": "PO", "small_blind": 100, "big_blind": 200})
    page = tablet(chromium, live_server, t["code"])
    page.click("#deal-button")
    wait_prompt(page, "to act")
    first = hand(live_server, t["table_id"])
    seats = sorted(s["seat"] for s in first["seats"])
    a = first["to_act"]
    b = seats[(seats.index(a) + 1) % len(seats)]
    # ruled on another screen (the floor's, or a second tablet)
    api(live_server, t["table_id"], "/rulings", {"ruling": "action_out_of_turn", "seat": b, "action": "raise",
                                                 "amount": 800, "bet_when_acted": 200, "confirm": True})
    api(live_server, t["table_id"], "/actions", {"seat": a, "action": "call"})
    reminder = page.locator("#oot-reminder")
    reminder.wait_for(state="visible")
    assert reminder.inner_text().startswith(f"Seat {b} acted out of turn: raise 800.")


def test_undo_the_whole_street_is_one_tap(chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], {"game": "PO", "small_blind": 100, "big_blind": 200})
    page = tablet(chromium, live_server, t["code"])
    page.click("#deal-button")
    wait_prompt(page, "to act")
    assert page.locator("#undo-street").is_hidden()
    for _ in range(3):
        h = hand(live_server, t["table_id"])
        api(live_server, t["table_id"], "/actions", {"seat": h["to_act"], "action": "call"})
    page.wait_for_selector("#undo-street:not([hidden]):not([disabled])")
    page.click("#undo-street")
    page.wait_for_selector("#undo-street", state="hidden")
    back = hand(live_server, t["table_id"])
    assert all(s["bet"] in (0, 100, 200) for s in back["seats"]) and back["current_bet"] == 200
    assert back["log"][0]["text"].startswith("Undo: ") and back["log"][0]["text"].count("calls") == 3


def test_TDA_25_the_dealer_counts_a_stack_between_hands_from_the_tablet(
        chromium: Any, live_server: Server, artifacts: Path) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy"], {"game": "PO", "small_blind": 100, "big_blind": 200})
    page = tablet(chromium, live_server, t["code"], viewport={"width": 768, "height": 1024})
    page.wait_for_selector("#count-stack")
    seat = call(live_server, "GET", f"/api/tables/{t['table_id']}/next")[1]["seats"][1]["seat"]
    page.click("#count-stack")
    page.select_option("#stack-seat", str(seat))
    page.fill("#stack-chips", "12500")
    page.screenshot(path=str(artifacts / "tablet-count-stack-768x1024.png"))
    page.click("#stack-save")
    page.wait_for_function("() => !document.getElementById('rulings').open")
    page.wait_for_selector(f".seat[data-seat='{seat}'] .seat-stack:text-is('12,500')")


def test_the_log_says_it_shows_the_last_lines_and_offers_the_whole_log(chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], {"game": "PO", "small_blind": 100, "big_blind": 200})
    page = tablet(chromium, live_server, t["code"], viewport={"width": 1280, "height": 800})
    page.click("#deal-button")
    wait_prompt(page, "to act")
    h = hand(live_server, t["table_id"])
    while h["street"] != "river" or h["to_act"] is not None:
        if h["to_act"] is not None:
            h = api(live_server, t["table_id"], "/actions",
                    {"seat": h["to_act"], "action": "check" if h["legal"]["check"] else "call"})
        else:
            h = api(live_server, t["table_id"], "/board", {"cards": None})
    assert h["log_partial"]
    page.wait_for_function("v => document.getElementById('dealer').dataset.version.endsWith('/' + v)",
                           arg=str(h["version"]))
    page.click("#log-button")
    assert page.locator("#log-partial").inner_text() == "The last 12 lines of the hand's log"
    assert page.locator("#log .log-list li").count() == 12
    page.click("#log-all")
    page.wait_for_function("() => document.querySelectorAll('#log .log-list li').length > 12")
    assert page.locator("#log-partial").count() == 0
    assert "Hand 1 dealt" in page.locator("#log .log-list li").first.inner_text()


@pytest.mark.parametrize("size", [(1024, 768), (768, 1024), (1280, 800)])
def test_the_language_links_and_the_rulings_card_cells_are_at_least_44_px(
        chromium: Any, live_server: Server, size: tuple[int, int]) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy"], STUD)
    page = tablet(chromium, live_server, t["code"], viewport={"width": size[0], "height": size[1]})
    for link in page.locator(".dealer-bar .language-switch a").all():
        box = link.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, box
    page.click("#deal-button")
    wait_prompt(page, "Deal third street")
    page.click("#rulings-button")
    page.select_option("#ruling-kind", "stud_exposed_downcards")
    cells = page.locator(".ruling-fields .card-grid .pick")
    assert cells.count() == 52
    for i in (0, 12, 51):
        box = cells.nth(i).bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, (i, box)
        assert box["x"] + box["width"] <= size[0]


def test_the_shot_clock_keeps_its_end_across_a_reload_of_the_tablet(chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy"], {"game": "PO", "small_blind": 100, "big_blind": 200})
    status, body = call(live_server, "POST", f"/api/tournaments/{t['tournament_id']}/house-rules",
                        {"shot_clock": "60"})
    assert status == 200, body
    page = tablet(chromium, live_server, t["code"])
    page.click("#deal-button")
    page.wait_for_selector("#shot-clock:not([hidden])")
    ends = hand(live_server, t["table_id"])["shot_clock"]["ends_at"]
    page.wait_for_timeout(2100)
    page.reload()                                          # the connection came back: a new page
    page.wait_for_selector("#shot-clock:not([hidden])")
    assert hand(live_server, t["table_id"])["shot_clock"]["ends_at"] == ends
    assert int(page.locator("#shot-left").inner_text()) <= 58      # it did not start again


def test_the_time_a_tablet_is_offline_does_not_count_against_the_shot_clock_of_the_player_to_act(
        chromium: Any, live_server: Server, artifacts: Path) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], {"game": "PO", "small_blind": 100, "big_blind": 200})
    status, body = call(live_server, "POST", f"/api/tournaments/{t['tournament_id']}/house-rules",
                        {"shot_clock": "30"})
    assert status == 200, body
    page = tablet(chromium, live_server, t["code"])
    page.click("#deal-button")
    page.wait_for_selector("#shot-clock:not([hidden])")
    page.context.set_offline(True)
    page.wait_for_selector("#offline:not([hidden])")
    page.wait_for_timeout(5000)                                  # the Wi-Fi gone 5 s
    page.context.set_offline(False)
    page.wait_for_selector("#offline", state="hidden")
    for _ in range(50):
        dealt = hand(live_server, t["table_id"])
        if any("offline" in line["text"] for line in dealt["log"]):
            break
        page.wait_for_timeout(100)
    shot = dealt["shot_clock"]
    given = (dealer_utc(shot["ends_at"]) - dealer_utc(shot["started_at"])).total_seconds() - 30
    assert 4 <= given <= 8, dealt["log"]                        # the time offline, given back
    page.wait_for_timeout(300)
    page.screenshot(path=str(artifacts / "tablet-offline-given-back.png"))


def test_an_open_tablet_shows_its_shot_clock_standing_still_while_the_director_pauses_the_clock(
        chromium: Any, live_server: Server, artifacts: Path) -> None:
    """The tablet is open with a player to act; the director pauses the tournament clock
    (and moves it to the next level), then resumes it.  The hand's version does not
    move, and the tablet shows the shot clock standing still, then running again, from
    its stream alone (nothing tapped, nothing reloaded)."""
    status, made = call(live_server, "POST", "/api/tournaments", {"name": "Paused at a table",
                        "levels": [{"kind": "level", "duration_seconds": 1200, "game": "PO",
                                    "small_blind": 100, "big_blind": 200},
                                   {"kind": "level", "duration_seconds": 1200, "game": "PO",
                                    "small_blind": 200, "big_blind": 400}]})
    assert status == 201, made
    tid = made["id"]
    assert call(live_server, "POST", f"/api/tournaments/{tid}/money/settings",
                {"buy_in": "100", "starting_stack": 10_000})[0] == 200
    for name in ("Ann", "Bo", "Cy"):
        assert call(live_server, "POST", f"/api/tournaments/{tid}/seating/players",
                    {"name": name, "chips": 10_000})[0] == 201
    assert call(live_server, "POST", f"/api/tournaments/{tid}/seating/draw")[0] == 200
    assert call(live_server, "POST", f"/api/tournaments/{tid}/house-rules",
                {"shot_clock": "30"})[0] == 200
    table = call(live_server, "GET", f"/api/tournaments/{tid}/dealer/pairing")[1]["tables"][0]
    clock = f"/api/tournaments/{tid}/clock"
    assert call(live_server, "POST", f"{clock}/start")[0] == 200
    page = tablet(chromium, live_server, table["code"])
    page.click("#deal-button")
    page.wait_for_selector("#shot-clock:not([hidden])")
    version = hand(live_server, table["table_id"])["version"]
    assert call(live_server, "POST", f"{clock}/pause")[0] == 200
    assert call(live_server, "POST", f"{clock}/next")[0] == 200
    expect(page.locator("#shot-clock .shot-unit")).to_have_text("paused with the tournament clock",
                                                                timeout=5_000)
    stood = page.locator("#shot-left").inner_text()
    page.wait_for_timeout(2_100)
    assert page.locator("#shot-left").inner_text() == stood              # it stands still
    page.screenshot(path=str(artifacts / "tablet-shot-clock-paused.png"))
    assert call(live_server, "POST", f"{clock}/resume")[0] == 200
    expect(page.locator("#shot-clock .shot-unit")).to_have_text("seconds left", timeout=5_000)
    page.wait_for_timeout(2_100)
    assert int(page.locator("#shot-left").inner_text()) < int(stood)    # it runs on
    assert hand(live_server, table["table_id"])["version"] == version    # no write to the hand
