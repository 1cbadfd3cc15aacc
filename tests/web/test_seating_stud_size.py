"""Seven-card stud seats at most 8 players: a structure with stud levels and 9- or
10-handed tables is flagged on the seating page, before the tablets refuse to deal."""

from __future__ import annotations

from collections.abc import Callable

from flask.testing import FlaskClient

from director.db import db
from director.models.seating import Player
from tests.conftest import level

STUD = level(0, 0, game="F7S", ante=25, bring_in=25, small_bet=100, big_bet=200)
WARNING = "The structure has seven-card stud levels, and stud seats at most 8 players"


def page(client: FlaskClient, tid: int) -> str:
    return client.get(f"/director/{tid}/seating").get_data(as_text=True)


def test_stud_levels_with_9_handed_tables_are_flagged(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int],
        login: Callable[[], None]) -> None:
    login()
    tid = make_tournament(levels=[level(100, 200), STUD])
    assert WARNING in page(client, tid)                         # default: 9-handed
    r = client.post(f"/api/tournaments/{tid}/seating/settings", json={"table_size": 8}, headers=auth)
    assert r.status_code == 200
    assert WARNING not in page(client, tid)


def test_omaha_only_structure_is_not_flagged(
        client: FlaskClient, make_tournament: Callable[..., int], login: Callable[[], None]) -> None:
    login()
    assert WARNING not in page(client, make_tournament(levels=[level(100, 200)]))


def test_stud_levels_make_the_final_table_8_and_the_page_says_so(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int],
        login: Callable[[], None]) -> None:
    login()
    tid = make_tournament(levels=[level(100, 200), STUD])
    html = page(client, tid)
    assert 'id="final-size">8-handed' in html and "(stud: at most 8)" in html
    assert '<option value="9" disabled>' in html and "At most 8: the structure has" in html
    r = client.post(f"/api/tournaments/{tid}/seating/settings", json={"table_size": 10},
                    headers=auth)
    assert r.status_code == 400
    assert r.get_json()["errors"]["table_size"] == (
        "The structure has seven-card stud levels, and stud seats at most 8 players: "
        "tables seat 8 at most")
    r = client.post(f"/api/tournaments/{tid}/seating/settings",
                    json={"table_size": 8, "final_table_size": 9}, headers=auth)
    assert r.status_code == 400 and "the final table seats 8 at most" in \
        r.get_json()["errors"]["final_table_size"]


def test_the_redraw_at_3_and_2_tables_is_offered_only_for_a_field_of_100(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int],
        login: Callable[[], None]) -> None:
    login()
    tid = make_tournament(levels=[level(100, 200)])
    assert 'name="redraw_big_field"' not in page(client, tid)
    assert "At the final table. TDA has no redraw before it" in page(client, tid)
    with client.application.app_context():
        db.session.add_all(Player(tournament_id=tid, name=f"P{i}", chips=1, entry_chips=1)
                           for i in range(100))
        db.session.commit()
    assert 'name="redraw_big_field"' in page(client, tid)
    r = client.post(f"/api/tournaments/{tid}/seating/settings", json={"redraw_big_field": True},
                    headers=auth)
    assert r.status_code == 200 and r.get_json()["policy"]["redraw_at_tables"] == [3, 2, 1]
