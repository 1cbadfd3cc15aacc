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
from dataclasses import dataclass
from typing import Any

from director.db import db, utcnow
from director.i18n import N_, translate_violation
from director.i18n import gettext as _
from director.models.house import HouseRules
from director.models.seating import SeatingLogEntry
from director.poker.errors import RuleViolation
from director.poker.policy import DEFAULT_POLICY, Policy
from director.poker.rulings import DEFAULT_RULING_POLICY, RulingPolicy
from director.schemas import HOUSE_RULES, HOUSE_RULES_SKIPPED
from director.services import Invalid, all_or_nothing, audit, get_tournament
from director.services.events import events

CONFLICT = {"house_rules": N_("The house rules changed on another screen: look again and save")}
unit_of_work = all_or_nothing(CONFLICT)


@dataclass(frozen=True)
class Option:
    """One answer to a flag: its stored ``value``, the ``words`` a director reads and
    the ``source`` that rules so."""

    value: Any
    words: str
    source: str


@dataclass(frozen=True)
class Flag:
    """A house-rule flag as the director's page shows it; the first option is the TDA default."""

    name: str
    label: str
    group: str
    options: tuple[Option, ...]

    @property
    def default(self) -> Any:
        return self.options[0].value


_FIXED = N_("Fixed limit (Omaha and stud)")
_POT = N_("Pot limit and antes (Omaha)")
_STUD = N_("Seven-card stud")
_SPLIT = N_("Split pots and odd chips")
_FLOOR = N_("Floor rulings")
_SHOT = N_("Shot clock")

FLAGS: tuple[Flag, ...] = (
    Flag("limit_raise_cap", N_("Raises allowed after the bet (blank: no cap)"), _FIXED, (
        Option(3, N_("Three raises"), "RRP"),
        Option(4, N_("Four raises"), "WSOP-T"),
    )),
    Flag("limit_cap_heads_up", N_("The cap when only two players are in the pot"), _FIXED, (
        Option(True, N_("The cap still applies"), "TDA 48, WSOP-T"),
        Option(False, N_("No cap once the pot is heads-up before it is capped"), "RRP (cash)"),
    )),
    Flag("limit_short_allin_counts_to_cap",
         N_("An all-in of at least half a bet (a full raise, TDA 47-B) counts toward the cap"), _FIXED, (
             Option(True, N_("It counts"), "RULES.md §11.1"),
             Option(False, N_("It does not count"), N_("some houses")),
         )),
    Flag("pl_preflop_assume_full_blinds",
         N_("Pot limit before the flop with a dead or short blind"), _POT, (
             Option(True, N_("Count the full blinds"), "TDA 54-B"),
             Option(False, N_("Count only the chips put in"), N_("literal count")),
         )),
    Flag("pl_count_antes_in_pot", N_("Antes in the pot-limit count"), _POT, (
        Option(True, N_("They count: pot = antes + blinds + bets"), "TDA, RULES.md [PL-9]"),
        Option(False, N_("They do not count"), N_("pokerkit's big-blind-ante mode")),
    )),
    Flag("bba_order", N_("A big blind too short for both blind and big-blind ante pays"), _POT, (
        Option("big-blind-first", N_("The big blind first"), "TDA RP-11"),
        Option("ante-first", N_("The ante first"), "BARGE 2020"),
    )),
    Flag("stud_high_hand_tie", N_("Identical exposed hands on 4th to 7th street: who acts first"),
         _STUD, (
             Option("suit", N_("The highest card by suit"), "TDA RP-10-D"),
             Option("position", N_("The first of them clockwise from the dealer"),
                    "RRP, WSOP-LA"),
         )),
    Flag("stud_4th_street_double", N_("An open pair on 4th street allows the big bet"), _STUD, (
        Option(False, N_("No"), "TDA RP-10-F"),
        Option(True, N_("Yes (stud high only)"), "RRP (cash)"),
    )),
    Flag("stud_one_downcard_exposed", N_("One down-card exposed by the dealer on the initial deal"),
         _STUD, (
             Option("up-card", N_("It becomes his up-card; his third card is dealt face down"),
                    "TDA RP-10-A, RRP"),
             Option("misdeal", N_("Misdeal"), "WSOP-T 88-a-6, TDA 2004"),
         )),
    Flag("stud_two_downcards_exposed", N_("Both down-cards exposed by the dealer on the initial deal"),
         _STUD, (
             Option("misdeal", N_("Misdeal before substantial action"),
                    N_("suggested; TDA is silent")),
             Option("dead-hand", N_("His hand is dead and his ante goes back to him"), "RRP Stud 5"),
         )),
    Flag("odd_chip_multi", N_("Odd chips when several players split a pot"), _SPLIT, (
        Option("one-per-winner", N_("One chip to each winner, clockwise from the button"), "RRP"),
        Option("all-to-first", N_("All to the first winner"), "pokerkit"),
    )),
    Flag("stud_odd_chip_card_set", N_("Stud odd chip: the high card by suit is read from"), _SPLIT, (
        Option("five-card", N_("The five cards of the winning hand"), "TDA 20-B"),
        Option("seven-card", N_("All seven cards"), "RRP"),
    )),
    Flag("identical_hands_both_ways", N_("Hi/lo: identical hands that win both ways"), _SPLIT, (
        Option("split-whole", N_("Split the whole pot evenly"), "WSOP-T 73"),
        Option("quarter", N_("Split high and low as usual (quarters)"), N_("other houses")),
    )),
    Flag("absent_player_kill_point", N_("An absent player's hand is dead"), _FLOOR, (
        Option("end-of-deal", N_("If he is not at his seat when the initial deal ends"), "TDA 30"),
        Option("first-card", N_("If he is not at his seat when the first card is dealt"),
               N_("TDA 2013, some houses")),
        Option("action", N_("When the action reaches him"), N_("cash games")),
    )),
    Flag("clock_seconds", N_("A clock called on a player"), _FLOOR, (
        Option("25+5", N_("25 seconds plus a 5-second countdown"), "TDA 29 (2024)"),
        Option("60+10", N_("60 seconds plus a 10-second countdown"), N_("older TDA, WSOP-LA")),
    )),
    Flag("premature_turn_procedure", N_("A premature turn card"), _FLOOR, (
        Option("reshuffle", N_("Reshuffle the stub and deal the turn again"), "TDA RP-5"),
        Option("set-aside", N_("Set the card aside (the RRP procedure)"), "RRP"),
    )),
    Flag("shot_clock", N_("Shot clock: the time a player has for each action, run by the tablet"), _SHOT, (
        Option("off", N_("Off: a player is timed only when the clock is called"), "TDA 29"),
        Option("30", N_("30 seconds"), N_("televised events")),
        Option("45", N_("45 seconds"), N_("some houses")),
        Option("60", N_("60 seconds"), N_("some houses")),
    )),
    Flag("shot_clock_expiry", N_("When a player's shot clock runs out"), _SHOT, (
        Option("dead", N_("His hand is dead"), N_("televised events")),
        Option("check-fold", N_("He checks if he can, else folds"), N_("online poker")),
    )),
    Flag("time_bank_cards", N_("Time-bank cards per player (30 seconds each)"), _SHOT, (
        Option("0", N_("None"), N_("no shot clock")),
        Option("1", "1", N_("some houses")),
        Option("2", "2", N_("televised events")),
        Option("3", "3", N_("some houses")),
        Option("4", "4", N_("some houses")),
    )),
    Flag("time_bank_per", N_("Time-bank cards are given"), _SHOT, (
        Option("level", N_("For each level"), N_("televised events")),
        Option("day", N_("For each day"), N_("some houses")),
    )),
)
"""Every flag the director sets (RULES.md §11.1), grouped as the page shows them."""

GROUPS = (_FIXED, _POT, _STUD, _SPLIT, _FLOOR, _SHOT)
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
            if value != _flag(name).default}


def _flag(name: str) -> Flag:
    return next(f for f in FLAGS if f.name == name)


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
    if name == "limit_raise_cap":
        if value is None:
            return _("no cap")
        known = next((o for o in _flag(name).options if o.value == value), None)
        if known is None:
            return str(value)
        return f"{value} ({_(known.source)})"
    option = next(o for o in _flag(name).options if o.value == value)
    return f"{_(option.words)} ({_(option.source)})"


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
    lines = [_("House rules: %(flag)s: %(new)s (was %(old)s)", flag=_(_flag(name).label),
               new=words(name, after[name]), old=words(name, before[name]))
             for name in after if after[name] != before[name]]
    for line in lines:
        db.session.add(SeatingLogEntry(tournament_id=tournament_id, action="house_rules", text=line))
    row.hand = hand.to_json()
    row.rulings = rulings.to_json()
    row.updated_at = utcnow()
    db.session.commit()
    events().publish(tournament_id, "house_rules", {"tournament_id": tournament_id},
                     kind="house rules")
    for name in (name for name in after if after[name] != before[name]):
        audit.change("house rule changed", tournament_id, flag={"msgid": _flag(name).label},
                     new={"house_rule": name, "value": after[name]},
                     old={"house_rule": name, "value": before[name]})
    return hand, rulings
