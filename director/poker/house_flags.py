"""The house-rule flags a director sets (RULES.md §11.1), as the director reads them.

Each flag has its answers (:class:`Option`), the first the TDA 2024 tournament
answer (the default), each with the words a director reads and the source that
rules so.  The values themselves live in the flag sets (``policy.Policy``, the
flags of one hand; ``rulings.RulingPolicy``, the floor's); this is their
vocabulary, shared by the house-rules page and the log that says a change in
words.  The engine translates nothing: :func:`say` takes the reader's
``translate`` (the web layer's gettext) as an argument, as it takes ``now``.

>>> flag("clock_seconds").default
'25+5'
>>> say("clock_seconds", "60+10")
'60 seconds plus a 10-second countdown (older TDA, WSOP-LA)'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from director.poker.errors import N_


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
"""The groups of the house-rules page, in its order."""

_BY_NAME = {f.name: f for f in FLAGS}


def flag(name: str) -> Flag:
    """The flag called ``name`` (``KeyError`` for another name)."""
    return _BY_NAME[name]


def _same(text: str) -> str:
    return text


def say(name: str, value: Any, translate: Callable[[str], str] = _same) -> str:
    """A flag's value in the director's words, with its source, each English sentence
    put through ``translate``.  ``KeyError`` for an unknown flag, ``ValueError`` for
    a value it does not offer (a raise cap that is not offered reads as the number).

    >>> say("limit_raise_cap", None), say("limit_raise_cap", 4), say("limit_raise_cap", 7)
    ('no cap', '4 (WSOP-T)', '7')
    """
    if name == "limit_raise_cap":
        if value is None:
            return translate(N_("no cap"))
        known = next((o for o in flag(name).options if o.value == value), None)
        if known is None:
            return str(value)
        return f"{value} ({translate(known.source)})"
    option = next((o for o in flag(name).options if o.value == value), None)
    if option is None:
        raise ValueError(f"{name} has no option {value!r}")
    return f"{translate(option.words)} ({translate(option.source)})"
