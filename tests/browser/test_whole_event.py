"""Issue 14's "Done when": a whole mixed event played in the browser by the director.

30 entries at the desk, rebuys and an add-on, the seat draw (stud levels: tables of at
most 8), busts on the seating page that break tables with confirmed plans,
hand-for-hand at the bubble, a deal at three players, then the winner screen on the
projector.  Each numbered behaviour of issue 14 is checked on the way:

1. the buy-in gives the event's stack and a ledger line;
2. the undo of a rebuy restores the stack from before it;
3. the director undoes a mistaken elimination and the player is back;
4. hand-for-hand pauses the clock;
5. stud levels seat tables of at most 8;
6. with 24 players at 4 tables a table breaks (no redraw);
7. the deal refuses stacks that do not add up;
8. the finished event refuses a new buy-in with a sentence;
9. the projector shows the winner.

Every step is clicked where a director would click.  The API only speeds up what
was already done once through the page (the buy-ins after the first three, the busts
between the ones that matter); each such place says so.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import director_page
from tests.browser.test_dealer_browser import call

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAID = 3                      # custom payouts 50/30/20: the bubble is at 4 players left


def test_a_whole_mixed_event_from_the_desk_to_the_winner_screen(chromium, live_server,
                                                                artifacts):
    from playwright.sync_api import expect

    server, url = live_server, live_server.url
    page = director_page(chromium, server, width=1366, height=900)
    page.set_default_timeout(10_000)
    questions: list[str] = []
    page.on("dialog", lambda dialog: (questions.append(dialog.message), dialog.accept()))

    def api(method: str, path: str, body: Any = None) -> Any:
        status, answer = call(server, method, f"/api/tournaments/{tid}{path}", body)
        assert status in (200, 201), (path, answer)
        return answer

    def flash(text: str) -> None:
        expect(page.locator(".flash").first).to_contain_text(text)

    # ---- the event: the mixed template (PLO, limit O8, stud hi/lo), money settings
    page.goto(f"{url}/director/new")
    page.fill("#name", "Mixed Friday")
    page.check("input[name=template][value=mixed]")
    page.click("form[action$=\"/director/new\"] button[type=submit]")
    page.wait_for_url(re.compile(r"/director/\d+$"))
    tid = int(page.url.rsplit("/", 1)[1])
    page.goto(f"{url}/director/{tid}/money")
    for field, value in {"buy_in": "100", "fee": "10", "starting_stack": "20000",
                         "late_registration_level": "4", "rebuy_price": "100",
                         "rebuy_chips": "20000", "rebuy_until": "4", "add_on_price": "100",
                         "add_on_chips": "30000", "add_on_break": "4",
                         "custom_payouts": "50, 30, 20"}.items():
        page.fill(f"#m-{field}", value)
    page.check("#m-rebuy")
    page.check("#m-add_on")
    page.select_option("#m-payout_template", "custom")
    page.click("#save-settings")
    flash("Money settings saved.")

    # ---- 30 entries at the desk: the first three typed at the desk ...
    page.goto(f"{url}/director/{tid}/desk")
    names = [f"Player {i:02d}" for i in range(1, 31)]
    for name in names[:3]:
        page.fill("#desk-name", name)
        page.click("#take-buy-in")
        flash(f"Buy-in taken: {name}.")
    # (1) the buy-in gives the event's stack and a ledger line
    first = page.locator('#desk-players tr[data-name="Player 01"]')
    assert first.locator("td.num").inner_text() == "20,000"
    assert page.locator('#ledger-table tr[data-kind="buy-in"]').count() == 3
    # ... the other 27 through the API: the same desk entry, already checked above.
    for name in names[3:]:
        api("POST", "/money/entries", {"kind": "buy-in", "name": name})
    page.reload()
    expect(page.locator("#stat-entries")).to_have_text("30")

    # ---- the seat draw: (5) stud levels in the structure, so tables of at most 8
    page.goto(f"{url}/director/{tid}/seating")
    page.click("#draw-seats")
    expect(page.locator("#table-count")).to_have_text("4")
    seated = api("GET", "/seating")["tables"]
    assert sorted(len(t["seats"]) for t in seated) == [7, 7, 8, 8]
    assert "(stud: at most 8)" in page.inner_text("#final-size")

    # ---- the clock starts on the tournament page
    page.goto(f"{url}/director/{tid}")
    page.click("#btn-start")
    expect(page.locator("#panel-status")).to_have_text("running")

    # ---- rebuys at the desk, and (2) the undo of a rebuy restores the stack
    page.goto(f"{url}/director/{tid}/desk")
    row = page.locator('#desk-players tr[data-name="Player 01"]')
    row.locator("input.stack").fill("5000")                     # counted at the table
    row.locator("button.rebuy").click()
    flash("Rebuy taken: Player 01 (+20,000 chips).")
    row = page.locator('#desk-players tr[data-name="Player 01"]')
    assert row.locator("td.num").inner_text() == "25,000"
    page.locator('#ledger-table tr[data-kind="rebuy"] button.undo').click()
    flash("Undone: rebuy of Player 01.")
    assert questions[-1].startswith("Undo the rebuy of Player 01")
    row = page.locator('#desk-players tr[data-name="Player 01"]')
    assert row.locator("td.num").inner_text() == "20,000"      # the stack from before it
    for name in ("Player 01", "Player 02"):                     # two rebuys for real
        page.locator(f'#desk-players tr[data-name="{name}"] button.rebuy').click()
        flash(f"Rebuy taken: {name} (+20,000 chips).")

    # ---- to the break after level 4: the add-on
    page.goto(f"{url}/director/{tid}")
    for _level in range(4):
        before = page.inner_text("#panel-level-name")
        page.click("button[data-control=next]")
        expect(page.locator("#panel-level-name")).not_to_have_text(before)
    expect(page.locator("#panel-level")).to_have_text("Break")
    page.goto(f"{url}/director/{tid}/desk")
    page.locator('#desk-players tr[data-name="Player 03"] button.add-on').click()
    flash("Add-on taken: Player 03 (+30,000 chips).")
    chips_in_play = 30 * 20_000 + 2 * 20_000 + 30_000
    assert page.inner_text("#stat-chips") == f"{chips_in_play:,}"
    page.goto(f"{url}/director/{tid}")
    page.click("button[data-control=next]")                      # level 5: late reg is over
    expect(page.locator("#panel-level")).not_to_have_text("Break")

    # ---- the projector, open from here to the end, never reloaded
    projector = chromium.new_context(viewport={"width": 1366, "height": 768}).new_page()
    projector.goto(f"{url}/clock/{tid}")
    projector.wait_for_selector("#p-connection.live")

    def active() -> list[dict[str, Any]]:
        return [p for p in api("GET", "/seating")["players"] if p["status"] == "active"]

    def bust_on_the_page(name: str) -> None:
        """Tick one player on the seating page, eliminate, confirm the plan if any."""
        page.goto(f"{url}/director/{tid}/seating")
        page.get_by_label(f"{name} busted").check()
        with page.expect_navigation():                 # the post, then the page again
            page.click("#eliminate-button")

    def confirm_on_the_page() -> str:
        plan = page.inner_text("#pending")
        page.click("#confirm-plan")
        expect(page.locator("#no-pending")).to_be_visible()
        return plan

    def bust_by_api(count: int) -> None:
        """Busts already shown on the page, sped up: eliminate, confirm the plan."""
        for _bust in range(count):
            player = active()[-1]
            answer = api("POST", "/seating/eliminate", {"player_ids": [player["id"]]})
            if answer.get("pending_plan"):
                api("POST", f"/seating/plans/{answer['pending_plan']['id']}/confirm")

    # ---- (3) a mistaken elimination, undone by the director: the player is back
    bust_on_the_page("Player 10")
    if page.locator("#confirm-plan").count():
        confirm_on_the_page()
    expect(page.locator("#players-left")).to_have_text("29")
    with page.expect_navigation():
        page.locator('#places tr:has-text("Player 10") button').click()
    expect(page.locator("#players-left")).to_have_text("30")
    assert page.get_by_label("Player 10 busted").count() == 1
    assert any(p["name"] == "Player 10" and p["table"] for p in active())
    if page.locator("#confirm-plan").count():
        confirm_on_the_page()

    # ---- busts down to 25 (sped up), then (6) the 25th-to-24th bust breaks a table
    bust_by_api(5)
    page.goto(f"{url}/director/{tid}/seating")
    if page.locator("#confirm-plan").count():
        confirm_on_the_page()
    expect(page.locator("#players-left")).to_have_text("25")
    expect(page.locator("#table-count")).to_have_text("4")
    bust_on_the_page(active()[0]["name"])
    expect(page.locator("#players-left")).to_have_text("24")
    plan = confirm_on_the_page()
    assert "Break table" in plan and "redraw" not in plan.lower()
    expect(page.locator("#table-count")).to_have_text("3")
    page.screenshot(path=str(artifacts / "whole_event_table_broken.png"), full_page=True)

    # ---- busts down to 5 (sped up: the breaks and the final table's redraw confirmed)
    bust_by_api(19)
    page.goto(f"{url}/director/{tid}/seating")
    expect(page.locator("#players-left")).to_have_text("5")
    expect(page.locator("#table-count")).to_have_text("1")
    assert page.locator("#money-standing").count() == 0            # 5 left: not yet

    # ---- the bubble: 4 left for 3 places; (4) hand-for-hand pauses the clock
    assert api("GET", "/clock")["running"] is True
    bust_on_the_page(active()[0]["name"])
    standing = page.locator("#money-standing")
    expect(standing).to_have_attribute("data-kind", "bubble")
    expect(standing).to_contain_text("4 players left, 3 places paid")
    expect(projector.locator(".p-banner-bubble")).to_be_visible()
    page.screenshot(path=str(artifacts / "whole_event_bubble.png"), full_page=True)
    page.click("#bubble-h4h")
    flash("Hand-for-hand: on.")
    expect(page.locator("#h4h-state")).to_contain_text("ON")
    assert api("GET", "/clock")["running"] is False
    expect(projector.locator("body")).to_have_class(re.compile(r"\bpaused\b"))
    assert page.locator("#bubble-h4h").count() == 0
    bust_on_the_page(active()[0]["name"])                           # the bubble bursts
    expect(page.locator("#money-standing")).to_have_attribute("data-kind", "in_the_money")
    page.click("button[name=action][value=stop]")
    flash("Hand-for-hand: off.")
    assert api("GET", "/clock")["running"] is True

    # ---- the deal at three: (7) stacks that do not add up are refused
    three = active()
    assert len(three) == PAID
    page.goto(f"{url}/director/{tid}/deal")
    page.select_option("#deal-method", "icm")
    stacks = [chips_in_play // 2, chips_in_play // 3]
    stacks.append(chips_in_play - sum(stacks))
    for player, stack in zip(three, stacks, strict=True):
        page.get_by_label(f"Stack of {player['name']}").fill(str(stack - 1000))
    page.fill("#left-to-play", "500")
    with page.expect_navigation():
        page.click("#calculate")
    page.click("#save-deal")
    expect(page.locator("#deal-errors")).to_contain_text(
        f"The stacks add up to {chips_in_play - 3000:,} chips, but {chips_in_play:,} chips are in play")
    assert page.locator("#deal-saved").count() == 0
    for player, stack in zip(three, stacks, strict=True):
        page.get_by_label(f"Stack of {player['name']}").fill(str(stack))
    with page.expect_navigation():
        page.click("#calculate")
    expect(page.locator("#chips-check")).to_contain_text(
        f"Stacks entered: {chips_in_play:,} of {chips_in_play:,}")
    page.click("#save-deal")
    flash("is left to play for, so the event goes on")

    # ---- the last two busts on the page; (9) the projector shows the winner
    bust_on_the_page(three[2]["name"])
    bust_on_the_page(three[1]["name"])
    winner = three[0]["name"]
    expect(page.locator("#player-table")).to_contain_text(f"{winner} — winner")
    expect(projector.locator("body")).to_have_class(re.compile(r"\bfinished\b"))
    expect(projector.locator("#p-winner-name")).to_have_text(winner)
    projector.screenshot(path=str(artifacts / "whole_event_winner.png"))

    # ---- (8) the finished event refuses a new buy-in, with a sentence
    page.goto(f"{url}/director/{tid}/desk")
    page.fill("#desk-name", "Late Larry")
    page.click("#take-buy-in")
    expect(page.locator("#desk-errors")).to_contain_text(
        "The event is finished: reopen it to change it")

    # ---- put away: duplicated as a template, then archived from the list
    page.goto(f"{url}/director/{tid}")
    page.click("#duplicate-event")
    flash("Created “Mixed Friday (copy)” from this event")
    copy_id = int(page.url.rsplit("/", 1)[1])
    assert call(server, "GET", f"/api/tournaments/{copy_id}/clock")[1]["players_left"] in (0, None)
    page.goto(f"{url}/director/")
    page.locator(f'tr[data-tournament="{tid}"] button[data-action=archive]').click()
    flash("“Mixed Friday” is archived")
    assert page.locator(f'tr[data-tournament="{tid}"]').count() == 0
    page.click("#show-archived")
    expect(page.locator(f'tr[data-tournament="{tid}"]')).to_contain_text("(archived)")
    page.screenshot(path=str(artifacts / "whole_event_list.png"), full_page=True)
    projector.context.close()
    page.context.close()
