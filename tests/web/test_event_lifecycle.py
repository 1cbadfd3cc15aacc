"""The event's life through the API and the director's pages: registering -> running ->
finished (the last elimination, or a deal that shares out everything) and cancelled; a
finished event is frozen (clock, desk, money, seating) until the director reopens it."""

from __future__ import annotations

from typing import Any

import pytest

from director.services import audit
from tests.conftest import EventApi, level

SETTINGS: dict[str, Any] = {"buy_in": "100", "fee": "10", "starting_stack": 20_000,
                            "late_registration_level": 1, "re_entry": True,
                            "rebuy": True, "rebuy_price": "100", "rebuy_chips": 20_000,
                            "rebuy_until": 2, "payout_template": "custom",
                            "custom_payouts": "70, 30"}


@pytest.fixture
def event(client, auth, make_tournament):
    tid = make_tournament(levels=[level(25, 50), level(50, 100), level(100, 200)])

    event = EventApi(client, auth, tid)
    assert event.post("money/settings", **SETTINGS).status_code == 200
    return event


def play_to_the_end(event: Any) -> list[int]:
    ids = [event.buy_in(name) for name in ("Ann Berg", "Bo Lind", "Cia Ek")]
    assert event.post("clock/start").status_code == 200
    assert event.post("clock/next").status_code == 200      # level 2: late registration closed
    assert event.eliminate(ids[2]).status_code == 200
    assert event.eliminate(ids[1]).status_code == 200       # Ann is the last one left
    return ids


def test_status_is_registering_then_running(event):
    assert event.clock()["status"] == "registering"
    event.post("clock/start")
    assert event.clock()["status"] == "running" and event.clock()["winner"] is None


def test_time_added_back_to_a_paused_first_level_leaves_the_event_started(event):
    """Started, paused, and the minutes it ran given back: the first level shows no time
    run, but the event started (the projector says paused, not "not started"; rebuys
    stay open, and the event stays running, not registering)."""
    event.buy_in("Ann Berg")
    assert event.post("clock/start").status_code == 200
    assert event.post("clock/pause").status_code == 200
    assert event.post("clock/adjust", seconds=60).status_code == 200
    state = event.clock()
    assert state["status"] == "running"
    assert state["started"] is True and state["running"] is False
    assert state["seconds_remaining"] > state["level"]["duration_seconds"]
    assert state["open"]["rebuy"] is True


def test_time_added_before_the_clock_starts_leaves_the_event_registering(event):
    assert event.post("clock/adjust", seconds=300).status_code == 200
    state = event.clock()
    assert state["status"] == "registering" and state["started"] is False
    assert state["open"]["rebuy"] is False
    assert event.post("clock/start").status_code == 200
    assert event.clock()["status"] == "running"


def test_event_finishes_when_one_player_is_left_clock_stops(event):
    play_to_the_end(event)
    state = event.clock()
    assert state["status"] == "finished"
    assert state["winner"]["name"] == "Ann Berg"
    assert state["running"] is False
    level_before = state["level_index"]
    # The clock stays stopped: no control starts it, and nothing is ever due.
    refused = event.post("clock/resume")
    assert refused.status_code == 400
    assert refused.get_json()["errors"]["event"] == "The event is finished: reopen it to change it"
    assert event.post("clock/next").status_code == 400
    assert event.clock()["level_index"] == level_before and not event.clock()["running"]


def test_one_player_left_during_late_registration_does_not_finish_the_event(event):
    ids = [event.buy_in(name) for name in ("Ann Berg", "Bo Lind")]
    event.post("clock/start")                                 # level 1: late registration open
    assert event.eliminate(ids[1]).status_code == 200
    assert event.clock()["status"] == "running" and event.clock()["running"] is True
    assert event.post("money/entries", kind="buy-in", name="Late Larry").status_code == 201


def test_the_scheduler_does_not_advance_a_finished_event(event, app):
    from director.services import clock as clock_service

    play_to_the_end(event)
    with app.app_context():
        assert clock_service.advance_if_due(event.id) is None


def test_buy_in_refused_after_the_event_finished(event):
    ids = play_to_the_end(event)
    before = event.post("money/entries", kind="buy-in", name="Late Larry")
    assert before.status_code == 400
    assert before.get_json()["errors"]["event"] == "The event is finished: reopen it to change it"
    for body in ({"kind": "re-entry", "player_id": ids[2]},
                 {"kind": "rebuy", "player_id": ids[0], "stack": 0}):
        refused = event.post("money/entries", **body)
        assert refused.status_code == 400 and "event" in refused.get_json()["errors"]
    assert event.post("money/settings", **{**SETTINGS, "buy_in": "200"}).status_code == 400
    assert event.clock()["entries"] == 3 and event.clock()["prize_pool"] == 300


def test_seating_writes_refused_after_the_event_finished(event):
    ids = play_to_the_end(event)
    refused = event.post("seating/chips", player_id=ids[0], chips=60_000)
    assert refused.status_code == 400
    assert refused.get_json()["errors"]["event"] == "The event is finished: reopen it to change it"


def test_results_are_frozen_and_prizes_can_still_be_paid(event, client):
    ids = play_to_the_end(event)
    before = client.get(f"/api/tournaments/{event.id}/results").get_json()["results"]
    event.post("money/entries", kind="buy-in", name="Late Larry")
    assert client.get(f"/api/tournaments/{event.id}/results").get_json()["results"] == before
    paid = event.post(f"results/{ids[0]}/pay")
    assert paid.status_code == 201 and paid.get_json()["payment"]["prize"] == 21_000


def test_reopen_is_logged_and_allows_writes(event, app):
    ids = play_to_the_end(event)
    reopened = event.post("reopen")
    assert reopened.status_code == 200 and reopened.get_json()["status"] == "running"
    assert reopened.get_json()["running"] is False          # the director resumes it
    with app.app_context():
        lines = [e for e in audit.recent(text=f"tournament {event.id}")
                 if e.action == "tournament reopen"]
    assert lines and lines[0].details["from"] == "finished"
    assert event.post("clock/resume").status_code == 200
    assert event.post("seating/chips", player_id=ids[0], chips=60_000).status_code == 200
    assert event.post("money/settings", **{**SETTINGS, "fee": "15"}).status_code == 200
    again = event.post("reopen")
    assert again.status_code == 400 and "nothing to reopen" in again.get_json()["errors"]["event"]


def test_cancelled_event_refuses_writes_until_reopened(event):
    assert event.post("cancel").status_code == 200
    assert event.clock()["status"] == "cancelled"
    refused = event.post("money/entries", kind="buy-in", name="Ann")
    assert refused.get_json()["errors"]["event"] == "The event is cancelled: reopen it to change it"
    assert event.post("reopen").get_json()["status"] == "registering"
    assert event.post("money/entries", kind="buy-in", name="Ann").status_code == 201


def test_a_cancelled_event_whose_first_level_was_given_back_reopens_started(event):
    """Started, paused, the minutes it ran given back (the clock shows no time run),
    then cancelled: reopened, the event is running (paused), not registering again."""
    event.buy_in("Ann Berg")
    for step in ("clock/start", "clock/pause"):
        assert event.post(step).status_code == 200
    assert event.post("clock/adjust", seconds=60).status_code == 200
    assert event.post("cancel").status_code == 200
    reopened = event.post("reopen").get_json()
    assert reopened["status"] == "running"
    assert reopened["started"] is True and reopened["running"] is False
    assert reopened["open"]["rebuy"] is True


def test_a_cancelled_event_that_never_started_reopens_registering(event):
    assert event.post("clock/adjust", seconds=60).status_code == 200   # before any start
    assert event.post("cancel").status_code == 200
    assert event.post("reopen").get_json()["status"] == "registering"


def test_the_pages_show_the_status_and_reopen_from_the_tournament_page(event, client, login,
                                                                       csrf):
    play_to_the_end(event)
    login()
    page = client.get(f"/director/{event.id}").get_data(as_text=True)
    assert 'id="reopen-event"' in page and "Winner: Ann Berg" in page
    desk = client.get(f"/director/{event.id}/desk").get_data(as_text=True)
    assert "The event is finished: reopen it to change it" in desk
    sold = client.post(f"/director/{event.id}/desk/sell",
                       data={"csrf_token": csrf(), "kind": "buy-in", "name": "Late Larry"})
    assert sold.status_code == 400
    assert "The event is finished: reopen it to change it" in sold.get_data(as_text=True)
    done = client.post(f"/director/{event.id}/reopen", data={"csrf_token": csrf()})
    assert done.status_code == 302
    page = client.get(f"/director/{event.id}").get_data(as_text=True)
    assert 'id="cancel-event"' in page and 'id="reopen-event"' not in page


def test_undoing_the_hand_that_left_one_player_takes_the_finish_back(field):
    """A dealer's undo of the final hand (``busts.reinstate``) uncrowns the winner, and
    the event is running again (its clock still paused); any other seating write waits
    for the director's reopen."""
    from director.db import db
    from director.models import Tournament
    from director.services import busts, seating

    tid = field(2)
    table = seating.load_layout(tid).tables[0]
    (seat, loser), (_, winner) = sorted((s, p.player_id) for s, p in table.seats.items())
    busts.eliminate(tid, [loser])
    assert db.session.get(Tournament, tid).lifecycle == "finished"
    with pytest.raises(Exception, match="The event is finished"):
        seating.set_chips(tid, winner, 5)
    from director.models.seating import SeatingTable

    table_id = db.session.query(SeatingTable.id).filter_by(tournament_id=tid).scalar()
    busts.reinstate(tid, table_id, {loser: seat})
    db.session.commit()
    assert db.session.get(Tournament, tid).lifecycle == "registering"
