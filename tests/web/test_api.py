"""The JSON API contract: status codes, error bodies naming the field, clock JSON."""

from __future__ import annotations

from datetime import datetime

import pytest

from tests.conftest import break_, level

CLOCK_KEYS = {"tournament_id", "running", "level_index", "level", "next_level",
              "seconds_remaining", "ends_at", "server_time"}
LEVEL_KEYS = {"kind", "duration_seconds", "game", "small_blind", "big_blind", "ante",
              "big_blind_ante", "small_bet", "big_bet", "bring_in"}


def test_create_answers_201_with_the_id(client, auth):
    response = client.post("/api/tournaments", headers=auth,
                           json={"name": "Friday PLO", "levels": [level(25, 50)]})
    assert response.status_code == 201
    tournament_id = response.get_json()["id"]
    clock = client.get(f"/api/tournaments/{tournament_id}/clock").get_json()
    assert clock["level"]["small_blind"] == 25 and clock["level"]["big_blind"] == 50


def test_omitted_level_fields_default_to_zero_and_false(client, auth):
    body = {"name": "Stud", "levels": [{"kind": "level", "game": "F7S", "duration_seconds": 60,
                                         "ante": 25, "bring_in": 50, "small_bet": 200,
                                         "big_bet": 400}]}
    tournament_id = client.post("/api/tournaments", json=body, headers=auth).get_json()["id"]
    stud = client.get(f"/api/tournaments/{tournament_id}/clock").get_json()["level"]
    assert stud["small_blind"] == 0 and stud["big_blind"] == 0 and stud["big_blind_ante"] is False


def test_create_without_token_is_401(client):
    response = client.post("/api/tournaments", json={"name": "x", "levels": [level()]})
    assert response.status_code == 401
    assert "token" in response.get_json()["error"]


def test_create_with_wrong_token_is_401(client):
    response = client.post("/api/tournaments", json={"name": "x", "levels": [level()]},
                           headers={"Authorization": "Bearer not-the-token"})
    assert response.status_code == 401


@pytest.mark.parametrize("body", [
    b"{not json", b"", b"[1, 2]", b"null", b"\xff\xfe\x00garbage", b'"a string"',
])
def test_garbage_json_is_400_naming_the_body_never_500(client, auth, body):
    response = client.post("/api/tournaments", data=body, headers=auth,
                           content_type="application/json")
    assert response.status_code == 400
    assert "body" in response.get_json()["errors"]


def test_missing_name_is_400_naming_name(client, auth):
    response = client.post("/api/tournaments", json={"levels": [level()]}, headers=auth)
    assert response.status_code == 400
    assert set(response.get_json()["errors"]) == {"name"}


def test_big_blind_below_small_blind_names_the_field(client, auth):
    response = client.post("/api/tournaments", headers=auth,
                           json={"name": "x", "levels": [level(100, 200), level(200, 100)]})
    assert response.status_code == 400
    errors = response.get_json()["errors"]
    assert "levels[1].big_blind" in errors
    assert "small blind" in errors["levels[1].big_blind"]


@pytest.mark.parametrize(("bad", "field"), [
    ({"small_blind": 0}, "small_blind"),
    ({"big_blind": -5}, "big_blind"),
    ({"duration_seconds": 0}, "duration_seconds"),
    ({"game": "NLHE"}, "game"),
    ({"bring_in": 25}, "bring_in"),
    ({"small_blind": "lots"}, "small_blind"),
    ({"big_blind_ante": "yes"}, "big_blind_ante"),
])
def test_each_invalid_level_field_is_named(client, auth, bad, field):
    response = client.post("/api/tournaments", headers=auth,
                           json={"name": "x", "levels": [{**level(), **bad}]})
    assert response.status_code == 400
    assert f"levels[0].{field}" in response.get_json()["errors"]


def test_stud_level_may_not_carry_blinds(client, auth):
    stud = {"kind": "level", "game": "F7S", "duration_seconds": 60, "ante": 25, "bring_in": 50,
            "small_bet": 200, "big_bet": 400, "small_blind": 100, "big_blind": 200}
    response = client.post("/api/tournaments", json={"name": "x", "levels": [stud]}, headers=auth)
    assert response.status_code == 400
    assert "levels[0].small_blind" in response.get_json()["errors"]


def test_levels_must_be_a_list(client, auth):
    response = client.post("/api/tournaments", json={"name": "x", "levels": "fast"}, headers=auth)
    assert response.status_code == 400
    assert "levels" in response.get_json()["errors"]


def test_clock_is_public_and_has_the_contract_keys(client, make_tournament):
    tournament_id = make_tournament()
    response = client.get(f"/api/tournaments/{tournament_id}/clock")
    assert response.status_code == 200
    clock = response.get_json()
    assert set(clock) >= CLOCK_KEYS
    assert set(clock["level"]) >= LEVEL_KEYS and set(clock["next_level"]) >= LEVEL_KEYS
    assert clock["running"] is False and clock["ends_at"] is None
    assert clock["seconds_remaining"] == 1200
    assert datetime.fromisoformat(clock["server_time"]).tzinfo is not None


def test_next_level_is_null_on_the_last_level(client, auth, make_tournament):
    tournament_id = make_tournament(levels=[level(25, 50)])
    clock = client.get(f"/api/tournaments/{tournament_id}/clock").get_json()
    assert clock["next_level"] is None


def test_start_sets_ends_at_one_level_later(client, auth, make_tournament):
    tournament_id = make_tournament(levels=[level(25, 50, seconds=600), level(50, 100)])
    clock = client.post(f"/api/tournaments/{tournament_id}/clock/start", headers=auth).get_json()
    assert clock["running"] is True
    ends = datetime.fromisoformat(clock["ends_at"])
    now = datetime.fromisoformat(clock["server_time"])
    assert abs((ends - now).total_seconds() - 600) < 1


def test_pause_and_resume_keep_the_remaining_time(client, auth, make_tournament):
    tournament_id = make_tournament()
    url = f"/api/tournaments/{tournament_id}/clock"
    client.post(f"{url}/start", headers=auth)
    paused = client.post(f"{url}/pause", headers=auth).get_json()
    assert paused["running"] is False and paused["ends_at"] is None
    resumed = client.post(f"{url}/resume", headers=auth).get_json()
    assert resumed["running"] is True
    assert abs(resumed["seconds_remaining"] - paused["seconds_remaining"]) < 0.5


def test_adjust_adds_and_removes_time(client, auth, make_tournament):
    tournament_id = make_tournament()
    url = f"/api/tournaments/{tournament_id}/clock"
    client.post(f"{url}/start", headers=auth)
    client.post(f"{url}/pause", headers=auth)
    plus = client.post(f"{url}/adjust", json={"seconds": 60}, headers=auth).get_json()
    assert plus["seconds_remaining"] == pytest.approx(1260, abs=0.5)
    minus = client.post(f"{url}/adjust", json={"seconds": -120}, headers=auth).get_json()
    assert minus["seconds_remaining"] == pytest.approx(1140, abs=0.5)


def test_adjust_past_the_end_of_the_level_advances_it(client, auth, make_tournament):
    tournament_id = make_tournament(levels=[level(25, 50, seconds=60), level(50, 100, seconds=60)])
    url = f"/api/tournaments/{tournament_id}/clock"
    client.post(f"{url}/start", headers=auth)
    clock = client.post(f"{url}/adjust", json={"seconds": -90}, headers=auth).get_json()
    assert clock["level_index"] == 1
    assert clock["level"]["big_blind"] == 100
    assert clock["seconds_remaining"] == pytest.approx(30, abs=1)


@pytest.mark.parametrize("body", [{}, {"seconds": "60"}, {"seconds": 1.5}, {"seconds": True},
                                  {"seconds": 10**9}])
def test_adjust_with_bad_seconds_is_400_naming_seconds(client, auth, make_tournament, body):
    tournament_id = make_tournament()
    response = client.post(f"/api/tournaments/{tournament_id}/clock/adjust", json=body,
                           headers=auth)
    assert response.status_code == 400
    assert "seconds" in response.get_json()["errors"]


def test_next_and_previous_cross_a_break(client, auth, make_tournament):
    tournament_id = make_tournament(levels=[level(25, 50), break_(900, "remove T25"),
                                            level(50, 100)])
    url = f"/api/tournaments/{tournament_id}/clock"
    client.post(f"{url}/start", headers=auth)
    on_break = client.post(f"{url}/next", headers=auth).get_json()
    assert on_break["level"]["is_break"] is True
    assert on_break["level"]["note"] == "remove T25"
    assert on_break["seconds_remaining"] == pytest.approx(900, abs=1)
    after = client.post(f"{url}/next", headers=auth).get_json()
    assert after["level"]["big_blind"] == 100 and after["level"]["level_number"] == 2
    back = client.post(f"{url}/previous", headers=auth).get_json()
    assert back["level_index"] == 1


def test_next_on_the_last_level_is_400_naming_the_level(client, auth, make_tournament):
    tournament_id = make_tournament(levels=[level(25, 50)])
    response = client.post(f"/api/tournaments/{tournament_id}/clock/next", headers=auth)
    assert response.status_code == 400
    assert "last level" in response.get_json()["errors"]["level_index"]


def test_time_to_the_next_break_counts_the_levels_before_it(client, auth, make_tournament):
    tournament_id = make_tournament(levels=[level(25, 50, seconds=600),
                                            level(50, 100, seconds=600), break_(300)])
    clock = client.get(f"/api/tournaments/{tournament_id}/clock").get_json()
    assert clock["seconds_to_break"] == 1200


@pytest.mark.parametrize("control", ["start", "pause", "resume", "next", "previous", "adjust"])
def test_every_control_without_token_is_401(client, make_tournament, control):
    tournament_id = make_tournament()
    response = client.post(f"/api/tournaments/{tournament_id}/clock/{control}",
                           json={"seconds": 60})
    assert response.status_code == 401


@pytest.mark.parametrize("control", ["start", "pause", "resume", "next", "previous", "adjust"])
def test_every_control_on_an_unknown_tournament_is_404(client, auth, control):
    body = {"seconds": 60} if control == "adjust" else {}   # the others take no body
    response = client.post(f"/api/tournaments/999/clock/{control}", json=body, headers=auth)
    assert response.status_code == 404
    assert "error" in response.get_json()


def test_unknown_clock_is_404_json(client):
    response = client.get("/api/tournaments/999/clock")
    assert response.status_code == 404
    assert response.is_json


def test_unknown_api_path_is_404_json(client):
    assert client.get("/api/nothing-here").status_code == 404
    assert client.get("/api/nothing-here").is_json


@pytest.mark.parametrize(("method", "path"), [
    ("get", "/api/tournaments/1/clock/start"),
    ("put", "/api/tournaments/1/clock"),
    ("delete", "/api/tournaments"),
    ("get", "/api/tournaments/1/clock/adjust"),
])
def test_wrong_method_is_405_json(client, make_tournament, method, path):
    make_tournament()
    response = getattr(client, method)(path)
    assert response.status_code == 405
    assert response.is_json
    assert "POST" in response.headers.get("Allow", "") or "GET" in response.headers["Allow"]


def test_structure_export_then_import_round_trips(client, auth, make_tournament):
    tournament_id = make_tournament(levels=[level(25, 50), break_(600, "colour up T25"),
                                            level(50, 100, ante=100, big_blind_ante=True)])
    exported = client.get(f"/api/tournaments/{tournament_id}/structure").get_json()
    other = make_tournament(levels=[level(1, 2)], name="Other")
    response = client.put(f"/api/tournaments/{other}/structure", json=exported, headers=auth)
    assert response.status_code == 200
    assert response.get_json()["levels"] == exported["levels"]


def test_structure_import_names_bad_fields(client, auth, make_tournament):
    tournament_id = make_tournament()
    response = client.put(f"/api/tournaments/{tournament_id}/structure", headers=auth,
                          json={"name": "x", "levels": [level(200, 100)]})
    assert response.status_code == 400
    assert "levels[0].big_blind" in response.get_json()["errors"]


def test_a_session_write_needs_the_csrf_token(client, login, csrf, make_tournament):
    tournament_id = make_tournament()
    login()
    url = f"/api/tournaments/{tournament_id}/clock/start"
    assert client.post(url, json={}).status_code == 400
    response = client.post(url, json={}, headers={"X-CSRF-Token": csrf()})
    assert response.status_code == 200 and response.get_json()["running"] is True
