"""Languages: English, Bahasa Indonesia and Svenska (Flask-Babel).

Every user-facing string goes through ``gettext`` (``_`` in templates and
views).  The engine's messages are ``RuleViolation`` templates with ``{name}``
parameters; ``translate_violation`` translates the template (it is the msgid)
and fills in the parameters at the edge, so the engine itself stays free of
Flask.

The language of a request, first match wins:

1. the user's choice, stored in the session by ``/language/<code>`` (the
   switch in the page header; the routes are ``director.views.language``);
2. the event's default language, when the page belongs to a tournament
   (a ``tournament_id`` in the URL) and the director has set one;
3. the browser's ``Accept-Language``; English when none matches.

Numbers, money and times are formatted per locale through Babel (the
``|number``/``|chips``, ``|money`` and ``|datetime`` filters); Swedish groups
thousands with a non-breaking space and writes decimals with a comma.  Card
letters follow the locale too (``|card``, ``rank_letters()``): Swedish E K D
Kn, Indonesian As K Q J.

The catalogues live in ``director/translations`` (``messages.pot`` and
``<code>/LC_MESSAGES/messages.po``, with the compiled ``.mo`` committed beside
them, so a fresh clone and ``pip install -e .`` need no build step).  After
changing a user-facing string::

    .venv/bin/python -m director.i18n update    # re-extract, merge into the .po files
    (translate the new entries in id and sv)
    .venv/bin/python -m director.i18n compile   # write the .mo files

``tests/web/test_i18n_catalog.py`` fails while the ``.pot`` is out of date, a
message in ``id`` or ``sv`` is untranslated or fuzzy, or a ``.mo`` is stale.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from flask import (
    Flask,
    current_app,
    g,
    has_app_context,
    has_request_context,
    request,
    session,
)
from flask_babel import (
    Babel,
    format_currency,
    format_datetime,
    format_decimal,
    get_domain,
    get_locale,
    ngettext,
    pgettext,
)
from flask_babel import (
    gettext as babel_gettext,
)
from markupsafe import Markup

from director.db import db
from director.models import Tournament
from director.poker.cards import Card, card_letters, format_card, parse_card
from director.poker.errors import RuleViolation

LANGUAGES: dict[str, str] = {"en": "English", "id": "Bahasa Indonesia", "sv": "Svenska"}
DEFAULT_LANGUAGE = "en"
TRANSLATIONS = Path(__file__).resolve().parent / "translations"

# Keywords that mark a translatable string for extraction: gettext's own, and
# the engine's error classes, whose first argument is the message template.
KEYWORDS: dict[str, Any] = {
    "_": None, "gettext": None, "lazy_gettext": None, "N_": None,
    "ngettext": (1, 2), "lazy_ngettext": (1, 2), "pgettext": ((1, "c"), 2),
    "RuleViolation": None, "CardError": None, "PHHError": None, "EntryRefused": None,
    "EntrySettingsError": None, "MoneyError": None, "Message": None,
}

babel = Babel()


def gettext(string: str, **variables: Any) -> str:
    """``flask_babel.gettext``, with the request's catalogue looked up once per
    request and locale rather than on every call (a dealer tablet's write builds
    about twenty sentences).  Follows ``force_locale``: the catalogue is kept
    with the locale object it belongs to."""
    ns = g.get("_flask_babel") if has_app_context() else None
    locale = getattr(ns, "babel_locale", None)
    cached = getattr(ns, "director_catalogue", None)
    if locale is None or cached is None or cached[0] is not locale:
        text = babel_gettext(string, **variables)
        ns = g.get("_flask_babel") if has_app_context() else None
        if ns is not None and getattr(ns, "babel_locale", None) is not None:
            ns.director_catalogue = (ns.babel_locale, get_domain().get_translations())
        return text
    translated: str = cached[1].ugettext(string)
    return translated % variables if variables else translated


def N_(text: str) -> str:  # noqa: N802  (the gettext convention)
    """Mark ``text`` for extraction without translating it now."""
    return text


# ---------------------------------------------------------------- the language

def event_language() -> str | None:
    """The default language of the tournament this page belongs to, if it has one."""
    if "event_language" in g:
        return g.event_language  # type: ignore[no-any-return]
    code: str | None = None
    tournament_id = (request.view_args or {}).get("tournament_id")
    if isinstance(tournament_id, int):
        try:
            tournament = db.session.get(Tournament, tournament_id)
        except Exception:  # noqa: BLE001  (an id out of range: the view answers 404 itself)
            tournament = None
        if tournament is not None and tournament.language in LANGUAGES:
            code = tournament.language
    g.event_language = code
    return code


def select_locale() -> str:
    """The session's choice, then the event's language, then the browser's Accept-Language."""
    if not has_request_context():
        return DEFAULT_LANGUAGE
    chosen = session.get("language")
    if chosen in LANGUAGES:
        return str(chosen)
    event = event_language()
    if event:
        return event
    return request.accept_languages.best_match(list(LANGUAGES)) or DEFAULT_LANGUAGE


_LOCALES: dict[str, Locale] = {}


def _selected_locale() -> Locale:
    """Flask-Babel's locale selector: :func:`select_locale`'s language as one ``Locale``
    kept per language (Babel's ``Locale.parse`` of a code built a new one, with its
    locale data looked up again, for every request)."""
    code = select_locale()
    locale = _LOCALES.get(code)
    if locale is None:
        locale = _LOCALES[code] = Locale.parse(code)
    return locale


def request_locale() -> Locale | None:
    """``flask_babel.get_locale()``, read straight from Flask-Babel's namespace of the
    request once it was chosen (``force_locale`` included): a dealer's tap asks a dozen
    times, and each ``get_locale`` went through three of Flask's context proxies."""
    ns = g.get("_flask_babel") if has_app_context() else None
    locale: Locale | None = getattr(ns, "babel_locale", None)
    return locale if locale is not None else get_locale()


def current_language() -> str:
    locale = request_locale()
    return locale.language if locale is not None else DEFAULT_LANGUAGE


# ---------------------------------------------------------------- engine messages

def translate_violation(error: RuleViolation) -> str:
    """The engine's sentence in the user's language (the template is the msgid).

    The parameters are filled in after translation, ``str.format`` style, as
    the engine does; a parameter that is itself one of the words below (a
    field name, a game name) is translated too.
    """
    return translate_template(error.template, error.params)


# The rulings build some sentences from a main clause and tails (director/poker/
# rulings.py: ``template += N_(". Deal no more cards to his hand")``); each part is
# its own msgid, so a sentence the catalogue lacks whole is translated part by part.
RULING_TAILS: tuple[str, ...] = (
    ". Seat {bring_in} has the low card and brings in",
    ". His first exposed card would have been the low card: seat {first_to_act} acts first and "
    "may fold, bring in or complete",
    ". Seat {bring_in} brings in",
    ". His blinds and antes ({forced_bets}) stay in the pot",
    ". He has the low card, so he still posts the bring-in ({bring_in}), which is lost",
    ". Deal no more cards to his hand",
    " or raise to at least {min_raise_to}",
    " or raise",
    ". That takes all his chips: he is all-in for {to}",
)


def _gettext_composed(template: str) -> str:
    """``gettext`` of a template, or of its main clause and its known tails."""
    translated = gettext(template)
    if translated != template:
        return translated
    for tail in RULING_TAILS:
        if template.endswith(tail) and len(template) > len(tail):
            return _gettext_composed(template[:-len(tail)]) + gettext(tail)
    return translated


def translate_template(template: str, params: dict[str, Any]) -> str:
    translated = _gettext_composed(template)
    values = {name: _word(value) for name, value in params.items()}
    try:
        text = translated.format(**values)
    except (KeyError, IndexError, ValueError):  # a broken translation: never a 500
        text = template.format(**params)
    # A translation may start with a parameter ("{word} måste ..."): a sentence starts upper case.
    return text[:1].upper() + text[1:] if translated.startswith("{") else text


def translate_message(message: Any) -> str:
    """A message from the engine or the structure validator, translated.

    ``StructureError`` sentences are ``structure.Message`` strings that keep
    their template and parameters; a plain string is only looked up as it is.
    """
    template = getattr(message, "template", None)
    if isinstance(template, str):
        return translate_template(template, dict(getattr(message, "params", {})))
    return gettext(str(message)) if message else ""


def translate_errors(errors: dict[str, Any]) -> dict[str, str]:
    """``{field: sentence}`` with every sentence translated."""
    return {field: translate_message(message) for field, message in errors.items()}


# Words the engine and the structure validator put into their sentences.
WORDS: dict[str, str] = {
    "duration": N_("duration"),
    "small blind": N_("small blind"),
    "big blind": N_("big blind"),
    "ante": N_("ante"),
    "big-blind ante": N_("big-blind ante"),
    "small bet": N_("small bet"),
    "big bet": N_("big bet"),
    "bring-in": N_("bring-in"),
    "note": N_("note"),
    "game": N_("game"),
    "kind": N_("kind"),
    "break": N_("break"),
    "level": N_("level"),
    "this game": N_("this game"),
    "seconds": N_("seconds"),
    "chips": N_("chips"),
    "pot": N_("pot"),
    "main pot": N_("main pot"),
    "side pot": N_("side pot"),
    "pre-flop": N_("pre-flop"),
    "flop": N_("flop"),
    "turn": N_("turn"),
    "river": N_("river"),
    "third street": N_("third street"),
    "fourth street": N_("fourth street"),
    "fifth street": N_("fifth street"),
    "sixth street": N_("sixth street"),
    "seventh street": N_("seventh street"),
    "betting is open": N_("betting is open"),
    "deal the hole cards": N_("deal the hole cards"),
    "deal the flop": N_("deal the flop"),
    "deal the turn": N_("deal the turn"),
    "deal the river": N_("deal the river"),
    "the hand is at showdown": N_("the hand is at showdown"),
    "nobody": N_("nobody"),
    # when an absent player had to be at his seat (director/poker/rulings.py _KILL_RULES)
    "when the last card of the initial deal was dealt":
        N_("when the last card of the initial deal was dealt"),
    "when the first card was dealt": N_("when the first card was dealt"),
    "when the action reached him": N_("when the action reached him"),
}
_SIDE_POT = re.compile(r"side pot (\d+)")

GAME_NAMES: dict[str, str] = {
    "PO": N_("Pot-limit Omaha"),
    "PO/8": N_("Pot-limit Omaha hi/lo"),
    "NO": N_("No-limit Omaha"),
    "NO/8": N_("No-limit Omaha hi/lo"),
    "FO": N_("Limit Omaha"),
    "FO/8": N_("Limit Omaha hi/lo"),
    "F7S": N_("Seven-card stud"),
    "F7S/8": N_("Seven-card stud hi/lo"),
}
_GAME_BY_ENGLISH = {
    "pot-limit Omaha": "PO", "pot-limit Omaha hi/lo": "PO/8", "no-limit Omaha": "NO",
    "no-limit Omaha hi/lo": "NO/8", "limit Omaha": "FO", "limit Omaha hi/lo": "FO/8",
    "seven-card stud": "F7S", "seven-card stud hi/lo": "F7S/8",
}

TEMPLATE_NAMES: dict[str, str] = {
    "plo-standard": N_("Pot-limit Omaha — standard (30-minute levels, 20,000 chips)"),
    "plo-turbo": N_("Pot-limit Omaha — turbo (15-minute levels, 10,000 chips)"),
    "limit-o8": N_("Limit Omaha hi/lo — 40-minute levels, 15,000 chips"),
    "stud": N_("Seven-card stud — 40-minute levels, 15,000 chips"),
    "mixed": N_("Mixed Omaha/stud — PLO, limit O8 and stud hi/lo rotating each 30-minute level"),
}


def _word(value: Any) -> Any:
    template = getattr(value, "template", None)
    if isinstance(template, str):         # a sentence inside a sentence ("Level 4: the ...")
        text = translate_template(template, dict(getattr(value, "params", {})))
        lower = getattr(value, "clause", False) and text[1:2].islower()
        return text[:1].lower() + text[1:] if lower else text
    if isinstance(value, str):
        if value in WORDS:
            return gettext(WORDS[value])
        side_pot = _SIDE_POT.fullmatch(value)
        if side_pot:
            return gettext("side pot %(number)s", number=side_pot.group(1))
        if value in _GAME_BY_ENGLISH:
            return game_name(_GAME_BY_ENGLISH[value])
    return value


def game_name(code: str | None) -> str:
    """The game's name in the user's language: sv "Pot limit-Omaha"."""
    if not code:
        return ""
    name = GAME_NAMES.get(str(code))
    return gettext(name) if name else str(code)


def template_name(key: str, english: str = "") -> str:
    name = TEMPLATE_NAMES.get(key)
    return gettext(name) if name else (english or key)


# ---------------------------------------------------------------- seating sentences

# The seating engine (director/tournament/seating.py, button.py) writes its plan
# notes, seat statuses and floor questions in English and stores them in the
# plan's JSON; they are translated here, on the way to the screen, by shape.
_SEATING_SENTENCES: list[tuple[re.Pattern[str], str]] = [(re.compile(pattern), msgid) for pattern, msgid in (
    (r"Seat draw: (?P<players>\d+) players at (?P<tables>\d+) tables",
     N_("Seat draw: %(players)s players at %(tables)s tables")),
    (r"Every seat is taken: open table (?P<table>\d+)",
     N_("Every seat is taken: open table %(table)s")),
    (r"Balance tables: (?P<count>\d+) moves?", "<plural:balance>"),
    (r"Break table (?P<table>\d+)", N_("Break table %(table)s")),
    (r"Final table: redraw for seats", N_("Final table: redraw for seats")),
    (r"Redraw for seats at (?P<tables>\d+) tables", N_("Redraw for seats at %(tables)s tables")),
    (r"final table redraw", N_("final table redraw")),
    (r"redraw", N_("redraw")),
    (r"dealt in now", N_("dealt in now")),
    (r"waits for the button to pass", N_("waits for the button to pass")),
    (r"posts the big blind now", N_("posts the big blind now")),
    (r"posts the small blind now", N_("posts the small blind now")),
    (r"fills the last open seat", N_("fills the last open seat")),
    (r"takes the big blind", N_("takes the big blind")),
    (r"big blind after (?P<count>\d+) hands?", "<plural:hands>"),
    (r"table (?P<table>\d+) seat (?P<last>\d+) posted the last big blind and is open: TDA 11-A "
     r"lets (?P<name>.+) take it and post the big blind again; these rules make it the small "
     r"blind and seat him in seat (?P<seat>\d+) - confirm with the house",
     N_("table %(table)s seat %(last)s posted the last big blind and is open: TDA 11-A lets "
        "%(name)s take it and post the big blind again; these rules make it the small blind "
        "and seat him in seat %(seat)s - confirm with the house")),
    # the ledger's notes (director/services/money.py stores them in English)
    (r"Prize for place (?P<place>[0-9–]+)", N_("Prize for place %(place)s")),
    (r"Deal \((?P<method>.+)\)", N_("Deal (%(method)s)")),
    # plan kinds and record states, as the pages show them
    (r"none", N_("no moves")),
    (r"draw", N_("seat draw")),
    (r"new player", N_("new player")),
    (r"balance", N_("balance")),
    (r"break table", N_("break table")),
    (r"final table", N_("final table")),
    (r"pending", N_("pending")),
    (r"confirmed", N_("confirmed")),
    (r"discarded", N_("discarded")),
    (r"undone", N_("undone")),
)]


def _seating_plural(key: str, match: re.Match[str]) -> str | None:
    count = int(match.groupdict().get("count") or 0)
    if key == "<plural:balance>":
        return ngettext("Balance tables: %(num)s move", "Balance tables: %(num)s moves", count)
    if key == "<plural:hands>":
        return ngettext("big blind after %(num)s hand", "big blind after %(num)s hands", count)
    return None


def seating_text(text: Any) -> str:
    """A sentence of the seating engine in the user's language ("Break table 3" ->
    "Bryt bord 3"); several joined by "; " are translated one by one; an unknown
    sentence is shown as it is."""
    if text is None:
        return ""
    whole = _seating_sentence(str(text))
    if whole is not None:
        return whole
    return "; ".join(_seating_sentence(part) or part for part in str(text).split("; "))


def _seating_sentence(text: str) -> str | None:
    for pattern, msgid in _SEATING_SENTENCES:
        match = pattern.fullmatch(text)
        if match:
            values = match.groupdict()
            if "method" in values:
                values["method"] = gettext(values["method"])
            return _seating_plural(msgid, match) or gettext(msgid, **values)
    return None


def move_text(move: Any) -> str:
    """``Move.describe()`` in the user's language: "Anna Berg: bord 4 plats 2 → bord 1 plats 7 (...)"."""
    to = gettext("table %(table)s seat %(seat)s", table=move.to_table, seat=move.to_seat)
    if move.from_table is None:
        text = to
    else:
        text = gettext("table %(table)s seat %(seat)s", table=move.from_table,
                       seat=move.from_seat) + " → " + to
    note = f" ({seating_text(move.note)})" if move.note else ""
    return f"{move.name}: {text}{note}"


def plan_lines(plan: Any, *, with_note: bool = True, with_floor: bool = True) -> list[str]:
    """``SeatingPlan.describe()`` in the user's language."""
    lines = [seating_text(plan.note)] if plan.note and with_note else []
    if with_floor:
        lines += [gettext("Floor: %(note)s", note=seating_text(text)) for text in plan.floor_notes]
    lines += [gettext("Open table %(table)s (%(size)s seats)", table=n, size=size)
              for n, size in sorted(plan.open_tables.items())]
    lines += [move_text(m) for m in plan.moves]
    lines += [gettext("Table %(table)s: button starts in seat %(seat)s", table=n, seat=s)
              for n, s in sorted(plan.buttons.items())]
    lines += [gettext("Close table %(table)s", table=n) for n in plan.close_tables]
    return lines


def place_label(player: Any) -> str:
    """A finishing place: "3", or "3–4 (delad)" when shared."""
    if player.place is None:
        return ""
    if player.place_last and player.place_last != player.place:
        return gettext("%(first)s–%(last)s (shared)", first=player.place, last=player.place_last)
    return str(player.place)


# ---------------------------------------------------------------- levels and stakes

# ---------------------------------------------------------------- showdown: hand names, awards

def _singular_ranks() -> dict[str, str]:
    """The engine's English rank word -> the user's ("king" -> sv "kung")."""
    return {
        "ace": pgettext("rank", "ace"), "king": pgettext("rank", "king"),
        "queen": pgettext("rank", "queen"), "jack": pgettext("rank", "jack"),
        "ten": pgettext("rank", "ten"), "nine": pgettext("rank", "nine"),
        "eight": pgettext("rank", "eight"), "seven": pgettext("rank", "seven"),
        "six": pgettext("rank", "six"), "five": pgettext("rank", "five"),
        "four": pgettext("rank", "four"), "three": pgettext("rank", "three"),
        "two": pgettext("rank", "two"),
    }


def _plural_ranks() -> dict[str, str]:
    """The engine's English plural rank word -> the user's ("sevens" -> sv "sjuor")."""
    return {
        "aces": pgettext("ranks", "aces"), "kings": pgettext("ranks", "kings"),
        "queens": pgettext("ranks", "queens"), "jacks": pgettext("ranks", "jacks"),
        "tens": pgettext("ranks", "tens"), "nines": pgettext("ranks", "nines"),
        "eights": pgettext("ranks", "eights"), "sevens": pgettext("ranks", "sevens"),
        "sixes": pgettext("ranks", "sixes"), "fives": pgettext("ranks", "fives"),
        "fours": pgettext("ranks", "fours"), "threes": pgettext("ranks", "threes"),
        "twos": pgettext("ranks", "twos"),
    }


_R = r"([a-z]+)"
_HAND_FORMS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    # (the engine's English name, the msgid, how its groups are read: s = one rank, p = ranks,
    #  c = cards written with rank letters, l = a low written with rank letters)
    (re.compile(r"royal flush"), N_("royal flush"), ""),
    (re.compile(rf"straight flush, {_R} high"), N_("straight flush, %(rank)s high"), "s"),
    (re.compile(rf"four {_R}"), N_("four %(ranks)s"), "p"),
    (re.compile(rf"{_R} full of {_R}"), N_("%(ranks)s full of %(other)s"), "pp"),
    (re.compile(rf"{_R}-high flush"), N_("%(rank)s-high flush"), "s"),
    (re.compile(rf"{_R}-high straight"), N_("%(rank)s-high straight"), "s"),
    (re.compile(rf"three {_R}"), N_("three %(ranks)s"), "p"),
    (re.compile(rf"two pair, {_R} and {_R}"), N_("two pair, %(ranks)s and %(other)s"), "pp"),
    (re.compile(rf"pair of {_R}"), N_("pair of %(ranks)s"), "p"),
    (re.compile(r"([2-9TJQKA](?:-[2-9TJQKA]){4}) high"), N_("%(cards)s high"), "c"),
    (re.compile(r"([2-8A](?:-[2-8A]){4}) low"), N_("%(cards)s low"), "l"),
    (re.compile(r"([2-8A](?:-[2-8A]){4})"), "%(cards)s", "l"),
    (re.compile(r"no low"), N_("no low"), ""),
)
_HAND_KEYS = ("rank", "ranks", "other", "cards")


def _letters(cards: str) -> str:
    """"K-Q-J-T-5" with the user's rank letters: sv "K-D-Kn-T-5"."""
    standard = {letter: rank for rank, letter in card_letters("en").items()}
    local = rank_letters()
    return "-".join(local[standard[c]] if c in standard else c for c in cards.split("-"))


def hand_name(hand: Any) -> str:
    """A hand's name in the user's language, from a ``HighHand``/``LowHand`` (its ``name``)
    or the engine's English name: "kings full of sevens" -> sv "kåk, kungar över sjuor",
    "8-5-3-2-A low" -> sv "8-5-3-2-E låg".  English comes back exactly as the engine wrote it;
    a name the engine never writes is returned unchanged."""
    if hand is None:
        return ""
    english = str(getattr(hand, "name", hand))
    for pattern, msgid, kinds in _HAND_FORMS:
        match = pattern.fullmatch(english)
        if not match:
            continue
        words: list[str] = []
        for kind, group in zip(kinds, match.groups(), strict=True):
            if kind == "s":
                words.append(_singular_ranks().get(group, group))
            elif kind == "p":
                words.append(_plural_ranks().get(group, group))
            else:
                words.append(_letters(group))
        if kinds in ("c", "l"):
            params = {"cards": words[0]}
        elif kinds == "s":
            params = {"rank": words[0]}
        else:
            params = dict(zip(("ranks", "other"), words, strict=False))
        return gettext(msgid, **params) if msgid != "%(cards)s" else words[0]
    return english


def pot_label(name: str) -> str:
    """The engine's pot name in the user's language: "Side pot 2" -> sv "Sidopott 2"."""
    if name == "Main pot":
        return gettext("Main pot")
    side = re.fullmatch(r"Side pot (\d+)", name)
    return gettext("Side pot %(n)s", n=side.group(1)) if side else name


_LEADS = {"high": N_("high"), "low": N_("low")}


def _and(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    return gettext("%(first)s and %(last)s", first=", ".join(items[:-1]), last=items[-1])


def _award_clause(group: list[Any], seat: Callable[[int], int], name: Callable[[int], str],
                  shown: Mapping[int, str]) -> str:
    first = group[0]
    if first.hand_name is None:
        hand = hand_name(shown[first.player]) if first.player in shown \
            else gettext("uncontested")
    else:
        hand = hand_name(first.hand_name.removesuffix(" low") if first.half == "low"
                         else first.hand_name)
        if first.reason == "no-low":
            hand = gettext("%(hand)s, no low", hand=hand)
    if len(group) == 1:
        clause = gettext("to seat %(seat)s (%(name)s), %(hand)s, %(amount)s",
                         seat=seat(first.player), name=name(first.player), hand=hand,
                         amount=number_filter(first.amount))
    else:
        seats = _and([f"{seat(a.player)} ({name(a.player)})" for a in group])
        amounts = [a.amount for a in group]
        if len(set(amounts)) == 1:
            clause = gettext("split seats %(seats)s, %(hand)s, %(amount)s each", seats=seats,
                             hand=hand, amount=number_filter(amounts[0]))
        else:
            clause = gettext("split seats %(seats)s, %(hand)s, %(amounts)s", seats=seats,
                             hand=hand, amounts=_and([number_filter(x) for x in amounts]))
    if first.reason == "both-ways":
        return gettext("both ways %(clause)s", clause=clause)
    lead = _LEADS.get(first.half)
    return gettext("%(half)s %(clause)s", half=gettext(lead), clause=clause) if lead else clause


def award_sentences(awards: Iterable[Any], seat: Callable[[int], int], name: Callable[[int], str],
                    shown_hands: Mapping[int, str] | None = None,
                    notes: Mapping[int, list[str]] | None = None) -> list[str]:
    """One sentence per pot for the dealer to read aloud, in the user's language, built from
    the engine's ``Award`` fields (``seat``/``name`` name an engine player index; ``notes``
    adds clauses to a pot by ``pot_index``, e.g. who got the odd chip).  In English it reads
    exactly like ``describe_awards``: "Main pot 1,200: high to seat 3 (Ann), kings full of
    sevens, 600; low split seats 5 (Bo) and 7 (Cy), 8-5-3-2-A, 300 each"."""
    shown = shown_hands or {}
    pots: list[tuple[tuple[int, str], int, list[list[Any]]]] = []
    for award in awards:
        key = (award.pot_index, award.pot_name)
        if not pots or pots[-1][0] != key:
            pots.append((key, award.pot_amount, []))
        groups = pots[-1][2]
        if groups and groups[-1][0].half == award.half:
            groups[-1].append(award)
        else:
            groups.append([award])
    sentences = []
    for (index, pot_name), total, groups in pots:
        parts = [_award_clause(g, seat, name, shown) for g in groups]
        parts += (notes or {}).get(index, [])
        sentences.append(gettext("%(pot)s %(total)s: %(parts)s", pot=pot_label(pot_name),
                                 total=number_filter(total), parts="; ".join(parts)))
    return sentences


def ui_strings() -> dict[str, str]:
    """The sentences the screens' JavaScript composes (``%(name)s`` placeholders)."""
    return {
        "level": gettext("Level %(number)s"),
        "break": gettext("Break"),
        "blinds": gettext("Blinds %(small)s/%(big)s"),
        "ante": gettext("Ante %(ante)s"),
        "bb_ante": gettext("Big-blind ante %(ante)s"),
        "limits": gettext("Limits %(small)s/%(big)s"),
        "bring_in": gettext("Bring-in %(amount)s"),
        "separator": " · ",
        "paused": gettext("Paused"),
        "not_started": gettext("Not started"),
        "running": gettext("running"),
        "paused_lower": gettext("paused"),
        "not_started_lower": gettext("not started"),
        "no_answer": gettext("No answer from the server yet: sending it again…"),
        "live": gettext("Live connection"),
        "reconnecting": gettext("Reconnecting…"),
        "polling": gettext("Updating every 2 seconds"),
        "offline": gettext("No connection to the server"),
    }


def _amount(value: Any) -> str:
    return chips_text(int(value or 0))


def stakes_text(level: dict[str, Any] | None) -> str:
    """The stakes on one line: "Mörkar 100/200 · Ante 200" (see ``stakes_parts``)."""
    return ui_strings()["separator"].join(stakes_parts(level))


def stakes_parts(level: dict[str, Any] | None) -> list[str]:
    """A level's stakes in the user's language, as the projector shows them.

    sv: "Mörkar 100/200 · Ante 200"; a limit game: "Insatser 400/800 · Mörkar
    200/400"; stud: "Ante 50 · Bring-in 100 · Insatser 400/800".  The same
    composition as ``static/projector.js`` (from ``ui_strings``).
    """
    if not level:
        return []
    strings = ui_strings()
    if level.get("kind") == "break" or level.get("is_break"):
        return [strings["break"]]
    game = str(level.get("game") or "")
    parts: list[str] = []
    limits = strings["limits"] % {"small": _amount(level.get("small_bet")),
                                  "big": _amount(level.get("big_bet"))}
    if "7S" in game:
        parts.append(strings["ante"] % {"ante": _amount(level.get("ante"))})
        parts.append(strings["bring_in"] % {"amount": _amount(level.get("bring_in"))})
        parts.append(limits)
        return parts
    if game.startswith("F"):
        parts.append(limits)
    parts.append(strings["blinds"] % {"small": _amount(level.get("small_blind")),
                                      "big": _amount(level.get("big_blind"))})
    if level.get("ante"):
        key = "bb_ante" if level.get("big_blind_ante") else "ante"
        parts.append(strings[key] % {"ante": _amount(level.get("ante"))})
    return parts


_STAKES_LABELS: dict[tuple[str, tuple[tuple[str, Any], ...]], str] = {}
_STAKES_LABELS_KEPT = 1024


def stakes_label(level: Mapping[str, Any] | None) -> str:
    """A level's stakes on one short line, as the dealer tablet and the hand's log show
    them, in the user's language: "100/200", "100/200 ante 25", a big-blind ante
    "100/200 BB ante 200" (the big blind pays it for the table, TDA RP-11), a limit
    game "Limits 200/400 · blinds 100/200", stud "Ante 25 · bring-in 50 · 200/400".

    In a request, said once per locale and level and kept (every answer to a tablet
    says it)."""
    if not level:
        return ""
    if not has_request_context():
        return _stakes_label(level)
    try:
        key = (str(request_locale()), tuple(level.items()))
        said = _STAKES_LABELS.get(key)
    except TypeError:           # a value that cannot be a key (a list): said each time
        return _stakes_label(level)
    if said is None:
        if len(_STAKES_LABELS) >= _STAKES_LABELS_KEPT:
            _STAKES_LABELS.clear()
        said = _STAKES_LABELS[key] = _stakes_label(level)
    return said


def _stakes_label(level: Mapping[str, Any]) -> str:
    if level.get("kind") == "break" or level.get("is_break"):
        return gettext("Break")
    game = str(level.get("game") or "")
    limits = f"{_amount(level.get('small_bet'))}/{_amount(level.get('big_bet'))}"
    if "7S" in game:
        return gettext("Ante %(ante)s · bring-in %(bring_in)s · %(limits)s",
                       ante=_amount(level.get("ante")), bring_in=_amount(level.get("bring_in")),
                       limits=limits)
    blinds = f"{_amount(level.get('small_blind'))}/{_amount(level.get('big_blind'))}"
    if level.get("ante"):
        template = N_("%(blinds)s BB ante %(ante)s") if level.get("big_blind_ante") \
            else N_("%(blinds)s ante %(ante)s")
        blinds = gettext(template, blinds=blinds, ante=_amount(level.get("ante")))
    if game.startswith("F"):
        return gettext("Limits %(limits)s · blinds %(blinds)s", limits=limits, blinds=blinds)
    return blinds


def level_title(level: dict[str, Any] | None) -> str:
    """"Nivå 4" / "Level 4" / "Paus"."""
    if not level:
        return ""
    if level.get("kind") == "break" or level.get("is_break"):
        return gettext("Break")
    return gettext("Level %(number)s", number=level.get("level_number"))


# ---------------------------------------------------------------- filters

def chips_text(value: int) -> str:
    """A whole number of chips as :func:`number_filter` writes it (en 12,500 · sv 12 500 ·
    id 12.500), cheaply: the tablet writes a dozen of them per answer.

    >>> chips_text(1234567)
    '1,234,567'
    """
    if not has_request_context():
        return f"{value:,}"
    return f"{value:,}".replace(",", str(request_locale().number_symbols["latn"]["group"]))  # type: ignore[union-attr]


_WHOLE_NUMBERS: dict[tuple[str, int], str] = {}
_WHOLE_NUMBERS_KEPT = 8192


def load_locale_data() -> None:
    """Load each language's CLDR data (number and date formats) now.  Babel loads a
    locale's data on its first use, about 10 ms: otherwise the first request to say a
    number in that language (a late entry's log line) pays it while the room waits."""
    for code in LANGUAGES:
        Locale.parse(code).decimal_formats     # noqa: B018 - read to load


def number_filter(value: Any) -> str:
    """Chips and counts: en 12,500 · sv 12 500 (no-break space) · id 12.500.

    A whole number is formatted by Babel once per locale and value and kept (a dealer's
    log line says a seat number and an amount: Babel took ~7 us for each)."""
    if value is None or value == "":
        return ""
    if type(value) is int:          # chips and seats: said once per locale and value
        locale = request_locale()
        key = (str(locale), value)
        said = _WHOLE_NUMBERS.get(key)
        if said is None:
            if len(_WHOLE_NUMBERS) >= _WHOLE_NUMBERS_KEPT:
                _WHOLE_NUMBERS.clear()
            said = _WHOLE_NUMBERS[key] = str(format_decimal(value))
        return said
    try:
        return str(format_decimal(value))
    except (TypeError, ValueError, ArithmeticError):
        return str(value)


def money_filter(value: Any, currency: str | None = None) -> str:
    """Money in the event's currency (config ``CURRENCY``): sv "12 500,00 kr"."""
    if value is None or value == "":
        return ""
    code = currency or str(current_app.config.get("CURRENCY", "EUR"))
    try:
        return str(format_currency(value, code))
    except (TypeError, ValueError, ArithmeticError):
        return str(value)


def datetime_filter(value: datetime | None, format: str = "short") -> str:  # noqa: A002
    return "" if value is None else str(format_datetime(value, format))


def card_filter(card: Card | str | None) -> Markup | str:
    """A card with the locale's rank letter: sv "Kn♥", id "As♠"."""
    if card is None:
        return "??"
    if isinstance(card, str):
        try:
            card = parse_card(card, current_language())
        except RuleViolation:
            return card
    return format_card(card, current_language())


def rank_letters() -> dict[int, str]:
    """The rank letters of the user's language, ace first, for a card picker."""
    return card_letters(current_language())


def rank_labels() -> dict[str, str]:
    """Standard rank letter -> the locale's (sv ``{"A": "E", "Q": "D", "J": "Kn", ...}``),
    ace first: what a card picker in JavaScript shows on its buttons."""
    standard = card_letters("en")
    return {standard[rank]: label for rank, label in rank_letters().items()}


def parse_local_card(text: str) -> Card:
    """A card typed by a dealer: the local letters (sv "Kn♥") or the standard notation ("Jh")."""
    return parse_card(text, current_language())


def inject() -> dict[str, Any]:
    return {
        "languages": LANGUAGES,
        "current_language": current_language,
        "game_name": game_name,
        "template_name": template_name,
        "stakes_text": stakes_text,
        "stakes_parts": stakes_parts,
        "level_title": level_title,
        "ui_strings": ui_strings,
        "rank_letters": rank_letters,
        "rank_labels": rank_labels,
        "games_json": lambda: {code: game_name(code) for code in GAME_NAMES},
        "currency": lambda: str(current_app.config.get("CURRENCY", "EUR")),
        "move_text": move_text,
        "plan_lines": plan_lines,
        "place_label": place_label,
    }


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    app.config.setdefault("BABEL_DEFAULT_TIMEZONE", "UTC")
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    app.config.setdefault("CURRENCY", "EUR")
    babel.init_app(app, locale_selector=_selected_locale)
    app.add_template_filter(number_filter, "number")
    app.add_template_filter(number_filter, "chips")
    app.add_template_filter(money_filter, "money")
    app.add_template_filter(datetime_filter, "datetime")
    app.add_template_filter(card_filter, "card")
    app.add_template_filter(seating_text, "seating_text")
    app.context_processor(inject)


# ---------------------------------------------------------------- catalogue upkeep

def extract(pot: Path) -> None:
    """Write the template catalogue from the sources (Python and Jinja)."""
    root = TRANSLATIONS.parent.parent
    catalog = Catalog(project="director", version="0.1", charset="utf-8",
                      copyright_holder="director", msgid_bugs_address="")
    method_map = [("director/**.py", "python"), ("templates/**.html", "jinja2")]
    options_map = {"templates/**.html": {"extensions": "jinja2.ext.i18n"}}
    for filename, lineno, message, comments, context in extract_from_dir(
        str(root), method_map, options_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    ):
        if filename.startswith(("director/translations", "tests")):
            continue
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    with pot.open("wb") as out:
        write_po(out, catalog, width=100, omit_header=False, sort_output=True,
                 include_lineno=False)


def update() -> None:
    """Re-extract ``messages.pot`` and merge it into every language's ``.po``."""
    pot = TRANSLATIONS / "messages.pot"
    extract(pot)
    with pot.open("rb") as f:
        template = read_po(f)
    for code in LANGUAGES:
        po = TRANSLATIONS / code / "LC_MESSAGES" / "messages.po"
        po.parent.mkdir(parents=True, exist_ok=True)
        if po.exists():
            with po.open("rb") as f:
                catalog = read_po(f, locale=code)
            catalog.update(template, no_fuzzy_matching=True)
        else:
            catalog = Catalog(locale=code, project="director", version="0.1",
                              copyright_holder="director", msgid_bugs_address="")
            catalog.update(template, no_fuzzy_matching=True)
        with po.open("wb") as out:
            write_po(out, catalog, width=100, sort_output=True, include_lineno=False,
                     ignore_obsolete=True)


def compile_catalogs() -> None:
    """``messages.po`` -> ``messages.mo`` for every language."""
    for code in LANGUAGES:
        po = TRANSLATIONS / code / "LC_MESSAGES" / "messages.po"
        with po.open("rb") as f:
            catalog = read_po(f, locale=code)
        with po.with_suffix(".mo").open("wb") as out:
            write_mo(out, catalog, use_fuzzy=False)


if __name__ == "__main__":  # python -m director.i18n update|compile
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "update":
        update()
    elif command == "compile":
        compile_catalogs()
    elif command == "extract":
        extract(TRANSLATIONS / "messages.pot")
    else:
        sys.exit("usage: python -m director.i18n extract|update|compile")
