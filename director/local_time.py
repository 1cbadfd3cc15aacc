"""Local time: every time a person reads is in the event's time zone; storage stays UTC.

The zone is, first match wins: the tournament's own ``time_zone`` (when the model has
that column and it is set), the ``TIME_ZONE`` setting (``instance/config.py`` or the
``DIRECTOR_TIME_ZONE`` environment variable), else the laptop's own zone (``tzlocal``,
else ``/etc/localtime``, else UTC).

``init_app`` registers the ``|local_time`` filter (``{{ p.eliminated_at|local_time('%H:%M:%S') }}``:
a strftime pattern, or a Babel format name such as ``short``) and makes Flask-Babel's
timezone follow the same rule, so the existing ``|datetime`` filter shows local time too.
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from flask import Flask, current_app, g, has_request_context, request
from flask_babel import format_datetime

from director.db import db
from director.models import Tournament

BABEL_FORMATS = ("short", "medium", "long", "full")


def laptop_zone() -> str:
    """The IANA name of this computer's time zone ("Europe/Stockholm"), "UTC" if unknown."""
    try:
        import tzlocal  # noqa: PLC0415  (optional: installed with APScheduler)

        name = tzlocal.get_localzone_name()
        if name:
            return str(name)
    except Exception:  # noqa: BLE001,S110  (no tzlocal, or a zone it cannot name)
        pass
    link = Path("/etc/localtime")
    if link.is_symlink():
        parts = str(link.resolve()).split("/zoneinfo/", 1)
        if len(parts) == 2:
            return parts[1]
    return "UTC"


def zone(name: str | None) -> ZoneInfo:
    """``ZoneInfo(name)``, UTC for an unknown or empty name (a bad setting never breaks a page)."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def event_zone_name() -> str:
    """The zone of this request: the event's, else the setting, else the laptop's."""
    if has_request_context() and "event_zone" in g:
        return str(g.event_zone)
    name: str | None = None
    tournament_id = (request.view_args or {}).get("tournament_id") if has_request_context() else None
    if isinstance(tournament_id, int):
        try:
            tournament = db.session.get(Tournament, tournament_id)
        except Exception:  # noqa: BLE001  (an id out of range: the view answers 404 itself)
            tournament = None
        name = tournament.time_zone if tournament is not None else None
    name = name or str(current_app.config.get("TIME_ZONE") or "") or laptop_zone()
    if has_request_context():
        g.event_zone = name
    return name


def local_time(value: datetime | str | None, format: str = "short") -> str:  # noqa: A002
    """A stored (UTC) moment as the event's local time: ``|local_time('%H:%M:%S')``
    (also an ISO-8601 string, as the JSON API sends it)."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        value = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    here = zone(event_zone_name())
    if format in BABEL_FORMATS:     # the locale's own pattern, in the event's zone
        return str(format_datetime(value.astimezone(here), format, rebase=False))
    return value.astimezone(here).strftime(format)


@functools.cache
def time_zones() -> list[str]:
    """Every IANA zone name, sorted: the event page's choice."""
    return sorted(available_timezones())


def init_app(app: Flask) -> None:
    app.config.setdefault("TIME_ZONE", laptop_zone())
    app.add_template_filter(local_time, "local_time")
    app.add_template_global(time_zones, "time_zones")
    app.add_template_global(event_zone_name, "event_zone_name")
    babel = app.extensions.get("babel")
    if babel is not None:           # |datetime (director.i18n) follows the event's zone too
        babel.timezone_selector = lambda: zone(event_zone_name())

