"""Issue 30 as a person sees it: the pages of an event's end (the deal with its places and
the bounties on the heads, the log with its tournament and local times, the sign-in sheet,
the receipt), the director's phone controls and the structure table, each at the sizes it is
used at and in English, Indonesian and Swedish, checked for sideways scrolling and text drawn
over text (``test_layout.CHECK``); and the screens asking to stay awake."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.browser.conftest import ARTIFACTS, Server, director_page, start_server, stop_server
from tests.browser.test_layout import CHECK, MIXED, names

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LANGUAGES = ("en", "id", "sv")
LAPTOP = ((1366, 768), (1024, 768))
PHONE = ((390, 844), (360, 740))
PROJECTOR = ((1920, 1080), (1280, 720))


def call(server: Server, method: str, path: str, **body: Any) -> Any:
    answer = requests.request(method, server.url + path, json=body if body else None,
                              timeout=20, headers={"Authorization": f"Bearer {server.token}"})
    assert answer.status_code < 400, (path, answer.status_code, answer.text[:300])
    return answer.json() if answer.content else None


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A PKO final table of three (names of 30 characters), its log and its ledger."""
    server = start_server(tmp_path_factory.mktemp("event-end"))
    try:
        tid = int(call(server, "POST", "/api/tournaments",
                       name="Friday Night Mixed Omaha/Stud Championship", levels=MIXED)["id"])
        call(server, "POST", f"/api/tournaments/{tid}/money/settings", currency="EUR",
             buy_in="250", fee="25", starting_stack=5_000_000, late_registration_level=1,
             bounty_kind="pko", bounty="100", payout_template="custom",
             custom_payouts="50, 30, 20")
        call(server, "POST", f"/api/tournaments/{tid}/seating/settings", table_size=8)
        ids = [call(server, "POST", f"/api/tournaments/{tid}/money/entries", kind="buy-in",
                    name=name)["player_id"] for name in names(12)]
        call(server, "POST", f"/api/tournaments/{tid}/seating/draw")
        call(server, "POST", f"/api/tournaments/{tid}/clock/start")
        call(server, "POST", f"/api/tournaments/{tid}/clock/next")
        for out in ids[3:]:
            answer = call(server, "POST", f"/api/tournaments/{tid}/seating/eliminate",
                          player_ids=[out], by=[ids[0], ids[1]] if out == ids[3] else ids[0])
            if answer.get("pending_plan"):
                call(server, "POST", f"/api/tournaments/{tid}/seating/plans/"
                                     f"{answer['pending_plan']['id']}/confirm")
        ledger = call(server, "GET", f"/api/tournaments/{tid}/money")["ledger"]
        yield {"server": server, "id": tid, "ids": ids,
               "payment": next(p["id"] for p in ledger if p["kind"] == "buy-in")}
    finally:
        stop_server(server)


@pytest.fixture(scope="module")
def pages(chromium: Any, world: dict[str, Any]) -> Iterator[dict[str, Any]]:
    server, out = world["server"], {}
    for code in LANGUAGES:
        page = director_page(chromium, server, 1366, 768)
        page.wait_for_url("**/director/**", wait_until="load")
        for _ in range(5):
            page.goto(f"{server.url}/language/{code}?next=/")
            if page.locator("html").get_attribute("lang") == code:
                break
            page.wait_for_timeout(200)
        out[code] = page
    yield out
    for page in out.values():
        page.context.close()


def deal_path(world: dict[str, Any]) -> str:
    stacks = "&".join(f"stack_{pid}={chips}" for pid, chips in zip(
        world["ids"][:3], (24_000_000, 24_000_000, 12_000_000), strict=True))
    return f"/director/{world['id']}/deal?method=icm&{stacks}"


SCREENS: dict[str, tuple[Any, tuple[tuple[int, int], ...]]] = {
    "deal": (deal_path, LAPTOP),
    "log": (lambda w: "/director/log", LAPTOP),
    "sign-in": (lambda w: f"/director/{w['id']}/seating/sign-in", LAPTOP),
    "receipt": (lambda w: f"/director/{w['id']}/money/receipts/{w['payment']}",
                LAPTOP + PHONE),
    "phone": (lambda w: f"/director/{w['id']}/phone", PHONE),
    "tournament": (lambda w: f"/director/{w['id']}", LAPTOP),
    "projector": (lambda w: f"/clock/{w['id']}", PROJECTOR),
}
CASES = [pytest.param(screen, size, code, id=f"{screen}-{size[0]}x{size[1]}-{code}")
         for screen, (_path, sizes) in SCREENS.items() for size in sizes for code in LANGUAGES]


@pytest.mark.parametrize(("screen", "size", "code"), CASES)
def test_the_page_fits_its_screen_and_no_text_overlaps(screen: str, size: tuple[int, int],
                                                      code: str, world: dict[str, Any],
                                                      pages: dict[str, Any]) -> None:
    page = pages[code]
    page.set_viewport_size({"width": size[0], "height": size[1]})
    path = SCREENS[screen][0](world)
    response = page.goto(world["server"].url + path)
    assert response is not None and response.ok, (path, response and response.status)
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)
    folder = ARTIFACTS / "event-end"
    folder.mkdir(parents=True, exist_ok=True)
    shot = folder / f"{screen}-{size[0]}x{size[1]}-{code}.png"
    page.screenshot(path=str(shot), full_page=screen != "projector")
    result = page.evaluate(CHECK)
    assert result["texts"] > 3, result
    assert result["width"] <= result["inner"], (
        f"{screen} is {result['width']} px wide in a {result['inner']} px window ({shot})")
    assert not result["overlaps"], f"text drawn over text on {screen} ({shot}): {result['overlaps']}"


def test_the_projector_asks_to_keep_the_screen_awake_and_says_when_refused(
        chromium: Any, world: dict[str, Any]) -> None:
    page = chromium.new_context(viewport={"width": 1280, "height": 720}).new_page()
    page.goto(f"{world['server'].url}/clock/{world['id']}")
    page.wait_for_function("document.documentElement.hasAttribute('data-wake-lock')")
    state = page.locator("html").get_attribute("data-wake-lock")
    note = page.locator(".wake-lock-note")
    assert state in ("on", "refused", "unsupported")
    assert note.is_hidden() == (state == "on")
    if state != "on":
        assert "sleep" in (note.get_attribute("title") or "")
    page.context.close()


def test_the_phone_pauses_the_clock_with_one_tap(chromium: Any, world: dict[str, Any]) -> None:
    page = director_page(chromium, world["server"], 360, 740)
    page.wait_for_url("**/director/**", wait_until="load")
    page.goto(f"{world['server'].url}/director/{world['id']}/phone")
    page.click("#btn-pause")
    page.wait_for_selector("#btn-resume:not([hidden])")
    assert call(world["server"], "GET", f"/api/tournaments/{world['id']}/clock")["running"] is False
    page.click("#btn-resume")
    page.wait_for_selector("#btn-pause:not([hidden])")
    page.context.close()


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_structure_table_fits_a_laptop_and_shows_its_amounts_whole(
        code: str, world: dict[str, Any], pages: dict[str, Any]) -> None:
    page = pages[code]
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{world['server'].url}/director/{world['id']}")
    fit = page.evaluate("""() => {
      const table = document.getElementById("structure-table");
      const box = table.closest(".table-scroll");
      const cut = [...table.querySelectorAll("input.amount, input.duration")]
        .filter(i => i.value && i.scrollWidth > i.clientWidth + 1).map(i => i.value);
      const widths = [...table.tHead.rows[0].cells].map(c => c.textContent.trim() + ":" + Math.round(c.getBoundingClientRect().width));
      return {table: box.scrollWidth, box: box.clientWidth, cut, widths};
    }""")
    assert fit["table"] <= fit["box"], f"the structure table scrolls sideways at 1366 px: {fit}"
    assert not fit["cut"], f"amounts cut off in their boxes: {fit['cut']}"
