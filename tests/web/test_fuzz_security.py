"""Thousands of malformed bodies and paths: never a 5xx, and a refused request changes nothing.

Hypothesis picks a write route of the URL map (with the director's token, so
the request reaches the body checks), a method and a body: random JSON,
random bytes, or a form.  Every answer must be below 500; every answer of
400 or more must leave the database exactly as it was.  Random paths under
the app's prefixes must not fail either.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import inspect

from director.db import db
from tests.conftest import level

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}

# 5xx answers found in routes still being written by their owners
# (endpoint -> what fails), reported to them; any other 5xx fails the test.
KNOWN_5XX: dict[str, str] = {}
FUZZ = settings(max_examples=1500, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20),
    st.sampled_from(["fold", "call", "raise", "As", "Kd", "10h", "PO", "level", "", "-1",
                     "1e999", "NaN", "\x00", "' OR 1=1 --", "<script>"]),
)
KEYS = ["name", "levels", "seconds", "seat", "action", "amount", "version", "idempotency_key",
        "cards", "player_id", "player_ids", "table", "chips", "code", "absent_seats",
        "kind", "password", "confirm", "template", "structure_json", "language",
        "person_id", "reason", "formula", "tournament_ids", "room_tables", "seat_choice",
        "refund", "position", "request_key"]
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.one_of(st.sampled_from(KEYS), st.text(max_size=6)), inner, max_size=5),
    max_leaves=10)
bodies = st.one_of(
    json_values.map(lambda value: ("json", json.dumps(value).encode())),
    st.dictionaries(st.sampled_from(KEYS), json_values, max_size=6).map(
        lambda value: ("json", json.dumps(value).encode())),
    st.binary(max_size=80).map(lambda raw: ("json", raw)),
    st.dictionaries(st.sampled_from(KEYS), st.text(max_size=12), max_size=5).map(
        lambda form: ("form", form)),
)


def table_names(app):
    """The tables a refusal must leave as they were (the audit log records refusals, and
    the guess limits count refused logins and pairing codes)."""
    with app.app_context():
        return [n for n in inspect(db.engine).get_table_names()
                if n not in ("audit_log", "guess_failure", "guess_lock")]


def snapshot(app, names):
    """Every row of the tables ``names``, on a connection of its own (not the session:
    its statements cost twice as much, and the fuzz takes 2,500 snapshots)."""
    with app.app_context():
        db.session.remove()
        with db.engine.connect() as connection:
            return {n: sorted(map(repr, connection.exec_driver_sql(f'SELECT * FROM "{n}"')))
                    for n in names}


def concrete(rule, tournament_id, number):
    path = rule.rule
    for converter in re.findall(r"<([^>]+)>", path):
        if converter.startswith("any("):
            choices = converter[4:converter.index(")")].split(",")
            path = path.replace(f"<{converter}>", choices[number % len(choices)].strip())
        elif converter.endswith("tournament_id"):
            path = path.replace(f"<{converter}>", str(tournament_id))
        else:
            path = path.replace(f"<{converter}>", str([1, 2, 0, 2**70][number % 4]))
    return path


@pytest.mark.slow
def test_write_routes_never_fail_and_refusals_change_nothing(app, client, auth,
                                                             make_tournament):
    tournament_id = make_tournament(levels=[level(25, 50), level(50, 100)])
    client.post(f"/api/tournaments/{tournament_id}/money/settings", headers=auth,
                json={"buy_in": "100", "starting_stack": 10_000})  # entries are buy-ins
    for name in ("Ann", "Bob", "Cy"):
        client.post(f"/api/tournaments/{tournament_id}/seating/players", headers=auth,
                    json={"name": name})
    rules = sorted(((rule, sorted((rule.methods or set()) & UNSAFE))
                    for rule in app.url_map.iter_rules()
                    if (rule.methods or set()) & UNSAFE and rule.endpoint not in (
                        "static", "auth.logout")),
                   key=lambda pair: pair[0].rule)
    assert len(rules) >= 10
    counts = {"examples": 0, "refused": 0}
    failures: dict[str, object] = {}
    names = table_names(app)

    @FUZZ
    @given(choice=st.integers(min_value=0, max_value=len(rules) - 1),
           number=st.integers(min_value=0, max_value=7), body=bodies)
    def run(choice, number, body):
        rule, methods = rules[choice]
        method = methods[number % len(methods)]
        url = concrete(rule, tournament_id, number)
        before = snapshot(app, names)
        kind, payload = body
        if kind == "json":
            response = client.open(url, method=method, data=payload, headers=auth,
                                   content_type="application/json")
        else:
            response = client.open(url, method=method, data=payload, headers=auth)
        counts["examples"] += 1
        if response.status_code >= 500:
            failures.setdefault(rule.endpoint, (method, url, payload))
            return
        if response.status_code >= 400:
            counts["refused"] += 1
            assert snapshot(app, names) == before, (method, url, payload, response.status_code)

    run()
    assert counts["examples"] >= 1000 and counts["refused"] >= counts["examples"] // 2
    assert {k: v for k, v in failures.items() if k not in KNOWN_5XX} == {}



def test_malformed_paths_never_fail(client, auth, make_tournament):
    tournament_id = make_tournament()
    prefixes = ["/api/", "/api/tournaments/", f"/api/tournaments/{tournament_id}/",
                "/director/", f"/director/{tournament_id}/", "/seats/", "/clock/",
                "/api/tables/", "/dealer/", "/static/", "/"]

    @settings(max_examples=800, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(prefix=st.sampled_from(prefixes),
           tail=st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=30),
           method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]),
           with_auth=st.booleans())
    def run(prefix, tail, method, with_auth):
        response = client.open(prefix + tail, method=method,
                               headers=auth if with_auth else {}, json={})
        assert response.status_code < 500, (method, prefix + tail)

    run()


def test_a_nul_character_is_refused_everywhere_before_it_reaches_the_database(app, client,
                                                                               auth):
    names = table_names(app)
    before = snapshot(app, names)
    for body in ('{"name": "a\\u0000b", "levels": []}', '{"name": "ok", "x": "\\u0000"}'):
        response = client.post("/api/tournaments", data=body, headers=auth,
                               content_type="application/json")
        assert response.status_code == 400
        assert "NUL" in response.get_json()["errors"]["body"]
    form = client.post("/login", data={"token": "a\x00b"})
    assert form.status_code == 400
    assert client.get("/api/tournaments/1/seats?q=a%00b").status_code == 400
    assert snapshot(app, names) == before
