"""Issue 5: undo of the last action before the next hand starts, even when the hand busted a player.

Undoing the award of a hand that eliminated a player brings the player back:
active, in his seat, his chips back, his place cleared, the places of players
who went out after him moved back, and a winner it crowned uncrowned
(``director.services.busts.reinstate``, called by the dealer's undo in the
same transaction).  The first tests drive the service inside an app context;
the last go through the JSON API as a tablet does.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from director.db import db, utcnow
from director.models.money import Payment
from director.models.seating import (
    Player,
    SeatingLogEntry,
    SeatingPlanRecord,
    SeatingSettings,
    SeatingTable,
)
from director.services import Invalid, busts, seating
from director.services.audit import said_again
from director.services.events import events
from tests.web.test_dealer_helpers import drive, passive, seat_table

# ---------------------------------------------------------------- the service


def seat_of(tid: int, number: int, index: int = 0) -> tuple[int, int, int]:
    """(table id, seat, player id) of the ``index``-th seated player at table ``number``."""
    table = seating.load_layout(tid).table(number)
    seat, player = sorted(table.seats.items())[index]
    row = db.session.scalars(select(SeatingTable).where(
        SeatingTable.tournament_id == tid, SeatingTable.number == number)).one()
    return row.id, seat, player.player_id


def version(tid: int) -> int:
    return db.session.scalar(select(SeatingSettings.version).where(
        SeatingSettings.tournament_id == tid)) or 0


def refusal(tid: int, table_id: int, seats: dict[int, int]) -> str:
    with pytest.raises(Invalid) as exc:
        busts.reinstate(tid, table_id, seats)
    assert list(exc.value.errors) == ["player_ids"]
    return exc.value.errors["player_ids"]


def test_reinstate_puts_the_player_back_and_leaves_the_commit_to_the_caller(
        field: Callable[..., int]) -> None:
    tid = field(6)
    table_id, seat, pid = seat_of(tid, 1, 2)
    before = seating.load_layout(tid)
    finishes, _ = busts.eliminate(tid, [pid])
    assert finishes[0].first == 6 and seating.field_stats(tid)["players_left"] == 5
    locked = version(tid)

    lines = busts.reinstate(tid, table_id, {pid: seat})

    player = db.session.get(Player, pid)
    assert lines == [f"{player.name} reinstated at table 1 seat {seat}: the hand that "
                     "eliminated them was undone"]
    assert (player.status, player.place, player.place_last, player.eliminated_at) == \
        ("active", None, None, None)
    assert seating.load_layout(tid) == before               # same seat, vacated list as before
    assert version(tid) == locked + 1                      # the optimistic lock moved (flushed)
    db.session.rollback()                                  # ... but nothing was committed
    assert db.session.get(Player, pid).status == "eliminated"
    assert seating.field_stats(tid)["players_left"] == 5


def test_a_committed_reinstatement_is_logged_and_counted(field: Callable[..., int]) -> None:
    tid = field(6)
    table_id, seat, pid = seat_of(tid, 1, 0)
    busts.eliminate(tid, [pid])
    busts.reinstate(tid, table_id, {pid: seat})
    db.session.commit()
    assert seating.field_stats(tid) == {"players_left": 6, "average_stack": 60_021 // 6}
    log = db.session.scalars(select(SeatingLogEntry.text).where(
        SeatingLogEntry.tournament_id == tid, SeatingLogEntry.action == "reinstate")).all()
    assert len(log) == 1 and "reinstated at table 1" in said_again(log[0])


def test_a_later_bust_at_another_table_moves_back_one_place(field: Callable[..., int]) -> None:
    tid = field(12, table_size=6)
    table_id, seat, ann = seat_of(tid, 1)
    _, _, bo = seat_of(tid, 2)
    busts.eliminate(tid, [ann])                           # 12th
    busts.eliminate(tid, [bo])                            # 11th, at table 2
    assert db.session.get(Player, bo).place == 11
    lines = busts.reinstate(tid, table_id, {ann: seat})
    bo_row = db.session.get(Player, bo)
    assert bo_row.place == 12 and bo_row.place_last is None
    assert lines[-1] == f"{bo_row.name} now finishes in place 12"


def test_an_earlier_bust_keeps_his_place(field: Callable[..., int]) -> None:
    tid = field(12, table_size=6)
    _, _, ann = seat_of(tid, 1)
    table_id, seat, bo = seat_of(tid, 2)
    busts.eliminate(tid, [ann])                           # 12th
    busts.eliminate(tid, [bo])                            # 11th: his bust is undone
    assert len(busts.reinstate(tid, table_id, {bo: seat})) == 1
    assert db.session.get(Player, ann).place == 12


def test_the_winner_the_bust_crowned_is_uncrowned(field: Callable[..., int]) -> None:
    tid = field(2)
    table_id, seat, loser = seat_of(tid, 1, 0)
    _, _, winner = seat_of(tid, 1, 1)
    busts.eliminate(tid, [loser])
    assert db.session.get(Player, winner).place == 1
    lines = busts.reinstate(tid, table_id, {loser: seat})
    name = db.session.get(Player, winner).name
    assert lines[-1] == f"{name} has not won yet: the tournament goes on"
    assert db.session.get(Player, winner).place is None
    assert db.session.get(Player, loser).place is None


def test_the_balance_plan_the_busts_caused_is_discarded(field: Callable[..., int]) -> None:
    tid = field(12, table_size=6)
    table_id, s1, a = seat_of(tid, 1, 0)
    _, s2, b = seat_of(tid, 1, 1)
    _, record = busts.eliminate(tid, [a, b])              # 4 against 6: a move is proposed
    assert record is not None and record.status == "pending"
    busts.reinstate(tid, table_id, {a: s1, b: s2})
    db.session.commit()
    assert db.session.get(SeatingPlanRecord, record.id).status == "discarded"
    assert seating.overview(tid).pending is None            # 6 and 6: nothing to do


def test_a_confirmed_plan_since_the_bust_is_refused_until_it_is_undone(
        field: Callable[..., int]) -> None:
    tid = field(12, table_size=6)
    table_id, s1, a = seat_of(tid, 1, 0)
    _, s2, b = seat_of(tid, 1, 1)
    _, record = busts.eliminate(tid, [a, b])
    assert record is not None
    seating.confirm_plan(tid, record.id)
    names = f"{db.session.get(Player, a).name}, {db.session.get(Player, b).name}"
    assert refusal(tid, table_id, {a: s1, b: s2}) == (
        f"Players were moved after {names} went out (a seating plan was confirmed): the "
        "director must undo that plan on the seating page before this hand can be undone")
    assert db.session.get(Player, a).status == "eliminated"   # nothing changed
    seating.undo_last(tid)
    busts.reinstate(tid, table_id, {a: s1, b: s2})
    assert [t.count for t in seating.load_layout(tid).tables] == [6, 6]


def test_a_seat_taken_since_the_bust_is_refused(field: Callable[..., int]) -> None:
    tid = field(12, table_size=6)
    table_id, seat, ann = seat_of(tid, 1)
    _, _, cy = seat_of(tid, 2)
    busts.eliminate(tid, [ann])
    seating.reseat(tid, cy, 1, seat)                        # the director filled the seat
    ann_name, cy_name = db.session.get(Player, ann).name, db.session.get(Player, cy).name
    assert refusal(tid, table_id, {ann: seat}) == (
        f"Table 1 seat {seat} is taken by {cy_name}: {ann_name} cannot go back there")
    assert db.session.get(Player, ann).status == "eliminated"


def test_a_broken_table_is_refused(field: Callable[..., int]) -> None:
    tid = field(6)
    _, seat, ann = seat_of(tid, 1)
    busts.eliminate(tid, [ann])
    name = db.session.get(Player, ann).name
    assert refusal(tid, 10**6, {ann: seat}) == (
        f"The table of that hand has been broken since: seat {name} from the seating page")


def test_a_player_who_entered_again_is_refused(field: Callable[..., int]) -> None:
    tid = field(6)
    table_id, seat, ann = seat_of(tid, 1)
    busts.eliminate(tid, [ann])
    name = db.session.get(Player, ann).name
    seating.register_player(tid, name)                      # a re-entry in the same name
    assert refusal(tid, table_id, {ann: seat}) == (
        f"{name} has entered again since going out: undo that entry first")


def test_a_player_still_in_is_refused(field: Callable[..., int]) -> None:
    tid = field(6)
    table_id, seat, ann = seat_of(tid, 1)
    name = db.session.get(Player, ann).name
    assert refusal(tid, table_id, {ann: seat}) == f"{name} is not out of the tournament"


def _pay(tid: int, player_id: int, *, undone: bool = False) -> None:
    player = db.session.get(Player, player_id)
    db.session.add(Payment(tournament_id=tid, player_id=player_id, player_name=player.name,
                           person=player.name.casefold(), kind="payout", prize=5_000,
                           note=f"Prize for place {player.place}",
                           undone_at=utcnow() - timedelta(seconds=1) if undone else None))
    db.session.commit()


def test_a_prize_paid_for_a_place_that_would_change_is_refused(field: Callable[..., int]) -> None:
    tid = field(12, table_size=6)
    table_id, seat, ann = seat_of(tid, 1)
    _, _, bo = seat_of(tid, 2)
    busts.eliminate(tid, [ann])
    busts.eliminate(tid, [bo])
    _pay(tid, bo)                                           # Bo was paid for 11th place
    bo_name = db.session.get(Player, bo).name
    assert refusal(tid, table_id, {ann: seat}) == (
        f"{bo_name} has been paid a prize for place 11, which this undo would change: undo "
        "that payment on the money page first")
    assert db.session.get(Player, bo).place == 11


def test_a_prize_payment_that_was_undone_does_not_stand_in_the_way(
        field: Callable[..., int]) -> None:
    tid = field(6)
    table_id, seat, ann = seat_of(tid, 1)
    busts.eliminate(tid, [ann])
    _pay(tid, ann, undone=True)
    assert len(busts.reinstate(tid, table_id, {ann: seat})) == 1


# ---------------------------------------------------------------- through the tablet's API


def bust_the_short_stack(client: FlaskClient, auth: dict[str, str], url: str,
                         short: int) -> dict[str, Any]:
    """Deal a hand, the short stack (seat ``short``) all-in, the others check it down,
    and award the pot to another seat: the short stack is out."""
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    hand = drive(client, url, auth, hand,
                 lambda h: "all_in" if h["to_act"] == short else passive(h))
    assert hand["awaiting"] == "showdown"
    other = next(s for s in hand["showdown_order"] if s != short)
    r = client.post(f"{url}/hand/award", json={"high": [[other]], "version": hand["version"]},
                    headers=auth)
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["finished"]
    return dict(r.get_json())


def player_json(client: FlaskClient, tid: int, name: str) -> dict[str, Any]:
    seating_json = client.get(f"/api/tournaments/{tid}/seating").get_json()
    return dict(next(p for p in seating_json["players"] if p["name"] == name))


def test_undoing_the_award_that_busted_a_player_brings_him_back(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], chips=[10_000, 10_000, 300])
    tid, url, short = t["tournament_id"], f"/api/tables/{t['id']}", t["seats"]["Cy"]
    bust_the_short_stack(client, auth, url, short)
    cy = player_json(client, tid, "Cy")
    assert (cy["status"], cy["place"], cy["chips"], cy["seat"]) == ("eliminated", 3, 0, None)
    assert client.get(f"/api/tournaments/{tid}/clock").get_json()["players_left"] == 2

    subscription = events(app).subscribe(tid, table=t["id"])   # the table's tablet
    try:
        undo = client.post(f"{url}/hand/undo", json={}, headers=auth)
        received = [subscription.queue.get(timeout=1) for _ in range(3)]
    finally:
        events(app).unsubscribe(subscription)
    assert undo.status_code == 200, undo.get_json()
    hand = undo.get_json()
    assert hand["finished"] is False and hand["awaiting"] == "showdown"

    cy = player_json(client, tid, "Cy")
    assert (cy["status"], cy["place"], cy["place_last"], cy["chips"]) == ("active", None, None, 300)
    assert (cy["table"], cy["seat"]) == (1, short)
    seating_json = client.get(f"/api/tournaments/{tid}/seating").get_json()
    assert seating_json["players_left"] == 3
    assert sum(p["chips"] for p in seating_json["players"]) == 20_300
    assert client.get(f"/api/tournaments/{tid}/clock").get_json()["players_left"] == 3
    clock_events = [e for e in received if b"event: clock\n" in e]
    assert clock_events and b'"players_left":3' in clock_events[0]
    log = client.get(f"{url}/hand", headers=auth).get_json()["log"]
    assert any("Cy reinstated at table 1" in entry["text"] for entry in log)

    # The dealer awards the pot again: Cy is out again, in 3rd place.
    r = client.post(f"{url}/hand/award", json={"high": [[next(
        s for s in hand["showdown_order"] if s != short)]], "version": hand["version"]},
        headers=auth)
    assert r.status_code == 200, r.get_json()
    cy = player_json(client, tid, "Cy")
    assert (cy["status"], cy["place"], cy["chips"]) == ("eliminated", 3, 0)


def two_tables(client: FlaskClient, auth: dict[str, str],
               make_tournament: Callable[..., int]) -> dict[str, Any]:
    """8 players at two 6-max tables (4 and 4); one player at table 1 cut to 300 chips."""
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    t = seat_table(client, make_tournament, auth, names, table_size=6)
    tid = t["tournament_id"]
    seating_json = client.get(f"/api/tournaments/{tid}/seating").get_json()
    assert [len(table["seats"]) for table in seating_json["tables"]] == [4, 4]
    short_name, short_seat = sorted(t["seats"].items())[0]
    short_id = next(pid for pid, s in t["player_seats"].items() if s == short_seat)
    r = client.post(f"/api/tournaments/{tid}/seating/chips",
                    json={"player_id": short_id, "chips": 300}, headers=auth)
    assert r.status_code == 200, r.get_json()
    other_table = seating_json["tables"][1]["seats"]
    return {**t, "short": short_name, "short_seat": short_seat, "short_id": short_id,
            "table2": other_table}


def test_a_later_bust_at_the_other_table_moves_back_a_place(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = two_tables(client, auth, make_tournament)
    tid, url = t["tournament_id"], f"/api/tables/{t['id']}"
    bust_the_short_stack(client, auth, url, t["short_seat"])
    assert player_json(client, tid, t["short"])["place"] == 8
    later = t["table2"][0]
    r = client.post(f"/api/tournaments/{tid}/seating/eliminate",
                    json={"player_ids": [later["player_id"]]}, headers=auth)
    assert r.status_code == 200, r.get_json()
    assert player_json(client, tid, later["name"])["place"] == 7

    undo = client.post(f"{url}/hand/undo", json={}, headers=auth)
    assert undo.status_code == 200, undo.get_json()
    assert player_json(client, tid, later["name"])["place"] == 8     # out with 8 players left
    back = player_json(client, tid, t["short"])
    assert (back["status"], back["place"], back["chips"]) == ("active", None, 300)
    assert client.get(f"/api/tournaments/{tid}/clock").get_json()["players_left"] == 7


def test_undo_is_refused_when_the_seat_was_given_away(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = two_tables(client, auth, make_tournament)
    tid, url = t["tournament_id"], f"/api/tables/{t['id']}"
    finished = bust_the_short_stack(client, auth, url, t["short_seat"])
    mover = t["table2"][0]
    r = client.post(f"/api/tournaments/{tid}/seating/reseat",
                    json={"player_id": mover["player_id"], "table": 1, "seat": t["short_seat"]},
                    headers=auth)
    assert r.status_code == 200, r.get_json()

    undo = client.post(f"{url}/hand/undo", json={}, headers=auth)
    assert undo.status_code == 422
    assert undo.get_json()["error"] == (f"Table 1 seat {t['short_seat']} is taken by "
                                        f"{mover['name']}: {t['short']} cannot go back there")
    hand = client.get(f"{url}/hand", headers=auth).get_json()
    assert hand["finished"] and hand["version"] == finished["version"]   # nothing was undone
    out = player_json(client, tid, t["short"])
    assert (out["status"], out["place"]) == ("eliminated", 8)
