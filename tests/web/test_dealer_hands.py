"""Whole hands through the dealer API: showdowns, stud, rulings, busts, restarts, PHH."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from director.cli import main as director_cli
from director.db import utcnow
from tests.conftest import level
from tests.web.test_dealer_helpers import drive, o8_showdown, passive, play, seat_table


def test_o8_showdown_quarters_the_low_and_gives_the_odd_chip_high(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"],
                   levels=[level(100, 200, game="PO/8")])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()

    def shows_first(at: dict[str, Any]) -> None:       # TDA 16/17: the bettor shows first
        assert at["pot_total"] == 600 + 3 * 203
        assert at["prompt"].startswith(f"Showdown: Seat {at['showdown_order'][0]} (")

    hand, (winner_high, low_a, low_b) = o8_showdown(client, url, auth, hand, flop_bet=203,
                                                    at_showdown=shows_first)
    amounts = {(a["half"], a["seat"]): a["amount"] for a in hand["awards"]}
    assert amounts[("high", winner_high)] == 605          # 1,209: the odd chip goes high
    assert amounts[("low", low_a)] == amounts[("low", low_b)] == 302
    text = hand["award_text"][0]
    assert text.startswith("Main pot 1,209: high to seat")
    assert "low split seats" in text and "302 each" in text
    assert "odd chip (1)" in text and "high" in text


def test_stud_names_the_bring_in_by_suit_and_the_opener(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    stud = level(0, 0, game="F7S", ante=10, bring_in=25, small_bet=100, big_bet=200)
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], levels=[stud])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    assert hand["awaiting"] == "street" and hand["to_act"] is None
    seats = sorted(s["seat"] for s in hand["seats"])
    ups = dict(zip(seats, ["2d", "2c", "Kh"], strict=True))
    r = client.post(f"{url}/hand/deal", json={"cards": {str(s): [c] for s, c in ups.items()},
                                               "version": hand["version"]}, headers=auth)
    assert r.status_code == 200, r.get_json()
    hand = r.get_json()
    assert hand["to_act"] == seats[1]          # the 2 of clubs is lower than the 2 of diamonds
    assert "lowest up-card, 2♣ (clubs)" in hand["prompt"] and "bring in 25" in hand["prompt"]
    assert [b["label"] for b in hand["buttons"]] == ["Bring in 25", "Complete to 100"]
    hand = play(client, url, auth, hand, ["bring_in", "call", "call"])
    assert hand["awaiting"] == "street"
    fourth = dict(zip(seats, ["3s", "Ac", "Kd"], strict=True))
    hand = client.post(f"{url}/hand/deal", json={"cards": {str(s): [c] for s, c in fourth.items()},
                                                  "version": hand["version"]}, headers=auth).get_json()
    assert hand["to_act"] == seats[2]          # K-K showing opens fourth street
    assert "high hand showing" in hand["prompt"]


def test_misdeal_ruling_then_redeal_with_the_same_button(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    preview = client.post(f"{url}/hand/rulings", json={"ruling": "exposed_card", "positions": [1]},
                          headers=auth)
    assert preview.status_code == 200
    ruling = preview.get_json()["ruling"]
    assert ruling["rule"] == "TDA 35-A item 7" and ruling["decision"] == "misdeal"
    assert "Card 1 off the deck (seat" in ruling["text"]
    assert preview.get_json()["hand"]["version"] == hand["version"]     # a preview changes nothing
    done = client.post(f"{url}/hand/rulings", json={"ruling": "exposed_card", "positions": [1],
                                                    "confirm": True, "version": hand["version"]},
                       headers=auth)
    assert done.status_code == 200
    voided = done.get_json()["hand"]
    assert voided["misdeal"] and voided["finished"] and voided["awards"] == []
    assert all(s["stack"] == 10_000 for s in voided["seats"])
    redeal = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    assert redeal["hand_number"] == hand["hand_number"]        # the same hand, dealt again (TDA 35)
    assert redeal["positions"] == hand["positions"]
    # after a normal hand the button moves on
    play(client, url, auth, redeal, ["fold", "fold", "fold"])
    nxt = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    assert nxt["positions"]["button"] != hand["positions"]["button"]


def test_replacement_ruling_is_logged_and_changes_nothing(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    r = client.post(f"{url}/hand/rulings", json={"ruling": "exposed_card", "positions": [6],
                                                 "confirm": True, "version": hand["version"]}, headers=auth)
    body = r.get_json()
    assert r.status_code == 200 and body["ruling"]["decision"] == "replace_card"
    assert body["ruling"]["applies"] is False and body["hand"]["finished"] is False
    assert any(line["text"].startswith("Ruling (Robert's Rules, Hold'em irregularities 1)") for line in body["hand"]["log"])
    bad = client.post(f"{url}/hand/rulings", json={"ruling": "exposed_card", "positions": [41]}, headers=auth)
    assert bad.status_code == 422 and "Deal position 41" in bad.get_json()["error"]
    assert client.post(f"{url}/hand/rulings", json={"ruling": "nope"}, headers=auth).status_code == 400


def test_absent_seat_is_dead_and_posts_its_blind(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    url = f"/api/tables/{t['id']}"
    probe = client.post(f"{url}/hands", json={"absent_seats": [99]}, headers=auth)
    assert probe.status_code == 400
    seating = client.get(f"/api/tournaments/{t['tournament_id']}/seating").get_json()["tables"][0]
    bb = seating["next_hand"]["big_blind"]
    hand = client.post(f"{url}/hands", json={"absent_seats": [bb]}, headers=auth).get_json()
    seat = {s["seat"]: s for s in hand["seats"]}[bb]
    assert seat["bet"] == 200
    hand = play(client, url, auth, hand, [passive(hand)])
    seat = {s["seat"]: s for s in hand["seats"]}[bb]
    assert seat["status"] == "dead"


def test_clock_expiry_kills_a_hand_facing_a_bet(app: Flask, client: FlaskClient, auth: dict[str, str],
                                                make_tournament: Callable[..., int]) -> None:
    from director.services import dealer_rulings

    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    seat = hand["to_act"]
    client.post(f"{url}/hand/clock", json={"seat": seat}, headers=auth)
    with app.test_request_context():
        answer = dealer_rulings.rule(t["id"], {"ruling": "clock_expired", "confirm": True},
                                     who="dealer", now=utcnow() + timedelta(seconds=31))
    assert answer.body["ruling"]["rule"] == "TDA 29" and answer.body["ruling"]["decision"] == "hand_dead"
    after = client.get(f"{url}/hand").get_json()
    assert {s["seat"]: s for s in after["seats"]}[seat]["status"] == "dead"    # killed, not folded
    assert after["to_act"] != seat and after["clock_call"] is None              # the ruling ended it


def test_a_player_with_no_chips_left_is_eliminated(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], chips=[10_000, 10_000, 300])
    url = f"/api/tables/{t['id']}"
    short = t["seats"]["Cy"]
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()

    def choose(h: dict[str, Any]) -> str:
        return "all_in" if h["to_act"] == short else passive(h)

    hand = drive(client, url, auth, hand, choose)
    assert hand["awaiting"] == "showdown"
    other = next(s for s in hand["showdown_order"] if s != short)
    r = client.post(f"{url}/hand/award", json={"high": [[other]], "version": hand["version"]}, headers=auth)
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["finished"]
    seating = client.get(f"/api/tournaments/{t['tournament_id']}/seating").get_json()
    cy = next(p for p in seating["players"] if p["name"] == "Cy")
    assert cy["status"] == "eliminated" and cy["place"] == 3 and cy["chips"] == 0
    assert sum(p["chips"] for p in seating["players"]) == 20_300
    assert short not in [s["seat"] for s in seating["tables"][0]["seats"]]
    nxt = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    assert len(nxt["seats"]) == 2


def test_undo_is_refused_for_a_player_the_director_put_out_since_the_hand(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    """The undo brings back only players the hand itself busted; a player the
    director eliminated afterwards (with chips) makes the tablet's undo refused."""
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    hand = drive(client, url, auth, hand, passive)
    winner = hand["showdown_order"][0]
    r = client.post(f"{url}/hand/award", json={"high": [[winner]], "version": hand["version"]}, headers=auth)
    assert r.status_code == 200 and r.get_json()["finished"]
    name = next(s["name"] for s in r.get_json()["seats"] if s["seat"] == winner)
    seating = client.get(f"/api/tournaments/{t['tournament_id']}/seating").get_json()
    player_id = next(p["id"] for p in seating["players"] if p["name"] == name)
    out = client.post(f"/api/tournaments/{t['tournament_id']}/seating/eliminate",
                      json={"player_ids": [player_id]}, headers=auth)
    assert out.status_code == 200, out.get_json()
    undo = client.post(f"{url}/hand/undo", json={}, headers=auth)
    assert undo.status_code == 422
    assert undo.get_json()["error"].startswith(f"{name} is out of the tournament, and not because this hand")
    assert client.get(f"{url}/hand").get_json()["finished"] is True


def test_the_hand_survives_a_restart(make_app: Callable[..., Flask], client: FlaskClient,
                                     auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    from director.services import dealer

    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    hand = play(client, url, auth, hand, ["call", ("raise", 800)])
    dealer.forget_all_hands()
    again = make_app().test_client()
    resumed = again.get(f"{url}/hand").get_json()
    assert resumed == hand
    hand = play(again, url, auth, resumed, ["fold"])
    assert hand["version"] == resumed["version"] + 1


def test_phh_export_replays_with_director_replay(client: FlaskClient, auth: dict[str, str],
                                                 make_tournament: Callable[..., int], tmp_path: Path) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    hand = drive(client, url, auth, hand, passive, [["As", "Kd", "7h"], ["2c"], ["9s"]])
    for seat, cards in zip(hand["showdown_order"], ["QsQdJc2h", "8s8d4c3h", "6s6d5c5h"], strict=True):
        hand = client.post(f"{url}/hand/show", json={"seat": seat, "cards": cards,
                                                     "version": hand["version"]}, headers=auth).get_json()
    assert hand["finished"]
    second = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    play(client, url, auth, second, ["fold", "fold"])
    listing = client.get(f"{url}/hands").get_json()["hands"]
    assert [h["status"] for h in listing] == ["finished", "finished"]
    r = client.get(listing[0]["phh"])
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    text = r.get_data(as_text=True)
    assert "variant = \"PO\"" in text and "finishing_stacks" in text
    archive = zipfile.ZipFile(io.BytesIO(client.get(f"{url}/hands.zip").data))
    names = sorted(archive.namelist())
    assert len(names) == 2
    paths = []
    for name in names:
        path = tmp_path / name
        path.write_bytes(archive.read(name))
        paths.append(str(path))
    result = CliRunner().invoke(director_cli, ["replay", *paths])
    assert result.exit_code == 0, result.output
    assert "mismatch" not in result.output.lower()


def test_director_corrects_a_finished_hand_and_the_stacks_follow(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    hand = play(client, url, auth, hand, ["fold", "fold"])
    winner = hand["awards"][0]["seat"]
    detail = client.get(f"/api/hands/{hand['hand_id']}").get_json()
    events = detail["events"]
    # the small blind did not fold: he called and the big blind checked, then both folded to a bet
    corrected = [events[0], {"type": "action", "player": events[1]["player"], "action": "call"},
                 {"type": "action", "player": 1, "action": "check"}]
    r = client.post(f"/api/hands/{hand['hand_id']}/correct", json={"events": corrected}, headers=auth)
    assert r.status_code == 422 and "not finished" in r.get_json()["error"]
    corrected += [{"type": "deal_board", "cards": ["??", "??", "??"]},
                  {"type": "action", "player": 0, "action": "bet", "amount": 400},
                  {"type": "action", "player": 1, "action": "fold"}]
    r = client.post(f"/api/hands/{hand['hand_id']}/correct", json={"events": corrected}, headers=auth)
    assert r.status_code == 200, r.get_json()
    chips = client.get(f"/api/tournaments/{t['tournament_id']}/seating").get_json()["tables"][0]["chips"]
    assert sum(chips.values()) == 30_000
    assert sorted(chips.values()) != [10_000, 10_000, 10_000]
    assert client.post(f"/api/hands/{hand['hand_id']}/correct", json={"events": corrected}).status_code == 401
    assert winner in [s["seat"] for s in r.get_json()["seats"]]


def test_stud_hand_to_the_showdown(client: FlaskClient, auth: dict[str, str],
                                   make_tournament: Callable[..., int]) -> None:
    stud = level(0, 0, game="F7S", ante=10, bring_in=25, small_bet=100, big_bet=200)
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo"], levels=[stud])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    seats = sorted(s["seat"] for s in hand["seats"])
    streets = [["Kc", "2d"], ["Kd", "3d"], ["7s", "4c"], ["8h", "9c"]]
    for ups in streets:
        r = client.post(f"{url}/hand/deal", json={"cards": {str(s): [c] for s, c in zip(seats, ups, strict=True)},
                                                   "version": hand["version"]}, headers=auth)
        assert r.status_code == 200, r.get_json()
        hand = r.get_json()
        while hand["to_act"] is not None:
            kind = "bring_in" if hand["legal"]["bring_in"] else ("check" if hand["legal"]["check"] else "call")
            hand = play(client, url, auth, hand, [kind])
    assert hand["street"] == "seventh street" and hand["awaiting"] == "street"
    hand = client.post(f"{url}/hand/deal", json={"cards": None, "version": hand["version"]}, headers=auth).get_json()
    hand = play(client, url, auth, hand, ["check", "check"])
    assert hand["awaiting"] == "showdown"
    downs = {seats[0]: "KhAsQd", seats[1]: "Ts Js 2s"}
    for seat in hand["showdown_order"]:
        r = client.post(f"{url}/hand/show", json={"seat": seat, "cards": downs[seat],
                                                  "version": hand["version"]}, headers=auth)
        assert r.status_code == 200, r.get_json()
        hand = r.get_json()
    assert hand["finished"]
    assert hand["awards"][0]["seat"] == seats[0] and "kings" in hand["award_text"][0]
