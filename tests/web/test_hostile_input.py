"""Hostile request bodies: nested too deep, too large (issue 26, items 2 and 10).

Every write route in the URL map is sent 100,000 nested lists, as the director
(so that the route's own code runs) and anonymously: each answers 400 with a
sentence, none a 500 (the JSON parser used to raise RecursionError).
"""

from __future__ import annotations

import pytest

from director.schemas import FieldError, JsonText, json_body, json_depth
from director.services import Invalid
from tests.conftest import level
from tests.web.test_roles_url_map import fill, write_rules

DEEP = b"[" * 100_000 + b"]" * 100_000


@pytest.mark.parametrize("who", ["director", "anonymous"])
def test_every_write_route_answers_100000_nested_lists_with_a_400(app, client, auth,
                                                                   make_tournament, who):
    tournament_id = make_tournament()
    headers = auth if who == "director" else {}
    answered = 0
    for rule, methods in write_rules(app):
        url = fill(rule, tournament_id)
        for method in methods:
            response = client.open(url, method=method, data=DEEP, headers=headers,
                                   content_type="application/json")
            assert response.status_code == 400, f"{method} {url}: {response.status_code}"
            if url.startswith("/api/"):
                body = response.get_json()
                assert "nested deeper than 32 levels" in body["errors"]["body"], body
            answered += 1
    assert answered >= 100


def test_deep_json_sent_as_text_plain_is_refused_too(client, auth):
    # json_body reads any body as JSON (force=True), whatever its content type.
    response = client.post("/api/tournaments", data=DEEP, headers=auth,
                           content_type="text/plain")
    assert response.status_code == 400


def test_brackets_inside_strings_do_not_count(client, auth):
    response = client.post("/api/tournaments", headers=auth, json={
        "name": "[" * 50 + "{" * 50, "levels": [{**level(25, 50), "note": '"[[[{{{\\"' * 10}]})
    assert response.status_code == 201, response.get_json()


def test_a_body_nested_32_deep_is_read_and_33_is_refused(client, auth):
    read = client.post("/api/tournaments", data=b"[" * 31 + b"{}" + b"]" * 31, headers=auth,
                       content_type="application/json")
    assert read.status_code == 400      # parsed: a list is not the object the route takes
    assert read.get_json()["errors"]["body"] == "The body must be a JSON object"
    refused = client.post("/api/tournaments", data=b"[" * 32 + b"{}" + b"]" * 32,
                          headers=auth, content_type="application/json")
    assert refused.status_code == 400
    assert refused.get_json()["errors"]["body"] == \
        "The JSON body is nested deeper than 32 levels"


def test_json_body_and_json_text_guard_their_depth_without_the_hook(app):
    # The schemas are safe on their own, whoever calls them.
    with app.test_request_context("/x", method="POST", data=DEEP,
                                  content_type="application/json"):
        with pytest.raises(Invalid) as caught:
            json_body()
        assert "nested deeper" in caught.value.errors["body"]
        with pytest.raises(FieldError):
            JsonText(kind=list, message="Give a list").load(DEEP.decode(), form=True)
    assert json_depth('{"a": "[[[[", "b": [[{}]]}') == 4


def test_a_body_over_2_mb_is_answered_with_a_sentence_in_json(client, auth):
    big = b'{"name": "' + b"x" * (2 * 1024 * 1024 + 10) + b'"}'
    response = client.post("/api/tournaments", data=big, headers=auth,
                           content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["error"] == "The body is larger than 2 MB"


def test_deep_json_typed_into_a_form_is_refused_not_a_500(client, login, csrf, make_tournament):
    # A form's text box is not a JSON body: the service guards its own parsing.
    tid = make_tournament()
    login()
    deep = DEEP.decode()
    wizard = client.post("/director/wizard/apply", data={
        "csrf_token": csrf(), "tournament_id": str(tid), "structure_json": deep})
    assert wizard.status_code == 302
    event_file = client.post(f"/director/{tid}/import", data={
        "csrf_token": csrf(), "structure_json": deep})
    assert event_file.status_code == 400
    assert "nested deeper than 32 levels" in event_file.get_data(as_text=True)
