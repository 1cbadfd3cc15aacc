"""The one request-body validation layer.

A view declares what it takes and loads it in one line; anything else is a
400 naming the field (``director.errors.Invalid``), never a 500::

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
  integer beyond ``WHOLE_LIMIT`` (``10**15``) is refused even with no ``max``;
* form values arrive as text: ``Int`` and ``Bool`` parse them (``form=True``);
* unknown keys are ignored unless the schema says ``extra="forbid"``;
* ``Schema.load`` returns a new ``dict`` with every declared key present
  (absent optional fields get their ``default``; with ``partial=True`` they are
  left out, so an update keeps the stored value);
* ``rules`` check across fields after the fields load, so a form's every
  mistake is named at once ("The rebuy chips is required" when rebuys are on);
* the director's forms speak in labelled sentences: ``Whole``, ``Amount`` and
  ``TableNumbers`` read text in JSON too and say "Table size must be between
  6 and 10", "The buy-in cannot be negative (-5)".

Why not pydantic or marshmallow: their messages are written for programmers;
these are written for a tournament director or a dealer.  Measured
(``benchmarks/schemas.py``, issue 27): pydantic names the field too, but our
translated sentences would need a second layer from its error types and each
field's label and bounds; its lax ``int`` takes ``true`` and ``7.0``; and the
microseconds it saves per body are lost in a request's millisecond.

>>> s = Schema({"seat": Int(min=1, max=10), "note": Str(required=False, default="")})
>>> s.load({"seat": 3})
{'seat': 3, 'note': ''}
>>> s.load({"seat": True})
Traceback (most recent call last):
...
director.errors.Invalid: seat: Give a whole number
>>> s.load({"seat": "4"}, form=True)["seat"]
4
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import fields as flags
from decimal import Decimal, InvalidOperation
from itertools import accumulate
from typing import Any, TypeVar

from babel.numbers import UnknownCurrencyError, validate_currency
from flask import current_app, request

from director.errors import Invalid
from director.i18n import gettext as _
from director.i18n import number_filter, translate_violation
from director.models.tournament import MAX_CHIPS
from director.poker.cards import Card, parse_card
from director.poker.errors import RuleViolation
from director.poker.policy import Policy
from director.poker.rulings import RulingPolicy
from director.tournament.payouts import TEMPLATES, PayoutTable
from director.tournament.seating import ROOM_TABLES_MAX, SEAT_CHOICES

MISSING: Any = object()


def N_(text: str) -> str:  # noqa: N802  (the gettext convention: marked, translated when raised)
    return text

_WHOLE = re.compile(r"-?[0-9]{1,18}")

MAX_JSON_DEPTH = 32   # arrays and objects inside each other; the deepest real body has 4
DEEP_JSON = N_("The JSON body is nested deeper than %(max)s levels")
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_depth(text: str | bytes) -> int:
    """How deep arrays and objects nest in a JSON text (brackets inside strings aside),
    counted without recursion and without parsing: the text need not be valid JSON.

    Python's parser recurses once per level, so 100,000 nested lists raise
    ``RecursionError``; this is what is checked before any body is parsed.

    >>> json_depth('{"a": [1, [2]], "b": "[[[ {"}')
    3
    >>> json_depth(b"[" * 100000)
    100000
    """
    if isinstance(text, bytes):
        text = text.decode(json.detect_encoding(text), errors="replace")
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def load_json(text: str | bytes) -> Any:
    """``json.loads`` that refuses a text nested deeper than ``MAX_JSON_DEPTH`` with a
    ``ValueError`` (a sentence) instead of recursing into it."""
    if json_depth(text) > MAX_JSON_DEPTH:
        raise ValueError(_(DEEP_JSON, max=MAX_JSON_DEPTH))
    try:
        return json.loads(text)
    except RecursionError:    # pragma: no cover (the depth check above comes first)
        raise ValueError(_(DEEP_JSON, max=MAX_JSON_DEPTH)) from None


class FieldError(ValueError):
    """One field's sentence (raised by a field's ``convert``)."""


WHOLE_LIMIT = 10**15   # no whole number typed or sent is larger, bounds or not
_SPACES = str.maketrans("", "", ", \u00a0\u202f")  # thousands separators people type
_DIGITS = re.compile(r"-?[0-9]+")


def whole_number(value: Any, *, low: int | None = None, high: int | None = None,
                 label: str | None = None, negative: bool = False, text: bool = True) -> int:
    """The one reading of a whole number a person typed or a client sent: an ``int``
    (never a ``bool`` or a float), or text of ASCII digits (``text=False``: JSON,
    where only a number is a number) with thousands separators (``"20,000"``,
    ``"20 000"``), in ``[low, high]`` and never beyond ``WHOLE_LIMIT``.

    A bad value raises ``FieldError`` with a translated sentence.  With ``label``
    (already translated) the sentence names it, the way a form and a service say
    it ("Chips must be between 0 and 10,000"); ``negative=True`` says "cannot be
    negative" for a value below zero.  Without a label the caller names the field
    (a schema's path) and the sentence is "Give a number of at least 1".

    >>> whole_number(" 20,000 ", low=0, high=10**6, label="Chips")
    20000
    >>> whole_number("٣", low=1, high=10)   # Arabic-Indic 3: int() reads it, we do not
    Traceback (most recent call last):
    ...
    director.schemas.FieldError: Give a whole number
    >>> whole_number(True, low=0, high=10, label="Seat")
    Traceback (most recent call last):
    ...
    director.schemas.FieldError: Seat must be a whole number
    >>> whole_number("-5", low=0, high=10, label="The buy-in", negative=True)
    Traceback (most recent call last):
    ...
    director.schemas.FieldError: The buy-in cannot be negative (-5)
    >>> whole_number("9" * 40, low=1, high=10, label="Seat")
    Traceback (most recent call last):
    ...
    director.schemas.FieldError: Seat must be between 1 and 10
    """
    too_large = False
    if isinstance(value, str) and text:
        digits = value.strip().translate(_SPACES)
        if not _DIGITS.fullmatch(digits):
            if label is None:
                raise FieldError(_("Give a whole number"))
            raise FieldError(_("%(label)s must be a whole number, not “%(value)s”",
                               label=label, value=value[:30]))
        too_large = len(digits.lstrip("-")) > 18
        value = 0 if too_large else int(digits)
    if isinstance(value, bool) or not isinstance(value, int):
        if label is None:
            raise FieldError(_("Give a whole number"))
        raise FieldError(_("%(label)s must be a whole number", label=label))
    too_large = too_large or abs(value) > WHOLE_LIMIT
    if label is None:
        if too_large:
            raise FieldError(_("That number is too large"))
        if low is not None and value < low:
            raise FieldError(_("Give a number of at least %(min)s", min=low))
        if high is not None and value > high:
            raise FieldError(_("Give a number of at most %(max)s", max=high))
        return value
    if negative and not too_large and low is not None and value < 0 <= low:
        raise FieldError(_("%(label)s cannot be negative (%(value)s)", label=label, value=value))
    low_, high_ = (-WHOLE_LIMIT if low is None else low), (WHOLE_LIMIT if high is None else high)
    if too_large or not low_ <= value <= high_:
        raise FieldError(_("%(label)s must be between %(low)s and %(high)s",
                           label=label, low=number_filter(low_), high=number_filter(high_)))
    return value


def whole_in(data: Mapping[str, Any], name: str, label: str, *, low: int, high: int,
             default: int | None = None, required: bool = False,
             negative: bool = False) -> int | None:
    """``whole_number`` of ``data[name]`` for a service: blank or absent is ``default``
    (or "… is required"), a bad value an ``Invalid`` naming ``name``.

    >>> whole_in({"chips": "1,500"}, "chips", "Chips", low=0, high=10**6)
    1500
    >>> whole_in({"table": " "}, "table", "Table", low=1, high=99, required=True)
    Traceback (most recent call last):
    ...
    director.errors.Invalid: table: Table is required
    """
    value = data.get(name)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required and default is None:
            raise Invalid({name: _("%(label)s is required", label=label)})
        return default
    try:
        return whole_number(value, low=low, high=high, label=label, negative=negative)
    except FieldError as exc:
        raise Invalid({name: str(exc)}) from None


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

    def missing_text(self) -> str:
        """The sentence for a required field that is absent (translated now)."""
        return _(self.missing_message)

    def load(self, value: Any, form: bool) -> Any:
        if value is None or (form and value == "" and self.nullable):
            if self.nullable:
                return None
            raise FieldError(self.missing_text())
        result = self.convert(value, form)
        if self.check is not None:
            problem = self.check(result)
            if problem:
                raise FieldError(problem)
        return result


@dataclass
class Int(Field):
    """A whole number in ``[min, max]``: not a boolean, not a float, not huge
    (``whole_number``, its sentences without a label: the field is named by its path)."""

    min: int | None = None
    max: int | None = None
    LIMIT = WHOLE_LIMIT

    def convert(self, value: Any, form: bool) -> int:
        return whole_number(value, low=self.min, high=self.max, text=form)


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
    """``true``/``false``; in forms also ``on``/``yes``/``1`` and ``off``/``no``/``0``.

    ``text=True`` reads those words in JSON too; ``message`` replaces "Give true
    or false" (with ``%(label)s`` filled from ``label`` when there is one).
    """

    TRUE = frozenset({"1", "true", "on", "yes"})
    FALSE = frozenset({"0", "false", "off", "no", ""})
    text: bool = False
    message: str | None = None
    label: str | None = None

    def convert(self, value: Any, form: bool) -> bool:
        if isinstance(value, bool):
            return value
        if (form or self.text) and isinstance(value, str) \
                and value.strip().lower() in self.TRUE | self.FALSE:
            return value.strip().lower() in self.TRUE
        if self.message is None:
            raise FieldError(_("Give true or false"))
        if self.label is None:
            raise FieldError(_(self.message))
        raise FieldError(_(self.message, label=_(self.label)))


@dataclass
class Choice(Field):
    """One of the listed values (compared exactly; text is not stripped).

    ``message`` replaces "Choose one of: …"; it names the options with ``%(choices)s``.
    """

    choices: Iterable[Any] = ()
    message: str | None = None

    def convert(self, value: Any, form: bool) -> Any:
        options = list(self.choices)
        if isinstance(value, bool) or value not in options:
            shown = ", ".join(str(option) for option in options)
            raise FieldError(_(self.message or N_("Choose one of: %(choices)s"), choices=shown))
        return value


def _check_list(value: Any, min_items: int, max_items: int) -> None:
    """A list of ``min_items`` to ``max_items`` elements, or a sentence why not."""
    if not isinstance(value, list):
        raise FieldError(_("Give a list"))
    if len(value) < min_items:
        raise FieldError(_("Give at least %(min)s", min=min_items))
    if len(value) > max_items:
        raise FieldError(_("Give at most %(max)s", max=max_items))


@dataclass
class List(Field):
    """A list of ``item`` values, at most ``max_items`` of them."""

    item: Field = field(default_factory=Field)
    min_items: int = 0
    max_items: int = 100

    def convert(self, value: Any, form: bool) -> list[Any]:
        _check_list(value, self.min_items, self.max_items)
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
class Items(Field):
    """A list of objects, each validated by ``schema``; a bad one is named by its
    place, counted from 0 as in the JSON (``exposed[0].card``).

    >>> Items(schema=Schema({"seat": Int(min=1, max=10)})).load([{"seat": 3}], form=False)
    [{'seat': 3}]
    >>> Schema({"cards": Items(schema=Schema({"seat": Int(min=1, max=10)}))}).load({"cards": [{"seat": 0}]})
    Traceback (most recent call last):
    ...
    director.errors.Invalid: cards[0].seat: Give a number of at least 1
    """

    schema: Schema | None = None
    min_items: int = 0
    max_items: int = 100

    def convert(self, value: Any, form: bool) -> list[dict[str, Any]]:
        _check_list(value, self.min_items, self.max_items)
        assert self.schema is not None
        errors: dict[str, str] = {}
        result = []
        for index, element in enumerate(value):
            try:
                result.append(self.schema.load(element, form=form))
            except Invalid as exc:
                errors.update({f"[{index}]" + ("" if key == "body" else f".{key}"): message
                               for key, message in exc.errors.items()})
        if errors:
            raise Invalid(errors)
        return result


@dataclass
class Labelled(Field):
    """A field whose sentences name it by its label, the way the director's form does:
    "Table size must be between 6 and 10", "Ann's stack is required".

    ``label`` is marked with ``N_`` and translated when a sentence is made;
    ``label_params`` fill its placeholders (``N_("%(name)s's stack")``, ``{"name": "Ann"}``).
    A blank or ``null`` value counts as absent: ``default``, or "… is required".
    """

    label: str = ""
    label_params: Mapping[str, Any] = field(default_factory=dict)

    def label_text(self) -> str:
        return _(self.label, **self.label_params)

    def missing_text(self) -> str:
        return _("%(label)s is required", label=self.label_text())

    def load(self, value: Any, form: bool) -> Any:
        if value is None or (isinstance(value, str) and not value.strip()):
            if self.required:
                raise FieldError(self.missing_text())
            return self.default
        result = self.convert(value, form)
        problem = self.check(result) if self.check is not None else None
        if problem:
            raise FieldError(problem)
        return result


@dataclass
class Whole(Labelled):
    """A whole number typed in a form or sent as JSON (text or number), in ``[min, max]``.

    Unlike ``Int`` it reads text in JSON too ("20,000"), and its sentences name
    the field by its label.  ``negative=True`` says "cannot be negative" for a
    value below zero (the money forms); otherwise a value out of range is
    "must be between".

    >>> Whole(label="Table size", min=6, max=10).load(" 9 ", form=False)
    9
    >>> Whole(label="Table size", min=6, max=10).load("12", form=True)
    Traceback (most recent call last):
    ...
    director.schemas.FieldError: Table size must be between 6 and 10
    """

    min: int = 0
    max: int = WHOLE_LIMIT
    negative: bool = False

    def convert(self, value: Any, form: bool) -> int:
        return whole_number(value, low=self.min, high=self.max, label=self.label_text(),
                            negative=self.negative)


@dataclass
class Amount(Labelled):
    """An amount of money in the currency's major units, as typed ("110", "110.50",
    "1,250") or sent (110.5): a ``Decimal``, never negative, never a float.

    How many decimals the currency has is the service's rule (it knows the
    currency); the schema refuses what is not an amount at all.

    >>> Amount(label="The buy-in").load("1,250.50", form=True)
    Decimal('1250.50')
    >>> Amount(label="The buy-in").load("-5", form=True)
    Traceback (most recent call last):
    ...
    director.schemas.FieldError: The buy-in cannot be negative (-5)
    """

    max: int = 10**14

    def convert(self, value: Any, form: bool) -> Decimal:
        like = N_("%(label)s must be an amount like 110 or 110.50")
        if isinstance(value, Decimal):
            text = str(value)
        elif isinstance(value, bool) or not isinstance(value, int | float | str):
            raise FieldError(_(like, label=self.label_text()))
        elif isinstance(value, str):
            text = value.strip().translate(_SPACES)
        else:
            text = repr(value)
        try:
            number = Decimal(text)
        except InvalidOperation:
            raise FieldError(_("%(label)s must be an amount like 110 or 110.50, not “%(value)s”",
                               label=self.label_text(), value=str(value)[:30])) from None
        if not number.is_finite():
            raise FieldError(_(like, label=self.label_text()))
        if number < 0:
            raise FieldError(_("%(label)s cannot be negative (%(value)s)",
                               label=self.label_text(), value=str(value)[:30]))
        if number > self.max:
            raise FieldError(_("%(label)s is too large", label=self.label_text()))
        return number


@dataclass
class TableNumbers(Labelled):
    """Table numbers in order, none twice: a JSON list or text like "3, 2, 1".

    Blank or ``null`` is no tables at all (``()``).

    >>> TableNumbers(label="Breaking order").load("3, 2; 1", form=True)
    (3, 2, 1)
    """

    max: int = 10_000

    def load(self, value: Any, form: bool) -> tuple[int, ...]:
        return () if value is None else self.convert(value, form)

    def convert(self, value: Any, form: bool) -> tuple[int, ...]:
        like = FieldError(_("%(label)s must be a list of table numbers like 3, 2, 1",
                            label=self.label_text()))
        items: list[Any]
        if isinstance(value, str):
            items = [part for part in value.replace(";", ",").replace(" ", ",").split(",") if part]
        elif isinstance(value, list | tuple) and len(value) <= self.max:
            items = list(value)
        else:
            raise like
        numbers = []
        for item in items:
            if isinstance(item, bool) or not (
                    isinstance(item, int) or (isinstance(item, str) and _WHOLE.fullmatch(item.strip()))):
                raise like
            number = int(item)
            if not 1 <= number <= self.max:
                raise FieldError(_("%(label)s: %(number)s is not a table number",
                                   label=self.label_text(), number=number))
            numbers.append(number)
        if len(set(numbers)) != len(numbers):
            raise FieldError(_("%(label)s lists a table twice", label=self.label_text()))
        return tuple(numbers)


@dataclass
class Any_(Field):
    """Anything JSON (the service validates it: e.g. a structure's levels)."""

    def convert(self, value: Any, form: bool) -> Any:
        return value


@dataclass
class Code(Str):
    """A code as typed or sent: text, or a whole number (a tablet may send the digits
    as a number); spaces are dropped.  ``missing_message`` is the sentence for a
    missing code and for anything that is not one.

    >>> Code().load(" 123 456 ", form=False)
    '123456'
    """

    max_len: int = 40

    def convert(self, value: Any, form: bool) -> str:
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**self.max_len:
            value = str(value)
        if not isinstance(value, str):
            raise FieldError(_(self.missing_message))
        return super().convert(value.replace(" ", ""), form)


@dataclass
class JsonText(Field):
    """JSON typed in a form's text box (the director's correction of a hand's events),
    read into a list (``kind=list``) or an object (``kind=dict``); ``message`` for
    anything else.  A JSON body may send the value itself.

    >>> JsonText(kind=list, message="Give a list").load('[1, {"a": 2}]', form=True)
    [1, {'a': 2}]
    """

    kind: type = list
    max_len: int = 2 * 1024 * 1024
    message: str = N_("This is required")

    def missing_text(self) -> str:
        return _(self.message)

    def convert(self, value: Any, form: bool) -> Any:
        if isinstance(value, str):
            if len(value) > self.max_len:
                raise FieldError(_("Use at most %(max)s characters", max=self.max_len))
            try:
                value = load_json(value)
            except ValueError:
                raise FieldError(_(self.message)) from None
        if not isinstance(value, self.kind):
            raise FieldError(_(self.message))
        return value


def _unknown_card(item: Any) -> bool:
    return item is None or item == "??"


@dataclass
class Cards(Field):
    """Cards as ``["As", "Kd"]`` or ``"AsKd"`` (read by the engine's
    ``director.poker.cards.parse_card``); ``"??"`` or ``null`` is a card nobody saw.
    At most ``max_cards``; ``name`` is the body's key, named in the sentences.

    >>> Cards().load("As ??", form=False)
    (Card(rank=14, suit='s'), None)
    >>> Cards().load(["As", "Zz"], form=False)
    Traceback (most recent call last):
    ...
    director.schemas.FieldError: Zz is not a card (write it as As, Td, 7h ...)
    """

    name: str = "cards"
    max_cards: int = 7
    missing_message: str = N_("Enter the cards")

    def convert(self, value: Any, form: bool) -> tuple[Card | None, ...]:
        if isinstance(value, str):
            text = value.replace(" ", "").replace(",", "")
            if len(text) % 2:
                raise FieldError(_("Cannot read the cards %(text)s", text=value[:30]))
            value = [text[i:i + 2] for i in range(0, len(text), 2)]
        if isinstance(value, tuple):
            value = list(value)           # loaded already
        if not isinstance(value, list) or len(value) > self.max_cards:
            raise FieldError(_("%(name)s must be a list of cards such as [\"As\", \"Kd\"]", name=self.name))
        out: list[Card | None] = []
        for item in value:
            if _unknown_card(item):
                out.append(None)
                continue
            try:
                out.append(parse_card(item if isinstance(item, Card) else str(item)))
            except (RuleViolation, ValueError):
                raise FieldError(_("%(card)s is not a card (write it as As, Td, 7h ...)",
                                   card=str(item)[:10])) from None
        return tuple(out)


def _seat_number(key: Any, seat: Field) -> int:
    if isinstance(key, str) and _WHOLE.fullmatch(key.strip()):
        key = int(key.strip())
    number: int = seat.load(key, False)
    return number


@dataclass
class SeatCards(Field):
    """Cards per seat, ``{"3": ["??", "??", "As"], ...}``: ``{3: (None, None, Card)}``.

    A bad seat or a bad card is named ``<name>.<seat>`` (``cards.3``), as a nested
    object's field is.

    >>> SeatCards().load({"3": "KdAs"}, form=False)
    {3: (Card(rank=13, suit='d'), Card(rank=14, suit='s'))}
    """

    name: str = "cards"
    seat: Field = field(default_factory=lambda: Int(min=1, max=10))
    cards: Cards = field(default_factory=Cards)

    def convert(self, value: Any, form: bool) -> dict[int, tuple[Card | None, ...]]:
        if not isinstance(value, Mapping) or not value or len(value) > 10:
            raise FieldError(_("%(name)s must map seat numbers to cards", name=self.name))
        out: dict[int, tuple[Card | None, ...]] = {}
        errors: dict[str, str] = {}
        for key, item in value.items():
            try:
                out[_seat_number(key, self.seat)] = self.cards.load(item, form)
            except FieldError as exc:
                errors[str(key)[:10]] = str(exc)
        if errors:
            raise Invalid(errors)
        return out


@dataclass
class SeatGroups(Field):
    """Winners best first, ties grouped: ``[[3], [1, 5]]``; a flat list ``[3, 1]`` is
    one seat per group.  ``null`` (or absent, with ``default=[]``) is no one.

    >>> SeatGroups(name="high").load([3, [1, 5]], form=False)
    [[3], [1, 5]]
    >>> SeatGroups(name="high").load([[1, 1]], form=False)
    Traceback (most recent call last):
    ...
    director.schemas.FieldError: A seat is named twice
    """

    name: str = "high"
    seat: Field = field(default_factory=lambda: Int(min=1, max=10))
    nullable: bool = True

    def load(self, value: Any, form: bool) -> list[list[int]]:
        return [] if value is None else list(super().load(value, form))

    def convert(self, value: Any, form: bool) -> list[list[int]]:
        shape = FieldError(_("%(name)s must be a list of seat groups, best first", name=self.name))
        if not isinstance(value, list) or len(value) > 10:
            raise shape
        groups: list[list[int]] = []
        for index, group in enumerate(value, start=1):
            items = group if isinstance(group, list) else [group]
            if len(items) > 10:
                raise shape
            seats: list[int] = []
            for place, item in enumerate(items, start=1):
                try:
                    seats.append(self.seat.load(item, form))
                except FieldError as exc:
                    problem = _("Item %(index)s: %(problem)s", index=place, problem=exc) \
                        if isinstance(group, list) else str(exc)
                    raise FieldError(_("Item %(index)s: %(problem)s", index=index,
                                       problem=problem)) from None
            if len(set(seats)) != len(seats):
                raise FieldError(_("A seat is named twice"))
            groups.append(seats)
        return groups


Rule = Callable[[Mapping[str, Any]], Mapping[str, str]]


class Schema:
    """A declared body: field name -> ``Field``.  ``load`` validates and converts.

    ``partial=True``: an absent optional field is left out of the result, so a
    settings update keeps the stored value of every field it does not send.
    ``rules``: checks across fields (``rule(values) -> {field: sentence}``),
    run on the fields that loaded, so that every mistake of a form is named at
    once; a rule looks only at the fields it needs (``values.get``).
    """

    def __init__(self, fields: Mapping[str, Field], *, extra: str = "ignore",
                 partial: bool = False, rules: Sequence[Rule] = ()) -> None:
        if extra not in ("ignore", "forbid"):
            raise ValueError("extra is 'ignore' or 'forbid'")
        self.fields = dict(fields)
        self.extra = extra
        self.partial = partial
        self.rules = tuple(rules)

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
                    errors[name] = spec.missing_text()
                elif not self.partial:
                    result[name] = spec.default
                continue
            try:
                result[name] = spec.load(value, form)
            except FieldError as exc:
                errors[name] = str(exc)
            except Invalid as exc:  # a Nested schema, or Items ("[0].seat")
                errors.update({f"{name}{key}" if key.startswith("[") else f"{name}.{key}": message
                               for key, message in exc.errors.items()})
        for rule in self.rules:
            for name, message in rule(result).items():
                errors.setdefault(name, message)
        if self.extra == "forbid":
            for name in data:
                if name not in self.fields and name != "csrf_token":
                    errors[str(name)[:40]] = _("This field is not expected here")
        if errors:
            raise Invalid(errors)
        return result


def json_body(schema: Schema | None = None, *,
              known: Iterable[str] | None = None) -> dict[str, Any]:
    """The request's JSON object, validated by ``schema`` (a 400 naming the field otherwise).

    Without a schema: just the object (a 400 naming ``body`` when it is not one, or
    when it nests deeper than ``MAX_JSON_DEPTH``: the parser would recurse into it),
    its fields limited to ``known`` when given.  A field the route does not know is
    refused, named (:func:`unknown_fields`).
    """
    if json_depth(request.get_data(cache=True)) > MAX_JSON_DEPTH:
        raise Invalid({"body": _(DEEP_JSON, max=MAX_JSON_DEPTH)})
    data = request.get_json(force=True, silent=True)
    if not isinstance(data, dict):
        raise Invalid({"body": _("The body must be a JSON object")})
    if schema is None:
        if known is not None:
            unknown_fields(data, known)
        return data
    unknown_fields(data, schema.fields)
    return schema.load(request_key_from_transport(data, schema))


TRANSPORT_FIELDS = frozenset({"csrf_token", "idempotency_key"})

IDEMPOTENCY_KEY_MAX = 100
IDEMPOTENCY_KEY = Str(min_len=1, max_len=IDEMPOTENCY_KEY_MAX, required=False, nullable=True)
"""A write's ``idempotency_key`` (optional): the same key again is the same request sent
again (the dealer's writes, the director's clock and seating clicks: ``services.once``)."""

REQUEST_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A ``request_key`` as a sale, a registration, a prize or the waiting list keep it."""


def request_key_from_transport(data: Mapping[str, Any], schema: Schema) -> Mapping[str, Any]:
    """A route whose retry key is ``request_key`` (the money desk, a registration, the
    waiting list) takes the transport's ``idempotency_key`` as that key: a client that
    keys every write with it, as the tablet and the director's page do, is answered as
    the first time when it sends one again, not refused as a second registration or
    recorded as a second payment.  A key that is no request key's letters is kept as
    its digest (the same key, the same digest).  Both keys, different: a 400 naming
    ``idempotency_key`` (which of the two is the request's is not for us to guess)."""
    transport = data.get("idempotency_key")
    if "request_key" not in schema.fields or transport in (None, ""):
        return data
    transport = _TRANSPORT_KEY.load({"idempotency_key": transport})["idempotency_key"]
    key = transport if REQUEST_KEY.fullmatch(transport) else (
        "k-" + hashlib.sha256(transport.encode()).hexdigest()[:62])
    own = data.get("request_key")
    if own in (None, ""):
        return {**data, "request_key": key}
    if own != key and own != transport:
        raise Invalid({"idempotency_key": _(
            "This request has two keys, request_key and idempotency_key, that differ: "
            "send one of them")})
    return data


_TRANSPORT_KEY = Schema({"idempotency_key": IDEMPOTENCY_KEY})


def unknown_fields(data: Mapping[str, Any], known: Iterable[str]) -> None:
    """Refuse a request body's fields that its route does not know, naming each (a 400):
    a misspelt ``"bye"`` must not be taken as a request without ``"by"``.  Every JSON
    route's body goes through here (``json_body``), and every form's (``form_body``,
    :func:`form_fields`); one read without a schema names its fields itself.  The fields
    of the transport may come with any body: the CSRF token, and the tablet's
    ``idempotency_key`` (its ``send`` puts one on every write).  A known name ending in
    ``*`` is a family of fields (``"count-*"``: one a player, named by his id).
    """
    names = set(known) | TRANSPORT_FIELDS
    families = tuple(name[:-1] for name in names if name.endswith("*"))
    errors = {str(name)[:40]: _("This field is not expected here: %(field)s is not one of "
                                "this request's fields", field=str(name)[:40])
              for name in data if name not in names
              and not (families and str(name).startswith(families))}
    if errors:
        raise Invalid(errors)


def form_body(schema: Schema, *also: str) -> dict[str, Any]:
    """The request's form fields, validated by ``schema`` (text is parsed: ``form=True``).

    A field the route does not know is refused, named (:func:`unknown_fields`): the
    schema's fields, ``also`` (what a page's form sends besides: ``back``, a submit
    button's name) and what the route declares with :func:`form_fields` are known.

    A field sent several times keeps its first value; use ``request.form.getlist``
    for real lists (a ``List`` field reads them when the form repeats the name).
    """
    refuse_body([*schema.fields, *also, *declared_fields()])
    data: dict[str, Any] = {}
    for name in request.form:
        values = request.form.getlist(name)
        spec = schema.fields.get(name)
        data[name] = values if isinstance(spec, List) else values[0]
    return schema.load(request_key_from_transport(data, schema), form=True)


FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")
"""The bodies that are forms (``request.form``, ``request.files``); every other body is
read as JSON (``director.views.body_limits`` checks its depth)."""
View = TypeVar("View", bound=Callable[..., Any])


def declared_fields() -> tuple[str, ...]:
    """The form fields the current request's route declares (:func:`form_fields`)."""
    view = current_app.view_functions.get(request.endpoint or "")
    return tuple(getattr(view, "takes_form", ()))


def refuse_body(fields: Iterable[str] = ()) -> None:
    """Refuse the body of a request to a route that takes none, naming what it sent (a 400).

    Nothing, ``{}`` or a body of the transport's fields alone (:data:`TRANSPORT_FIELDS`:
    the CSRF token a page's form sends, the tablet's ``idempotency_key``) passes, and so
    do ``fields``, the few a page's form may send besides (``back``: the page to return
    to).  A form's other field, or a JSON object's, is named; a body that is not a JSON
    object (``{``, a text) names ``body``, and so does one nested too deep (as
    :func:`json_body`).
    """
    if request.mimetype in FORM_TYPES:
        unknown_fields(dict.fromkeys([*request.form, *request.files]), fields)
    elif request.get_data(cache=True).strip():
        json_body(known=fields)


def no_body(*fields: str, refused: Callable[..., Any] | None = None) -> Callable[[View], View]:
    """Declare a write route that takes no body (an undo, a draw, a confirm): one sent is
    refused before the view runs (:func:`refuse_body`), so that ``{"x": 1}`` is a 400
    naming ``x`` and changes nothing, never an undo that ignored it.

    ``refused(exc, **view_args)``: a page's own answer to a refused form (the page again
    with the errors beside its forms); without it the ``Invalid`` goes to the app's
    handler (a 400: JSON under ``/api/``, the error page elsewhere).

    The mark (``view.takes_no_body``, the form fields it allows) is kept by the outer
    decorators (``functools.wraps``); the test that walks the URL map checks that every
    write route reads a body or carries it.  Put it under the role's decorator, so that
    a stranger is refused for who he is before his body is looked at.
    """

    return _refusing(fields, refused, "takes_no_body")


def form_fields(*known: str | Schema,
                refused: Callable[..., Any] | None = None) -> Callable[[View], View]:
    """Declare the fields of a route that takes a form: the names and the schemas' fields
    (``known``), besides the transport's.  A form (or a JSON object) with another field
    is refused before the view runs, naming it (:func:`refuse_body`): a stray ``x`` is a
    400 and changes nothing, never a form whose unknown field was dropped.  Declare what
    the route's pages send: hidden inputs, a submit button's name, ``back``; a name
    ending in ``*`` is a family (``"count-*"``).

    ``refused(exc, **view_args)``: the page's own answer (the page again with the errors
    beside its forms), else the app's 400.  :func:`form_body` in the view knows the
    declared names too.  Put it under the role's decorator, as :func:`no_body`.
    """
    names = tuple(dict.fromkeys(name for item in known
                                for name in (item.fields if isinstance(item, Schema) else [item])))

    return _refusing(names, refused, "takes_form")


def _refusing(names: tuple[str, ...], refused: Callable[..., Any] | None,
              mark: str) -> Callable[[View], View]:
    """The decorator of :func:`no_body` and :func:`form_fields`: a written body with a
    field not in ``names`` is refused before the view runs (``refused``'s answer, else
    the ``Invalid`` goes on to the app's handler); the view is marked ``mark``."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def refusing(*args: Any, **kwargs: Any) -> Any:
            if request.method not in ("GET", "HEAD"):
                try:
                    refuse_body(names)
                except Invalid as exc:
                    if refused is None:
                        raise
                    return refused(exc, **kwargs)
            return view(*args, **kwargs)

        setattr(refusing, mark, names)
        return refusing  # type: ignore[return-value]

    return decorate


# ---------------------------------------------------------------- the settings and deal bodies
#
# Declared here, loaded by the views (``json_body``/``form_body``) and again by
# the services, which director code and scripts also call with raw values
# (loading a loaded body changes nothing).  The services keep what needs the
# stored settings or the players: defaults, the currency's decimals, the
# money rules of ``director.tournament.entries``.

MAX_LEVEL = 1000       # the highest level number a money setting may name
MAX_MONEY = 10**14     # minor units: far above any real prize pool
TABLE_SIZES = (6, 8, 9, 10)  # the choices; 7 only as a final table


def _table_size(size: int) -> str | None:
    return None if size in TABLE_SIZES else _("Tables seat 6, 8, 9 or 10 players")


SEATING_SETTINGS = Schema({
    "table_size": Whole(label=N_("Table size"), min=6, max=10, required=False,
                        check=_table_size),
    "balance_threshold": Whole(label=N_("Balance threshold"), min=1, max=5, required=False),
    "halt_short_by": Whole(label=N_("Halt play when short by"), min=2, max=10, required=False),
    # Blank clears it (no final table size of its own); absent keeps it.
    "final_table_size": Whole(label=N_("Final table size"), min=6, max=10, required=False,
                              nullable=True),
    "hand_for_hand_seconds": Whole(label=N_("Clock deduction per hand-for-hand hand (seconds)"),
                                   min=1, max=180, required=False),
    "redraw_at_tables": TableNumbers(label=N_("Redraw points"), required=False, nullable=True),
    "breaking_order": TableNumbers(label=N_("Breaking order"), required=False, nullable=True),
    "stud_only": Bool(text=True, message=N_("Stud only is yes or no"), required=False,
                      nullable=True),
    "smallest_chip": Whole(label=N_("Smallest chip in play"), min=0, max=MAX_CHIPS, required=False),
    "redraw_big_field": Bool(text=True, message=N_("Redraw at 3 and 2 tables is yes or no"),
                             required=False, nullable=True),
    # Issue 17 item 7: blank clears the room's tables (no limit); absent keeps it.
    "room_tables": Whole(label=N_("Tables in the room"), min=1, max=ROOM_TABLES_MAX,
                         required=False, nullable=True),
    "seat_choice": Choice(choices=SEAT_CHOICES, required=False, nullable=True,
                          message=N_("The director's seat choice is one of: %(choices)s")),
}, partial=True)
"""The seating settings (RULES.md §11.1): absent, blank or ``null`` keeps the stored value,
except ``final_table_size``, ``room_tables`` and the table lists, which blank or ``null``
clears."""


def payout_shares(value: Any) -> list[int]:
    """A custom payout table typed as percentages, first place first, as shares (basis points).

    >>> payout_shares("50, 30, 20")
    [5000, 3000, 2000]
    """
    if isinstance(value, list):
        parts = [str(part) for part in value]
    else:
        parts = [part for part in re.split(r"[,;\s]+", str(value or "")) if part]
    if not parts:
        raise FieldError(_("Type the percentage of each paid place, first place first: 50, 30, 20"))
    try:
        return list(PayoutTable.from_percentages(parts).shares)
    except RuleViolation as exc:
        raise FieldError(translate_violation(exc)) from None


def _custom_payouts(values: Mapping[str, Any]) -> dict[str, str]:
    if values.get("payout_template") != "custom":
        return {}
    try:
        payout_shares(values.get("custom_payouts"))
    except FieldError as exc:
        return {"custom_payouts": str(exc)}
    return {}


def required_if(flag: str, fields: Mapping[str, Field]) -> Rule:
    """A rule: when the switch ``flag`` is on, each of ``fields`` must be given.

    >>> rule = required_if("rebuy", {"rebuy_chips": Whole(label="The rebuy chips")})
    >>> rule({"rebuy": True, "rebuy_chips": None})
    {'rebuy_chips': 'The rebuy chips is required'}
    >>> rule({"rebuy": False, "rebuy_chips": None})
    {}
    """
    def rule(values: Mapping[str, Any]) -> dict[str, str]:
        if values.get(flag) is not True:
            return {}
        return {name: spec.missing_text() for name, spec in fields.items()
                if name in values and values[name] is None}
    return rule


def _currency(code: str) -> str | None:
    if not code:
        return None
    try:
        validate_currency(code.upper())
    except (UnknownCurrencyError, ValueError):
        return _("“%(code)s” is not a currency code (EUR, USD, SEK, IDR …)", code=code.upper()[:10])
    return None


def _amount(label: str, *, required: bool = False) -> Amount:
    return Amount(label=label, required=required, nullable=True)


def _count(label: str, low: int, high: int, *, required: bool = False) -> Whole:
    return Whole(label=label, min=low, max=high, negative=True, required=required, nullable=True)


def _switch(label: str) -> Bool:
    return Bool(label=label, message=N_("%(label)s is yes or no"), text=True, required=False,
                nullable=True, default=False)


_MONEY_FIELDS: dict[str, Field] = {
    "currency": Str(required=False, nullable=True, max_len=1000, check=_currency),
    "unit": _amount(N_("The rounding unit")),
    "buy_in": _amount(N_("The buy-in"), required=True),
    "fee": _amount(N_("The house fee")),
    "starting_stack": _count(N_("The starting stack"), 1, MAX_CHIPS, required=True),
    "late_registration_level": _count(N_("The late registration level"), 0, MAX_LEVEL),
    "re_entry": _switch(N_("Re-entry")),
    "re_entry_max": _count(N_("The number of re-entries"), 1, 1000),
    "re_entry_until": _count(N_("The last re-entry level"), 1, MAX_LEVEL),
    "rebuy": _switch(N_("Rebuys")),
    "add_on": _switch(N_("Add-on")),
    "guarantee": _amount(N_("The guarantee")),
    "rebuy_price": _amount(N_("The rebuy price")),
    "rebuy_fee": _amount(N_("The rebuy fee")),
    "rebuy_chips": _count(N_("The rebuy chips"), 1, MAX_CHIPS),
    "rebuy_until": _count(N_("The last rebuy level"), 1, MAX_LEVEL),
    "rebuy_stack_limit": _count(N_("The rebuy stack limit"), 0, MAX_CHIPS),
    "rebuy_max": _count(N_("The number of rebuys"), 1, 1000),
    "add_on_price": _amount(N_("The add-on price")),
    "add_on_fee": _amount(N_("The add-on fee")),
    "add_on_chips": _count(N_("The add-on chips"), 1, MAX_CHIPS),
    "add_on_break": _count(N_("The add-on break (after level)"), 1, MAX_LEVEL),
    "payout_template": Choice(choices=(*TEMPLATES, "custom"),
                              message=N_("The payout table is one of: %(choices)s"),
                              required=False, nullable=True),
    "custom_payouts": Any_(required=False, nullable=True),
    # Bounties and satellites (issue 17): the service checks the amount against the kind.
    "bounty_kind": Choice(choices=("none", "fixed", "pko"),
                          message=N_("The bounty is one of: %(choices)s"),
                          required=False, nullable=True),
    "bounty": _amount(N_("The bounty")),
    "satellite_seat": _amount(N_("The satellite seat value")),
}
MONEY_SETTINGS = Schema(_MONEY_FIELDS, rules=[
    required_if("rebuy", {name: _MONEY_FIELDS[name]
                          for name in ("rebuy_price", "rebuy_chips", "rebuy_until")}),
    required_if("add_on", {name: _MONEY_FIELDS[name]
                           for name in ("add_on_price", "add_on_chips", "add_on_break")}),
    _custom_payouts,
])
"""The money settings: the whole form each time (an absent switch is off, an absent
amount is the default: the service fills it).  The rebuy and add-on fields are
required only when those are on; the custom payouts only with the custom table."""


def deal_body(methods: Iterable[str], players: Iterable[tuple[int, str, int | None]]) -> Schema:
    """The deal's body for these players (``(id, name, chips)``): the ``method``, each
    player's stack ``stack_<id>`` (default: his chips now) and agreed amount
    ``amount_<id>`` (default: the calculated one, filled in by the service)."""
    fields: dict[str, Field] = {
        "method": Choice(choices=tuple(methods), message=N_("The deal is one of: %(choices)s"),
                         required=False, nullable=True)}
    for player_id, name, chips in players:
        fields[f"stack_{player_id}"] = Whole(
            label=N_("%(name)s's stack"), label_params={"name": name}, min=1, max=MAX_CHIPS,
            negative=True, required=not chips, default=chips or None)
        fields[f"amount_{player_id}"] = Amount(
            label=N_("%(name)s's amount"), label_params={"name": name}, required=False)
    return Schema(fields)


def _house_rules_fields() -> dict[str, Field]:
    """Every house-rule flag of RULES.md §11.1 a director may set: the choices come
    from the engine's flag sets (``Policy.CHOICES``, ``RulingPolicy.CHOICES``)."""
    out: dict[str, Field] = {
        # Blank or null: no cap; absent keeps the stored cap.
        "limit_raise_cap": Whole(label=N_("Raises allowed in fixed limit"), min=1, max=10,
                                 required=False, nullable=True),
    }
    for flag_set in (Policy, RulingPolicy):
        for flag in flags(flag_set):
            name = flag.name
            if name in out or name in HOUSE_RULES_SKIPPED:
                continue
            if name in flag_set.CHOICES:
                out[name] = Choice(choices=flag_set.CHOICES[name], required=False)
            else:
                out[name] = Bool(text=True, message=N_("Give yes or no"), required=False)
    return out


HOUSE_RULES_SKIPPED = ("straddle_min_raise",)
"""Flags the director does not set: the straddle is a cash-game matter (it keeps its default)."""

HOUSE_RULES = Schema(_house_rules_fields(), extra="forbid", partial=True)
"""The house rules (RULES.md §11.1): each flag by its name, flat; an absent flag keeps
its stored value, a blank raise cap is no cap."""
