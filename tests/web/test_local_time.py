"""Issue 15, item 5: every time a person reads is in the event's time zone; storage stays UTC."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import render_template_string

from director import local_time

NOON_UTC = datetime(2026, 7, 1, 12, 0, 5, tzinfo=UTC)


def test_the_setting_defaults_to_the_laptops_zone(app):
    assert app.config["TIME_ZONE"] == local_time.laptop_zone()
    assert local_time.zone(local_time.laptop_zone()) is not None


def test_times_are_shown_in_the_events_zone(make_app):
    app = make_app(TIME_ZONE="Asia/Jakarta")            # UTC+7, no summer time
    with app.test_request_context("/"):
        assert render_template_string("{{ t|local_time('%H:%M:%S') }}", t=NOON_UTC) == "19:00:05"
        assert render_template_string("{{ t|local_time('%Y-%m-%d %H:%M') }}",
                                      t=NOON_UTC.replace(tzinfo=None)) == "2026-07-01 19:00"
        # the locale's pattern, and the existing |datetime filter, follow the zone too
        assert "7:00" in render_template_string("{{ t|local_time }}", t=NOON_UTC)
        assert "7:00" in render_template_string("{{ t|datetime }}", t=NOON_UTC)


def test_stockholm_summer_time_and_an_unknown_zone(make_app):
    app = make_app(TIME_ZONE="Europe/Stockholm")        # UTC+2 in July
    with app.test_request_context("/"):
        assert render_template_string("{{ t|local_time('%H:%M') }}", t=NOON_UTC) == "14:00"
    app = make_app(TIME_ZONE="Mars/Olympus_Mons")       # a typo never breaks a page: UTC
    with app.test_request_context("/"):
        assert render_template_string("{{ t|local_time('%H:%M') }}", t=NOON_UTC) == "12:00"
    assert local_time.local_time(None) == ""


def test_each_event_has_its_own_zone_set_on_its_page_and_by_the_api(client, auth, make_tournament):
    """Two events in one room's database: each page shows times in its own zone."""
    jakarta, stockholm = make_tournament(), make_tournament()
    r = client.post(f"/api/tournaments/{jakarta}/time-zone", json={"time_zone": "Asia/Jakarta"},
                    headers=auth)
    assert r.status_code == 200 and r.get_json()["time_zone"] == "Asia/Jakarta"
    assert client.post(f"/api/tournaments/{stockholm}/time-zone",
                       json={"time_zone": "Europe/Stockholm"}, headers=auth).status_code == 200
    with client.application.test_request_context(f"/director/{jakarta}"):
        client.application.preprocess_request()
        assert local_time.event_zone_name() == "Asia/Jakarta"
        assert local_time.local_time(NOON_UTC, "%H:%M") == "19:00"
    with client.application.test_request_context(f"/director/{stockholm}"):
        client.application.preprocess_request()
        assert local_time.local_time(NOON_UTC, "%H:%M") == "14:00"


def test_an_unknown_zone_is_refused_naming_the_field_and_nothing_changes(client, auth, make_tournament,
                                                                       login):
    tid = make_tournament()
    client.post(f"/api/tournaments/{tid}/time-zone", json={"time_zone": "Asia/Jakarta"}, headers=auth)
    r = client.post(f"/api/tournaments/{tid}/time-zone", json={"time_zone": "Mars/Olympus"}, headers=auth)
    assert r.status_code == 400
    assert "Unknown time zone “Mars/Olympus”" in r.get_json()["errors"]["time_zone"]
    login()
    page = client.get(f"/director/{tid}").get_data(as_text=True)
    assert '<option value="Asia/Jakarta" selected>' in page
