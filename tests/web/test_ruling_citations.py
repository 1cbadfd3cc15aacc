"""Every ruling the tablet previews cites a rule a floor person knows and groups its
amounts in the dealer's language (issue 13, item 10).

Each ruling kind is previewed through the JSON API (``POST /api/tables/<id>/hand/rulings``)
on a hand with blinds of 1,000/2,000, in English, Indonesian and Swedish: its ``rule``
starts with "TDA", "Robert's Rules" or "WSOP", neither the rule nor the sentence names
RULES.md, a section sign or "RRP", and every amount has the locale's thousands separator
(en 12,000 · id 12.000 · sv 12 000 with a no-break space).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director.services import dealer_rulings
from tests.conftest import level
from tests.web.test_dealer_helpers import seat_table

SOURCES = ("TDA ", "Robert's Rules", "WSOP")
BIG = level(1000, 2000, game="NO")
STUD = level(0, 0, game="F7S", ante=1000, bring_in=2000, small_bet=4000, big_bet=8000)
GROUPED = {"en": "{0},{1}", "id": "{0}.{1}", "sv": "{0}\u00a0{1}"}
LANGUAGES = ("en", "id", "sv")


def grouped(amount: int, language: str) -> str:
    """12000 as the dealer reads it in ``language`` (amounts below a million)."""
    thousands, rest = divmod(amount, 1000)
    return GROUPED[language].format(thousands, f"{rest:03d}")


def assert_cited(ruling: dict[str, Any], language: str, *amounts: int) -> None:
    """The rule is a source a floor person knows; the sentence names no internal file
    and has no amount of four digits or more without its separator."""
    rule, text = ruling["rule"], ruling["text"]
    assert rule.startswith(SOURCES), rule
    for shown in (rule, text):
        assert "RULES.md" not in shown and "§" not in shown and "RRP" not in shown, shown
    assert not re.search(r"\d{4,}", text), text
    for amount in amounts:
        assert grouped(amount, language) in text, (amount, text)


def in_language(client: FlaskClient, language: str) -> None:
    assert client.get(f"/language/{language}").status_code == 302


def preview(client: FlaskClient, url: str, auth: dict[str, str], body: dict[str, Any]) -> dict[str, Any]:
    r = client.post(f"{url}/hand/rulings", json=body, headers=auth)
    assert r.status_code == 200, (body, r.get_json())
    return dict(r.get_json()["ruling"])


@pytest.fixture
def omaha(client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> dict[str, Any]:
    """No-limit Omaha at 1,000/2,000, four-handed with 100,000 each: UTG to act."""
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"], chips=100_000,
                   levels=[BIG])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    return {"table": t, "url": url, "hand": hand, "utg": hand["to_act"],
            "button": hand["positions"]["button"], "bb": hand["positions"]["big_blind"]}


def omaha_rulings(o: dict[str, Any]) -> list[tuple[dict[str, Any], tuple[int, ...]]]:
    """Every flop-game ruling kind, with the amounts its sentence must show grouped."""
    utg, button, bb = o["utg"], o["button"], o["bb"]
    return [
        ({"ruling": "misdeal"}, ()),
        ({"ruling": "exposed_card", "exposed": [{"seat": utg, "card": 2, "code": "As"}]}, ()),
        ({"ruling": "exposed_card", "positions": [1]}, ()),
        ({"ruling": "boxed_cards", "count": 1}, ()),
        ({"ruling": "wrong_number_of_cards", "seat": utg, "cards": 5}, ()),
        ({"ruling": "fouled_deck"}, ()),
        ({"ruling": "flop_irregularity", "cards": 4}, ()),
        ({"ruling": "missing_burn", "street": "turn"}, ()),
        ({"ruling": "premature_card", "street": "flop"}, ()),
        ({"ruling": "premature_card", "street": "turn",
          "policy": {"premature_turn_procedure": "set-aside"}}, ()),
        ({"ruling": "absent_player", "seat": bb}, (2000,)),
        ({"ruling": "absent_player", "seat": bb, "policy": {"absent_player_kill_point": "action"}},
         (2000,)),
        ({"ruling": "action_out_of_turn", "seat": button, "action": "raise", "amount": 12000,
          "bet_when_acted": 2000}, (12000,)),
        ({"ruling": "undercall", "seat": utg, "pushed": 1500}, (1500, 2000)),
        ({"ruling": "silent_push", "seat": utg, "pushed": 3000}, (3000, 1000, 2000, 4000)),
        ({"ruling": "silent_push", "seat": utg, "pushed": 12000}, (12000,)),
        ({"ruling": "single_chip", "seat": utg, "chip": 5000}, (5000, 2000, 3000)),
        ({"ruling": "multiple_chips", "seat": utg, "chips": [1000, 1000, 5000]}, (7000,)),
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_TDA_and_Roberts_Rules_every_flop_ruling_cites_its_rule_and_groups_its_amounts(
        client: FlaskClient, auth: dict[str, str], omaha: dict[str, Any], language: str) -> None:
    in_language(client, language)
    for body, amounts in omaha_rulings(omaha):
        assert_cited(preview(client, omaha["url"], auth, body), language, *amounts)


@pytest.mark.parametrize("language", LANGUAGES)
def test_TDA_43_A_chips_pushed_silently_12000_reads_12_000_in_the_dealers_language(
        client: FlaskClient, auth: dict[str, str], omaha: dict[str, Any], language: str) -> None:
    in_language(client, language)
    ruling = preview(client, omaha["url"], auth, {"ruling": "silent_push", "seat": omaha["utg"],
                                                  "pushed": 12000})
    assert ruling["rule"] == "TDA 43-A" and ruling["params"]["pushed"] == 12000   # the API keeps numbers
    assert grouped(12000, language) in ruling["text"]
    assert {"en": "12,000", "id": "12.000", "sv": "12\u00a0000"}[language] in ruling["text"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_TDA_52_A_and_53_a_refusal_in_a_ruling_groups_its_amounts(
        client: FlaskClient, auth: dict[str, str], omaha: dict[str, Any], language: str) -> None:
    """The engine's reason a ruling cannot be entered ("below the minimum raise to 4,000")."""
    in_language(client, language)
    ruling = preview(client, omaha["url"], auth, {"ruling": "action_out_of_turn", "seat": omaha["utg"],
                                                  "action": "raise", "amount": 3000,
                                                  "bet_when_acted": 2000})
    assert ruling["applies"] is False and "blocked" in ruling
    assert not re.search(r"\d{4,}", ruling["blocked"]) and grouped(4000, language) in ruling["blocked"]
    assert_cited(ruling, language, 3000)


@pytest.mark.parametrize("language", LANGUAGES)
def test_Roberts_Rules_Stud_5_stud_rulings_cite_their_rule_and_group_the_ante(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str],
        language: str) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], chips=100_000, levels=[STUD])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    seat = sorted(s["seat"] for s in hand["seats"])[1]
    in_language(client, language)
    dead = preview(client, url, auth, {"ruling": "stud_exposed_downcards", "seat": seat, "cards": ["2c", "3d"],
                                       "policy": {"stud_two_downcards_exposed": "dead-hand"}})
    assert dead["rule"] == "Robert's Rules, Stud 5"
    assert_cited(dead, language, 1000)
    for body in ({"ruling": "stud_exposed_downcards", "seat": seat, "cards": ["Ah"]},
                 {"ruling": "stud_exposed_downcards", "seat": seat, "cards": "AhKd"},
                 {"ruling": "stud_exposed_downcards", "seat": seat, "cards": ["Ah"],
                  "policy": {"stud_one_downcard_exposed": "misdeal"}},
                 {"ruling": "premature_card", "street": "4th"},
                 {"ruling": "absent_player", "seat": seat}):
        assert_cited(preview(client, url, auth, body), language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_TDA_29_clock_expired_cites_TDA_29(
        app: Flask, client: FlaskClient, auth: dict[str, str], omaha: dict[str, Any],
        language: str) -> None:
    url, table = omaha["url"], omaha["table"]
    called = client.post(f"{url}/hand/clock", json={"seat": omaha["utg"]}, headers=auth).get_json()
    ends = called["clock_call"]["ends_at"]
    from datetime import datetime  # noqa: PLC0415

    now = datetime.fromisoformat(ends.replace("Z", "+00:00")) + timedelta(seconds=1)
    with app.test_request_context(headers={"Accept-Language": language}):
        answer = dealer_rulings.rule(table["id"], {"ruling": "clock_expired"}, who="dealer", now=now)
    ruling = answer.body["ruling"]
    assert ruling["rule"] == "TDA 29"
    assert_cited(ruling, language)
