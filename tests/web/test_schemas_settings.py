"""Issue 7: the seating settings, the money settings and the deal are declared bodies
(``director.schemas``): a malformed body is a 400 naming the field in the director's
words, and nothing is written; a partial seating update keeps what it does not send."""

from __future__ import annotations

import ast
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from director.db import db
from director.models.money import MoneySettings, Payment
from director.models.seating import SeatingSettings
from tests.conftest import break_, level

VIEWS = Path(__file__).resolve().parents[2] / "director" / "views"

MONEY = {"currency": "EUR", "buy_in": "100", "fee": "10", "starting_stack": 20_000,
         "late_registration_level": 2, "rebuy": True, "rebuy_price": "100",
         "rebuy_chips": 20_000, "rebuy_until": 2, "payout_template": "custom",
         "custom_payouts": "60, 40"}
SEATING = {"table_size": 9, "balance_threshold": 2, "halt_short_by": 3, "final_table_size": 8,
           "hand_for_hand_seconds": 90, "redraw_at_tables": [1], "breaking_order": [3, 2, 1],
           "stud_only": False}


@pytest.fixture
def tid(make_tournament: Callable[..., int]) -> int:
    return make_tournament(levels=[level(25, 50), break_(600), level(50, 100)])


def stored(client: FlaskClient, tid: int) -> dict[str, Any]:
    """Everything these bodies can write, read straight from the database."""
    with client.application.app_context():
        seating = db.session.get(SeatingSettings, tid)
        money = db.session.get(MoneySettings, tid)
        return {"policy": seating and seating.policy,
                "money": money and money.settings, "deal": money and money.deal,
                "payments": db.session.query(Payment).count()}


def post(client: FlaskClient, auth: dict[str, str], url: str, body: Any) -> Any:
    return client.post(url, json=body, headers=auth)


# ---------------------------------------------------------------- seating settings

@pytest.mark.parametrize("body, field, sentence", [
    ({"table_size": "nine"}, "table_size", "Table size must be a whole number, not “nine”"),
    ({"table_size": True}, "table_size", "Table size must be a whole number"),
    ({"table_size": 8.0}, "table_size", "Table size must be a whole number"),
    ({"table_size": 10**30}, "table_size", "Table size must be between 6 and 10"),
    ({"table_size": "9" * 40}, "table_size", "Table size must be between 6 and 10"),
    ({"table_size": 7}, "table_size", "Tables seat 6, 8, 9 or 10 players"),
    ({"balance_threshold": 0}, "balance_threshold", "Balance threshold must be between 1 and 5"),
    ({"hand_for_hand_seconds": 181}, "hand_for_hand_seconds", "between 1 and 180"),
    ({"final_table_size": 5}, "final_table_size", "Final table size must be between 6 and 10"),
    ({"redraw_at_tables": [True]}, "redraw_at_tables",
     "Redraw points must be a list of table numbers like 3, 2, 1"),
    ({"redraw_at_tables": {"1": 1}}, "redraw_at_tables", "must be a list of table numbers"),
    ({"breaking_order": [2, 2]}, "breaking_order", "Breaking order lists a table twice"),
    ({"breaking_order": "3, 0"}, "breaking_order", "Breaking order: 0 is not a table number"),
    ({"stud_only": 1}, "stud_only", "Stud only is yes or no"),
    ({"stud_only": "maybe"}, "stud_only", "Stud only is yes or no"),
])
def test_a_malformed_seating_settings_body_is_a_400_naming_the_field_and_writes_nothing(
        client: FlaskClient, auth: dict[str, str], tid: int, body: dict[str, Any], field: str,
        sentence: str) -> None:
    url = f"/api/tournaments/{tid}/seating/settings"
    assert post(client, auth, url, SEATING).status_code == 200
    before = stored(client, tid)
    response = post(client, auth, url, body)
    assert response.status_code == 400
    assert sentence in response.get_json()["errors"][field]
    assert stored(client, tid) == before


@pytest.mark.parametrize("body", [[1, 2], "table_size=9", 9, None])
def test_a_seating_settings_body_that_is_not_an_object_is_refused(
        client: FlaskClient, auth: dict[str, str], tid: int, body: Any) -> None:
    response = post(client, auth, f"/api/tournaments/{tid}/seating/settings", body)
    assert response.status_code == 400 and "body" in response.get_json()["errors"]
    assert stored(client, tid)["policy"] is None


def test_a_partial_seating_update_keeps_every_value_it_does_not_send(
        client: FlaskClient, auth: dict[str, str], tid: int) -> None:
    url = f"/api/tournaments/{tid}/seating/settings"
    assert post(client, auth, url, SEATING).status_code == 200
    first = stored(client, tid)
    response = post(client, auth, url, {"balance_threshold": 1})
    assert response.status_code == 200, response.get_json()
    policy = response.get_json()["policy"]
    assert policy["balance_threshold"] == 1
    assert (policy["table_size"], policy["halt_short_by"], policy["final_table_size"],
            policy["hand_for_hand_seconds"]) == (9, 3, 8, 90)
    assert list(policy["redraw_at_tables"]) == [1] and list(policy["breaking_order"]) == [3, 2, 1]
    assert stored(client, tid)["policy"]["stud_only"] == first["policy"]["stud_only"]
    # null clears the final table size and the breaking order; the rest stays.
    cleared = post(client, auth, url, {"final_table_size": None, "breaking_order": None})
    policy = cleared.get_json()["policy"]
    assert policy["final_table_size"] is None and list(policy["breaking_order"]) == []
    assert policy["table_size"] == 9 and list(policy["redraw_at_tables"]) == [1]


def test_the_seating_settings_form_parses_text_and_shows_the_errors_inline(
        client: FlaskClient, tid: int, login: Callable[[], None], csrf: Callable[[], str]) -> None:
    login()
    url = f"/director/{tid}/seating/settings"
    form = {"table_size": "8", "balance_threshold": "1", "halt_short_by": "2",
            "final_table_size": "", "hand_for_hand_seconds": "1,20", "redraw_at_tables": "",
            "breaking_order": "2 1", "stud_only": "no"}
    assert client.post(url, data={"csrf_token": csrf(), **form}).status_code == 302
    saved = stored(client, tid)
    assert saved["policy"]["table_size"] == 8 and saved["policy"]["hand_for_hand_seconds"] == 120
    assert list(saved["policy"]["breaking_order"]) == [2, 1]
    bad = client.post(url, data={"csrf_token": csrf(), **form, "balance_threshold": "true",
                                 "halt_short_by": "lots"})
    html = bad.get_data(as_text=True)
    assert bad.status_code == 400
    assert "Balance threshold must be a whole number, not “true”" in html
    assert "Halt play when short by must be a whole number, not “lots”" in html
    assert stored(client, tid) == saved


# ---------------------------------------------------------------- money settings

@pytest.mark.parametrize("changes, field, sentence", [
    ({"buy_in": True}, "buy_in", "The buy-in must be an amount like 110 or 110.50"),
    ({"buy_in": "ten"}, "buy_in", "The buy-in must be an amount like 110 or 110.50, not “ten”"),
    ({"buy_in": "NaN"}, "buy_in", "The buy-in must be an amount like 110 or 110.50"),
    ({"buy_in": "1e400"}, "buy_in", "The buy-in is too large"),
    ({"buy_in": None}, "buy_in", "The buy-in is required"),
    ({"fee": [10]}, "fee", "The house fee must be an amount like 110 or 110.50"),
    ({"fee": "0.001"}, "fee", "The house fee has more than 2 decimals"),
    ({"starting_stack": 1.5}, "starting_stack", "The starting stack must be a whole number"),
    ({"starting_stack": True}, "starting_stack", "The starting stack must be a whole number"),
    ({"starting_stack": 10**30}, "starting_stack", "The starting stack must be between 1 and"),
    ({"starting_stack": -3}, "starting_stack", "The starting stack cannot be negative (-3)"),
    ({"late_registration_level": "2.5"}, "late_registration_level", "whole number, not “2.5”"),
    ({"re_entry": 1}, "re_entry", "Re-entry is yes or no"),
    ({"rebuy": "maybe"}, "rebuy", "Rebuys is yes or no"),
    ({"rebuy_chips": None}, "rebuy_chips", "The rebuy chips is required"),
    ({"payout_template": "winner-takes-all"}, "payout_template", "The payout table is one of"),
    ({"custom_payouts": "60, 30"}, "custom_payouts", "adds up to 90 %, not 100 %"),
    ({"currency": "EURO"}, "currency", "“EURO” is not a currency code"),
    ({"currency": 978}, "currency", "Give text"),
])
def test_a_malformed_money_settings_body_is_a_400_naming_the_field_and_writes_nothing(
        client: FlaskClient, auth: dict[str, str], tid: int, changes: dict[str, Any], field: str,
        sentence: str) -> None:
    url = f"/api/tournaments/{tid}/money/settings"
    assert post(client, auth, url, MONEY).status_code == 200
    before = stored(client, tid)
    response = post(client, auth, url, {**MONEY, **changes})
    assert response.status_code == 400
    assert sentence in response.get_json()["errors"][field]
    assert stored(client, tid) == before


def test_every_mistake_of_the_money_body_is_named_at_once(
        client: FlaskClient, auth: dict[str, str], tid: int) -> None:
    response = post(client, auth, f"/api/tournaments/{tid}/money/settings",
                    {**MONEY, "buy_in": "-5", "rebuy_until": None, "custom_payouts": "x"})
    assert response.status_code == 400
    errors = response.get_json()["errors"]
    assert errors["buy_in"] == "The buy-in cannot be negative (-5)"
    assert errors["rebuy_until"] == "The last rebuy level is required"
    assert "not a number" in errors["custom_payouts"]
    assert stored(client, tid)["money"] is None


@pytest.mark.parametrize("body", [[MONEY], "buy_in=100", 100, None])
def test_a_money_settings_body_that_is_not_an_object_is_refused(
        client: FlaskClient, auth: dict[str, str], tid: int, body: Any) -> None:
    response = post(client, auth, f"/api/tournaments/{tid}/money/settings", body)
    assert response.status_code == 400 and "body" in response.get_json()["errors"]
    assert stored(client, tid)["money"] is None


def test_the_money_settings_form_reads_typed_amounts_and_an_unticked_box_is_off(
        client: FlaskClient, tid: int, login: Callable[[], None], csrf: Callable[[], str]) -> None:
    login()
    form = {"currency": "sek", "buy_in": "1 250.50", "fee": "", "starting_stack": "20,000",
            "late_registration_level": "", "unit": "1", "guarantee": "0",
            "rebuy_price": "oops", "payout_template": "standard"}
    response = client.post(f"/director/{tid}/money", data={"csrf_token": csrf(), **form})
    html = response.get_data(as_text=True)
    # Rebuys are off (no box ticked), but a rebuy price that is not an amount is still named.
    assert response.status_code == 400 and "The rebuy price must be an amount like" in html
    assert stored(client, tid)["money"] is None
    response = client.post(f"/director/{tid}/money",
                           data={"csrf_token": csrf(), **form, "rebuy_price": ""})
    assert response.status_code == 302
    money = stored(client, tid)["money"]
    assert (money["currency"], money["buy_in_prize"], money["buy_in_fee"]) == ("SEK", 125_050, 0)
    assert money["starting_stack"] == 20_000 and money["late_registration_level"] == 0
    assert money["rebuy"] is False and money["re_entry"] is False


# ---------------------------------------------------------------- the deal

@pytest.fixture
def final_three(client: FlaskClient, auth: dict[str, str], tid: int) -> list[int]:
    """Three players left of four; 60/40 of €400 still to win."""
    assert post(client, auth, f"/api/tournaments/{tid}/money/settings", MONEY).status_code == 200
    ids = [post(client, auth, f"/api/tournaments/{tid}/money/entries",
                {"kind": "buy-in", "name": name}).get_json()["player_id"]
           for name in ("Anna", "Bo", "Cia", "Dag")]
    assert post(client, auth, f"/api/tournaments/{tid}/seating/eliminate",
                {"player_ids": [ids[3]]}).status_code == 200
    return ids[:3]


STACKS = [  # read by the quote and by the deal
    ({"method": "coin flip"}, "method", "The deal is one of: icm, chip-chop, chip-chop-floor"),
    ({"method": 1}, "method", "The deal is one of"),
    ({"stack_{0}": "lots"}, "stack_{0}", "Anna's stack must be a whole number, not “lots”"),
    ({"stack_{0}": True}, "stack_{0}", "Anna's stack must be a whole number"),
    ({"stack_{1}": 10**30}, "stack_{1}", "Bo's stack must be between 1 and"),
    ({"stack_{1}": -5}, "stack_{1}", "Bo's stack cannot be negative (-5)"),
    ({"stack_{2}": 2.5}, "stack_{2}", "Cia's stack must be a whole number"),
]
AMOUNTS = [  # read by the deal only
    ({"amount_{0}": False}, "amount_{0}", "Anna's amount must be an amount like 110 or 110.50"),
    ({"amount_{0}": "-1"}, "amount_{0}", "Anna's amount cannot be negative (-1)"),
    ({"amount_{1}": "10.001"}, "amount_{1}", "Bo's amount has more than 2 decimals: 10.001"),
    ({"amount_{2}": "1e999"}, "amount_{2}", "Cia's amount is too large"),
]


@pytest.mark.parametrize("path, body, field, sentence",
                         [("deal/quote", *case) for case in STACKS]
                         + [("deal", *case) for case in STACKS + AMOUNTS])
def test_a_malformed_deal_is_a_400_naming_the_field_and_pays_nothing(
        client: FlaskClient, auth: dict[str, str], tid: int, final_three: list[int], path: str,
        body: dict[str, Any], field: str, sentence: str) -> None:
    before = stored(client, tid)
    named = {key.format(*final_three): value for key, value in body.items()}
    response = post(client, auth, f"/api/tournaments/{tid}/money/{path}", named)
    assert response.status_code == 400
    assert sentence in response.get_json()["errors"][field.format(*final_three)]
    assert stored(client, tid) == before


@pytest.mark.parametrize("body", [["icm"], "method=icm", 3, None])
def test_a_deal_body_that_is_not_an_object_is_refused(
        client: FlaskClient, auth: dict[str, str], tid: int, final_three: list[int],
        body: Any) -> None:
    before = stored(client, tid)
    for path in ("deal/quote", "deal"):
        response = post(client, auth, f"/api/tournaments/{tid}/money/{path}", body)
        assert response.status_code == 400 and "body" in response.get_json()["errors"]
    assert stored(client, tid) == before


def test_the_deal_page_names_a_bad_amount_keeps_the_calculation_and_pays_nothing(
        client: FlaskClient, tid: int, final_three: list[int], login: Callable[[], None],
        csrf: Callable[[], str]) -> None:
    login()
    before = stored(client, tid)
    anna, bo, cia = final_three
    form = {"csrf_token": csrf(), "method": "chip-chop", f"stack_{anna}": "20,000",
            f"stack_{bo}": "20000", f"stack_{cia}": "40000", f"amount_{anna}": "a lot"}
    response = client.post(f"/director/{tid}/deal", data=form)
    html = unescape(response.get_data(as_text=True))
    assert response.status_code == 400
    assert "Anna's amount must be an amount like 110 or 110.50, not “a lot”" in html
    assert 'id="deal-table"' in html and "Save and pay" in html   # the calculation is shown
    assert stored(client, tid) == before


# ---------------------------------------------------------------- no body read without a schema

BODY_READS = ("get_json", "json", "form", "data", "get_data", "values")
LOADERS = ("form_body", "json_body", "load")


def _reads_and_loads(function: ast.AST) -> tuple[list[int], bool]:
    """Lines where ``function`` reads the request body outside an ``except`` clause,
    and whether it calls a schema loader (``form_body``, ``json_body``, ``X.load``)."""
    reads: list[int] = []
    loads = False
    handlers = {id(node) for handler in ast.walk(function)
                if isinstance(handler, ast.ExceptHandler) for node in ast.walk(handler)}
    for node in ast.walk(function):
        if (isinstance(node, ast.Attribute) and node.attr in BODY_READS
                and isinstance(node.value, ast.Name) and node.value.id == "request"
                and id(node) not in handlers):
            reads.append(node.lineno)
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else \
                getattr(node.func, "id", "")
            loads = loads or name in LOADERS
    return reads, loads


def _answers_a_refusal(function: ast.FunctionDef) -> bool:
    """Whether ``function`` is given an ``Invalid`` (the page shown again after a refusal)."""
    return any(isinstance(arg.annotation, ast.Name) and arg.annotation.id == "Invalid"
               for arg in function.args.args)


@pytest.mark.parametrize("module", ["money.py", "seating.py"])
def test_every_body_these_views_read_goes_through_a_schema(module: str) -> None:
    """A function that reads ``request.form``/``request.get_json()`` must load a schema
    itself; re-showing what was typed after an error (in an ``except``, or in a function
    given the refusal, ``exc: Invalid``: a form's own answer to a refused body) is allowed."""
    tree = ast.parse((VIEWS / module).read_text(encoding="utf-8"))
    unchecked = []
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef) and not _answers_a_refusal(function):
            reads, loads = _reads_and_loads(function)
            if reads and not loads:
                unchecked.append((function.name, reads))
    assert unchecked == []


def test_the_source_walk_finds_a_body_read_without_a_schema() -> None:
    reads, loads = _reads_and_loads(ast.parse(
        "def save(tid):\n    return service.save(tid, request.form.to_dict())\n"))
    assert reads == [2] and not loads
    reads, loads = _reads_and_loads(ast.parse(
        "def save(tid):\n    try:\n        service.save(tid, form_body(S))\n"
        "    except Invalid:\n        return page(request.form)\n"))
    assert reads == [] and loads
