"""How an event's end is recorded (issue 30): a deal that finishes the event places the
players in it, a satellite stops at its seats, an archived event leaves the public pages,
a split pot's knockout shares the bounty, and the log tells it all."""

from __future__ import annotations

import csv
import html
import io
import re
from typing import Any

import pytest

from tests.conftest import level
from tests.web.test_players_export import assert_everyones_results_are_the_results


@pytest.fixture(autouse=True)
def _everyones_results_are_the_results(app: Any) -> Any:
    """After each test: the players CSV's lean read of every entry's result gives the
    results' own lines in the events built here (deals, seats, bounties, ties)."""
    yield
    assert_everyones_results_are_the_results(app)


SETTINGS: dict[str, Any] = {"buy_in": "100", "fee": "10", "starting_stack": 250_000,
                            "late_registration_level": 0, "payout_template": "custom",
                            "custom_payouts": "50, 30, 20"}


class Event:
    def __init__(self, client: Any, auth: dict[str, str], tid: int) -> None:
        self.client, self.auth, self.id = client, auth, tid
        self.ids: dict[str, int] = {}

    def post(self, path: str, **body: Any) -> Any:
        return self.client.post(f"/api/tournaments/{self.id}/{path}", json=body,
                                headers=self.auth)

    def buy_in(self, name: str) -> int:
        response = self.post("money/entries", kind="buy-in", name=name)
        assert response.status_code == 201, response.get_json()
        self.ids[name] = int(response.get_json()["player_id"])
        return self.ids[name]

    def bust(self, *names: str, **body: Any) -> Any:
        response = self.post("seating/eliminate",
                             player_ids=[self.ids[n] for n in names], **body)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def clock(self) -> dict[str, Any]:
        return dict(self.client.get(f"/api/tournaments/{self.id}/clock").get_json())

    def results(self) -> dict[str, dict[str, Any]]:
        rows = self.client.get(f"/api/tournaments/{self.id}/results").get_json()["results"]
        return {r["name"]: r for r in rows}

    def csv(self) -> dict[str, dict[str, str]]:
        raw = self.client.get(f"/results/{self.id}.csv").get_data(as_text=True)
        return {r["name"]: r for r in csv.DictReader(io.StringIO(raw.lstrip("\ufeff")))}


@pytest.fixture
def make_event(client, auth, make_tournament):
    def make(names: tuple[str, ...] = ("Ann", "Bo", "Cia", "Dan", "Eve"), name: str = "Friday PLO",
             **settings: Any) -> Event:
        event = Event(client, auth, make_tournament(levels=[level(25, 50), level(50, 100)],
                                                    name=name))
        response = event.post("money/settings", **{**SETTINGS, **settings})
        assert response.status_code == 200, response.get_json()
        for player in names:
            event.buy_in(player)
        assert event.post("clock/start").status_code == 200
        return event
    return make


def deal_stacks(event: Event, **chips: int) -> dict[str, int]:
    return {f"stack_{event.ids[name]}": c for name, c in chips.items()}


# ---------------------------------------------------------------- 1. a deal finishes the event

def test_a_deal_that_finishes_the_event_places_its_players_in_chip_order_everywhere(
        make_event, client, auth):
    event = make_event()
    event.bust("Eve")
    event.bust("Dan")
    saved = event.post("money/deal", method="icm",
                       **deal_stacks(event, Ann=400_000, Bo=600_000, Cia=250_000))
    assert saved.status_code == 201 and saved.get_json()["status"] == "finished"
    amounts = {name: saved.get_json()["deal"]["amounts"][str(pid)]
               for name, pid in event.ids.items() if name in ("Ann", "Bo", "Cia")}
    results = event.results()
    assert [(results[n]["place"], results[n]["prize"]) for n in ("Bo", "Ann", "Cia")] == \
        [(1, amounts["Bo"]), (2, amounts["Ann"]), (3, amounts["Cia"])]
    assert all(results[n]["deal"] for n in ("Bo", "Ann", "Cia"))
    state = event.clock()
    assert state["winner"]["name"] == "Bo"
    assert [r["name"] for r in state["results"]][:3] == ["Bo", "Ann", "Cia"]
    rows = event.csv()
    assert (rows["Bo"]["place"], rows["Cia"]["place"], rows["Cia"]["deal"]) == ("1", "3", "yes")
    page = client.get(f"/results/{event.id}").get_data(as_text=True)
    assert 'class="still-in"' not in page
    people = client.get("/api/players?q=Cia", headers=auth).get_json()["players"]
    history = client.get(f"/api/players/{people[0]['id']}", headers=auth).get_json()
    line = history["events"][0]
    assert (line["place"], line["still_in"], line["prize"]) == (3, False, amounts["Cia"])
    league = client.post("/api/players/leagues", json={
        "name": "Spring", "formula": "linear", "tournament_ids": [event.id]},
        headers=auth).get_json()
    assert [(s["name"], s["points"]) for s in league["standings"]][:3] == \
        [("Bo", 5.0), ("Ann", 4.0), ("Cia", 3.0)]


def test_a_deal_takes_the_places_the_players_agreed(make_event):
    event = make_event()
    event.bust("Eve")
    event.bust("Dan")
    saved = event.post("money/deal", method="chip-chop",
                       **{f"place_{event.ids['Cia']}": 1, f"place_{event.ids['Bo']}": 2,
                          f"place_{event.ids['Ann']}": 3},
                       **deal_stacks(event, Ann=400_000, Bo=600_000, Cia=250_000))
    assert saved.status_code == 201, saved.get_json()
    results = event.results()
    assert [results[n]["place"] for n in ("Cia", "Bo", "Ann")] == [1, 2, 3]
    assert event.clock()["winner"]["name"] == "Cia"


def test_a_deal_refuses_places_that_are_not_each_place_once(make_event):
    event = make_event()
    event.bust("Eve")
    event.bust("Dan")
    refused = event.post("money/deal", method="chip-chop",
                         **{f"place_{event.ids['Ann']}": 2, f"place_{event.ids['Bo']}": 1,
                            f"place_{event.ids['Cia']}": 1},
                         **deal_stacks(event, Ann=400_000, Bo=600_000, Cia=250_000))
    assert refused.status_code == 400
    assert list(refused.get_json()["errors"]) == [f"place_{event.ids['Ann']}"]
    assert event.clock()["status"] != "finished"


def test_undoing_the_deal_takes_its_places_back(make_event, client, auth):
    event = make_event()
    event.bust("Eve")
    event.bust("Dan")
    event.post("money/deal", method="icm", **deal_stacks(event, Ann=400_000, Bo=600_000,
                                                         Cia=250_000))
    ledger = client.get(f"/api/tournaments/{event.id}/money", headers=auth).get_json()
    deal_line = next(p for p in ledger["ledger"] if p["kind"] == "payout")
    assert event.post("reopen").status_code == 200
    undone = event.post(f"money/payments/{deal_line['id']}/undo")
    assert undone.status_code == 200, undone.get_json()
    results = event.results()
    assert "Bo" not in results and results["Dan"]["place"] == 4


def test_the_deal_page_shows_each_players_place_and_the_bounties_on_their_heads(
        make_event, client, login):
    event = make_event(bounty_kind="pko", bounty="50")
    event.bust("Eve", by=event.ids["Ann"])
    event.bust("Dan", by=event.ids["Ann"])
    login()
    query = "&".join(f"{k}={v}" for k, v in deal_stacks(event, Ann=600_000, Bo=400_000,
                                                         Cia=250_000).items())
    page = client.get(f"/director/{event.id}/deal?method=icm&{query}").get_data(as_text=True)
    # PKO: Ann won half of two €50 heads onto her own (€100); Bo and Cia €50 each.
    assert 'id="deal-bounties"' in page and "€200.00" in page
    assert f'name="place_{event.ids["Ann"]}" inputmode="numeric" size="3" value="1"' in page
    assert f'name="place_{event.ids["Cia"]}" inputmode="numeric" size="3" value="3"' in page


# ---------------------------------------------------------------- 2. a satellite stops at its seats

def test_a_satellite_stops_when_the_players_left_equal_the_seats(make_event, client, login):
    event = make_event(satellite_seat="250")            # €500 in the pool: 2 seats of €250
    event.bust("Eve")
    event.bust("Dan")
    assert event.clock()["running"] is True
    event.bust("Cia")
    assert event.clock()["running"] is False             # the clock stops for the director
    rows = event.csv()
    assert (rows["Ann"]["seat"], rows["Bo"]["seat"], rows["Cia"]["seat"]) == ("yes", "yes", "no")
    login()
    page = client.get(f"/director/{event.id}/seating").get_data(as_text=True)
    assert 'id="seats-decided"' in page and 'value="seats"' in page
    assert "2 players left for 2 seats" in page                 # the seating log says it too


def test_the_seats_prompt_gives_everyone_left_a_seat_and_finishes_the_satellite(
        make_event, client, login, csrf):
    event = make_event(satellite_seat="250")
    event.bust("Eve")
    event.bust("Dan")
    event.bust("Cia")
    login()
    response = client.post(f"/director/{event.id}/deal",
                           data={"csrf_token": csrf(), "method": "seats"})
    assert response.status_code == 302
    results = event.results()
    # Equal stacks (nobody has played a hand here): they share places 1-2.
    assert [(results[n]["place"], results[n]["place_last"]) for n in ("Ann", "Bo")] == \
        [(1, 2), (1, 2)]
    assert results["Ann"]["seat"] and results["Bo"]["seat"] and not results["Cia"]["seat"]
    assert event.clock()["status"] == "finished"


# ---------------------------------------------------------------- 8. entries in the results CSV

def test_the_results_csv_counts_each_entry_once_after_a_re_entry(make_event, client):
    event = make_event(("Ann", "Bo", "Cia"), late_registration_level=2, re_entry=True)
    first = event.ids["Cia"]
    event.bust("Cia")
    again = event.post("money/entries", kind="re-entry", player_id=first)
    assert again.status_code == 201, again.get_json()
    raw = client.get(f"/results/{event.id}.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(raw.lstrip("\ufeff"))))
    cia = [r for r in rows if r["name"] == "Cia"]
    assert [r["entries"] for r in cia] == ["1"]           # her busted entry; the other plays
    event.bust("Bo")
    event.post("seating/eliminate", player_ids=[int(again.get_json()["player_id"])])
    raw = client.get(f"/results/{event.id}.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(raw.lstrip("\ufeff"))))
    assert sum(int(r["entries"]) for r in rows) == 4      # 3 buy-ins and a re-entry


# ---------------------------------------------------------------- 3. archived events leave the public pages

def test_an_archived_event_leaves_the_public_clock_list_the_room_and_find_my_seat(
        make_event, client, make_tournament):
    event = make_event(("Ann", "Bo"), name="Old Monday")
    make_tournament(name="Tonight")
    event.bust("Bo")                                     # Ann wins: the event is over
    assert client.post(f"/api/tournaments/{event.id}/archive",
                       headers=event.auth).status_code == 200
    for page in ("/", "/seats/", "/room"):
        text = client.get(page).get_data(as_text=True)
        assert "Old Monday" not in text, page
    assert "Tonight" in client.get("/").get_data(as_text=True)
    assert client.get(f"/seats/{event.id}?q=Ann").status_code == 404
    assert client.get(f"/api/tournaments/{event.id}/seats?q=Ann").status_code == 404
    assert client.post(f"/api/tournaments/{event.id}/unarchive",
                       headers=event.auth).status_code == 200
    assert "Old Monday" in client.get("/seats/").get_data(as_text=True)
    assert client.get(f"/seats/{event.id}?q=Ann").status_code == 200


# ---------------------------------------------------------------- 4. split pots and unknown fields

def test_a_misspelt_field_is_refused_naming_it_and_nobody_is_out(make_event):
    event = make_event(bounty_kind="fixed", bounty="50")
    response = event.post("seating/eliminate", player_ids=[event.ids["Eve"]],
                          bye=event.ids["Ann"])
    assert response.status_code == 400
    assert list(response.get_json()["errors"]) == ["bye"]
    assert "Eve" not in event.results()                   # still in


@pytest.mark.parametrize("path", ["clock/adjust", "money/settings", "announcement",
                                  "money/deal/quote", "chip-race"])
def test_every_json_route_refuses_a_field_it_does_not_know(make_event, path):
    event = make_event()
    response = event.post(path, tpyo=1)
    assert response.status_code == 400, (path, response.get_json())
    assert "tpyo" in response.get_json()["errors"]


def test_a_split_pot_knockout_splits_the_bounty_with_the_odd_unit_left_of_the_button(
        make_event, client, auth):
    event = make_event(bounty_kind="fixed", bounty="50.01")
    assert event.post("seating/draw").status_code == 200
    seating = client.get(f"/api/tournaments/{event.id}/seating", headers=auth).get_json()
    seats = {p["name"]: (p["table"], p["seat"]) for p in seating["players"]}
    assert len(seating["tables"]) == 1
    button, size = seating["tables"][0]["button_seat"] or 0, seating["tables"][0]["size"]
    event.bust("Eve", by=[event.ids["Ann"], event.ids["Bo"]])
    results = event.results()
    assert results["Eve"]["knocked_out_by"] in ("Ann, Bo", "Bo, Ann")
    # €50.01 split in two: €25.00 each and the odd cent to the first of them left of the
    # button of the hand last dealt (TDA 20; before any hand, from seat 1).
    first = min(("Ann", "Bo"), key=lambda n: (seats[n][1] - button - 1) % size)
    second = "Bo" if first == "Ann" else "Ann"
    assert (results[first]["bounties"], results[second]["bounties"]) == (2_501, 2_500)


def test_the_seating_page_picks_several_players_for_a_split_pot(make_event, client, login,
                                                                 csrf):
    event = make_event(bounty_kind="fixed", bounty="50")
    login()
    page = client.get(f"/director/{event.id}/seating").get_data(as_text=True)
    assert 'name="by" id="eliminate-by" multiple' in page
    response = client.post(f"/director/{event.id}/seating/eliminate", data={
        "csrf_token": csrf(), "player_ids": [str(event.ids["Eve"])],
        "by": [str(event.ids["Ann"]), str(event.ids["Bo"])]})
    assert response.status_code == 302
    results = event.results()
    assert results["Ann"]["bounties"] == results["Bo"]["bounties"] == 2_500


# ---------------------------------------------------------------- 6. the log tells the end

def log_lines(client: Any, query: str = "") -> list[dict[str, Any]]:
    response = client.get(f"/director/log.json{query}")
    assert response.status_code == 200, response.get_json()
    return list(response.get_json()["entries"])


def test_knockouts_bounty_payments_and_chip_races_are_logged_with_their_tournament(
        make_event, client, auth, login):
    event = make_event(("Ann", "Bo", "Cia"), buy_in="50", bounty_kind="pko", bounty="50")
    event.bust("Cia", by=event.ids["Ann"])
    assert client.put(f"/api/tournaments/{event.id}/chips", json={
        "chip_set": [25, 100, 500, 1000, 5000]}, headers=auth).status_code == 200
    assert event.post("seating/draw").status_code == 200
    assert event.post("clock/pause").status_code == 200
    raced = event.post("chip-race", counts={}, confirm=True)
    assert raced.status_code == 200, raced.get_json()
    login()
    lines = log_lines(client)
    sentences = [line["sentence"] for line in lines]
    assert "Buy-in: Ann, €60.00 + €50.00 bounty, 250,000 chips" in sentences
    assert "Ann knocked out Cia: bounty €25.00 paid to Ann, €25.00 onto Ann's own bounty" \
        in sentences
    assert any(s.startswith("Chip race: T25 coloured up to T100") for s in sentences)
    event.bust("Bo", by=event.ids["Ann"])                  # Ann wins, and keeps her head
    sentences = [line["sentence"] for line in log_lines(client)]
    assert "Ann is still in at the end and collects his own bounty, €100.00" in sentences
    assert {line["tournament"] for line in lines if line["kind"] != "technical"} == \
        {"Friday PLO"}
    page = client.get("/director/log", headers=auth).get_data(as_text=True)
    assert 'class="event-name"' in page and "Friday PLO" in page


def test_the_log_shows_times_in_the_events_time_zone(make_event, client, login, csrf):
    from datetime import datetime
    from zoneinfo import ZoneInfo

    event = make_event(("Ann", "Bo"))
    login()
    client.post(f"/director/{event.id}/time-zone", data={"csrf_token": csrf(),
                                                         "time_zone": "Asia/Jakarta"})
    line = next(e for e in log_lines(client) if e["sentence"] == "Buy-in: Ann, €110.00, "
                "250,000 chips")
    local = datetime.fromisoformat(line["at"]).astimezone(ZoneInfo("Asia/Jakarta"))
    page = client.get("/director/log").get_data(as_text=True)
    assert local.strftime("%Y-%m-%d %H:%M:%S") in page


def test_the_log_filter_finds_words_in_the_readers_language(make_event, client, login):
    event = make_event()
    event.bust("Eve")
    login()
    client.get("/language/sv")
    found = [e["sentence"] for e in log_lines(client, "?q=utslagen")]
    assert found == ["Eve utslagen på plats 5"]
    client.get("/language/id")
    assert [e["sentence"] for e in log_lines(client, "?q=tersingkir")] == \
        ["Eve tersingkir di posisi 5"]


def test_the_seating_log_is_read_in_the_readers_language_whoever_wrote_it(make_event, client,
                                                                            login):
    event = make_event(bounty_kind="fixed", bounty="50")
    event.post("seating/draw")
    event.bust("Eve", by=event.ids["Ann"])                 # written by the API, in English
    event.bust("Dan")
    login()
    for language, words in (("sv", ("Eve utslagen på plats 5", "Ann slog ut Eve")),
                            ("id", ("Eve tersingkir di posisi 5", "Ann menyingkirkan Eve"))):
        client.get(f"/language/{language}")
        page = client.get(f"/director/{event.id}/seating").get_data(as_text=True)
        log = page[page.index('id="log"'):]
        assert "eliminated in place" not in log, language
        assert all(word in log for word in words), (language, log[:2000])
    client.get("/language/en")
    page = client.get(f"/director/{event.id}/seating").get_data(as_text=True)
    assert "Eve eliminated in place 5" in page[page.index('id="log"'):]


# ---------------------------------------------------------------- 7. the wizard's facts, duplicates

WIZARD = {"starting_stack": 30_000, "chips": [25, 100, 500, 1000, 5000], "players": 40,
          "duration_minutes": 300, "games": ["PO"]}


def test_the_wizard_carries_its_chip_set_and_starting_stack_into_the_event(client, auth,
                                                                          login, csrf):
    proposal = client.post("/api/structures/wizard", json=WIZARD, headers=auth).get_json()
    assert proposal["wizard"]["starting_stack"] == 30_000
    made = client.post("/api/tournaments", json=proposal, headers=auth)
    assert made.status_code == 201, made.get_json()
    chips = client.get(f"/api/tournaments/{made.get_json()['id']}/chips").get_json()
    assert chips["chip_set"] == WIZARD["chips"]
    login()
    page = client.post("/director/wizard", data={
        "csrf_token": csrf(), "starting_stack": "30000", "chips": "25, 100, 500, 1000, 5000",
        "players": "40", "duration": "5", "games": "PO", "name": "Wizard PLO"})
    structure = re.search(r'name="structure_json" value="([^"]*)"',
                          page.get_data(as_text=True))
    assert structure is not None
    created = client.post("/director/new", data={
        "csrf_token": csrf(), "template": "import", "name": "Wizard PLO",
        "structure_json": html.unescape(structure[1])})
    assert created.status_code == 302
    money_page = client.get(created.headers["Location"], follow_redirects=True)
    text = money_page.get_data(as_text=True)
    assert 'name="starting_stack"' in text and 'value="30000"' in text
    tid = int(re.search(r"/director/(\d+)/", created.headers["Location"])[1])
    assert client.get(f"/api/tournaments/{tid}/chips").get_json()["chip_set"] == WIZARD["chips"]


def test_a_duplicate_after_a_colour_up_starts_with_the_original_smallest_chip(
        make_event, client, auth):
    event = make_event(("Ann", "Bo", "Cia"))
    client.put(f"/api/tournaments/{event.id}/chips",
               json={"chip_set": [25, 100, 500, 1000, 5000]}, headers=auth)
    event.post("seating/draw")
    event.post("clock/pause")
    assert event.post("chip-race", counts={}, confirm=True).status_code == 200
    assert client.get(f"/api/tournaments/{event.id}/chips").get_json()["smallest_chip"] == 100
    copy = event.post("duplicate")
    assert copy.status_code == 201, copy.get_json()
    chips = client.get(f"/api/tournaments/{copy.get_json()['id']}/chips").get_json()
    assert (chips["chip_set"][0], chips["smallest_chip"]) == (25, 25)


# ---------------------------------------------------------------- 10. stud moves, points

STUD = level(0, 0, game="F7S", ante=25, bring_in=25, small_bet=100, big_bet=200)


def test_seat_moves_in_a_stud_event_never_mention_the_button_or_the_big_blind(
        client, auth, make_tournament, login):
    tid = make_tournament(levels=[STUD, STUD], name="Stud night")
    event = Event(client, auth, tid)
    assert event.post("money/settings", **SETTINGS).status_code == 200
    assert event.post("seating/settings", table_size=6).status_code == 200
    for i in range(12):
        event.buy_in(f"P{i:02d}")
    drawn = event.post("seating/draw").get_json()
    words: list[str] = list(drawn.get("lines") or [])
    seating = client.get(f"/api/tournaments/{tid}/seating").get_json()
    table_one = [p for p in seating["players"] if p["table"] == 1]
    for player in table_one[:2]:
        answer = event.post("seating/eliminate", player_ids=[player["id"]]).get_json()
        if answer.get("pending_plan"):
            words += [m.get("text", "") for m in answer["pending_plan"].get("moves", [])]
            words += answer["pending_plan"].get("lines") or []
    late = event.post("money/entries", kind="buy-in", name="Late")   # a seat at a stud table
    words.append(str(late.get_json().get("seat")))
    login()
    page = client.get(f"/director/{tid}/seating").get_data(as_text=True)
    log = page[page.index('id="log"'):]
    words.append(re.sub(r"<[^>]+>", " ", log[:log.index("</section>")]))
    text = " ".join(words).lower()
    assert "table 1" in text
    assert "big blind" not in text and "button" not in text


# ---------------------------------------------------------------- sign-in sheets and receipts

def test_the_sign_in_sheet_lists_every_table_with_its_seats_and_a_signature_line(
        make_event, client, login):
    event = make_event(("Ann", "Bo", "Cia", "Dan"))
    event.post("seating/draw")
    login()
    page = client.get(f"/director/{event.id}/seating/sign-in")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert text.count('class="sign-in-sheet"') == 1           # 4 players: one table
    assert all(f"<td class=\"who\">{name}</td>" in text for name in ("Ann", "Bo", "Cia", "Dan"))
    assert 'class="signature"' in text and "Friday PLO" in text
    seating = client.get(f"/director/{event.id}/seating").get_data(as_text=True)
    assert f"/director/{event.id}/seating/sign-in" in seating


def test_a_buy_in_receipt_shows_what_was_paid_and_is_linked_from_the_ledger(
        make_event, client, auth, login):
    event = make_event(("Ann", "Bo"), buy_in="50", bounty_kind="pko", bounty="50")
    ledger = client.get(f"/api/tournaments/{event.id}/money", headers=auth).get_json()["ledger"]
    ann = next(p for p in ledger if p["player_name"] == "Ann" and p["kind"] == "buy-in")
    login()
    receipt = client.get(f"/director/{event.id}/money/receipts/{ann['id']}")
    assert receipt.status_code == 200
    text = receipt.get_data(as_text=True)
    for words in ("Friday PLO", "Ann", "€50.00", "€10.00", "€50.00", "€110.00", "250,000"):
        assert words in text, words
    assert f"No. {event.id}-{ann['id']}" in text
    desk = client.get(f"/director/{event.id}/desk").get_data(as_text=True)
    assert f"/director/{event.id}/money/receipts/{ann['id']}" in desk
    assert client.get(f"/director/{event.id}/money/receipts/99999").status_code == 404


# ---------------------------------------------------------------- the director's phone

def test_the_phone_page_has_the_directors_own_controls(make_event, client, login, csrf):
    event = make_event(("Ann", "Bo", "Cia"), late_registration_level=2)
    login()
    page = client.get(f"/director/{event.id}/phone")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    for control in ('data-control="pause"', 'data-control="resume"', 'data-control="previous"',
                    'data-control="next"', 'data-adjust="60"', 'id="phone-announce"',
                    'id="phone-bust"', 'id="phone-sell"'):
        assert control in text, control
    bust = client.post(f"/director/{event.id}/seating/eliminate", data={
        "csrf_token": csrf(), "player_ids": [str(event.ids["Cia"])], "back": "phone"})
    assert bust.status_code == 302 and bust.headers["Location"].endswith(
        f"/director/{event.id}/phone")
    sold = client.post(f"/director/{event.id}/desk/sell", data={
        "csrf_token": csrf(), "kind": "buy-in", "name": "Dee", "back": "phone"})
    assert sold.status_code == 302 and sold.headers["Location"].endswith(
        f"/director/{event.id}/phone"), sold.headers["Location"]
    assert any(p["name"] == "Dee" for p in client.get(
        f"/api/tournaments/{event.id}/seating").get_json()["players"])
    tournament_page = client.get(f"/director/{event.id}").get_data(as_text=True)
    assert f"/director/{event.id}/phone" in tournament_page


# ---------------------------------------------------------------- every screen kept awake

def test_the_projector_the_room_screen_and_the_tablet_ask_to_keep_the_screen_awake(
        make_event, client):
    event = make_event(("Ann", "Bo"))
    for path in (f"/clock/{event.id}", "/room"):
        page = client.get(path).get_data(as_text=True)
        assert "wakelock.js" in page and "data-wake-lock" in page, path
        assert "Screen may sleep" in page and "switch its sleep off" in page, path
    from pathlib import Path
    tablet = (Path(__file__).resolve().parents[2] / "templates/dealer/tablet.html").read_text()
    assert "wakelock.js" in tablet and "data-wake-lock" in tablet
    script = client.get("/static/wakelock.js").get_data(as_text=True)
    assert 'navigator.wakeLock.request("screen")' in script and "visibilitychange" in script


def test_a_ruling_with_a_field_it_does_not_know_is_refused_naming_it():
    from director.services import Invalid
    from director.services.dealer_bodies import ruling_body

    with pytest.raises(Invalid) as refused:
        ruling_body({"ruling": "clock_expired", "confirm": True, "sleep": 1})
    assert "sleep" in refused.value.errors
