"""The dealer tablet's request bodies, declared in one place.

Every field a tablet (or the director's hands page) sends is declared here
with the shared schema layer (``director.schemas``) and loaded by the view
with one call; anything wrong is ``Invalid`` naming the field (a 400), never
a 500, and nothing is stored.  The services in ``dealer.py`` take the parsed
values (seats as ``int``, cards as ``Card``/``None``, seat groups as lists).

A ruling's body is the common part (``RULING``) plus the fields its kind
reads (``RULINGS[kind]``); ``ruling_body`` loads both and names every bad
field at once.

>>> ruling_body({"ruling": "boxed_cards", "count": 2})["count"]
2
>>> ruling_body({"ruling": "boxed_cards", "count": True})
Traceback (most recent call last):
...
director.errors.Invalid: count: Give a whole number
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from director.i18n import N_
from director.i18n import gettext as _
from director.poker import rulings as R
from director.poker.errors import RuleViolation
from director.poker.events import ActionKind
from director.schemas import (
    IDEMPOTENCY_KEY,
    Bool,
    Cards,
    Choice,
    Code,
    Field,
    FieldError,
    Int,
    Items,
    JsonText,
    List,
    Schema,
    SeatCards,
    SeatGroups,
    Str,
    unknown_fields,
)
from director.services import Invalid

MAX_CHIPS = 10**12
ACTIONS = tuple(k.value for k in ActionKind)


def _no_seat_twice(seats: list[int]) -> str | None:
    return _("A seat is named twice") if len(set(seats)) != len(seats) else None


VERSION = Int(min=0, max=2**31, required=False, nullable=True)
"""The hand version the tablet saw (optional: without it, no conflict check)."""
KEY = IDEMPOTENCY_KEY
SEAT = Int(min=1, max=10)

WRITE = Schema({"version": VERSION, "idempotency_key": KEY})
SEAT_WRITE = Schema({"seat": SEAT, "version": VERSION, "idempotency_key": KEY})
START = Schema({"absent_seats": List(item=SEAT, max_items=10, required=False, default=[],
                                     check=_no_seat_twice)})
ACTION = Schema({"seat": SEAT, "action": Choice(choices=ACTIONS),
                 "amount": Int(min=0, max=MAX_CHIPS, required=False, nullable=True),
                 "version": VERSION, "idempotency_key": KEY})
STACK = Schema({"seat": SEAT, "chips": Int(min=0, max=MAX_CHIPS), "idempotency_key": KEY})
UNDO = Schema({"street": Bool(required=False, default=False), "version": VERSION, "idempotency_key": KEY})
SHOT_CLOCK = Schema({"seat": SEAT, "use": Choice(choices=("time_bank", "expired", "offline")),
                     "offline_seconds": Int(min=1, max=24 * 3600, required=False, nullable=True),
                     "version": VERSION, "idempotency_key": KEY})
"""``offline``: the tablet is back after ``offline_seconds`` without the server."""
CLOCK = Schema({"seat": Int(min=1, max=10, required=False, nullable=True),
                "version": VERSION, "idempotency_key": KEY})

BOARD = Schema({"cards": Cards(required=False, nullable=True), "version": VERSION,
                "idempotency_key": KEY})
"""The board cards (``null``: dealt unseen)."""
DEAL = Schema({"cards": SeatCards(required=False, nullable=True), "version": VERSION,
               "idempotency_key": KEY})
"""Stud up-cards or Omaha hole cards per seat (``null``: every live player's cards unseen)."""
SHOW = Schema({"seat": SEAT, "cards": Cards(), "version": VERSION, "idempotency_key": KEY})
AWARD = Schema({"high": SeatGroups(name="high", required=False, default=[]),
                "low": SeatGroups(name="low", required=False, default=[]),
                "version": VERSION, "idempotency_key": KEY})
"""The winners named by the dealer, best first, ties grouped: ``{"high": [[3], [1, 5]]}``."""
PAIR = Schema({"table": Int(min=1, max=10_000, missing_message=N_("Enter the number of your table")),
               "code": Code(min_len=1,
                            missing_message=N_("Enter the pairing code shown on the director's page"))})
"""A tablet pairs with one table: its number (written on the table and on the director's
page) and that table's code, so that wrong codes count against the table they guess
(``security.guarded_attempt``)."""
CORRECT = Schema({"events": JsonText(kind=list, message=N_("events must be the hand's list of events"),
                                     missing_message=N_("events must be the hand's list of events"))})
"""The director's correction of a finished hand (JSON API): its new list of events."""
CORRECT_FORM = Schema({"events": JsonText(kind=list, message=N_("The events must be a JSON list"),
                                          missing_message=N_("The events must be a JSON list"))})
"""The same, typed as JSON text on the director's hands page."""


# ---------------------------------------------------------------- rulings

KINDS = (
    "misdeal", "exposed_card", "boxed_cards", "wrong_number_of_cards", "flop_irregularity",
    "missing_burn", "premature_card", "stud_exposed_downcards", "absent_player",
    "clock_expired", "action_out_of_turn", "undercall", "silent_push", "single_chip",
    "multiple_chips", "fouled_deck", "wrong_button",
)
IN_TURN = ("call", "bet", "raise", "check", "fold", "all_in", "complete")
"""The actions a player may take out of turn, in the order the tablet offers them."""


@dataclass
class Policy(Field):
    """The house's ruling policy (``director.poker.rulings.RulingPolicy``) as an object;
    absent, ``null`` or not an object: None (not sent: the tournament's house rules apply)."""

    required: bool = False
    nullable: bool = True

    def load(self, value: Any, form: bool) -> R.RulingPolicy | None:
        if isinstance(value, R.RulingPolicy):
            return value
        if not isinstance(value, Mapping):
            return None
        try:
            return R.RulingPolicy.from_json(value)
        except (RuleViolation, TypeError) as exc:
            raise FieldError(str(exc)) from None


RULING = Schema({"ruling": Choice(choices=KINDS), "confirm": Bool(required=False, default=False),
                 "version": VERSION, "idempotency_key": KEY})
"""What every ruling sends: which ruling, preview or apply (``confirm``), and the write's
``version``/``idempotency_key``."""

_POLICY = Policy(default=None)


def _flag(default: bool) -> Bool:
    return Bool(required=False, default=default)


def _chips(low: int = 1) -> Int:
    return Int(min=low, max=MAX_CHIPS)


WHICH_CARD = N_("Give 1 to 4: which of the seat's cards was exposed")


def _which_card(number: int) -> str | None:
    return None if 1 <= number <= R.OMAHA_HOLE_CARDS else _(WHICH_CARD)


EXPOSED = Schema({"seat": SEAT,
                  "card": Int(check=_which_card, missing_message=WHICH_CARD),
                  "code": Cards(name="code", max_cards=1, required=False, nullable=True)})
"""One card exposed on the Omaha deal as the dealer saw it: whose (``seat``), which of
his cards in deal order (``card``, 1-4) and, if he saw it, the card (``code``, "As")."""


def _exposed_named(values: Mapping[str, Any]) -> dict[str, str]:
    """The exposed card is named by seat and card (``exposed``) or by deal position."""
    if "exposed" not in values or "positions" not in values:
        return {}                     # a field that did not load is named already
    if values["exposed"] or values["positions"]:
        return {}
    return {"exposed": _("Name the exposed card: the seat and which of his cards it was")}


RULINGS: dict[str, Schema] = {
    "misdeal": Schema({"reason": Str(required=False, nullable=True, default="")}),
    "exposed_card": Schema({"positions": List(item=Int(min=1, max=52), min_items=1, max_items=52,
                                              required=False, nullable=True),
                            "exposed": Items(schema=EXPOSED, min_items=1, max_items=52, required=False,
                                             nullable=True)},
                           rules=[_exposed_named]),
    "boxed_cards": Schema({"count": Int(min=1, max=52), "initial_deal": _flag(True)}),
    "wrong_number_of_cards": Schema({"seat": SEAT, "cards": Int(min=0, max=10)}),
    "flop_irregularity": Schema({"cards": Int(min=1, max=6), "burned": _flag(True)}),
    "missing_burn": Schema({"street": Choice(choices=("turn", "river"))}),
    "premature_card": Schema({"street": Choice(choices=("flop", "turn", "river", "4th", "5th", "6th",
                                                        "7th")), "policy": _POLICY}),
    "stud_exposed_downcards": Schema({"seat": SEAT, "cards": Cards(max_cards=R.STUD_INITIAL_CARDS),
                                      "policy": _POLICY}),
    "absent_player": Schema({"seat": SEAT, "policy": _POLICY,
                             "back": Choice(choices=("first-card", "end-of-deal", "action"),
                                            required=False, nullable=True)}),
    "clock_expired": Schema({"policy": _POLICY}),
    "action_out_of_turn": Schema({"seat": SEAT, "action": Choice(choices=IN_TURN),
                                  "amount": Int(min=0, max=MAX_CHIPS, required=False, nullable=True),
                                  "bet_when_acted": Int(min=0, max=MAX_CHIPS, required=False,
                                                        nullable=True)}),
    "undercall": Schema({"seat": SEAT, "pushed": _chips(), "opening_bet": _flag(True),
                         "declared_call": _flag(False)}),
    "silent_push": Schema({"seat": SEAT, "pushed": _chips(), "declared_raise": _flag(False)}),
    "single_chip": Schema({"seat": SEAT, "chip": _chips(), "declared_raise": _flag(False)}),
    "multiple_chips": Schema({"seat": SEAT, "chips": List(item=_chips(), min_items=1, max_items=100),
                              "declared_raise": _flag(False)}),
    "fouled_deck": Schema({}),
    "wrong_button": Schema({}),
}
"""The fields each ruling kind reads, besides ``RULING``: what the dealer saw."""


def ruling_body(data: Any) -> dict[str, Any]:
    """A ruling's body: ``RULING`` and its kind's fields in one dict; every bad field
    (of both) is named at once."""
    errors: dict[str, str] = {}
    common: dict[str, Any] = {}
    try:
        common = RULING.load(data)
    except Invalid as exc:
        errors.update(exc.errors)
    kind = data.get("ruling") if isinstance(data, Mapping) else None
    own: dict[str, Any] = {}
    if isinstance(kind, str) and kind in RULINGS:
        try:
            own = RULINGS[kind].load(data)
        except Invalid as exc:
            for name, message in exc.errors.items():
                errors.setdefault(name, message)
        try:            # a field neither part knows is refused, named (issue 30)
            unknown_fields(data, [*RULING.fields, *RULINGS[kind].fields])
        except Invalid as exc:
            errors.update(exc.errors)
    if errors:
        raise Invalid(errors)
    return {**own, **common}


# ---------------------------------------------------------------- the tablet's ruling form

RULING_NAMES: dict[str, str] = {
    "misdeal": N_("Misdeal"),
    "exposed_card": N_("Card exposed during the deal"),
    "boxed_cards": N_("Boxed card(s)"),
    "wrong_number_of_cards": N_("Wrong number of hole cards"),
    "flop_irregularity": N_("Four-card flop / flop without burn"),
    "missing_burn": N_("Turn or river without burn"),
    "premature_card": N_("Premature flop, turn or river"),
    "stud_exposed_downcards": N_("Stud: exposed down-card(s)"),
    "absent_player": N_("Absent player"),
    "clock_expired": N_("Clock ran out"),
    "action_out_of_turn": N_("Action out of turn"),
    "undercall": N_("Undercall"),
    "silent_push": N_("Chips pushed silently (half a raise, TDA 43)"),
    "single_chip": N_("One oversized chip"),
    "multiple_chips": N_("Several chips put out silently"),
    "fouled_deck": N_("Fouled deck (a card twice)"),
    "wrong_button": N_("The button was out of position"),
}
"""Each ruling's name in the tablet's list of rulings."""

FIELD_LABELS: dict[str, str] = {
    "reason": N_("Reason"), "exposed": N_("Which card of the seat was exposed"),
    "count": N_("How many cards"), "initial_deal": N_("Found during the initial deal"),
    "seat": N_("Seat"), "cards": N_("Cards"), "burned": N_("Burn card dealt"),
    "street": N_("Street"), "back": N_("Back at his seat by"), "action": N_("Action"),
    "amount": N_("Any amount: raise to"), "bet_when_acted": N_("Bet when he acted"),
    "pushed": N_("Chips pushed"), "declared_call": N_("Declared (raise/call)"),
    "declared_raise": N_("Declared (raise/call)"), "chip": N_("Chip value"),
    "chips": N_("Chip values, e.g. 500 1000"),
}
"""The label of a ruling's field on the tablet, by the field's name..."""
FIELD_LABELS_OF: dict[tuple[str, str], str] = {
    ("stud_exposed_downcards", "cards"): N_("The exposed card(s): tap them"),
}
"""... unless the ruling names it its own way."""

CHOICE_LABELS: dict[str, str] = {
    "flop": N_("flop"), "turn": N_("turn"), "river": N_("river"), "4th": N_("4th street"),
    "5th": N_("5th street"), "6th": N_("6th street"), "7th": N_("7th street"),
    "first-card": N_("before the first card"), "end-of-deal": N_("by the end of the deal"),
    "action": N_("when the action reaches him"), "call": N_("call"), "bet": N_("bet"),
    "raise": N_("raise"), "check": N_("check"), "fold": N_("fold"), "all_in": N_("all-in"),
    "complete": N_("complete"),
}
"""The words of a ruling's choices."""
NO_CHOICE_LABELS: dict[str, str] = {"back": N_("not back")}
"""The word for leaving an optional choice out."""

NOT_ASKED: dict[str, str] = {
    "policy": "the tournament's house rules decide; the JSON API may send a policy",
    "positions": "the tablet names an exposed card by seat and card (``exposed``)",
    "opening_bet": "read from the hand: the service does not trust the body's",
}
"""The fields the tablet's form does not ask the dealer, and why."""


def _choice_word(value: str) -> str:
    return _(CHOICE_LABELS[value]) if value in CHOICE_LABELS else value


def _field_form(kind: str, name: str, spec: Field) -> dict[str, Any]:
    """One field of a ruling as the tablet asks it: its input (``seat``, ``number``,
    ``bool``, ``choice``, ``list``, ``cards``, ``exposed``, ``text``), label and limits,
    read from the field's schema."""
    form: dict[str, Any] = {"name": name, "label": _(FIELD_LABELS_OF.get((kind, name))
                                                      or FIELD_LABELS[name]),
                            "required": spec.required}
    if isinstance(spec, Bool):
        form.update(input="bool", default=bool(spec.default))
    elif isinstance(spec, Choice):
        choices = [{"value": str(v), "label": _choice_word(str(v))} for v in spec.choices]
        if not spec.required:
            choices.insert(0, {"value": "", "label": _(NO_CHOICE_LABELS[name])})
        form.update(input="choice", choices=choices)
    elif isinstance(spec, Int):
        form.update(input="seat" if name == "seat" else "number", min=spec.min, max=spec.max)
    elif isinstance(spec, List) and isinstance(spec.item, Int):
        form.update(input="list", min=spec.item.min, max=spec.item.max,
                    min_items=spec.min_items, max_items=spec.max_items)
    elif isinstance(spec, Cards):
        form.update(input="cards", max_cards=spec.max_cards)
    elif isinstance(spec, Items) and spec.schema is EXPOSED:
        form.update(input="exposed", min_items=spec.min_items, max_items=spec.max_items)
    elif isinstance(spec, Str):
        form.update(input="text", max_len=spec.max_len)
    else:
        raise TypeError(f"the tablet has no input for {kind}.{name} ({type(spec).__name__})")
    return form


def ruling_forms() -> list[dict[str, Any]]:
    """The rulings as the tablet offers them, in the request's language: each kind of
    ``RULINGS`` with its name and the fields the dealer fills in, read from the same
    schemas ``ruling_body`` loads (``NOT_ASKED`` aside), so that the tablet asks for
    exactly what the server checks.

    >>> boxed = next(form for form in ruling_forms() if form["kind"] == "boxed_cards")
    >>> [(f["name"], f["input"], f["required"]) for f in boxed["fields"]]
    [('count', 'number', True), ('initial_deal', 'bool', False)]
    """
    return [{"kind": kind, "label": _(RULING_NAMES[kind]),
             "fields": [_field_form(kind, name, spec) for name, spec in schema.fields.items()
                        if name not in NOT_ASKED]}
            for kind, schema in RULINGS.items()]
