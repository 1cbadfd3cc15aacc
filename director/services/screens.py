"""The room's screens (issue 17): the director's announcement ticker and the room screen.

* :func:`announce`: save the ticker's text on the tournament (``announcement``),
  commit, and push the clock state (``banners.state`` adds it) to every screen.
* :func:`room`: the tournaments the room screen shows, one column each: those
  asked for by id, else every event whose clock has started and that is not
  over.  Each column follows its own event stream.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from director.db import db, utcnow
from director.models import Tournament
from director.models.tournament import ANNOUNCEMENT_MAX
from director.services import Invalid, retry_on_conflict
from director.services import clock as clock_service
from director.services import tournaments as tournament_service
from director.tournament.lifecycle import Status

ROOM_MAX = 6


def announce(tournament_id: int, text: Any) -> dict[str, Any]:
    """Set (or, with an empty text, clear) the announcement; returns the clock JSON."""
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise Invalid({"text": _("The announcement must be text")})
    clean = " ".join(text.split())
    if len(clean) > ANNOUNCEMENT_MAX:
        raise Invalid({"text": _("An announcement has at most %(count)s characters (this one "
                                 "has %(length)s)", count=ANNOUNCEMENT_MAX, length=len(clean))})

    def work() -> Tournament:
        tournament = tournament_service.verify_open(tournament_id)
        tournament.announcement = clean or None
        db.session.commit()
        return tournament

    tournament = retry_on_conflict(work)
    return clock_service.announce(tournament, utcnow())


def room(ids: Any = None) -> list[dict[str, Any]]:
    """The clock state of each tournament on the room screen (at most ``ROOM_MAX``).

    ``ids``: "1,4,7" (the order kept), or None for every running event, oldest first.
    """
    if ids:
        wanted = []
        for part in str(ids).split(","):
            part = part.strip()
            if not part.isdigit() or len(part) > 18:
                raise Invalid({"ids": _("Give the tournaments as numbers separated by commas, "
                                        "for example 1,4")})
            if int(part) not in wanted:
                wanted.append(int(part))
        if len(wanted) > ROOM_MAX:
            raise Invalid({"ids": _("The room screen shows at most %(count)s tournaments",
                                    count=ROOM_MAX)})
        return [clock_service.clock_state(tid) for tid in wanted]
    running = [t for t in reversed(tournament_service.list_events())
               if t.lifecycle is Status.RUNNING]
    now = utcnow()
    return [clock_service.clock_json(t, now) for t in running[:ROOM_MAX]]
