"""Seven-card stud seats at most 8 players: a structure with stud levels and 9- or
10-handed tables is flagged on the seating page, before the tablets refuse to deal."""

from __future__ import annotations

from collections.abc import Callable

from flask.testing import FlaskClient

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
