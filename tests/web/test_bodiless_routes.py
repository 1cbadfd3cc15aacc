"""A write route that takes no body refuses one, naming what it sent, and changes nothing.

An undo, a draw, a confirm take nothing but their URL; before, ``{"x": 1}`` or
a malformed ``{`` sent to them was ignored and the undo happened.  Every such
route is declared with ``director.schemas.no_body``: the walk of ``app.url_map``
checks that each write route reads a body or carries that mark (a new bodiless
route without it fails here), then that every marked route refuses a field, a
malformed body and one nested too deep with a 400 and changes nothing.  What the
director's pages and scripts send (nothing, ``{}``, the transport's fields, the
form's ``csrf_token`` and ``back``) still works.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director.schemas import MAX_JSON_DEPTH
from tests.web.test_roles_url_map import fill, snapshot, write_rules

Json = dict[str, Any]

# What reads a request's body, in a view's own source.
READERS = ("json_body(", "form_body(", "request.form", "request.files", "request.get_json",
           "request.get_data", "request.json", "request.data", "request.values",
           "from_phone(", ".load(")
# Views that read their body in a helper the walk cannot see, and what they read.
READS_IN_A_HELPER = {
    "director.import_structure": "the structure file or its text (_uploaded_json)",
}

BAD_BODIES = [
    pytest.param({"json": {"x": 1}}, "x", id="unknown-field"),
    pytest.param({"json": {"x": 1, "idempotency_key": "k"}}, "x", id="unknown-with-transport"),
    pytest.param({"data": "{", "content_type": "application/json"}, "body", id="malformed"),
    pytest.param({"data": "{", "content_type": "text/plain"}, "body", id="malformed-text"),
    pytest.param({"json": [1]}, "body", id="not-an-object"),
    pytest.param({"data": "[" * (MAX_JSON_DEPTH + 5), "content_type": "application/json"},
                 "body", id="too-deep"),
    pytest.param({"data": {"x": "1"}}, "x", id="form-field"),
]
GOOD_BODIES = [
    pytest.param({}, id="nothing"),
    pytest.param({"data": "", "content_type": "application/json"}, id="empty"),
    pytest.param({"json": {}}, id="empty-object"),
    pytest.param({"json": {"idempotency_key": "k-1"}}, id="idempotency-key"),
    pytest.param({"json": {"csrf_token": "t", "idempotency_key": "k-1"}}, id="transport"),
]


def view_of(app: Flask, endpoint: str) -> Any:
    return app.view_functions[endpoint]


def reads_a_body(view: Any) -> bool:
    source = inspect.getsource(inspect.unwrap(view))
    return any(reader in source for reader in READERS)


def marked_rules(app: Flask) -> list[tuple[Any, list[str]]]:
    return [(rule, methods) for rule, methods in write_rules(app)
            if hasattr(view_of(app, rule.endpoint), "takes_no_body")]


def named(response: Any, field: str) -> bool:
    """Whether a 400 names ``field``: in the JSON's errors, or in a page's list of them
    (the error page's and the seating page's ``<strong>``, the desk's ``data-field``)."""
    if response.is_json:
        return field in (response.get_json().get("errors") or {})
    page = response.get_data(as_text=True)
    return f"<strong>{field}</strong>" in page or f'<li data-field="{field}">' in page


# ---------------------------------------------------------------- the walk


def test_every_write_route_reads_a_body_or_refuses_one(app: Flask) -> None:
    silent, both = [], []
    for rule, methods in write_rules(app):
        view = view_of(app, rule.endpoint)
        marked = hasattr(view, "takes_no_body")
        reads = (reads_a_body(view) or getattr(view, "file_body", False)   # allow_body: a file
                 or rule.endpoint in READS_IN_A_HELPER)
        if not marked and not reads:
            silent.append(f"{'/'.join(methods)} {rule.rule} ({rule.endpoint})")
        if marked and reads_a_body(view):
            both.append(rule.endpoint)
    assert not silent, ("write routes that neither read a body nor refuse one (declare them "
                        "with director.schemas.no_body):\n" + "\n".join(silent))
    assert not both, f"marked as taking no body, yet they read one: {both}"
    assert len(marked_rules(app)) >= 25      # the map really was walked, the marks really seen


@pytest.mark.parametrize(("body", "field"), BAD_BODIES)
def test_every_bodiless_route_refuses_a_body_naming_it_and_changes_nothing(
        app: Flask, client: FlaskClient, auth: dict[str, str], room: Callable[[], Json],
        body: Json, field: str) -> None:
    ids = room()
    before = snapshot(app)
    checked = 0
    for rule, methods in marked_rules(app):
        url = fill(rule, ids["tournament_id"])
        for method in methods:
            response = client.open(url, method=method, headers=auth, **body)
            assert response.status_code == 400, f"{method} {url}: {response.status_code}"
            assert named(response, field), f"{method} {url}: {response.get_data(as_text=True)}"
            checked += 1
    assert checked >= 25
    assert snapshot(app) == before


# ---------------------------------------------------------------- the routes, one by one


@pytest.fixture
def room(client: FlaskClient, auth: dict[str, str],
         make_entry_tournament: Callable[..., int]) -> Callable[..., Json]:
    """``room(players=11, draw=True, table_size=6)``: an event taking entries, its
    players registered (each a buy-in) and their seats drawn (6 and 5: a bust at the
    short table proposes a move); its ids."""

    def make(players: int = 11, draw: bool = True, table_size: int | None = 6) -> Json:
        tid = make_entry_tournament()
        ids: Json = {"tournament_id": tid, "players": [], "payments": []}
        if table_size is not None:
            post(client, auth, f"/api/tournaments/{tid}/seating/settings",
                 json={"table_size": table_size})
        for i in range(1, players + 1):
            r = client.post(f"/api/tournaments/{tid}/seating/players",
                            json={"name": f"Player {i:02d}", "chips": 20_000}, headers=auth)
            assert r.status_code == 201, r.get_json()
            ids["players"].append(r.get_json()["player_id"])
            ids["payments"].append(r.get_json()["payment_id"])
        if draw:
            post(client, auth, f"/api/tournaments/{tid}/seating/draw")
        return ids

    return make


def post(client: FlaskClient, auth: dict[str, str], url: str, **body: Any) -> Json:
    response = client.post(url, headers=auth, **({"json": {}} | body))
    assert response.status_code < 300, (url, response.get_json())
    data: Json = response.get_json()
    return data


def seating(client: FlaskClient, tid: int) -> Json:
    data: Json = client.get(f"/api/tournaments/{tid}/seating").get_json()
    return data


@dataclass
class Case:
    url: str
    probe: Callable[[], Any]   # what the route changes, read back through the API


def _seats(client: FlaskClient, tid: int) -> Any:
    return sorted((t["number"], s["seat"], s["player_id"])
                  for t in seating(client, tid)["tables"] for s in t["seats"])


def _pending(client: FlaskClient, tid: int) -> Any:
    return seating(client, tid)["pending_plan"]


def _bust(client: FlaskClient, auth: dict[str, str], ids: Json) -> Json:
    """Eliminate a player of the shortest table: the rules propose a move."""
    tid = ids["tournament_id"]
    short = min(seating(client, tid)["tables"], key=lambda t: (len(t["seats"]), t["number"]))
    victim = short["seats"][0]["player_id"]
    answer = post(client, auth, f"/api/tournaments/{tid}/seating/eliminate",
                  json={"player_ids": [victim]})
    return {"victim": victim, "plan": answer["pending_plan"]}


def seating_undo(client: FlaskClient, auth: dict[str, str], room: Any) -> Case:
    tid = room()["tournament_id"]                     # the draw is undoable until a hand
    return Case(f"/api/tournaments/{tid}/seating/undo", lambda: _seats(client, tid))


def seating_break(client: FlaskClient, auth: dict[str, str], room: Any) -> Case:
    tid = room(players=10, table_size=6)["tournament_id"]       # two tables of 5
    seating_url = f"/api/tournaments/{tid}/seating"
    plan = post(client, auth, f"{seating_url}/settings",         # ten fit at one table now
                json={"table_size": 10})["seating"]["pending_plan"]
    if plan is not None:                                         # the final table's redraw
        post(client, auth, f"{seating_url}/plans/{plan['id']}/discard")
    return Case(f"/api/tournaments/{tid}/seating/break", lambda: _pending(client, tid))


def seating_draw(client: FlaskClient, auth: dict[str, str], room: Any) -> Case:
    tid = room(draw=False)["tournament_id"]
    return Case(f"/api/tournaments/{tid}/seating/draw", lambda: _seats(client, tid))


def seating_discard(client: FlaskClient, auth: dict[str, str], room: Any) -> Case:
    ids = room()
    tid, plan = ids["tournament_id"], _bust(client, auth, ids)["plan"]
    return Case(f"/api/tournaments/{tid}/seating/plans/{plan['id']}/discard",
                lambda: _pending(client, tid))


def seating_confirm(client: FlaskClient, auth: dict[str, str], room: Any) -> Case:
    ids = room()
    tid, plan = ids["tournament_id"], _bust(client, auth, ids)["plan"]
    return Case(f"/api/tournaments/{tid}/seating/plans/{plan['id']}/confirm",
                lambda: _seats(client, tid))


def seating_reinstate(client: FlaskClient, auth: dict[str, str], room: Any) -> Case:
    ids = room()
    tid, victim = ids["tournament_id"], _bust(client, auth, ids)["victim"]
    return Case(f"/api/tournaments/{tid}/seating/players/{victim}/reinstate",
                lambda: seating(client, tid)["players_left"])


def seating_deal(client: FlaskClient, auth: dict[str, str], room: Any) -> Case:
    tid = room()["tournament_id"]
    return Case(f"/api/tournaments/{tid}/seating/tables/1/deal",
                lambda: seating(client, tid)["tables"][0]["next_hand"])


def payment_undo(client: FlaskClient, auth: dict[str, str], room: Any) -> Case:
    ids = room(players=3, draw=False)
    tid, payment = ids["tournament_id"], ids["payments"][-1]
    return Case(f"/api/tournaments/{tid}/money/payments/{payment}/undo",
                lambda: client.get(f"/api/tournaments/{tid}/money", headers=auth).get_json()["prize_pool"])


def waiting_list_remove(client: FlaskClient, auth: dict[str, str], room: Any) -> Case:
    tid = room(players=2, draw=False)["tournament_id"]
    entry = post(client, auth, f"/api/tournaments/{tid}/waiting-list",
                 json={"name": "Late Larry"})["entry"]
    return Case(f"/api/tournaments/{tid}/waiting-list/{entry['id']}/remove",
                lambda: client.get(f"/api/tournaments/{tid}/waiting-list", headers=auth).get_json())


def clock_start(client: FlaskClient, auth: dict[str, str], room: Any) -> Case:
    tid = room(players=2, draw=False)["tournament_id"]
    return Case(f"/api/tournaments/{tid}/clock/start",
                lambda: client.get(f"/api/tournaments/{tid}/clock").get_json()["running"])


def archive(client: FlaskClient, auth: dict[str, str], room: Any) -> Case:
    tid = room(players=2, draw=False)["tournament_id"]
    return Case(f"/api/tournaments/{tid}/archive",
                lambda: [t["archived"] for t in client.get("/api/tournaments").get_json()["tournaments"]])


CASES = [seating_undo, seating_break, seating_draw, seating_discard, seating_confirm,
         seating_reinstate, seating_deal, payment_undo, waiting_list_remove, clock_start,
         archive]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.__name__)
@pytest.mark.parametrize(("body", "field"), [BAD_BODIES[0], BAD_BODIES[2], BAD_BODIES[-1]])
def test_a_refused_body_changes_nothing(app: Flask, client: FlaskClient, auth: dict[str, str],
                                        room: Any, case: Any, body: Json, field: str) -> None:
    route = case(client, auth, room)
    before, seen = snapshot(app), route.probe()
    response = client.post(route.url, headers=auth, **body)
    assert response.status_code == 400, response.get_data(as_text=True)
    assert named(response, field), response.get_json()
    assert route.probe() == seen
    assert snapshot(app) == before


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.__name__)
@pytest.mark.parametrize("body", GOOD_BODIES)
def test_no_body_or_the_transports_fields_still_work(client: FlaskClient, auth: dict[str, str],
                                                     room: Any, case: Any, body: Json) -> None:
    route = case(client, auth, room)
    seen = route.probe()
    response = client.post(route.url, headers=auth, **body)
    assert response.status_code in (200, 201), response.get_json()
    assert route.probe() != seen


def test_the_undo_of_a_payment_refused_twice_undoes_once_when_asked(
        client: FlaskClient, auth: dict[str, str], room: Any) -> None:
    ids = room(players=2, draw=False)
    tid, payment = ids["tournament_id"], ids["payments"][0]
    url = f"/api/tournaments/{tid}/money/payments/{payment}/undo"
    def pool() -> int:
        return int(client.get(f"/api/tournaments/{tid}/money", headers=auth).get_json()["prize_pool"])

    before = pool()
    for body in ({"json": {"reason": "mistake"}}, {"data": "{", "content_type": "application/json"}):
        assert client.post(url, headers=auth, **body).status_code == 400
    assert pool() == before
    assert client.post(url, headers=auth).status_code == 200
    assert pool() < before


# ---------------------------------------------------------------- the director's pages


PAGE_FORMS = [
    ("seating/undo", {}, "seating"),
    ("seating/plans/{plan}/discard", {}, "seating"),
    ("seating/tables/1/deal", {}, "seating"),
    ("waiting-list/{entry}/remove", {"back": "seating"}, "seating"),
    ("waiting-list/{entry}/remove", {"back": "desk"}, "desk"),
]


@pytest.mark.parametrize(("path", "extra", "page"), PAGE_FORMS)
def test_the_pages_forms_still_work_and_a_stray_field_is_named_on_a_400_page(
        app: Flask, client: FlaskClient, auth: dict[str, str], login: Callable[[], None],
        csrf: Callable[[], str], room: Any, path: str, extra: Json, page: str) -> None:
    """What a page's form sends (its CSRF token, and ``back``) is taken; anything more is a
    400 page listing the field, and nothing changes."""
    ids = room()
    tid = ids["tournament_id"]
    plan = _bust(client, auth, ids)["plan"] if "{plan}" in path else None   # undo: the draw
    entry = post(client, auth, f"/api/tournaments/{tid}/waiting-list",
                 json={"name": "Late Larry"})["entry"]
    url = f"/director/{tid}/" + path.format(entry=entry["id"], plan=plan and plan["id"])
    login()
    form = {"csrf_token": csrf(), **extra}
    before = snapshot(app)
    refused = client.post(url, data={**form, "x": "1"})
    assert refused.status_code == 400
    assert named(refused, "x")
    assert f'id="{page}-errors"' in refused.get_data(as_text=True)   # the form's own page
    malformed = client.post(url, data="{", content_type="application/json",
                            headers={"X-CSRF-Token": csrf()})
    assert malformed.status_code == 400 and named(malformed, "body")
    assert snapshot(app) == before
    done = client.post(url, data=form)
    assert done.status_code == 302, done.get_data(as_text=True)
    assert f"/{page}" in done.headers["Location"]
    assert snapshot(app) != before


def test_a_form_from_the_phone_page_is_refused_back_on_the_phone(
        app: Flask, client: FlaskClient, login: Callable[[], None], csrf: Callable[[], str],
        room: Any) -> None:
    tid = room()["tournament_id"]
    login()
    before = snapshot(app)
    refused = client.post(f"/director/{tid}/seating/undo",
                          data={"csrf_token": csrf(), "back": "phone", "x": "1"})
    assert refused.status_code == 302
    assert refused.headers["Location"].endswith(f"/director/{tid}/phone")
    assert snapshot(app) == before
    with client.session_transaction() as session:
        said = " ".join(text for _kind, text in session.get("_flashes", []))
    assert "Not done" in said and "x is not one of this request" in said
