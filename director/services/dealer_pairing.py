"""Pairing a tablet with a table: a short code from the director's page, a token
for the tablet.

The director's page shows each table's pairing code (and a QR code of the
table's dealer URL).  A tablet that enters the code gets a random token for
that table only (kept in its session cookie, or sent as ``Bearer``); the
token is stored hashed.  Revoking ends every tablet of the table and draws a
new code, so the old one no longer works either.

A tablet names its table as well as the code (issue 26): wrong codes count
against the tables of that number (``TABLE_SCOPE`` in ``guess_limits``), and
after ``PAIRING_TABLE_MAX_FAILURES`` a table's pairing is locked until the
director resets it (``unlock``: a new code too), whatever valid codes of other
tables are typed meanwhile.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
import threading
import time
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update

from director.db import db, utcnow
from director.i18n import gettext as _
from director.models.hands import DealerDevice, TablePairing
from director.models.seating import SeatingTable
from director.services import Invalid, NotFound, app_key, guess_limits, uow

CODE_DIGITS = 6
TABLE_SCOPE = "pairing-table"   # guess_limits' scope of a table's wrong codes (key: its id)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _new_code() -> str:
    while True:
        code = "".join(secrets.choice("0123456789") for _ in range(CODE_DIGITS))
        if db.session.scalar(select(TablePairing).where(TablePairing.code == code)) is None:
            return code


def pairing_codes(tournament_id: int, table_ids: Collection[int]) -> dict[int, dict[str, Any]]:
    """``{table_id: {"number", "code", "devices", "locked"}}`` for the tables ``table_ids``
    that are in play (codes made as needed); ``locked``: None, or when and after how many
    wrong codes the table's pairing was locked."""
    tables = db.session.scalars(select(SeatingTable).where(
        SeatingTable.tournament_id == tournament_id, SeatingTable.id.in_(list(table_ids)))
        .order_by(SeatingTable.number)).all()
    out: dict[int, dict[str, Any]] = {}
    changed = False
    ids = [table.id for table in tables]
    # Two queries for the room, not two a table (120 tables: 242 statements).
    pairings = {row.table_id: row for row in db.session.scalars(select(TablePairing).where(
        TablePairing.table_id.in_(ids)))} if ids else {}
    devices = dict(db.session.execute(select(DealerDevice.table_id, func.count(DealerDevice.id))
                                      .where(DealerDevice.table_id.in_(ids),
                                             DealerDevice.revoked_at.is_(None))
                                      .group_by(DealerDevice.table_id)).all()) if ids else {}
    for table in tables:
        row = pairings.get(table.id)
        if row is None or row.tournament_id != tournament_id:
            if row is not None:
                db.session.delete(row)
                db.session.flush()
            row = TablePairing(table_id=table.id, tournament_id=tournament_id, code=_new_code())
            db.session.add(row)
            db.session.flush()
            changed = True
        out[table.id] = {"table_id": table.id, "number": table.number, "code": row.code,
                         "devices": int(devices.get(table.id, 0)), "locked": None}
    if changed:
        db.session.commit()
    for key, lock in guess_limits.locks(TABLE_SCOPE, [str(t) for t in out]).items():
        out[int(key)]["locked"] = {"at": lock.locked_at, "failures": lock.failures}
    return out


def room_tables(tournament_id: int) -> list[tuple[int, int]]:
    """``(table id, number)`` of every table in play, by number: what the tablets page
    pages through (a page's codes are ``pairing_codes`` of its ids)."""
    return [(int(i), int(n)) for i, n in db.session.execute(
        select(SeatingTable.id, SeatingTable.number).where(
            SeatingTable.tournament_id == tournament_id).order_by(SeatingTable.number))]


def locked_tables(tables: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """The tables of ``tables`` (``room_tables``) whose pairing is locked, by number:
    ``{"table_id", "number", "locked": {"at", "failures"}}`` (the director is told of
    every one of them, whichever page of tables he looks at)."""
    found = guess_limits.locks(TABLE_SCOPE, [str(i) for i, _n in tables])
    return [{"table_id": i, "number": n,
             "locked": {"at": found[str(i)].locked_at, "failures": found[str(i)].failures}}
            for i, n in tables if str(i) in found]


@dataclass(frozen=True)
class TablesPage:
    """A page of the room's pairing codes: ``tables`` (``pairing_codes`` of those shown,
    by number), every locked table of the room (``locked_tables``), how many tables are
    in play (``total``) and the place of the first one shown (``start``, 0 first)."""
    tables: list[dict[str, Any]]
    locked: list[dict[str, Any]]
    total: int
    start: int


def tables_page(tournament_id: int, start: int, size: int, number: int | None = None, *,
                keep_within: bool = False) -> TablesPage:
    """The ``size`` tables from the ``start``-th (by number), or the table numbered
    ``number`` (none when it is not in play): the room's 120 tables' codes are read a page
    at a time, every locked one named whatever the page.  Past the last table there are
    none, or (``keep_within``: a person's stale link) the last page's."""
    room = room_tables(tournament_id)
    start = max(0, start)
    if number is not None:
        shown, start = [t for t in room if t[1] == number], 0
    else:
        if keep_within and start >= len(room):
            start = max(0, len(room) - size)
        shown = room[start:start + size]
    codes = pairing_codes(tournament_id, [i for i, _n in shown]) if shown else {}
    return TablesPage(tables=list(codes.values()), locked=locked_tables(room),
                      total=len(room), start=start)


def tables_numbered(number: Any) -> list[int]:
    """The ids of the tables numbered ``number`` that have a pairing code (each event
    has its table 1): the tables a guess naming that number counts against."""
    if not isinstance(number, int) or isinstance(number, bool) or not 0 < number < 2**31:
        return []
    return list(db.session.scalars(select(TablePairing.table_id).join(
        SeatingTable, SeatingTable.id == TablePairing.table_id).where(
        SeatingTable.number == number).order_by(TablePairing.table_id)))


def pair(code: Any, tables: list[int]) -> tuple[int, str]:
    """The tablet entered ``code`` for one of ``tables`` (the ids of the tables of the
    number it named, ``tables_numbered``, but those locked): a new token for that table.
    Returns (table_id, token).  A valid code of another table is a wrong code here."""
    if not isinstance(code, str | int) or isinstance(code, bool):
        raise Invalid({"code": _("Enter the pairing code shown on the director's page")})
    text = str(code).strip().replace(" ", "")
    row = db.session.scalar(select(TablePairing).where(TablePairing.code == text)) if text else None
    if row is None or row.table_id not in tables:
        raise Invalid({"code": _("That pairing code is not valid: check it on the director's page")})
    token = secrets.token_urlsafe(24)
    db.session.add(DealerDevice(tournament_id=row.tournament_id, table_id=row.table_id,
                                token_hash=_hash(token)))
    table = db.session.get(SeatingTable, row.table_id)
    uow.log("tablet paired", row.tournament_id, table=table.number if table else row.table_id)
    uow.notify(row.tournament_id, "device pairing", {"table_id": row.table_id})
    uow.commit()
    return row.table_id, token


def unlock(table_id: int) -> str:
    """The director resets a table whose pairing was locked after wrong codes: its
    count starts again, and it gets a new code (the guessed one may have leaked).
    The tablets already paired stay paired.  Returns the new code."""
    table = _table(table_id)
    guess_limits.reset(TABLE_SCOPE, str(table_id), commit=False)
    code = _redraw(table)
    uow.log("tablet pairing reset", table.tournament_id, table=table.number)
    uow.notify(table.tournament_id, "device pairing", {"table_id": table_id})
    uow.commit()
    return code


def _table(table_id: int) -> SeatingTable:
    table = db.session.get(SeatingTable, table_id) if 0 < table_id < 2**63 else None
    if table is None:
        raise NotFound(_("There is no table %(id)s", id=table_id))
    return table


def _redraw(table: SeatingTable) -> str:
    """A new pairing code for ``table`` (not committed): the old one stops working."""
    row = db.session.get(TablePairing, table.id)
    code = _new_code()
    if row is None:
        db.session.add(TablePairing(table_id=table.id, tournament_id=table.tournament_id, code=code))
    else:
        row.code = code
    return code


# A tablet's token is checked on every write: the answer is kept for a moment.  A
# revoke forgets it at once, in this process and (through the change feed,
# ``forget_change``) in the others; DEVICE_TTL bounds it when the feed is down.
DEVICE_TTL = 2.0
_devices: dict[tuple[str, str], tuple[int | None, float]] = {}
_devices_lock = threading.Lock()


def device_table(token: str | None) -> int | None:
    """The table a dealer token is paired with, or None (unknown or revoked)."""
    if not token:
        return None
    key = (app_key(), _hash(token))
    now = time.monotonic()
    known = _devices.get(key)
    if known is not None and known[1] > now:
        table: int | None = known[0]
    else:
        found = db.session.execute(select(DealerDevice.table_id, DealerDevice.revoked_at)
                                   .where(DealerDevice.token_hash == key[1])).first()
        table = None if found is None or found[1] is not None else int(found[0])
        with _devices_lock:
            if len(_devices) > 10_000:
                _devices.clear()
            _devices[key] = (table, now + DEVICE_TTL)
    return table


def _forget_devices(table_id: int) -> None:
    with _devices_lock:
        for key in [k for k, (t, _until) in _devices.items() if t == table_id]:
            del _devices[key]


def forget_change(change: Any) -> None:
    """Another process paired or revoked a table's tablets (the change feed's "device
    pairing" change: ``uow.notify``)."""
    if change.data and "table_id" in change.data:
        _forget_devices(int(change.data["table_id"]))


def revoke(table_id: int) -> str:
    """End every tablet paired with the table and draw a new code."""
    table = _table(table_id)
    db.session.execute(update(DealerDevice).where(
        DealerDevice.table_id == table_id, DealerDevice.revoked_at.is_(None)).values(revoked_at=utcnow())
        .execution_options(synchronize_session=False))
    code = _redraw(table)
    uow.after_commit(functools.partial(_forget_devices, table_id))   # at once, in this process
    uow.log("tablets unpaired", table.tournament_id, table=table.number)
    uow.notify(table.tournament_id, "device pairing", {"table_id": table_id})   # and the others
    uow.commit()
    return code
