"""The tablets' read model (issue 27): a table's hand state is computed once per change
and per language, not once per tablet request.

The write that makes a version keeps its answer as the tablets' state of that version
(in the writer's language); every tablet's GET of the hand reads it, with only its
shot clock read again.  A tablet in another language computes it once for that
language.  A log line written with no new version (a ruling that only notes)
forgets what was kept, so the next GET shows the line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from director.services import dealer
from tests.web.test_dealer_helpers import play, seat_table
from tests.web.test_i18n_dealer import paired_tablet


def english_tablet(app: Flask, table: dict[str, Any]) -> FlaskClient:
    tablet = app.test_client()
    assert tablet.post("/dealer/pair", data={"table": table["number"],
                                             "code": table["code"]}).status_code == 302
    return tablet


def counted() -> dict[str, int]:
    return dict(dealer.STATES_COUNTED)


def gets(tablets: list[FlaskClient], url: str) -> list[dict[str, Any]]:
    answers = [tablet.get(f"{url}/hand") for tablet in tablets]
    assert all(a.status_code == 200 for a in answers), [a.get_json() for a in answers]
    return [a.get_json() for a in answers]


def test_every_tablet_of_the_table_reads_the_state_the_write_computed(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int],
        auth: dict[str, str]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    url = f"/api/tables/{t['id']}"
    english = [english_tablet(app, t) for _ in range(3)]
    swedish = [paired_tablet(app, t, "sv") for _ in range(2)]
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    hand = play(client, url, auth, hand, ["call"])

    before = counted()
    seen = gets(english, url)
    after = counted()
    assert after["computed"] == before["computed"]              # the write's answer, kept
    assert after["kept"] - before["kept"] == len(english)
    assert all(s["version"] == hand["version"] for s in seen)
    assert all({**s, "shot_clock": None} == {**hand, "shot_clock": None} for s in seen)

    before = counted()
    in_swedish = gets(swedish, url)
    after = counted()
    assert after["computed"] - before["computed"] == 1          # once for the language
    assert in_swedish[0] == in_swedish[1]
    assert in_swedish[0]["buttons"] != seen[0]["buttons"]        # said in Swedish

    # The next write makes a new version: kept again, nothing stale is read.
    hand = play(client, url, auth, seen[1], ["call"])
    again = gets(english, url)
    assert all(s["version"] == hand["version"] for s in again)


def test_a_log_line_without_a_new_version_is_shown_at_the_next_read(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int],
        auth: dict[str, str]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"])
    url = f"/api/tables/{t['id']}"
    tablet = english_tablet(app, t)
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    gets([tablet], url)
    with app.app_context(), app.test_request_context():
        dealer.log_note(t["id"], "The floor was called to table 1", "dealer")
    before = counted()
    [now] = gets([tablet], url)
    assert counted()["computed"] - before["computed"] == 1
    assert now["version"] == hand["version"]
    assert now["log"][0]["text"] == "The floor was called to table 1"
