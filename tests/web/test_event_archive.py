"""Issue 14: events are archived (hidden from the list, shown again on demand), deleted
after a backup of the whole database that keeps them, and duplicated as a template; the
director's seating and desk pages say "Bubble" and "In the money" and offer
hand-for-hand at the bubble."""

from __future__ import annotations

import re
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest

from director.services import audit
from tests.conftest import POSTGRES_URL, level

SETTINGS: dict[str, Any] = {"buy_in": "100", "fee": "10", "starting_stack": 20_000,
                            "late_registration_level": 1, "rebuy": True, "rebuy_price": "100",
                            "rebuy_chips": 20_000, "rebuy_until": 2,
                            "payout_template": "custom", "custom_payouts": "50, 30, 20"}


@pytest.fixture
def api(client, auth):
    class Api:
        def post(self, path: str, **body: Any) -> Any:
            return client.post(f"/api/{path}", json=body, headers=auth)

        def ok(self, path: str, **body: Any) -> Any:
            response = self.post(path, **body)
            assert response.status_code in (200, 201), (path, response.get_json())
            return response.get_json()

        def names(self) -> list[str]:
            return [t["name"] for t in client.get("/api/tournaments").get_json()["tournaments"]]

    return Api()


@pytest.fixture
def event(api, make_tournament):
    """An event with money, seating and house rules set, three players bought in."""
    tid = make_tournament(levels=[level(25, 50), level(50, 100), level(100, 200)],
                          name="Friday PLO")
    api.ok(f"tournaments/{tid}/money/settings", **SETTINGS)
    api.ok(f"tournaments/{tid}/seating/settings", table_size=6, balance_threshold=2)
    api.ok(f"tournaments/{tid}/house-rules", limit_raise_cap=4)
    for name in ("Ann Berg", "Bo Lind", "Cia Ek"):
        api.ok(f"tournaments/{tid}/money/entries", kind="buy-in", name=name)
    return tid


def logged(app, tid: int, action: str) -> list[Any]:
    with app.app_context():
        audit.writer(app).flush()
        return [e for e in audit.recent(text=f"tournament {tid}") if e.action == action]


# ---------------------------------------------------------------- archive

def test_archived_event_is_hidden_from_the_list_until_shown_and_unarchived(
        app, client, api, event, make_tournament, login, csrf):
    other = make_tournament(name="Saturday Stud")
    answer = api.ok(f"tournaments/{event}/archive")
    assert answer["archived"] is True and answer["archived_at"]
    login()
    listed = client.get("/director/").get_data(as_text=True)
    assert "Saturday Stud" in listed and "Friday PLO" not in listed
    assert 'id="show-archived"' in listed and "Show archived (1)" in listed
    everything = client.get("/director/?archived=1").get_data(as_text=True)
    assert "Friday PLO" in everything and "(archived)" in everything
    assert 'id="hide-archived"' in everything
    # The event itself is untouched: its page, its players and its clock still answer.
    assert client.get(f"/director/{event}").status_code == 200
    assert "Archived: this event is hidden" in client.get(f"/director/{event}").get_data(as_text=True)
    assert client.get(f"/api/tournaments/{event}/clock").get_json()["players_left"] == 3
    # Unarchive from the list's button: listed again.
    back = client.post(f"/director/{event}/unarchive", data={"csrf_token": csrf(), "back": "list"})
    assert back.status_code == 302 and back.headers["Location"].endswith("/director/")
    assert "Friday PLO" in client.get("/director/").get_data(as_text=True)
    assert logged(app, event, "tournament archive") and logged(app, event, "tournament unarchive")
    assert other


def test_archive_from_the_tournament_page_comes_back_to_it(client, event, login, csrf):
    login()
    done = client.post(f"/director/{event}/archive", data={"csrf_token": csrf()})
    assert done.status_code == 302 and done.headers["Location"].endswith(f"/director/{event}")
    page = client.get(f"/director/{event}").get_data(as_text=True)
    assert "is archived: it is hidden from the list" in page and 'id="unarchive-event"' in page


def test_archiving_twice_changes_nothing_and_logs_once(app, api, event):
    first = api.ok(f"tournaments/{event}/archive")
    second = api.ok(f"tournaments/{event}/archive")
    assert first["archived_at"] == second["archived_at"]
    assert len(logged(app, event, "tournament archive")) == 1


def test_an_event_whose_clock_runs_is_not_archived_or_deleted(api, event):
    api.ok(f"tournaments/{event}/clock/start")
    refused = api.post(f"tournaments/{event}/archive")
    assert refused.status_code == 400
    assert refused.get_json()["errors"]["event"] == (
        "The clock is running: pause it before archiving the event")
    assert "Friday PLO" in api.names()
    api.ok(f"tournaments/{event}/clock/pause")             # paused: it may be put away
    assert api.ok(f"tournaments/{event}/archive")["archived"] is True


def test_running_event_refuses_delete_with_a_sentence(client, auth, api, event):
    api.ok(f"tournaments/{event}/clock/start")
    refused = client.delete(f"/api/tournaments/{event}", headers=auth)
    assert refused.status_code == 400
    assert refused.get_json()["errors"]["event"] == (
        "The clock is running: pause it before deleting the event")
    assert "Friday PLO" in api.names()


def test_unknown_event_is_404_for_archive_delete_and_duplicate(client, auth, api):
    assert api.post("tournaments/999/archive").status_code == 404
    assert api.post("tournaments/999/duplicate").status_code == 404
    assert client.delete("/api/tournaments/999", headers=auth).status_code == 404


def test_archive_needs_the_director(client, event):
    assert client.post(f"/api/tournaments/{event}/archive").status_code == 401
    assert client.delete(f"/api/tournaments/{event}").status_code == 401


# ---------------------------------------------------------------- delete

def backed_up_names(path: Path) -> list[str]:
    with sqlite3.connect(path) as connection:
        return [row[0] for row in connection.execute("SELECT name FROM tournament")]


@pytest.mark.skipif(bool(POSTGRES_URL), reason="SQLite files (pg_dump on PostgreSQL)")
def test_delete_writes_a_backup_that_keeps_the_event_then_removes_everything(
        app, client, auth, api, event):
    deleted = client.delete(f"/api/tournaments/{event}", headers=auth)
    assert deleted.status_code == 200, deleted.get_json()
    backup = Path(deleted.get_json()["backup"])
    assert backup.is_file() and backup.name.startswith(f"deleted-event-{event}-")
    assert "Friday PLO" in backed_up_names(backup)
    with sqlite3.connect(backup) as connection:
        players = connection.execute("SELECT count(*) FROM player WHERE tournament_id = ?",
                                     (event,)).fetchone()[0]
        payments = connection.execute("SELECT count(*) FROM payment WHERE tournament_id = ?",
                                      (event,)).fetchone()[0]
    assert players == 3 and payments == 3
    # Gone from the live database, with its players and payments.
    assert "Friday PLO" not in api.names()
    assert client.get(f"/api/tournaments/{event}/clock").status_code == 404
    with app.app_context():
        from director.db import db
        from director.models.money import Payment
        from director.models.seating import Player

        assert db.session.query(Player).filter_by(tournament_id=event).count() == 0
        assert db.session.query(Payment).filter_by(tournament_id=event).count() == 0
    [line] = logged(app, event, "tournament delete")
    assert line.details["backup"] == str(backup)
    with app.test_request_context():
        said = [audit.sentence(e.message, e.params)
                for e in audit.recent(kind="changes") if e.message]
    assert f"Event deleted: Friday PLO (kept in the backup {backup.name})" in said


@pytest.mark.skipif(not POSTGRES_URL or shutil.which("pg_restore") is None,
                    reason="a pg_dump file (PostgreSQL)")
def test_delete_on_postgresql_dumps_this_servers_schema_with_the_event(app, client, auth, event):
    deleted = client.delete(f"/api/tournaments/{event}", headers=auth)
    assert deleted.status_code == 200, deleted.get_json()
    backup = Path(deleted.get_json()["backup"])
    assert backup.name.startswith(f"deleted-event-{event}-") and backup.suffix == ".pgdump"
    # The event's rows, as plain SQL out of the dump; no other schema is in it.
    sql = subprocess.run(["pg_restore", "--data-only", "--file=-", str(backup)],  # noqa: S603,S607
                         capture_output=True, text=True, check=True).stdout
    schema = app.config["TEST_SCHEMA"]
    assert f"COPY {schema}.tournament " in sql and "Friday PLO" in sql
    listed = subprocess.run(["pg_restore", "--list", str(backup)],  # noqa: S603,S607
                            capture_output=True, text=True, check=True).stdout
    # "216; 1259 16386 TABLE t_… tournament director", "3345; 0 16385 TABLE DATA t_… …"
    schemas = {match[1] for match in re.finditer(r"^\d+; \d+ \d+ TABLE (?:DATA )?(\S+) ",
                                                 listed, re.MULTILINE)}
    assert schemas == {schema}


def test_delete_from_the_page_says_where_the_backup_is(client, event, login, csrf):
    login()
    page = client.get(f"/director/{event}").get_data(as_text=True)
    assert ("Delete Friday PLO for good? A backup of the whole database is written first and "
            "keeps it") in page
    done = client.post(f"/director/{event}/delete", data={"csrf_token": csrf()})
    assert done.status_code == 302 and done.headers["Location"].endswith("/director/")
    listed = client.get("/director/").get_data(as_text=True)
    assert "“Friday PLO” is deleted. The backup made just before keeps it:" in listed
    assert f"deleted-event-{event}-" in listed


def test_a_failed_backup_deletes_nothing(client, auth, api, event, monkeypatch):
    from director.services import backup

    def broken(app, target, **kwargs):
        raise backup.BackupError("the disk is full")

    monkeypatch.setattr(backup, "backup", broken)
    refused = client.delete(f"/api/tournaments/{event}", headers=auth)
    assert refused.status_code == 400
    assert refused.get_json()["errors"]["backup"] == (
        "The backup before deleting failed, so nothing was deleted: the disk is full")
    assert "Friday PLO" in api.names()


def test_delete_without_the_csrf_token_is_refused(client, event, login):
    login()
    assert client.post(f"/director/{event}/delete", data={}).status_code in (400, 403)
    assert client.get(f"/api/tournaments/{event}/clock").status_code == 200


# ---------------------------------------------------------------- duplicate

def test_duplicate_copies_structure_money_seating_and_house_rules_not_players(
        app, client, auth, api, event):
    made = api.post(f"tournaments/{event}/duplicate")
    assert made.status_code == 201
    copy = made.get_json()["id"]
    assert made.get_json()["name"] == "Friday PLO (copy)" and copy != event
    assert (client.get(f"/api/tournaments/{copy}/structure").get_json()["levels"]
            == client.get(f"/api/tournaments/{event}/structure").get_json()["levels"])
    clock = client.get(f"/api/tournaments/{copy}/clock").get_json()
    assert clock["status"] == "registering" and not clock["players_left"]
    rules = client.get(f"/api/tournaments/{copy}/house-rules", headers=auth).get_json()
    assert rules["not_default"] == {"limit_raise_cap": 4}
    seating = client.get(f"/api/tournaments/{copy}/seating").get_json()
    assert seating["policy"]["table_size"] == 6 and seating["policy"]["balance_threshold"] == 2
    # The money settings are there: the first buy-in gives the copied stack and price.
    sold = api.ok(f"tournaments/{copy}/money/entries", kind="buy-in", name="Dan Holm")
    with app.app_context():
        from director.db import db
        from director.models.money import Payment
        from director.models.seating import Player

        player = db.session.get(Player, sold["player_id"])
        assert player.chips == 20_000
        lines = db.session.query(Payment).filter_by(tournament_id=copy).all()
        assert [(p.player_name, p.prize, p.fee) for p in lines] == [("Dan Holm", 10000, 1000)]
    assert logged(app, copy, "tournament duplicate")[0].details["from"] == event


def test_duplicate_takes_a_name_and_refuses_a_bad_one(api, event):
    named = api.ok(f"tournaments/{event}/duplicate", name="Friday PLO, week 2")
    assert named["name"] == "Friday PLO, week 2"
    refused = api.post(f"tournaments/{event}/duplicate", name="\x01bad")
    assert refused.status_code == 400 and "name" in refused.get_json()["errors"]


def test_duplicate_button_opens_the_new_event(client, event, login, csrf):
    login()
    done = client.post(f"/director/{event}/duplicate", data={"csrf_token": csrf()})
    assert done.status_code == 302
    page = client.get(done.headers["Location"]).get_data(as_text=True)
    assert "Friday PLO (copy)" in page and "no players and no payments" in page


def test_copy_name_fits_the_name_limit():
    from director.models.tournament import NAME_MAX
    from director.services.tournaments import copy_name

    assert len(copy_name("x" * NAME_MAX)) <= NAME_MAX


# ---------------------------------------------------------------- the bubble and the money

@pytest.fixture
def field(api, make_tournament):
    """Eight players at two 6-handed tables, three places paid, the clock running."""
    tid = make_tournament(levels=[level(25, 50), level(50, 100), level(100, 200)],
                          name="Bubble Night")
    api.ok(f"tournaments/{tid}/money/settings", **SETTINGS)
    api.ok(f"tournaments/{tid}/seating/settings", table_size=6)
    ids = [api.ok(f"tournaments/{tid}/money/entries", kind="buy-in", name=f"Player {i}")["player_id"]
           for i in range(1, 9)]
    api.ok(f"tournaments/{tid}/seating/draw")
    api.ok(f"tournaments/{tid}/clock/start")
    api.ok(f"tournaments/{tid}/clock/next")          # late registration is over

    def bust(player_id: int) -> None:
        plan = api.ok(f"tournaments/{tid}/seating/eliminate", player_ids=[player_id])
        if plan.get("pending_plan"):
            api.ok(f"tournaments/{tid}/seating/plans/{plan['pending_plan']['id']}/confirm")

    return tid, ids, bust


def test_the_seating_and_desk_pages_say_bubble_then_in_the_money(client, field, login, csrf):
    tid, ids, bust = field
    login()
    assert 'id="money-standing"' not in client.get(f"/director/{tid}/seating").get_data(as_text=True)
    for player in ids[:4]:
        bust(player)                                          # 4 left, 3 paid: the bubble
    seating = client.get(f"/director/{tid}/seating").get_data(as_text=True)
    assert 'data-kind="bubble"' in seating
    assert "4 players left, 3 places paid: the next player out wins nothing." in seating
    assert 'id="bubble-h4h"' in seating and "Start hand-for-hand (bubble)" in seating
    desk = client.get(f"/director/{tid}/desk").get_data(as_text=True)
    assert 'data-kind="bubble"' in desk and 'id="bubble-h4h"' not in desk
    # The bubble button starts hand-for-hand, and then is not offered again.
    started = client.post(f"/director/{tid}/seating/hand-for-hand",
                          data={"csrf_token": csrf(), "action": "start"})
    assert started.status_code == 302
    seating = client.get(f"/director/{tid}/seating").get_data(as_text=True)
    assert 'id="bubble-h4h"' not in seating and "· hand-for-hand" in seating
    assert client.get(f"/api/tournaments/{tid}/clock").get_json()["running"] is False
    client.post(f"/director/{tid}/seating/hand-for-hand", data={"csrf_token": csrf(), "action": "stop"})
    bust(ids[4])                                              # 3 left: in the money
    seating = client.get(f"/director/{tid}/seating").get_data(as_text=True)
    assert 'data-kind="in_the_money"' in seating
    assert "3 players left, 3 places paid: every player left wins a prize." in seating
    assert 'data-kind="in_the_money"' in client.get(f"/director/{tid}/desk").get_data(as_text=True)


def test_no_status_line_without_payouts(client, api, make_tournament, login):
    tid = make_tournament(name="No money")
    login()
    assert 'id="money-standing"' not in client.get(f"/director/{tid}/seating").get_data(as_text=True)
