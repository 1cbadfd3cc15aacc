"""House rules (RULES.md §11.1): set by the director, used by every tablet hand and ruling.

The director's page and the JSON API save the flags of ``Policy`` (one hand)
and ``RulingPolicy`` (floor rulings, the clock call); a bad value is a 400
naming the field and nothing changes.  A new hand is dealt under the
tournament's flags; a hand already dealt keeps the ones it was dealt with.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from director.models.seating import SeatingLogEntry
from director.services import dealer, dealer_rulings
from director.services.dealer import Illegal
from tests.conftest import level
from tests.web.test_dealer_helpers import play, seat_table

STUD = level(0, 0, game="F7S", ante=10, bring_in=25, small_bet=100, big_bet=200)
LIMIT_OMAHA = level(100, 200, game="FO", small_bet=200, big_bet=400)


def house(client: FlaskClient, tid: int, auth: dict[str, str], **flags: Any) -> dict[str, Any]:
    r = client.post(f"/api/tournaments/{tid}/house-rules", json=flags, headers=auth)
    assert r.status_code == 200, r.get_json()
    return dict(r.get_json())


def stored(client: FlaskClient, tid: int, auth: dict[str, str]) -> dict[str, Any]:
    r = client.get(f"/api/tournaments/{tid}/house-rules", headers=auth)
    assert r.status_code == 200
    return dict(r.get_json()["house_rules"])


def log_lines(app: Flask, tid: int) -> list[str]:
    from director.db import db  # noqa: PLC0415

    with app.app_context():
        return list(db.session.scalars(select(SeatingLogEntry.text).where(
            SeatingLogEntry.tournament_id == tid, SeatingLogEntry.action == "house_rules")))


# --------------------------------------------------------------------------- the API


def test_RULES_11_1_nothing_set_is_every_TDA_2024_default(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    tid = make_tournament()
    r = client.get(f"/api/tournaments/{tid}/house-rules", headers=auth)
    assert r.status_code == 200
    body = r.get_json()
    assert body["not_default"] == {} and body["updated_at"] is None
    rules = body["house_rules"]
    assert rules["clock_seconds"] == "25+5" and rules["limit_raise_cap"] == 3
    assert rules["stud_one_downcard_exposed"] == "up-card" and rules["bba_order"] == "big-blind-first"
    assert rules["limit_cap_heads_up"] is True
    assert "straddle_min_raise" not in rules          # cash only: not offered


def test_RULES_11_1_api_saves_flags_logs_each_change_and_keeps_the_others(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int],
        auth: dict[str, str]) -> None:
    tid = make_tournament()
    body = house(client, tid, auth, clock_seconds="60+10", limit_raise_cap=4)
    assert body["not_default"] == {"limit_raise_cap": 4, "clock_seconds": "60+10"}
    assert body["updated_at"] is not None
    body = house(client, tid, auth, stud_high_hand_tie="position")
    assert body["house_rules"]["limit_raise_cap"] == 4                     # absent: kept
    assert body["house_rules"]["stud_high_hand_tie"] == "position"
    lines = log_lines(app, tid)
    assert len(lines) == 3
    assert ("House rules: A clock called on a player: 60 seconds plus a 10-second countdown "
            "(older TDA, WSOP-LA) (was 25 seconds plus a 5-second countdown (TDA 29 (2024)))") in lines
    assert any(line.startswith("House rules: Raises allowed after the bet") and "4 (WSOP-T)" in line
               for line in lines)
    # The API's own answer may be sent back as it is; a blank cap is no cap.
    again = dict(body)
    again["house_rules"] = {**body["house_rules"], "limit_raise_cap": ""}
    r = client.post(f"/api/tournaments/{tid}/house-rules", json=again, headers=auth)
    assert r.status_code == 200, r.get_json()
    assert stored(client, tid, auth)["limit_raise_cap"] is None


@pytest.mark.parametrize(("flags", "field"), [
    ({"clock_seconds": "90+10"}, "clock_seconds"),
    ({"limit_raise_cap": 11}, "limit_raise_cap"),
    ({"limit_raise_cap": "three"}, "limit_raise_cap"),
    ({"stud_4th_street_double": "maybe"}, "stud_4th_street_double"),
    ({"straddle_min_raise": "straddle-plus-bb"}, "straddle_min_raise"),
    ({"clock_speed": "fast"}, "clock_speed"),
], ids=["choice", "cap-too-high", "cap-not-a-number", "bool", "cash-only", "unknown"])
def test_RULES_11_1_api_refuses_a_bad_flag_naming_it_and_changes_nothing(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str],
        flags: dict[str, Any], field: str) -> None:
    tid = make_tournament()
    before = stored(client, tid, auth)
    r = client.post(f"/api/tournaments/{tid}/house-rules",
                    json={"bba_order": "ante-first", **flags}, headers=auth)
    assert r.status_code == 400
    assert field in r.get_json()["errors"]
    assert stored(client, tid, auth) == before
    assert log_lines(app, tid) == []


def test_RULES_11_1_house_rules_need_the_director(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    tid = make_tournament()
    assert client.get(f"/api/tournaments/{tid}/house-rules").status_code == 401
    r = client.post(f"/api/tournaments/{tid}/house-rules", json={"clock_seconds": "60+10"})
    assert r.status_code == 401
    assert stored(client, tid, auth)["clock_seconds"] == "25+5"
    assert client.get("/api/tournaments/999/house-rules", headers=auth).status_code == 404


# --------------------------------------------------------------------------- the director's page


def test_RULES_11_1_page_shows_each_flag_its_TDA_default_and_the_alternative_source(
        client: FlaskClient, make_tournament: Callable[..., int], login: Callable[[], None]) -> None:
    tid = make_tournament()
    login()
    page = client.get(f"/director/{tid}/house-rules").get_data(as_text=True)
    assert "One down-card exposed by the dealer on the initial deal" in page
    assert "It becomes his up-card; his third card is dealt face down" in page
    assert "TDA RP-10-A, RRP" in page and "WSOP-T 88-a-6, TDA 2004" in page
    assert "60 seconds plus a 10-second countdown" in page and "older TDA, WSOP-LA" in page
    assert page.count("TDA default") == 19              # every flag but the raise cap (the shot clock: 4)
    assert 'name="straddle_min_raise"' not in page
    assert 'value="25+5" checked' in page
    tournament = client.get(f"/director/{tid}").get_data(as_text=True)
    assert f'href="/director/{tid}/house-rules"' in tournament


def test_RULES_11_1_form_saves_and_a_bad_value_is_named_with_nothing_saved(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str],
        login: Callable[[], None], csrf: Callable[[], str]) -> None:
    tid = make_tournament()
    login()
    form = {"csrf_token": csrf(), "limit_raise_cap": "eleven", "clock_seconds": "60+10",
            "stud_4th_street_double": "yes"}
    r = client.post(f"/director/{tid}/house-rules", data=form)
    assert r.status_code == 400
    page = r.get_data(as_text=True)
    assert "Nothing was saved" in page
    assert 'data-field="limit_raise_cap"' in page
    assert "Raises allowed in fixed limit must be a whole number, not “eleven”" in page
    assert stored(client, tid, auth)["clock_seconds"] == "25+5"
    form["limit_raise_cap"] = "4"
    r = client.post(f"/director/{tid}/house-rules", data=form)
    assert r.status_code == 302
    rules = stored(client, tid, auth)
    assert rules["limit_raise_cap"] == 4 and rules["clock_seconds"] == "60+10"
    assert rules["stud_4th_street_double"] is True
    page = client.get(f"/director/{tid}/house-rules").get_data(as_text=True)
    assert "House rules saved" in page and 'value="60+10" checked' in page
    form["limit_raise_cap"] = ""                      # blank: no cap
    assert client.post(f"/director/{tid}/house-rules", data=form).status_code == 302
    assert stored(client, tid, auth)["limit_raise_cap"] is None
    assert len(log_lines(app, tid)) == 4


# --------------------------------------------------------------------------- stud exposed down-card (§3.5)


def _stud_house_misdeal(client: FlaskClient, make_tournament: Callable[..., int],
                        auth: dict[str, str]) -> tuple[str, dict[str, Any], int]:
    """A stud hand dealt under the house rule "misdeal" for one exposed down-card:
    the table's URL, the hand, and the seat whose card is exposed."""
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], levels=[STUD])
    house(client, t["tournament_id"], auth, stud_one_downcard_exposed="misdeal")
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    seat = sorted(s["seat"] for s in hand["seats"])[1]
    return url, hand, seat


def test_ST_10_house_misdeal_WSOP_T_88a6_one_exposed_down_card_is_a_misdeal_on_confirm(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    url, hand, seat = _stud_house_misdeal(client, make_tournament, auth)
    exposed = {"ruling": "stud_exposed_downcards", "seat": seat, "cards": "2c"}
    preview = client.post(f"{url}/hand/rulings", json=exposed, headers=auth).get_json()["ruling"]
    assert preview["decision"] == "misdeal" and preview["rule"] == "WSOP-T 88-a-6"
    r = client.post(f"{url}/hand/rulings", headers=auth,
                    json={**exposed, "confirm": True, "version": hand["version"]})
    assert r.status_code == 200, r.get_json()
    done = r.get_json()
    assert done["ruling"]["text"].startswith(f"Seat {seat} (")
    assert done["ruling"]["text"].endswith(
        "'s down-card was exposed on the initial deal: misdeal (house rule). "
        "Rule: WSOP-T 88-a-6, this tournament's house rules")
    assert done["hand"]["misdeal"] is True and done["hand"]["finished"] is True


def test_ST_10_policy_sent_with_the_ruling_still_wins_over_the_house_rules(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    url, hand, seat = _stud_house_misdeal(client, make_tournament, auth)
    ruling = client.post(f"{url}/hand/rulings", headers=auth, json={
        "ruling": "stud_exposed_downcards", "seat": seat, "cards": "2c",
        "policy": {"stud_one_downcard_exposed": "up-card"}}).get_json()["ruling"]
    assert ruling["decision"] == "becomes_up_card"
    assert ruling["text"].endswith("Rule: TDA RP-10-A, the TDA default, sent with the ruling")


# --------------------------------------------------------------------------- fixed-limit cap (TDA 48)


def _limit_hand(client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str],
                cap: int) -> tuple[str, dict[str, Any]]:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"], levels=[LIMIT_OMAHA])
    house(client, t["tournament_id"], auth, limit_raise_cap=cap)
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    # The big blind is the bet; UTG, the button and the small blind raise: three raises.
    return url, play(client, url, auth, hand, [("raise", 400), ("raise", 600), ("raise", 800)])


def test_TDA_48_house_limit_raise_cap_4_lets_the_fourth_raise_through(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    url, hand = _limit_hand(client, make_tournament, auth, 4)
    assert hand["legal"]["min_to"] == 1000
    hand = play(client, url, auth, hand, [("raise", 1000)])
    assert hand["current_bet"] == 1000
    assert hand["legal"]["min_to"] is None                # and now it is capped


def test_TDA_48_house_limit_raise_cap_3_refuses_the_fourth_raise_with_the_engine_sentence(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    url, hand = _limit_hand(client, make_tournament, auth, 3)
    assert hand["legal"]["min_to"] is None
    r = client.post(f"{url}/hand/actions", headers=auth, json={
        "seat": hand["to_act"], "action": "raise", "amount": 1000, "version": hand["version"]})
    assert r.status_code == 422
    assert r.get_json()["error"] == "The betting is capped: no more raises on this street"


# --------------------------------------------------------------------------- the clock (TDA 29)


def _called(client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str],
            **flags: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"])
    if flags:
        house(client, t["tournament_id"], auth, **flags)
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    r = client.post(f"{url}/hand/clock", headers=auth,
                    json={"seat": hand["to_act"], "version": hand["version"]})
    assert r.status_code == 200, r.get_json()
    return t, r.get_json()


def _span(call: dict[str, Any]) -> float:
    start = datetime.fromisoformat(call["called_at"].replace("Z", "+00:00"))
    end = datetime.fromisoformat(call["ends_at"].replace("Z", "+00:00"))
    return (end - start).total_seconds()


def test_TDA_29_house_clock_60_plus_10_gives_a_70_second_clock_on_the_tablet(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    _, hand = _called(client, make_tournament, auth, clock_seconds="60+10")
    assert hand["clock_call"]["seconds"] == 70 and _span(hand["clock_call"]) == 70
    assert hand["log"][0]["text"].endswith(": 70 seconds (TDA 29)")


def test_TDA_29_default_clock_is_25_plus_5(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    _, hand = _called(client, make_tournament, auth)
    assert hand["clock_call"]["seconds"] == 30 and _span(hand["clock_call"]) == 30


def test_TDA_29_house_clock_60_plus_10_the_player_still_has_time_after_40_seconds(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int],
        auth: dict[str, str]) -> None:
    t, hand = _called(client, make_tournament, auth, clock_seconds="60+10")
    called = datetime.fromisoformat(hand["clock_call"]["called_at"].replace("Z", "+00:00"))
    expired = {"ruling": "clock_expired"}
    with app.test_request_context():
        with pytest.raises(Illegal, match="still has time"):
            dealer_rulings.rule(t["id"], expired, who="dealer", now=called + timedelta(seconds=40))
        answer = dealer_rulings.rule(t["id"], expired, who="dealer",
                                     now=called + timedelta(seconds=71))
    # UTG faces the big blind: his hand is dead when the clock runs out (TDA 29).
    assert answer.body["ruling"]["decision"] == "hand_dead"  # type: ignore[index]


# --------------------------------------------------------------------------- the next hand's config


def test_RP_11_and_RP_10_D_house_bba_order_and_stud_high_hand_tie_reach_the_next_hand_only(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int],
        auth: dict[str, str]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"])
    url = f"/api/tables/{t['id']}"
    first = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    house(client, t["tournament_id"], auth, bba_order="ante-first", stud_high_hand_tie="position",
          limit_raise_cap=None)
    upcoming = client.get(f"{url}/next", headers=auth).get_json()
    assert upcoming["house_rules"] == {"limit_raise_cap": None, "bba_order": "ante-first",
                                       "stud_high_hand_tie": "position"}
    with app.app_context():
        dealt = dealer.latest_hand(t["id"])
        assert dealt is not None and dealt.config["policy"]["bba_order"] == "big-blind-first"
    r = client.post(f"{url}/hand/rulings", headers=auth,
                    json={"ruling": "misdeal", "confirm": True, "version": first["version"]})
    assert r.status_code == 200, r.get_json()
    second = client.post(f"{url}/hands", json={}, headers=auth)
    assert second.status_code == 201, second.get_json()
    with app.app_context():
        dealt = dealer.latest_hand(t["id"])
        assert dealt is not None and dealt.number == 2
        policy = dealer.engine_hand(dealt).config.policy
        assert policy.bba_order == "ante-first" and policy.stud_high_hand_tie == "position"
        assert policy.limit_raise_cap is None
        assert policy.straddle_min_raise == "double-straddle"
