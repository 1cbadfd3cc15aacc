"""Leagues: a name, a formula (``director.tournament.league``) and events, and the
players ranked over them (:func:`league_view`).

A player is his record on the player list (``services.players``); an entry
without one (made before the list existed) counts under its name.  Saving a
league is one unit of work, logged (``uow.log``); bad input raises ``Invalid``
naming the field and changes nothing.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, select

from director.db import db
from director.i18n import N_
from director.models.people import LEAGUE_NAME_MAX, League, Person
from director.models.seating import Player
from director.models.tournament import Tournament
from director.services import Invalid, NotFound, all_or_nothing, once, page_of, people, uow
from director.services import money as money_service
from director.tournament.league import Finish, Formula, LeagueEvent, Standing, standings

CONFLICT = {"name": N_("Someone else changed the leagues at the same moment: reload the page "
                       "and try again")}
unit_of_work = all_or_nothing(CONFLICT)

FORMULAS = {
    Formula.LINEAR: N_("Participation + place: entrants − place + 1"),
    Formula.SQUARE_ROOT: N_("Square root: 10 × √(entrants ÷ place)"),
    Formula.TOP_EIGHT: N_("Fixed table: 10, 8, 6, 5, 4, 3, 2, 1"),
}
MAX_EVENTS = 200        # events in one league


def formula_labels() -> dict[str, str]:
    return {formula.value: _(label) for formula, label in FORMULAS.items()}


def _clean_league(data: Mapping[str, Any]) -> tuple[str, str, list[int]]:
    errors: dict[str, str] = {}
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        errors["name"] = _("The league needs a name")
    elif len(" ".join(name.split())) > LEAGUE_NAME_MAX:
        errors["name"] = _("Use at most %(max)s characters", max=LEAGUE_NAME_MAX)
    formula = data.get("formula")
    if formula not in {f.value for f in Formula}:
        errors["formula"] = _("Choose one of: %(choices)s",
                              choices=", ".join(f.value for f in Formula))
    raw = data.get("tournament_ids")
    ids: list[int] = []
    if not isinstance(raw, list) or len(raw) > MAX_EVENTS:
        errors["tournament_ids"] = _("Give a list of at most %(max)s events", max=MAX_EVENTS)
    else:
        for value in raw:
            if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) < 19:
                value = int(value.strip())
            if isinstance(value, bool) or not isinstance(value, int) \
                    or not 0 < value < 2**63 or db.session.get(Tournament, value) is None:
                errors["tournament_ids"] = _("There is no tournament %(id)s", id=str(value)[:20])
                break
            if value not in ids:
                ids.append(value)
        if not ids and "tournament_ids" not in errors:
            errors["tournament_ids"] = _("Pick at least one event")
    if errors:
        raise Invalid(errors)
    return " ".join(str(name).split()), str(formula), ids


@unit_of_work
def save_league(league_id: int | None, data: Mapping[str, Any],
                idempotency_key: str | None = None) -> League:
    """Create a league (``league_id`` None) or change its name, formula and events.  A new
    league keeps its request's ``idempotency_key`` (:func:`create_league`)."""
    name, formula, ids = _clean_league(data)
    league = League() if league_id is None else get_league(league_id)
    league.name, league.formula, league.tournament_ids = name, formula, ids
    if league_id is None:
        db.session.add(league)
        db.session.flush()
        once.remember_made(league, idempotency_key)
    uow.log("league saved", None, name=name, formula={"msgid": FORMULAS[Formula(formula)]},
            details={"league_id": league.id, "tournament_ids": ids})
    uow.commit()
    return league


def create_league(data: Mapping[str, Any], key: str | None) -> League:
    """A new league, once for its request's key (``once.made_once``: a double click on
    *Create*, a retry, answers the league the first made)."""
    league, _again = once.made_once(League, key, lambda key: save_league(None, data, key))
    return league


def get_league(league_id: int) -> League:
    league = db.session.get(League, league_id) if 0 < league_id < 2**63 else None
    if league is None:
        raise NotFound(_("There is no league %(id)s", id=league_id))
    return league


def list_leagues() -> list[League]:
    return list(db.session.scalars(select(League).order_by(League.name, League.id)))


@dataclass
class LeagueLine:
    rank: int
    name: str
    person_id: int | None
    points: float
    events: int
    best: int
    by_event: tuple[float | None, ...]


def _finishes(tournament: Tournament, names: dict[Hashable, str]) -> LeagueEvent:
    """Who finished where in one event, one finish per person (his best entry).

    In a finished event, the people still in at the end (a deal that ended it)
    share the top places; in an event still running they have no finish yet.
    The places are the stored ones (``money.places_of``): no prize is worked out.
    ``names``: each entry without a record gets its name there (the first one seen).
    """
    entries = money_service.places_of(tournament.id)
    best: dict[Hashable, tuple[int, int | None]] = {}
    unplaced: list[Hashable] = []
    for _pid, person_id, name, place, place_last, active in entries:
        key = ("person", person_id) if person_id is not None else ("name", people.key_of(name))
        if person_id is None:
            names.setdefault(key, name)
        if place is None:
            if active and key not in unplaced:
                unplaced.append(key)
            continue
        if key not in best or place < best[key][0]:
            best[key] = (place, place_last)
    finishes = []
    if tournament.status == "finished" and unplaced:
        for key in unplaced:
            best.pop(key, None)
            finishes.append(Finish(key, 1, len(unplaced) if len(unplaced) > 1 else None))
    finishes.extend(Finish(key, place, last) for key, (place, last) in best.items())
    return LeagueEvent(entrants=len(entries), finishes=tuple(finishes))


def _still_playing(tournament: Tournament) -> bool:
    """Whether the event has players in it without a place yet (its points may change)."""
    if tournament.status in ("finished", "cancelled"):
        return False
    return bool(db.session.scalar(select(func.count(Player.id)).where(
        Player.tournament_id == tournament.id, Player.status == "active",
        Player.place.is_(None))))


_RANKINGS: OrderedDict[Hashable, tuple[list[Standing], dict[Hashable, str]]] = OrderedDict()
_RANKINGS_KEPT = 32
_rankings_lock = threading.Lock()


def _ranking(formula: str, events: list[Tournament]) -> tuple[list[Standing], dict[Hashable, str]]:
    """The league's ranking and the names of its entries without a record, worked out
    again only when a place in one of its events changed (``money.places_signatures``:
    one short query) -- a league of big events ranks thousands of entrants."""
    signatures = money_service.places_signatures([t.id for t in events])
    key = (formula, tuple((t.id, t.status, signatures.get(t.id)) for t in events))
    with _rankings_lock:
        kept = _RANKINGS.get(key)
        if kept is not None:
            _RANKINGS.move_to_end(key)
            return kept
    names: dict[Hashable, str] = {}
    worked_out = (standings(formula, [_finishes(t, names) for t in events]), names)
    with _rankings_lock:
        _RANKINGS[key] = worked_out
        while len(_RANKINGS) > _RANKINGS_KEPT:
            _RANKINGS.popitem(last=False)
    return worked_out


def league_view(league_id: int, page: int = 1, per_page: int | None = None) -> dict[str, Any]:
    """The league: its events (those still there) and the ranking by its formula.

    ``lines``: the ranking's page ``page`` of ``per_page`` lines (None: all of them;
    a page past the last is the last), their names read for those lines only;
    ``page``, ``pages`` and ``total`` (how many lines the ranking has)."""
    league = get_league(league_id)
    events = [t for t in (db.session.get(Tournament, tid) for tid in league.tournament_ids)
              if t is not None]
    table, names = _ranking(league.formula, events)
    names = dict(names)
    pages, page = page_of(len(table), per_page, page) if per_page else (1, 1)
    shown = table[(page - 1) * per_page:page * per_page] if per_page else table
    person_ids = [key[1] for s in shown for key in [s.who] if isinstance(key, tuple)
                  and key[0] == "person"]
    if person_ids:
        names.update((("person", pid), name) for pid, name in db.session.execute(
            select(Person.id, Person.name).where(Person.id.in_(person_ids))))
    lines = [LeagueLine(s.rank, names.get(s.who, str(s.who)),
                        s.who[1] if isinstance(s.who, tuple) and s.who[0] == "person" else None,
                        s.points, s.events, s.best, s.by_event) for s in shown]
    return {"league": league, "events": events, "lines": lines, "total": len(table),
            "page": page, "pages": pages,
            "unfinished": [t for t in events if _still_playing(t)],
            "deleted": [tid for tid in league.tournament_ids   # ids are never given again
                        if tid not in {t.id for t in events}]}


def events_to_pick() -> list[Tournament]:
    """Every event, archived ones too, newest first (a league's season looks back)."""
    return list(db.session.scalars(select(Tournament).order_by(
        Tournament.created_at.desc(), Tournament.id.desc())))
