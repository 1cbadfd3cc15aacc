"""The tablet's rulings come from the server (issue 27, item 4): the page gives the tablet
each ruling the server accepts with the fields the server checks (``dealer_bodies``),
so dealer.js lists no ruling of its own.  In a real browser:
tests/browser/test_tablet_ruling_forms.py."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from director.i18n import TRANSLATIONS
from director.schemas import Choice, Int, List
from director.services import dealer_bodies
from tests.conftest import level
from tests.web.test_dealer_helpers import seat_table
from tests.web.test_i18n_dealer import LOANWORDS_ID, LOANWORDS_SV, paired_tablet

NAMES = ["Ann", "Bo", "Cy", "Di"]


@pytest.fixture
def table(client: FlaskClient, make_tournament: Callable[..., int],
          auth: dict[str, str]) -> dict[str, Any]:
    return seat_table(client, make_tournament, auth, NAMES, levels=[level(100, 200)])


def english_tablet(app: Flask, table: dict[str, Any]) -> FlaskClient:
    tablet = app.test_client()
    assert tablet.post("/dealer/pair", data={"table": table["number"],
                                             "code": table["code"]}).status_code == 302
    return tablet


def offered(tablet: FlaskClient, table_id: int) -> list[dict[str, Any]]:
    """The rulings the tablet page gives dealer.js (its ``dealer-rulings`` block)."""
    html = tablet.get(f"/dealer/table/{table_id}").get_data(as_text=True)
    found = re.search(r'<script id="dealer-rulings" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the tablet page gives the rulings"
    return list(json.loads(found.group(1)))


def test_every_ruling_the_server_accepts_is_offered_with_exactly_the_fields_it_checks(
        app: Flask, table: dict[str, Any]) -> None:
    forms = offered(english_tablet(app, table), table["id"])
    accepted = dealer_bodies.RULING.fields["ruling"]
    assert isinstance(accepted, Choice)
    assert [form["kind"] for form in forms] == list(accepted.choices) == list(dealer_bodies.RULINGS)
    for form in forms:
        schema = dealer_bodies.RULINGS[form["kind"]]
        asked = {field["name"]: field for field in form["fields"]}
        left_out = set(schema.fields) - set(asked)
        assert set(asked) <= set(schema.fields), form["kind"]
        assert left_out <= set(dealer_bodies.NOT_ASKED), (form["kind"], left_out)
        for name, field in asked.items():
            spec = schema.fields[name]
            assert field["label"] and field["required"] == spec.required, (form["kind"], name)
            if isinstance(spec, Choice):
                values = [c["value"] for c in field["choices"]]
                assert values == ([""] if not spec.required else []) + list(spec.choices)
                assert all(c["label"] for c in field["choices"])
            elif isinstance(spec, Int):
                assert (field["min"], field["max"]) == (spec.min, spec.max)
            elif isinstance(spec, List):
                assert isinstance(spec.item, Int)
                assert (field["min"], field["max"]) == (spec.item.min, spec.item.max)
    # every field left out is one the server has, for a reason written down
    everywhere = {name for schema in dealer_bodies.RULINGS.values() for name in schema.fields}
    assert set(dealer_bodies.NOT_ASKED) <= everywhere


def _filled(field: dict[str, Any], to_act: int) -> Any:
    """What a dealer could put in a field of the form."""
    return {"seat": to_act, "number": max(field.get("min") or 0, 1),
            "bool": field.get("default", False), "text": "dealer dropped the deck",
            "list": [max(field.get("min") or 0, 100)], "cards": ["2c"],
            "exposed": [{"seat": to_act, "card": 1}],
            "choice": next((c["value"] for c in field.get("choices", ()) if c["value"]), None),
            }[field["input"]]


def _may_be_empty(field: dict[str, Any]) -> bool:
    """A box the dealer may leave empty (then not sent); a tick box, a seat, the card
    picker and a list without an empty choice always send their value."""
    if field["input"] == "choice":
        return any(c["value"] == "" for c in field["choices"])
    return field["input"] in ("number", "text", "list")


def test_a_ruling_filled_in_from_the_form_is_never_refused_for_its_fields(
        app: Flask, table: dict[str, Any]) -> None:
    """Every field the tablet asks is one the server reads: a preview made of them is
    ruled (200) or refused as the wrong ruling for this hand (422, one sentence), never a
    400 naming a field."""
    tablet = english_tablet(app, table)
    html = tablet.get(f"/dealer/table/{table['id']}").get_data(as_text=True)
    csrf = html.split('data-csrf="', 1)[1].split('"', 1)[0]
    headers = {"X-CSRF-Token": csrf}
    started = tablet.post(f"/api/tables/{table['id']}/hands", json={}, headers=headers)
    assert started.status_code == 201, started.get_json()
    to_act = started.get_json()["to_act"]
    for form in offered(tablet, table["id"]):
        for every in (False, True):          # the optional boxes left empty, then all filled
            body = {"ruling": form["kind"]}
            body.update({f["name"]: _filled(f, to_act) for f in form["fields"]
                         if every or f["required"] or not _may_be_empty(f)})
            answer = tablet.post(f"/api/tables/{table['id']}/hand/rulings", json=body,
                                 headers=headers)
            assert answer.status_code in (200, 422), (body, answer.get_json())
            assert "errors" not in answer.get_json(), (body, answer.get_json())


@pytest.mark.parametrize("language", ["sv", "id"])
def test_the_rulings_are_named_in_the_tablets_language(
        app: Flask, table: dict[str, Any], language: str) -> None:
    local = offered(paired_tablet(app, table, language), table["id"])
    english = offered(english_tablet(app, table), table["id"])

    def words(forms: list[dict[str, Any]]) -> list[str]:
        out = []
        for form in forms:
            out.append(form["label"])
            for field in form["fields"]:
                out.append(field["label"])
                out.extend(c["label"] for c in field.get("choices", ()))
        return out

    allowed = LOANWORDS_ID | {"complete"} if language == "id" else LOANWORDS_SV
    pairs = list(zip(words(english), words(local), strict=True))
    assert len(pairs) > 40
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as po:
        known = {message.id for message in read_po(po) if message.id and message.string
                 and not message.context}
    # English is left only for a loanword, or a label whose translation is still to come
    same = sorted({en for en, there in pairs if en == there} - allowed - (set(words(english)) - known))
    assert same == [], same
