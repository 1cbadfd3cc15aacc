"""Every write route declares its role, and the declaration holds.

The test walks ``app.url_map``: each rule answering POST, PUT, PATCH or
DELETE must point at a view marked by ``director.security`` (the
``required_role`` attribute).  Then it calls every director and dealer write
route without credentials, with a wrong token and with a dealer of another
table, and checks that each is refused and that the database did not change.
"""

from __future__ import annotations

import re

import pytest
from sqlalchemy import inspect, text

from director import security
from director.db import db

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}

# The only writes anybody may make; a new one must be added here on purpose.
PUBLIC_WRITES = {"auth.login", "auth.logout", "i18n.choose", "dealer.pair_form",
                 "dealer_api.pair"}

def role_of(app, endpoint):
    return getattr(app.view_functions[endpoint], "required_role", None)


def write_rules(app):
    for rule in app.url_map.iter_rules():
        methods = (rule.methods or set()) & UNSAFE
        if methods and rule.endpoint != "static":
            yield rule, sorted(methods)


def fill(rule, value=1):
    """A concrete URL for a rule: every argument is ``value`` (or the first choice)."""
    path = rule.rule
    for converter in re.findall(r"<([^>]+)>", path):
        if converter.startswith("any("):
            choice = converter[4:converter.index(")")].split(",")[0].strip()
            path = path.replace(f"<{converter}>", choice)
        else:
            path = path.replace(f"<{converter}>", str(value))
    return path


def snapshot(app):
    with app.app_context():
        tables = [name for name in inspect(db.engine).get_table_names() if name != "audit_log"]
        return {name: sorted(map(repr, db.session.execute(text(f'SELECT * FROM "{name}"'))))
                for name in tables}


def test_every_write_route_declares_its_role(app):
    undeclared, public = [], []
    for rule, methods in write_rules(app):
        role = role_of(app, rule.endpoint)
        if role not in security.ROLES:
            undeclared.append(f"{'/'.join(methods)} {rule.rule} ({rule.endpoint})")
        elif role == security.PUBLIC:
            public.append(rule.endpoint)
    assert not undeclared, "write routes without a role:\n" + "\n".join(undeclared)
    assert set(public) <= PUBLIC_WRITES, f"unexpected public writes: {set(public) - PUBLIC_WRITES}"
    assert len(list(write_rules(app))) >= 10  # the map really was walked


def protected_rules(app):
    return [(rule, methods) for rule, methods in write_rules(app)
            if role_of(app, rule.endpoint) in (security.DIRECTOR, security.DEALER)]


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong-token"}],
                         ids=["anonymous", "wrong-token"])
def test_no_protected_write_succeeds_without_credentials(app, client, make_tournament,
                                                         headers):
    tournament_id = make_tournament()
    before = snapshot(app)
    refused = 0
    for rule, methods in protected_rules(app):
        url = fill(rule, tournament_id)
        for method in methods:
            response = client.open(url, method=method, json={"name": "x"}, headers=headers)
            location = response.headers.get("Location", "")
            assert response.status_code in (401, 403) or (
                response.status_code == 302 and "/login" in location
            ), f"{method} {url} answered {response.status_code}"
            refused += 1
    assert refused >= 10
    assert snapshot(app) == before


def test_a_session_without_csrf_token_cannot_write(app, client, login, make_tournament):
    tournament_id = make_tournament()
    login()
    before = snapshot(app)
    for rule, methods in protected_rules(app):
        url = fill(rule, tournament_id)
        for method in methods:
            response = client.open(url, method=method, data={"name": "x"})
            assert response.status_code == 400, f"{method} {url}: {response.status_code}"
    assert snapshot(app) == before


def test_a_dealer_of_another_table_cannot_write(app, client, make_tournament):
    tournament_id = make_tournament()
    with client.session_transaction() as session:
        session[security.DEALER_SESSION_KEY] = 987654
    before = snapshot(app)
    for rule, methods in protected_rules(app):
        url = fill(rule, tournament_id)
        for method in methods:
            response = client.open(url, method=method, json={},
                                   headers={"X-CSRF-Token": "x"})
            assert response.status_code in (302, 400, 401, 403), f"{method} {url}"
    assert snapshot(app) == before
