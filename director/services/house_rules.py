"""House rules: the policy flags of RULES.md §11.1, set by the director per tournament.

Where sources differ, every flag's default is the TDA 2024 tournament answer;
the alternative is what another source (Robert's Rules, WSOP, an older TDA)
says.  Two flag sets are stored (``director.models.house.HouseRules``):

* the flags of one hand (``director.poker.policy.Policy``): copied into the
  configuration of every hand dealt after the change, so a hand already dealt
  keeps the policy it was dealt under (``dealer.start_hand``);
* the flags of a floor ruling (``director.poker.rulings.RulingPolicy``): read by
  every ruling of the tablet's rulings panel and by the clock call (TDA 29).

Nothing stored: every flag is the TDA default.  ``straddle_min_raise`` (cash
games only) is not offered and keeps its default.

Each save is written to the tournament's log, one line per changed flag.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from director.db import db, utcnow
from director.i18n import N_, translate_violation
from director.i18n import gettext as _
from director.models.house import HouseRules
from director.models.seating import SeatingLogEntry
from director.poker.errors import RuleViolation
from director.poker.house_flags import FLAGS, GROUPS, Flag, Option, flag, say
from director.poker.policy import DEFAULT_POLICY, Policy
from director.poker.rulings import DEFAULT_RULING_POLICY, RulingPolicy
from director.schemas import HOUSE_RULES, HOUSE_RULES_SKIPPED
from director.services import Invalid, all_or_nothing, get_tournament, uow

CONFLICT = {"house_rules": N_("The house rules changed on another screen: look again and save")}
unit_of_work = all_or_nothing(CONFLICT)


__all__ = ["FLAGS", "GROUPS", "Flag", "Option", "changed", "flat", "from_json", "policies",
           "ruling_policy", "save", "view", "words"]

_RULING_FLAGS = frozenset(RulingPolicy.CHOICES)
assert {f.name for f in FLAGS} == set(HOUSE_RULES.fields)
assert all(f.default == getattr(DEFAULT_RULING_POLICY if f.name in _RULING_FLAGS else DEFAULT_POLICY,
                                f.name) for f in FLAGS)


def from_json(hand: Mapping[str, Any] | None, rulings: Mapping[str, Any] | None
              ) -> tuple[Policy, RulingPolicy]:
    """The stored JSON as flag sets; nothing stored is the TDA default.

    >>> from_json(None, {"clock_seconds": "60+10"})[1].clock_seconds
    '60+10'
    """
    return Policy.from_json(hand), RulingPolicy.from_json(rulings)


def policies(tournament_id: int) -> tuple[Policy, RulingPolicy]:
    """The tournament's house rules: the hand's flags and the rulings' flags."""
    row = db.session.get(HouseRules, tournament_id) if 0 < tournament_id < 2**63 else None
    if row is None:
        return DEFAULT_POLICY, DEFAULT_RULING_POLICY
    return from_json(row.hand, row.rulings)


def ruling_policy(tournament_id: int) -> RulingPolicy:
    """The flags a floor ruling and the clock call read."""
    return policies(tournament_id)[1]


def flat(hand: Policy, rulings: RulingPolicy) -> dict[str, Any]:
    """Every flag the director sets, by name (the API's and the form's shape)."""
    values = {**hand.to_json(), **rulings.to_json()}
    return {f.name: values[f.name] for f in FLAGS}


def changed(hand: Policy, rulings: RulingPolicy) -> dict[str, Any]:
    """The flags that are not the TDA default."""
    return {name: value for name, value in flat(hand, rulings).items()
            if value != flag(name).default}


def view(tournament_id: int) -> dict[str, Any]:
    """The house rules as the API answers: every flag, and those that are not the default."""
    get_tournament(tournament_id)
    row = db.session.get(HouseRules, tournament_id)
    hand, rulings = from_json(row.hand, row.rulings) if row is not None \
        else (DEFAULT_POLICY, DEFAULT_RULING_POLICY)
    return {"tournament_id": tournament_id, "house_rules": flat(hand, rulings),
            "not_default": changed(hand, rulings),
            "updated_at": row.updated_at.isoformat() if row is not None else None}


def words(name: str, value: Any) -> str:
    """A flag's value in the director's words, with its source (translated now).

    >>> words("limit_raise_cap", None)
    'no cap'
    """
    return say(name, value, _)


@unit_of_work
def save(tournament_id: int, data: Mapping[str, Any]) -> tuple[Policy, RulingPolicy]:
    """Save the tournament's house rules (RULES.md §11.1); a bad flag is a 400 naming it
    and changes nothing.

    ``data`` holds flags by name (``schemas.HOUSE_RULES``); an absent flag keeps its
    stored value.  The API's own answer (``{"house_rules": {...}}``) may be sent
    back as it is.  New hands are dealt under the new flags; a hand being played
    keeps the policy it was dealt with.
    """
    if isinstance(data, Mapping) and isinstance(data.get("house_rules"), Mapping):
        data = {**data["house_rules"], **{k: v for k, v in data.items()
                                          if k not in ("house_rules", "not_default", "updated_at",
                                                       "tournament_id")}}
    body = HOUSE_RULES.load(data)
    get_tournament(tournament_id)
    row = db.session.get(HouseRules, tournament_id)
    if row is None:
        row = HouseRules(tournament_id=tournament_id, hand={}, rulings={})
        db.session.add(row)
    old_hand, old_rulings = from_json(row.hand, row.rulings)
    hand_values = old_hand.to_json()
    ruling_values = old_rulings.to_json()
    for name, value in body.items():
        (ruling_values if name in _RULING_FLAGS else hand_values)[name] = value
    for name in HOUSE_RULES_SKIPPED:
        hand_values[name] = getattr(DEFAULT_POLICY, name)
    try:
        hand, rulings = from_json(hand_values, ruling_values)
    except RuleViolation as exc:
        raise Invalid({"house_rules": translate_violation(exc)}) from None
    before = flat(old_hand, old_rulings)
    after = flat(hand, rulings)
    lines = [_("House rules: %(flag)s: %(new)s (was %(old)s)", flag=_(flag(name).label),
               new=words(name, after[name]), old=words(name, before[name]))
             for name in after if after[name] != before[name]]
    for line in lines:
        db.session.add(SeatingLogEntry(tournament_id=tournament_id, action="house_rules", text=line))
    row.hand = hand.to_json()
    row.rulings = rulings.to_json()
    row.updated_at = utcnow()
    for name in (name for name in after if after[name] != before[name]):
        uow.log("house rule changed", tournament_id, flag={"msgid": flag(name).label},
                new={"house_rule": name, "value": after[name]},
                old={"house_rule": name, "value": before[name]})
    uow.event(tournament_id, "house_rules", {"tournament_id": tournament_id}, kind="house rules")
    uow.commit()
    return hand, rulings
