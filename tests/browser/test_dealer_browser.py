"""The dealer tablet in a real browser against a real server (each test its own context)."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.browser.conftest import Server, start_server

TABLET = {"width": 1024, "height": 768}


def call(server: Server, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.url + path, data=data, method=method, headers={
        "Authorization": f"Bearer {server.token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def setup(server: Server, names: list[str], level: dict[str, Any]) -> dict[str, Any]:
    status, made = call(server, "POST", "/api/tournaments", {"name": "Dealer test", "levels": [
        {"kind": "level", "duration_seconds": 1200, **level}]})
    assert status == 201, made
    tid = made["id"]
    for name in names:
        assert call(server, "POST", f"/api/tournaments/{tid}/seating/players",
                    {"name": name, "chips": 10_000})[0] == 201
    assert call(server, "POST", f"/api/tournaments/{tid}/seating/draw")[0] == 200
    tables = call(server, "GET", f"/api/tournaments/{tid}/dealer/pairing")[1]["tables"]
    return {"tournament_id": tid, "table_id": tables[0]["table_id"], "code": tables[0]["code"]}


def tablet(chromium: Any, server: Server, code: str) -> Any:
    context = chromium.new_context(viewport=TABLET)
    page = context.new_page()
    page.goto(f"{server.url}/dealer/?code={code}")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/dealer/table/\d+"))
    return page


def prompt(page: Any) -> str:
    return str(page.locator("#prompt").inner_text())


def wait_prompt(page: Any, text: str) -> None:
    page.wait_for_function("t => document.getElementById('prompt').textContent.includes(t)", arg=text)


def tap(page: Any, target: Any) -> None:
    """Tap a button (a locator or a selector) and wait until the tablet shows the next step."""
    before = prompt(page)
    (page.locator(target) if isinstance(target, str) else target).click()
    page.wait_for_function("p => document.getElementById('prompt').textContent !== p", arg=before)


def deal(page: Any) -> None:
    page.click("#deal-button")
    wait_prompt(page, "to act")


def hand(server: Server, table_id: int) -> dict[str, Any]:
    return call(server, "GET", f"/api/tables/{table_id}/hand")[1]


PLO = {"game": "PO", "small_blind": 100, "big_blind": 200}


def test_plo_hand_with_the_exact_pot_button(chromium: Any, live_server: Server, artifacts: Path) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    first = hand(live_server, t["table_id"])
    assert prompt(page) == f"Seat {first['to_act']} ({first['to_act_name']}) to act"
    pot = page.get_by_role("button", name="Pot: raise to 700")    # 200 + 100 + 2 * 200 (TDA pot limit)
    assert pot.is_visible()
    page.get_by_role("button", name="Call 200").is_visible()
    tap(page, pot)
    second = hand(live_server, t["table_id"])
    assert prompt(page) == f"Seat {second['to_act']} ({second['to_act_name']}) to act"
    # next player facing 700: the pot is 1,000, so the pot raise is to 2,400
    assert page.get_by_role("button", name="Call 700").is_visible()
    assert page.get_by_role("button", name="Pot: raise to 2,400").is_visible()
    page.screenshot(path=str(artifacts / "dealer-plo-pot.png"))
    for _ in range(3):
        tap(page, page.get_by_role("button", name="Fold"))
    page.wait_for_selector(".award")
    text = page.locator(".award").first.inner_text()
    # SB 100 + BB 200 + 200 of the raise are the pot; the uncalled 500 goes back
    assert text == f"Main pot 500: to seat {first['to_act']} ({first['to_act_name']}), uncontested, 500"
    assert page.get_by_role("button", name="Deal the next hand").is_visible()


def test_illegal_raise_is_refused_with_the_engines_sentence(chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    first = hand(live_server, t["table_id"])
    page.click("#amount-button")
    for digit in "900":
        page.click(f".keys button:text-is('{digit}')")
    page.click("#keypad-ok")
    error = page.locator("#error")
    error.wait_for(state="visible")
    assert error.inner_text() == (f"Pot-limit: the most Seat {first['to_act']} ({first['to_act_name']}) "
                                  "may raise to is 700")
    assert hand(live_server, t["table_id"])["version"] == first["version"]     # nothing applied
    # the dealer corrects the amount on the same keypad
    page.click(".keys button:text-is('Clear')")
    for digit in "600":
        page.click(f".keys button:text-is('{digit}')")
    page.click("#keypad-ok")
    page.wait_for_function("() => document.getElementById('error').hidden")
    after = hand(live_server, t["table_id"])
    assert after["version"] == first["version"] + 1
    assert {s["seat"]: s["bet"] for s in after["seats"]}[first["to_act"]] == 600


def test_o8_showdown_quarters_the_low_on_screen(chromium: Any, live_server: Server, artifacts: Path) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy"], {"game": "PO/8", "small_blind": 100, "big_blind": 200})
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    url = f"/api/tables/{t['table_id']}/hand"
    h = hand(live_server, t["table_id"])
    boards = [["2c", "3d", "8h"], ["Kc"], ["Ks"]]
    bet = True
    while h["awaiting"] != "showdown":
        if h["to_act"] is not None:
            if h["street"] == "flop" and bet:
                body = {"seat": h["to_act"], "action": "bet", "amount": 203}
                bet = False
            else:
                body = {"seat": h["to_act"], "action": "check" if h["legal"]["check"] else "call"}
            status, h = call(live_server, "POST", f"{url}/actions", {**body, "version": h["version"]})
        else:
            status, h = call(live_server, "POST", f"{url}/board", {"cards": boards.pop(0), "version": h["version"]})
        assert status == 200, h
    wait_prompt(page, "Showdown")
    order = h["showdown_order"]
    hands = {order[0]: "Kd 7s 9c 9d", order[1]: "As 4c Qd Qh", order[2]: "Ah 4d Jc Jd"}
    for seat in order:
        page.locator(f".show-row[data-seat='{seat}'] button:text-is('Show')").click()
        for card in hands[seat].split():
            page.click(f".pick[data-card='{card}']")
        page.wait_for_function(
            "s => !document.querySelector(`.show-row[data-seat='${s}'] button`)", arg=seat)
    page.wait_for_selector(".award")
    text = page.locator(".award").first.inner_text()
    page.screenshot(path=str(artifacts / "dealer-o8-showdown.png"))
    assert text.startswith(f"Main pot 1,209: high to seat {order[0]} (")
    assert "605" in text and "302 each" in text and "low split seats" in text
    assert "odd chip (1)" in text and "high" in text


def test_stud_bring_in_is_named_by_suit(chromium: Any, live_server: Server) -> None:
    stud = {"game": "F7S", "ante": 10, "bring_in": 25, "small_bet": 100, "big_bet": 200}
    t = setup(live_server, ["Ann", "Bo", "Cy"], stud)
    page = tablet(chromium, live_server, t["code"])
    page.click("#deal-button")
    wait_prompt(page, "Deal third street")
    seats = sorted(s["seat"] for s in hand(live_server, t["table_id"])["seats"])
    page.click("#up-cards")
    for card in ["2d", "2c", "Kh"]:
        page.click(f".pick[data-card='{card}']")
    wait_prompt(page, "lowest up-card")
    assert prompt(page) == (f"Seat {seats[1]} ({hand(live_server, t['table_id'])['to_act_name']}) has the "
                            "lowest up-card, 2♣ (clubs): bring in 25, complete or fold")
    assert page.get_by_role("button", name="Bring in 25").is_visible()
    assert page.get_by_role("button", name="Complete to 100").is_visible()


def test_misdeal_ruling_then_redeal_with_the_same_button(chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    button = hand(live_server, t["table_id"])["positions"]["button"]
    page.click("#rulings-button")
    page.select_option("#ruling-kind", "exposed_card")
    page.fill(".ruling-fields input[name=positions]", "1")
    page.click("#ruling-preview")
    page.wait_for_selector(".ruling-text")
    assert page.locator(".ruling-rule").inner_text() == "TDA 35-A item 7"
    assert "Card 1 off the deck" in page.locator(".ruling-text").inner_text()
    page.click("#ruling-confirm")
    wait_prompt(page, "Misdeal")
    page.click("#next-hand")
    page.wait_for_selector("#deal-button")
    assert page.locator(f".seat[data-seat='{button}'] .button-mark").count() == 1
    deal(page)
    again = hand(live_server, t["table_id"])
    assert again["hand_number"] == 2 and again["positions"]["button"] == button
    assert page.locator(f".seat[data-seat='{button}'] .button-mark").count() == 1


def test_undo_on_the_tablet(chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    first = hand(live_server, t["table_id"])
    tap(page, page.get_by_role("button", name="Call 200"))
    tap(page, "#undo-button")
    assert prompt(page) == f"Seat {first['to_act']} ({first['to_act_name']}) to act"
    now = hand(live_server, t["table_id"])
    assert now["to_act"] == first["to_act"] and now["legal"] == first["legal"]
    assert any(line["text"].startswith(f"Undo: Seat {first['to_act']}") for line in now["log"])


def test_two_tablets_race_and_the_loser_refreshes(chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    one = tablet(chromium, live_server, t["code"])
    two = tablet(chromium, live_server, t["code"])
    deal(one)
    wait_prompt(two, "to act")
    first = hand(live_server, t["table_id"])
    # both dealers tap at once: the first wins, the second gets a 409 and the fresh hand
    two.evaluate("() => { window.__statuses = []; const f = window.fetch; window.fetch = (...a) => "
                 "f(...a).then(r => { window.__statuses.push(r.status); return r; }); }")
    one.get_by_role("button", name="Call 200").click()
    two.get_by_role("button", name="Fold").click()
    two.locator("#error").wait_for(state="visible")
    assert "changed on another tablet" in two.locator("#error").inner_text()
    assert 409 in two.evaluate("() => window.__statuses")
    second = hand(live_server, t["table_id"])
    assert second["version"] == first["version"] + 1
    assert {s["seat"]: s["status"] for s in second["seats"]}[first["to_act"]] == "active"
    wait_prompt(two, f"Seat {second['to_act']} (")


def test_the_tablet_continues_after_the_server_is_killed(chromium: Any, restartable_server: list[Server],
                                                         tmp_path: Path) -> None:
    server = restartable_server[0]
    t = setup(server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, server, t["code"])
    deal(page)
    first = hand(server, t["table_id"])
    tap(page, page.get_by_role("button", name="Call 200"))
    second = hand(server, t["table_id"])
    server.process.kill()                                       # kill -9 mid-hand
    server.process.wait()
    page.get_by_role("button", name="Call 200").click()         # sent while the server is down
    page.wait_for_function("() => document.getElementById('net').classList.contains('bad')")
    port = int(server.url.rsplit(":", 1)[1])
    restarted = start_server(tmp_path, port=port)
    restartable_server.append(restarted)
    third = None
    for _ in range(100):
        now = hand(restarted, t["table_id"])
        if now["version"] == second["version"] + 1:
            third = now
            break
        page.wait_for_timeout(100)
    assert third is not None, "the retried call never arrived"
    wait_prompt(page, f"Seat {third['to_act']} (")
    calls = [line for line in third["log"] if line["text"].endswith("calls")]
    assert len(calls) == 2                                      # nothing lost, nothing twice
    assert third["hand_id"] == first["hand_id"]


def test_hand_for_hand_the_tablet_holds_until_every_table_has_played(
        chromium: Any, live_server: Server, artifacts: Path) -> None:
    """TDA RP-8: the tablet's table has played its hand-for-hand hand; "Deal" is greyed out
    and the tablet names the table still playing, until that table finishes."""
    names = [f"Player {i}" for i in range(1, 13)]
    t = setup(live_server, names, PLO)
    tid = t["tournament_id"]
    assert call(live_server, "POST", f"/api/tournaments/{tid}/seating/settings", {"table_size": 6})[0] == 200
    tables = call(live_server, "GET", f"/api/tournaments/{tid}/dealer/pairing")[1]["tables"]
    assert len(tables) == 2
    mine, other = tables[0], tables[1]
    for action in ("announce", "start"):
        assert call(live_server, "POST", f"/api/tournaments/{tid}/seating/hand-for-hand",
                    {"action": action})[0] == 200
    page = tablet(chromium, live_server, mine["code"])
    deal(page)
    while not hand(live_server, mine["table_id"])["finished"]:
        tap(page, page.get_by_role("button", name="Fold"))
    page.get_by_role("button", name="Deal the next hand").click()
    hold = page.locator("#hold")
    hold.wait_for(state="visible")
    assert hold.inner_text() == ("Hand-for-hand: this table has played hand 1; wait for table "
                                 f"{other['number']} to finish it (TDA RP-8)")
    assert page.locator("#deal-button").is_disabled()
    page.screenshot(path=str(artifacts / "dealer-hand-for-hand-hold.png"))

    url = f"/api/tables/{other['table_id']}"            # the other table plays its hand
    status, other_hand = call(live_server, "POST", f"{url}/hands", {"absent_seats": []})
    assert status == 201, other_hand
    while not other_hand["finished"]:
        status, other_hand = call(live_server, "POST", f"{url}/hand/actions", {
            "seat": other_hand["to_act"], "action": "fold", "version": other_hand["version"]})
        assert status == 200, other_hand
    hold.wait_for(state="detached")                     # the tablet's poll hears of it
    assert page.locator("#deal-button").is_enabled()
    deal(page)                                          # hand-for-hand hand 2
