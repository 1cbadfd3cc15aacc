"""Issue 17: bounties (fixed and PKO) and satellites through the JSON API and the pages:
the bounty taken at the desk with the buy-in, who knocked out whom, bounties in the
results, the CSV and the house summary, the undo of a knockout; a satellite's equal
seats, its remainder, its bubble and its seat deal.  Every refusal names its field and
changes nothing."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from flask.testing import FlaskClient

from director.db import db
from director.models.seating import Player
from director.services import bounties as bounty_service
from tests.conftest import level
from tests.web.test_players_export import assert_everyones_results_are_the_results


@pytest.fixture(autouse=True)
def _everyones_results_are_the_results(app: Any) -> Any:
    """After each test: the players CSV's lean read of every entry's result gives the
    results' own lines in the events built here (deals, seats, bounties, ties)."""
    yield
    assert_everyones_results_are_the_results(app)


BASE: dict[str, Any] = {"buy_in": "100", "fee": "10", "starting_stack": 10_000,
                        "late_registration_level": 0}


@pytest.fixture
def event(client: FlaskClient, auth: dict[str, str], make_tournament: Any) -> Any:
    tid = make_tournament(levels=[level(25, 50), level(50, 100)])

    class Event:
        id = tid

        def post(self, path: str, body: Any = None) -> Any:
            return client.post(f"/api/tournaments/{tid}/{path}", json=body or {}, headers=auth)

        def settings(self, **changes: Any) -> Any:
            return self.post("money/settings", {**BASE, **changes})

        def buy_in(self, name: str) -> int:
            response = self.post("money/entries", {"kind": "buy-in", "name": name})
            assert response.status_code == 201, response.get_json()
            return int(response.get_json()["player_id"])

        def money(self) -> dict[str, Any]:
            return dict(client.get(f"/api/tournaments/{tid}/money", headers=auth).get_json())

        def eliminate(self, *ids: int, **body: Any) -> Any:
            return self.post("seating/eliminate", {"player_ids": list(ids), **body})

        def results(self) -> dict[str, dict[str, Any]]:
            rows = client.get(f"/api/tournaments/{tid}/results").get_json()["results"]
            return {row["name"]: row for row in rows}

        def clock(self) -> dict[str, Any]:
            return dict(client.get(f"/api/tournaments/{tid}/clock").get_json())

    return Event()


def heads(tid: int) -> dict[str, int]:
    return {db.session.get(Player, pid).name: amount
            for pid, amount in bounty_service.heads(tid).items()}


# ---------------------------------------------------------------- bounties

def test_the_bounty_is_taken_at_the_desk_with_the_buy_in_and_kept_out_of_the_prize_pool(event):
    assert event.settings(bounty_kind="pko", bounty="50").status_code == 200
    event.buy_in("Ann")
    event.buy_in("Bo")
    money = event.money()
    assert money["bounty"] == {"kind": "pko", "amount": 5_000, "taken": 10_000}
    assert money["prize_pool"] == 20_000                     # 2 × €100, bounties and fees out
    entry = money["ledger"][0]
    assert entry["total"] == 16_000                          # €100 + €10 fee + €50 bounty


def test_PKO_half_to_the_eliminator_half_on_his_head(app, event):
    event.settings(bounty_kind="pko", bounty="50")
    ann, bo, cy = (event.buy_in(name) for name in ("Ann", "Bo", "Cy"))
    assert event.eliminate(cy, by=ann).status_code == 200
    with app.app_context():
        assert heads(event.id) == {"Ann": 7_500, "Bo": 5_000}   # €50 + half of Cy's €50
    # Ann's €75 halved in whole euros (the event's rounding unit): €38 cash, €37 on Bo's head.
    assert event.eliminate(ann, by=bo).status_code == 200
    with app.app_context():
        assert heads(event.id) == {"Bo": 8_700}
    results = event.results()
    assert results["Cy"]["knocked_out_by"] == "Ann"
    assert results["Ann"]["bounties"] == 2_500                # half of Cy's bounty
    assert results["Bo"]["bounties"] == 3_800 + 8_700         # the cash, and his own head (winner)


def test_fixed_bounty_pays_the_eliminator_and_the_winner_keeps_his_own(event):
    event.settings(bounty_kind="fixed", bounty="25")
    ann, bo, cy = (event.buy_in(name) for name in ("Ann", "Bo", "Cy"))
    event.eliminate(cy, by=ann)
    event.eliminate(bo, by=ann)
    results = event.results()
    assert results["Ann"]["bounties"] == 2_500 * 3             # two knockouts and his own
    assert results["Bo"]["knocked_out_by"] == "Ann" and results["Bo"]["bounties"] == 0


def test_clock_json_shows_the_bounty_and_the_bounties_in_play(app, event):
    event.settings(bounty_kind="pko", bounty="50")
    ann, bo, cy = (event.buy_in(name) for name in ("Ann", "Bo", "Cy"))
    event.eliminate(cy, by=ann)
    clock = event.clock()
    assert clock["bounty"] == {"kind": "pko", "amount": 50, "in_play": 125}
    assert clock["satellite"] is None


@pytest.mark.parametrize(("by", "words"), [
    ("nobody", "whole number"),
    (99_999, "no player 99999"),
])
def test_a_bad_knocked_out_by_is_refused_naming_the_field_and_changes_nothing(event, by, words):
    event.settings(bounty_kind="pko", bounty="50")
    ann = event.buy_in("Ann")
    event.buy_in("Bo")
    event.buy_in("Cy")
    response = event.eliminate(ann, by=by)
    assert response.status_code == 400
    errors = response.get_json()["errors"]
    assert list(errors) == ["by"] and words in errors["by"].lower()
    assert event.money()["players_left"] == 3


def test_the_eliminated_player_cannot_knock_himself_out_nor_can_a_player_already_out(app, event):
    event.settings(bounty_kind="fixed", bounty="20")
    ann, bo, cy = (event.buy_in(name) for name in ("Ann", "Bo", "Cy"))
    event.buy_in("Di")
    himself = event.eliminate(ann, by=ann)
    assert himself.status_code == 400 and "himself" in himself.get_json()["errors"]["by"]
    assert event.eliminate(bo, by=cy).status_code == 200
    out = event.eliminate(cy, by=bo)
    assert out.status_code == 400 and "out of the tournament" in out.get_json()["errors"]["by"]
    assert event.money()["players_left"] == 3


def test_bounty_settings_are_refused_naming_the_field(event):
    missing = event.settings(bounty_kind="pko")
    assert missing.status_code == 400 and "bounty" in missing.get_json()["errors"]
    wrong = event.settings(bounty_kind="half", bounty="10")
    assert wrong.status_code == 400 and "bounty_kind" in wrong.get_json()["errors"]
    assert event.money()["bounty"]["kind"] == "none"


def test_the_bounty_cannot_change_once_entries_are_taken(event):
    event.settings(bounty_kind="fixed", bounty="25")
    event.buy_in("Ann")
    response = event.settings(bounty_kind="fixed", bounty="30")
    assert response.status_code == 400
    assert "once entries are taken" in response.get_json()["errors"]["bounty"]
    assert event.money()["bounty"]["amount"] == 2_500
    assert event.settings(bounty_kind="fixed", bounty="25", fee="12").status_code == 200


def test_undoing_the_elimination_takes_the_knockout_back(app, client, auth, event):
    event.settings(bounty_kind="pko", bounty="50")
    ann, bo, cy = (event.buy_in(name) for name in ("Ann", "Bo", "Cy"))
    event.eliminate(cy, by=ann)
    back = client.post(f"/api/tournaments/{event.id}/seating/players/{cy}/reinstate",
                       headers=auth)
    assert back.status_code == 200, back.get_json()
    with app.app_context():
        assert heads(event.id) == {"Ann": 5_000, "Bo": 5_000, "Cy": 5_000}
    assert event.results() == {}


def test_a_PKO_knockout_whose_raised_head_was_won_since_cannot_be_undone(app, client, auth,
                                                                            event):
    event.settings(bounty_kind="pko", bounty="50")
    ann, bo, cy, di = (event.buy_in(name) for name in ("Ann", "Bo", "Cy", "Di"))
    event.eliminate(cy, by=ann)                  # Ann's head: €75
    event.eliminate(ann, by=bo)                  # Bo won it, raise included
    refused = client.post(f"/api/tournaments/{event.id}/seating/players/{cy}/reinstate",
                          headers=auth)
    assert refused.status_code == 400
    assert "undo Ann's elimination first" in refused.get_json()["errors"]["player_ids"]
    assert event.results()["Cy"]["knocked_out_by"] == "Ann"


def test_results_csv_and_summary_show_the_bounties_paid(client, login, event):
    event.settings(bounty_kind="fixed", bounty="25")
    ann, bo, cy = (event.buy_in(name) for name in ("Ann", "Bo", "Cy"))
    event.eliminate(cy, by=bo)
    event.eliminate(bo)                          # nobody recorded: Bo's bounty unawarded
    rows = list(csv.reader(io.StringIO(client.get(f"/results/{event.id}.csv")
                                       .get_data().decode("utf-8-sig"))))
    assert rows[0] == ["place", "name", "prize", "currency", "paid", "bounties",
                       "knocked_out_by", "entries", "rebuys", "add_ons", "deal"]
    by_name = {row[1]: row for row in rows[1:]}
    assert by_name["Bo"][5:7] == ["25", ""] and by_name["Cy"][5:7] == ["0", "Bo"]
    assert by_name["Ann"][5] == "25"             # the winner's own bounty
    login()
    page = client.get(f"/director/{event.id}/money/summary").get_data(as_text=True)
    assert 'id="sum-bounties"' in page and "€75.00" in page
    assert 'id="sum-bounties-unawarded"' in page
    results = client.get(f"/results/{event.id}").get_data(as_text=True)
    assert "Knocked out by" in results


def test_the_seating_page_shows_each_players_bounty_and_the_knocked_out_by_select(client, login,
                                                                                   event, csrf):
    event.settings(bounty_kind="pko", bounty="50")
    ann, bo, cy = (event.buy_in(name) for name in ("Ann", "Bo", "Cy"))
    event.post("seating/draw")
    login()
    page = client.get(f"/director/{event.id}/seating").get_data(as_text=True)
    assert 'id="eliminate-by"' in page and "bounty-tag" in page and "€50.00" in page
    answer = client.post(f"/director/{event.id}/seating/eliminate",
                         data={"csrf_token": csrf(), "player_ids": str(cy), "by": str(ann)})
    assert answer.status_code == 302
    page = client.get(f"/director/{event.id}/seating").get_data(as_text=True)
    assert "€75.00" in page
    bad = client.post(f"/director/{event.id}/seating/eliminate",
                      data={"csrf_token": csrf(), "player_ids": str(bo), "by": "x"})
    assert bad.status_code == 400 and 'data-field="by"' in bad.get_data(as_text=True)


# ---------------------------------------------------------------- satellites

def test_satellite_pays_equal_seats_and_the_remainder_to_the_next_place(event):
    assert event.settings(satellite_seat="250").status_code == 200
    for i in range(11):
        event.buy_in(f"P{i:02d}")                # €1,100: 4 seats of €250, €100 to 5th
    money = event.money()
    assert money["satellite"] == {"seat_value": 25_000, "seats": 4, "remainder": 10_000,
                                  "remainder_place": 5}
    assert money["payouts"]["amounts"] == [25_000] * 4 + [10_000]


def test_the_satellite_bubble_counts_the_cash_place_and_the_seat_bubble_follows(app, event):
    event.settings(satellite_seat="250")
    ids = [event.buy_in(f"P{i:02d}") for i in range(11)]
    for pid in ids[:5]:
        event.eliminate(pid)                     # 6 left: the next out wins nothing
    clock = event.clock()
    assert clock["places_paid"] == 5             # 4 seats and €100 to 5th, as the payouts list
    assert {"kind": "bubble", "places_paid": 5} in clock["banners"]
    event.eliminate(ids[5])                      # 5 left for 4 seats: the seat bubble
    clock = event.clock()
    assert {"kind": "seat_bubble", "seats": 4} in clock["banners"]
    assert any(b["kind"] == "in_the_money" for b in clock["banners"])
    event.eliminate(ids[6])                      # 5th: the remainder; 4 left, 4 seats
    clock = event.clock()
    assert any(b["kind"] == "in_the_money" for b in clock["banners"])
    assert sorted(clock["satellite"]["winners"]) == sorted(f"P{i:02d}" for i in range(7, 11))


def test_satellite_deal_gives_everyone_left_a_seat_and_ends_the_event(event):
    event.settings(satellite_seat="250")
    ids = [event.buy_in(f"P{i:02d}") for i in range(11)]
    for pid in ids[:6]:
        event.eliminate(pid)
    early = event.post("money/deal/quote", {"method": "seats"})
    assert early.status_code == 400
    assert "5 players are left for 4 seats" in early.get_json()["errors"]["method"]
    icm = event.post("money/deal/quote", {"method": "icm"})
    assert icm.status_code == 400 and "method" in icm.get_json()["errors"]
    event.eliminate(ids[6])
    quote = event.post("money/deal/quote", {"method": "seats"})
    assert quote.status_code == 200
    assert [p["amount"] for p in quote.get_json()["players"]] == [25_000] * 4
    uneven = event.post("money/deal", {"method": "seats", f"amount_{ids[7]}": "300",
                                       f"amount_{ids[8]}": "200"})
    assert uneven.status_code == 400 and f"amount_{ids[7]}" in uneven.get_json()["errors"]
    saved = event.post("money/deal", {"method": "seats"})
    assert saved.status_code == 201, saved.get_json()
    assert saved.get_json()["status"] == "finished"
    results = event.results()
    assert all(results[f"P{i:02d}"]["seat"] for i in range(7, 11))
    assert results["P06"]["prize"] == 10_000 and not results["P06"]["seat"]
    assert event.clock()["satellite"]["winners"][:4] == [f"P{i:02d}" for i in range(7, 11)] or \
        sorted(event.clock()["satellite"]["winners"]) == [f"P{i:02d}" for i in range(7, 11)]


def test_a_seat_deal_is_refused_in_an_event_that_is_not_a_satellite(event):
    event.settings()
    ids = [event.buy_in(f"P{i}") for i in range(3)]
    assert ids
    response = event.post("money/deal/quote", {"method": "seats"})
    assert response.status_code == 400 and "satellite" in response.get_json()["errors"]["method"]


def test_satellite_seat_value_is_refused_naming_the_field(event):
    response = event.settings(satellite_seat="-5")
    assert response.status_code == 400 and "satellite_seat" in response.get_json()["errors"]
    assert event.money()["satellite"] is None


# ---------------------------------------------------------------- the dealer tablet

def tablet_event(client: FlaskClient, auth: dict[str, str], make_tournament: Any,
                 stacks: dict[str, int], **money: Any) -> dict[str, Any]:
    """A one-table PKO/fixed bounty event dealt from a tablet: the players with their stacks."""
    tid = make_tournament(levels=[level(100, 200), level(200, 400)])
    r = client.post(f"/api/tournaments/{tid}/money/settings", headers=auth, json={
        "buy_in": "100", "starting_stack": 10_000, "late_registration_level": 6, **money})
    assert r.status_code == 200, r.get_json()
    for name, chips in stacks.items():
        r = client.post(f"/api/tournaments/{tid}/seating/players",
                        json={"name": name, "chips": chips}, headers=auth)
        assert r.status_code == 201, r.get_json()
    assert client.post(f"/api/tournaments/{tid}/seating/draw", headers=auth).status_code == 200
    table = client.get(f"/api/tournaments/{tid}/dealer/pairing", headers=auth).get_json()["tables"][0]
    seats = {s["name"]: s["seat"] for s in
             client.get(f"/api/tournaments/{tid}/seating").get_json()["tables"][0]["seats"]}
    return {"id": tid, "url": f"/api/tables/{table['table_id']}", "seats": seats}


def all_in_to_showdown(client: FlaskClient, auth: dict[str, str], url: str, short: int) -> Any:
    from tests.web.test_dealer_helpers import drive, passive  # noqa: PLC0415

    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    hand = drive(client, url, auth, hand,
                 lambda h: "all_in" if h["to_act"] == short else passive(h))
    assert hand["awaiting"] == "showdown"
    return hand


def test_the_tablet_records_the_pot_winner_as_the_eliminator(client, auth, make_tournament):
    t = tablet_event(client, auth, make_tournament, {"Ann": 10_000, "Bo": 10_000, "Cy": 300},
                     bounty_kind="pko", bounty="50")
    hand = all_in_to_showdown(client, auth, t["url"], t["seats"]["Cy"])
    r = client.post(f"{t['url']}/hand/award", headers=auth,
                    json={"high": [[t["seats"]["Bo"]]], "version": hand["version"]})
    assert r.status_code == 200, r.get_json()
    rows = {row["name"]: row for row in
            client.get(f"/api/tournaments/{t['id']}/results").get_json()["results"]}
    assert rows["Cy"]["knocked_out_by"] == "Bo"
    clock = client.get(f"/api/tournaments/{t['id']}/clock").get_json()
    assert clock["bounty"]["in_play"] == 125                 # Ann €50, Bo €50 + €25


def test_split_pot_on_the_tablet_splits_the_bounty_odd_unit_left_of_the_button(
        client, auth, make_tournament):
    t = tablet_event(client, auth, make_tournament, {"Ann": 10_000, "Bo": 10_000, "Cy": 300},
                     bounty_kind="fixed", bounty="25.01", unit="0.01")
    hand = all_in_to_showdown(client, auth, t["url"], t["seats"]["Cy"])
    ann, bo = t["seats"]["Ann"], t["seats"]["Bo"]
    r = client.post(f"{t['url']}/hand/award", headers=auth,
                    json={"high": [[ann, bo]], "version": hand["version"]})
    assert r.status_code == 200, r.get_json()
    button = int(r.get_json()["positions"]["button"])
    first = min((ann, bo), key=lambda seat: (seat - button - 1) % 10)   # first left of the button
    rows = {row["name"]: row for row in
            client.get(f"/api/tournaments/{t['id']}/results").get_json()["results"]}
    assert sorted(rows["Cy"]["knocked_out_by"].split(", ")) == ["Ann", "Bo"]
    name = {ann: "Ann", bo: "Bo"}
    assert rows[name[first]]["bounties"] == 1_251
    assert rows[name[ann if first == bo else bo]]["bounties"] == 1_250
