"""The dealer tablet in a real browser against a real server (each test its own context)."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server, director_page, start_server

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
    assert call(server, "POST", f"/api/tournaments/{tid}/money/settings",  # entries are buy-ins
                {"buy_in": "100", "starting_stack": 10_000})[0] == 200
    for name in names:
        assert call(server, "POST", f"/api/tournaments/{tid}/seating/players",
                    {"name": name, "chips": 10_000})[0] == 201
    assert call(server, "POST", f"/api/tournaments/{tid}/seating/draw")[0] == 200
    tables = call(server, "GET", f"/api/tournaments/{tid}/dealer/pairing")[1]["tables"]
    return {"tournament_id": tid, "table_id": tables[0]["table_id"], "code": tables[0]["code"]}


def tablet(chromium: Any, server: Server, code: str, viewport: dict[str, int] | None = None,
           table: int = 1) -> Any:
    """A tablet paired with table ``table`` (the QR code's link: the table and its code)."""
    context = chromium.new_context(viewport=viewport or TABLET)
    page = context.new_page()
    page.goto(f"{server.url}/dealer/?table={table}&code={code}")
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


def fold_around(server: Server, table_id: int) -> None:
    """A hand at the table, through the tablets' API: everyone folds to the big blind."""
    url = f"/api/tables/{table_id}"
    status, played = call(server, "POST", f"{url}/hands", {"absent_seats": []})
    assert status == 201, played
    while not played["finished"]:
        status, played = call(server, "POST", f"{url}/hand/actions", {
            "seat": played["to_act"], "action": "fold", "version": played["version"]})
        assert status == 200, played


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
        tap(page, page.get_by_role("button", name="Fold", exact=True))
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
                            "lowest up-card, 2♣ (clubs): bring in 25 or complete")
    assert page.get_by_role("button", name="Bring in 25").is_visible()
    assert page.get_by_role("button", name="Complete to 100").is_visible()


def test_misdeal_ruling_then_redeal_with_the_same_button(chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    positions = hand(live_server, t["table_id"])["positions"]
    button = positions["button"]
    page.click("#rulings-button")
    page.select_option("#ruling-kind", "exposed_card")
    # the small blind's first card is the first card off the deck
    page.select_option(".exposed-seat", str(positions["small_blind"]))
    page.select_option(".exposed-card", "1")
    page.click("#ruling-preview")
    page.wait_for_selector(".ruling-text")
    assert page.locator(".ruling-rule").inner_text() == "TDA 35-A item 7"
    small_blind = {s["seat"]: s["name"] for s in hand(live_server, t["table_id"])["seats"]}[positions["small_blind"]]
    assert page.locator(".ruling-text").inner_text() == (
        f"Seat {positions['small_blind']} ({small_blind})'s first card was exposed: one of the first two "
        "cards off the deck is a misdeal")
    page.click("#ruling-confirm")
    wait_prompt(page, "Misdeal")
    page.click("#next-hand")
    page.wait_for_selector("#deal-button")
    assert page.locator(f".seat[data-seat='{button}'] .button-mark").count() == 1
    deal(page)
    again = hand(live_server, t["table_id"])
    assert again["hand_number"] == 1 and again["positions"]["button"] == button     # the same hand (TDA 35)
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
    # both dealers tap at once (the second has not heard of the first's call: its reads
    # answer the hand it drew): the first wins, the second gets a 409 and the fresh hand
    two.route("**/hand", lambda route: route.fulfill(status=200, json=first))
    two.evaluate("() => { window.__statuses = []; const f = window.fetch; window.fetch = (...a) => "
                 "f(...a).then(r => { window.__statuses.push(r.status); return r; }); }")
    one.get_by_role("button", name="Call 200").click()
    two.get_by_role("button", name="Fold", exact=True).click()
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
        tap(page, page.get_by_role("button", name="Fold", exact=True))
    page.get_by_role("button", name="Deal the next hand").click()
    hold = page.locator("#hold")
    hold.wait_for(state="visible")
    assert hold.inner_text() == ("Hand-for-hand: this table has played hand 1; wait for table "
                                 f"{other['number']} to finish it (TDA RP-8)")
    assert page.locator("#deal-button").is_disabled()
    page.screenshot(path=str(artifacts / "dealer-hand-for-hand-hold.png"))

    fold_around(live_server, other["table_id"])         # the other table plays its hand
    hold.wait_for(state="detached")                     # the tablet is told of it
    page.wait_for_selector("#deal-button:not([disabled]):not(.arming)", timeout=2000)
    deal(page)                                          # hand-for-hand hand 2


# ---------------------------------------------------------------- what the dealer sees (issue 5 QA)

LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 768, "height": 1024}
NINE = ["Dewi Lestari", "Sofia Nyström", "Siti Rahmawati", "Jan Kowalski", "Olga Ivanova",
        "Rizky Pratama", "Karin Sjöberg", "Nguyễn Văn An", "Ahmet Yılmaz"]


def tablet_in(chromium: Any, server: Server, code: str, viewport: dict[str, int],
              table: int = 1) -> Any:
    """A tablet paired in its own context with the given screen."""
    context = chromium.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(f"{server.url}/dealer/?table={table}&code={code}")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/dealer/table/\d+"))
    page.wait_for_selector("#deal-button")
    return page


def on_screen(page: Any, target: Any) -> bool:
    """The whole of the element's box is inside the viewport (nothing cut off, no scrolling)."""
    box = target.bounding_box()
    size = page.viewport_size
    return bool(box and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5
                and box["y"] + box["height"] <= size["height"] + 0.5)


def play_to_showdown(server: Server, table_id: int, boards: list[list[str]]) -> dict[str, Any]:
    """Everybody calls and checks through the API; on the river the first to act bets 200."""
    url = f"/api/tables/{table_id}/hand"
    h = hand(server, table_id)
    while h["awaiting"] != "showdown":
        if h["to_act"] is not None:
            if h["street"] == "river" and h["legal"]["check"] and h["legal"]["min_to"] is not None:
                body = {"seat": h["to_act"], "action": "bet", "amount": 200}
            else:
                body = {"seat": h["to_act"], "action": "check" if h["legal"]["check"] else "call"}
            status, h = call(server, "POST", f"{url}/actions", {**body, "version": h["version"]})
        else:
            status, h = call(server, "POST", f"{url}/board", {"cards": boards.pop(0), "version": h["version"]})
        assert status == 200, h
    return h


@pytest.mark.parametrize("viewport", [LANDSCAPE, PORTRAIT], ids=["landscape", "portrait"])
def test_keypad_refusal_is_on_screen_where_the_dealer_looks(
        chromium: Any, live_server: Server, artifacts: Path, viewport: dict[str, int]) -> None:
    """An amount below the minimum raise on the keypad: the engine's sentence is shown whole on the
    screen (inside the keypad), next to the keys, with OK still in reach."""
    t = setup(live_server, NINE, PLO)
    page = tablet_in(chromium, live_server, t["code"], viewport)
    deal(page)
    first = hand(live_server, t["table_id"])
    page.click("#amount-button")
    for digit in "300":                                     # the minimum raise is to 400
        page.click(f".keys button:text-is('{digit}')")
    page.click("#keypad-ok")
    error = page.locator("#error")
    error.wait_for(state="visible")
    assert "400" in error.inner_text() and "300" in error.inner_text()
    page.screenshot(path=str(artifacts / f"dealer-keypad-error-{viewport['width']}.png"))
    assert on_screen(page, error), (error.bounding_box(), page.viewport_size)
    assert on_screen(page, page.locator("#keypad-ok"))
    assert page.locator("#keypad #error").count() == 1     # in the keypad, under its title
    assert hand(live_server, t["table_id"])["version"] == first["version"]
    # corrected on the same keypad: the refusal goes away with the keypad
    page.click(".keys button:text-is('Clear')")
    for digit in "400":
        page.click(f".keys button:text-is('{digit}')")
    page.click("#keypad-ok")
    page.wait_for_function("() => document.getElementById('error').hidden")
    assert page.locator("#keypad").is_hidden()


@pytest.mark.parametrize("viewport", [LANDSCAPE, PORTRAIT], ids=["landscape", "portrait"])
def test_card_picker_is_an_instruction_and_fits_the_screen(
        chromium: Any, live_server: Server, artifacts: Path, viewport: dict[str, int]) -> None:
    """"Flop: tap 3 cards (0/3)"; the 52 cards are all on the screen without scrolling and each is
    at least 44 px each way (a finger)."""
    t = setup(live_server, NINE, PLO)
    page = tablet_in(chromium, live_server, t["code"], viewport)
    deal(page)
    h = hand(live_server, t["table_id"])
    url = f"/api/tables/{t['table_id']}/hand/actions"
    while h["to_act"] is not None:
        body = {"seat": h["to_act"], "action": "check" if h["legal"]["check"] else "call"}
        status, h = call(live_server, "POST", url, {**body, "version": h["version"]})
        assert status == 200, h
    page.wait_for_selector("#board-cards")
    page.click("#board-cards")
    assert page.locator("#picker h2").inner_text() == "Flop: tap 3 cards (0/3)"
    picks = page.locator("#picker .pick")
    assert picks.count() == 52
    page.screenshot(path=str(artifacts / f"dealer-picker-{viewport['width']}.png"))
    assert page.evaluate("() => document.scrollingElement.scrollTop") == 0
    for i in range(52):
        pick = picks.nth(i)
        assert on_screen(page, pick), (pick.get_attribute("data-card"), pick.bounding_box())
        box = pick.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
    assert on_screen(page, page.locator("#picker-cancel"))
    page.click(".pick[data-card='Ah']")
    assert page.locator("#picker h2").inner_text() == "Flop: tap 3 cards (1/3)"
    page.click(".pick[data-card='7d']")
    page.click(".pick[data-card='2c']")
    page.wait_for_function("() => document.querySelectorAll('#board .card').length === 3")
    assert [c.get_attribute("data-card") for c in page.locator("#board .card").all()] == ["Ah", "7d", "2c"]
    assert page.locator("#picker").is_hidden()


@pytest.mark.parametrize("viewport", [LANDSCAPE, PORTRAIT], ids=["landscape", "portrait"])
def test_showdown_buttons_fit_and_a_finished_hand_has_no_bets_in_front(
        chromium: Any, live_server: Server, artifacts: Path, viewport: dict[str, int]) -> None:
    """Show and Muck of every showdown row are whole on the screen; once the pots are awarded no
    chips are drawn in front of any seat, and the shown cards are not covered."""
    t = setup(live_server, NINE[:3], PLO)
    page = tablet_in(chromium, live_server, t["code"], viewport)
    deal(page)
    assert page.locator(".seat-bet").count() == 2          # the blinds, in front of their seats
    h = play_to_showdown(live_server, t["table_id"], [["2c", "3d", "8h"], ["Kc"], ["Ks"]])
    wait_prompt(page, "Showdown")
    page.screenshot(path=str(artifacts / f"dealer-showdown-{viewport['width']}.png"))
    order = h["showdown_order"]
    buttons = page.locator(".show-row button")
    assert buttons.count() == 2 * len(order)
    for i in range(buttons.count()):
        assert on_screen(page, buttons.nth(i)), (buttons.nth(i).inner_text(), buttons.nth(i).bounding_box())
    assert page.locator(".show-row button:text-is('Muck')").count() == len(order)
    hands = {order[0]: "Kd 7s 9c 9d", order[1]: "As 4c Qd Qh", order[2]: "Ah 4d Jc Jd"}
    for seat in order:
        page.locator(f".show-row[data-seat='{seat}'] button:text-is('Show')").click()
        assert page.locator("#picker h2").inner_text().endswith("shows: tap 4 cards (0/4)")
        for card in hands[seat].split():
            page.click(f".pick[data-card='{card}']")
        page.wait_for_function(
            "s => !document.querySelector(`.show-row[data-seat='${s}'] button`)", arg=seat)
    page.wait_for_selector(".award")
    page.wait_for_selector("#next-hand")
    page.screenshot(path=str(artifacts / f"dealer-awarded-{viewport['width']}.png"))
    assert page.locator(".seat-bet").count() == 0
    for seat in order:
        cards = page.locator(f".seat[data-seat='{seat}'] .seat-cards .card")
        assert cards.count() == 4
        assert all(c.is_visible() for c in cards.all())


def test_unpair_asks_the_director_first(chromium: Any, live_server: Server) -> None:
    """Unpairing a table's tablets asks for confirmation; "Cancel" leaves the tablet paired."""
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    paired = tablet_in(chromium, live_server, t["code"], LANDSCAPE)
    assert paired.locator("#deal-button").is_visible()
    page = director_page(chromium, live_server, 1280, 900)
    page.goto(f"{live_server.url}/director/{t['tournament_id']}/dealers")
    card = page.locator(f".pairing-card:has(.pairing-code:text-is('{t['code']}'))")
    assert "1 tablet paired" in card.inner_text()
    asked: list[str] = []

    def answer(accept: bool) -> Any:
        def on_dialog(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()
        return on_dialog

    page.once("dialog", answer(False))
    card.locator("button.danger").click()
    assert asked == ["Unpair this tablet? It must be paired again with the new code"]
    page.wait_for_timeout(300)
    assert page.locator(".pairing-code").first.inner_text() == t["code"]   # nothing done
    assert "1 tablet paired" in page.locator(".pairing-card").first.inner_text()
    page.once("dialog", answer(True))
    with page.expect_navigation():
        page.locator(".pairing-card").first.locator("button.danger").click()
    assert len(asked) == 2
    new_code = page.locator(".pairing-code").first.inner_text()
    assert new_code != t["code"]
    assert f"the new code is {new_code}" in page.locator(".flash").inner_text()
    assert "0 tablets paired" in page.locator(".pairing-card").first.inner_text()


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


@pytest.mark.parametrize("viewport", [LANDSCAPE, PORTRAIT], ids=["landscape", "portrait"])
def test_called_clock_covers_neither_the_prompt_nor_the_buttons(
        chromium: Any, live_server: Server, viewport: dict[str, int]) -> None:
    """TDA 29: the countdown on the player to act sits under the prompt, covering nothing."""
    t = setup(live_server, NINE, PLO)
    page = tablet_in(chromium, live_server, t["code"], viewport)
    deal(page)
    to_act = hand(live_server, t["table_id"])["to_act"]
    page.click("#clock-button")
    page.click("#clock-yes")
    page.wait_for_selector("#clock-left")
    clock = page.locator("#clock-call")
    assert clock.inner_text().startswith(f"Seat {to_act}")
    box = clock.bounding_box()
    assert on_screen(page, clock)
    for other in ["#prompt", ".dealer-bar", "#controls", "#table-view", ".dealer-tools"]:
        assert not overlaps(box, page.locator(other).bounding_box()), other


def test_winners_by_hand_each_box_is_on_its_name_line(chromium: Any, live_server: Server) -> None:
    """The "pick the winners by hand" dialog: each rank sits on the line of its seat's name."""
    t = setup(live_server, NINE[:3], {"game": "PO/8", "small_blind": 100, "big_blind": 200})
    page = tablet_in(chromium, live_server, t["code"], LANDSCAPE)
    deal(page)
    play_to_showdown(live_server, t["table_id"], [["2c", "3d", "8h"], ["Kc"], ["Ks"]])
    wait_prompt(page, "Showdown")
    page.click("#award-by-hand")
    labels = page.locator(".award-form label.rank-row")
    assert labels.count() == 6                              # high and low, three seats each
    for label in labels.all():
        line = label.bounding_box()
        box = label.locator("select").bounding_box()
        assert line["height"] < 2 * box["height"] + 20, line   # one line, not box above name
        assert abs((box["y"] + box["height"] / 2) - (line["y"] + line["height"] / 2)) < 6


def test_TDA_53_out_of_turn_raise_backs_up_and_is_ruled_when_the_action_reaches_him(
        chromium: Any, live_server: Server) -> None:
    """Seat B raises out of turn while A is to act: the ruling backs the action up to A
    and the tablet remembers it.  A calls (the action to B does not change), so when the
    action reaches B the tablet offers to rule it again, and it stands: a raise to 800."""
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    first = hand(live_server, t["table_id"])
    seats = sorted(s["seat"] for s in first["seats"])
    a = first["to_act"]
    b = seats[(seats.index(a) + 1) % len(seats)]
    page.click("#rulings-button")
    page.select_option("#ruling-kind", "action_out_of_turn")
    page.select_option("#rulings select[name=seat]", str(b))
    page.select_option("#rulings select[name=action]", "raise")
    page.fill("#rulings input[name=amount]", "800")
    page.click("#ruling-preview")
    page.wait_for_selector("#ruling-result .ruling-text")
    assert page.locator("#ruling-result .ruling-text").inner_text().startswith(
        f"The action backs up to seat {a} (")
    drawn = page.locator("#dealer").get_attribute("data-version")
    # The dialog closes at once and the ruling is on its way: a tap before its answer
    # is not taken (said so on the tablet), so wait for the answer and its drawing.
    with page.expect_response(lambda r: r.url.endswith("/hand/rulings")
                              and r.request.method == "POST") as recorded:
        page.click("#ruling-confirm")
    assert recorded.value.status == 200
    page.wait_for_function("v => document.getElementById('dealer').dataset.version !== v",
                           arg=drawn)
    assert not page.evaluate("() => document.getElementById('rulings').open")
    assert hand(live_server, t["table_id"])["to_act"] == a            # nothing was applied
    assert page.locator("#oot-reminder").count() == 0                 # not his turn yet
    tap(page, page.get_by_role("button", name="Call 200"))
    reminder = page.locator("#oot-reminder")
    reminder.wait_for(state="visible")
    assert reminder.inner_text().startswith(f"Seat {b} acted out of turn: raise 800.")
    page.click("#oot-rule")
    page.wait_for_function("() => (document.querySelector('#ruling-result .ruling-text') || {}).textContent"
                           " && document.querySelector('#ruling-result .ruling-text').textContent.includes('stands')")
    before = prompt(page)
    page.click("#ruling-confirm")
    page.wait_for_function("p => document.getElementById('prompt').textContent !== p", arg=before)
    after = hand(live_server, t["table_id"])
    assert after["current_bet"] == 800
    assert {s["seat"]: s["bet"] for s in after["seats"]}[b] == 800
    assert page.locator("#oot-reminder").count() == 0                 # ruled: forgotten


def test_undo_after_moving_on_brings_the_finished_hand_back_until_the_next_deal(
        chromium: Any, live_server: Server) -> None:
    """Issue 5: undo of the last action at any time before the next hand starts, also
    after the dealer tapped "Deal the next hand" and sees the next hand's seats."""
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    for _ in range(3):
        tap(page, page.get_by_role("button", name="Fold", exact=True))
    last = hand(live_server, t["table_id"])
    assert last["finished"]
    page.click("#next-hand")
    page.wait_for_selector("#deal-button")
    page.wait_for_selector("#undo-button:not([disabled]):not(.arming)", timeout=2000)   # armed after a moment
    tap(page, "#undo-button")
    back = hand(live_server, t["table_id"])
    assert not back["finished"] and back["hand_id"] == last["hand_id"]
    assert prompt(page) == f"Seat {back['to_act']} ({back['to_act_name']}) to act"
    assert page.get_by_role("button", name="Fold", exact=True).is_visible()


def test_an_idle_tablet_reads_its_next_hand_again_for_a_seat_changed_not_for_chips_moved_elsewhere(
        chromium: Any, live_server: Server) -> None:
    """Before "Deal", the tablet shows who is dealt in next; a seat taken or freed anywhere
    may change it (balancing), a hand at another table that only moved chips does not.
    At 300 tables a hand finishes every second or so, and every idle tablet read its
    next hand again for each.  (Held for hand-for-hand it still reads it: the test above.)"""
    t = setup(live_server, [f"Player {i}" for i in range(1, 13)], PLO)
    tid = t["tournament_id"]
    assert call(live_server, "POST", f"/api/tournaments/{tid}/seating/settings", {"table_size": 6})[0] == 200
    mine, other = call(live_server, "GET", f"/api/tournaments/{tid}/dealer/pairing")[1]["tables"][:2]
    page = tablet(chromium, live_server, mine["code"])
    page.wait_for_selector("#deal-button:not([disabled])")
    reads: list[str] = []
    page.on("request", lambda r: reads.append(r.url) if r.url.endswith("/next") else None)
    page.wait_for_timeout(500)
    reads.clear()
    fold_around(live_server, other["table_id"])          # the other table: everyone folds
    page.wait_for_timeout(1000)
    assert reads == []                                   # chips moved at table 2 only
    assert call(live_server, "POST", f"/api/tournaments/{tid}/seating/players",
                {"name": "Late Comer", "chips": 10_000})[0] == 201
    for _ in range(40):                                  # a seat taken: it reads it again
        if reads:
            break
        page.wait_for_timeout(50)
    assert reads
