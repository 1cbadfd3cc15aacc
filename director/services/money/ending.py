"""The end of the event as the money sees it, parts of the seating's unit of work (no
commit): the last player left finishes the event unless late registration is still
open; a satellite stops once its players left no longer outnumber its seats.
"""

from __future__ import annotations

from datetime import datetime

from director.db import utcnow
from director.i18n import N_
from director.services import audit, get_tournament
from director.services import tournaments as lifecycle_service
from director.services.amounts import settings_dict
from director.services.money.period import late_registration
from director.services.money.settings import rules_from, settings_row
from director.services.money.totals import Money, money
from director.tournament.lifecycle import Status, ends_with_one_player_left
from director.tournament.satellites import can_seat_deal


def seats_decided_in(view: Money) -> bool:
    """A satellite with no more players left than seats (and no deal yet): every player
    left has won a seat, so play stops and the director gives everyone left a seat."""
    if view.satellite is None or view.deal or view.tournament.lifecycle in (Status.FINISHED,
                                                                          Status.CANCELLED):
        return False
    return view.players_left >= 2 and can_seat_deal(view.players_left, view.satellite.seats)


def seats_decided(tournament_id: int) -> dict[str, int] | None:
    """``{"players", "seats"}`` once a satellite's seats are decided (the director's
    prompt: *Everyone left gets a seat*), else None."""
    if not settings_dict(settings_row(tournament_id)).get("satellite_seat"):
        return None                      # not a satellite: no need to count the money
    view = money(tournament_id)
    if not seats_decided_in(view) or view.satellite is None:
        return None
    return {"players": view.players_left, "seats": view.satellite.seats}


def stop_at_the_seats(tournament_id: int, now: datetime | None = None) -> list[str]:
    """After an elimination: a satellite whose players left no longer outnumber its seats
    stops, its clock paused, for the director's seat deal.  Part of the seating's unit
    of work: no commit.  Returns the sentences for its log."""
    decided = seats_decided(tournament_id)
    if decided is None:
        return []
    lifecycle_service.stop_clock(tournament_id, now or utcnow())
    return [audit.Said(N_("%(players)s players left for %(seats)s seats: every one of them wins "
                          "a seat. The clock is paused: give everyone left a seat on the deal "
                          "page"), players=decided["players"], seats=decided["seats"])]


def last_player_left(tournament_id: int, now: datetime | None = None) -> list[str]:
    """The seating's last elimination left one player: the event is finished (its clock
    stops, ``tournaments.finish_event``) unless late registration is still open
    (``lifecycle.ends_with_one_player_left``).  Part of the seating's unit of work: no
    commit.  Returns the sentences for its log."""
    tournament = get_tournament(tournament_id)
    now = now or utcnow()
    row = settings_row(tournament_id)
    late_open = False
    if row is not None:
        late_open = late_registration(tournament, rules_from(settings_dict(row)), now).open
    if not ends_with_one_player_left(late_registration_open=late_open):
        return [audit.Said(N_("Late registration is still open: the event goes on"))]
    return [lifecycle_service.finish_event(tournament_id, now)]
