"""The dealer tablet's bodies go through the schema layer (issue 7).

* no view of the dealer's API or pages reads the request body without loading
  a schema (a source walk, as tests/web/test_schemas_settings.py does for the
  money and seating views);
* the new field types (``Cards``, ``SeatCards``, ``SeatGroups``, ``Code``,
  ``JsonText``) read what a tablet sends and name what is wrong;
* every dealer endpoint answers a malformed body (wrong types, booleans as
  numbers, huge numbers, bad cards, a body that is not an object) with a 400
  naming the field, and stores nothing: the hand's version and log are unchanged.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from director.poker.cards import Card
from director.schemas import Cards, Code, FieldError, JsonText, SeatCards, SeatGroups
from director.services import Invalid
from director.services.dealer_bodies import RULINGS, ruling_body
from tests.web.test_dealer_helpers import play, seat_table

ROOT = Path(__file__).resolve().parents[2] / "director"
BODY_READS = ("get_json", "json", "form", "data", "get_data", "values", "files")
LOADERS = ("form_body", "json_body", "load", "ruling_body")


# ---------------------------------------------------------------- no body read without a schema

def _reads_and_loads(function: ast.AST) -> tuple[list[int], bool]:
    """Lines where ``function`` reads ``request``'s body outside an ``except`` clause,
    and whether it calls a schema loader."""
    handlers = {id(node) for handler in ast.walk(function)
                if isinstance(handler, ast.ExceptHandler) for node in ast.walk(handler)}
    reads = [node.lineno for node in ast.walk(function)
             if isinstance(node, ast.Attribute) and node.attr in BODY_READS
             and isinstance(node.value, ast.Name) and node.value.id == "request"
             and id(node) not in handlers]
    loads = any(isinstance(node, ast.Call) and (
        node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")) in LOADERS
        for node in ast.walk(function))
    return reads, loads


def _unchecked(path: Path) -> list[tuple[str, list[int]]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef):
            reads, loads = _reads_and_loads(function)
            if reads and not loads:
                out.append((function.name, reads))
    return out


@pytest.mark.parametrize("module", ["views/dealer_api.py", "views/dealer.py"])
def test_every_body_the_dealer_views_read_goes_through_a_schema(module: str) -> None:
    """A function that reads ``request.get_json()``/``request.form`` loads a schema itself;
    re-showing what was typed after an error (in an ``except``) is allowed."""
    assert _unchecked(ROOT / module) == []


@pytest.mark.parametrize("module", ["services/dealer_bodies.py", "services/dealer_rulings.py"])
def test_the_dealer_services_never_read_the_request(module: str) -> None:
    """The services take loaded bodies: they import nothing from ``flask.request``."""
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
             for alias in node.names}
    assert "request" not in names


def test_the_source_walk_finds_a_helper_that_reads_the_body_without_a_schema() -> None:
    """The old ``_raw()`` helper (``request.get_json`` then hand-rolled checks) is caught."""
    tree = ast.parse("def _raw():\n    return request.get_json(force=True, silent=True)\n")
    assert _reads_and_loads(tree) == ([2], False)
    tree = ast.parse("def board(t):\n    data = json_body(body.BOARD)\n    return data\n")
    assert _reads_and_loads(tree) == ([], True)


def test_the_hand_rolled_readers_are_gone() -> None:
    """dealer_bodies declares bodies; the readers it had (``integer``, ``cards``, ``flag`` ...)
    are no longer there to be called around the schema layer."""
    import director.services.dealer_bodies as bodies  # noqa: PLC0415

    old = {"integer", "required_int", "version", "idempotency_key", "seat", "seats", "seat_groups",
           "cards", "seat_cards", "flag", "text", "int_list", "body_dict"}
    assert old & set(vars(bodies)) == set()


# ---------------------------------------------------------------- the field types

def test_cards_read_a_list_or_a_run_and_question_marks_are_unseen() -> None:
    assert Cards().load(["As", "??", None, "Td"], form=False) == (Card(14, "s"), None, None, Card(10, "d"))
    assert Cards().load("As Kd", form=False) == (Card(14, "s"), Card(13, "d"))
    assert Cards().load(Cards().load("AsKd", form=False), form=False) == (Card(14, "s"), Card(13, "d"))


@pytest.mark.parametrize(("value", "message"), [
    (["As", "Zz"], "Zz is not a card (write it as As, Td, 7h ...)"),
    ("AsK", "Cannot read the cards AsK"),
    (5, 'cards must be a list of cards such as ["As", "Kd"]'),
    (["As"] * 8, 'cards must be a list of cards such as ["As", "Kd"]'),
    ([True], "True is not a card (write it as As, Td, 7h ...)"),
])
def test_cards_name_the_card_that_is_not_one(value: Any, message: str) -> None:
    with pytest.raises(FieldError) as exc:
        Cards().load(value, form=False)
    assert str(exc.value) == message


def test_seat_cards_name_the_seat_whose_cards_are_wrong() -> None:
    assert SeatCards().load({"3": ["??", "??", "As"]}, form=False) == {3: (None, None, Card(14, "s"))}
    with pytest.raises(Invalid) as exc:
        SeatCards().load({"3": ["Zz"], "11": "As", "x": "Kd"}, form=False)
    assert exc.value.errors == {"3": "Zz is not a card (write it as As, Td, 7h ...)",
                                "11": "Give a number of at most 10", "x": "Give a whole number"}
    with pytest.raises(FieldError, match="cards must map seat numbers to cards"):
        SeatCards().load({}, form=False)


def test_seat_groups_take_ties_and_refuse_a_seat_twice() -> None:
    groups = SeatGroups(name="high")
    assert groups.load([[3], [1, 5]], form=False) == [[3], [1, 5]]
    assert groups.load([3, 1], form=False) == [[3], [1]]
    assert groups.load(None, form=False) == []
    for value, message in [([[2, 2]], "A seat is named twice"),
                           ("3", "high must be a list of seat groups, best first"),
                           ([[1, True]], "Item 1: Item 2: Give a whole number"),
                           ([11], "Item 1: Give a number of at most 10")]:
        with pytest.raises(FieldError) as exc:
            groups.load(value, form=False)
        assert str(exc.value) == message


def test_a_code_is_text_or_digits_and_json_text_is_parsed() -> None:
    assert Code().load(123456, form=False) == "123456"
    with pytest.raises(FieldError):
        Code(missing_message="Enter the code").load(True, form=False)
    events = JsonText(kind=list, message="Give the events")
    assert events.load('[{"type": "fold"}]', form=True) == [{"type": "fold"}]
    for bad in ("nonsense", '{"a": 1}', 5):
        with pytest.raises(FieldError, match="Give the events"):
            events.load(bad, form=True)


def test_a_ruling_body_names_the_common_and_the_kinds_fields_at_once() -> None:
    with pytest.raises(Invalid) as exc:
        ruling_body({"ruling": "boxed_cards", "confirm": "yes", "count": "2", "version": -1})
    assert set(exc.value.errors) == {"confirm", "count", "version"}
    assert ruling_body({"ruling": "misdeal"})["confirm"] is False
    assert set(RULINGS) == {"misdeal", "exposed_card", "boxed_cards", "wrong_number_of_cards",
                            "flop_irregularity", "missing_burn", "premature_card",
                            "stud_exposed_downcards", "absent_player", "clock_expired",
                            "action_out_of_turn", "undercall", "silent_push", "single_chip",
                            "multiple_chips", "fouled_deck", "wrong_button"}


# ---------------------------------------------------------------- malformed bodies at every endpoint

NOT_OBJECTS: list[Any] = [[1, 2], "cards", 5, None]

CASES: dict[str, list[tuple[Any, str, str | None]]] = {
    # path: [(body, field, the exact sentence or None)]
    "hands": [({"absent_seats": [1, 1]}, "absent_seats", "A seat is named twice"),
              ({"absent_seats": "3"}, "absent_seats", "Give a list")],
    "hand/actions": [({"seat": 1, "action": "call", "amount": 1.5}, "amount", "Give a whole number"),
                     ({"seat": True, "action": "call"}, "seat", "Give a whole number")],
    "hand/board": [({"cards": ["Zz", "As", "Kd"]}, "cards",
                    "Zz is not a card (write it as As, Td, 7h ...)"),
                   ({"cards": "AsK"}, "cards", "Cannot read the cards AsK"),
                   ({"cards": 7}, "cards", 'cards must be a list of cards such as ["As", "Kd"]'),
                   ({"cards": None, "version": True}, "version", "Give a whole number"),
                   ({"cards": None, "version": 10**20}, "version", "That number is too large"),
                   ({"cards": None, "idempotency_key": 5}, "idempotency_key", "Give text")],
    "hand/deal": [({"cards": {"11": ["As"]}}, "cards.11", "Give a number of at most 10"),
                  ({"cards": {"1": ["Zz"]}}, "cards.1", "Zz is not a card (write it as As, Td, 7h ...)"),
                  ({"cards": ["As"]}, "cards", "cards must map seat numbers to cards")],
    "hand/show": [({"seat": 1}, "cards", "Enter the cards"),
                  ({"seat": 1.0, "cards": "AsKd"}, "seat", "Give a whole number"),
                  ({"seat": 10**16, "cards": "AsKd"}, "seat", "That number is too large")],
    "hand/muck": [({"seat": "1"}, "seat", "Give a whole number")],
    "hand/award": [({"high": "3"}, "high", "high must be a list of seat groups, best first"),
                   ({"high": [[1, 1]]}, "high", "A seat is named twice"),
                   ({"high": [1], "low": [[False]]}, "low", "Item 1: Item 1: Give a whole number")],
    "hand/undo": [({"version": -1}, "version", "Give a number of at least 0")],
    "hand/clock": [({"seat": 11}, "seat", "Give a number of at most 10")],
    "hand/rulings": [
        ({"ruling": "nope"}, "ruling", None),
        ({"ruling": "boxed_cards", "count": True}, "count", "Give a whole number"),
        ({"ruling": "boxed_cards", "count": 2, "confirm": 1, "version": 0}, "confirm",
         "Give true or false"),
        ({"ruling": "exposed_card", "positions": [], "confirm": True}, "positions", "Give at least 1"),
        ({"ruling": "stud_exposed_downcards", "seat": 1, "cards": ["Zz"]}, "cards",
         "Zz is not a card (write it as As, Td, 7h ...)"),
        ({"ruling": "undercall", "seat": 1, "pushed": 10**16, "confirm": True}, "pushed",
         "That number is too large"),
        ({"ruling": "multiple_chips", "seat": 1, "chips": "5"}, "chips", "Give a list"),
        ({"ruling": "missing_burn", "street": "flop"}, "street", "Choose one of: turn, river"),
        ({"ruling": "misdeal", "confirm": True, "idempotency_key": ""}, "idempotency_key", None),
    ],
}


@pytest.fixture
def started(client: FlaskClient, make_tournament: Callable[..., int],
            auth: dict[str, str]) -> dict[str, Any]:
    table = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"])
    url = f"/api/tables/{table['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    return {**table, "url": url, "hand": hand}


def _stored(client: FlaskClient, url: str) -> tuple[int, int, list[Any]]:
    hand = client.get(f"{url}/hand").get_json()
    return hand["hand_id"], hand["version"], hand["log"]


@pytest.mark.parametrize("path", sorted(CASES))
def test_a_malformed_body_is_a_400_naming_the_field_and_stores_nothing(
        client: FlaskClient, auth: dict[str, str], started: dict[str, Any], path: str) -> None:
    url = started["url"]
    before = _stored(client, url)
    for data, field, message in CASES[path]:
        r = client.post(f"{url}/{path}", json=data, headers=auth)
        assert r.status_code == 400, (path, data, r.get_json())
        errors = r.get_json()["errors"]
        assert field in errors, (path, data, errors)
        if message is not None:
            assert errors[field] == message, (path, data, errors)
    for data in NOT_OBJECTS:
        r = client.post(f"{url}/{path}", json=data, headers=auth)
        assert r.status_code == 400 and r.get_json()["errors"] == {
            "body": "The body must be a JSON object"}, (path, data)
    r = client.post(f"{url}/{path}", data=b"{not json", headers={**auth, "Content-Type": "application/json"})
    assert r.status_code == 400 and "body" in r.get_json()["errors"]
    assert _stored(client, url) == before


def test_the_same_bodies_well_formed_are_taken(client: FlaskClient, auth: dict[str, str],
                                               started: dict[str, Any]) -> None:
    """The schemas refuse what is wrong, not what a tablet sends: a ruling preview with
    every field it has, an unseen board ``null``, and the hand's end by award (a field
    the ruling does not have, such as ``policy`` here, is refused: issue 30)."""
    url, hand = started["url"], started["hand"]
    preview = client.post(f"{url}/hand/rulings", headers=auth, json={
        "ruling": "action_out_of_turn", "seat": hand["to_act"], "action": "raise", "amount": 800,
        "bet_when_acted": None})
    assert preview.status_code == 200, preview.get_json()
    hand = play(client, url, auth, hand, ["call", "call", "check"])
    r = client.post(f"{url}/hand/board", json={"cards": ["As", "Kd", "7h"], "version": hand["version"],
                                               "idempotency_key": "board-1"}, headers=auth)
    assert r.status_code == 200, r.get_json()
    assert [c for c in r.get_json()["board"]] and r.get_json()["version"] == hand["version"] + 1


def test_the_directors_correction_refuses_what_is_not_a_list_of_events(
        client: FlaskClient, auth: dict[str, str], started: dict[str, Any]) -> None:
    hand_id, version, log = _stored(client, started["url"])
    for data in ({"events": "x"}, {"events": {"a": 1}}, {}, {"events": 5}):
        r = client.post(f"/api/hands/{hand_id}/correct", json=data, headers=auth)
        assert r.status_code == 400 and r.get_json()["errors"] == {
            "events": "events must be the hand's list of events"}, (data, r.get_json())
    assert client.post(f"/api/hands/{hand_id}/correct", json=[1], headers=auth).status_code == 400
    assert _stored(client, started["url"]) == (hand_id, version, log)


def test_pairing_refuses_a_code_that_is_not_one(client: FlaskClient, app: Any,
                                                started: dict[str, Any]) -> None:
    """A malformed pairing body is a 400 naming ``code`` (and counts as a wrong guess);
    the code as a number pairs, as it always did."""
    tablet = app.test_client()
    for data in ({"code": True}, {"code": [1]}, {"table": 1}, {"table": 1, "code": None}):
        r = tablet.post("/api/dealer/pair", json=data, environ_base={"REMOTE_ADDR": "10.1.1.1"})
        assert r.status_code == 400 and r.get_json()["errors"]["code"] == \
            "Enter the pairing code shown on the director's page", data
    page = app.test_client().post("/dealer/pair", data={"table": "1", "code": ""},
                                  environ_base={"REMOTE_ADDR": "10.1.1.2"})
    assert page.status_code == 400
    assert "Enter the pairing code shown on the director's page" in unescape(page.get_data(as_text=True))
    paired = app.test_client().post("/api/dealer/pair", json={"table": started["number"],
                                                                "code": int(started["code"])},
                                    environ_base={"REMOTE_ADDR": "10.1.1.3"})
    if started["code"].startswith("0"):
        assert paired.status_code == 400        # 012345 as a number is 12345: not the code
    else:
        assert paired.status_code == 201 and paired.get_json()["table_id"] == started["id"]
