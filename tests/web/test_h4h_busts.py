"""Hand-for-hand busts recorded table by table are placed together (RULES.md §9.6).

During hand-for-hand every table deals one hand and waits; each dealer tablet
reports its table's busts as its hand finishes, one ``busts.eliminate`` call
per table.  Busts of the same round are placed together ([H4H-1], [H4H-2];
TDA RP-8, WSOP-T 126): at different tables they tie, at one table the bigger
starting stack finishes higher, and in the announcement hand they all share
the places in play.  The first tests drive the service inside an app context;
the last one goes through the tablets' JSON API.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from director.db import db, utcnow
from director.models.money import Payment
from director.models.seating import Player, SeatingLogEntry, SeatingSettings, SeatingTable
from director.services import Invalid, busts, seating
from director.services.audit import said_again
from director.tournament.seating import Bust, HandForHand
from tests.web.test_dealer_undo_elimination import bust_the_short_stack, player_json

# ---------------------------------------------------------------- helpers


def at(tid: int, table: int, index: int = 0) -> int:
    """The player id of the ``index``-th player (by id) at table ``table``."""
    seated = seating.load_layout(tid).table(table).seats.values()
    return sorted(p.player_id for p in seated)[index]


def seat(tid: int, player_id: int) -> tuple[int, dict[int, int]]:
    """(seating_table.id, {player_id: seat}) of a seated player, for ``reinstate``."""
    number, seat_number = seating.load_layout(tid).where(player_id)
    row = db.session.scalars(select(SeatingTable).where(
        SeatingTable.tournament_id == tid, SeatingTable.number == number)).one()
    return row.id, {player_id: seat_number}


def places(*player_ids: int) -> list[tuple[int | None, int | None]]:
    rows = [db.session.get(Player, pid) for pid in player_ids]
    return [(p.place, p.place_last) for p in rows]


def h4h(tid: int) -> HandForHand:
    db.session.expire_all()
    return HandForHand.from_json(db.session.get(SeatingSettings, tid).hand_for_hand or {})


def log(tid: int) -> list[str]:
    return [said_again(text) for text in db.session.scalars(select(SeatingLogEntry.text).where(
        SeatingLogEntry.tournament_id == tid, SeatingLogEntry.action == "eliminate")
        .order_by(SeatingLogEntry.id))]


def name(player_id: int) -> str:
    return db.session.get(Player, player_id).name


# ---------------------------------------------------------------- the service


def test_H4H_2_busts_at_two_tables_recorded_one_by_one_tie(field: Callable[..., int]) -> None:
    # [H4H-2] scaled down: 12 left at two tables; X (table 1) and Y (table 2) bust in the
    # same hand-for-hand hand, X's table reporting first.
    tid = field(12, table_size=6)
    seating.hand_for_hand(tid, "announce")
    seating.hand_for_hand(tid, "start")
    x, y = at(tid, 1), at(tid, 2)
    first, _ = busts.eliminate(tid, [x], {x: 12_000})
    assert [(f.first, f.last) for f in first] == [(12, 12)]        # alone, for a moment
    finishes, _ = busts.eliminate(tid, [y], {y: 8_000})

    assert [(f.first, f.last, f.player_ids) for f in finishes] == [(11, 12, (x, y))]
    assert places(x, y) == [(11, 12), (11, 12)]
    assert db.session.get(Player, x).place_label == "11–12 (shared)"
    assert db.session.get(Player, x).eliminated_at == db.session.get(Player, y).eliminated_at
    assert log(tid)[-2:] == [f"{name(y)} eliminated in place 11–12 (shared)",
                             f"{name(x)} now finishes in place 11–12 (shared)"]
    assert h4h(tid).busts == (Bust(x, 1, 12_000), Bust(y, 2, 8_000))
    assert seating.field_stats(tid)["players_left"] == 10


def test_H4H_1_announcement_hand_busts_recorded_one_by_one_share_the_places_in_play(
        field: Callable[..., int]) -> None:
    # [H4H-1] scaled down: 18 left at three tables when hand-for-hand is announced; three
    # players bust in that current hand, each table reporting on its own: all three share
    # 16th-18th, whatever their stacks.
    tid = field(18, table_size=6)
    seating.hand_for_hand(tid, "announce")
    a, b, c = at(tid, 1), at(tid, 2), at(tid, 3)
    busts.eliminate(tid, [a], {a: 9_000})
    busts.eliminate(tid, [b], {b: 500})
    finishes, _ = busts.eliminate(tid, [c], {c: 20_000})
    assert [(f.first, f.last) for f in finishes] == [(16, 18)]
    assert places(a, b, c) == [(16, 18)] * 3
    assert len({db.session.get(Player, p).eliminated_at for p in (a, b, c)}) == 1
    assert len(h4h(tid).busts) == 3

    seating.hand_for_hand(tid, "start")                 # the announcement hand is over
    assert h4h(tid).busts == ()
    d = at(tid, 1)
    busts.eliminate(tid, [d])
    assert places(d) == [(15, None)]                    # a new round: no tie with them
    assert places(a) == [(16, 18)]


def test_H4H_2_same_table_pair_in_one_call_the_bigger_stack_finishes_higher(
        field: Callable[..., int]) -> None:
    # [H4H-2] second part: X (12,000) and Y (8,000) both at table 1.
    tid = field(12, table_size=6)
    seating.hand_for_hand(tid, "start")
    x, y = at(tid, 1, 0), at(tid, 1, 1)
    finishes, _ = busts.eliminate(tid, [x, y], {x: 12_000, y: 8_000})
    assert [(f.first, f.last) for f in finishes] == [(11, 11), (12, 12)]
    assert places(x, y) == [(11, None), (12, None)]


def test_a_later_table_ties_with_the_shortest_stack_of_the_first_tables_pair(
        field: Callable[..., int]) -> None:
    # Table 1 loses X (12,000) and Y (8,000); then table 2 loses Z.  Each table's shortest
    # stack goes out first: Y and Z tie for 11th-12th, X is 10th.
    tid = field(12, table_size=6)
    seating.hand_for_hand(tid, "start")
    x, y, z = at(tid, 1, 0), at(tid, 1, 1), at(tid, 2)
    busts.eliminate(tid, [x, y], {x: 12_000, y: 8_000})
    finishes, _ = busts.eliminate(tid, [z], {z: 3_000})
    assert [(f.first, f.last, f.player_ids) for f in finishes] == [(11, 12, (y, z))]
    assert places(x, y, z) == [(10, None), (11, 12), (11, 12)]
    assert f"{name(x)} now finishes in place 10" in log(tid)
    assert f"{name(y)} now finishes in place 11–12 (shared)" in log(tid)


def test_a_director_ticking_two_tables_in_one_call_joins_the_earlier_bust_of_the_round(
        field: Callable[..., int]) -> None:
    tid = field(18, table_size=6)
    seating.hand_for_hand(tid, "start")
    a, b, c = at(tid, 1), at(tid, 2), at(tid, 3)
    busts.eliminate(tid, [a])
    finishes, _ = busts.eliminate(tid, [b, c])
    assert [(f.first, f.last, f.player_ids) for f in finishes] == [(16, 18, (a, b, c))]
    assert places(a, b, c) == [(16, 18)] * 3


def test_a_bust_in_the_next_round_does_not_tie_with_the_last_round(
        field: Callable[..., int]) -> None:
    tid = field(12, table_size=6)
    seating.hand_for_hand(tid, "start")
    x = at(tid, 1)
    busts.eliminate(tid, [x])
    seating.hand_for_hand(tid, "finish")                # every table finished: next round
    assert h4h(tid).busts == ()
    y = at(tid, 2)
    finishes, _ = busts.eliminate(tid, [y])
    assert [(f.first, f.last) for f in finishes] == [(11, 11)]
    assert places(x, y) == [(12, None), (11, None)]
    assert db.session.get(Player, x).eliminated_at < db.session.get(Player, y).eliminated_at
    assert [b.player_id for b in h4h(tid).busts] == [y]


def test_outside_hand_for_hand_busts_recorded_one_by_one_do_not_tie(
        field: Callable[..., int]) -> None:
    tid = field(12, table_size=6)
    x, y = at(tid, 1), at(tid, 2)
    busts.eliminate(tid, [x])
    busts.eliminate(tid, [y])
    assert places(x, y) == [(12, None), (11, None)]
    assert h4h(tid).busts == ()


def test_H4H_2_undoing_one_of_two_tied_busts_leaves_the_other_alone_in_the_last_place(
        field: Callable[..., int]) -> None:
    tid = field(12, table_size=6)
    seating.hand_for_hand(tid, "start")
    x, y = at(tid, 1), at(tid, 2)
    table_id, seats = seat(tid, y)
    busts.eliminate(tid, [x])
    busts.eliminate(tid, [y])
    assert places(x, y) == [(11, 12), (11, 12)]

    lines = busts.reinstate(tid, table_id, seats)     # table 2's dealer undoes the award
    db.session.commit()
    assert lines[-1] == f"{name(x)} now finishes in place 12"
    assert places(x, y) == [(12, None), (None, None)]
    assert [b.player_id for b in h4h(tid).busts] == [x]

    busts.eliminate(tid, [y])                         # the dealer awards the pot again
    assert places(x, y) == [(11, 12), (11, 12)]


def test_a_prize_paid_for_a_place_the_tie_would_change_is_refused(
        field: Callable[..., int]) -> None:
    tid = field(12, table_size=6)
    seating.hand_for_hand(tid, "start")
    x, y = at(tid, 1), at(tid, 2)
    busts.eliminate(tid, [x])
    db.session.add(Payment(tournament_id=tid, player_id=x, player_name=name(x),
                           person=name(x).casefold(), kind="payout", prize=5_000,
                           note="Prize for place 12"))
    db.session.commit()
    with pytest.raises(Invalid) as refused:
        busts.eliminate(tid, [y])
    assert refused.value.errors == {"player_ids": (
        f"{name(x)} has been paid a prize for place 12, which this bust in the same "
        "hand-for-hand hand would change: undo that payment on the money page first")}
    assert places(x, y) == [(12, None), (None, None)]   # nothing changed
    assert db.session.get(Player, y).active
    assert [b.player_id for b in h4h(tid).busts] == [x]

    payment = db.session.scalars(select(Payment).where(Payment.player_id == x)).one()
    payment.undone_at = utcnow()                         # the money page undid the payment
    db.session.commit()
    busts.eliminate(tid, [y])
    assert places(x, y) == [(11, 12), (11, 12)]


# ---------------------------------------------------------------- through the tablets' API


def test_H4H_2_busts_at_two_tablets_during_hand_for_hand_tie(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    from tests.web.test_dealer_helpers import seat_table

    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    t = seat_table(client, make_tournament, auth, names, table_size=6)
    tid = t["tournament_id"]
    tables = client.get(f"/api/tournaments/{tid}/seating").get_json()["tables"]
    assert [len(table["seats"]) for table in tables] == [4, 4]
    pairing = client.get(f"/api/tournaments/{tid}/dealer/pairing",
                         headers=auth).get_json()["tables"]
    shorts: list[dict[str, Any]] = []
    for table, tablet in zip(tables, pairing, strict=True):
        short = table["seats"][0]                        # one short stack at each table
        r = client.post(f"/api/tournaments/{tid}/seating/chips",
                        json={"player_id": short["player_id"], "chips": 300}, headers=auth)
        assert r.status_code == 200, r.get_json()
        shorts.append({**short, "url": f"/api/tables/{tablet['table_id']}"})
    for action in ("announce", "start"):
        r = client.post(f"/api/tournaments/{tid}/seating/hand-for-hand",
                        json={"action": action}, headers=auth)
        assert r.status_code == 200, r.get_json()

    bust_the_short_stack(client, auth, shorts[0]["url"], shorts[0]["seat"])
    first = player_json(client, tid, shorts[0]["name"])
    assert (first["status"], first["place"], first["place_last"]) == ("eliminated", 8, None)
    bust_the_short_stack(client, auth, shorts[1]["url"], shorts[1]["seat"])

    for short in shorts:
        out = player_json(client, tid, short["name"])
        assert (out["status"], out["place"], out["place_last"], out["chips"]) == \
            ("eliminated", 7, 8, 0)
    seating_json = client.get(f"/api/tournaments/{tid}/seating").get_json()
    assert seating_json["players_left"] == 6
