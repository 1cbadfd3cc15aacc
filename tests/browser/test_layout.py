"""Issue 15: every screen people look at fits its screen, in English, Indonesian and Swedish.

A real Chromium page loads each screen at the sizes it is shown on, with the
longest content (a mixed event whose level is "Seven-card stud hi/lo", stakes
and a prize pool in the millions, player names of 30 characters), and checks
what a person would see:

- the page is no wider than the window (no sideways scrolling);
- no two pieces of visible text in different elements overlap: the client
  rects of every visible text node are collected, and for each pair from two
  different elements the shared area may be at most a fifth of the smaller box.

A screenshot of each combination is kept in ``tests/artifacts/layout/``.
One server for the module (its events built once per run), one browser context per
language.
"""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import (
    ARTIFACTS,
    Server,
    copy_database,
    made_once,
    start_server,
    stop_server,
)

pytestmark = [pytest.mark.browser]

LANGUAGES = ("en", "id", "sv")
PROJECTOR = ((1920, 1080), (1280, 720), (1024, 768))
PHONE = ((390, 844), (360, 740))
TABLET = ((1024, 768), (768, 1024))
DESK = ((1366, 768),)

SCREENS: dict[str, tuple[tuple[int, int], ...]] = {
    "clock-level": PROJECTOR,
    "clock-break": PROJECTOR,
    "clock-finished": PROJECTOR,
    "phone-clock": PHONE,
    "find-my-seat": PHONE,
    "draw": PROJECTOR,
    "director-seating": DESK + PHONE,              # a 2-digit table's header on a phone
    "director-seating-search": DESK,     # one table's players, the pagers' links
    "director-money": DESK + ((360, 740),),      # the settings on a phone too
    "director-desk": DESK + PHONE,               # its long Swedish title on a phone
    "director-results": DESK + PHONE,            # the prizes to pay, on a phone
    "director-tournaments": DESK + PHONE,        # the events and their actions, on a phone
    "director-house-summary": DESK + PHONE,      # its table of sales on a phone
    "director-dealers": DESK + ((360, 740),),    # a table's pairing locked: the notice, Reset
    "director-backups": DESK + ((360, 740),),    # the backups, their total and the rule
    "director-event": DESK + PHONE,              # the event's page: clock controls, structure, import
    "pair-form": TABLET + PHONE,                 # the pairing form: the table and its code
    # last: pairing a tablet turns the context's session into the table's (no director)
    "dealer-idle": TABLET,
    "dealer-hand": TABLET,
}

FIRST = ("Alexandra", "Maximilian", "Christoffer", "Gabriella", "Bartholomew",
         "Evangelina", "Konstantinos", "Wilhelmina", "Sebastianus", "Margaretha")
LAST = ("Vandenberg-Lindqvist", "Oksanen-Abernathy", "Papadopoulos-Berg",
        "Hadiwijaya-Sørensen", "Kusumawardhani", "Montgomery-Ekström",
        "Wijayakusuma-Holm", "Fitzgerald-Nyberg", "Setiabudi-Lundgren", "Castellanos-Ek")


def names(count: int) -> list[str]:
    """``count`` different player names of exactly 30 characters."""
    out = []
    for i in range(count):
        base = f"{FIRST[i % 10]} {LAST[(i // 10 + i) % 10]}"
        out.append((base + " " + "Abcdefghijklmnopqrstuvwxyz")[:29].rstrip() + chr(65 + i % 26))
    return [name.ljust(30, "x")[:30] for name in out]


MIXED = [
    {"kind": "level", "game": "F7S/8", "duration_seconds": 4800, "ante": 100_000,
     "bring_in": 200_000, "small_bet": 800_000, "big_bet": 1_600_000},
    {"kind": "level", "game": "PO/8", "duration_seconds": 4800, "small_blind": 400_000,
     "big_blind": 800_000, "ante": 800_000, "big_blind_ante": True},
    {"kind": "break", "duration_seconds": 1200,
     "note": "Colour-up: remove the T25 000 chips, chip race at every table"},
    {"kind": "level", "game": "FO/8", "duration_seconds": 4800, "small_blind": 500_000,
     "big_blind": 1_000_000, "small_bet": 1_000_000, "big_bet": 2_000_000},
    {"kind": "level", "game": "F7S/8", "duration_seconds": 4800, "ante": 250_000,
     "bring_in": 500_000, "small_bet": 2_000_000, "big_bet": 4_000_000},
]
MONEY = {"currency": "EUR", "buy_in": "25000", "fee": "2500", "starting_stack": 5_000_000,
         "late_registration_level": 4, "re_entry": True, "rebuy": True, "rebuy_price": "25000",
         "rebuy_chips": 5_000_000, "rebuy_until": 4, "add_on": True, "add_on_price": "25000",
         "add_on_chips": 5_000_000, "add_on_break": 2, "payout_template": "standard"}


def call(server: Server, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.url + path, data=data, method=method, headers={
        "Authorization": f"Bearer {server.token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{method} {path}: {error.code} {error.read()[:400]!r}") from None


def event(server: Server, name: str, players: int, table_size: int = 8) -> int:
    tid = int(call(server, "POST", "/api/tournaments", {"name": name, "levels": MIXED})["id"])
    call(server, "POST", f"/api/tournaments/{tid}/money/settings", MONEY)
    call(server, "POST", f"/api/tournaments/{tid}/seating/settings", {"table_size": table_size})
    for player in names(players):
        call(server, "POST", f"/api/tournaments/{tid}/seating/players", {"name": player})
    call(server, "POST", f"/api/tournaments/{tid}/seating/draw", {})
    return tid


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The four events, on a server of this test process's own.  They are built once
    per run (150 registrations, about 10 s) by the first test process that gets here;
    the others wait for it and start their server on a copy of its database."""
    built = made_once(tmp_path_factory, "layout-world", build_world)
    folder = tmp_path_factory.mktemp("layout")
    (folder / "instance").mkdir()
    copy_database(built / "instance" / "director.sqlite", folder / "instance" / "director.sqlite")
    server = start_server(folder)
    try:
        yield {**json.loads((built / "world.json").read_text()), "server": server}
    finally:
        stop_server(server)


def lock_table_2(server: Server, tid: int, folder: Path) -> None:
    """Five wrong codes for table 2 lock its pairing (the Dealer tablets page's notice).
    Made before the dealer event's tables have codes: a guess at "table 2" counts against
    every table 2 that has one.  This address's own lock is taken back, so that the
    browser can still pair the dealer event's tablets."""
    code = call(server, "GET", f"/api/tournaments/{tid}/dealer/pairing")["tables"][1]["code"]
    wrong = "000000" if code != "000000" else "111111"
    for _ in range(5):
        request = urllib.request.Request(
            server.url + "/api/dealer/pair", method="POST", headers={
                "Content-Type": "application/json"},
            data=json.dumps({"table": 2, "code": wrong}).encode())
        try:
            urllib.request.urlopen(request, timeout=20).close()
        except urllib.error.HTTPError as error:
            assert error.code in (400, 429), error.code
    with sqlite3.connect(folder / "instance" / "director.sqlite") as database:
        database.execute("DELETE FROM guess_lock WHERE scope = 'pairing'")
        database.execute("DELETE FROM guess_failure WHERE scope = 'pairing'")
    database.close()


def build_world(folder: Path) -> None:
    """Build the events on a server in ``folder``; their ids and pairing codes go to
    ``folder/world.json``."""
    server = start_server(folder)
    try:
        big = event(server, "Friday Night Mixed Omaha/Stud Championship", 100)
        call(server, "POST", f"/api/tournaments/{big}/clock/start")
        call(server, "POST", f"/api/tournaments/{big}/announcement", {"text": "Dinner break "  # issue 17
             "after level 8 at the Grand Ballroom: the final table plays on table 1 with TV cards"})
        on_break = event(server, "Saturday Mixed Omaha/Stud Deepstack Event", 12)
        for control in ("start", "next", "next"):
            call(server, "POST", f"/api/tournaments/{on_break}/clock/{control}")
        lock_table_2(server, on_break, folder)
        done = event(server, "Sunday Mixed Omaha/Stud High Roller Final", 12)
        call(server, "POST", f"/api/tournaments/{done}/money/settings",
             {**MONEY, "late_registration_level": 1, "payout_template": "custom",
              "custom_payouts": "40, 25, 15, 10, 6, 4"})
        for control in ("start", "next"):
            call(server, "POST", f"/api/tournaments/{done}/clock/{control}")
        for _ in range(11):
            tables = call(server, "GET", f"/api/tournaments/{done}/seating")["tables"]
            seated = [s["player_id"] for t in tables for s in t["seats"]]
            answer = call(server, "POST", f"/api/tournaments/{done}/seating/eliminate",
                          {"player_ids": [seated[-1]]})
            if answer.get("pending_plan"):
                call(server, "POST", f"/api/tournaments/{done}/seating/plans/"
                                     f"{answer['pending_plan']['id']}/confirm")
        dealer = event(server, "Dealer Mixed Omaha/Stud", 12, table_size=6)
        call(server, "POST", f"/api/tournaments/{dealer}/clock/start")
        call(server, "POST", f"/api/tournaments/{dealer}/clock/next")      # PO/8, blinds
        pairing = call(server, "GET", f"/api/tournaments/{dealer}/dealer/pairing")["tables"]
        call(server, "POST", f"/api/tables/{pairing[1]['table_id']}/hands", {})
        (folder / "world.json").write_text(json.dumps({
            "big": big, "break": on_break, "done": done,
            "idle_code": pairing[0]["code"], "hand_code": pairing[1]["code"],
            "idle_table": pairing[0]["number"], "hand_table": pairing[1]["number"]}))
    finally:
        stop_server(server)


@pytest.fixture(scope="module")
def pages(chromium: Any, world: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """One context per language, logged in as the director, and its page."""
    server = world["server"]
    contexts, out = [], {}
    for code in LANGUAGES:
        context = chromium.new_context(viewport={"width": 1366, "height": 768})
        contexts.append(context)
        page = context.new_page()
        page.goto(f"{server.url}/login")
        page.fill("#token", server.token)
        page.click("form button[type=submit]")
        # the page after the login writes the session too: let it finish first
        page.wait_for_url("**/director/**", wait_until="load")
        for _ in range(5):      # a late response of the login may still write the session
            page.goto(f"{server.url}/language/{code}?next=/")
            if page.locator("html").get_attribute("lang") == code:
                break
            page.wait_for_timeout(200)
        assert page.locator("html").get_attribute("lang") == code
        out[code] = page
    yield out
    for context in contexts:
        context.close()


def url_of(screen: str, world: dict[str, Any], page: Any) -> str:
    base = world["server"].url
    if screen.startswith("dealer-"):
        which = "idle" if screen == "dealer-idle" else "hand"
        page.goto(f"{base}/dealer/?table={world[which + '_table']}&code={world[which + '_code']}")
        page.click(".pair-form button[type=submit]")
        page.wait_for_url("**/dealer/table/*")
        return ""
    return {
        "clock-level": f"/clock/{world['big']}",
        "clock-break": f"/clock/{world['break']}",
        "clock-finished": f"/clock/{world['done']}",
        "phone-clock": f"/clock/{world['big']}",
        "find-my-seat": f"/seats/{world['big']}?q=berg",
        "draw": f"/seats/{world['big']}/draw",
        "director-seating": f"/director/{world['big']}/seating",
        "director-seating-search": f"/director/{world['big']}/seating?q=1#players",
        "director-money": f"/director/{world['big']}/money",
        "director-desk": f"/director/{world['big']}/desk",
        "director-results": f"/results/{world['done']}",
        "director-tournaments": "/director/",
        "director-house-summary": f"/director/{world['big']}/money/summary",
        "director-dealers": f"/director/{world['break']}/dealers",
        "director-backups": "/director/backups",
        "director-event": f"/director/{world['big']}",
        "pair-form": "/dealer/?table=12&code=123456",
    }[screen]


# Runs in the page: the page's width, and every pair of overlapping text boxes.
CHECK = """() => {
  const boxes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const shown = (el) => {
    // checkVisibility also sees the content of a closed <details> (content-visibility: hidden)
    if (el.checkVisibility && !el.checkVisibility({opacityProperty: true, visibilityProperty: true,
                                                   contentVisibilityAuto: true})) return false;
    for (let e = el; e; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.display === "none" || parseFloat(style.opacity) === 0) return false;
    }
    return getComputedStyle(el).visibility !== "hidden";
  };
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || el.closest("script, style, template, noscript")) continue;
    if (!shown(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    // what shows of the text: its rects cut by every ancestor that clips (overflow: hidden,
    // an ellipsis), as a person sees it
    const clips = [];
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.overflowX !== "visible" || style.overflowY !== "visible") clips.push(e.getBoundingClientRect());
    }
    // an SVG text drawn to a length (the chart's long names: textLength) is where the
    // element's box is, not where its glyphs would be at their natural width
    const drawn = el instanceof SVGTextContentElement && el.hasAttribute("textLength")
      ? [el.getBoundingClientRect()] : range.getClientRects();
    for (const r of drawn) {
      let left = r.left, top = r.top, right = r.right, bottom = r.bottom;
      for (const c of clips) {
        left = Math.max(left, c.left); top = Math.max(top, c.top);
        right = Math.min(right, c.right); bottom = Math.min(bottom, c.bottom);
      }
      if (right - left < 1 || bottom - top < 1) continue;
      boxes.push({el, text: node.textContent.trim().slice(0, 40),
                  x: left + scrollX, y: top + scrollY, w: right - left, h: bottom - top});
    }
  }
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.el === b.el) continue;
      const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
      if (w <= 0 || h <= 0) continue;
      if (w * h > Math.min(a.w * a.h, b.w * b.h) / 5) overlaps.push([a.text, b.text]);
    }
  }
  // what runs past the window's right edge, outside any scrolling box: the culprits named
  const past = [];
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > innerWidth + 1 && !el.parentElement.closest(".table-scroll, [style*=overflow]")
        && getComputedStyle(el.parentElement).overflowX === "visible") {
      past.push(`${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${el.className && typeof el.className === "string" ? "." + el.className.split(" ").join(".") : ""}${el.getAttribute("name") ? "[name=" + el.getAttribute("name") + "]" : ""} ${Math.round(r.right)} px`);
    }
  }
  // a title's word cut in two across lines ("Registreringsdiske" / "n"): each word of a
  // shown h1 or h2 (split where a line may break: spaces, hyphens, dashes, slashes) laid
  // on one line
  const broken = [];
  for (const heading of document.body.querySelectorAll("h1, h2")) {
    if (!shown(heading)) continue;
    const texts = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      for (const word of node.textContent.matchAll(/[^\\s\\-\\u2010-\\u2014\\/·]+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width >= 1)
                               .map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(word[0]);
      }
    }
  }
  return {width: document.documentElement.scrollWidth, inner: window.innerWidth,
          texts: boxes.length, overlaps: overlaps.slice(0, 10), past: past.slice(0, 8),
          broken: broken.slice(0, 8)};
}"""

CASES = [pytest.param(screen, size, code, id=f"{screen}-{size[0]}x{size[1]}-{code}")
         for screen, sizes in SCREENS.items() for size in sizes for code in LANGUAGES]


@pytest.mark.parametrize(("screen", "size", "code"), CASES)
def test_the_screen_fits_and_no_text_overlaps(screen: str, size: tuple[int, int], code: str,
                                              world: dict[str, Any], pages: dict[str, Any]) -> None:
    page = pages[code]
    page.set_viewport_size({"width": size[0], "height": size[1]})
    path = url_of(screen, world, page)
    if path:
        response = page.goto(world["server"].url + path)
        assert response is not None and response.ok, f"{path}: {response and response.status}"
        assert "/login" not in page.url, f"{path}: the director is not logged in"
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)      # the live state is rendered, the payouts paged
    folder = ARTIFACTS / "layout"
    folder.mkdir(parents=True, exist_ok=True)
    shot = folder / f"{screen}-{size[0]}x{size[1]}-{code}.png"
    page.screenshot(path=str(shot), full_page=screen in ("phone-clock", "find-my-seat",
                                                          "director-seating-search"))
    result = page.evaluate(CHECK)
    assert result["texts"] > 3, result
    assert result["width"] <= result["inner"], (
        f"{screen} is {result['width']} px wide in a {result['inner']} px window: "
        f"{result['past']} ({shot})")
    assert not result["overlaps"], f"text drawn over text on {screen} ({shot}): {result['overlaps']}"
    assert not result["broken"], f"a title's word cut in two on {screen} ({shot}): {result['broken']}"


def test_artifacts_folder() -> None:
    assert isinstance(ARTIFACTS, Path)
