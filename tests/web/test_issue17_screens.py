"""Issue 17 items 3-5 through the API: the structure wizard, the chip set and its
colour-ups with the chip race, the chip leaders, the announcement ticker and the room."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import break_, level

WIZARD = {"starting_stack": 20_000, "chips": [25, 100, 500, 1000, 5000], "players": 100,
          "duration_minutes": 600, "games": ["PO"], "start": "2025-03-01T18:00:00Z"}


def test_the_wizard_answers_a_structure_that_creates_a_tournament(client, auth):
    answer = client.post("/api/structures/wizard", json=WIZARD, headers=auth)
    assert answer.status_code == 200
    proposal = answer.get_json()
    assert proposal["levels"][0]["small_blind"] == 25
    assert proposal["wizard"]["expected_end"].startswith("2025-03-02T0")
    created = client.post("/api/tournaments", json=proposal, headers=auth)
    assert created.status_code == 201
    tid = created.get_json()["id"]
    exported = client.get(f"/api/tournaments/{tid}/structure").get_json()
    assert exported["levels"] == proposal["levels"]


@pytest.mark.parametrize(("change", "field"), [
    ({"chips": [25, 100, 250]}, "chips"), ({"players": 0}, "players"),
    ({"games": ["LHE"]}, "games"), ({"starting_stack": "lots"}, "starting_stack"),
    ({"duration_minutes": 99_999}, "duration_minutes"), ({"start": "tomorrow"}, "start"),
])
def test_the_wizard_refuses_bad_facts_naming_the_field(client, auth, change, field):
    answer = client.post("/api/structures/wizard", json=WIZARD | change, headers=auth)
    assert answer.status_code == 400
    assert field in answer.get_json()["errors"]


def test_the_wizard_needs_the_director(client):
    assert client.post("/api/structures/wizard", json=WIZARD).status_code == 401


@pytest.fixture
def event(client, auth, make_tournament):
    tid = make_tournament(levels=[level(25, 50), level(75, 150), break_(600, "No colour-up"),
                                  level(100, 200), level(200, 400)])

    def post(path: str, body: Any, status: int = 200) -> Any:
        response = client.post(f"/api/tournaments/{tid}/{path}", json=body, headers=auth)
        assert response.status_code == status, (path, response.get_json())
        return response.get_json()

    post("money/settings", {"buy_in": "100", "starting_stack": 10_000})
    post("seating/settings", {"table_size": 6})
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"):
        post("seating/players", {"name": name}, 201)
    post("seating/draw", {})
    return tid, post


def _players(client, tid) -> dict[str, dict[str, Any]]:
    """name -> {"player_id", "chips", "table", "seat"} of the players in play."""
    players = client.get(f"/api/tournaments/{tid}/seating").get_json()["players"]
    return {p["name"]: p | {"player_id": p["id"]} for p in players if p["status"] == "active"}


def test_a_bad_chip_set_is_refused_and_nothing_changes(client, auth, event):
    tid, _post = event
    answer = client.put(f"/api/tournaments/{tid}/chips", json={"chip_set": [25, 60]}, headers=auth)
    assert answer.status_code == 400 and "chip_set" in answer.get_json()["errors"]
    assert client.get(f"/api/tournaments/{tid}/chips").get_json()["chip_set"] is None


def test_the_colour_up_plan_and_the_race_move_the_smallest_chip_in_play(client, auth, event):
    tid, post = event
    view = client.put(f"/api/tournaments/{tid}/chips", json={"chip_set": [25, 100, 500]},
                      headers=auth).get_json()
    assert view["colour_ups"] == [{"index": 2, "removed": [25], "smallest": 100,
                                   "level_number": 3}]
    assert view["next"] == {"removed": 25, "new": 100}
    players = _players(client, tid)
    ids = {name: seat["player_id"] for name, seat in players.items()}
    for name in ("Ann", "Bob"):
        post("seating/chips", {"player_id": ids[name], "chips": 10_075})
    before = sum(seat["chips"] for seat in _players(client, tid).values())
    counts = {str(ids["Ann"]): 3, str(ids["Bob"]): 7}
    quote = post("chip-race", {"counts": counts, "seed": 7})
    assert quote["confirmed"] is False and quote["smallest_chip"] == 25
    assert client.get(f"/api/tournaments/{tid}/chips").get_json()["smallest_chip"] == 25
    done = post("chip-race", {"counts": counts, "seed": 7, "confirm": True})
    assert done["tables"] == quote["tables"]           # the same cards: the same race
    after = _players(client, tid)
    assert sum(seat["chips"] for seat in after.values()) % 100 == 0
    assert abs(sum(seat["chips"] for seat in after.values()) - before) <= 100
    assert all(seat["chips"] % 100 == 0 for seat in after.values())
    view = client.get(f"/api/tournaments/{tid}/chips").get_json()
    assert view["smallest_chip"] == 100 and view["next"] == {"removed": 100, "new": 500}
    again = client.post(f"/api/tournaments/{tid}/chip-race",
                        json={"counts": counts, "removed": 25, "confirm": True}, headers=auth)
    assert again.status_code == 400 and "removed" in again.get_json()["errors"]


def test_the_chip_race_is_confirmed_at_a_break_or_with_the_clock_paused_not_mid_level(
        client, auth, event):
    tid, post = event
    client.put(f"/api/tournaments/{tid}/chips", json={"chip_set": [25, 100]}, headers=auth)
    ann = _players(client, tid)["Ann"]["player_id"]
    post("seating/chips", {"player_id": ann, "chips": 10_075})
    race = {"counts": {str(ann): 3}, "seed": 7}
    post("clock/start", {})
    assert post("chip-race", race)["confirmed"] is False      # the quote, at any time
    refused = client.post(f"/api/tournaments/{tid}/chip-race", json={**race, "confirm": True},
                          headers=auth)
    assert refused.status_code == 400
    assert refused.get_json()["errors"] == {"clock": (
        "The chip race is confirmed at a break: level 1 is being played. "
        "Wait for the break, or pause the clock first")}
    assert _players(client, tid)["Ann"]["chips"] == 10_075
    post("clock/next", {})
    post("clock/next", {})                                    # the break before level 3
    assert post("chip-race", {**race, "confirm": True})["confirmed"] is True
    assert _players(client, tid)["Ann"]["chips"] % 100 == 0


def test_the_chip_race_may_be_confirmed_with_the_clock_paused(client, auth, event):
    tid, post = event
    client.put(f"/api/tournaments/{tid}/chips", json={"chip_set": [25, 100]}, headers=auth)
    post("clock/start", {})
    post("clock/pause", {})
    assert post("chip-race", {"counts": {}, "seed": 7, "confirm": True})["confirmed"] is True


def test_a_count_beyond_the_stack_is_refused_and_changes_nothing(client, auth, event):
    tid, post = event
    client.put(f"/api/tournaments/{tid}/chips", json={"chip_set": [25, 100]}, headers=auth)
    ann = _players(client, tid)["Ann"]["player_id"]
    answer = client.post(f"/api/tournaments/{tid}/chip-race",
                         json={"counts": {str(ann): 10_000}, "confirm": True}, headers=auth)
    assert answer.status_code == 400 and f"counts.{ann}" in answer.get_json()["errors"]
    assert _players(client, tid)["Ann"]["chips"] == 10_000
    assert client.get(f"/api/tournaments/{tid}/chips").get_json()["smallest_chip"] == 25


def test_the_clock_carries_the_chip_leaders_and_the_announcement(client, auth, event):
    tid, post = event
    ids = {name: seat["player_id"] for name, seat in _players(client, tid).items()}
    for name, chips in (("Cid", 25_000), ("Eve", 18_000), ("Hal", 3_000)):
        post("seating/chips", {"player_id": ids[name], "chips": chips})
    clock = client.get(f"/api/tournaments/{tid}/clock").get_json()
    leaders = clock["chip_leaders"]
    assert [leader["name"] for leader in leaders[:2]] == ["Cid", "Eve"]
    assert len(leaders) == 5 and leaders[0]["chips"] == 25_000 and leaders[0]["table"]
    answer = post("announcement", {"text": "  Dinner   after level 8 "})
    assert answer["announcement"] == "Dinner after level 8"
    too_long = client.post(f"/api/tournaments/{tid}/announcement", json={"text": "x" * 281},
                           headers=auth)
    assert too_long.status_code == 400 and "text" in too_long.get_json()["errors"]
    assert client.get(f"/api/tournaments/{tid}/clock").get_json()["announcement"] == \
        "Dinner after level 8"
    assert post("announcement", {"text": ""})["announcement"] is None


def test_a_no_colour_up_break_shows_no_colour_up_banner(client, auth, event):
    tid, post = event
    post("clock/start", {})
    post("clock/next", {})
    post("clock/next", {})
    clock = client.get(f"/api/tournaments/{tid}/clock").get_json()
    assert clock["level"]["is_break"]
    assert "colour_up" not in [banner["kind"] for banner in clock["banners"]]


def test_the_room_shows_the_running_tournaments(client, auth, make_tournament):
    first = make_tournament(name="Room A")
    second = make_tournament(name="Room B")
    make_tournament(name="Idle event")
    for tid in (first, second):
        client.post(f"/api/tournaments/{tid}/clock/start", headers=auth)
    page = client.get("/room")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Room A" in text and "Room B" in text and "Idle event" not in text
    assert client.get(f"/room?ids={second}").get_data(as_text=True).count("room-column\"") == 1
    assert client.get("/room?ids=1;drop").status_code == 400


def test_the_pages_render(client, login, event):
    tid, _post = event
    login()
    assert client.get("/director/wizard").status_code == 200
    assert client.get(f"/director/{tid}/chip-race").status_code == 200
    assert b'id="ticker"' in client.get(f"/director/{tid}").data
    assert b'id="wizard-link"' in client.get("/director/").data


def test_a_confirmed_race_sent_again_with_its_key_colours_up_once(client, auth, event):
    """A lost answer, the same confirm sent again: before, the race ran again for the
    next chip (T100 to T500) and changed every stack a second time."""
    tid, post = event
    client.put(f"/api/tournaments/{tid}/chips", json={"chip_set": [25, 100, 500]}, headers=auth)
    ids = {name: seat["player_id"] for name, seat in _players(client, tid).items()}
    post("seating/chips", {"player_id": ids["Ann"], "chips": 10_075})
    body = {"counts": {str(ids["Ann"]): 3}, "seed": 7, "confirm": True,
            "idempotency_key": "race-confirm-1"}
    done = post("chip-race", body)
    stacks = {name: seat["chips"] for name, seat in _players(client, tid).items()}
    again = post("chip-race", body)
    assert done["confirmed"] is True and done["smallest_chip"] == 100
    assert again == {"confirmed": True, "done_already": True, "smallest_chip": 100}
    assert {name: seat["chips"] for name, seat in _players(client, tid).items()} == stacks
    view = client.get(f"/api/tournaments/{tid}/chips").get_json()
    assert view["smallest_chip"] == 100 and view["next"] == {"removed": 100, "new": 500}


def test_the_pages_confirm_clicked_twice_colours_up_once_and_says_done_already(
        client, auth, login, csrf, event):
    tid, post = event
    client.put(f"/api/tournaments/{tid}/chips", json={"chip_set": [25, 100, 500]}, headers=auth)
    login()
    ran = client.post(f"/director/{tid}/chip-race",
                      data={"csrf_token": csrf(), "removed": "25", "confirm": "no"})
    page = ran.get_data(as_text=True)
    assert ran.status_code == 200 and 'id="race-confirm"' in page
    seed = page.split('name="seed" value="', 1)[1].split('"', 1)[0]
    key = page.split('name="idempotency_key" value="', 1)[1].split('"', 1)[0]
    form = {"csrf_token": csrf(), "removed": "25", "seed": seed, "confirm": "yes",
            "idempotency_key": key}
    said = [client.post(f"/director/{tid}/chip-race", data=form, follow_redirects=True)
            .get_data(as_text=True) for _ in range(2)]
    assert "Colour-up done" in said[0]
    assert "Done already: the colour-up is done" in said[1]
    assert client.get(f"/api/tournaments/{tid}/chips").get_json()["smallest_chip"] == 100
