"""Reading the dealer API's request bodies, in one place.

Every field a tablet sends is checked here and turned into a plain value;
anything wrong raises ``Invalid`` naming the field (a 400), never a 500.
The plain bodies are declared with the shared schema layer
(``director.schemas``); cards and seat groups, which need the engine's card
reader, have their readers below.  The services in ``dealer.py`` take the
parsed values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _

from director.poker.cards import Card, parse_card
from director.poker.errors import RuleViolation
from director.poker.events import ActionKind
from director.schemas import Choice, Int, List, Schema, Str
from director.services import Invalid

MAX_CHIPS = 10**12
KEY_MAX = 100
ACTIONS = tuple(k.value for k in ActionKind)


VERSION = Int(min=0, max=2**31, required=False, nullable=True)
KEY = Str(min_len=1, max_len=KEY_MAX, required=False, nullable=True)
SEAT = Int(min=1, max=10)

WRITE = Schema({"version": VERSION, "idempotency_key": KEY})
SEAT_WRITE = Schema({"seat": SEAT, "version": VERSION, "idempotency_key": KEY})
START = Schema({"absent_seats": List(item=SEAT, max_items=10, required=False, default=[],
                                     check=lambda v: "A seat is named twice" if len(set(v)) != len(v)
                                     else None)})
ACTION = Schema({"seat": SEAT, "action": Choice(choices=ACTIONS),
                 "amount": Int(min=0, max=MAX_CHIPS, required=False, nullable=True),
                 "version": VERSION, "idempotency_key": KEY})
CLOCK = Schema({"seat": Int(min=1, max=10, required=False, nullable=True),
                "version": VERSION, "idempotency_key": KEY})


def body_dict(data: Any) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise Invalid({"body": _("The body must be a JSON object")})
    return data


def integer(data: Mapping[str, Any], name: str, *, low: int = 0, high: int = MAX_CHIPS,
            required: bool = True, default: int | None = None) -> int | None:
    value = data.get(name)
    if value is None:
        if required:
            raise Invalid({name: _("%(name)s is required", name=name)})
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value.strip())
        else:
            raise Invalid({name: _("%(name)s must be a whole number", name=name)})
    if not low <= value <= high:
        raise Invalid({name: _("%(name)s must be between %(low)s and %(high)s",
                               name=name, low=low, high=high)})
    return int(value)


def required_int(data: Mapping[str, Any], name: str, *, low: int = 0, high: int = MAX_CHIPS) -> int:
    value = integer(data, name, low=low, high=high)
    assert value is not None
    return value


def version(data: Mapping[str, Any]) -> int | None:
    """The hand version the tablet saw (optional: without it, no conflict check)."""
    return integer(data, "version", low=0, high=2**31, required=False)


def idempotency_key(data: Mapping[str, Any]) -> str | None:
    value = data.get("idempotency_key")
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > KEY_MAX:
        raise Invalid({"idempotency_key": _("idempotency_key must be a text of 1 to %(n)s characters",
                                            n=KEY_MAX)})
    return value.strip()


def seat(data: Mapping[str, Any], name: str = "seat") -> int:
    return required_int(data, name, low=1, high=10)


def seats(data: Mapping[str, Any], name: str) -> list[int]:
    value = data.get(name)
    if value is None:
        return []
    if not isinstance(value, list):
        raise Invalid({name: _("%(name)s must be a list of seat numbers", name=name)})
    out: list[int] = []
    for i, item in enumerate(value):
        out.append(required_int({f"{name}[{i}]": item}, f"{name}[{i}]", low=1, high=10))
    if len(set(out)) != len(out):
        raise Invalid({name: _("A seat is named twice")})
    return out


def seat_groups(data: Mapping[str, Any], name: str) -> list[list[int]]:
    """``[[3], [1, 5]]``: winners best first, ties grouped (a flat list is one group each)."""
    value = data.get(name)
    if value is None:
        return []
    if not isinstance(value, list):
        raise Invalid({name: _("%(name)s must be a list of seat groups, best first", name=name)})
    groups: list[list[int]] = []
    for i, group in enumerate(value):
        items = group if isinstance(group, list) else [group]
        groups.append(seats({f"{name}[{i}]": items}, f"{name}[{i}]"))
    return groups


def cards(data: Mapping[str, Any], name: str = "cards", *, required: bool = True,
          count: int | None = None) -> tuple[Card | None, ...] | None:
    """Cards as ``["As", "Kd"]`` or ``"AsKd"``; ``"??"`` is a card nobody saw."""
    value = data.get(name)
    if value is None:
        if required:
            raise Invalid({name: _("Enter the cards")})
        return None
    if isinstance(value, str):
        text = value.replace(" ", "").replace(",", "")
        if len(text) % 2:
            raise Invalid({name: _("Cannot read the cards %(text)s", text=value)})
        value = [text[i:i + 2] for i in range(0, len(text), 2)]
    if not isinstance(value, list) or len(value) > 7:
        raise Invalid({name: _("%(name)s must be a list of cards such as [\"As\", \"Kd\"]", name=name)})
    out: list[Card | None] = []
    for item in value:
        if item is None or item == "??":
            out.append(None)
            continue
        try:
            out.append(parse_card(str(item)))
        except (RuleViolation, ValueError):
            raise Invalid({name: _("%(card)s is not a card (write it as As, Td, 7h ...)",
                                   card=str(item)[:10])}) from None
    if count is not None and len(out) != count:
        raise Invalid({name: _("Enter %(count)s card(s), not %(given)s", count=count, given=len(out))})
    return tuple(out)


def seat_cards(data: Mapping[str, Any], name: str = "cards") -> dict[int, tuple[Card | None, ...]]:
    """``{"3": ["??", "??", "As"], ...}``: cards per seat."""
    value = data.get(name)
    if not isinstance(value, Mapping) or not value:
        raise Invalid({name: _("%(name)s must map seat numbers to cards", name=name)})
    out: dict[int, tuple[Card | None, ...]] = {}
    for key, item in value.items():
        number = required_int({f"{name}.{key}": key}, f"{name}.{key}", low=1, high=10)
        parsed = cards({f"{name}.{key}": item}, f"{name}.{key}")
        assert parsed is not None
        out[number] = parsed
    return out


def flag(data: Mapping[str, Any], name: str, default: bool = False) -> bool:
    value = data.get(name, default)
    if not isinstance(value, bool):
        raise Invalid({name: _("%(name)s must be true or false", name=name)})
    return value


def text(data: Mapping[str, Any], name: str, *, choices: tuple[str, ...] | None = None,
         required: bool = True, default: str | None = None, limit: int = 200) -> str | None:
    value = data.get(name)
    if value is None:
        if required:
            raise Invalid({name: _("%(name)s is required", name=name)})
        return default
    if not isinstance(value, str) or len(value) > limit:
        raise Invalid({name: _("%(name)s must be a text", name=name)})
    if choices is not None and value not in choices:
        raise Invalid({name: _("%(name)s must be one of: %(choices)s", name=name,
                               choices=", ".join(choices))})
    return value


def int_list(data: Mapping[str, Any], name: str, *, low: int = 1, high: int = 52) -> list[int]:
    value = data.get(name)
    if not isinstance(value, list) or not value:
        raise Invalid({name: _("%(name)s must be a list of numbers", name=name)})
    return [required_int({f"{name}[{i}]": v}, f"{name}[{i}]", low=low, high=high)
            for i, v in enumerate(value)]
