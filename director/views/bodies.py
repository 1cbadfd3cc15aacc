"""The request bodies of the seating and money views, declared once (``director.schemas``).

JSON bodies are typed here: a value of the wrong type or out of range is a 400
naming the field before any service runs.  Form bodies arrive as text: their
fields are declared as text (shape, length, no NUL) and the service parses
them, so the director's forms keep their labelled sentences ("Chips must be a
whole number").  The services keep the business rules (a table that exists,
a seat that is free, "Rebuys ended at level 6").
"""

from __future__ import annotations

from flask import flash, request
from flask_babel import gettext as _

from director.errors import Invalid
from director.i18n import N_
from director.models.tournament import MAX_CHIPS
from director.schemas import FORM_TYPES, Any_, Choice, Int, List, Schema, Str
from director.services import once
from director.services.seating import HAND_FOR_HAND_ACTIONS

TEXT = 1000  # long enough that the service's own length rule speaks first
KEY = 200


def _opt_int(low: int, high: int | None = None) -> Int:
    return Int(min=low, max=high, required=False, nullable=True)


def _opt_text(max_len: int = TEXT) -> Str:
    return Str(required=False, nullable=True, max_len=max_len)


# ---------------------------------------------------------------- where a form came from

# The director's phone page (/director/<id>/phone) posts to the desk's and the
# seating's own routes with ``back=phone``: their answer then returns to it.
BACK = Schema({"back": _opt_text(20)})


def from_phone() -> bool:
    """Whether this form was sent from the director's phone page."""
    return BACK.load({"back": request.form.get("back")}, form=True)["back"] == "phone"


def idempotency_key() -> str | None:
    """The request's ``idempotency_key`` (``services.once``): a page's hidden field (empty:
    none) or a JSON body's, checked (a 400 names it); None without one.  The route's
    body was checked by its schema or ``no_body`` first (the key is the transport's)."""
    if request.mimetype in FORM_TYPES:
        value = request.form.get("idempotency_key") or None
    else:
        body = request.get_json(silent=True) if request.get_data(cache=True).strip() else None
        value = body.get("idempotency_key") if isinstance(body, dict) else None
    return once.BODY.load({"idempotency_key": value})["idempotency_key"]


# What a page says when its request arrived twice, by the action ``once.remember`` kept.
SENT_TWICE = N_("Done already: the same request arrived twice and was applied once.")
DONE_ALREADY = {
    "seating confirm": N_("Done already: the moves are confirmed, once (the same request "
                          "arrived twice)."),
    "seating discard": N_("Done already: the plan is discarded, once (the same request "
                          "arrived twice)."),
    "seating undo": N_("Done already: the last moves are undone, once (the same request "
                       "arrived twice)."),
    "seating break": N_("Done already: the table is broken, once (the same request arrived "
                        "twice)."),
    "reseat": N_("Done already: the player is moved, once (the same request arrived twice)."),
    "hand dealt": N_("Done already: the hand is counted, once (the same request arrived "
                     "twice)."),
    "hand-for-hand announce": N_("Done already: hand-for-hand is announced, once (the same "
                                 "request arrived twice)."),
    "hand-for-hand start": N_("Done already: hand-for-hand is started, once (the same request "
                              "arrived twice)."),
    "hand-for-hand finish": N_("Done already: the hand is finished at every table, once (the "
                               "same request arrived twice)."),
    "hand-for-hand stop": N_("Done already: hand-for-hand is stopped, once (the same request "
                             "arrived twice)."),
    "eliminate": N_("Done already: the player is out, once (the same request arrived twice)."),
    "deal saved": N_("Done already: the deal is saved and paid, once (the same request "
                     "arrived twice)."),
    "seats drawn": N_("Done already: the seats are drawn, once (the same request arrived "
                      "twice)."),
    "chip race": N_("Done already: the colour-up is done, once (the same request arrived "
                    "twice)."),
}


def say_refused(said: str, exc: Invalid) -> None:
    """A refusal said on the page its form comes back to, in red (``flash``'s "error"
    category: ``base.html`` shows it as an alert): ``said`` is the sentence in the
    director's language, ``%(reasons)s`` in it the refusal's own sentences
    (``say_refused(_("Not done: %(reasons)s"), exc)``)."""
    flash(said % {"reasons": "; ".join(exc.errors.values())}, "error")


def done_already(applied: once.Applied) -> str:
    """What a page says when its request arrived twice (a double click, a form sent
    again after a lost answer): what the first one did, done once.  The browser shows
    the second answer, so this is the sentence the director reads."""
    return _(DONE_ALREADY.get(applied.action, SENT_TWICE))


# ---------------------------------------------------------------- seating, JSON

# request_key: the same registration sent twice (a retry, a double tap) is recorded once,
# and answered as the first time (money.sell's key).
SEATING_REGISTER = Schema({"name": _opt_text(), "chips": _opt_int(1, MAX_CHIPS),
                           "request_key": _opt_text(KEY)})
SEATING_ELIMINATE = Schema({
    "player_ids": List(item=Int(min=1), required=False, nullable=True, max_items=100),
    "player_id": _opt_int(1),
    "starting_chips": Any_(required=False, nullable=True),  # player id -> chips: the service
    # Who knocked them out (issue 17): a player id, or a list of them for a split pot
    # (issue 30); the service checks each is a player still in, naming "by".
    "by": Any_(required=False, nullable=True),
})
SEATING_RESEAT = Schema({"player_id": Int(min=1), "table": Int(min=1), "seat": Int(min=1)})
SEATING_CHIPS = Schema({"player_id": Int(min=1), "chips": Int(min=0, max=MAX_CHIPS)})
SEATING_HAND_FOR_HAND = Schema({"action": Choice(choices=HAND_FOR_HAND_ACTIONS)})

# ---------------------------------------------------------------- seating, forms

SEATING_REGISTER_FORM = Schema({"name": _opt_text(), "chips": _opt_text(),
                                "request_key": _opt_text(KEY)})
SEATING_ELIMINATE_FORM = Schema({"player_ids": List(item=Str(max_len=40), required=False,
                                                    nullable=True, max_items=100),
                                  "by": List(item=Str(max_len=40), required=False,
                                             nullable=True, max_items=10)})
SEATING_RESEAT_FORM = Schema({"player_id": _opt_text(40), "table": _opt_text(40),
                              "seat": _opt_text(40)})
SEATING_CHIPS_FORM = Schema({"player_id": _opt_text(40), "chips": _opt_text(40)})
SEATING_HAND_FOR_HAND_FORM = Schema({"action": _opt_text(40)})

# ---------------------------------------------------------------- money

MONEY_SELL = Schema({
    "kind": _opt_text(40),  # one of SALE_KINDS: the service says so in its own words
    "name": _opt_text(),
    "player_id": _opt_int(1),
    "stack": Int(required=False, nullable=True),  # range: the service ("negative", the limit)
    "request_key": _opt_text(KEY),
    "person_id": _opt_int(1),     # a buy-in for a record of the player list (players issue)
})
MONEY_SELL_FORM = Schema({"kind": _opt_text(40), "name": _opt_text(), "player_id": _opt_text(40),
                          "stack": _opt_text(40), "request_key": _opt_text(KEY),
                          "person_id": _opt_text(40)})
MONEY_PAY = Schema({"request_key": _opt_text(KEY)})
