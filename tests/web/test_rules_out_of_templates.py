"""The pages show the rules, they do not hold them (issue 27, item 4): a level's number,
the stud cap of a table and the field from which the 3- and 2-table redraws are offered
are decided once in the engine (``director.tournament``) and the templates show the
values they are given."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from director.db import db
from director.models.seating import Player
from director.tournament import seating as engine
from director.tournament.structure import entry_numbers
from director.views import seating as seating_view
from tests.conftest import break_, level

STUD = level(0, 0, game="F7S", ante=25, bring_in=25, small_bet=100, big_bet=200)
WIZARD = {"starting_stack": "30000", "chips": "25, 100, 500, 1000, 5000", "players": "40",
          "duration": "5", "games": "PO", "name": "Wizard PLO"}


def numbers_shown(page: str, table_id: str) -> list[str]:
    body = page[page.index(f'id="{table_id}"'):]
    body = body[:body.index("</table>")]
    return [html.unescape(cell).strip() for cell in re.findall(r'<td class="number">(.*?)</td>', body)]


def test_the_structure_editor_numbers_levels_and_breaks_apart(
        client: FlaskClient, make_tournament: Callable[..., int], login: Callable[[], None]) -> None:
    """Two levels, a break, a level, a break, a level: levels 1, 2, 3, 4 and breaks 1, 2."""
    login()
    entries = [level(25, 50), level(50, 100), break_(), level(75, 150), break_(), level(100, 200)]
    tid = make_tournament(levels=entries)
    shown = numbers_shown(client.get(f"/director/{tid}").get_data(as_text=True), "structure-table")
    assert shown == [f"Break {n}" if entry["kind"] == "break" else str(n)
                     for entry, n in zip(entries, entry_numbers(entries), strict=True)]
    assert shown == ["1", "2", "Break 1", "3", "Break 2", "4"]


def test_the_wizard_numbers_its_levels_across_its_breaks(
        client: FlaskClient, login: Callable[[], None], csrf: Callable[[], str]) -> None:
    login()
    page = client.post("/director/wizard", data={"csrf_token": csrf(), **WIZARD})
    assert page.status_code == 200
    shown = numbers_shown(page.get_data(as_text=True), "wizard-levels")
    levels = [cell for cell in shown if cell != "Break"]
    assert "Break" in shown, "the proposal has a break"
    assert levels == [str(n) for n in range(1, len(levels) + 1)]
    # each entry starts when the ones before it have run
    starts = re.findall(r'<td class="starts">(.*?)</td>', page.get_data(as_text=True))
    assert len(starts) == len(shown) and starts[0] in ("0:00", "0:00:00")


def seating_page(client: FlaskClient, tid: int) -> str:
    return client.get(f"/director/{tid}/seating").get_data(as_text=True)


@pytest.mark.parametrize("cap", [engine.STUD_MAX_SEATS, 7])
def test_a_stud_tables_cap_is_the_engines(
        client: FlaskClient, make_tournament: Callable[..., int], login: Callable[[], None],
        monkeypatch: pytest.MonkeyPatch, cap: int) -> None:
    """The page says and enforces the engine's cap: were the rule 7 a table, it would say 7."""
    monkeypatch.setattr(engine, "STUD_MAX_SEATS", cap)
    monkeypatch.setattr(seating_view, "STUD_MAX_SEATS", cap)
    login()
    page = seating_page(client, make_tournament(levels=[level(100, 200), STUD]))
    assert f"(stud: at most {cap})" in page
    assert f"stud seats at most {cap} players: tables and the final table seat at most {cap}" in page
    assert f'id="s-final" name="final_table_size" value="" inputmode="numeric" max="{cap}"' in page
    offered = dict(re.findall(r'<option value="(\d+)"[^>]*?( disabled)?>\d+-handed', page))
    assert offered and all(bool(disabled) == (int(size) > cap) for size, disabled in offered.items())


@pytest.mark.parametrize("field", [engine.BIG_FIELD, 3])
def test_the_big_field_redraws_are_offered_from_the_engines_field(
        client: FlaskClient, make_tournament: Callable[..., int], login: Callable[[], None],
        monkeypatch: pytest.MonkeyPatch, field: int) -> None:
    monkeypatch.setattr(engine, "BIG_FIELD", field)
    monkeypatch.setattr(seating_view, "BIG_FIELD", field)
    login()
    tid = make_tournament(levels=[level(100, 200)])

    def enter(count: int) -> None:
        with client.application.app_context():
            db.session.add_all(Player(tournament_id=tid, name=f"P{count}-{i}", chips=1, entry_chips=1)
                               for i in range(count))
            db.session.commit()

    enter(field - 1)
    assert 'name="redraw_big_field"' not in seating_page(client, tid)
    enter(1)
    page = seating_page(client, tid)
    assert 'name="redraw_big_field"' in page and f"fields of {field} or more" in page
