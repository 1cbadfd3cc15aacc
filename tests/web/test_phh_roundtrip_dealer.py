"""Every hand the dealer tablet can produce downloads as a PHH file that
``director replay`` reads back to the stacks and awards the server has.

Each test plays one kind of hand through the dealer JSON API, downloads
``/api/hands/<id>.phh`` (and the table's zip), replays it with the CLI as a
user would, and compares the replay's finishing stacks, seat by seat, with
the server's, and the replayed awards with the server's awards.  The kinds:
a seat absent at the deal (TDA 30), a hand killed by the clock and a check
by the clock (TDA 29), a misdeal (TDA 35), an award picked by hand, a stud
hand to showdown and an O8 split pot.
"""

from __future__ import annotations

import io
import json
import tomllib
import warnings
import zipfile
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pokerkit
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from director.cli import main as director_cli
from director.db import utcnow
from director.poker import phh
from tests.conftest import level
from tests.web.test_dealer_helpers import drive, o8_showdown, passive, play, seat_table


def download(client: FlaskClient, hand_id: int, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """The hand's PHH file as the tablet downloads it, saved to disk, and its TOML."""
    r = client.get(f"/api/hands/{hand_id}.phh")
    assert r.status_code == 200
    text = r.get_data(as_text=True)
    path = tmp_path / f"hand{hand_id}.phh"
    path.write_text(text, encoding="utf-8")
    return path, tomllib.loads(text)


def replay_cli(path: Path) -> dict[str, Any]:
    """``director replay --json FILE``: it must exit 0; its JSON object."""
    result = CliRunner().invoke(director_cli, ["replay", "--json", str(path)])
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.output.strip().splitlines()[-1])
    assert out["error"] is None
    return out


def server_stacks(hand: dict[str, Any]) -> dict[int, int]:
    return {s["seat"]: s["stack"] for s in hand["seats"]}


def check_round_trip(client: FlaskClient, url: str, hand: dict[str, Any],
                     tmp_path: Path) -> dict[str, Any]:
    """Download the finished hand, replay it, and compare stacks and awards
    with the server's, by seat; returns the file's TOML."""
    assert hand["finished"]
    hand = client.get(f"{url}/hand").get_json() if hand.get("hand_id") is None else hand
    path, data = download(client, hand["hand_id"], tmp_path)
    seats = data["seats"]
    replayed = replay_cli(path)
    got = dict(zip(seats, replayed["finishing_stacks"], strict=True))
    assert got == server_stacks(hand)
    assert dict(zip(seats, data["finishing_stacks"], strict=True)) == server_stacks(hand)
    # the same awards: who won how much of which half
    engine = phh.replay(phh.read_phh(str(path)), phh.file_policy(phh.read_phh(str(path))))
    replay_awards = Counter((seats[a.player], a.amount) for a in engine.awards())
    server_awards = Counter((a["seat"], a["amount"]) for a in hand["awards"])
    assert replay_awards == server_awards
    # other PHH readers still parse it: our fields are user-defined ("_..."), the rest standard
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        other = pokerkit.HandHistory.loads(path.read_text(encoding="utf-8"))
    assert set(other.user_defined_fields) == {k for k in data if k.startswith("_")}
    assert list(other.finishing_stacks or []) == data["finishing_stacks"]
    return data


def test_TDA_30_absent_seat_dead_hand_replays(client: FlaskClient, auth: dict[str, str],
                                              make_tournament: Callable[..., int], tmp_path: Path) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di", "Ed"])
    url = f"/api/tables/{t['id']}"
    seating = client.get(f"/api/tournaments/{t['tournament_id']}/seating").get_json()["tables"][0]
    bb = seating["next_hand"]["big_blind"]
    hand = client.post(f"{url}/hands", json={"absent_seats": [bb]}, headers=auth).get_json()
    hand = drive(client, url, auth, hand, passive, [["As", "Kd", "7h"], ["2c"], ["9s"]])
    live = hand["showdown_order"]
    assert bb not in live
    hand = client.post(f"{url}/hand/award", json={"high": [[live[0]]], "version": hand["version"]},
                       headers=auth).get_json()
    data = check_round_trip(client, url, hand, tmp_path)
    assert data["_dead_players"] == [f"p{data['seats'].index(bb) + 1}"]
    assert server_stacks(hand)[bb] == 10_000 - 200          # the dead big blind stays in the pot
    text = CliRunner().invoke(director_cli, ["replay", str(tmp_path / f"hand{hand['hand_id']}.phh")])
    name = data["players"][data["seats"].index(bb)]
    assert text.exit_code == 0
    assert f"Dead at the deal (TDA 30): {data['_dead_players'][0]} {name}" in text.output


def test_TDA_29_clock_kill_and_clock_check_replay(app: Flask, client: FlaskClient, auth: dict[str, str],
                                                  make_tournament: Callable[..., int], tmp_path: Path) -> None:
    from director.services import dealer_rulings

    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()

    def clock_runs_out(seat: int) -> dict[str, Any]:
        r = client.post(f"{url}/hand/clock", json={"seat": seat}, headers=auth)
        assert r.status_code == 200, r.get_json()
        with app.test_request_context():
            answer = dealer_rulings.rule(t["id"], {"ruling": "clock_expired", "confirm": True},
                                         who="dealer", now=utcnow() + timedelta(seconds=31))
        return answer.body["ruling"]  # type: ignore[no-any-return]

    killed = hand["to_act"]                              # facing the big blind: hand dead
    assert clock_runs_out(killed)["decision"] == "hand_dead"
    hand = client.get(f"{url}/hand").get_json()
    hand = play(client, url, auth, hand, [passive(hand)] * 3)   # call, call, check
    assert hand["awaiting"] == "board"
    hand = client.post(f"{url}/hand/board", json={"cards": ["As", "Kd", "7h"], "version": hand["version"]},
                       headers=auth).get_json()
    checked = hand["to_act"]                             # nothing to call: checked by the clock
    assert clock_runs_out(checked)["rule"] == "TDA 29"
    hand = client.get(f"{url}/hand").get_json()
    assert hand["to_act"] != checked
    hand = drive(client, url, auth, hand, passive, [["2c"], ["9s"]])
    order = hand["showdown_order"]
    assert killed not in order
    for seat, cards in zip(order, ["QsQdJc2h", "8s8d4c3h", "6s6d5c5h"], strict=True):
        hand = client.post(f"{url}/hand/show", json={"seat": seat, "cards": cards,
                                                     "version": hand["version"]}, headers=auth).get_json()
    data = check_round_trip(client, url, hand, tmp_path)
    kinds = [e["type"] for e in data["_events"]]
    assert kinds == ["kill", "check_by_clock"]
    kill = data["_events"][0]
    assert kill["reason"] == "clock" and data["actions"][kill["action"] - 1].startswith(kill["player"] + " f")
    # the kill is a fold and the clock check a check to other readers: pokerkit replays it too
    final = list(pokerkit.HandHistory.loads((tmp_path / f"hand{hand['hand_id']}.phh").read_text()))[-1]
    assert list(final.stacks) == data["finishing_stacks"]


def test_TDA_35_misdeal_replays_to_the_starting_stacks(client: FlaskClient, auth: dict[str, str],
                                                       make_tournament: Callable[..., int],
                                                       tmp_path: Path) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    done = client.post(f"{url}/hand/rulings", json={"ruling": "exposed_card", "positions": [1],
                                                    "confirm": True, "version": hand["version"]},
                       headers=auth)
    assert done.status_code == 200
    voided = done.get_json()["hand"]
    assert voided["misdeal"]
    data = check_round_trip(client, url, voided, tmp_path)
    assert data["finishing_stacks"] == data["starting_stacks"] == [10_000] * 4
    assert data["_events"][0]["type"] == "misdeal"
    assert data["actions"][data["_events"][0]["action"] - 1].startswith("# misdeal")
    text = CliRunner().invoke(director_cli, ["replay", str(tmp_path / f"hand{voided['hand_id']}.phh")])
    assert text.exit_code == 0 and "Misdeal (exposed card): the hand is void" in text.output
    assert "Main pot" not in text.output


def test_award_picked_by_hand_replays(client: FlaskClient, auth: dict[str, str],
                                      make_tournament: Callable[..., int], tmp_path: Path) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], chips=[10_000, 10_000, 500])
    url = f"/api/tables/{t['id']}"
    short = t["seats"]["Cy"]
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    bet_made: list[int] = []

    def choose(h: dict[str, Any]) -> str | tuple[str, int]:
        if h["to_act"] == short:
            return "all_in"
        if h["street"] == "flop" and not bet_made:
            bet_made.append(h["to_act"])
            return ("bet", 1_000)
        return passive(h)

    hand = drive(client, url, auth, hand, choose)
    assert hand["awaiting"] == "showdown"
    others = [s for s in hand["showdown_order"] if s != short]
    # the short stack wins the main pot, the other two split the side pot
    r = client.post(f"{url}/hand/award", json={"high": [[short], others], "version": hand["version"]},
                    headers=auth)
    assert r.status_code == 200, r.get_json()
    hand = r.get_json()
    data = check_round_trip(client, url, hand, tmp_path)
    award = data["_events"][-1]
    assert award["type"] == "manual_award" and len(award["high"]) == 2
    stacks = server_stacks(hand)
    assert stacks[short] == 1_500 and [stacks[s] for s in others] == [9_500, 9_500]


def test_stud_hand_replays(client: FlaskClient, auth: dict[str, str],
                           make_tournament: Callable[..., int], tmp_path: Path) -> None:
    stud = level(0, 0, game="F7S", ante=10, bring_in=25, small_bet=100, big_bet=200)
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], levels=[stud])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    seats = sorted(s["seat"] for s in hand["seats"])
    for ups in [["Kc", "2d", "5h"], ["Kd", "3d", "6h"], ["7s", "4c", "8d"], ["8h", "9c", "Tc"]]:
        r = client.post(f"{url}/hand/deal", json={"cards": {str(s): [c] for s, c in zip(seats, ups, strict=True)},
                                                   "version": hand["version"]}, headers=auth)
        assert r.status_code == 200, r.get_json()
        hand = r.get_json()
        while hand["to_act"] is not None:
            kind = "bring_in" if hand["legal"]["bring_in"] else passive(hand)
            hand = play(client, url, auth, hand, [kind])
    hand = client.post(f"{url}/hand/deal", json={"cards": None, "version": hand["version"]},
                       headers=auth).get_json()
    hand = play(client, url, auth, hand, [passive(hand)] * 3)
    assert hand["awaiting"] == "showdown"
    downs = {seats[0]: "KhAsQd", seats[1]: "TsJs2s", seats[2]: "3h4h9h"}
    for seat in hand["showdown_order"]:
        hand = client.post(f"{url}/hand/show", json={"seat": seat, "cards": downs[seat],
                                                     "version": hand["version"]}, headers=auth).get_json()
    data = check_round_trip(client, url, hand, tmp_path)
    assert data["variant"] == "F7S" and "_events" not in data


def test_O8_split_pot_replays_with_the_quartered_low(client: FlaskClient, auth: dict[str, str],
                                                     make_tournament: Callable[..., int],
                                                     tmp_path: Path) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], levels=[level(100, 200, game="PO/8")])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    hand, _ = o8_showdown(client, url, auth, hand, flop_bet=203)
    check_round_trip(client, url, hand, tmp_path)
    # the table's zip holds the same file, and it replays too
    archive = zipfile.ZipFile(io.BytesIO(client.get(f"{url}/hands.zip").data))
    (name,) = archive.namelist()
    path = tmp_path / name
    path.write_bytes(archive.read(name))
    assert replay_cli(path)["finishing_stacks"] == tomllib.loads(path.read_text())["finishing_stacks"]
