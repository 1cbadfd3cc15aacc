"""The group commit (``db.GroupCommit``): many threads' writes, each committed once
and answered only after the commit that holds it; a refused or failed write is
taken back alone."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event, text

from director.db import GroupCommit, db, driver_sql, group_commit

WRITERS = 16
WRITES_EACH = 25


@pytest.fixture
def committer(app: Flask) -> GroupCommit:
    with app.app_context():
        with db.engine.begin() as connection:
            connection.execute(text("CREATE TABLE written (n INTEGER PRIMARY KEY, by TEXT)"))
        return group_commit()


def insert_sql(committer: GroupCommit) -> str:
    """A row of ``written``, in the driver's parameter style."""
    return driver_sql(committer.engine.dialect, "INSERT INTO written (n, by) VALUES (?, ?)")


def row(committer: GroupCommit, n: int, by: str | None = None) -> Callable[[Any], int]:
    """A write of row ``n`` (by ``w<n>`` unless said), answering ``n``."""
    sql = insert_sql(committer)

    def work(cursor: Any) -> int:
        cursor.execute(sql, (n, f"w{n}" if by is None else by))
        return n
    return work


def insert(committer: GroupCommit, n: int, by: str) -> Any:
    return committer.submit(row(committer, n, by))


def stored(app: Flask) -> dict[int, str]:
    with app.app_context(), db.engine.connect() as connection:
        return dict(connection.execute(text("SELECT n, by FROM written")).all())


def test_many_threads_writes_are_each_committed_once_and_answered_after_it(
        app: Flask, committer: GroupCommit) -> None:
    answers: dict[int, Any] = {}
    seen_at_answer: dict[int, bool] = {}
    start = threading.Barrier(WRITERS)

    def writer(w: int) -> None:
        start.wait()
        for i in range(WRITES_EACH):
            n = w * WRITES_EACH + i
            answers[n] = insert(committer, n, f"writer {w}")
            with app.app_context(), db.engine.connect() as connection:   # another connection
                seen_at_answer[n] = connection.execute(
                    text("SELECT count(*) FROM written WHERE n = :n"), {"n": n}).scalar() == 1

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    everything = range(WRITERS * WRITES_EACH)
    assert answers == {n: n for n in everything}
    assert all(seen_at_answer[n] for n in everything)
    rows = stored(app)
    assert sorted(rows) == list(everything)
    assert all(rows[n] == f"writer {n // WRITES_EACH}" for n in everything)


def test_a_refused_write_is_rolled_back_alone_and_the_others_of_its_group_commit(
        app: Flask, committer: GroupCommit) -> None:
    insert(committer, 7, "first")
    start = threading.Barrier(8)
    answers: dict[str, Any] = {}

    def writer(name: str, n: int) -> None:
        start.wait()
        answers[name] = insert(committer, n, name)

    threads = [threading.Thread(target=writer, args=(f"w{i}", 7 if i == 3 else 100 + i))
               for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert answers["w3"] is None                          # the duplicate key: nothing of it
    assert {name: n for name, n in answers.items() if name != "w3"} == {
        f"w{i}": 100 + i for i in range(8) if i != 3}
    assert stored(app)[7] == "first"
    assert len(stored(app)) == 8


def test_a_write_that_fails_tells_its_own_thread_and_the_next_ones_still_commit(
        app: Flask, committer: GroupCommit) -> None:
    def broken(cursor: Any) -> None:
        raise ValueError("this write's own mistake")

    with pytest.raises(ValueError, match="own mistake"):
        committer.submit(broken)
    assert insert(committer, 1, "after") == 1
    assert stored(app) == {1: "after"}


def queued_together(committer: GroupCommit, writes: dict[str, Any]) -> dict[str, Any]:
    """Each of ``writes`` (name -> work) submitted from a thread of its own while the
    writer thread is held inside another write: they are run as one batch.  Returns
    each thread's answer (or the exception it was given)."""
    started, release = threading.Event(), threading.Event()

    def gate(cursor: Any) -> str:
        started.set()
        release.wait(10)
        return "gate"

    answers: dict[str, Any] = {}

    def writer(name: str, work: Any) -> None:
        try:
            answers[name] = committer.submit(work)
        except Exception as exc:  # noqa: BLE001 - the answer this thread was given
            answers[name] = exc

    held = threading.Thread(target=writer, args=("gate", gate))
    held.start()
    assert started.wait(10)
    threads = [threading.Thread(target=writer, args=item) for item in writes.items()]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 10
    while committer.jobs.qsize() < len(threads) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert committer.jobs.qsize() == len(threads)          # all waiting: one batch
    release.set()
    for thread in [held, *threads]:
        thread.join(30)
    assert answers.pop("gate") == "gate"
    return answers


def test_a_write_refused_half_way_in_a_batch_is_taken_back_alone(
        app: Flask, committer: GroupCommit) -> None:
    """A write that fails after writing part of itself (a refused key, a mistake of its
    own) is taken back whole, and every other write of its batch is committed once:
    no half of a write is ever committed with the others."""
    insert(committer, 7, "first")
    sql = insert_sql(committer)

    def half(cursor: Any) -> int:
        cursor.execute(sql, (500, "half"))       # written ...
        cursor.execute(sql, (7, "half"))         # ... then refused: the key is taken
        return 500

    def broken(cursor: Any) -> None:
        cursor.execute(sql, (600, "broken"))
        raise ValueError("this write's own mistake")

    writes = {"w200": row(committer, 200), "half": half,
              **{f"w{n}": row(committer, n) for n in range(201, 206)},
              "broken": broken}
    answers = queued_together(committer, writes)
    assert answers["half"] is None
    assert isinstance(answers["broken"], ValueError)
    assert {name: answers[name] for name in writes if name.startswith("w")} == {
        f"w{n}": n for n in range(200, 206)}
    assert stored(app) == {7: "first", **{n: f"w{n}" for n in range(200, 206)}}


def test_a_batch_of_good_writes_is_committed_once_each(app: Flask,
                                                        committer: GroupCommit) -> None:
    runs: dict[int, int] = {}

    def counted(n: int) -> Callable[[Any], int]:
        def work(cursor: Any) -> int:
            runs[n] = runs.get(n, 0) + 1
            return row(committer, n)(cursor)
        return work

    answers = queued_together(committer, {f"w{n}": counted(n) for n in range(10)})
    assert answers == {f"w{n}": n for n in range(10)}
    assert runs == {n: 1 for n in range(10)}       # each run once
    assert stored(app) == {n: f"w{n}" for n in range(10)}


def test_a_group_whose_connection_breaks_answers_its_writers_and_the_next_write_commits(
        app: Flask, committer: GroupCommit) -> None:
    """A connection that dies under a group (here closed by its write) fails that group
    for each of its writers; the writer thread lives on and the next write commits on
    a fresh connection."""
    def breaks(cursor: Any) -> None:
        cursor.connection.close()

    with pytest.raises(Exception):  # noqa: B017 - whatever the driver says of a closed connection
        committer.submit(breaks)
    assert insert(committer, 3, "after the break") == 3
    assert stored(app) == {3: "after the break"}


def test_one_connection_serves_the_groups_queued_back_to_back_and_none_is_held_after(
        app: Flask, committer: GroupCommit) -> None:
    """While writes are queued the writer keeps its connection from one group to the
    next (a check-out and check-in of the pool is a rollback and a turn of the
    interpreter lock a group); once nothing is queued it gives it back, so a restore
    finds no connection open."""
    checkouts: list[str] = []          # the writer's own (the pool is the app's on SQLite)
    listen = (committer.pool, "checkout",
              lambda *_: checkouts.append(threading.current_thread().name))
    event.listen(*listen)
    try:
        answers = queued_together(committer, {f"w{n}": row(committer, n) for n in range(5)})
    finally:
        event.remove(*listen)
    assert answers == {f"w{n}": n for n in range(5)}
    # the gate's group and the queued one: one connection
    assert checkouts.count("group-commit") == 1
    deadline = time.monotonic() + 5
    while committer.pool.checkedout() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert committer.pool.checkedout() == 0
