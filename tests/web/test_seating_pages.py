"""The seating pages: the director's chart and forms, slips, seat cards, the
public find-my-seat page and the projector's draw.  Checks what the HTML says."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from director.db import db
from director.models.seating import Player


@pytest.fixture
def make_tournament(make_entry_tournament: Callable[..., int]) -> Callable[..., int]:
    """Tournaments that take entries: every registration is a buy-in (issue 14)."""
    return make_entry_tournament


@pytest.fixture
def director(client: FlaskClient, login: Callable[[], None],
             csrf: Callable[[], str]) -> Callable[..., object]:
    """``director(path, **form)``: a form post by the logged-in director (CSRF included)."""
    login()

    def post(path: str, follow: bool = True, **form: object) -> object:
        return client.post(path, data={"csrf_token": csrf(), **form}, follow_redirects=follow)

    return post


def seating_url(tid: int, action: str = "") -> str:
    return f"/director/{tid}/seating" + (f"/{action}" if action else "")


def svg_texts(html: str, table: int) -> list[str]:
    """The visible texts of one table's SVG, in document order."""
    svg = re.search(rf'<svg[^>]*data-table="{table}".*?</svg>', html, re.S)
    assert svg, f"no chart for table {table}"
    body = re.sub(r"<title>.*?</title>", "", svg.group(0), flags=re.S)
    return [t.strip() for t in re.findall(r"<text[^>]*>(.*?)</text>", body, re.S)]


def test_the_seating_page_needs_the_director(client: FlaskClient,
                                             make_tournament: Callable[..., int]) -> None:
    tid = make_tournament()
    r = client.get(seating_url(tid))
    assert r.status_code == 302 and "/login" in r.headers["Location"]
    r = client.post(seating_url(tid, "draw"))
    assert r.status_code == 302 and "/login" in r.headers["Location"]


def test_register_draw_and_see_the_chart_with_seats_names_chips_and_markers(
        client: FlaskClient, director: Callable[..., object],
        make_tournament: Callable[..., int]) -> None:
    tid = make_tournament()
    for i in range(1, 9):
        r = director(seating_url(tid, "players"), name=f"Player {i}")
        assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert "Player 8 is registered; seats are drawn later." in html
    assert 'id="draw-seats"' in html and "Draw seats for 8 players" in html
    r = director(seating_url(tid, "draw"))
    html = r.get_data(as_text=True)
    assert "Seat draw: 8 players at 1 tables." in html
    texts = svg_texts(html, 1)
    assert "Table 1" in texts and "8 of 9 seats" in texts
    assert [str(n) for n in range(1, 10)] == [t for t in texts if t.isdigit() and len(t) == 1][:9]
    names = {f"Player {i}" for i in range(1, 9)}
    assert names <= set(texts)
    assert "20,000" in texts and "open" in texts          # the event's stack, from the money
    assert {"D", "SB", "BB"} <= set(texts)
    # The projector, the cards and the public page show the same seats.
    draw = client.get(f"/seats/{tid}/draw").get_data(as_text=True)
    assert all(name in draw for name in names) and '<span class="w">1 / ' in draw   # table / seat
    cards = client.get(seating_url(tid, "cards")).get_data(as_text=True)
    assert cards.count('class="seat-card"') == 8
    found = client.get(f"/seats/{tid}?q=player 3").get_data(as_text=True)
    assert "Player 3" in found and re.search(r"Table <b>1</b> · Seat <b>\d</b>", found)


def test_a_form_with_bad_input_shows_the_error_inline_and_changes_nothing(
        client: FlaskClient, director: Callable[..., object],
        make_tournament: Callable[..., int]) -> None:
    tid = make_tournament()
    r = director(seating_url(tid, "players"), name="  ")
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert "Nothing was changed" in html
    assert "The player needs a name" in html
    r = director(seating_url(tid, "draw"))
    assert r.status_code == 400 and "at least two players" in r.get_data(as_text=True)
    r = director(seating_url(tid, "settings"), table_size="7", breaking_order="x")
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert "Tables seat 6, 8, 9 or 10 players" in html and "Breaking order" in html
    r = director(seating_url(tid, "eliminate"))
    assert r.status_code == 400 and "Choose the player(s)" in r.get_data(as_text=True)
    with client.application.app_context():
        assert db.session.query(Player).count() == 0
    r = client.post(seating_url(tid, "players"), data={"name": "No Csrf"})
    assert r.status_code == 400
    with client.application.app_context():
        assert db.session.query(Player).count() == 0


def test_eliminate_until_a_table_breaks_confirm_and_the_chart_shows_the_new_seats(
        client: FlaskClient, director: Callable[..., object],
        make_tournament: Callable[..., int]) -> None:
    tid = make_tournament()
    director(seating_url(tid, "settings"), table_size="9", redraw_at_tables="1",
             breaking_order="3, 2, 1", balance_threshold="1", halt_short_by="3",
             hand_for_hand_seconds="120", starting_chips="5000", stud_only="no")
    for i in range(1, 21):
        director(seating_url(tid, "players"), name=f"Player {i:02d}")
    director(seating_url(tid, "draw"))
    api = lambda: client.get(f"/api/tournaments/{tid}/seating").get_json()  # noqa: E731
    broke = False
    for _ in range(10):
        data = api()
        if data["pending_plan"]:
            plan = data["pending_plan"]
            html = client.get(seating_url(tid)).get_data(as_text=True)
            for line in plan["lines"]:
                if not line.startswith("Floor:"):
                    assert line.replace("→", "→") in html.replace("&amp;", "&")
            r = director(seating_url(tid, f"plans/{plan['id']}/confirm"))
            assert "Confirmed:" in r.get_data(as_text=True)
            if plan["kind"] == "break table":
                broke = True
                after = r.get_data(as_text=True)
                for move in plan["moves"]:
                    texts = svg_texts(after, move["to_table"])
                    assert move["name"] in texts
                assert 'data-table="3"' not in after
                break
            continue
        victim = max(p["id"] for p in data["players"] if p["status"] == "active")
        r = director(seating_url(tid, "eliminate"), player_ids=str(victim))
        assert "Eliminated (place" in r.get_data(as_text=True)
    assert broke
    html = client.get(seating_url(tid)).get_data(as_text=True)
    assert "Finishing places" in html and "Player 20" in html


def test_reseat_chips_deal_hand_for_hand_and_slips_by_form(
        client: FlaskClient, director: Callable[..., object],
        make_tournament: Callable[..., int]) -> None:
    tid = make_tournament()
    for i in range(1, 13):
        director(seating_url(tid, "players"), name=f"Player {i:02d}")
    director(seating_url(tid, "draw"))
    data = client.get(f"/api/tournaments/{tid}/seating").get_json()
    t1 = data["tables"][0]
    mover = t1["seats"][0]
    open_seat = next(s for s in range(1, 10) if s not in {x["seat"] for x in t1["seats"]})
    r = director(seating_url(tid, "reseat"), player_id=str(mover["player_id"]), table="1",
                 seat=str(open_seat))
    assert f"Reseated: {mover['name']}: table 1 seat {mover['seat']} → table 1 seat " \
           f"{open_seat}" in r.get_data(as_text=True)
    r = director(seating_url(tid, "reseat"), player_id=str(mover["player_id"]), table="1",
                 seat=str(t1["seats"][1]["seat"]))
    assert r.status_code == 400 and "is taken by" in r.get_data(as_text=True)
    r = director(seating_url(tid, "chips"), player_id=str(mover["player_id"]), chips="43,500")
    assert f"{mover['name']} has 43,500 chips." in r.get_data(as_text=True)
    r = director(seating_url(tid, "tables/1/deal"))
    assert r.status_code == 200
    r = director(seating_url(tid, "hand-for-hand"), action="start")
    assert "Hand-for-hand: on." in r.get_data(as_text=True)
    r = director(seating_url(tid, "hand-for-hand"), action="finish")
    assert "Hand finished: 120 seconds off the clock." in r.get_data(as_text=True)
    assert client.get(seating_url(tid, "slips")).status_code == 200   # the draw's slips
    assert client.get(seating_url(tid, "slips") + "?plan=999").status_code == 404


def test_public_pages_for_an_unknown_tournament_are_404(client: FlaskClient) -> None:
    assert client.get("/seats/12345").status_code == 404
    assert client.get("/seats/12345/draw").status_code == 404
    assert client.get("/seats/").status_code == 200


NASTY = ["", " ", "-", "--5", "²", "٣", "1e5", "1.5", "9" * 5000, "-1", "0", "<b>x</b>",
         "\x00", "𝟘", "NaN", "10,000,000,000,000", "Å" * 300]


@pytest.mark.parametrize("value", NASTY)
def test_garbage_in_any_form_field_is_a_clear_error_never_a_500(
        client: FlaskClient, director: Callable[..., object],
        make_tournament: Callable[..., int], value: str) -> None:
    tid = make_tournament()
    for i in range(1, 4):
        director(seating_url(tid, "players"), name=f"Player {i}")
    director(seating_url(tid, "draw"))
    posts = [("players", {"name": value, "chips": value}),
             ("eliminate", {"player_ids": value}),
             ("reseat", {"player_id": value, "table": value, "seat": value}),
             ("reseat", {"player_id": "1", "table": "1", "seat": value}),
             ("chips", {"player_id": value, "chips": value}),
             ("chips", {"player_id": "1", "chips": value}),
             ("hand-for-hand", {"action": value}),
             ("settings", {name: value for name in (
                 "table_size", "balance_threshold", "halt_short_by", "final_table_size",
                 "redraw_at_tables", "breaking_order", "hand_for_hand_seconds",
                 "starting_chips", "stud_only")})]
    for path, form in posts:
        r = director(seating_url(tid, path), **form)
        assert r.status_code in (200, 400), (path, value, r.status_code)
        if r.status_code == 400:
            assert "Nothing was changed" in r.get_data(as_text=True)
    for path in (f"/seats/{tid}?q={value[:100]}", f"/api/tournaments/{tid}/seats?q={value[:100]}",
                 seating_url(tid, "slips") + f"?plan={value[:50]}"):
        assert client.get(path).status_code in (200, 400, 404), path
