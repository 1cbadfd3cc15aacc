"""The event-level rows (the tournament, its money and seating settings) are read
once per transaction: ``director.db.hold_in_session``.  A late entry read its
tournament five times and its money settings three; each read is a round trip,
and on a loaded server each round trip waits for the interpreter lock again."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, update

from director.db import db
from director.models import Tournament
from director.services import get_tournament

END = "-- the transaction ended"


@pytest.fixture
def statements(ctx: Flask) -> Iterator[list[str]]:
    """The SQL statements this app sends from now on, and ``END`` where a
    transaction ended (a commit or a rollback)."""
    sent: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        sent.append(statement)

    def ended(_conn: Any) -> None:
        sent.append(END)

    hooks = (("before_cursor_execute", record), ("commit", ended), ("rollback", ended))
    for name, hook in hooks:
        event.listen(db.engine, name, hook)
    yield sent
    for name, hook in hooks:
        event.remove(db.engine, name, hook)


def reads_of(sent: list[str], table: str) -> int:
    """The reads of ``table``'s rows; on PostgreSQL a write also takes its event's row
    ``FOR KEY SHARE`` (its id only: the lock a delete waits on, issue 26), which is no read."""
    return sum(1 for s in sent if s.lstrip().upper().startswith("SELECT") and f"FROM {table}" in s
               and "FOR KEY SHARE" not in s.upper())


def test_the_tournament_let_go_by_one_service_is_not_read_again_by_the_next(
        statements: list[str], make_tournament: Callable[..., int]) -> None:
    tid = make_tournament(name="Held")
    db.session.remove()
    statements.clear()
    get_tournament(tid)       # a service checks that the event exists and lets it go
    gc.collect()
    assert get_tournament(tid).name == "Held"
    assert reads_of(statements, "tournament") == 1


def test_a_held_row_is_read_again_after_the_transaction_ends(
        statements: list[str], make_tournament: Callable[..., int]) -> None:
    tid = make_tournament(name="Before")
    db.session.remove()
    statements.clear()
    assert get_tournament(tid).name == "Before"
    with db.engine.begin() as other:     # another process renames it and commits
        other.execute(update(Tournament).where(Tournament.id == tid).values(
            name="After", version=Tournament.version + 1))
    db.session.commit()                   # this request's next transaction
    assert get_tournament(tid).name == "After"
    assert reads_of(statements, "tournament") == 2


def test_a_late_entry_is_one_transaction_reading_its_tournament_and_settings_once(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int],
        statements: list[str]) -> None:
    tid = make_tournament()
    assert client.post(f"/api/tournaments/{tid}/money/settings", headers=auth, json={
        "buy_in": "100", "starting_stack": 20_000}).status_code == 200
    for i in range(8):
        assert client.post(f"/api/tournaments/{tid}/seating/players", headers=auth,
                           json={"name": f"Player {i}", "chips": 20_000}).status_code == 201
    assert client.post(f"/api/tournaments/{tid}/seating/draw", headers=auth).status_code == 200
    statements.clear()
    answer = client.post(f"/api/tournaments/{tid}/seating/players", headers=auth,
                         json={"name": "Late Entry", "chips": 20_000})
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["seat"] is not None
    transactions: list[list[str]] = [[]]
    for statement in statements:
        if statement == END:
            transactions.append([])
        else:
            transactions[-1].append(statement)
    # The seat and the buy-in are written in one transaction (they were two, and
    # a payment that failed took the seat back with a third); before, they read
    # the tournament 4 times and the money settings 3 times.
    writes = [t for t in transactions if any(s.startswith("INSERT INTO") for s in t)]
    assert len(writes) == 1
    assert any(s.startswith("INSERT INTO seat ") for s in writes[0])
    assert any(s.startswith("INSERT INTO payment ") for s in writes[0])
    for transaction in transactions:
        assert reads_of(transaction, "tournament") <= 1, transaction
        assert reads_of(transaction, "money_settings") <= 1, transaction
        assert reads_of(transaction, "seating_settings") <= 1, transaction
