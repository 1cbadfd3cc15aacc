"""The player list's CSV file: its export and its import, inverses for the same file.

The records and their totals are the player list's (``services.players``).
"""

from __future__ import annotations

import codecs
import csv
import io
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any, TypeVar

from flask_babel import gettext as _
from sqlalchemy import Table, bindparam, delete, insert, select, text, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from director.db import db, driver_rows, driver_sql, write_lock
from director.models.people import CSV_FIELDS, FORMULA, Person, PersonWord, csv_cells
from director.services import Invalid, amounts, people, uow
from director.services.players import CONFLICT, FIELDS, Totals, all_totals, clean_record

T = TypeVar("T")

MAX_ROWS = 50_000       # lines in one imported file (the 20,000-player file fits)

# The export and the import are inverses for the same file (issue 26):
#
# * The formula guard: a cell a spreadsheet would run (it starts with = + - @,
#   possibly after quotes) is written with a quote in front, and the import
#   takes exactly that one quote off (:func:`csv_guard`, :func:`csv_unguard`),
#   so "+46 70 123 45 67" and "=SUM(A1)" come back as they were.
# * Which record a line is: the record whose number is the line's ``id`` and
#   whose name is the line's name; else the record of that name (names are
#   unique on the list, case and spaces aside); else a new record, which keeps
#   the line's ``id`` when no record has it (an export read into an empty list
#   exports the same file again).  A record found is updated from the line's
#   non-empty cells; its name stays as it is written on the list.  The totals
#   columns are computed from the events and not read.
# * The same line twice is one player; two different lines of one name are
#   refused, naming both lines.
# * The file: UTF-8 (with or without the byte-order mark Excel writes), or
#   UTF-16 or UTF-32 with its byte-order mark (Excel's "Unicode text"); any
#   other bytes are refused naming the line ("save the file as CSV UTF-8"):
#   guessing a Windows code page would turn some names into mojibake.  The
#   columns are separated by commas, semicolons (Excel in Swedish or
#   Indonesian) or tabs: the header line decides.
# * All or nothing, without stopping the room: every line is checked first
#   (nothing is written while a line is bad); then the records are written in
#   batches of ``BATCH_ROWS``, each its own short transaction, with a pause
#   between them in which the tablets' writes go in (a 5,000-line import held
#   SQLite's write lock for its whole 2-4 s).  If a batch fails (someone
#   added the same name at the desk meanwhile), what the earlier batches
#   wrote is taken back and the file is refused.

EXPORT_COLUMNS = ("id", *FIELDS, "events", "entries", "rebuys", "add_ons", "best_place", "wins",
                  "currency", "paid", "won", "bounties")
IMPORT_MAX_BYTES = 16 * 1024 * 1024   # the import's body limit: 50,000 players of 300 bytes
BATCH_ROWS = 250     # records (with their search words) written per transaction by an import
BATCH_PAUSE = 0.005                   # seconds between two batches, for the other writers
PERSON: Table = Person.__table__  # type: ignore[assignment]
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"),
         (codecs.BOM_UTF8, "utf-8-sig"))


def csv_unguard(cell: str) -> str:
    """A cell as imported: the quote ``csv_guard`` put in front taken off, only there.

    >>> csv_unguard("'+46 70 123"), csv_unguard("''=x"), csv_unguard("'Ann")
    ('+46 70 123', "'=x", "'Ann")
    """
    return cell[1:] if cell[:1] == "'" and FORMULA.match(cell, 1) else cell


def _amounts(bucket: Mapping[str, int], major: Callable[[int, str], str] = amounts.major,
             ) -> tuple[str, str]:
    """(currency, amount): "EUR", "300.00"; several currencies: "EUR SEK", "300.00 EUR; 50 SEK"."""
    if len(bucket) == 1:                 # one currency: most records (the quick way)
        ((currency, amount),) = bucket.items()
        return currency, major(amount, currency)
    used = sorted(c for c, amount in bucket.items() if amount) or sorted(bucket)[:1]
    if len(used) <= 1:
        currency = used[0] if used else ""
        return currency, major(bucket.get(currency, 0), currency or "EUR")
    return " ".join(used), "; ".join(f"{major(bucket[c], c)} {c}" for c in used)


def _totals_cells(t: Totals, major: Callable[[int, str], str] = amounts.major) -> tuple[Any, ...]:
    """The totals columns of one record's line (``major``: how an amount is written)."""
    currency, paid = _amounts(t.paid, major)
    return (t.events, t.entries, t.rebuys, t.add_ons, t.best or "", t.wins, currency, paid,
            _amounts(t.won, major)[1], _amounts(t.bounties, major)[1])


def export_csv() -> str:
    """Every record with its totals (the import reads the same file back: see above)."""
    return "".join(export_csv_chunks())


CSV_CHUNK_CHARS = 64 * 1024      # the export is sent in pieces of about this size
EXPORT_READ_ROWS = 2000          # records the export reads at a time


def export_csv_chunks() -> Iterator[str]:
    """``export_csv`` in pieces of about 64 KB (the download streams them).

    The totals are worked out first, once per event (``all_totals``): the text of
    the totals cells for each record who played, one for all the others.  The
    records are then read a page at a time, by name (``EXPORT_READ_ROWS``, each page
    after the last name of the one before: no cursor is held open between two
    pieces, which PostgreSQL closes when the request's transaction ends), in the
    driver's own SQL (no ORM, no statement compiled).  Each record's own cells are
    stored with it, as the export writes them (``Person.csv_cells``, made when it is
    written): a line is its id, those cells and its totals (writing 19,200 records'
    cells on each export was half its time)."""
    major = lru_cache(maxsize=256)(amounts.major)     # most amounts are the same few
    tails = {person_id: _line_end(_totals_cells(t, major))
             for person_id, t in all_totals().items()}
    never = _line_end(_totals_cells(Totals(), major))
    out = io.StringIO()
    csv.writer(out).writerow(EXPORT_COLUMNS)
    text = out.getvalue()
    first, after = (driver_sql(db.engine.dialect, sql) for sql in (
        "SELECT id, csv_cells, key FROM person ORDER BY key LIMIT ?",
        "SELECT id, csv_cells, key FROM person WHERE key > ? ORDER BY key LIMIT ?"))
    page: list[Any] = []
    while not page or len(page) == EXPORT_READ_ROWS:
        page = driver_rows(db.session.connection().exec_driver_sql(
            *((after, (page[-1][2], EXPORT_READ_ROWS)) if page else (first, (EXPORT_READ_ROWS,)))))
        if any(cells is None for _id, cells, _key in page):
            unmade = _cells_of([person_id for person_id, cells, _key in page if cells is None])
            page = [(pid, unmade[pid] if cells is None else cells, key)
                    for pid, cells, key in page]
        text += "".join([f"{pid},{cells},{tails.get(pid, never)}" for pid, cells, _key in page])
        while len(text) > CSV_CHUNK_CHARS:       # pieces need not end with a line
            yield text[:CSV_CHUNK_CHARS]
            text = text[CSV_CHUNK_CHARS:]
        if not page:
            break
    yield text


def _line_end(cells: tuple[Any, ...]) -> str:
    """The totals cells as the end of a CSV line."""
    out = io.StringIO()
    csv.writer(out).writerow(cells)
    return out.getvalue()


def _cells_of(person_ids: list[int]) -> dict[int, str]:
    """The CSV cells of records whose stored cells are not made (none after migration
    0012: a safeguard), made from the records."""
    if not person_ids:
        return {}
    return {row.id: csv_cells(row._mapping) for row in db.session.connection().execute(
        select(PERSON.c.id, *(PERSON.c[name] for name in CSV_FIELDS))
        .where(PERSON.c.id.in_(person_ids)))}


@dataclass
class Imported:
    created: int = 0
    updated: int = 0
    unchanged: int = 0


def _refuse_line(line: int, column: str | None, message: str) -> Invalid:
    if column is None:
        return Invalid({"file": _("Line %(line)s: %(message)s", line=line, message=message)})
    return Invalid({"file": _("Line %(line)s, column “%(column)s”: %(message)s", line=line,
                              column=column, message=message)})


def _decode(data: bytes) -> str:
    """The file's text (see above), or ``Invalid`` naming the line that is not text."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(encoding).removeprefix("\ufeff")
            except UnicodeDecodeError:
                raise _refuse_line(1, None, _("this is not %(encoding)s text (save the file "
                                              "as CSV UTF-8)", encoding=encoding.upper()
                                              .removesuffix("-SIG"))) from None
    if data[:200].count(b"\x00") * 3 > len(data[:200]):     # every other byte: UTF-16
        raise _refuse_line(1, None, _("this is UTF-16 text without its byte-order mark "
                                      "(save the file as CSV UTF-8)"))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise _refuse_line(line, None, _("this is not UTF-8 text (save the file as "
                                         "CSV UTF-8)")) from None


def _delimiter(text: str) -> str:
    """Comma, semicolon or tab: the one that splits the header line into a “name”
    column (and the most columns); a comma if none does."""
    header = text.split("\n", 1)[0]
    best, most = ",", 0
    for delimiter in (",", ";", "\t"):
        cells = [c.strip().lower() for c in next(csv.reader([header], delimiter=delimiter), [])]
        if "name" in cells and len(cells) > most:
            best, most = delimiter, len(cells)
    return best


def _read_rows(data: bytes | str) -> list[tuple[int, dict[str, str]]]:
    """The file's rows as {column: text} with their line numbers, or ``Invalid`` naming the
    line (and the column) of the first problem."""
    text = _decode(data) if isinstance(data, bytes) else data.removeprefix("\ufeff")
    if "\x00" in text:
        raise _refuse_line(text[:text.index("\x00")].count("\n") + 1, None,
                           _("this text contains a forbidden character"))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise _refuse_line(1, None, str(exc)) from None
    if not header or not any(cell.strip() for cell in header):
        raise Invalid({"file": _("The file is empty: the first line names the columns "
                                 "(name, nickname, email, phone, note)")})
    columns = [cell.strip().lower() for cell in header]
    if "name" not in columns:
        raise _refuse_line(1, None, _("the header names no “name” column (the columns: "
                                      "name, nickname, email, phone, note)"))
    seen = [c for c in columns if c]
    if len(seen) != len(set(seen)):
        double = next(c for c in seen if seen.count(c) > 1)
        raise _refuse_line(1, double, _("this column is named twice"))
    wanted = [(i, c) for i, c in enumerate(columns) if c in ("id", *FIELDS)]
    rows = []
    try:
        for cells in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            if len(cells) > len(columns):
                raise _refuse_line(line, None, _("%(found)s values, but the header names "
                                                 "%(columns)s columns", found=len(cells),
                                                 columns=len(columns)))
            rows.append((line, {c: csv_unguard(cells[i]) for i, c in wanted if i < len(cells)}))
            if len(rows) > MAX_ROWS:
                raise _refuse_line(line, None, _("a file holds at most %(max)s players",
                                                 max=MAX_ROWS))
    except csv.Error as exc:
        raise _refuse_line(reader.line_num, None, str(exc)) from None
    return rows


@dataclass
class _Plan:
    """What an import writes, all checked: new records (with the file's id when it is
    free, else without), and (id, new values, old values) of the records it changes."""

    with_id: list[dict[str, Any]] = field(default_factory=list)
    without_id: list[dict[str, Any]] = field(default_factory=list)
    changed: list[tuple[int, dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    unchanged: int = 0


def _file_id(line: int, text: str | None) -> int | None:
    text = (text or "").strip()
    if not text:
        return None
    if not text.isdigit() or len(text) > 18 or int(text) < 1:
        raise _refuse_line(line, "id", _("Give a whole number"))
    return int(text)


def _plan(rows: list[tuple[int, dict[str, str]]]) -> _Plan:
    """Check every line and match it to its record (see above); writes nothing."""
    stored = {row.id: row for row in db.session.execute(
        select(Person.id, Person.key, *[getattr(Person, n) for n in FIELDS[1:]]))}
    by_key = {row.key: row for row in stored.values()}
    plan = _Plan()
    lines_of: dict[str, tuple[int, dict[str, Any], int | None]] = {}
    taken: set[int] = set()
    for line, row in rows:
        given = {"name": row.get("name"),
                 **{name: row[name] for name in FIELDS[1:] if row.get(name, "").strip()}}
        try:
            values = clean_record(given, partial=True)
        except Invalid as exc:
            column, message = next(iter(exc.errors.items()))
            raise _refuse_line(line, column, message) from None
        file_id = _file_id(line, row.get("id"))
        key = people.key_of(values["name"])
        if key in lines_of:
            other, earlier, earlier_id = lines_of[key]
            if (earlier, earlier_id) == (values, file_id):
                continue                # the same line twice: one player
            raise _refuse_line(line, "name", _("%(name)s is already on line %(other)s",
                                               name=values["name"], other=other))
        lines_of[key] = (line, values, file_id)
        record = stored.get(file_id) if file_id is not None else None
        if record is None or record.key != key:
            record = by_key.get(key)
        if record is None:
            new = {"key": key, **{n: values.get(n) for n in FIELDS}}
            if file_id is not None and file_id not in stored and file_id not in taken:
                taken.add(file_id)
                plan.with_id.append({"id": file_id, **new})
            else:
                plan.without_id.append(new)
            continue
        changes = {n: v for n, v in values.items() if n != "name" and getattr(record, n) != v}
        if changes:
            plan.changed.append((record.id, changes, {n: getattr(record, n) for n in changes}))
        else:
            plan.unchanged += 1
    return plan


def _batches(items: list[T]) -> Iterable[list[T]]:
    for start in range(0, len(items), BATCH_ROWS):
        yield items[start:start + BATCH_ROWS]


def _between_batches() -> None:
    """The pause after each batch's commit, in which the other writers go in."""
    time.sleep(BATCH_PAUSE)


def _write_batch(write: Callable[[], object]) -> None:
    """One batch, its own short transaction: a connection first, then this process's
    write lock (``db.write_lock``: the tablets' grouped writes queue on it), then the
    commit; then the pause."""
    db.session.connection()
    with write_lock:
        write()
        db.session.commit()
    _between_batches()


Words = dict[tuple[str, str | None], dict[str, bool]]


def _insert(rows: list[dict[str, Any]], words: Words) -> None:
    """New records with the file's ids, and their words (``people.write_words``)."""
    db.session.execute(insert(PERSON), rows)
    people.write_words([(row["id"], row["name"], row["nickname"]) for row in rows],
                       replace=False, known=words)


def _insert_returning(rows: list[dict[str, Any]], ids: list[int], words: Words) -> None:
    """New records numbered by the database (``ids``: theirs), and their words."""
    written = db.session.execute(insert(PERSON).returning(
        PERSON.c.id, PERSON.c.name, PERSON.c.nickname), rows).all()
    people.write_words([tuple(row) for row in written], replace=False, known=words)
    ids.extend(row[0] for row in written)


def _set_values(changes: list[tuple[int, dict[str, Any]]]) -> None:
    """Records changed, with their CSV cells made again, and the words of those whose
    nickname changed."""
    for person_id, values in changes:
        db.session.execute(update(PERSON).where(PERSON.c.id == person_id).values(values))
    if changes:
        db.session.execute(
            update(PERSON).where(PERSON.c.id == bindparam("person_id"))
            .values(csv_cells=bindparam("cells")),
            [{"person_id": person_id, "cells": cells}
             for person_id, cells in _cells_of([person_id for person_id, _ in changes]).items()])
    renamed = [person_id for person_id, values in changes if "nickname" in values]
    if renamed:
        people.write_words([tuple(row) for row in db.session.execute(select(
            PERSON.c.id, PERSON.c.name, PERSON.c.nickname).where(PERSON.c.id.in_(renamed)))])


def _delete(ids: list[int]) -> None:
    db.session.execute(delete(PersonWord).where(PersonWord.person_id.in_(ids)))
    db.session.execute(delete(PERSON).where(PERSON.c.id.in_(ids)))


def _write(plan: _Plan) -> None:
    """Write a checked import in batches; if one fails, take back what the earlier ones
    wrote (only what they committed) and refuse the file (``CONFLICT``)."""
    created: list[int] = []
    changed: list[tuple[int, dict[str, Any], dict[str, Any]]] = []
    words = {(row["name"], row["nickname"]): people.words_of(row["name"], row["nickname"])
             for row in plan.with_id + plan.without_id}      # outside the write lock
    try:
        for rows in _batches(plan.with_id):
            _write_batch(partial(_insert, rows, words))
            created.extend(row["id"] for row in rows)
        if plan.with_id and db.session.get_bind().dialect.name == "postgresql":
            _write_batch(partial(db.session.execute, text(    # the next id after the file's
                "SELECT setval(pg_get_serial_sequence('person', 'id'), "
                "(SELECT max(id) FROM person))")))
        for rows in _batches(plan.without_id):
            ids: list[int] = []
            _write_batch(partial(_insert_returning, rows, ids, words))
            created.extend(ids)
        for batch in _batches(plan.changed):
            _write_batch(partial(_set_values, [(pid, new) for pid, new, _old in batch]))
            changed.extend(batch)
    except (IntegrityError, StaleDataError, OperationalError):
        db.session.rollback()
        _take_back(created, changed)
        raise Invalid({"file": _(CONFLICT["name"])}) from None


def _take_back(created: list[int], changed: list[tuple[int, dict[str, Any], dict[str, Any]]]
               ) -> None:
    """Undo the batches an import committed before one failed (in batches too)."""
    for ids in _batches(created):
        _write_batch(partial(_delete, ids))
    for batch in _batches(changed):
        _write_batch(partial(_set_values, [(pid, old) for pid, _new, old in batch]))


def import_csv(data: bytes | str) -> Imported:
    """Add the file's players to the list and update the records it names (see above):
    every line checked first, then written in batches; one bad cell changes nothing."""
    plan = _plan(_read_rows(data))
    db.session.rollback()          # end the reading transaction before the batches
    _write(plan)
    done = Imported(created=len(plan.with_id) + len(plan.without_id),
                    updated=len(plan.changed), unchanged=plan.unchanged)
    # The batches are committed, each its own transaction: the line is told now.
    uow.log("players imported", None, created=done.created, updated=done.updated)
    return done
