"""The dealer tablet's view of a hand (issue 13) in a real browser: what the dealer reads
on the screen (button order and text, the pot, the award lines, the prompt, Undo)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server
from tests.browser.test_dealer_browser import (
    PLO,
    call,
    deal,
    hand,
    prompt,
    setup,
    tablet,
    tap,
    wait_prompt,
)

pytestmark = [pytest.mark.browser]

STUD = {"game": "F7S", "ante": 10, "bring_in": 25, "small_bet": 100, "big_bet": 200}
NO_LIMIT = {"game": "NO", "small_blind": 100, "big_blind": 200}


def api(server: Server, table_id: int, path: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    now = hand(server, table_id)
    code, answer = call(server, "POST", f"/api/tables/{table_id}/hand{path}", {**body, "version": now["version"]})
    assert code == status, answer
    return dict(answer)


def action_labels(page: Any) -> list[str]:
    return [str(t) for t in page.locator("#controls button[class*='action-']").all_inner_texts()]


def wait_version(page: Any, server: Server, table_id: int) -> dict[str, Any]:
    """Wait until the tablet shows the hand as the server has it now."""
    now = hand(server, table_id)
    page.wait_for_function("v => document.getElementById('dealer').dataset.version === v",
                           arg=f"{now['hand_id']}/{now['version']}")
    return now


def test_buttons_put_call_first_and_fold_at_the_far_end(chromium: Any, live_server: Server,
                                                       artifacts: Path) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    assert action_labels(page) == ["Call 200", "Min raise to 400", "Pot: raise to 700", "Fold"]
    page.screenshot(path=str(artifacts / "tablet-buttons-facing-a-bet.png"))
    for _ in range(3):                                # the small blind calls 100
        tap(page, page.locator("#controls button.action-call"))
    labels = action_labels(page)                      # the big blind's option
    assert labels[0] == "Check" and labels[-1] == "Fold" and labels[1] != "Fold", labels
    # on the screen: Fold is on a row of its own under every other button, away from Check
    page.wait_for_selector("#controls button.action-check:not([disabled]):not(.arming)")
    check = page.locator("#controls button.action-check").bounding_box()
    fold = page.locator("#controls button.action-fold").bounding_box()
    others = [b.bounding_box() for b in page.locator("#controls button:not(.action-fold)").all()]
    assert all(fold["y"] >= box["y"] + box["height"] + 8 for box in others)
    assert fold["y"] - (check["y"] + check["height"]) >= 8
    page.screenshot(path=str(artifacts / "tablet-buttons-check.png"))


def test_uncalled_bet_is_shown_back_in_the_stack_and_named_at_the_end(
        chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    first = hand(live_server, t["table_id"])
    tap(page, page.get_by_role("button", name="Pot: raise to 700"))
    # mid-round the pot is every chip in the middle: 100 + 200 + 700
    assert page.locator("#pots .pot-total").inner_text().endswith("1,000")
    for _ in range(3):
        tap(page, page.get_by_role("button", name="Fold", exact=True))
    page.wait_for_selector(".award")
    awards = page.locator(".award").all_inner_texts()
    # SB 100 + BB 200 + 200 of the raise are the pot; the uncalled 500 went back
    assert awards[0].startswith("Main pot 500")
    assert f"500 returned to Seat {first['to_act']} ({first['to_act_name']})" in awards
    assert page.locator("#pots .pot-total").inner_text().endswith("500")


def test_all_in_showdown_offers_no_muck_tda_16(chromium: Any, live_server: Server, artifacts: Path) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy"], NO_LIMIT)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    h = hand(live_server, t["table_id"])
    shover = h["to_act"]
    tap(page, page.locator("#controls button.action-all_in"))
    while hand(live_server, t["table_id"])["to_act"] is not None:
        tap(page, page.locator("#controls button.action-call"))
    for cards in (["Ah", "Kh", "7d"], ["7c"], ["9h"]):
        api(live_server, t["table_id"], "/board", {"cards": cards})
    wait_prompt(page, "Showdown")
    assert "every hand is turned face up (TDA 16)" in prompt(page)
    page.screenshot(path=str(artifacts / "tablet-all-in-showdown.png"))
    assert page.locator(".show-row button:text-is('Show')").count() >= 2
    assert page.locator(".show-row button:text-is('Muck')").count() == 0
    assert shover in hand(live_server, t["table_id"])["showdown_order"]


def test_misdeal_screen_shows_no_pot_and_no_bets(chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    tap(page, page.get_by_role("button", name="Pot: raise to 700"))
    api(live_server, t["table_id"], "/rulings", {"ruling": "exposed_card", "positions": [1], "confirm": True})
    wait_prompt(page, "Misdeal")
    assert page.locator(".seat-bet").count() == 0
    assert page.locator(".side-pot").count() == 0
    assert page.locator("#pots .pot-total").inner_text().endswith(" 0")
    for seat in hand(live_server, t["table_id"])["seats"]:
        assert "10,000" in page.locator(f".seat[data-seat='{seat['seat']}']").inner_text()


def stud_to_fourth(live_server: Server, page: Any, t: dict[str, Any], third: list[str],
                   fourth: list[str]) -> list[int]:
    page.click("#deal-button")
    wait_prompt(page, "Deal third street")
    seats = sorted(s["seat"] for s in hand(live_server, t["table_id"])["seats"])
    api(live_server, t["table_id"], "/deal", {"cards": {str(s): [c] for s, c in zip(seats, third, strict=True)}})
    for kind in ("bring_in", "call", "call"):
        api(live_server, t["table_id"], "/actions",
            {"seat": hand(live_server, t["table_id"])["to_act"], "action": kind})
    api(live_server, t["table_id"], "/deal", {"cards": {str(s): [c] for s, c in zip(seats, fourth, strict=True)}})
    wait_version(page, live_server, t["table_id"])
    return seats


def test_stud_prompt_names_the_high_hand_then_just_who_is_to_act(chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy"], STUD)
    page = tablet(chromium, live_server, t["code"])
    _low, high, other = stud_to_fourth(live_server, page, t, ["2c", "Qs", "Qh"], ["3d", "Jd", "Js"])
    assert prompt(page).startswith(f"Seat {high} (") and "high hand showing (Q♠ J♦)" in prompt(page)
    tap(page, page.locator("#controls button.action-check"))
    name = hand(live_server, t["table_id"])["to_act_name"]
    assert prompt(page) == f"Seat {other} ({name}) to act"


def test_open_pair_big_bet_has_its_own_button(chromium: Any, live_server: Server, artifacts: Path) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy"], STUD)
    status, body = call(live_server, "POST", f"/api/tournaments/{t['tournament_id']}/house-rules",
                        {"stud_4th_street_double": True})
    assert status == 200, body
    page = tablet(chromium, live_server, t["code"])
    stud_to_fourth(live_server, page, t, ["2c", "Qs", "9h"], ["3d", "Qd", "Js"])
    assert action_labels(page) == ["Check", "Bet 100", "Bet 200 (open pair)", "Fold"]
    page.screenshot(path=str(artifacts / "tablet-open-pair.png"))
    tap(page, page.get_by_role("button", name="Bet 200 (open pair)"))
    assert hand(live_server, t["table_id"])["current_bet"] == 200


def test_big_blind_ante_is_labelled_and_taken_from_the_big_blind(chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], {**PLO, "ante": 200, "big_blind_ante": True})
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    assert page.locator("#level").inner_text() == "100/200 BB ante 200"
    bb = hand(live_server, t["table_id"])["positions"]["big_blind"]
    assert "9,600" in page.locator(f".seat[data-seat='{bb}']").inner_text()
    assert page.locator(f".seat[data-seat='{bb}'] .seat-posted").inner_text() == "ante 200 posted"
    assert page.locator(".seat-posted").count() == 1          # only the big blind pays it
    assert page.locator("#pots .pot-total").inner_text().endswith("500")


def test_showdown_lines_name_every_tabled_hand(chromium: Any, live_server: Server, artifacts: Path) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy"], {"game": "PO/8", "small_blind": 100, "big_blind": 200})
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    boards = [["2c", "3d", "8h"], ["Kc"], ["Ks"]]
    h = hand(live_server, t["table_id"])
    while h["awaiting"] != "showdown":
        if h["to_act"] is not None:
            h = api(live_server, t["table_id"], "/actions",
                    {"seat": h["to_act"], "action": "check" if h["legal"]["check"] else "call"})
        else:
            h = api(live_server, t["table_id"], "/board", {"cards": boards.pop(0)})
    order = h["showdown_order"]
    for seat, cards in zip(order, ["Kd7s9c9d", "As4cQdQh", "Ah4dJcJd"], strict=True):
        h = api(live_server, t["table_id"], "/show", {"seat": seat, "cards": cards})
    page.wait_for_selector(".award")
    wait_version(page, live_server, t["table_id"])
    page.screenshot(path=str(artifacts / "tablet-shown-hands.png"))
    lines = page.locator(".award").all_inner_texts()
    names = {s["seat"]: s["name"] for s in h["seats"]}
    for seat in order:
        assert any(line.startswith(f"Seat {seat} ({names[seat]}) shows ") for line in lines), lines
    assert f"Seat {order[0]} ({names[order[0]]}) shows K♦ 7♠ 9♣ 9♦: three kings; no low" in lines


def test_undo_button_says_what_it_takes_back(chromium: Any, live_server: Server) -> None:
    t = setup(live_server, ["Ann", "Bo", "Cy", "Di"], PLO)
    page = tablet(chromium, live_server, t["code"])
    deal(page)
    undo = page.locator("#undo-button")
    page.wait_for_function("() => !document.getElementById('undo-button').disabled")
    assert undo.inner_text() == "Undo the deal of hand 1"
    first = hand(live_server, t["table_id"])
    tap(page, page.get_by_role("button", name="Call 200"))
    assert undo.inner_text() == f"Undo: Seat {first['to_act']} ({first['to_act_name']}) calls"
