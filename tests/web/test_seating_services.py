"""Seating services: one unit of work each, applied only when the director confirms.

Each test drives ``director.services.seating`` inside an app context on its
own temp DB and checks what the rows say afterwards.
"""

from __future__ import annotations

import queue
import random
from collections.abc import Callable

import pytest
from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.orm.exc import StaleDataError

from director.db import db
from director.models.seating import Player, Seat, SeatingPlanRecord, SeatingTable
from director.services import Invalid, busts, money, read_model, seating
from director.services import clock as clock_service
from director.services.audit import said_again
from director.services.events import events
from director.services.money import sales as money_sales
from director.tournament.seating import (
    Layout,
    SeatingPolicy,
    TableState,
    apply_moves,
    apply_plan,
    deal_hand,
    draw_seats,
)


def counts(tid: int) -> list[int]:
    return [t.count for t in seating.load_layout(tid).tables]


def test_layout_round_trips_exactly_through_the_rows(ctx: Flask, field: Callable[..., int]) -> None:
    tid = field(20, draw=False)
    ids = [p.id for p in db.session.scalars(select(Player).where(Player.tournament_id == tid))]
    names = {p.id: p.name for p in db.session.scalars(select(Player))}
    policy = SeatingPolicy(table_size=9)
    layout = apply_plan(Layout(()), draw_seats([(i, names[i]) for i in ids], policy,
                                               random.Random(3)))
    layout = layout.with_table(deal_hand(layout.table(2)))            # positions moved on
    seating.store_layout(tid, layout)
    db.session.commit()
    assert seating.load_layout(tid) == layout
    # Swap two players and move a third into a seat just vacated: a diff with
    # seats changing hands must keep the unique constraints and round-trip.
    t1 = layout.table(1)
    (s_a, a), (s_b, b) = sorted(t1.seats.items())[:2]
    s_c, c = sorted(layout.table(3).seats.items())[0]
    from director.tournament.seating import Move
    moved = apply_moves(layout, [Move(a.player_id, a.name, 1, s_a, 1, s_b),
                                 Move(b.player_id, b.name, 1, s_b, 3, s_c),
                                 Move(c.player_id, c.name, 3, s_c, 1, s_a)])
    seating.store_layout(tid, moved)
    db.session.commit()
    assert seating.load_layout(tid) == moved
    assert seating.load_layout(tid).table(1).seats[s_b].player_id == a.player_id
    assert Layout.from_json(moved.to_json()) == seating.load_layout(tid)


def _rows(tid: int) -> tuple[set[tuple[int, int, int, bool]], set[tuple[object, ...]]]:
    db.session.flush()
    seats = {(t, s, p, bool(w)) for t, s, p, w in db.session.execute(
        select(SeatingTable.number, Seat.seat, Seat.player_id, Seat.waiting)
        .join(SeatingTable, SeatingTable.id == Seat.table_id).where(Seat.tournament_id == tid))}
    tables = {(t.number, t.size, t.button_seat, t.sb_seat, t.bb_seat, bool(t.game_is_stud),
               tuple(t.vacated or ()))
              for t in db.session.scalars(select(SeatingTable).where(
                  SeatingTable.tournament_id == tid))}
    return seats, tables


def test_storing_only_the_changed_tables_writes_what_storing_the_whole_room_writes(
        ctx: Flask, field: Callable[..., int]) -> None:
    """``store_layout(..., stored=)`` (a hand dealt, a late entry, a bust) reads and
    writes only the tables that differ.  After each of many random changes its rows
    are the ones the whole-room write makes from the same layout."""
    tid = field(40, draw=False)
    names = {p.id: p.name for p in db.session.scalars(select(Player))}
    policy = SeatingPolicy(table_size=6)
    rng = random.Random(16)
    layout = apply_plan(Layout(()), draw_seats(sorted(names.items()), policy, rng))
    seating.store_layout(tid, layout)
    db.session.commit()
    from director.tournament.seating import Move, plan_seating, remove_players

    kinds: set[str] = set()
    for _step in range(60):
        stored = seating.load_layout(tid)
        assert stored == layout
        kind = rng.choice(["deal", "bust", "bust", "move", "swap", "plan"])
        table = rng.choice(layout.tables)
        seated = [(s, p) for t in layout.tables for s, p in t.seats.items()]
        if kind == "deal":
            layout = layout.with_table(deal_hand(table))
        elif kind == "bust" and len(seated) > 8:
            layout = remove_players(layout, [rng.choice(seated)[1].player_id])
        elif kind == "move":
            open_seats = [(t.number, n) for t in layout.tables for n in range(1, t.size + 1)
                          if n not in t.seats]
            (number, seat), (from_seat, who) = rng.choice(open_seats), rng.choice(seated)
            where = layout.where(who.player_id)
            layout = apply_moves(layout, [Move(who.player_id, who.name, where[0], from_seat,
                                               number, seat)])
        elif kind == "plan":                         # balancing, or a table broken
            layout = apply_plan(layout, plan_seating(layout, policy, rng))
        else:
            (sa, a), (sb, b) = rng.sample(seated, 2)
            wa, wb = layout.where(a.player_id), layout.where(b.player_id)
            layout = apply_moves(layout, [Move(a.player_id, a.name, wa[0], sa, wb[0], sb),
                                          Move(b.player_id, b.name, wb[0], sb, wa[0], sa)])
        kinds.add(kind)
        seating.store_layout(tid, layout, stored=stored)
        changed = _rows(tid)
        seating.store_layout(tid, layout)            # the whole room, from the rows
        assert _rows(tid) == changed, kind
        db.session.commit()
    assert seating.load_layout(tid) == layout
    assert len(layout.tables) < 7 and kinds == {"deal", "bust", "move", "swap", "plan"}


def test_register_before_the_draw_waits_and_after_it_gets_a_random_open_seat(
        ctx: Flask, field: Callable[..., int]) -> None:
    tid = field(4, draw=False)
    player, move = seating.register_player(tid, "Anna Berg", 12_000)
    assert move is None and player.chips == 12_000 and player.active
    seating.draw(tid, random.Random(1))
    assert counts(tid) == [5]
    late, move = seating.register_player(tid, "Bo Ek", None, random.Random(2))
    assert move is not None and move.from_table is None
    table, seat = seating.load_layout(tid).where(late.id)
    assert (table, seat) == (move.to_table, move.to_seat)
    assert move.status.value in {"dealt in now", "waits for the button to pass",
                                 "posts the big blind now", "posts the small blind now"}
    assert late.chips == 20_000                     # the event's stack (money settings)
    lines = [said_again(e.text) for e in seating.overview(tid).log]
    assert any(line.startswith(f"Bo Ek: table {table} seat {seat} (") for line in lines)


def test_draw_seats_the_whole_field_once_with_tables_within_one(
        ctx: Flask, field: Callable[..., int]) -> None:
    tid = field(20, draw=False)
    plan = seating.draw(tid)                         # the cryptographic default
    assert plan.note == "Seat draw: 20 players at 3 tables"
    assert sorted(counts(tid)) == [6, 7, 7]
    assert db.session.scalar(select(func.count(Seat.id))) == 20
    with pytest.raises(Invalid) as error:
        seating.draw(tid)
    assert "already drawn" in error.value.errors["draw"]


def test_draw_uses_a_cryptographic_rng_by_default(ctx: Flask, field: Callable[..., int],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import secrets

    made: list[object] = []
    real = secrets.SystemRandom

    class Spy(real):  # type: ignore[misc,valid-type]
        def __init__(self) -> None:
            made.append(self)
            super().__init__()

    monkeypatch.setattr(secrets, "SystemRandom", Spy)
    tid = field(10, draw=False)
    seating.draw(tid)
    assert made, "the draw did not use secrets.SystemRandom"


def test_a_bust_records_the_place_and_proposes_balance_moves_without_applying_them(
        ctx: Flask, field: Callable[..., int]) -> None:
    tid = field(20)                                   # 7, 7, 6 at tables 1-3
    layout = seating.load_layout(tid)
    short = min(layout.tables, key=lambda t: (t.count, t.number))
    victim = sorted(short.seats.values(), key=lambda p: p.player_id)[0].player_id
    finishes, record = busts.eliminate(tid, [victim])
    assert finishes[0].first == 20 and finishes[0].player_ids == (victim,)
    assert db.session.get(Player, victim).place == 20
    assert db.session.get(Player, victim).status == "eliminated"
    assert db.session.get(Player, victim).eliminated_at is not None
    assert record is not None and record.kind == "balance" and record.status == "pending"
    assert sorted(counts(tid)) == [5, 7, 7]           # nothing moved yet
    plan, nxt = seating.confirm_plan(tid, record.id)
    assert len(plan.moves) == 1 and nxt is None
    assert plan.moves[0].to_table == short.number
    assert sorted(counts(tid)) == [6, 6, 7]
    assert db.session.get(SeatingPlanRecord, record.id).status == "confirmed"


def test_undo_puts_everybody_back_and_the_plan_is_pending_again(
        ctx: Flask, field: Callable[..., int]) -> None:
    tid = field(20)
    short = min(seating.load_layout(tid).tables, key=lambda t: (t.count, t.number))
    _, record = busts.eliminate(tid, [sorted(short.seats.values(),
                                             key=lambda p: p.player_id)[0].player_id])
    assert record is not None
    before = seating.load_layout(tid)
    seating.confirm_plan(tid, record.id)
    assert seating.load_layout(tid) != before
    seating.undo_last(tid)
    assert seating.load_layout(tid) == before
    again = db.session.get(SeatingPlanRecord, record.id)
    assert again.status == "pending"
    seating.confirm_plan(tid, record.id)              # and it can be confirmed again
    assert sorted(counts(tid)) == [6, 6, 7]


def test_undo_is_refused_once_the_seating_changed(ctx: Flask, field: Callable[..., int]) -> None:
    tid = field(20)
    with pytest.raises(Invalid):
        seating.confirm_plan(tid, 999)
    table = seating.load_layout(tid).tables[0]
    seating.hand_dealt(tid, table.number)             # after the draw, a hand is dealt
    snapshot = seating.load_layout(tid)
    with pytest.raises(Invalid) as error:
        seating.undo_last(tid)
    assert "cannot be undone" in error.value.errors["undo"]
    assert seating.load_layout(tid) == snapshot


def test_a_stale_plan_is_replaced_and_cannot_be_confirmed(
        ctx: Flask, field: Callable[..., int]) -> None:
    tid = field(20)
    short = min(seating.load_layout(tid).tables, key=lambda t: (t.count, t.number))
    seated = [p.player_id for _, p in sorted(short.seats.items())]
    _, first = busts.eliminate(tid, [seated[0]])
    _, second = busts.eliminate(tid, [seated[1]])   # the seating changed again
    assert first is not None and second is not None
    assert db.session.get(SeatingPlanRecord, first.id).status == "discarded"
    snapshot = seating.load_layout(tid)
    with pytest.raises(Invalid) as error:
        seating.confirm_plan(tid, first.id)
    assert "discarded" in error.value.errors["plan_id"]
    assert seating.load_layout(tid) == snapshot


def test_break_the_next_table_is_proposed_then_confirmed(
        ctx: Flask, field: Callable[..., int]) -> None:
    full = field(20, breaking_order="1, 2, 3", redraw_at_tables="1")
    with pytest.raises(Invalid) as error:            # 20 players do not fit at 2 tables
        seating.break_next_table(full)
    assert "cannot break" in error.value.errors["table"]
    assert seating.overview(full).pending is None
    tid = field(20, breaking_order="1, 2, 3", redraw_at_tables="1")
    assert seating.overview(tid).breaking_order == [1, 2, 3]
    for table in (2, 3):                             # one bust at each of two tables
        victim = min(p.player_id for p in seating.load_layout(tid).table(table).seats.values())
        _, auto = busts.eliminate(tid, [victim])
        if auto is not None and auto.kind == "balance":
            seating.confirm_plan(tid, auto.id)
    auto = seating.overview(tid).pending
    assert auto is not None and auto.kind == "break table"   # 18 players fit at 2 tables
    seating.discard_plan(tid, auto.id)
    assert seating.overview(tid).pending is None
    record = seating.break_next_table(tid, random.Random(5))
    assert record.kind == "break table"
    assert len(seating.load_layout(tid).tables) == 3  # proposed only
    seating.confirm_plan(tid, record.id)
    layout = seating.load_layout(tid)
    assert layout.numbers == [2, 3] and layout.player_count == 18
    assert db.session.scalar(select(func.count(SeatingTable.id)).where(
        SeatingTable.tournament_id == tid)) == 2


def test_busts_until_a_table_breaks(ctx: Flask, field: Callable[..., int]) -> None:
    tid = field(20, redraw_at_tables="1")
    rng = random.Random(11)
    kinds = []
    while len(seating.load_layout(tid).tables) == 3:
        active = [p.id for p in seating.overview(tid).active]
        _, record = busts.eliminate(tid, [rng.choice(active)], rng=rng)
        while record is not None:
            kinds.append(record.kind)
            _, record = seating.confirm_plan(tid, record.id, rng)
    assert "break table" in kinds
    layout = seating.load_layout(tid)
    assert layout.player_count == 18 and len(layout.tables) == 2
    assert max(counts(tid)) - min(counts(tid)) <= 1


def test_reseat_by_hand_and_a_taken_seat_changes_nothing(
        ctx: Flask, field: Callable[..., int]) -> None:
    tid = field(12)
    layout = seating.load_layout(tid)
    t1 = layout.table(1)
    mover = sorted(t1.seats.values(), key=lambda p: p.player_id)[0]
    taken_seat, taken = next((s, p) for s, p in t1.seats.items() if p != mover)
    with pytest.raises(Invalid) as error:
        seating.reseat(tid, mover.player_id, 1, taken_seat)
    assert f"taken by {taken.name}" in error.value.errors["seat"]
    assert seating.load_layout(tid) == layout
    with pytest.raises(Invalid) as error:
        seating.reseat(tid, mover.player_id, 1, 11)
    assert "seat" in error.value.errors
    to_table = 2
    open_seat = layout.table(to_table).open_seats[0]
    move = seating.reseat(tid, mover.player_id, to_table, open_seat)
    assert seating.load_layout(tid).where(mover.player_id) == (to_table, open_seat)
    assert move.describe().startswith(f"{mover.name}: table 1 seat ")


def test_a_hand_dealt_moves_the_button_on(ctx: Flask, field: Callable[..., int]) -> None:
    tid = field(9)
    before = seating.load_layout(tid).table(1)
    upcoming = before.upcoming()
    dealt = seating.hand_dealt(tid, 1)
    assert dealt.last_hand == upcoming
    assert seating.load_layout(tid).table(1).upcoming() != upcoming
    with pytest.raises(Invalid) as error:
        seating.hand_dealt(tid, 7)
    assert error.value.errors == {"table": "There is no table 7 in play"}


def test_hand_for_hand_takes_two_minutes_per_hand_off_the_clock(
        ctx: Flask, field: Callable[..., int]) -> None:
    tid = field(12)
    clock_service.start(tid)
    clock_service.pause(tid)
    before = read_model.clock_state(tid)["seconds_remaining"]
    with pytest.raises(Invalid):
        seating.hand_for_hand(tid, "finish")         # not on yet
    seating.hand_for_hand(tid, "announce")
    seating.hand_for_hand(tid, "start")
    result = seating.hand_for_hand(tid, "finish")
    assert result["seconds_deducted"] == 120
    state = result["hand_for_hand"]
    assert (state["on"], state["announced"], state["hands_played"], state["busts"]) == \
        (True, False, 1, [])
    assert state["since"] is not None        # the next hand-for-hand hand begins now
    after = read_model.clock_state(tid)["seconds_remaining"]
    assert before - after == pytest.approx(120, abs=0.01)
    seating.hand_for_hand(tid, "finish")
    assert before - read_model.clock_state(tid)["seconds_remaining"] == \
        pytest.approx(240, abs=0.01)
    seating.hand_for_hand(tid, "stop")
    assert seating.overview(tid).hand_for_hand.on is False
    with pytest.raises(Invalid) as error:
        seating.hand_for_hand(tid, "explode")
    assert "action" in error.value.errors


def test_H4H_2_busts_at_two_tables_in_one_hand_for_hand_hand_tie(
        ctx: Flask, field: Callable[..., int]) -> None:
    tid = field(12)                                  # two tables of 6
    seating.hand_for_hand(tid, "start")
    layout = seating.load_layout(tid)
    x = sorted(layout.table(1).seats.values(), key=lambda p: p.player_id)[0].player_id
    y = sorted(layout.table(2).seats.values(), key=lambda p: p.player_id)[0].player_id
    finishes, _ = busts.eliminate(tid, [x, y], {x: 12_000, y: 8_000})
    assert [(f.first, f.last) for f in finishes] == [(11, 12)]
    assert db.session.get(Player, x).place_label == "11–12 (shared)"
    assert db.session.get(Player, y).place == 11 and db.session.get(Player, y).place_last == 12


def test_two_busts_at_one_table_outside_hand_for_hand_the_bigger_stack_places_higher(
        ctx: Flask, field: Callable[..., int]) -> None:
    tid = field(12)
    t1 = sorted(seating.load_layout(tid).table(1).seats.values(), key=lambda p: p.player_id)
    small, big = t1[0].player_id, t1[1].player_id
    busts.eliminate(tid, [small, big], {small: 3_000, big: 9_000})
    assert db.session.get(Player, big).place == 11
    assert db.session.get(Player, small).place == 12
    other = sorted(seating.load_layout(tid).table(2).seats.values(),
                   key=lambda p: p.player_id)[0].player_id
    third = t1[2].player_id
    with pytest.raises(Invalid) as error:            # two tables, not hand-for-hand
        busts.eliminate(tid, [third, other])
    assert "separately" in error.value.errors["player_ids"]
    assert db.session.get(Player, third).active


def test_field_stats_average_the_entry_stacks_over_the_players_left(
        ctx: Flask, field: Callable[..., int]) -> None:
    tid = field(4, draw=False)                        # stacks 10001..10004
    assert seating.field_stats(tid) == {"players_left": 4, "average_stack": 40_010 // 4}
    seating.draw(tid, random.Random(1))
    first = seating.overview(tid).active[0]
    busts.eliminate(tid, [first.id])
    assert seating.field_stats(tid) == {"players_left": 3, "average_stack": 40_010 // 3}


def test_bad_input_names_the_field_and_changes_nothing(
        ctx: Flask, field: Callable[..., int]) -> None:
    tid = field(3)
    layout = seating.load_layout(tid)
    for name, chips, fields in [("", None, {"name"}), ("   ", "abc", {"name", "chips"}),
                                ("Eve", -5, {"chips"}), ("Eve", True, {"chips"}),
                                ("x" * 81, 100, {"name"}), ("Bad\x00name", 100, {"name"}),
                                ("player 01", None, {"name"}), (None, 10**13, {"name", "chips"})]:
        with pytest.raises(Invalid) as error:
            seating.register_player(tid, name, chips)
        assert set(error.value.errors) == fields, (name, chips, error.value.errors)
    assert db.session.scalar(select(func.count(Player.id))) == 3
    assert seating.load_layout(tid) == layout
    for data, key in [({"table_size": 7}, "table_size"), ({"table_size": "nine"}, "table_size"),
                      ({"breaking_order": "1, x"}, "breaking_order"),
                      ({"breaking_order": "2, 2"}, "breaking_order"),
                      ({"hand_for_hand_seconds": 600}, "hand_for_hand_seconds"),
                      ({"final_table_size": 3}, "final_table_size"),
                      ({"balance_threshold": 0}, "balance_threshold")]:
        with pytest.raises(Invalid) as error:
            seating.configure(tid, data)
        assert key in error.value.errors
    assert seating.policy_for(tid) == SeatingPolicy()
    for ids in [[], ["abc"], [10**30], [None], "x", [True]]:
        with pytest.raises(Invalid) as error:
            busts.eliminate(tid, ids)
        assert "player_ids" in error.value.errors
    assert seating.field_stats(tid)["players_left"] == 3


@pytest.mark.parametrize("chips", [None, 12_345])
def test_a_late_entry_is_told_to_the_screens_once_with_its_seat_and_buy_in(
        ctx: Flask, field: Callable[..., int], chips: int | None) -> None:
    """The seat and the buy-in are one change: one seating event and one clock state,
    sent after both are committed (they were sent twice, the first before the
    buy-in was recorded; and a stack other than the event's was committed and
    sent a third time)."""
    tid = field(3)
    money.save_settings(tid, {"buy_in": "100", "starting_stack": 10_000,
                              "late_registration_level": 6})
    subscription = events().subscribe(tid)
    try:
        sale = money.register_entry(tid, "Late Comer", chips)
        received = [subscription.queue.get(timeout=1) for _ in range(2)]
        with pytest.raises(queue.Empty):
            subscription.queue.get(timeout=0.3)
    finally:
        events().unsubscribe(subscription)
    assert received[0].startswith(b"event: seating\ndata: ")
    assert b'"players_left":4' in received[0]
    assert b"event: clock" in received[1] and b'"players_left":4' in received[1]
    # the same clock state has the buy-in in the pool and the player at his seat
    assert b'"entries":1,' in received[1] and b'"prize_pool":100,' in received[1]
    stack = chips or 10_000
    assert f'{{"name":"Late Comer","chips":{stack},"table":1,'.encode() in received[1]
    assert sale.player is not None and sale.player.chips == sale.player.entry_chips == stack
    assert sale.payment.chips == stack


def test_a_late_entry_whose_payment_fails_leaves_no_player_no_seat_and_tells_no_screen(
        ctx: Flask, field: Callable[..., int], monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat and the buy-in are one transaction: when the payment's commit loses
    a race (another writer changed the money settings), nothing of the entry stays."""
    tid = field(3)
    money.save_settings(tid, {"buy_in": "100", "starting_stack": 10_000,
                              "late_registration_level": 6})

    def lost_race(*_args: object) -> None:
        raise StaleDataError("another writer won")

    monkeypatch.setattr(money_sales, "lock_if_closed", lost_race)
    subscription = events().subscribe(tid)
    try:
        with pytest.raises(Invalid):
            money.register_entry(tid, "Late Comer")
        with pytest.raises(queue.Empty):
            subscription.queue.get(timeout=0.3)
    finally:
        events().unsubscribe(subscription)
    db.session.rollback()
    assert db.session.scalar(select(func.count(Player.id)).where(
        Player.tournament_id == tid, Player.name == "Late Comer")) == 0
    assert db.session.scalar(select(func.count(Seat.id)).where(Seat.tournament_id == tid)) == 3


def test_the_room_read_twice_from_the_same_rows_is_the_same_room_and_its_digest_is_kept(
        ctx: Flask, field: Callable[..., int]) -> None:
    """Reading the whole room again (every seating page and API answer does) gives the
    room built from the same rows before, so its 1,080 seats are not built again and
    its digest is not worked out again."""
    from director.services.seating.proposals import layout_digest
    tid = field(30)
    first = seating.load_layout(tid)
    digest = layout_digest(first)
    db.session.commit()
    again = seating.load_layout(tid)
    assert again is first and layout_digest(again) == digest
    assert seating.load_layout(tid, [1]).tables == first.tables[:1]     # some tables: read


def test_the_room_is_read_anew_after_any_change_to_its_rows_even_a_rolled_back_one(
        ctx: Flask, field: Callable[..., int]) -> None:
    """The kept room is given only for equal rows: a bust, a button moved, a name
    corrected change the room read next; a change read in a transaction that was
    rolled back is not what the next read gives."""
    from director.services.seating.proposals import layout_digest
    tid = field(30)
    before = seating.load_layout(tid)
    digests = {layout_digest(before)}
    db.session.commit()
    moved = before.with_table(deal_hand(before.table(1)))       # the button moves on
    seating.store_layout(tid, moved, stored=before)
    assert seating.load_layout(tid) == moved                      # read in the transaction
    db.session.rollback()
    assert seating.load_layout(tid) == before                     # the rows as committed
    seat, player = sorted(before.table(2).seats.items())[0]
    db.session.get(Player, player.player_id).name = "Renamed Player"
    db.session.commit()
    renamed = seating.load_layout(tid)
    assert renamed != before and renamed.table(2).seats[seat].name == "Renamed Player"
    digests.add(layout_digest(renamed))
    busts.eliminate(tid, [player.player_id])
    db.session.commit()
    after = seating.load_layout(tid)
    assert player.player_id not in {p.player_id for t in after.tables for p in t.seats.values()}
    digests.add(layout_digest(after))
    assert len(digests) == 3



def test_a_room_read_after_a_change_keeps_each_table_the_change_did_not_touch(
        ctx: Flask, field: Callable[..., int]) -> None:
    """After a late entry, a bust, a button moved or a name corrected, the room read
    anew is built from its new rows, but every table whose rows did not change is the
    table read before (the same object, its digest's text kept with it): at 300 tables
    a late entry builds one table, not 300.  A changed table is read as it now is."""
    tid = field(30)
    before = seating.load_layout(tid)
    db.session.commit()

    def kept(after: Layout, changed: set[int]) -> None:
        old = {t.number: t for t in before.tables}
        for table in after.tables:
            if table.number in changed or table.number not in old:
                assert table is not old.get(table.number)
            else:
                assert table is old[table.number], table.number
        assert after == Layout.from_json(after.to_json())

    late, _move = seating.register_player(tid, "Late Lena")
    table_of_late, seat_of_late = seating.load_layout(tid).where(late.id)
    after = seating.load_layout(tid)
    assert after.table(table_of_late).seats[seat_of_late].name == "Late Lena"
    kept(after, {table_of_late})
    before = after
    moved = before.with_table(deal_hand(before.table(2)))        # the button moves on
    seating.store_layout(tid, moved, stored=before)
    db.session.commit()
    after = seating.load_layout(tid)
    assert after == moved
    kept(after, {2})
    before = after
    seat, player = sorted(before.table(3).seats.items())[0]
    db.session.get(Player, player.player_id).name = "Renamed Player"
    db.session.commit()
    after = seating.load_layout(tid)
    assert after.table(3).seats[seat].name == "Renamed Player"
    kept(after, {3})
    before = after
    busts.eliminate(tid, [player.player_id])
    db.session.commit()
    after = seating.load_layout(tid)
    assert seat not in after.table(3).seats
    kept(after, {3})


def test_a_tables_open_seats_are_read_from_the_jsons_text_on_every_database(
        ctx: Flask, field: Callable[..., int]) -> None:
    """The table rows are read as the driver gives them, ``vacated`` as its JSON's text
    on every database (parsed only for a table built again): the table's open seats in
    order."""
    tid = field(12)
    layout = seating.load_layout(tid)
    table = layout.table(1)
    opened = sorted(table.seats)[:2]
    emptied = TableState(number=1, size=table.size, seats={
        s: p for s, p in table.seats.items() if s not in opened},
        button_seat=table.button_seat, sb_seat=table.sb_seat, bb_seat=table.bb_seat,
        game_is_stud=True, vacated=(opened[1], opened[0]))
    for s in opened:
        busts.eliminate(tid, [table.seats[s].player_id])
    db.session.commit()
    now = seating.load_layout(tid)
    seating.store_layout(tid, now.with_table(emptied), stored=now)
    db.session.commit()
    read = seating.load_layout(tid).table(1)
    assert read.vacated == (opened[1], opened[0]) and read.game_is_stud is True
    assert read == emptied


def test_the_rooms_digest_made_of_its_tables_texts_is_the_digest_of_the_whole_rooms_text(
        ) -> None:
    """Plans stored before keep their digests: the digest is still the SHA-256 of the
    whole room's sorted JSON, whether its tables' texts were made now or kept from the
    room before a change (names with quotes, accents and other scripts included)."""
    import hashlib
    import json

    from director.services.seating.proposals import layout_digest
    from director.tournament.seating import SeatedPlayer, TableState

    rng = random.Random(11)
    names = ["Ann \"the rock\" O'Neil", "Åsa Öberg", "Bình Nguyễn", "李小龍", "Zoë\\", "Ed"]
    tables = tuple(TableState(
        number=n, size=9, button_seat=rng.choice([None, 1, 2]), sb_seat=None, bb_seat=3,
        game_is_stud=n % 2 == 0, vacated=(4, 2) if n == 3 else (),
        seats={s: SeatedPlayer(n * 10 + s, rng.choice(names), rng.random() < 0.2)
               for s in rng.sample(range(1, 10), rng.randint(0, 9))}) for n in range(1, 13))

    def whole(layout: Layout) -> str:
        text = json.dumps(layout.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    before = Layout(tables)
    assert layout_digest(before) == whole(before)
    after = before.with_table(deal_hand(before.table(5)))     # shares eleven tables
    assert layout_digest(after) == whole(after) != whole(before)
    assert layout_digest(Layout(())) == whole(Layout(()))
