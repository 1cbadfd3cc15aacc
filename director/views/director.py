"""The director's pages: tournaments, structure editor, import/export, clock controls.

Every page needs the director (``director_required``).  The clock controls
on the tournament page post to the JSON API with the session and CSRF token.
"""

from __future__ import annotations

import json
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _

from director.i18n import number_filter
from director.local_time import event_zone_name, zone
from director.poker.games import Game
from director.schemas import Choice, Int, Schema, Str, form_body, form_fields, no_body
from director.services import Invalid, audit, event_file, read_model
from director.services import backup as backup_service
from director.services import clock as clock_service
from director.services import tournaments as tournament_service
from director.services import wizard as wizard_service
from director.tournament.structure import AMOUNT_FIELDS, Kind, entry_numbers
from director.views.auth import director_required
from director.views.bodies import idempotency_key, say_refused

bp = Blueprint("director", __name__, url_prefix="/director")

NEW_FORM = Schema({
    "name": Str(required=False, default="", max_len=1000),
    "template": Str(required=False, default="", max_len=100),
    "structure_json": Str(required=False, default="", max_len=2 * 1024 * 1024, strip=False),
})
NAME_FORM = Schema({"name": Str(required=False, max_len=1000)})
BACK_FORM = Schema({"back": Choice(required=False, default="page", choices=("page", "list"))})
DUPLICATE_FORM = Schema({"name": Str(required=False, default="", max_len=1000)})
LOG_QUERY = Schema({
    "who": Str(required=False, default="", max_len=40),
    "q": Str(required=False, default="", max_len=100),
    "kind": Str(required=False, default="", max_len=20),
    "before": Int(required=False, min=1, nullable=True),
})
LOG_KINDS = ("", *(kind.value for kind in audit.Kind), "all")   # "": every change in words

ROW_FIELDS = ("kind", "duration", "game", *AMOUNT_FIELDS, "big_blind_ante", "note")


def parse_duration(text: str) -> int | str:
    """A duration as a director types it: ``20`` (minutes), ``20:00``, ``1:30:00``, ``0:02``.

    Returns seconds, or the text itself when it is not a duration (so that the
    structure validator names the field).

    >>> parse_duration("20"), parse_duration("20:00"), parse_duration("0:02"), parse_duration("1:00:00")
    (1200, 1200, 2, 3600)
    >>> parse_duration("abc")
    'abc'
    """
    parts = text.strip().split(":")
    if not all(part.strip().isdigit() for part in parts) or len(parts) > 3:
        return text
    numbers = [int(part) for part in parts]
    if len(numbers) == 1:
        return numbers[0] * 60
    seconds = 0
    for number in numbers:
        seconds = seconds * 60 + number
    return seconds


def format_duration(seconds: int) -> str:
    """``1200`` -> ``20:00``, ``3600`` -> ``1:00:00``, ``2`` -> ``0:02``."""
    hours, rest = divmod(int(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _amount(text: str) -> int | str:
    text = text.strip().replace(",", "").replace(" ", "")
    if text == "":
        return 0
    return int(text) if text.isdigit() else text


def levels_from_form(form: Any) -> list[dict[str, Any]]:
    """The structure table as the JSON the validator takes (one list per column)."""
    columns = {name: form.getlist(name) for name in ROW_FIELDS}
    rows = len(columns["kind"])
    levels = []
    for i in range(rows):
        cell = {name: (values[i] if i < len(values) else "") for name, values in columns.items()}
        kind = cell["kind"] or Kind.LEVEL
        level: dict[str, Any] = {
            "kind": kind,
            "duration_seconds": parse_duration(cell["duration"]),
            "note": cell["note"].strip(),
        }
        if kind != Kind.BREAK:
            level["game"] = cell["game"] or None
            level["big_blind_ante"] = cell["big_blind_ante"] == "yes"
            for name in AMOUNT_FIELDS:
                level[name] = _amount(cell[name])
        levels.append(level)
    return levels


@bp.app_template_filter("duration")
def duration_filter(seconds: int | float | None) -> str:
    return "" if seconds is None else format_duration(int(seconds))


@bp.get("/")
@director_required
def tournaments() -> str:
    with_archived = request.args.get("archived") == "1"
    return render_template(
        "director/tournaments.html",
        tournaments=tournament_service.list_events(with_archived=with_archived),
        with_archived=with_archived,
        archived_count=tournament_service.archived_count(),
    )


@bp.route("/new", methods=["GET", "POST"])
@director_required
@form_fields(NEW_FORM, "structure_file", refused=lambda exc: (render_template(
    "director/new.html", templates=tournament_service.templates(), errors=exc.errors,
    form=request.form), 400))
def new() -> Any:
    templates = tournament_service.templates()
    if request.method == "POST":
        try:
            form = form_body(NEW_FORM)
            name, source = form["name"], form["template"]
            if source == "import":
                raw = _uploaded_json()
                event = event_file.read(raw)
                tournament, again = tournament_service.made_once(   # all or nothing
                    idempotency_key(), lambda key: event_file.create_event(name, event, key))
                facts = {} if again else wizard_service.keep(tournament.id, _wizard_block(raw))
                if facts.get("starting_stack"):     # the money form, with the wizard's stack
                    flash(_("Created “%(name)s” with the wizard's chip set. Give the buy-in "
                            "to keep its starting stack of %(chips)s chips.",
                            name=tournament.name, chips=number_filter(facts["starting_stack"])))
                    return redirect(url_for("money.settings", tournament_id=tournament.id,
                                            starting_stack=facts["starting_stack"]))
            elif source == "scratch":
                tournament, again = tournament_service.made_once(
                    idempotency_key(), lambda key: tournament_service.create_tournament(
                        name, [_blank_level()], idempotency_key=key))
            else:
                tournament, again = tournament_service.made_once(
                    idempotency_key(), lambda key: tournament_service.create_from_template(
                        name, source, idempotency_key=key))
        except Invalid as exc:
            return render_template("director/new.html", templates=templates,
                                   errors=exc.errors, form=request.form), 400
        flash(_("Created “%(name)s”. Check the structure, then start the clock.",
                name=tournament.name))
        return redirect(url_for("director.tournament", tournament_id=tournament.id))
    return render_template("director/new.html", templates=templates, errors={}, form={})


def _wizard_block(raw: str | bytes) -> Any:
    """The ``wizard`` block of a structure file (the wizard's proposal), else None; the
    file was read (and its depth checked) by ``event_file.read`` already."""
    try:
        data = json.loads(raw)
    except (ValueError, TypeError):
        return None
    return data.get("wizard") if isinstance(data, dict) else None


def _blank_level() -> dict[str, Any]:
    return {"kind": "level", "game": "PO", "duration_seconds": 1200,
            "small_blind": 25, "big_blind": 50}


@bp.get("/<int:tournament_id>")
@director_required
def tournament(tournament_id: int) -> str:
    record = clock_service.get_tournament(tournament_id)
    return _tournament_page(record, errors={}, rows=None)


def _tournament_page(record: Any, errors: dict[str, str], rows: list[dict[str, Any]] | None,
                     status: int = 200) -> Any:
    structure = record.structure
    rows = rows if rows is not None else [level.to_json() for level in structure.levels]
    return render_template(
        "director/tournament.html",
        tournament=record,
        structure=structure,
        rows=rows,
        numbers=entry_numbers(rows),
        starts=structure.level_starts(),
        clock=read_model.clock_state(record.id),
        errors=errors,
        games=_games(),
        amount_fields=AMOUNT_FIELDS,
    ), status


@bp.get("/<int:tournament_id>/phone")
@director_required
def phone(tournament_id: int) -> str:
    """The director's own controls on a phone (360 px and up): the clock (pause, resume,
    levels, time), the announcement, a bust and a seat sold; its forms come back here."""
    record = clock_service.get_tournament(tournament_id)
    return render_template("director/phone.html", tournament=record,
                           clock=read_model.clock_state(record.id),
                           players=tournament_service.players_in(tournament_id))


def _games() -> list[tuple[str, str]]:
    return [(game.value, game.label) for game in Game]


def _save(tournament_id: int, save: Any, rows: list[dict[str, Any]] | None,
          done: str) -> Any:
    """Run a structure service; on errors show the page again with them, else redirect."""
    try:
        save()
    except Invalid as exc:
        record = clock_service.get_tournament(tournament_id)
        return _tournament_page(record, exc.errors, rows, status=400)
    flash(done)
    return redirect(url_for("director.tournament", tournament_id=tournament_id))


@bp.post("/<int:tournament_id>/levels")
@director_required
@form_fields(NAME_FORM, *ROW_FIELDS, refused=lambda exc, tournament_id: _tournament_page(
    clock_service.get_tournament(tournament_id), exc.errors, levels_from_form(request.form), 400))
def save_levels(tournament_id: int) -> Any:
    levels = levels_from_form(request.form)
    try:
        name = form_body(NAME_FORM)["name"]
    except Invalid as exc:
        record = clock_service.get_tournament(tournament_id)
        return _tournament_page(record, exc.errors, levels, status=400)
    return _save(tournament_id,
                 lambda: tournament_service.update_levels(tournament_id, levels, name=name),
                 levels, _("Structure saved."))


def _uploaded_json() -> str | bytes:
    upload = request.files.get("structure_file")
    data = upload.read() if upload else b""   # event_file.read decodes it (or says it cannot)
    return data or request.form.get("structure_json", "")


@bp.post("/<int:tournament_id>/import")
@director_required
@form_fields("structure_file", "structure_json", refused=lambda exc, tournament_id: _tournament_page(
    clock_service.get_tournament(tournament_id), exc.errors, None, 400))
def import_structure(tournament_id: int) -> Any:
    text = _uploaded_json()
    return _save(tournament_id,
                 lambda: event_file.import_event(tournament_id, text),
                 None, _("Structure imported."))


@bp.get("/<int:tournament_id>/structure.json")
@director_required
def export_structure(tournament_id: int) -> Response:
    data = event_file.export_event(tournament_id)
    response = Response(json.dumps(data, indent=2, ensure_ascii=False) + "\n",
                        mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="structure-{tournament_id}.json"'
    )
    return response


@bp.post("/<int:tournament_id>/<any(reopen, cancel):change>")
@director_required
@no_body()      # the transport's idempotency_key alone
def lifecycle(tournament_id: int, change: str) -> Any:
    """The tournament page's Reopen / Cancel the event buttons (logged by the service)."""
    service = tournament_service.reopen if change == "reopen" else tournament_service.cancel
    try:
        service(tournament_id, idempotency_key())
    except Invalid as exc:
        say_refused(_("Not changed: %(reasons)s"), exc)
    else:
        flash(_("The event is reopened: it may change again. The clock stays paused until you "
                "resume it.") if change == "reopen" else _("The event is cancelled."))
    return redirect(url_for("director.tournament", tournament_id=tournament_id))


@bp.post("/<int:tournament_id>/<any(archive, unarchive):change>")
@director_required
@form_fields(BACK_FORM)
def put_away(tournament_id: int, change: str) -> Any:
    """Archive / Unarchive, from the list (``back=list``) or the event's page (logged)."""
    service = tournament_service.archive if change == "archive" else tournament_service.unarchive
    back = form_body(BACK_FORM)["back"]
    try:
        record = service(tournament_id)
    except Invalid as exc:
        say_refused(_("Not changed: %(reasons)s"), exc)
    else:
        flash(_("“%(name)s” is archived: it is hidden from the list of tournaments.",
                name=record.name) if change == "archive"
              else _("“%(name)s” is listed again.", name=record.name))
    if back == "list":
        return redirect(url_for("director.tournaments"))
    return redirect(url_for("director.tournament", tournament_id=tournament_id))


@bp.post("/<int:tournament_id>/delete")
@director_required
@no_body()
def delete(tournament_id: int) -> Any:
    """Delete the event, after a backup of the whole database that keeps it (logged)."""
    name = clock_service.get_tournament(tournament_id).name
    try:
        path = tournament_service.delete_event(tournament_id)
    except Invalid as exc:
        say_refused(_("Not deleted: %(reasons)s"), exc)
        return redirect(url_for("director.tournament", tournament_id=tournament_id))
    flash(_("“%(name)s” is deleted. The backup made just before keeps it: %(path)s",
            name=name, path=path))
    return redirect(url_for("director.tournaments"))


@bp.post("/<int:tournament_id>/duplicate")
@director_required
@form_fields(DUPLICATE_FORM)
def duplicate(tournament_id: int) -> Any:
    """A new event with this one's structure, money, seating and house rules."""
    try:
        name = form_body(DUPLICATE_FORM)["name"]
        copy, _again = tournament_service.made_once(idempotency_key(), lambda key: (
            tournament_service.duplicate(tournament_id, name, idempotency_key=key)))
    except Invalid as exc:
        say_refused(_("Not copied: %(reasons)s"), exc)
        return redirect(url_for("director.tournament", tournament_id=tournament_id))
    flash(_("Created “%(name)s” from this event: structure, money, seating settings and "
            "house rules; no players and no payments.", name=copy.name))
    return redirect(url_for("director.tournament", tournament_id=copy.id))


@bp.app_template_global("money_standing")
def money_standing(tournament_id: int) -> dict[str, Any] | None:
    """The bubble or in the money, for the director's status line (``_standing.html``)."""
    return read_model.money_standing(tournament_id)


def _log_words(entries: list[Any]) -> dict[str, Any]:
    """What the log shows of each entry beside its sentence: its event's name, and its
    time in that event's time zone (else the setting's, else the laptop's)."""
    events = audit.events_of(entries)
    default = event_zone_name()

    def event_of(entry: Any) -> Any:
        tid = entry.details.get("tournament_id") if isinstance(entry.details, dict) else None
        return events.get(tid) if isinstance(tid, int) else None

    def when(entry: Any) -> str:
        event = event_of(entry)
        here = zone((event.time_zone if event is not None else None) or default)
        return str(entry.at.astimezone(here).strftime("%Y-%m-%d %H:%M:%S"))

    return {"event_of": event_of, "when": when}


def _log_entries() -> tuple[dict[str, Any], list[Any], int | None]:
    """The log page's query, its entries (newest first, 200 at a time) and the next page."""
    query = LOG_QUERY.load(request.args.to_dict(), form=True)
    if query["kind"] not in LOG_KINDS:
        raise Invalid({"kind": _("The kind is one of: %(kinds)s",
                                 kinds=", ".join(k for k in LOG_KINDS if k))})
    kind = {"": "changes", "all": None}.get(query["kind"], query["kind"])
    entries = audit.recent(limit=200, actor=query["who"] or None, text=query["q"] or None,
                           before_id=query["before"], kind=kind)
    return query, entries, entries[-1].id if len(entries) == 200 else None


@bp.get("/log")
@director_required
def log() -> Any:
    """Who changed what, and when, in the director's words: the newest first, 200 at a time,
    filtered by kind (``?kind=money``), by who and by a word."""
    try:
        query, entries, more = _log_entries()
    except Invalid as exc:
        return render_template("director/log.html", entries=[], errors=exc.errors,
                               query={}, more=None, kinds=audit.KIND_LABELS,
                               sentence=audit.sentence), 400
    return render_template("director/log.html", entries=entries, errors={}, query=query,
                           more=more, kinds=audit.KIND_LABELS, sentence=audit.sentence,
                           **_log_words(entries))


@bp.get("/log.json")
@director_required
def log_json() -> Any:
    """The log as JSON, each line with its sentence in the reader's language; the same
    filters as the page (``?kind=``, ``who``, ``q``, ``before``)."""
    try:
        query, entries, more = _log_entries()
    except Invalid as exc:
        return jsonify({"errors": exc.errors}), 400
    words = _log_words(entries)
    return jsonify({"kind": query["kind"], "more": more, "entries": [
        {**entry.to_json(), "sentence": audit.sentence(entry.message, entry.params),
         "tournament": getattr(words["event_of"](entry), "name", None),
         "local_time": words["when"](entry)}
        for entry in entries]})


@bp.get("/backups")
@director_required
def backups() -> str:
    """The scheduled backups, newest first, their total and the rule that keeps them."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    found = backup_service.backups(app)
    return render_template("director/backups.html", backups=found,
                           total=sum(size for _path, _when, size in found),
                           rule=backup_service.Retention.of(app),
                           minutes=app.config.get("BACKUP_MINUTES", 10))


TIME_ZONE_FORM = Schema({"time_zone": Str(required=False, default="", max_len=64)})


@bp.post("/<int:tournament_id>/time-zone")
@director_required
@form_fields(TIME_ZONE_FORM)
def time_zone(tournament_id: int) -> Any:
    """The event's time zone, from its page."""
    try:
        event = tournament_service.set_time_zone(tournament_id, form_body(TIME_ZONE_FORM)["time_zone"])
    except Invalid as exc:
        say_refused("%(reasons)s", exc)
    else:
        flash(_("Times are shown in %(zone)s.", zone=event.time_zone or _("the laptop’s time zone")))
    return redirect(url_for("director.tournament", tournament_id=tournament_id))
