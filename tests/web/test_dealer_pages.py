"""The dealer's pages: the director's pairing page (codes, QR), pairing a tablet, revoking."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

from tests.web.test_dealer_helpers import play, seat_table


def test_pairing_page_shows_each_tables_code_and_qr(client: FlaskClient, auth: dict[str, str],
                                                    make_tournament: Callable[..., int],
                                                    login: Callable[[], None]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"])
    assert client.get(f"/director/{t['tournament_id']}/dealers").status_code == 302   # director only
    login()
    page = client.get(f"/director/{t['tournament_id']}/dealers")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert t["code"] in html and "/qr.svg?v=" in html and "Table 1" in html
    assert f"/dealer/?table=1&amp;code={t['code']}" in html   # the QR link names the table too
    assert "hands.zip" in html
    # reachable from the tournament and seating pages
    assert f"/director/{t['tournament_id']}/dealers" in client.get(f"/director/{t['tournament_id']}").get_data(as_text=True)
    assert f"/director/{t['tournament_id']}/dealers" in client.get(
        f"/director/{t['tournament_id']}/seating").get_data(as_text=True)


def test_a_tablet_pairs_with_the_code_and_the_director_revokes_it(
        app: Any, client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"])
    tablet = app.test_client()
    assert tablet.get(f"/dealer/table/{t['id']}").status_code == 302          # not paired yet
    form = tablet.get(f"/dealer/?table=1&code={t['code']}").get_data(as_text=True)
    assert f'value="{t["code"]}"' in form and 'name="table" value="1"' in form
    wrong = tablet.post("/dealer/pair", data={"table": "1", "code": "000000"})
    assert wrong.status_code == 400 and "not valid" in wrong.get_data(as_text=True)
    no_table = tablet.post("/dealer/pair", data={"code": t["code"]})
    assert no_table.status_code == 400 and "number of your table" in no_table.get_data(as_text=True)
    paired = tablet.post("/dealer/pair", data={"table": "1", "code": t["code"]})
    assert paired.status_code == 302 and paired.headers["Location"].endswith(f"/dealer/table/{t['id']}")
    page = tablet.get(f"/dealer/table/{t['id']}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and 'id="dealer"' in html and "dealer.js" in html
    csrf = re.search(r'data-csrf="([^"]+)"', html)
    assert csrf
    started = tablet.post(f"/api/tables/{t['id']}/hands", json={}, headers={"X-CSRF-Token": csrf.group(1)})
    assert started.status_code == 201
    revoked = client.post(f"/api/tables/{t['id']}/dealer/revoke", headers=auth)
    assert revoked.status_code == 200
    after = tablet.post(f"/api/tables/{t['id']}/hand/undo", json={}, headers={"X-CSRF-Token": csrf.group(1)})
    assert after.status_code == 401
    assert tablet.get(f"/dealer/table/{t['id']}").status_code == 302


def test_next_hand_preview_names_the_coming_blinds(client: FlaskClient, auth: dict[str, str],
                                                   make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"])
    preview = client.get(f"/api/tables/{t['id']}/next").get_json()
    assert sorted(s["seat"] for s in preview["seats"]) == sorted(t["seats"].values())
    hand = client.post(f"/api/tables/{t['id']}/hands", json={}, headers=auth).get_json()
    assert hand["positions"] == preview["positions"]
    assert client.get(f"/api/tables/{t['id']}/next").get_json()["hand_in_progress"] is True


def test_silent_push_ruling_applies_the_full_raise(client: FlaskClient, auth: dict[str, str],
                                                   make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    seat = hand["to_act"]
    r = client.post(f"{url}/hand/rulings", headers=auth, json={
        "ruling": "silent_push", "seat": seat, "pushed": 300, "confirm": True, "version": hand["version"]})
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["ruling"]["rule"] == "TDA 43-A" and body["ruling"]["applies"] is True
    assert f"Seat {seat} (" in body["ruling"]["text"]
    assert {s["seat"]: s["bet"] for s in body["hand"]["seats"]}[seat] == 400
    # the 50 % rule the other way: facing 400 (a raise of 200), 450 is less than half a raise more
    hand = play(client, url, auth, body["hand"], [])
    r = client.post(f"{url}/hand/rulings", headers=auth, json={
        "ruling": "silent_push", "seat": hand["to_act"], "pushed": 450})
    assert r.get_json()["ruling"]["decision"] == "call"


def test_director_corrects_a_hand_from_the_hands_page(client: FlaskClient, auth: dict[str, str],
                                                      make_tournament: Callable[..., int],
                                                      login: Callable[[], None], csrf: Callable[[], str]) -> None:
    import json

    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    hand = play(client, url, auth, hand, ["fold", "fold"])
    login()
    page = client.get(f"/director/{t['tournament_id']}/dealers/{t['id']}/hands")
    assert page.status_code == 200 and "Correct this hand" in page.get_data(as_text=True)
    events = client.get(f"/api/hands/{hand['hand_id']}").get_json()["events"]
    action = f"/director/{t['tournament_id']}/dealers/{t['id']}/hands/{hand['hand_id']}/correct"
    bad = client.post(action, data={"events": "nonsense", "csrf_token": csrf()})
    assert bad.status_code == 400 and "JSON list" in bad.get_data(as_text=True)
    short = client.post(action, data={"events": json.dumps(events[:1]), "csrf_token": csrf()})
    assert short.status_code == 422 and "not finished" in short.get_data(as_text=True)
    # the big blind, not the small blind, folded: the small blind wins the blinds instead
    fixed = [events[0], {"type": "action", "player": events[1]["player"], "action": "call"},
             {"type": "action", "player": 1, "action": "fold"}]
    ok = client.post(action, data={"events": json.dumps(fixed), "csrf_token": csrf()})
    assert ok.status_code == 302
    chips = client.get(f"/api/tournaments/{t['tournament_id']}/seating").get_json()["tables"][0]["chips"]
    assert sum(chips.values()) == 30_000 and sorted(chips.values()) == [9_800, 10_000, 10_200]


def test_guessing_pairing_codes_locks_the_address_out(client: FlaskClient, auth: dict[str, str],
                                                      make_tournament: Any, app: Any) -> None:
    """A pairing code is a secret like the director's password: after five wrong
    guesses from one address that address gets 429 for a while, even with the
    right code, while another address (another tablet) can still pair.  (The
    guesses name a table that does not exist: table 1 itself is not locked.)"""
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"])
    wrong = "000000" if t["code"] != "000000" else "111111"
    guesser = app.test_client()
    statuses = [guesser.post("/api/dealer/pair", json={"table": 99, "code": wrong},
                             environ_base={"REMOTE_ADDR": "10.9.9.9"}).status_code
                for _ in range(6)]
    assert statuses[:4] == [400] * 4 and statuses[4:] == [429, 429]
    locked = guesser.post("/api/dealer/pair", json={"table": 1, "code": t["code"]},
                          environ_base={"REMOTE_ADDR": "10.9.9.9"})
    assert locked.status_code == 429 and int(locked.headers["Retry-After"]) > 0
    tablet = app.test_client().post("/api/dealer/pair", json={"table": 1, "code": t["code"]},
                                    environ_base={"REMOTE_ADDR": "10.9.9.10"})
    assert tablet.status_code == 201 and tablet.get_json()["table_id"] == t["id"]
