"""The structure export carries the whole event (structure, name, money settings, seating
settings, house rules); the import reads them back; the old {"name", "levels"} file still
imports; a bad field in the file is named and changes nothing."""

from __future__ import annotations

import io
import json
from typing import Any

from tests.conftest import level

MONEY: dict[str, Any] = {"currency": "SEK", "buy_in": "500", "fee": "50",
                         "starting_stack": 30_000, "late_registration_level": 4,
                         "rebuy": True, "rebuy_price": "500", "rebuy_chips": 30_000,
                         "rebuy_until": 3, "payout_template": "custom",
                         "custom_payouts": "50, 30, 20"}


def a_whole_event(client, auth, make_tournament) -> int:
    tid = make_tournament(name="Fredagsturnering", levels=[
        level(25, 50), {"kind": "break", "duration_seconds": 600, "note": "Colour-up"},
        level(50, 100)])
    api = f"/api/tournaments/{tid}"
    assert client.post(f"{api}/money/settings", json=MONEY, headers=auth).status_code == 200
    assert client.post(f"{api}/seating/settings", json={"table_size": 8, "final_table_size": 9},
                       headers=auth).status_code == 200
    assert client.post(f"{api}/house-rules", json={"limit_raise_cap": 4},
                       headers=auth).status_code == 200
    return tid


def test_the_export_carries_the_whole_event(client, auth, make_tournament):
    tid = a_whole_event(client, auth, make_tournament)
    exported = client.get(f"/api/tournaments/{tid}/structure").get_json()
    assert exported["format"] == "director-event/2"
    assert exported["name"] == "Fredagsturnering" and len(exported["levels"]) == 3
    assert exported["money"]["buy_in"] == "500" and exported["money"]["currency"] == "SEK"
    assert exported["money"]["custom_payouts"] == "50, 30, 20"
    assert exported["seating"]["table_size"] == 8 and exported["seating"]["final_table_size"] == 9
    assert exported["house_rules"]["limit_raise_cap"] == 4


def test_the_import_reads_the_whole_event_back_and_keeps_the_name(client, auth, login, csrf,
                                                                   make_tournament):
    source = a_whole_event(client, auth, make_tournament)
    exported = client.get(f"/api/tournaments/{source}/structure").get_json()
    target = make_tournament(name="Blank")
    login()
    upload = {"csrf_token": csrf(), "structure_file": (
        io.BytesIO(json.dumps(exported).encode()), "event.json")}
    answer = client.post(f"/director/{target}/import", data=upload,
                         content_type="multipart/form-data")
    assert answer.status_code == 302, answer.get_data(as_text=True)
    again = client.get(f"/api/tournaments/{target}/structure").get_json()
    assert again == exported                  # the same event, its name and every setting
    money = client.get(f"/api/tournaments/{target}/money").get_json()
    assert money["currency"] == "SEK" and money["settings"]["buy_in_prize"] == 50_000


def test_a_new_event_from_an_exported_file_gets_its_settings(client, auth, login, csrf,
                                                             make_tournament):
    exported = client.get(
        f"/api/tournaments/{a_whole_event(client, auth, make_tournament)}/structure").get_json()
    login()
    created = client.post("/director/new", data={
        "csrf_token": csrf(), "name": "", "template": "import",
        "structure_json": json.dumps(exported)})
    assert created.status_code == 302
    new_id = int(created.headers["Location"].rstrip("/").split("/")[-1])
    copy = client.get(f"/api/tournaments/{new_id}/structure").get_json()
    assert copy["name"] == "Fredagsturnering" and copy["money"] == exported["money"]
    assert copy["house_rules"]["limit_raise_cap"] == 4


def test_the_old_structure_file_still_imports(client, auth, make_tournament):
    target = make_tournament(name="Old")
    old = {"name": "Sunday stud", "levels": [level(100, 200), level(200, 400)]}
    answer = client.put(f"/api/tournaments/{target}/structure", json=old, headers=auth)
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert body["name"] == "Sunday stud" and len(body["levels"]) == 2
    assert body["money"] is None and body["house_rules"] is None


def test_a_bad_setting_in_the_file_is_named_and_changes_nothing(client, auth, make_tournament):
    target = make_tournament(name="Keep me")
    bad = {"name": "Other", "levels": [level(100, 200)],
           "money": {**MONEY, "buy_in": "lots"}, "seating": {"table_size": 3}}
    answer = client.put(f"/api/tournaments/{target}/structure", json=bad, headers=auth)
    assert answer.status_code == 400
    errors = answer.get_json()["errors"]
    assert "money.buy_in" in errors and "seating.table_size" in errors
    after = client.get(f"/api/tournaments/{target}/structure").get_json()
    assert after["name"] == "Keep me" and len(after["levels"]) == 3 and after["money"] is None
