"""The log of changes in the director's words: every change done through the API reads as
a sentence ("Rebuy: Ann Berg, €100.00, 20,000 chips", "Table 2 broken: 3 players moved",
"Level 2 started"), put into words when it is read, in the reader's language, and
filtered by its kind on the page and in the JSON."""

from __future__ import annotations

import html
import re
import time
from collections import Counter
from typing import Any

import pytest

from director.services import audit, tournaments
from director.services import clock as clock_service
from tests.conftest import level

SETTINGS: dict[str, Any] = {"buy_in": "100", "fee": "10", "starting_stack": 20_000,
                            "late_registration_level": 2, "re_entry": True,
                            "rebuy": True, "rebuy_price": "100", "rebuy_chips": 20_000,
                            "rebuy_until": 3, "payout_template": "custom",
                            "custom_payouts": "70, 30"}
NAMES = ("Ann Berg", "Bo Lind", "Cia Ek", "Dan Öberg", "Eva Sund", "Fia Holm", "Gus Ny",
         "Hal Ås", "Ida Ros", "Jon Vik", "Kim Al", "Lo Bo", "Max Li")


@pytest.fixture
def event(client, auth, make_tournament):
    tid = make_tournament(name="Friday PLO", levels=[level(25, 50), level(50, 100),
                                                     level(100, 200)])

    class Event:
        id = tid

        def post(self, path: str, **body: Any) -> Any:
            response = client.post(f"/api/tournaments/{tid}/{path}", json=body, headers=auth)
            assert response.status_code in (200, 201), (path, response.get_json())
            return response.get_json()

    Event().post("money/settings", **SETTINGS)
    return Event()


def page_lines(client, query: str = "") -> list[str]:
    """The sentences of the log page, newest first, as a person reads them."""
    page = client.get(f"/director/log{query}")
    assert page.status_code == 200
    cells = re.findall(r'<td class="sentence">(.*?)</td>', page.get_data(as_text=True), re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in cells]


def a_whole_evening(event, client, auth) -> dict[str, int]:
    ids = {name: event.post("money/entries", kind="buy-in", name=name)["player_id"]
           for name in NAMES}
    event.post("seating/settings", table_size=6, final_table_size=6)
    event.post("seating/draw")
    event.post("clock/start")
    event.post("money/entries", kind="rebuy", player_id=ids["Ann Berg"], stack=0)
    event.post("clock/pause")
    event.post("clock/resume")
    event.post("clock/adjust", seconds=60)
    event.post("clock/adjust", seconds=-120)
    event.post("clock/next")
    event.post("clock/previous")
    for _bust in range(7):       # a table breaks, the tables balance, the final table
        seating = client.get(f"/api/tournaments/{event.id}/seating").get_json()
        playing = [p for p in seating["players"] if p["status"] == "active" and p["table"]]
        count = Counter(p["table"] for p in playing)
        out = min(playing, key=lambda p: (count[p["table"]], p["table"], -p["id"]))
        plan = event.post("seating/eliminate", player_ids=[out["id"]])["pending_plan"]
        if plan:
            event.post(f"seating/plans/{plan['id']}/confirm")
    tables = client.get(f"/api/tournaments/{event.id}/dealer/pairing",
                        headers=auth).get_json()["tables"]
    paired = client.post("/api/dealer/pair",
                         json={"table": tables[0]["number"], "code": tables[0]["code"]})
    assert paired.status_code == 201
    assert client.post(f"/api/tables/{tables[0]['table_id']}/dealer/revoke",
                       headers=auth).status_code == 200
    return ids


def test_each_change_reads_as_a_sentence(event, client, auth, login):
    a_whole_evening(event, client, auth)
    login()
    lines = page_lines(client)
    assert "Buy-in: Ann Berg, €110.00, 20,000 chips" in lines
    assert "Buy-in: Dan Öberg, €110.00, 20,000 chips" in lines
    assert "Rebuy: Ann Berg, €100.00, 20,000 chips" in lines
    assert "Seats drawn: 13 players at 3 tables" in lines
    assert any(re.fullmatch(r"Table \d broken: [2-5] players moved", line) for line in lines)
    assert any(re.fullmatch(r"Tables balanced: \d players? moved", line) for line in lines)
    assert any(re.fullmatch(r"Final table: table \d broken, 6 players redrawn for seats", line)
               for line in lines)
    assert "Clock started: Level 1" in lines
    assert any(re.fullmatch(r"Clock paused: Level 1, \d+:\d\d left", line) for line in lines)
    assert any(re.fullmatch(r"1:00 added to Level 1: \d+:\d\d left", line) for line in lines)
    assert any(re.fullmatch(r"2:00 taken off Level 1: \d+:\d\d left", line) for line in lines)
    assert "Level 2 started" in lines and "Back to Level 1" in lines
    assert any(re.fullmatch(r"\w+ \w+ eliminated in place 13", line) for line in lines)
    assert "Event created: Friday PLO" in lines
    assert "Tablet paired with table 1" in lines
    assert "Tablets of table 1 unpaired: a new code is drawn" in lines
    assert not any(line.startswith(("POST ", "api.")) for line in lines)   # no request lines


def test_a_line_written_in_english_is_read_in_swedish(event, client, auth, login):
    ids = a_whole_evening(event, client, auth)
    login()
    client.get("/language/sv")
    lines = page_lines(client)
    assert any(re.fullmatch(r"\w+ \w+ utslagen på plats 7", line) for line in lines)
    rebuy = next(line for line in lines if "Ann Berg" in line and "100,00" in line)
    assert "100,00\xa0€" in rebuy and "20\xa0000" in rebuy    # Swedish money and chips
    assert "Nivå 1" in " ".join(lines)
    page = client.get("/director/log").get_data(as_text=True)
    assert ">Pengar<" in page and ">Placering<" in page          # the kinds, in Swedish
    assert ids


def test_the_log_is_filtered_by_kind(event, client, auth, login):
    a_whole_evening(event, client, auth)
    login()
    money = page_lines(client, "?kind=money")
    assert money and all(line.startswith(("Buy-in:", "Rebuy:")) for line in money)
    clock = page_lines(client, "?kind=clock")
    assert "Level 2 started" in clock and not any("Buy-in" in line for line in clock)
    seating = page_lines(client, "?kind=seating")
    assert any(line.endswith(" eliminated in place 7") for line in seating) and "Seats drawn: 13 players at 3 tables" \
        in seating and len(seating) >= 10
    assert all(re.match(r"(Seats drawn|Table \d broken|Tables balanced|Final table|.* eliminated)",
                        line) for line in seating)
    assert page_lines(client, "?kind=dealer") == [
        "Tablets of table 1 unpaired: a new code is drawn", "Tablet paired with table 1"]
    assert page_lines(client, "?kind=event") == ["Event created: Friday PLO"]
    technical = client.get("/director/log?kind=technical").get_data(as_text=True)
    assert "login" in technical and "Buy-in:" not in technical
    assert client.get("/director/log?kind=nonsense").status_code == 400
    found = page_lines(client, "?q=Ann+Berg")                  # a player's own lines
    assert found and all("Ann Berg" in line for line in found)
    data = client.get("/director/log.json?kind=money").get_json()
    assert data["kind"] == "money" and {e["kind"] for e in data["entries"]} == {"money"}
    assert "Rebuy: Ann Berg, €100.00, 20,000 chips" in [e["sentence"] for e in data["entries"]]
    rebuy = next(e for e in data["entries"] if e["message"].startswith("Rebuy"))
    assert rebuy["action"] == "POST money.api_sell"                # the request stays with it
    assert rebuy["actor"] == "director"


def test_undo_prize_deal_and_the_events_life(event, client, auth, login):
    ids = {name: event.post("money/entries", kind="buy-in", name=name)["player_id"]
           for name in NAMES[:3]}
    payment = event.post("money/entries", kind="buy-in", name="Late Larsson")["payment"]["id"]
    event.post(f"money/payments/{payment}/undo")
    event.post("clock/start")
    event.post("clock/next")
    event.post("clock/next")                                     # registration is closed
    event.post("seating/eliminate", player_ids=[ids["Cia Ek"]])
    event.post(f"seating/players/{ids['Cia Ek']}/reinstate")
    event.post("seating/eliminate", player_ids=[ids["Cia Ek"]])
    event.post("seating/eliminate", player_ids=[ids["Bo Lind"]])   # Ann wins: finished
    event.post(f"results/{ids['Bo Lind']}/pay")
    event.post("reopen")
    event.post("cancel")
    login()
    lines = page_lines(client)
    assert "Payment undone: buy-in of Late Larsson, €110.00" in lines
    assert "Elimination undone: Cia Ek is back in play" in lines
    assert "Prize paid: Bo Lind, place 2, €90.00" in lines
    assert "Event finished: the clock is stopped" in lines
    assert lines[:2] == ["Event cancelled", "Event reopened"]
    assert page_lines(client, "?kind=event")[:3] == [
        "Event cancelled", "Event reopened", "Event finished: the clock is stopped"]


def test_structure_house_rules_and_hand_for_hand(app, event, client, auth, login):

    structure = client.get(f"/api/tournaments/{event.id}/structure").get_json()
    structure["levels"].insert(2, {"kind": "break", "duration_seconds": 600})
    assert client.put(f"/api/tournaments/{event.id}/structure", json=structure,
                      headers=auth).status_code == 200
    with app.app_context():                 # the structure editor's Save
        tournaments.update_levels(event.id, structure["levels"][:2])
    event.post("house-rules", limit_raise_cap=4)
    for name in NAMES[:4]:
        event.post("money/entries", kind="buy-in", name=name)
    event.post("seating/draw")
    event.post("seating/hand-for-hand", action="start")
    event.post("seating/hand-for-hand", action="stop")
    login()
    lines = page_lines(client)
    assert "Structure imported: 3 levels, 1 break" in lines
    assert "Structure saved: 2 levels, 0 breaks" in lines
    assert "Hand-for-hand started" in lines and "Hand-for-hand stopped" in lines
    assert page_lines(client, "?kind=house_rules") == [
        "House rules: Raises allowed after the bet (blank: no cap): 4 (WSOP-T) (was 3 (RRP))"]


def test_the_scheduler_writes_the_level_it_started_as_system(app, event, client, login):
    event.post("clock/start")
    event.post("clock/adjust", seconds=-(20 * 60 - 1))
    time.sleep(1.1)
    with app.app_context():
        clock_service.advance_if_due(event.id)
        audit.writer().flush()
    login()
    page = client.get("/director/log?kind=clock&who=system").get_data(as_text=True)
    assert "Level 2 started" in page
