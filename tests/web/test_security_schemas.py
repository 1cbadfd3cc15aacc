"""The one request-body validation layer (``director.schemas``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from director.schemas import (
    Bool,
    Choice,
    Int,
    List,
    Nested,
    Number,
    Schema,
    Str,
    form_body,
    json_body,
)
from director.services import Invalid

ACTION = Schema({
    "seat": Int(min=1, max=10),
    "action": Choice(choices=["fold", "check", "call", "bet", "raise"]),
    "amount": Int(min=0, nullable=True, required=False),
    "version": Int(min=0),
    "idempotency_key": Str(max_len=100, required=False),
})


def errors(schema, data, **kwargs):
    with pytest.raises(Invalid) as caught:
        schema.load(data, **kwargs)
    return caught.value.errors


def test_a_good_body_loads_with_defaults():
    assert ACTION.load({"seat": 3, "action": "call", "version": 0}) == {
        "seat": 3, "action": "call", "amount": None, "version": 0, "idempotency_key": None}


@pytest.mark.parametrize(("data", "field", "words"), [
    ({"action": "call", "version": 0}, "seat", "required"),
    ({"seat": True, "action": "call", "version": 0}, "seat", "whole number"),
    ({"seat": 3.0, "action": "call", "version": 0}, "seat", "whole number"),
    ({"seat": "3", "action": "call", "version": 0}, "seat", "whole number"),
    ({"seat": 11, "action": "call", "version": 0}, "seat", "at most 10"),
    ({"seat": 0, "action": "call", "version": 0}, "seat", "at least 1"),
    ({"seat": 1, "action": "shove", "version": 0}, "action", "fold, check"),
    ({"seat": 1, "action": "call", "version": 10**30}, "version", "too large"),
    ({"seat": 1, "action": "call", "version": None}, "version", "required"),
    ({"seat": 1, "action": "call", "version": 0, "amount": -5}, "amount", "at least 0"),
    ({"seat": 1, "action": "call", "version": 0, "idempotency_key": "x" * 101},
     "idempotency_key", "at most 100"),
])
def test_each_bad_value_names_its_field(data, field, words):
    found = errors(ACTION, data)
    assert set(found) == {field} and words in found[field]


def test_every_bad_field_is_named_at_once_and_a_non_object_is_the_body():
    assert set(errors(ACTION, {"seat": "x", "action": 1})) == {"seat", "action", "version"}
    assert set(errors(ACTION, [1, 2])) == {"body"}


def test_forms_parse_text_and_extra_fields_can_be_forbidden():
    form = Schema({"seat": Int(min=1), "on": Bool(required=False, default=False),
                   "chips": Number(min=0)}, extra="forbid")
    assert form.load({"seat": "4", "on": "yes", "chips": "2.5", "csrf_token": "t"},
                     form=True) == {"seat": 4, "on": True, "chips": 2.5}
    assert set(errors(form, {"seat": "4", "chips": "1", "evil": "1"}, form=True)) == {"evil"}
    assert errors(form, {"seat": "٣", "chips": "1"}, form=True)["seat"] == "Give a whole number"
    assert "too large" in errors(form, {"seat": 1, "chips": float("inf")})["chips"]


def test_lists_and_nested_objects_name_the_inner_field():
    schema = Schema({"absent_seats": List(item=Int(min=1, max=10), max_items=10),
                     "player": Nested(schema=Schema({"name": Str(min_len=1)}))})
    assert schema.load({"absent_seats": [1, 2], "player": {"name": " Ann "}}) == {
        "absent_seats": [1, 2], "player": {"name": "Ann"}}
    found = errors(schema, {"absent_seats": [1, 11], "player": {"name": ""}})
    assert found == {"absent_seats": "Item 2: Give a number of at most 10",
                     "player.name": "This is required"}


@given(st.dictionaries(st.sampled_from(["seat", "action", "amount", "version", "x"]),
                       st.one_of(st.none(), st.booleans(), st.integers(), st.floats(),
                                 st.text(max_size=5), st.lists(st.integers(), max_size=2))))
def test_load_either_returns_valid_values_or_names_fields(data):
    try:
        loaded = ACTION.load(data)
    except Invalid as exc:
        assert exc.errors and set(exc.errors) <= set(ACTION.fields)
    else:
        assert type(loaded["seat"]) is int and 1 <= loaded["seat"] <= 10
        assert loaded["action"] in ("fold", "check", "call", "bet", "raise")


def test_json_body_and_form_body_in_a_request(app):
    with app.test_request_context(json={"seat": 2, "action": "fold", "version": 1}):
        assert json_body(ACTION)["seat"] == 2
    with app.test_request_context(data=b"{oops", content_type="application/json"):
        with pytest.raises(Invalid) as caught:
            json_body(ACTION)
        assert set(caught.value.errors) == {"body"}
    with app.test_request_context(method="POST", data={"seat": "2", "action": "fold",
                                                       "version": "1"}):
        assert form_body(ACTION) == {"seat": 2, "action": "fold", "amount": None,
                                     "version": 1, "idempotency_key": None}
