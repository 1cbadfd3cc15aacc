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


def _exported(client, tid: int) -> dict[str, Any]:
    return client.get(f"/api/tournaments/{tid}/structure").get_json()


def test_a_file_whose_money_is_refused_after_its_good_levels_changes_nothing(client, auth,
                                                                             make_tournament):
    # The levels, name and language are fine and come first; the money settings pass the
    # form's checks but not the service's (a bounty event without a bounty, a rounding
    # unit finer than the currency): nothing of the file may stay behind.
    tid = a_whole_event(client, auth, make_tournament)
    before = _exported(client, tid)
    for money in ({**MONEY, "bounty_kind": "fixed"}, {**MONEY, "unit": "0.001"}):
        bad = {**before, "name": "Changed", "language": "sv",
               "levels": [level(10 * i, 20 * i) for i in range(1, 13)], "money": money,
               "seating": {"table_size": 10, "final_table_size": 10},
               "house_rules": {"limit_raise_cap": 5}}
        answer = client.put(f"/api/tournaments/{tid}/structure", json=bad, headers=auth)
        assert answer.status_code == 400
        assert set(answer.get_json()["errors"]) <= {"money.bounty", "money.unit"}
        assert _exported(client, tid) == before


def test_a_bad_level_far_down_the_file_changes_nothing(client, auth, make_tournament):
    tid = a_whole_event(client, auth, make_tournament)
    before = _exported(client, tid)
    levels = [level(10 * i, 20 * i) for i in range(1, 40)] + [{**level(500, 1000), "game": "X"}]
    answer = client.put(f"/api/tournaments/{tid}/structure", headers=auth,
                        json={**before, "name": "Changed", "levels": levels})
    assert answer.status_code == 400
    assert any(key.startswith("levels[39]") for key in answer.get_json()["errors"])
    assert _exported(client, tid) == before


def test_a_file_of_another_format_version_is_refused_naming_the_version(client, auth,
                                                                        make_tournament):
    tid = a_whole_event(client, auth, make_tournament)
    before = _exported(client, tid)
    answer = client.put(f"/api/tournaments/{tid}/structure", headers=auth,
                        json={**before, "format": "director-event/3", "name": "Changed"})
    assert answer.status_code == 400
    assert answer.get_json()["errors"]["format"] == \
        "This file is format version 3; this program reads versions 1 and 2"
    other = client.put(f"/api/tournaments/{tid}/structure", headers=auth,
                       json={**before, "format": "someone-else/1"})
    assert other.status_code == 400 and "someone-else/1" in other.get_json()["errors"]["format"]
    assert _exported(client, tid) == before
    for version in ("director-event/1", "director-event/2"):
        again = client.put(f"/api/tournaments/{tid}/structure", headers=auth,
                           json={**before, "format": version})
        assert again.status_code == 200, again.get_json()


def test_a_new_event_from_a_file_the_money_service_refuses_is_not_created(client, auth, login,
                                                                          csrf, make_tournament):
    exported = _exported(client, a_whole_event(client, auth, make_tournament))
    events_before = client.get("/api/tournaments", headers=auth).get_json()
    login()
    refused = client.post("/director/new", data={
        "csrf_token": csrf(), "name": "", "template": "import",
        "structure_json": json.dumps({**exported, "money": {**MONEY, "unit": "0.001"}})})
    assert refused.status_code == 400
    assert client.get("/api/tournaments", headers=auth).get_json() == events_before


def _spy_dispatcher(app, monkeypatch) -> list[Any]:
    """Every dispatch of the unit of work (``services.uow``): what was told, and when."""
    from director.services import uow

    told: list[Any] = []
    dispatcher = app.extensions[uow.EXTENSION]

    def spy(changes: Any) -> None:
        told.append(changes)
        dispatcher(changes)

    monkeypatch.setitem(app.extensions, uow.EXTENSION, spy)
    return told


def test_a_saved_file_is_one_unit_told_once_after_its_commit(app, client, auth, make_tournament,
                                                             monkeypatch):
    """The structure, the money, the seating and the house rules are saved by four services
    in one transaction: their lines and their screens are told in one dispatch."""
    exported = _exported(client, a_whole_event(client, auth, make_tournament))
    target = make_tournament(name="Blank")
    told = _spy_dispatcher(app, monkeypatch)
    answer = client.put(f"/api/tournaments/{target}/structure", json=exported, headers=auth)
    assert answer.status_code == 200, answer.get_json()
    assert len(told) == 1
    keys = [line.key for line in told[0].log]
    assert "structure imported" in keys and "house rule changed" in keys
    assert set(told[0].screens) == {target}
    assert {"structure", "money"} <= set(told[0].screens[target].kinds)


def test_a_refused_file_tells_nothing_and_logs_nothing(app, client, auth, make_tournament,
                                                       monkeypatch):
    """The money service refuses the file after the levels were saved: nothing stays,
    nothing is dispatched (no log line, no screen, no clock job)."""
    from director.services import read_model

    tid = a_whole_event(client, auth, make_tournament)
    exported = _exported(client, tid)
    with app.app_context():
        before = read_model.clock_state(tid)["version"]
    told = _spy_dispatcher(app, monkeypatch)
    refused = client.put(f"/api/tournaments/{tid}/structure", headers=auth, json={
        **exported, "levels": [level(100, 200)], "money": {**MONEY, "unit": "0.001"}})
    assert refused.status_code == 400
    assert told == []
    assert _exported(client, tid) == exported
    with app.app_context():
        assert read_model.clock_state(tid)["version"] == before
