"""The room's player list: one record per person, kept across events.

An entry at the desk (``director.services.money``) is linked to its record
with :func:`link`, inside the desk's own unit of work: the record picked from
the desk's suggestions (``person_id``), else the record of the same person's
earlier entry in this event (a re-entry), else the record whose name is the
typed name (case and spaces aside: names are unique on the list), else a new
record.  :func:`entry_name` gives a buy-in taken by record id the record's
name, before anything is written.

The director's own changes to the list (add, edit, import) are in
``director.services.players``; this module is what the desk needs, so that
the money services do not import the history and league services above them.

A search (the desk's :func:`suggestions`, the director's list) finds a record
by the start of any word of its name or nickname, case and accents aside:
"berg", "ann b" and "anni" find "Ann Berg" (nickname "Annie"), "öb" finds
"Dan Oberg".  The words are stored with the record (``PersonWord``, written by
:func:`write_words` whenever a name or nickname is written) and the database
finds them with its index, whatever the size of the list (issue 29); the text
inside a word ("erg") finds nothing.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import ColumnElement, and_, delete, insert, select

from director.db import db
from director.models.people import NAME_MAX, Person, PersonWord
from director.models.seating import PLAYER_NAME_MAX, Player, folded, name_key
from director.services import Invalid

SUGGESTIONS = 8


def key_of(name: str) -> str:
    """The name as the list compares it: casefolded, single spaces ("ann  BERG" -> "ann berg")."""
    return name_key(" ".join(name.split()))[:NAME_MAX]


def same_name(given: Any, kept: str) -> bool:
    """Whether ``given`` (as typed: checked as an entry's name) is the name ``kept``, case
    and spacing aside; a name that is not one is no name kept."""
    try:
        return key_of(check_player_name(given)) == key_of(kept)
    except Invalid:
        return False


def search_text(text: str) -> str:
    """The text as a search compares it: casefolded, accents stripped, single spaces (a
    control character is a space: no name holds one).

    >>> search_text("  Dan  ÖBERG "), search_text("Straße"), search_text("Zoë\t")
    ('dan oberg', 'strasse', 'zoe')
    """
    plain = "".join(" " if unicodedata.category(char) == "Cc" else char
                    for char in folded(text))
    return " ".join(unicodedata.normalize("NFC", plain).split())[:NAME_MAX]


def words_of(name: str, nickname: str | None = None) -> dict[str, bool]:
    """What a search finds a record by: its name and nickname as searched
    (:func:`search_text`) from each word's start (a letter or digit after anything
    else) to the end; True for the whole name.

    >>> words_of("Ann-Marie Berg", "AB")
    {'ann-marie berg': True, 'marie berg': False, 'berg': False, 'ab': False}
    """
    words: dict[str, bool] = {}
    for whole, text in ((True, search_text(name)), (False, search_text(nickname or ""))):
        for at, char in enumerate(text):
            if at == 0 or (char.isalnum() and not text[at - 1].isalnum()):
                words[text[at:]] = words.get(text[at:], False) or (whole and at == 0)
    return words


def write_words(records: Iterable[tuple[int, str, str | None]], *, replace: bool = True,
                known: Mapping[tuple[str, str | None], dict[str, bool]] | None = None) -> None:
    """Store the words of these records (id, name, nickname) in the caller's
    transaction, in place of their words of before (``replace``); ``known``: the words
    of (name, nickname) worked out beforehand (an import, before its write lock)."""
    records = list(records)
    if replace and records:
        db.session.execute(delete(PersonWord).where(
            PersonWord.person_id.in_([person_id for person_id, _n, _k in records])))
    known = known or {}
    rows = [{"person_id": person_id, "word": word, "name_start": whole}
            for person_id, name, nickname in records
            for word, whole in (known.get((name, nickname)) or words_of(name, nickname)).items()]
    if rows:    # the table's own insert: the ORM's bulk path took twice as long
        db.session.execute(insert(PersonWord.__table__), rows)


def _after(text: str) -> str:
    """The first text after every text that starts with ``text`` (in code point order,
    which is how SQLite and PostgreSQL's "C" collation compare the words)."""
    while text:
        last = ord(text[-1]) + 1
        if last <= 0x10FFFF:
            return text[:-1] + chr(0xE000 if 0xD800 <= last < 0xE000 else last)
        text = text[:-1]
    return ""


def matching(query: str, name_start: bool | None = None) -> ColumnElement[bool] | None:
    """The words (``PersonWord``) that start with ``query`` as searched: a range of the
    words' key, in the names' starts (``name_start``), the other words, or both.  None:
    the query searches for nothing (all records)."""
    text = search_text(query)
    if not text:
        return None
    after = _after(text)
    starts = PersonWord.name_start.in_([True, False]) if name_start is None \
        else PersonWord.name_start == name_start
    return and_(starts, PersonWord.word >= text, PersonWord.word < after) if after \
        else and_(starts, PersonWord.word >= text)


# Characters that turn the direction of the text around them (embeddings, overrides and
# isolates): in a name, they would turn the projector's and the tablets' lines around it.
# The marks (U+200E, U+200F) and the joiners some scripts write with stay allowed.
TEXT_TURNING = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


SEEN = "LNPS"
"""The kinds of character a name is seen by (Unicode's letters, numbers, punctuation and
symbols): a name of marks, joiners or direction marks alone shows nothing."""


def check_player_name(name: Any) -> str:
    """An entry's name, as the desk and the seating take it: not blank, no control
    characters (nor any that turns the text around it), something seen (not marks or
    joiners alone), single spaces, its letters
    composed (NFC: "Å" typed as "A" and a ring above is the one letter, so the name is
    the same name as "Åsa" typed on another keyboard), at most ``PLAYER_NAME_MAX``
    characters."""
    if not isinstance(name, str) or not name.strip():
        raise Invalid({"name": _("The player needs a name")})
    if any(unicodedata.category(char) == "Cc" or char in TEXT_TURNING
           for char in name.replace("\t", " ")):
        raise Invalid({"name": _("The name may not contain control characters")})
    name = unicodedata.normalize("NFC", " ".join(name.split()))
    if not any(unicodedata.category(char)[0] in SEEN for char in name):
        raise Invalid({"name": _("The player needs a name")})   # marks or joiners alone
    if len(name) > PLAYER_NAME_MAX:
        raise Invalid({"name": _("The name may be at most %(max)s characters long",
                                 max=PLAYER_NAME_MAX)})
    return name


def record(person_id: Any, field: str = "person_id") -> Person:
    """The record ``person_id`` names (a number, or its digits as text), or ``Invalid``."""
    if isinstance(person_id, str) and person_id.strip().isdigit() and len(person_id.strip()) < 19:
        person_id = int(person_id.strip())
    if isinstance(person_id, bool) or not isinstance(person_id, int):
        raise Invalid({field: _("Which player? %(field)s must be a number", field=field)})
    found = db.session.get(Person, person_id) if 0 < person_id < 2**63 else None
    if found is None:
        raise Invalid({field: _("There is no player %(id)s on the player list", id=person_id)})
    return found


def by_name(name: str) -> Person | None:
    return db.session.scalars(select(Person).where(Person.key == key_of(name))).first()


def entry_name(person_id: Any, name: Any) -> Any:
    """The name a buy-in is registered under: the record's, when it is taken by record
    id (``person_id``), else the name as typed (checked by the desk)."""
    if person_id is None or person_id == "":
        return name
    return record(person_id).name


def link(player: Player, person_id: Any = None) -> Person:
    """Link a new entry to its record (creating it for a new name), in the caller's
    transaction.  ``person_id`` was checked by :func:`entry_name` already."""
    found: Person | None = None
    if person_id not in (None, ""):
        found = record(person_id)
    elif player.person_id is not None:
        found = db.session.get(Person, player.person_id)
    if found is None:       # a re-entry: the record of his earlier entry in this event
        earlier = db.session.scalar(select(Player.person_id).where(
            Player.tournament_id == player.tournament_id, Player.id != player.id,
            Player.person_id.is_not(None),
            Player.name_key == name_key(player.name)).limit(1))
        found = db.session.get(Person, earlier) if earlier is not None else by_name(player.name)
    if found is None:
        found = Person(name=check_player_name(player.name),
                       key=key_of(player.name))
        db.session.add(found)
        db.session.flush()
        write_words([(found.id, found.name, None)], replace=False)
    player.person_id = found.id
    return found


def suggestions(query: Any, limit: int = SUGGESTIONS) -> list[Person]:
    """Records with a word of the name or nickname starting with ``query`` (at least 2
    characters; see above), names that start with it first, each group in the order of
    the matching words: what the desk suggests while a name is typed.  The database
    reads the first few matching words from its index, however many there are."""
    if not isinstance(query, str) or len(search_text(query)) < 2:
        return []
    picked: list[tuple[bool, str, int]] = []
    for whole in (True, False):
        if len({person_id for _w, _t, person_id in picked}) >= limit:
            break
        picked.extend((not whole, word, person_id) for word, person_id in db.session.execute(
            select(PersonWord.word, PersonWord.person_id)
            .where(matching(query, whole))
            .order_by(PersonWord.word).limit(limit * 4)))
    persons = {p.id: p for p in db.session.scalars(
        select(Person).where(Person.id.in_({person_id for *_rest, person_id in picked})))}
    found: list[Person] = []
    for _later, _word, person_id in sorted(picked, key=lambda row: (
            row[0], row[1], persons[row[2]].key)):
        if persons[person_id] not in found:
            found.append(persons[person_id])
    return found[:limit]
