"""What a person sees: the director registers 20 players, draws the seats,
eliminates players until a table breaks, confirms the moves, and the seating
chart (the SVG tables) shows every moved player in his new seat."""

from __future__ import annotations

import re

import pytest
import requests

from tests.browser.conftest import director_page, drawn_event

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MOVE = re.compile(r"^(?P<name>.+): table (?P<ft>\d+) seat (?P<fs>\d+) → "
                  r"table (?P<tt>\d+) seat (?P<ts>\d+)")


def seat_names(page, table: int) -> dict[int, str]:
    """Seat number -> the name written on that seat of the table's SVG."""
    names = {}
    seats = page.locator(f'svg[data-table="{table}"] g.seat')
    for i in range(seats.count()):
        seat = seats.nth(i)
        label = seat.locator("text.name")
        if label.count():
            number = int(seat.locator("text.seat-no").text_content())
            names[number] = label.evaluate("e => e.lastChild.textContent").strip()
    return names


def test_director_seats_20_players_busts_until_a_table_breaks_and_confirms(
        chromium, live_server, artifacts):
    auth = {"Authorization": f"Bearer {live_server.token}"}
    created = requests.post(f"{live_server.url}/api/tournaments", headers=auth, timeout=10, json={
        "name": "Seating PLO", "levels": [{"kind": "level", "game": "PO",
                                           "duration_seconds": 1200,
                                           "small_blind": 25, "big_blind": 50}]})
    assert created.status_code == 201
    tid = created.json()["id"]
    money = requests.post(f"{live_server.url}/api/tournaments/{tid}/money/settings", headers=auth,
                          timeout=10, json={"buy_in": 100, "starting_stack": 10_000})
    assert money.status_code == 200, money.text

    page = director_page(chromium, live_server, 1400, 1000)
    page.goto(f"{live_server.url}/director/{tid}")
    page.click("#seating-link")
    page.wait_for_selector("h1:has-text('Seating')")

    # Tables break from the highest number; only the final table is a redraw (the default).
    # 1. register 20 players
    for i in range(1, 21):
        page.fill("#reg-name", f"Player {i:02d}")
        page.click("#register-player")
        page.wait_for_selector(f"text=Player {i:02d} is registered")
    assert page.locator("#draw-seats").inner_text() == "Draw seats for 20 players"

    # 2. draw the seats: three oval tables with 20 names between them
    page.click("#draw-seats")
    page.wait_for_selector("svg.table-chart")
    assert page.locator("svg.table-chart").count() == 3
    drawn = {n: seat_names(page, n) for n in (1, 2, 3)}
    assert sorted(len(seats) for seats in drawn.values()) == [6, 7, 7]
    assert sorted(name for seats in drawn.values() for name in seats.values()) == \
        [f"Player {i:02d}" for i in range(1, 21)]
    for marker in ("D", "SB", "BB"):
        assert page.locator(f'svg[data-table="1"] g.marker text:text-is("{marker}")').count() == 1

    # 3. eliminate players until a table breaks (confirming any balance move on the way)
    moves: list[re.Match[str]] = []
    for _ in range(12):
        if page.locator("#confirm-plan").count():
            note = page.locator("#pending .plan-note").inner_text()
            lines = page.locator("#pending-moves li").all_inner_texts()
            if note.startswith("Break table"):
                moves = [m for m in (MOVE.match(line) for line in lines) if m]
                assert moves and {m["ft"] for m in moves} == {"3"}
                break
            page.click("#confirm-plan")
            page.wait_for_selector("text=Confirmed:")
            continue
        page.locator("#player-table tbody input[type=checkbox]").first.check()
        page.click("#eliminate-button")
        page.wait_for_selector("text=Eliminated (place")
    assert moves, "no table broke"
    left = int(page.locator("#players-left").inner_text())
    assert left == 18
    page.screenshot(path=str(artifacts / "seating-break-proposed.png"), full_page=True)
    # Nothing has moved yet: table 3 is still on the chart with its players.
    assert {m["name"] for m in moves} == set(seat_names(page, 3).values())

    # The projector shows the draw alphabetically by name, and follows the confirmation live.
    projector = page.context.new_page()
    projector.goto(f"{live_server.url}/seats/{tid}/draw")
    listed = projector.locator("#draw-tables li .n").all_inner_texts()
    assert len(listed) == 18 and listed == sorted(listed, key=str.lower)
    projector.wait_for_selector('#draw-screen[data-live="1"]')  # its live stream is open

    # 4. confirm the moves
    page.click("#confirm-plan")
    page.wait_for_selector("text=Confirmed: Break table 3")

    # 5. the chart shows the new seats: every mover at his new table and seat
    assert page.locator('svg[data-table="3"]').count() == 0
    assert page.locator("svg.table-chart").count() == 2
    after = {n: seat_names(page, n) for n in (1, 2)}
    for m in moves:
        assert after[int(m["tt"])][int(m["ts"])] == m["name"], (m.group(0), after)
    assert sum(len(seats) for seats in after.values()) == 18
    assert page.locator("#table-count").inner_text() == "2"
    page.locator("#chart").screenshot(path=str(artifacts / "seating-after-break.png"))
    mover = moves[0]
    line = projector.locator("#draw-tables li", has_text=mover["name"])
    projector.wait_for_function(
        "([name, where]) => [...document.querySelectorAll('#draw-tables li')].some("
        "li => li.querySelector('.n').textContent === name && li.querySelector('.w').textContent === where)",
        arg=[mover["name"], f"{mover['tt']} / {mover['ts']}"], timeout=10_000)
    assert line.locator(".w").inner_text() == f"{mover['tt']} / {mover['ts']}"
    projector.screenshot(path=str(artifacts / "seating-draw-projector.png"))

    # the public page finds a moved player's new seat
    phone = chromium.new_context(viewport={"width": 390, "height": 800}).new_page()
    phone.goto(f"{live_server.url}/seats/{tid}")
    phone.fill("#q", moves[0]["name"])
    phone.wait_for_selector(f"#results li:has-text('{moves[0]['name']}')")
    where = phone.locator("#results li").first.locator(".where").inner_text()
    assert where == f"Table {moves[0]['tt']} · Seat {moves[0]['ts']}"
    phone.screenshot(path=str(artifacts / "seating-find-my-seat.png"))
    page.context.close()


@pytest.mark.parametrize("width,height", [(1366, 768), (390, 844)])
def test_a_long_name_stays_on_its_seats_plate_in_the_chart(chromium, live_server, width, height):
    """Names of up to 14 characters are written whole, and wide letters ran past the
    plate's edge: each is narrowed to its plate (the whole name is the seat's title)."""
    names = ["WWWWWWWWWWWWWW", "Mårten Wåhlmark", "Wahyu Wicaksono", "Ann", "MMMM MMMM MMMM",
             "Bo Öberg"]
    tid = drawn_event(live_server, names)
    page = director_page(chromium, live_server, width, height)
    page.goto(f"{live_server.url}/director/{tid}/seating")
    page.wait_for_selector("svg.table-chart text.name")
    plates = page.evaluate("""() => [...document.querySelectorAll('svg.table-chart g.seat')]
        .filter(g => g.querySelector('text.name')).map(g => {
          const r = g.querySelector('rect').getBBox(), t = g.querySelector('text.name').getBBox();
          return {name: g.querySelector('text.name title').textContent,
                  left: t.x - r.x, right: r.x + r.width - (t.x + t.width)}; })""")
    assert sorted(p["name"] for p in plates) == sorted(names)
    for plate in plates:
        assert plate["left"] >= 0 and plate["right"] >= 0, plate
    short = page.locator("svg.table-chart text.name", has_text="Ann")
    assert short.get_attribute("textLength") is None        # a short name is left as it is


def test_a_halted_tables_header_and_the_places_fit_a_phone_in_every_language(chromium, live_server):
    """A halted table's header ("Meja 7", "ditutup urutan ke-1", "dihentikan", "Tangan
    dibagikan") ran 13 px past a 360 px screen in Indonesian: its button goes to a line
    of its own.  60 players at 10 tables of 6; two busts at one of them halt it (short
    by 2) until its balancing moves are confirmed.  The finishing places' table (its Undo
    buttons) ran 29 px past the screen: it scrolls in its own box, as the players' does."""
    tid = drawn_event(live_server, [f"Player {i:02d}" for i in range(60)], halt_short_by=2)
    auth = {"Authorization": f"Bearer {live_server.token}"}
    api = f"{live_server.url}/api/tournaments/{tid}/seating"
    table = requests.get(f"{api}?table=3", headers=auth, timeout=10).json()["tables"][0]
    # the last big blind's seat empty: the next hand's blinds are affected (TDA 11-D)
    out = sorted(table["seats"], key=lambda seat: seat["seat"] != table["bb_seat"])[:2]
    busted = requests.post(f"{api}/eliminate", headers=auth, timeout=10,
                           json={"player_ids": [seat["player_id"] for seat in out]})
    assert busted.status_code == 200, busted.text
    page = director_page(chromium, live_server, 360, 740)
    for code in ("en", "id", "sv"):
        page.goto(f"{live_server.url}/language/{code}")
        page.goto(f"{live_server.url}/director/{tid}/seating")
        page.locator("#table-10 header").wait_for()
        assert page.locator(".table-card.halted").count() == 1
        past = page.evaluate("""() => [...document.querySelectorAll('.table-card')].filter(card => {
            const edge = card.getBoundingClientRect().right;
            return [...card.querySelectorAll('header *')].some(
                e => e.getBoundingClientRect().right > edge + 0.5); }).map(card => card.id)""")
        assert past == [], (code, past)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, code



SHOWN = """() => { const list = document.getElementById('draw-tables'), box = list.getBoundingClientRect();
    return [...list.children].filter(li => { const r = li.getBoundingClientRect();
        return r.left >= box.left - 1 && r.right <= box.right + 1 && r.bottom <= box.bottom + 1; })
      .map(li => li.querySelector('.n').textContent); }"""


def draw_pages(projector) -> list[list[str]]:
    """The names each page of the projected draw shows whole, page after page (its
    fake clock moved on a page's time each), until it is back at the first."""
    pages = [projector.evaluate(SHOWN)]
    for _ in range(20):
        projector.clock.run_for(12_000)
        shown = projector.evaluate(SHOWN)
        if shown == pages[0]:
            return pages
        pages.append(shown)
    raise AssertionError("the draw's pages never came back to the first")


def test_a_draw_with_more_names_than_the_screen_holds_shows_every_name_page_by_page(
        chromium, live_server, artifacts):
    """The names went on in columns past the screen's right edge, never shown: at
    1920x1080 about 300 of 1,800 names.  Now a page (a screen of columns) at a time,
    its first and last name in the header, and every name on a page."""
    names = [f"Player {i:03d}" for i in range(316)] + [
        "Anna-Karin Öberg-Lindqvist", "Wahyu Wicaksono Setiawan", "Zoë Østergaard", "Ân Nguyễn"]
    tid = drawn_event(live_server, names)
    context = chromium.new_context(viewport={"width": 1920, "height": 1080})
    projector = context.new_page()
    projector.clock.install()
    for code, (width, height) in (("en", (1920, 1080)), ("sv", (1280, 720)), ("id", (1024, 768))):
        projector.set_viewport_size({"width": width, "height": height})
        projector.goto(f"{live_server.url}/language/{code}")
        projector.goto(f"{live_server.url}/seats/{tid}/draw")
        projector.wait_for_selector('#draw-screen[data-live="1"]')
        pages = draw_pages(projector)
        assert sorted({n for shown in pages for n in shown}) == sorted(names), (code, len(pages))
        header = projector.locator(".draw-top").bounding_box()
        assert header["x"] >= 0 and header["x"] + header["width"] <= width, code
        if len(pages) > 1:
            pager = projector.locator("#draw-page")
            word = {"en": "of", "sv": "av", "id": "dari"}[code]
            assert pager.inner_text() == f"1 {word} {len(pages)} · {pages[0][0]} – {pages[0][-1]}"
            box = pager.bounding_box()
            assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height
        else:
            assert projector.locator("#draw-page").is_hidden()
        projector.screenshot(path=str(artifacts / f"seating-draw-pages-{code}-{width}x{height}.png"))
    context.close()


def test_the_projected_draw_keeps_its_page_when_a_hand_ends_and_after_a_late_entry(
        chromium, live_server, artifacts):
    """At a big event a hand finishes somewhere every second or so, and the draw was
    loaded again for each (back on its first page).  A hand that moves chips only leaves
    the page as it is; a late entry loads it again, the new name at his seat, on the
    page it was showing."""
    tid = drawn_event(live_server, [f"Player {i:03d}" for i in range(320)])
    auth = {"Authorization": f"Bearer {live_server.token}"}
    projector = chromium.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    projector.clock.install()
    projector.goto(f"{live_server.url}/seats/{tid}/draw")
    projector.wait_for_selector('#draw-screen[data-live="1"]')
    projector.clock.run_for(12_000)                          # the second page
    assert projector.locator("#draw-page .draw-page-of").inner_text() == "2 of 2"
    projector.evaluate("() => { window.sameLoad = true; }")

    # a hand at table 1: everyone folds to the big blind (chips move, nobody's seat does)
    table = requests.get(f"{live_server.url}/api/tournaments/{tid}/dealer/pairing", headers=auth,
                         timeout=10).json()["tables"][0]["table_id"]
    url = f"{live_server.url}/api/tables/{table}"
    hand = requests.post(f"{url}/hands", headers=auth, json={}, timeout=10).json()
    while not hand["finished"]:
        answer = requests.post(f"{url}/hand/actions", headers=auth, timeout=10, json={
            "seat": hand["to_act"], "action": "fold", "version": hand["version"]})
        assert answer.status_code == 200, answer.text
        hand = answer.json()
    projector.wait_for_timeout(1500)       # the event came, and the 300 ms before a reload passed
    assert projector.evaluate("() => window.sameLoad === true")      # not loaded again

    # a late entry: loaded again with his name, on the page it showed
    answer = requests.post(f"{live_server.url}/api/tournaments/{tid}/seating/players",
                           headers=auth, timeout=10, json={"name": "Player 999 Late"})
    assert answer.status_code == 201, answer.text
    projector.wait_for_function("() => window.sameLoad === undefined && "
                                "document.body.textContent.includes('Player 999 Late')")
    assert projector.locator("#draw-page .draw-page-of").inner_text() == "2 of 2"
    assert "Player 999 Late" in projector.evaluate(SHOWN)           # the last name: page 2
    assert "321 players" in projector.locator(".draw-stats").inner_text()
    projector.screenshot(path=str(artifacts / "seating-draw-after-late-entry.png"))
    # the page keeps its time over the reload: 12 s after it came (1.5 s and more of them
    # before the late entry), the first page again; a late entry every few seconds held
    # the draw on one page when each reload started its 12 s again
    projector.clock.run_for(11_200)
    assert projector.locator("#draw-page .draw-page-of").inner_text() == "1 of 2"
