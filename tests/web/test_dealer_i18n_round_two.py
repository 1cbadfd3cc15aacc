"""The tablet in Indonesian and Swedish (issue 31, item 7): no English left in what the
dealer reads, and a side pot's number never runs into its amount.

The words come from the catalogs: this test passes once the translations of
/tmp/i18n/tablet.json are merged into director/translations (the suit names are new msgids)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import level
from tests.web.test_dealer_helpers import seat_table
from tests.web.test_i18n_dealer import paired_tablet

ENGLISH = ("Main pot", "Side pot", "clubs", "diamonds", "hearts", "spades", "Limit Limit")


def _csrf(tablet: FlaskClient, table_id: int) -> dict[str, str]:
    page = tablet.get(f"/dealer/table/{table_id}").get_data(as_text=True)
    found = re.search(r'data-csrf="([^"]+)"', page)
    assert found
    return {"X-CSRF-Token": found.group(1)}


def _texts(hand: dict[str, Any]) -> list[str]:
    return ([hand["prompt"], hand["game_label"] + " " + (hand["level"]["stakes_label"] or "")]
            + hand["award_text"] + [line["text"] for line in hand["log"]])


@pytest.mark.parametrize("language", ["id", "sv"])
def test_a_fixed_limit_stud_hand_reads_in_the_tablets_language(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str],
        language: str) -> None:
    stud = level(0, 0, game="F7S", ante=10, bring_in=25, small_bet=100, big_bet=200)
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], levels=[stud],
                   chips=[300, 1000, 2000])
    tablet = paired_tablet(app, t, language)
    headers = _csrf(tablet, t["id"])
    url = f"/api/tables/{t['id']}"

    def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = tablet.post(url + path, headers=headers, json=body)
        assert r.status_code in (200, 201), (path, body, r.get_json())
        return dict(r.get_json())
    hand = post("/hands", {})
    seats = sorted(s["seat"] for s in hand["seats"])
    hand = post("/hand/deal", {
        "cards": {str(s): [c] for s, c in zip(seats, ["2c", "Kh", "Qs"], strict=True)},
        "version": hand["version"]})
    texts = _texts(hand)
    deck = iter(["3c", "4c", "5c", "6s", "7s", "8s", "Ts", "Js", "9c", "9d", "Tc", "Td"])
    for _ in range(80):
        if hand["finished"]:
            break
        if hand["to_act"] is not None:
            pressed = [b for b in hand["buttons"] if b["action"] in ("bring_in", "raise", "bet", "complete")]
            pressed = pressed or [b for b in hand["buttons"] if b["action"] in ("call", "check")]
            hand = post("/hand/actions", {"seat": hand["to_act"], "action": pressed[0]["action"],
                                          "amount": pressed[0]["amount"], "version": hand["version"]})
        elif hand["awaiting"] == "street":
            if hand["street"] == "seventh street":
                hand = post("/hand/deal", {"cards": None, "version": hand["version"]})
            else:
                hand = post("/hand/deal", {"cards": {str(s["seat"]): [next(deck)] for s in hand["seats"]
                                                     if s["status"] in ("active", "all_in")},
                                           "version": hand["version"]})
        elif hand["awaiting"] == "showdown":
            cards = iter(["AsAhAd", "KsKdKc", "QhQdQc"])
            for seat in hand["showdown_order"]:
                hand = post("/hand/show", {
                    "seat": seat, "cards": next(cards), "version": hand["version"]})
        texts += _texts(hand)
    assert hand["finished"], (hand["awaiting"], hand["to_act"], hand["street"])
    assert len(hand["pots"]) >= 2 or any("2" in t for t in hand["award_text"]), hand
    full = tablet.get(f"{url}/hand/log").get_json()
    texts += [line["text"] for line in full["log"]]
    for text in texts:
        for word in ENGLISH:
            assert word not in text, (word, text)
    side = [t for t in hand["award_text"] if re.match(r"\w+ \d", t) and "1" in t.split(":")[0]]
    for line in side:   # "Sidopott 1 (1 400):" never "Sidopott 1 1 400:"
        assert not re.match(r"^\S+ \d+ \d", line), line
