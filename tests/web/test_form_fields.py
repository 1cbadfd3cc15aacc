"""A form route refuses a field it does not know, naming it, and changes nothing; what its
pages send still works.

The forms are read from the pages themselves (``html.parser``): every ``<form
method="post">`` of the director's pages, with the fields a browser would send (hidden
inputs, typed values, checked boxes, selected options, the first named submit button,
inputs outside the form that name it with ``form=``).  Sent as they are, no field is
refused; sent with ``x=1``, the answer is a 400 saying ``x`` is not one of the request's
fields, and the database is as it was.  The walk of ``app.url_map`` checks that every
route that reads a form declares its fields (``director.schemas.form_fields``) or takes
none (``no_body``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.test_bodiless_routes import _bust, post, room  # noqa: F401, F811  (a fixture)
from tests.web.test_roles_url_map import snapshot, write_rules

Json = dict[str, Any]
REFUSED = "is not one of this request"      # the sentence naming a stray field
# Forms not sent as they are: they end the session or delete the event the others need.
NOT_SENT = ("/logout", "/delete", "/end-others")


class Forms(HTMLParser):
    """The post forms of a page: ``[(action, [(name, value), ...]), ...]``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict[str, Any]] = []
        self.by_id: dict[str, dict[str, Any]] = {}
        self.current: dict[str, Any] | None = None
        self.select: tuple[dict[str, Any], str, bool] | None = None
        self.options: list[tuple[str, bool]] = []
        self.textarea: tuple[dict[str, Any], str] | None = None
        self.text = ""

    def owner(self, attrs: dict[str, str | None]) -> dict[str, Any] | None:
        if attrs.get("form"):
            return self.by_id.get(str(attrs["form"]))
        return self.current

    def handle_starttag(self, tag: str, pairs: list[tuple[str, str | None]]) -> None:
        attrs = dict(pairs)
        if tag == "form":
            form = {"action": attrs.get("action") or "", "method": (attrs.get("method") or "get").lower(),
                    "fields": [], "buttons": []}
            self.current = form
            self.forms.append(form)
            if attrs.get("id"):
                self.by_id[str(attrs["id"])] = form
            return
        form = self.owner(attrs)
        name = attrs.get("name")
        if form is None or not name or "disabled" in attrs:
            return
        if tag == "input":
            kind = (attrs.get("type") or "text").lower()
            if kind in ("submit", "image"):
                form["buttons"].append((name, attrs.get("value") or ""))
            elif kind in ("checkbox", "radio"):
                if "checked" in attrs:
                    form["fields"].append((name, attrs.get("value") or "on"))
            elif kind not in ("file", "reset", "button"):
                form["fields"].append((name, attrs.get("value") or ""))
        elif tag == "button" and (attrs.get("type") or "submit").lower() == "submit":
            form["buttons"].append((name, attrs.get("value") or ""))
        elif tag == "select":
            self.select, self.options = (form, name, "multiple" in attrs), []
        elif tag == "option" and self.select is not None:
            self.options.append((attrs.get("value") or "", "selected" in attrs))
        elif tag == "textarea":
            self.textarea, self.text = (form, name), ""

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None
        elif tag == "select" and self.select is not None:
            form, name, multiple = self.select
            chosen = [value for value, selected in self.options if selected]
            if not chosen and not multiple and self.options:
                chosen = [self.options[0][0]]
            form["fields"].extend((name, value) for value in chosen)
            self.select = None
        elif tag == "textarea" and self.textarea is not None:
            form, name = self.textarea
            form["fields"].append((name, self.text.removeprefix("\n")))
            self.textarea = None


def post_forms(html: str) -> list[tuple[str, list[tuple[str, str]]]]:
    parser = Forms()
    parser.feed(html)
    return [(form["action"], form["fields"] + form["buttons"][:1])
            for form in parser.forms if form["method"] == "post" and form["action"]]


def _send(client: FlaskClient, action: str, fields: list[tuple[str, str]]) -> Any:
    data: dict[str, list[str]] = {}
    for name, value in fields:
        data.setdefault(name, []).append(value)
    return client.post(action, data=data)


@pytest.fixture
def event(client: FlaskClient, auth: dict[str, str], room: Callable[..., Json]) -> Json:  # noqa: F811
    """An event with eleven players seated, a bust's moves proposed, a waiting list of one,
    and a chip set."""
    ids = room()
    tid = ids["tournament_id"]
    _bust(client, auth, ids)
    post(client, auth, f"/api/tournaments/{tid}/waiting-list", json={"name": "Late Larry"})
    client.put(f"/api/tournaments/{tid}/chips", json={"chip_set": "25, 100, 500"}, headers=auth)
    return ids


PAGES = ["/director/", "/director/{tid}", "/director/{tid}/seating", "/director/{tid}/desk",
         "/director/{tid}/money", "/director/{tid}/phone", "/director/{tid}/house-rules",
         "/director/{tid}/chip-race", "/director/{tid}/deal", "/director/new",
         "/director/wizard", "/director/players", "/director/players/leagues",
         "/director/password", "/dealer/pair", "/login"]


@pytest.mark.parametrize("page", PAGES)
def test_each_form_of_a_page_refuses_a_stray_field_and_takes_what_it_sends(
        app: Flask, client: FlaskClient, login: Callable[[], None], event: Json,
        page: str) -> None:
    login()
    url = page.format(tid=event["tournament_id"])
    forms = post_forms(client.get(url).get_data(as_text=True))
    assert forms, f"{url}: no form read"
    for action, fields in forms:
        if ("back", "phone") in fields:     # answered on the phone: the test below
            continue
        before = snapshot(app)
        refused = _send(client, action, [*fields, ("x", "1")])
        said = refused.get_data(as_text=True)
        assert refused.status_code == 400, (action, refused.status_code, said[:500])
        assert f"x {REFUSED}" in said, (action, said)
        assert snapshot(app) == before, action
    for action, _fields in forms:
        if action.endswith(NOT_SENT):
            continue
        now = dict(reversed(post_forms(client.get(url).get_data(as_text=True))))
        if action not in now:             # gone with what the forms before it did
            continue
        fields = now[action]
        done = _send(client, action, fields)
        said = done.get_data(as_text=True)
        assert done.status_code < 500, (action, done.status_code)
        assert REFUSED not in said, (action, fields, said)
        if done.status_code == 302:       # a refusal said after a redirect, in a flash
            follow = client.get(done.headers["Location"]).get_data(as_text=True)
            assert REFUSED not in follow, (action, fields)


def test_a_form_from_the_phone_refused_goes_back_to_the_phone(
        app: Flask, client: FlaskClient, login: Callable[[], None], event: Json) -> None:
    tid = event["tournament_id"]
    login()
    sent = 0
    for action, fields in post_forms(client.get(f"/director/{tid}/phone").get_data(as_text=True)):
        if ("back", "phone") not in fields or "/announcement" in action:
            continue
        before = snapshot(app)
        refused = _send(client, action, [*fields, ("x", "1")])
        assert refused.status_code == 302, action
        assert refused.headers["Location"].endswith(f"/director/{tid}/phone")
        assert REFUSED in client.get(refused.headers["Location"]).get_data(as_text=True)
        assert snapshot(app) == before
        sent += 1
    assert sent >= 2      # the bust and the seat sold


def test_a_deal_with_a_player_not_in_it_is_refused_on_the_deal_page(
        app: Flask, client: FlaskClient, login: Callable[[], None], csrf: Callable[[], str],
        event: Json) -> None:
    tid = event["tournament_id"]
    login()
    before = snapshot(app)
    refused = client.post(f"/director/{tid}/deal",
                          data={"csrf_token": csrf(), "method": "chip", "stack_999999": "10"})
    assert refused.status_code == 400
    assert f"stack_999999 {REFUSED}" in refused.get_data(as_text=True)
    assert snapshot(app) == before


def test_a_json_body_sent_to_a_form_route_names_its_stray_field(
        app: Flask, client: FlaskClient, auth: dict[str, str], event: Json) -> None:
    tid = event["tournament_id"]
    before = snapshot(app)
    for url in (f"/director/{tid}/duplicate", f"/director/{tid}/time-zone",
                f"/director/{tid}/announcement"):
        answer = client.post(url, json={"x": 1}, headers=auth)
        assert answer.status_code == 400, url
        assert REFUSED in answer.get_data(as_text=True)
    assert snapshot(app) == before


# What reads a form in a view's own source.
FORM_READERS = ("form_body(", "request.form", "request.files", "from_phone(", "_act(")


def test_every_route_that_reads_a_form_declares_its_fields(app: Flask) -> None:
    undeclared = []
    for rule, methods in write_rules(app):
        view = app.view_functions[rule.endpoint]
        source = inspect.getsource(inspect.unwrap(view))
        if any(reader in source for reader in FORM_READERS) \
                and not hasattr(view, "takes_form") and not hasattr(view, "takes_no_body") \
                and not getattr(view, "file_body", False):
            undeclared.append(f"{'/'.join(methods)} {rule.rule} ({rule.endpoint})")
    assert not undeclared, ("routes that read a form without declaring its fields "
                            "(director.schemas.form_fields):\n" + "\n".join(undeclared))
    declared = [rule for rule, _methods in write_rules(app)
                if hasattr(app.view_functions[rule.endpoint], "takes_form")]
    assert len(declared) >= 30     # the map really was walked
