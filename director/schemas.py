"""The one request-body validation layer.

A view declares what it takes and loads it in one line; anything else is a
400 naming the field (``director.services.Invalid``), never a 500::

    ACTION = Schema({
        "seat": Int(min=1, max=10),
        "action": Choice(["fold", "check", "call", "bet", "raise"]),
        "amount": Int(min=0, nullable=True, required=False),
        "version": Int(min=0),
        "idempotency_key": Str(max_len=100),
    })

    @bp.post("/api/tables/<int:table_id>/hand/actions")
    def act(table_id):
        data = json_body(ACTION)          # or form_body(ACTION) for a form
        ...

Rules, the same for every field type:

* a missing required field, a ``null`` where ``nullable`` is false, a value of
  the wrong type and a value out of range each name the field with a sentence;
* booleans are not integers, floats are not integers (``3.0`` neither), and an
  integer beyond ``Int.LIMIT`` (``10**15``) is refused even with no ``max``;
* form values arrive as text: ``Int`` and ``Bool`` parse them (``form=True``);
* unknown keys are ignored unless the schema says ``extra="forbid"``;
* ``Schema.load`` returns a new ``dict`` with every declared key present
  (absent optional fields get their ``default``).

Why not pydantic or marshmallow: both would be a large dependency for a few
dozen fields, and their messages are written for programmers; these are
written for a tournament director or a dealer.

>>> s = Schema({"seat": Int(min=1, max=10), "note": Str(required=False, default="")})
>>> s.load({"seat": 3})
{'seat': 3, 'note': ''}
>>> s.load({"seat": True})
Traceback (most recent call last):
...
director.services.Invalid: seat: Give a whole number
>>> s.load({"seat": "4"}, form=True)["seat"]
4
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _

from director.services import Invalid

MISSING: Any = object()


def N_(text: str) -> str:  # noqa: N802  (the gettext convention: marked, translated when raised)
    return text

_WHOLE = re.compile(r"-?[0-9]{1,18}")


class FieldError(ValueError):
    """One field's sentence (raised by a field's ``convert``)."""


@dataclass
class Field:
    """Base of every field: ``required``, ``nullable``, ``default``, and an optional ``check``.

    ``check(value)`` runs after the conversion and returns a sentence for a
    bad value (or ``None``): a rule that no type expresses.
    """

    required: bool = True
    nullable: bool = False
    default: Any = None
    check: Callable[[Any], str | None] | None = None
    missing_message: str = N_("This is required")

    def convert(self, value: Any, form: bool) -> Any:  # pragma: no cover - overridden
        return value

    def load(self, value: Any, form: bool) -> Any:
        if value is None or (form and value == "" and self.nullable):
            if self.nullable:
                return None
            raise FieldError(_(self.missing_message))
        result = self.convert(value, form)
        if self.check is not None:
            problem = self.check(result)
            if problem:
                raise FieldError(problem)
        return result


@dataclass
class Int(Field):
    """A whole number in ``[min, max]``: not a boolean, not a float, not huge."""

    min: int | None = None
    max: int | None = None
    LIMIT = 10**15

    def convert(self, value: Any, form: bool) -> int:
        if isinstance(value, str) and form:
            text = value.strip().replace(",", "")
            if not _WHOLE.fullmatch(text):
                raise FieldError(_("Give a whole number"))
            value = int(text)
        if isinstance(value, bool) or not isinstance(value, int):
            raise FieldError(_("Give a whole number"))
        if abs(value) > self.LIMIT:
            raise FieldError(_("That number is too large"))
        if self.min is not None and value < self.min:
            raise FieldError(_("Give a number of at least %(min)s", min=self.min))
        if self.max is not None and value > self.max:
            raise FieldError(_("Give a number of at most %(max)s", max=self.max))
        return value


@dataclass
class Number(Field):
    """A finite number (int or float) in ``[min, max]``; never a boolean."""

    min: float | None = None
    max: float | None = None

    def convert(self, value: Any, form: bool) -> float:
        if isinstance(value, str) and form:
            try:
                value = float(value.strip())
            except ValueError:
                raise FieldError(_("Give a number")) from None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise FieldError(_("Give a number"))
        if not math.isfinite(value) or abs(value) > Int.LIMIT:
            raise FieldError(_("That number is too large"))
        if self.min is not None and value < self.min:
            raise FieldError(_("Give a number of at least %(min)s", min=format(self.min, "g")))
        if self.max is not None and value > self.max:
            raise FieldError(_("Give a number of at most %(max)s", max=format(self.max, "g")))
        return value


@dataclass
class Str(Field):
    """Text, stripped; ``min_len``/``max_len`` count characters after stripping."""

    min_len: int = 0
    max_len: int = 200
    strip: bool = True

    def convert(self, value: Any, form: bool) -> str:
        if not isinstance(value, str):
            raise FieldError(_("Give text"))
        text = value.strip() if self.strip else value
        if "\x00" in text:
            raise FieldError(_("This text contains a forbidden character"))
        if len(text) < self.min_len:
            raise FieldError(_(self.missing_message) if not text
                             else _("Use at least %(min)s characters", min=self.min_len))
        if len(text) > self.max_len:
            raise FieldError(_("Use at most %(max)s characters", max=self.max_len))
        return text


@dataclass
class Bool(Field):
    """``true``/``false``; in forms also ``on``/``yes``/``1`` and ``off``/``no``/``0``."""

    TRUE = frozenset({"1", "true", "on", "yes"})
    FALSE = frozenset({"0", "false", "off", "no", ""})

    def convert(self, value: Any, form: bool) -> bool:
        if isinstance(value, bool):
            return value
        if form and isinstance(value, str) and value.strip().lower() in self.TRUE | self.FALSE:
            return value.strip().lower() in self.TRUE
        raise FieldError(_("Give true or false"))


@dataclass
class Choice(Field):
    """One of the listed values (compared exactly; text is not stripped)."""

    choices: Iterable[Any] = ()

    def convert(self, value: Any, form: bool) -> Any:
        options = list(self.choices)
        if isinstance(value, bool) or value not in options:
            shown = ", ".join(str(option) for option in options)
            raise FieldError(_("Choose one of: %(choices)s", choices=shown))
        return value


@dataclass
class List(Field):
    """A list of ``item`` values, at most ``max_items`` of them."""

    item: Field = field(default_factory=Field)
    min_items: int = 0
    max_items: int = 100

    def convert(self, value: Any, form: bool) -> list[Any]:
        if not isinstance(value, list):
            raise FieldError(_("Give a list"))
        if len(value) < self.min_items:
            raise FieldError(_("Give at least %(min)s", min=self.min_items))
        if len(value) > self.max_items:
            raise FieldError(_("Give at most %(max)s", max=self.max_items))
        result = []
        for index, element in enumerate(value, start=1):
            try:
                result.append(self.item.load(element, form))
            except FieldError as exc:
                raise FieldError(_("Item %(index)s: %(problem)s", index=index, problem=exc)) from None
        return result


@dataclass
class Nested(Field):
    """An object validated by another ``Schema`` (errors named ``outer.inner``)."""

    schema: Schema | None = None

    def convert(self, value: Any, form: bool) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            raise FieldError(_("Give an object"))
        assert self.schema is not None
        return self.schema.load(value, form=form)


@dataclass
class Any_(Field):
    """Anything JSON (the service validates it: e.g. a structure's levels)."""

    def convert(self, value: Any, form: bool) -> Any:
        return value


class Schema:
    """A declared body: field name -> ``Field``.  ``load`` validates and converts."""

    def __init__(self, fields: Mapping[str, Field], *, extra: str = "ignore") -> None:
        if extra not in ("ignore", "forbid"):
            raise ValueError("extra is 'ignore' or 'forbid'")
        self.fields = dict(fields)
        self.extra = extra

    def load(self, data: Any, *, form: bool = False) -> dict[str, Any]:
        """The validated body, or ``Invalid({field: sentence, ...})`` naming every bad field."""
        if not isinstance(data, Mapping):
            raise Invalid({"body": _("The body must be a JSON object")})
        errors: dict[str, str] = {}
        result: dict[str, Any] = {}
        for name, spec in self.fields.items():
            value = data.get(name, MISSING)
            if value is MISSING or (form and value == "" and not spec.nullable
                                    and not isinstance(spec, Str | Bool)):
                if spec.required:
                    errors[name] = _(spec.missing_message)
                else:
                    result[name] = spec.default
                continue
            try:
                result[name] = spec.load(value, form)
            except FieldError as exc:
                errors[name] = str(exc)
            except Invalid as exc:  # a Nested schema
                errors.update({f"{name}.{key}": message for key, message in exc.errors.items()})
        if self.extra == "forbid":
            for name in data:
                if name not in self.fields and name != "csrf_token":
                    errors[str(name)[:40]] = _("This field is not expected here")
        if errors:
            raise Invalid(errors)
        return result


def json_body(schema: Schema | None = None) -> dict[str, Any]:
    """The request's JSON object, validated by ``schema`` (a 400 naming the field otherwise).

    Without a schema: just the object (a 400 naming ``body`` when it is not one).
    """
    from flask import request  # noqa: PLC0415

    data = request.get_json(force=True, silent=True)
    if not isinstance(data, dict):
        raise Invalid({"body": _("The body must be a JSON object")})
    return data if schema is None else schema.load(data)


def form_body(schema: Schema) -> dict[str, Any]:
    """The request's form fields, validated by ``schema`` (text is parsed: ``form=True``).

    A field sent several times keeps its first value; use ``request.form.getlist``
    for real lists (a ``List`` field reads them when the form repeats the name).
    """
    from flask import request  # noqa: PLC0415

    data: dict[str, Any] = {}
    for name in request.form:
        values = request.form.getlist(name)
        spec = schema.fields.get(name)
        data[name] = values if isinstance(spec, List) else values[0]
    return schema.load(data, form=True)
