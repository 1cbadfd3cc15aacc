"""Request schemas: ``director.schemas`` against pydantic, on the same bodies (issue 27:
"consider pydantic for the request schemas if its errors can stay translated and name
the field; measure both and write the decision").

Runs on its own: ``.venv/bin/python benchmarks/schemas.py [--repeat 5]``.  Each body
is read the way its route reads it: a tablet's JSON (a dealer action, a ruling) from
its bytes, the depth check, the parse, the unknown-field check and the schema
(``json_body``, ``ruling_body``); the money settings form from its text fields
(``MONEY_SETTINGS.load(form=True)``).  The peer is a pydantic model written to take
and refuse the same things: strict integers in JSON (pydantic's lax ``int`` takes
``true``, ``7.0`` and ``"1_000"``), a before-validator for the form's thousands
separators, ``extra="forbid"``, a discriminated union for the rulings and a model
validator for the money form's "required when on" rules; JSON is parsed by
``model_validate_json`` (pydantic's own parser).

Per body: microseconds per body for each (best of ``--repeat`` rounds), the ratio
(director / pydantic), and for the refused bodies whether the error names the field,
pydantic's own sentence, and whether the project's translated sentence can be made
from pydantic's error (its ``type`` and ``ctx`` mapped to our msgids, said here in
Swedish).  The nested body is the hostile-input test's: 100,000 nested lists.

Without pydantic (CI does not install it) only our side is timed and the reason is
printed.  The last line is one JSON object: ``{"pydantic", "bodies": [{"body",
"director_us", "pydantic_us", "ratio", "names_field", ...}]}``.  A benchmark is not
a test: it never fails on a time.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask_babel import force_locale  # noqa: E402

from director import create_app  # noqa: E402
from director.db import db  # noqa: E402
from director.errors import Invalid  # noqa: E402
from director.i18n import gettext as _  # noqa: E402
from director.i18n import number_filter  # noqa: E402
from director.schemas import (  # noqa: E402
    DEEP_JSON,
    MAX_JSON_DEPTH,
    MONEY_SETTINGS,
    FieldError,
    Schema,
    _currency,
    json_depth,
    unknown_fields,
    whole_number,
)
from director.services.dealer_bodies import ACTION, ACTIONS, MAX_CHIPS, ruling_body  # noqa: E402

try:
    import pydantic
    from pydantic import (
        BaseModel,
        BeforeValidator,
        ConfigDict,
        StrictBool,
        StrictInt,
        StringConstraints,
        ValidationError,
        field_validator,
        model_validator,
    )
    from pydantic import Field as P
except ImportError as exc:      # CI: the peer is not installed
    pydantic = None
    WHY_NOT = f"pydantic is not installed ({exc}): only director.schemas is timed"
else:
    WHY_NOT = ""

ACTION_BODY = {"seat": 3, "action": "raise", "amount": 1200, "version": 17,
               "idempotency_key": "tablet-7-17"}
RULING_BODY = {"ruling": "multiple_chips", "seat": 4, "chips": [500, 500, 100],
               "declared_raise": False, "confirm": True, "version": 18,
               "idempotency_key": "tablet-7-18"}
MONEY_FORM = {
    "currency": "EUR", "unit": "1", "buy_in": "110.50", "fee": "10",
    "starting_stack": "20,000", "late_registration_level": "6", "re_entry": "on",
    "re_entry_max": "2", "re_entry_until": "6", "rebuy": "", "add_on": "on",
    "guarantee": "5,000", "rebuy_price": "", "rebuy_fee": "", "rebuy_chips": "",
    "rebuy_until": "", "rebuy_stack_limit": "", "rebuy_max": "", "add_on_price": "50",
    "add_on_fee": "5", "add_on_chips": "25 000", "add_on_break": "4",
    "payout_template": "standard", "custom_payouts": "", "bounty_kind": "none",
    "bounty": "", "satellite_seat": "",
}
BAD_ACTION = {"seat": "three", "action": "raise", "amount": True, "version": 17}
BAD_MONEY = MONEY_FORM | {"buy_in": "-5", "starting_stack": "lots", "re_entry_max": "0",
                          "add_on_chips": "2.5"}
DEEP = b"[" * 100_000 + b"]" * 100_000


# ---------------------------------------------------------------- our side, as the routes read

def director_json(schema: Schema) -> Callable[[bytes], dict[str, Any]]:
    def read(raw: bytes) -> dict[str, Any]:       # json_body without the request
        if json_depth(raw) > MAX_JSON_DEPTH:
            raise Invalid({"body": _(DEEP_JSON, max=MAX_JSON_DEPTH)})
        data = json.loads(raw)
        if not isinstance(data, dict):
            raise Invalid({"body": _("The body must be a JSON object")})
        unknown_fields(data, schema.fields)
        return schema.load(data)
    return read


def director_ruling(raw: bytes) -> dict[str, Any]:
    if json_depth(raw) > MAX_JSON_DEPTH:
        raise Invalid({"body": _(DEEP_JSON, max=MAX_JSON_DEPTH)})
    return ruling_body(json.loads(raw))


def director_money(form: dict[str, str]) -> dict[str, Any]:
    return MONEY_SETTINGS.load(form, form=True)


# ---------------------------------------------------------------- the peer: pydantic models

def pydantic_models() -> dict[str, Callable[[Any], Any]]:
    """The same bodies as pydantic models (built only when pydantic is there)."""
    forbid = ConfigDict(extra="forbid")
    Seat = Annotated[StrictInt, P(ge=1, le=10)]
    Chips = Annotated[StrictInt, P(ge=1, le=MAX_CHIPS)]
    Version = Annotated[StrictInt, P(ge=0, le=2**31)] | None
    Key = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)] | None

    class Action(BaseModel):
        model_config = forbid
        seat: Seat
        action: Literal[ACTIONS]  # type: ignore[valid-type]
        amount: Annotated[StrictInt, P(ge=0, le=MAX_CHIPS)] | None = None
        version: Version = None
        idempotency_key: Key = None

    class RulingCommon(BaseModel):
        model_config = forbid
        confirm: StrictBool = False
        version: Version = None
        idempotency_key: Key = None

    class MultipleChips(RulingCommon):
        ruling: Literal["multiple_chips"]
        seat: Seat
        chips: Annotated[list[Chips], P(min_length=1, max_length=100)]
        declared_raise: StrictBool = False

    class BoxedCards(RulingCommon):
        ruling: Literal["boxed_cards"]
        count: Annotated[StrictInt, P(ge=1, le=52)]
        initial_deal: StrictBool = True

    class Misdeal(RulingCommon):
        ruling: Literal["misdeal"]
        reason: str | None = ""

    class Ruling(BaseModel):
        body: Annotated[MultipleChips | BoxedCards | Misdeal, P(discriminator="ruling")]

    def blank_is_none(value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value

    def no_separators(value: Any) -> Any:     # what _SPACES does: "20,000", "25 000"
        value = blank_is_none(value)
        return value.strip().translate(str.maketrans("", "", ", \u00a0\u202f")) \
            if isinstance(value, str) else value

    def ascii_digits(value: Any) -> Any:
        if isinstance(value, bool) or (isinstance(value, str) and not value.lstrip("-").isascii()):
            raise ValueError("not a whole number")
        return value

    Amount = Annotated[Annotated[Decimal, P(ge=0, le=10**14)] | None, BeforeValidator(no_separators)]

    def count(low: int, high: int) -> Any:
        return Annotated[Annotated[int, P(ge=low, le=high)] | None, BeforeValidator(ascii_digits),
                         BeforeValidator(no_separators)]

    def titled(annotation: Any, label: str) -> Any:   # our label (msgid) rides on the field
        return Annotated[annotation, P(title=label)]

    Switch = Annotated[bool | None, BeforeValidator(blank_is_none)]     # blank: None, as ours
    max_level = 1000

    class MoneySettings(BaseModel):
        currency: str | None = None
        unit: titled(Amount, "The rounding unit") = None  # type: ignore[valid-type]
        buy_in: Annotated[Decimal, BeforeValidator(no_separators), P(ge=0, le=10**14, title="The buy-in")]
        fee: titled(Amount, "The house fee") = None  # type: ignore[valid-type]
        starting_stack: Annotated[int, BeforeValidator(ascii_digits), BeforeValidator(no_separators),
                                  P(ge=1, le=MAX_CHIPS, title="The starting stack")]
        late_registration_level: titled(count(0, max_level), "The late registration level") = None  # type: ignore[valid-type]
        re_entry: Switch = False
        re_entry_max: titled(count(1, 1000), "The number of re-entries") = None  # type: ignore[valid-type]
        re_entry_until: titled(count(1, max_level), "The last re-entry level") = None  # type: ignore[valid-type]
        rebuy: Switch = False
        add_on: Switch = False
        guarantee: titled(Amount, "The guarantee") = None  # type: ignore[valid-type]
        rebuy_price: titled(Amount, "The rebuy price") = None  # type: ignore[valid-type]
        rebuy_fee: titled(Amount, "The rebuy fee") = None  # type: ignore[valid-type]
        rebuy_chips: titled(count(1, MAX_CHIPS), "The rebuy chips") = None  # type: ignore[valid-type]
        rebuy_until: titled(count(1, max_level), "The last rebuy level") = None  # type: ignore[valid-type]
        rebuy_stack_limit: titled(count(0, MAX_CHIPS), "The rebuy stack limit") = None  # type: ignore[valid-type]
        rebuy_max: titled(count(1, 1000), "The number of rebuys") = None  # type: ignore[valid-type]
        add_on_price: titled(Amount, "The add-on price") = None  # type: ignore[valid-type]
        add_on_fee: titled(Amount, "The add-on fee") = None  # type: ignore[valid-type]
        add_on_chips: titled(count(1, MAX_CHIPS), "The add-on chips") = None  # type: ignore[valid-type]
        add_on_break: titled(count(1, max_level), "The add-on break (after level)") = None  # type: ignore[valid-type]
        payout_template: Annotated[Literal["standard", "wide", "wide-tables", "custom"] | None,
                                   BeforeValidator(blank_is_none)] = None
        custom_payouts: Annotated[Any, BeforeValidator(blank_is_none)] = None
        bounty_kind: Annotated[Literal["none", "fixed", "pko"] | None,
                               BeforeValidator(blank_is_none)] = None
        bounty: titled(Amount, "The bounty") = None  # type: ignore[valid-type]
        satellite_seat: titled(Amount, "The satellite seat value") = None  # type: ignore[valid-type]

        @field_validator("currency")
        @classmethod
        def known_currency(cls, value: str | None) -> str | None:
            problem = _currency(value) if value else None
            if problem:
                raise ValueError(problem)
            return value

        @model_validator(mode="after")
        def required_when_on(self) -> MoneySettings:
            for flag, names in (("rebuy", ("rebuy_price", "rebuy_chips", "rebuy_until")),
                                ("add_on", ("add_on_price", "add_on_chips", "add_on_break"))):
                if getattr(self, flag) and any(getattr(self, name) is None for name in names):
                    raise ValueError(f"{flag}: a field is required")
            return self

    def ruling(raw: bytes) -> Any:
        return Ruling.model_validate_json(b'{"body": ' + raw + b"}")

    return {"action": Action.model_validate_json, "ruling": ruling,
            "money": MoneySettings.model_validate, "money_model": MoneySettings}


# ---------------------------------------------------------------- pydantic's errors, in our words

INT_ERRORS = {"int_type", "int_parsing", "int_from_float", "value_error"}


@functools.lru_cache(maxsize=256)
def field_facts(model: Any, name: str) -> tuple[str | None, int | None, int | None, bool]:
    """A pydantic field's label (its ``title``: our msgid), bounds and whether it is an
    amount: what our sentences need and pydantic's error does not carry."""
    info = model.model_fields.get(name) if model is not None else None
    if info is None:
        return None, None, None, False
    low = high = None
    todo: list[Any] = [*info.metadata, info.annotation]
    while todo:
        item = todo.pop()
        low = getattr(item, "ge", low) if isinstance(getattr(item, "ge", None), int) else low
        high = getattr(item, "le", high) if isinstance(getattr(item, "le", None), int) else high
        todo.extend(getattr(item, "metadata", ()) or ())
        todo.extend(get_args(item))
    return info.title, low, high, "Decimal" in repr(info.annotation)


def our_sentence(error: dict[str, Any], model: Any = None) -> str | None:
    """The project's translated sentence for one of pydantic's errors, made from its
    ``type``, ``ctx`` and ``input`` and, for a labelled field, the model's field (title,
    bounds): None where no msgid fits."""
    ctx, value = error.get("ctx", {}), error.get("input")
    label, low, high, amount = field_facts(model, str(error["loc"][0])) if error["loc"] else (
        None, None, None, False)
    kind = error["type"]
    if label is None:           # the schema's sentences: the path names the field
        if kind in INT_ERRORS:
            return _("Give a whole number")
        if kind == "greater_than_equal":
            return _("Give a number of at least %(min)s", min=ctx["ge"])
        if kind == "less_than_equal":
            return _("Give a number of at most %(max)s", max=ctx["le"])
        if kind == "missing":
            return _("This is required")
        if kind == "extra_forbidden":
            return _("This field is not expected here")
        return None
    label = _(label)
    if kind in {"decimal_parsing", "decimal_type"}:
        return _("%(label)s must be an amount like 110 or 110.50, not “%(value)s”",
                 label=label, value=str(value)[:30])
    if kind in INT_ERRORS:
        if isinstance(value, str):
            return _("%(label)s must be a whole number, not “%(value)s”", label=label, value=value[:30])
        return _("%(label)s must be a whole number", label=label)
    if kind == "missing":
        return _("%(label)s is required", label=label)
    number = Decimal(str(value).strip().translate(str.maketrans("", "", ", \u00a0\u202f")))
    if kind == "greater_than_equal" and number < 0 <= ctx["ge"]:
        shown = str(value)[:30] if amount else int(number)
        return _("%(label)s cannot be negative (%(value)s)", label=label, value=shown)
    if kind == "less_than_equal" and amount:
        return _("%(label)s is too large", label=label)
    if kind in {"greater_than_equal", "less_than_equal"} and low is not None and high is not None:
        return _("%(label)s must be between %(low)s and %(high)s", label=label,
                 low=number_filter(low), high=number_filter(high))
    return None


def field_path(loc: tuple[Any, ...]) -> str:
    """Pydantic's ``loc`` as our field path (``chips[0]``; the union's wrapper dropped)."""
    path = ""
    for part in loc:
        if part in {"body", "multiple_chips", "boxed_cards", "misdeal"} and not path:
            continue
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


def in_our_words(read: Callable[[Any], Any], model: Any = None) -> Callable[[Any], Any]:
    """The peer as a route would use it: pydantic's errors become our ``Invalid``
    (field path and translated sentence; pydantic's own where no msgid fits)."""
    def words(body: Any) -> Any:
        try:
            return read(body)
        except ValidationError as exc:
            raise Invalid({field_path(e["loc"]) or "body": our_sentence(e, model) or e["msg"]
                           for e in exc.errors(include_url=False)}) from None
    return words


def refusal(read: Callable[[Any], Any], body: Any) -> dict[str, Any]:
    """How a bad body is refused: the fields named and their sentences (or what escaped:
    a 500)."""
    try:
        read(body)
    except Invalid as exc:
        return {"clean": True, "errors": dict(exc.errors)}
    except ValueError as exc:           # pydantic's ValidationError is one
        if pydantic is not None and isinstance(exc, ValidationError):
            return {"clean": True, "errors": {field_path(e["loc"]) or "body": e["msg"]
                                              for e in exc.errors(include_url=False)}}
        return {"clean": True, "errors": {"body": str(exc)}}
    except RecursionError:
        return {"clean": False, "errors": {"body": "RecursionError (a 500)"}}
    except Exception as exc:  # noqa: BLE001  (what escapes is the finding)
        return {"clean": False, "errors": {"body": f"{type(exc).__name__} (a 500)"}}
    return {"clean": True, "errors": {}}


# ---------------------------------------------------------------- timing

def per_body_us(read: Callable[[Any], Any], body: Any, repeat: int) -> float:
    """Microseconds per body, best of ``repeat`` rounds (a refusal counts: it is the work)."""
    def once() -> None:
        with contextlib.suppress(ValueError, RecursionError):
            read(body)
    once()
    start = time.perf_counter()
    once()
    rounds = max(1, min(2000, int(0.05 / max(time.perf_counter() - start, 1e-7))))
    best = float("inf")
    for _round in range(repeat):
        start = time.perf_counter()
        for _each in range(rounds):
            once()
        best = min(best, (time.perf_counter() - start) / rounds)
    return best * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="director-schemas-bench-")
    app = create_app({"TESTING": True, "INSTANCE_PATH": folder, "SECRET_KEY": "bench",
                      "TOKEN": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/b.sqlite"})
    peer = pydantic_models() if pydantic is not None else {}
    money_model = peer.get("money_model")
    cases = [  # body, ours, the peer's, what the route gets
        ("dealer action", director_json(ACTION), peer.get("action"), json.dumps(ACTION_BODY).encode()),
        ("ruling (multiple chips)", director_ruling, peer.get("ruling"), json.dumps(RULING_BODY).encode()),
        ("money settings form", director_money, peer.get("money"), MONEY_FORM),
        ("bad action (wrong types)", director_json(ACTION), peer.get("action"),
         json.dumps(BAD_ACTION).encode()),
        ("bad money form", director_money, peer.get("money"), BAD_MONEY),
        ("100,000 nested lists", director_json(ACTION), peer.get("action"), DEEP),
    ]
    print("Request schemas: director.schemas against "
          + (f"pydantic {pydantic.VERSION}" if pydantic is not None else "nothing")
          + f"; microseconds per body, best of {args.repeat}; sentences in Swedish")
    if WHY_NOT:
        print(WHY_NOT)
    print(f"{'body':<25} {'director':>9} {'pydantic':>9} {'+words':>9} {'ratio':>8}  refused")
    rows = []
    with app.test_request_context("/"), force_locale("sv"):
        for name, ours, theirs, body in cases:
            words = in_our_words(theirs, money_model if theirs is peer.get("money") else None) \
                if theirs else None
            ours_us = per_body_us(ours, body, args.repeat)
            theirs_us = per_body_us(theirs, body, args.repeat) if theirs else None
            words_us = per_body_us(words, body, args.repeat) if words else None
            row: dict[str, Any] = {
                "body": name, "director_us": round(ours_us, 2),
                "pydantic_us": None if theirs_us is None else round(theirs_us, 2),
                "pydantic_words_us": None if words_us is None else round(words_us, 2),
                "ratio": None if words_us is None else round(ours_us / words_us, 2)}
            mine = refusal(ours, body)
            row["director_errors"] = mine["errors"]
            if theirs and not mine["errors"]:
                row["values_differ"] = differences(ours(body), theirs(body))
            if theirs and words and mine["errors"]:
                theirs_refused, words_refused = refusal(theirs, body), refusal(words, body)
                row["pydantic_errors"] = theirs_refused["errors"]
                row["pydantic_in_our_words"] = words_refused["errors"]
                row["pydantic_clean"] = theirs_refused["clean"]
                row["same_fields"] = set(mine["errors"]) == set(words_refused["errors"])
                row["same_sentences"] = sum(mine["errors"].get(k) == v
                                            for k, v in words_refused["errors"].items())
            rows.append(row)
            shown = [f"{v:.1f}" if v is not None else "-" for v in (theirs_us, words_us)]
            print(f"{name:<25} {ours_us:>9.1f} {shown[0]:>9} {shown[1]:>9} "
                  f"{'-' if words_us is None else f'{ours_us / words_us:.2f}x':>8}  "
                  f"{', '.join(mine['errors']) or 'accepted'}")
            for who, errors in (("director", row["director_errors"]),
                                ("pydantic", row.get("pydantic_errors")),
                                ("pydantic, our words", row.get("pydantic_in_our_words"))):
                for field, sentence in (errors or {}).items():
                    print(f"    {who:<20} {field}: {str(sentence)[:90]}")
            if row.get("values_differ"):
                print(f"    values that differ: {row['values_differ']}")
            if row["director_errors"] and "same_sentences" in row:
                print(f"    same fields named: {row['same_fields']}; our sentence made from "
                      f"pydantic's error: {row['same_sentences']} of {len(row['director_errors'])}")
    findings = {
        "pydantic_lax_int_takes": None if pydantic is None else lax_int_takes(),
        "whole_number_refuses": [v for v in (True, "7.0", "1_000", 7.0, "\u0663")
                                 if refuses(lambda v: whole_number(v, low=0, high=10, label="x"), v)],
    }
    with app.app_context():
        db.create_all()
    client = app.test_client()
    trivial_us = per_body_us(lambda _body: client.get("/dealer/"), None, args.repeat)
    print("ratio: director / (pydantic + its errors put in our words); +words: the latter")
    print(f"for scale, a trivial request (GET /dealer/, test client): {trivial_us:.0f} us")
    shutil.rmtree(folder, ignore_errors=True)
    for key, value in findings.items():
        print(f"{key}: {value}")
    keep = ("body", "director_us", "pydantic_us", "pydantic_words_us", "ratio", "values_differ",
            "same_fields", "same_sentences", "pydantic_clean")
    print(json.dumps({"pydantic": None if pydantic is None else pydantic.VERSION,
                      "skipped": WHY_NOT or None, **findings, "trivial_request_us": round(trivial_us),
                      "bodies": [{k: v for k, v in row.items() if k in keep} for row in rows]},
                     ensure_ascii=False))


def differences(mine: dict[str, Any], theirs: Any) -> list[str]:
    """The fields whose loaded values differ (pydantic's model dumped; the ruling's wrapper off)."""
    dumped = theirs.model_dump()
    dumped = dumped.get("body", dumped)
    return sorted(k for k in set(mine) | set(dumped) if mine.get(k) != dumped.get(k))


def refuses(read: Callable[[Any], Any], value: Any) -> bool:
    try:
        read(value)
    except (FieldError, ValueError):
        return True
    return False


def lax_int_takes() -> list[Any]:
    """What pydantic's default (lax) ``int`` takes that a whole number is not."""
    adapter = pydantic.TypeAdapter(int)
    return [v for v in (True, "7.0", "1_000", 7.0, "\u0663")
            if not refuses(adapter.validate_python, v)]


if __name__ == "__main__":
    main()
