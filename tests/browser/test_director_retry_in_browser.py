"""The director's clock controls on the room's Wi-Fi: an answer that is lost does not
lose the click, and the click sent again is applied once; a second tap on a button
whose request is on its way is not taken.  Seen on the phone page, as the director
holds it at the floor, in each language."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from tests.browser.conftest import director_page
from tests.browser.test_layout import CHECK

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SENDING_AGAIN = {"en": "No answer from the server yet: sending it again…",
                 "sv": "Inget svar från servern än: skickar igen…",
                 "id": "Belum ada jawaban dari server: mengirim ulang…"}


def _event(live_server: Any) -> tuple[int, dict[str, str]]:
    auth = {"Authorization": f"Bearer {live_server.token}"}
    tid = requests.post(f"{live_server.url}/api/tournaments", headers=auth, timeout=5, json={
        "name": "Lost answers", "levels": [
            {"game": "PO", "duration_seconds": 600, "small_blind": 25, "big_blind": 50},
            {"game": "PO", "duration_seconds": 600, "small_blind": 50, "big_blind": 100},
            {"game": "PO", "duration_seconds": 600, "small_blind": 75, "big_blind": 150}]}).json()["id"]
    for control in ("start", "pause"):
        assert requests.post(f"{live_server.url}/api/tournaments/{tid}/clock/{control}",
                             headers=auth, timeout=5).status_code == 200
    return tid, auth


def _clock(live_server: Any, tid: int) -> dict[str, Any]:
    return requests.get(f"{live_server.url}/api/tournaments/{tid}/clock", timeout=5).json()


# What the second click's page says: what the first one did, once.
HAND_FINISHED_ONCE = {"en": "Done already: the hand is finished at every table, once",
                      "sv": "Redan gjort: handen är färdigspelad vid alla bord, en gång",
                      "id": "Sudah dilakukan: tangan sudah selesai di semua meja, sekali"}
DEAL_PAID_ONCE = {"en": "Done already: the deal is saved and paid, once",
                  "sv": "Redan gjort: dealen är sparad och betald, en gång",
                  "id": "Sudah dilakukan: deal sudah disimpan dan dibayar, sekali"}


def double_clicked_with_the_first_answer_slow(page: Any, url: str, button: str,
                                              posted_to: str, language: str,
                                              says: dict[str, str],
                                              fill: Callable[[Any], None] | None = None) -> None:
    """The page at ``url`` in the director's ``language`` (its form filled by ``fill``):
    click ``button`` and, its POST (to a URL matching ``posted_to``) reached the server
    but its answer held back as on slow Wi-Fi, click it again where it was with a real
    mouse click.  Both POSTs are the same form with its one key, and the page says what
    was done, once (``says``)."""
    page.goto(url)
    if language != "en":
        page.click(f".language-switch a[hreflang={language}]")
        page.wait_for_selector(f'html[lang="{language}"]')
    if fill is not None:
        fill(page)
    held: list[Any] = []
    sent: list[str] = []

    def slow_wifi(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        sent.append(route.request.post_data or "")
        if not held:
            route.fetch()           # the server has the first click; its answer is slow ...
            held.append(route)      # ... and the director clicks again meanwhile
            return
        route.continue_()

    page.route(re.compile(posted_to), slow_wifi)
    page.locator(button).scroll_into_view_if_needed()
    box = page.locator(button).bounding_box()
    assert box is not None
    page.click(button, no_wait_after=True)
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    # the page still shows the form (its answer is on its way): the second click
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.locator("body")).to_contain_text(says[language], timeout=15_000)
    # the same form, its one key, twice (a multipart form's boundary is drawn each time)
    same = [re.sub(r"-+WebKitFormBoundary\w+", "--boundary", body) for body in sent]
    assert len(sent) == 2 and same[0] == same[1]


@pytest.mark.parametrize("language", ["en", "sv", "id"])
def test_a_lost_answer_is_sent_again_and_the_minute_is_added_once(
        chromium, live_server, artifacts, language):
    tid, _auth = _event(live_server)
    before = _clock(live_server, tid)
    phone = director_page(chromium, live_server, 390, 844)
    phone.goto(f"{live_server.url}/director/{tid}/phone")
    if language != "en":
        phone.click(f".language-switch a[hreflang={language}]")
        phone.wait_for_selector(f'html[lang="{language}"]')
    expect(phone.locator("#btn-resume")).to_be_visible()

    keys: list[str] = []
    lose = {"answers": 2}         # the server applies the first; its answer and the next are lost

    def on_the_wifi(route: Any) -> None:
        keys.append(route.request.post_data_json["idempotency_key"])
        if lose["answers"]:
            lose["answers"] -= 1
            route.fetch()                       # the server has it ...
            route.abort("connectionreset")      # ... and the phone never hears back
            return
        route.continue_()

    phone.route(re.compile(r".*/clock/adjust$"), on_the_wifi)
    phone.click("button[data-adjust='60']")
    expect(phone.locator("#control-error")).to_have_text(SENDING_AGAIN[language])
    plus = phone.locator("button[data-adjust='60']")
    expect(plus).to_be_disabled()                # its click is on its way: not taken again
    assert float(plus.evaluate("b => getComputedStyle(b).opacity")) < 0.75   # and looks it
    shown = phone.evaluate(CHECK)               # the message fits the phone, over nothing
    assert not shown["overlaps"] and shown["width"] <= shown["inner"], shown
    phone.screenshot(path=str(artifacts / f"phone-sending-again-{language}.png"))
    expect(phone.locator("#control-error")).to_be_hidden(timeout=15_000)   # answered at last
    expect(plus).to_be_enabled()

    assert len(keys) == 3 and len(set(keys)) == 1, keys       # one click, sent three times
    after = _clock(live_server, tid)
    assert after["seconds_remaining"] == pytest.approx(before["seconds_remaining"] + 60, abs=2)
    assert after["version"] == before["version"] + 1            # applied once
    expect(phone.locator("#panel-time")).to_have_text(
        re.compile(r"^1[01]:[0-5]\d$"))                        # about 10:59 + 1:00 shown


def test_a_second_tap_on_next_level_while_the_first_is_on_its_way_is_not_taken(
        chromium, live_server):
    tid, _auth = _event(live_server)
    director = director_page(chromium, live_server, 1366, 768)
    director.goto(f"{live_server.url}/director/{tid}")
    expect(director.locator("#btn-resume")).to_be_visible()
    sent: list[str] = []
    director.on("request", lambda request: sent.append(request.url)
                if request.url.endswith("/clock/next") else None)
    # two taps in one turn of the page's loop: the first request is surely on its way
    director.locator("button[data-control='next']").evaluate("b => { b.click(); b.click(); }")
    expect(director.locator("#panel-level")).to_have_text("Blinds 50/100", timeout=15_000)
    director.wait_for_timeout(500)
    assert len(sent) == 1
    assert _clock(live_server, tid)["level_index"] == 1
    # once answered, the next tap is a new change
    director.click("button[data-control='next']")
    expect(director.locator("#panel-level")).to_have_text("Blinds 75/150", timeout=15_000)
    assert _clock(live_server, tid)["level_index"] == 2


def test_a_double_click_on_next_level_answered_at_once_moves_one_level(chromium, live_server):
    """On a fast network the first click's answer is drawn before a double click's second
    click: Next level waits a moment (600 ms) before it takes a click again."""
    tid, _auth = _event(live_server)
    director = director_page(chromium, live_server, 1366, 768)
    director.clock.install()                      # the page's time, moved by the test
    director.goto(f"{live_server.url}/director/{tid}")
    expect(director.locator("#btn-resume")).to_be_visible()
    button = director.locator("button[data-control='next']")
    box = button.bounding_box()
    assert box is not None
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    director.mouse.click(*middle)
    expect(director.locator("#panel-level")).to_have_text("Blinds 50/100", timeout=15_000)
    director.mouse.click(*middle)                 # the double click's second click
    expect(button).to_be_disabled()
    director.wait_for_timeout(500)                # (real time: a request would have come back)
    assert _clock(live_server, tid)["level_index"] == 1
    director.clock.run_for(700)
    expect(button).to_be_enabled()
    director.mouse.click(*middle)                 # a click of its own
    expect(director.locator("#panel-level")).to_have_text("Blinds 75/150", timeout=15_000)
    assert _clock(live_server, tid)["level_index"] == 2


@pytest.mark.parametrize("language", ["en", "sv", "id"])
def test_hand_finished_double_clicked_on_the_seating_page_counts_one_hand(
        chromium, live_server, artifacts, language):
    """The bubble: hand-for-hand is on, the director clicks "Hand finished at every
    table" and, its answer slow on the Wi-Fi, clicks again.  Both reach the server with
    the form's one key: one hand is counted and its seconds come off once, and the page
    says "Done already" in the director's language (before, the second click was refused
    with the page of errors, the round not being over).  Nothing overlaps."""
    from tests.browser.conftest import drawn_event

    tid = drawn_event(live_server, [f"Player {n}" for n in range(1, 13)],
                      hand_for_hand_seconds=120)
    api = f"{live_server.url}/api/tournaments/{tid}"
    auth = {"Authorization": f"Bearer {live_server.token}"}
    for path, body in (("clock/start", None), ("seating/hand-for-hand", {"action": "start"})):
        assert requests.post(f"{api}/{path}", headers=auth, json=body, timeout=5).ok
    before = _clock(live_server, tid)["seconds_remaining"]
    page = director_page(chromium, live_server, 1366, 768)
    double_clicked_with_the_first_answer_slow(page, f"{live_server.url}/director/{tid}/seating",
                                              "#h4h-finish", r".*/seating/hand-for-hand$",
                                              language, HAND_FINISHED_ONCE)
    state = requests.get(f"{api}/seating", headers=auth, timeout=5).json()
    assert state["hand_for_hand"]["hands_played"] == 1
    after = _clock(live_server, tid)["seconds_remaining"]
    assert round(before - after) == 120, (before, after)
    shown = page.evaluate(CHECK)
    assert not shown["overlaps"] and shown["width"] <= shown["inner"], shown
    page.screenshot(path=str(artifacts / f"seating-h4h-double-{language}.png"))


@pytest.mark.parametrize("language", ["en", "sv", "id"])
def test_save_and_pay_double_clicked_pays_the_deal_once_and_says_done_already(
        chromium, live_server, artifacts, language):
    """Three players left agree a chip chop; the director clicks *Save and pay* and, its
    answer slow, clicks again.  The browser shows the second click's answer: it says
    "Done already" on the results (before: the deal page refused it, "the event is
    finished", which reads as if the deal had failed).  Each player is paid once."""
    from tests.browser.conftest import drawn_event

    tid = drawn_event(live_server, ["Ann", "Bo", "Cia", "Dan", "Eve"])
    api = f"{live_server.url}/api/tournaments/{tid}"
    auth = {"Authorization": f"Bearer {live_server.token}"}
    assert requests.post(f"{api}/clock/start", headers=auth, timeout=5).ok
    seating = requests.get(f"{api}/seating", headers=auth, timeout=5).json()
    ids = sorted(p["id"] for p in seating["players"])
    for out in ids[3:]:
        assert requests.post(f"{api}/seating/eliminate", headers=auth, timeout=5,
                             json={"player_id": out}).ok
    # the director's laptop, a tablet, and a phone at the final table (the deal's table
    # of amounts and its method's long names ran 120 px past a phone's screen)
    width, height = {"en": (390, 844), "sv": (1366, 768), "id": (768, 1024)}[language]
    page = director_page(chromium, live_server, width, height)
    stacks = "&".join(f"stack_{pid}={chips}"
                      for pid, chips in zip(ids[:3], (25_000, 15_000, 10_000), strict=True))
    deal = f"{live_server.url}/director/{tid}/deal?method=chip-chop&{stacks}"
    page.goto(deal)
    fits = page.evaluate(CHECK)
    assert not fits["overlaps"] and fits["width"] <= fits["inner"], fits
    double_clicked_with_the_first_answer_slow(page, deal, "#save-deal",
                                              rf".*/director/{tid}/deal(\?.*)?$", language,
                                              DEAL_PAID_ONCE)
    assert requests.get(f"{api}/clock", timeout=5).json()["status"] == "finished"
    results = requests.get(f"{api}/results", headers=auth, timeout=5).json()["results"]
    paid = sorted(r["prize"] for r in results if r["prize"])
    assert len(paid) == 3 and sum(paid) == 500_00, results     # five buy-ins of 100, once
    shown = page.evaluate(CHECK)
    assert not shown["overlaps"] and shown["width"] <= shown["inner"], shown
    page.screenshot(path=str(artifacts / f"deal-double-{language}-{width}.png"))


SEATS_DRAWN_ONCE = {"en": "Done already: the seats are drawn, once",
                    "sv": "Redan gjort: platserna är lottade, en gång",
                    "id": "Sudah dilakukan: kursi sudah diundi, sekali"}
CREATED = {"en": "Created “{}”", "sv": "Skapade ”{}”", "id": "“{}” dibuat"}


@pytest.mark.parametrize("language", ["en", "sv", "id"])
def test_draw_seats_double_clicked_draws_once_and_says_done_already(
        chromium, live_server, artifacts, language):
    """Its answer slow, the director clicks *Draw seats* again: one draw, and the page
    says so (before, the second click's page said "Seats are already drawn" or "someone
    else changed the seating at the same moment", in red, after its own draw)."""
    from tests.browser.conftest import drawn_event

    tid = drawn_event(live_server, [f"Player {n}" for n in range(1, 13)], draw=False)
    width, height = {"en": (1366, 768), "sv": (390, 844), "id": (1024, 768)}[language]
    page = director_page(chromium, live_server, width, height)
    double_clicked_with_the_first_answer_slow(page, f"{live_server.url}/director/{tid}/seating",
                                              "#draw-seats", r".*/seating/draw$", language,
                                              SEATS_DRAWN_ONCE)
    auth = {"Authorization": f"Bearer {live_server.token}"}
    seating = requests.get(f"{live_server.url}/api/tournaments/{tid}/seating", headers=auth,
                           timeout=5).json()
    assert len(seating["tables"]) == 2
    assert sum(1 for player in seating["players"] if player["seat"]) == 12
    expect(page.locator("[role=alert]")).to_have_count(0)
    shown = page.evaluate(CHECK)
    assert not shown["overlaps"] and shown["width"] <= shown["inner"], shown
    page.screenshot(path=str(artifacts / f"seating-draw-double-{language}.png"))


@pytest.mark.parametrize("language", ["en", "sv", "id"])
def test_create_double_clicked_makes_one_event(chromium, live_server, artifacts, language):
    """The *New tournament* form, its answer slow, clicked again: one event (before, two
    of the same name), and the page shows it."""
    width, height = {"en": (390, 844), "sv": (1366, 768), "id": (768, 1024)}[language]
    page = director_page(chromium, live_server, width, height)
    name = f"Double Click Cup {language}"
    double_clicked_with_the_first_answer_slow(
        page, f"{live_server.url}/director/new", "form[action='/director/new'] button.primary",
        r".*/director/new$", language, {language: CREATED[language].format(name)},
        fill=lambda form: form.fill("#name", name))
    made = requests.get(f"{live_server.url}/api/tournaments", timeout=5).json()["tournaments"]
    assert [event["name"] for event in made].count(name) == 1
    expect(page.locator("h1, h2").filter(has_text=name).first).to_be_visible()
    shown = page.evaluate(CHECK)
    assert not shown["overlaps"] and shown["width"] <= shown["inner"], shown
    page.screenshot(path=str(artifacts / f"new-event-double-{language}.png"))
