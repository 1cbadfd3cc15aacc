"""The room's screens (issue 17): the director's announcement ticker and the room screen.

* :func:`announce`: save the ticker's text on the tournament (``announcement``),
  and commit: the clock state (``banners.state`` adds it) goes to every screen.
* The room screen's columns are the read model's (``read_model.room``).
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from director.models.tournament import ANNOUNCEMENT_MAX
from director.services import Invalid, retry_on_conflict, uow
from director.services import tournaments as tournament_service


def announce(tournament_id: int, text: Any) -> None:
    """Set (or, with an empty text, clear) the announcement, and tell the screens."""
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise Invalid({"text": _("The announcement must be text")})
    clean = " ".join(text.split())
    if len(clean) > ANNOUNCEMENT_MAX:
        raise Invalid({"text": _("An announcement has at most %(count)s characters (this one "
                                 "has %(length)s)", count=ANNOUNCEMENT_MAX, length=len(clean))})

    def unit() -> None:
        tournament = tournament_service.verify_open(tournament_id)
        tournament.announcement = clean or None
        uow.screens(tournament_id, "clock")
        uow.commit()

    retry_on_conflict(unit)
