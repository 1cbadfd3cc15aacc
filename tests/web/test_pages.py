"""The director's pages: login flow, creating a tournament, editing the
structure table (errors name the cell), import/export, and the public pages."""

from __future__ import annotations

import io
import json
import re

import pytest

from director.views.director import format_duration, parse_duration
from tests.conftest import TOKEN, break_, level


def test_director_pages_redirect_to_login(client):
    response = client.get("/director/")
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]


def test_login_with_the_token_then_logout(client, csrf):
    page = client.get("/login")
    assert b"Director token" in page.data
    response = client.post("/login", data={"token": TOKEN, "next": "/director/new"})
    assert response.status_code == 302 and response.headers["Location"].endswith("/director/new")
    assert client.get("/director/").status_code == 200
    client.post("/logout", data={"csrf_token": csrf()})
    assert client.get("/director/").status_code == 302


def test_login_with_a_wrong_token_says_so(client):
    response = client.post("/login", data={"token": "guess"})
    assert response.status_code == 200
    assert b"not the director token" in response.data
    assert client.get("/director/").status_code == 302


def test_login_never_redirects_to_another_site(client):
    response = client.post("/login", data={"token": TOKEN, "next": "//evil.example/"})
    assert response.headers["Location"].endswith("/director/")


def test_create_from_a_template(client, login, csrf):
    login()
    page = client.get("/director/new")
    for name in (b"plo-standard", b"plo-turbo", b"limit-o8", b"stud", b"mixed"):
        assert name in page.data
    response = client.post("/director/new", data={
        "csrf_token": csrf(), "name": "Sunday Stud", "template": "stud"})
    assert response.status_code == 302
    page = client.get(response.headers["Location"])
    assert b"Sunday Stud" in page.data and b"F7S" in page.data


def test_create_without_a_name_shows_the_error(client, login, csrf):
    login()
    response = client.post("/director/new", data={"csrf_token": csrf(), "name": " ",
                                                   "template": "plo-turbo"})
    assert response.status_code == 400
    assert b"needs a name" in response.data


def test_create_by_importing_json(client, login, csrf):
    login()
    structure = {"name": "Imported", "levels": [level(10, 20), break_(300), level(20, 40)]}
    response = client.post("/director/new", data={
        "csrf_token": csrf(), "name": "", "template": "import",
        "structure_file": (io.BytesIO(json.dumps(structure).encode()), "s.json"),
    }, content_type="multipart/form-data")
    assert response.status_code == 302
    exported = client.get(response.headers["Location"] + "/structure.json")
    assert json.loads(exported.data)["name"] == "Imported"
    assert len(json.loads(exported.data)["levels"]) == 3


def test_forms_without_csrf_token_are_refused(client, login):
    login()
    response = client.post("/director/new", data={"name": "x", "template": "stud"})
    assert response.status_code == 400


def test_structure_page_shows_start_times_and_break_times(client, login, make_tournament):
    tournament_id = make_tournament(levels=[level(25, 50, seconds=1200),
                                            level(50, 100, seconds=1200),
                                            break_(600, "remove T25 chips"),
                                            level(100, 200, seconds=1200)])
    login()
    page = client.get(f"/director/{tournament_id}").data.decode()
    starts = re.findall(r'<td class="starts">([^<]*)</td>', page)
    assert starts == ["0:00", "20:00", "40:00", "50:00"]
    assert "remove T25 chips" in page


def _form_for(levels, name="Edited"):
    """The structure table as the browser posts it (one list per column)."""
    columns = {k: [] for k in ("kind", "duration", "game", "small_blind", "big_blind", "ante",
                               "big_blind_ante", "small_bet", "big_bet", "bring_in", "note")}
    for row in levels:
        for key in columns:
            columns[key].append(row.get(key, ""))
    return {"name": name, **columns}


def test_saving_the_structure_table(client, login, csrf, make_tournament):
    tournament_id = make_tournament()
    login()
    form = _form_for([
        {"kind": "level", "duration": "0:02", "game": "PO", "small_blind": "100",
         "big_blind": "200"},
        {"kind": "break", "duration": "10", "note": "colour up", "game": "PO",
         "small_blind": "5"},  # hidden cells of a break row are ignored
        {"kind": "level", "duration": "15:00", "game": "PO8", "small_blind": "1,000",
         "big_blind": "2,000", "ante": "2000", "big_blind_ante": "yes"},
    ])
    form["game"][2] = "PO/8"
    response = client.post(f"/director/{tournament_id}/levels", data={**form, "csrf_token": csrf()})
    assert response.status_code == 302
    exported = client.get(f"/api/tournaments/{tournament_id}/structure").get_json()
    assert exported["name"] == "Edited"
    first, pause, third = exported["levels"]
    assert first["duration_seconds"] == 2 and first["big_blind"] == 200
    assert pause["kind"] == "break" and pause["duration_seconds"] == 600
    assert pause["small_blind"] == 0 and pause["note"] == "colour up"
    assert third["game"] == "PO/8" and third["big_blind"] == 2000 and third["big_blind_ante"]


def test_an_invalid_table_names_the_cell_and_keeps_the_input(client, login, csrf, make_tournament):
    tournament_id = make_tournament()
    login()
    form = _form_for([
        {"kind": "level", "duration": "20", "game": "PO", "small_blind": "200",
         "big_blind": "100"},
        {"kind": "level", "duration": "soon", "game": "PO", "small_blind": "100",
         "big_blind": "200"},
    ])
    response = client.post(f"/director/{tournament_id}/levels", data={**form, "csrf_token": csrf()})
    assert response.status_code == 400
    page = response.data.decode()
    assert "levels[0].big_blind" in page and "levels[1].duration_seconds" in page
    assert 'value="soon"' in page  # the director's input is kept
    assert page.count('aria-invalid="true"') >= 2
    exported = client.get(f"/api/tournaments/{tournament_id}/structure").get_json()
    assert exported["levels"][0]["big_blind"] == 50  # nothing was saved


def test_import_replaces_the_structure(client, login, csrf, make_tournament):
    tournament_id = make_tournament()
    login()
    text = json.dumps({"name": "x", "levels": [level(500, 1000)]})
    response = client.post(f"/director/{tournament_id}/import",
                           data={"csrf_token": csrf(), "structure_json": text})
    assert response.status_code == 302
    clock = client.get(f"/api/tournaments/{tournament_id}/clock").get_json()
    assert clock["level"]["big_blind"] == 1000


def test_import_of_bad_json_names_the_problem(client, login, csrf, make_tournament):
    tournament_id = make_tournament()
    login()
    response = client.post(f"/director/{tournament_id}/import",
                           data={"csrf_token": csrf(), "structure_json": "{oops"})
    assert response.status_code == 400
    assert b"not valid JSON" in response.data


def test_export_is_a_download(client, login, make_tournament):
    tournament_id = make_tournament()
    login()
    response = client.get(f"/director/{tournament_id}/structure.json")
    assert "attachment" in response.headers["Content-Disposition"]
    assert len(json.loads(response.data)["levels"]) == 3


def test_projector_page_is_public_and_self_contained(client, make_tournament):
    tournament_id = make_tournament()
    page = client.get(f"/clock/{tournament_id}").data.decode()
    assert "25/50" in page and "Level 1" in page and "20:00" in page
    assert "Players left" in page and "Average stack" in page and "Prize pool" in page
    for url in re.findall(r'(?:src|href)="([^"]+)"', page):
        assert url.startswith("/"), f"{url} is not served by this server"


def test_the_index_lists_the_clocks(client, make_tournament):
    make_tournament(name="Big Friday")
    assert b"Big Friday" in client.get("/").data


@pytest.mark.parametrize("path", ["/static/style.css", "/static/live.js",
                                  "/static/projector.js", "/static/director.js"])
def test_static_assets_are_served(client, path):
    assert client.get(path).status_code == 200


def test_unknown_page_is_an_html_404(client):
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert response.mimetype == "text/html"


def test_durations_as_a_director_types_them():
    assert parse_duration("20") == 1200
    assert parse_duration("0:02") == 2
    assert parse_duration("1:30:00") == 5400
    assert format_duration(5400) == "1:30:00" and format_duration(2) == "0:02"
