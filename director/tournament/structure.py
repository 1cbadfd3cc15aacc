"""Blind and limit structures: the structure sheet as data (RULES.md §9.1).

A structure is a sequence of entries.  An entry is either a playing level
(a game and its stakes) or a break (with an optional colour-up note, TDA 24).
The structure sheet "is the source of truth and must be data, not code", so
structures load from and save to JSON, and every save is validated: each
error names the field it is about, and all errors are collected at once.

Conventions used by the shipped templates (RULES.md §9.1, not rules): levels
of 15-60 minutes, blinds rising 20-50 % a level, a big-blind ante from about
level 4, breaks every two hours; limit games with SB about half the BB,
BB = small bet and big bet = 2 x small bet; stud with ante, bring-in and
small/big bets.

>>> level = Level(game=Game.PO, duration_seconds=1800, small_blind=100, big_blind=200,
...               ante=200, big_blind_ante=True)
>>> level.stakes_label()
'100/200 ante 200'
>>> s = Structure((level, Level(Kind.BREAK, 900, note="Colour-up: remove T25 chips")), "demo")
>>> s.level_starts(), s.level_number(0), s.level_number(1)
([0, 1800], 1, None)
>>> parse_structure(s.to_json()) == s
True
>>> try:
...     parse_structure({"levels": [{"game": "PO", "duration_seconds": 0,
...                                  "small_blind": 200, "big_blind": 100}]})
... except StructureError as e:
...     for field, message in e.errors.items(): print(field, "->", message)
levels[0].duration_seconds -> Level 1: the level must last at least 1 second (it lasts 0)
levels[0].big_blind -> Level 1: the big blind (100) must be at least the small blind (200)

An error keeps its field as the key (``levels[0].big_blind``, for the editor's cell)
and names the entry the way a director counts them, levels and breaks apart:
"Level 4: …", "Break 2: …".
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from typing import Any

from director.poker.errors import RuleViolation
from director.poker.games import GAME_CODES, Game

__all__ = [
    "Kind",
    "Level",
    "Structure",
    "StructureError",
    "TEMPLATES",
    "entry_numbers",
    "entry_starts",
    "parse_levels",
    "parse_structure",
    "template",
    "validate",
]


class Kind(StrEnum):
    LEVEL = "level"
    BREAK = "break"


AMOUNT_FIELDS: tuple[str, ...] = (
    "small_blind", "big_blind", "ante", "small_bet", "big_bet", "bring_in",
)
"""The chip amounts of a level, all non-negative integers."""

FIELD_WORDS: dict[str, str] = {
    "duration_seconds": "duration",
    "small_blind": "small blind",
    "big_blind": "big blind",
    "ante": "ante",
    "big_blind_ante": "big-blind ante",
    "small_bet": "small bet",
    "big_bet": "big bet",
    "bring_in": "bring-in",
    "note": "note",
    "game": "game",
    "kind": "kind",
}


class Message(str):
    """An English sentence that keeps its template and parameters, so that the
    web layer can translate it (the template is the gettext msgid).  It is
    equal to the filled-in English sentence.

    >>> m = Message("The {word} ({value}) may not be negative", word="ante", value=-5)
    >>> m, m.template, m.params
    ('The ante (-5) may not be negative', 'The {word} ({value}) may not be negative', {'word': 'ante', 'value': -5})
    """

    template: str
    params: dict[str, Any]
    clause: bool = False      # put after a colon: starts lower case ("Level 4: the big blind")

    def __new__(cls, template: str, **params: Any) -> Message:
        message = super().__new__(cls, template.format(**params))
        message.template = template
        message.params = params
        return message

    def at(self, where: Message) -> Message:
        """This sentence about the entry ``where`` ("Level 4", "Break 2"): "Level 4: the …".

        >>> Message("The ante ({value}) may not be negative", value=-5).at(
        ...     Message("Level {number}", number=4))
        'Level 4: the ante (-5) may not be negative'
        """
        if getattr(self, "template", "").startswith("{where}: "):
            return self
        clause = Message(self.template, **self.params) if hasattr(self, "template") \
            else Message(str(self).replace("{", "{{").replace("}", "}}"))
        clause.clause = True
        located = Message("{where}: {sentence}", where=where, sentence=_lower_first(clause))
        located.params = {"where": where, "sentence": clause}
        return located


def _lower_first(text: str) -> str:
    """"The big blind" -> "the big blind"; "PLO has" stays (an abbreviation)."""
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _is_break(entry: Any) -> bool | None:
    """Is the entry (a ``Level`` or its JSON object) a break?  None: not an entry."""
    if isinstance(entry, Level):
        return entry.is_break
    if isinstance(entry, dict):
        return entry.get("kind") == "break"
    return None


def entry_numbers(levels: Any) -> list[int | None]:
    """Each entry's number as a director counts them: playing levels and breaks apart, so
    the level after the first break of a four-level block is level 5 and that break is
    break 1.  ``levels``: the entries (``Level``, or JSON objects as the structure editor
    sends them); None for anything else.

    >>> entry_numbers([{"kind": "level"}] * 2 + [{"kind": "break"}, {"kind": "level"},
    ...                                           {"kind": "break"}, "?"])
    [1, 2, 1, 3, 2, None]
    """
    counted = {True: 0, False: 0}
    numbers: list[int | None] = []
    for entry in levels:
        kind = _is_break(entry)
        if kind is None:
            numbers.append(None)
            continue
        counted[kind] += 1
        numbers.append(counted[kind])
    return numbers


def entry_starts(durations: Iterable[int]) -> list[int]:
    """The second each entry starts at, counted from the start, no time added: each
    starts when the ones before it have run.

    >>> entry_starts([900, 300, 900])
    [0, 900, 1200]
    """
    starts, total = [], 0
    for seconds in durations:
        starts.append(total)
        total += seconds
    return starts


def where_in(levels: Any, index: int) -> Message | None:
    """Entry ``index`` as a director counts it: "Level 4" (breaks not counted), "Break 2".

    ``levels``: the entries (``Level``, or JSON objects); None for anything else (its
    sentence, "Each entry must be an object", says which).
    """
    entries = list(levels)[: index + 1]
    number = entry_numbers(entries)[-1] if entries else None
    if number is None:
        return None
    if _is_break(entries[-1]):
        return Message("Break {number}", number=number)
    return Message("Level {number}", number=number)


_ENTRY_PATH = re.compile(r"^(?P<path>.*)\[(?P<index>\d+)\](?:\..*)?$")


def locate(errors: dict[str, str], levels: Any, path: str = "levels") -> dict[str, str]:
    """The errors with each entry's sentence saying which entry it is about (the keys stay).

    >>> locate({"levels[1].big_blind": Message("The big blind must be more than 0")},
    ...        [Level(Kind.BREAK, 600), {"kind": "level"}])
    {'levels[1].big_blind': 'Level 1: the big blind must be more than 0'}
    """
    located: dict[str, str] = {}
    for key, message in errors.items():
        match = _ENTRY_PATH.match(key)
        where = where_in(levels, int(match.group("index"))) \
            if match is not None and match.group("path") == path else None
        if where is None or not isinstance(message, str):
            located[key] = message
            continue
        sentence = message if isinstance(message, Message) else Message(
            str(message).replace("{", "{{").replace("}", "}}"))
        located[key] = sentence.at(where)
    return located


def _chips(amount: int) -> str:
    """Chip amounts as a structure sheet prints them: 1000 -> '1,000'."""
    return f"{amount:,}"


@dataclass(frozen=True, slots=True)
class Level:
    """One entry of the structure sheet: a playing level or a break.

    Blind games (Omaha) use ``small_blind``/``big_blind`` and ``ante``
    (``big_blind_ante`` means the ante is one big-blind ante paid by the big
    blind, TDA RP-11); fixed-limit Omaha adds ``small_bet``/``big_bet``.
    Stud uses ``ante``, ``bring_in`` and ``small_bet``/``big_bet``.
    A break has no game and no stakes; its ``note`` carries the colour-up.
    """

    kind: Kind = Kind.LEVEL
    duration_seconds: int = 0
    game: Game | None = None
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    big_blind_ante: bool = False
    small_bet: int = 0
    big_bet: int = 0
    bring_in: int = 0
    note: str = ""

    @property
    def is_break(self) -> bool:
        return self.kind is Kind.BREAK

    def to_json(self) -> dict[str, Any]:
        """All eleven keys, JSON types only (``game`` is the PHH code or null)."""
        return {
            "kind": str(self.kind),
            "duration_seconds": self.duration_seconds,
            "game": None if self.game is None else str(self.game),
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "big_blind_ante": self.big_blind_ante,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "bring_in": self.bring_in,
            "note": self.note,
        }

    def stakes_label(self) -> str:
        """The stakes as the clock screen shows them.

        >>> Level(game=Game.PO, small_blind=100, big_blind=200).stakes_label()
        '100/200'
        >>> Level(game=Game.FO8, small_blind=200, big_blind=400, small_bet=400,
        ...       big_bet=800).stakes_label()
        'Limits 400/800 · blinds 200/400'
        >>> Level(game=Game.F7S, ante=50, bring_in=100, small_bet=400, big_bet=800).stakes_label()
        'Ante 50 · bring-in 100 · 400/800'
        >>> Level(Kind.BREAK, 600).stakes_label()
        'Break'
        """
        if self.is_break:
            return "Break"
        if self.game is not None and self.game.is_stud:
            return (f"Ante {_chips(self.ante)} · bring-in {_chips(self.bring_in)} · "
                    f"{_chips(self.small_bet)}/{_chips(self.big_bet)}")
        blinds = f"{_chips(self.small_blind)}/{_chips(self.big_blind)}"
        ante = f" ante {_chips(self.ante)}" if self.ante else ""
        if self.game is not None and self.game.betting.is_fixed:
            return f"Limits {_chips(self.small_bet)}/{_chips(self.big_bet)} · blinds {blinds}{ante}"
        return f"{blinds}{ante}"


class StructureError(RuleViolation):
    """A structure that may not be saved.

    ``errors`` maps a field path (``"levels[3].big_blind"``) to a sentence a
    director understands.  It is a ``ValueError`` (through ``RuleViolation``).

    >>> e = StructureError({"levels": "The structure needs at least one playing level"})
    >>> e.errors
    {'levels': 'The structure needs at least one playing level'}
    >>> str(e)
    'levels: The structure needs at least one playing level'
    """

    def __init__(self, errors: dict[str, str]) -> None:
        self.errors = dict(errors)
        details = "; ".join(f"{path}: {message}" for path, message in self.errors.items())
        super().__init__("{details}", details=details)


@dataclass(frozen=True, slots=True)
class Structure:
    """A named sequence of levels and breaks, in playing order."""

    levels: tuple[Level, ...]
    name: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "levels": [level.to_json() for level in self.levels]}

    def level_starts(self) -> list[int]:
        """Seconds from the tournament start at which each entry starts (no time added).

        >>> Structure((Level(game=Game.PO, duration_seconds=900, small_blind=1, big_blind=2),) * 3
        ...           ).level_starts()
        [0, 900, 1800]
        """
        return entry_starts(level.duration_seconds for level in self.levels)

    def playing_levels(self) -> list[int]:
        """Indices of the entries that are not breaks."""
        return [i for i, level in enumerate(self.levels) if not level.is_break]

    def level_number(self, index: int) -> int | None:
        """The 1-based number a director calls a playing level ("level 5"); None for a break.

        Breaks are not counted: the level after the first break of a
        four-level block is level 5.
        """
        if self.levels[index].is_break:
            return None
        return entry_numbers(self.levels[: index + 1])[-1]

    def next_playing(self, index: int) -> int | None:
        """Index of the first playing level after ``index``, or None."""
        return next((i for i in range(index + 1, len(self.levels))
                     if not self.levels[i].is_break), None)

    def next_break(self, index: int) -> int | None:
        """Index of the first break after ``index``, or None."""
        return next((i for i in range(index + 1, len(self.levels))
                     if self.levels[i].is_break), None)


# ---------------------------------------------------------------- validation

def _is_int(value: Any) -> bool:
    """JSON integers only: ``True`` is not 1 chip and 100.0 is not an integer amount."""
    return isinstance(value, int) and not isinstance(value, bool)


def _level_errors(level: Level, path: str) -> dict[str, str]:
    """Every rule a single entry breaks, keyed by field path."""
    errors: dict[str, str] = {}

    def error(field: str, message: str) -> None:
        errors.setdefault(f"{path}.{field}", message)

    if not isinstance(level.kind, Kind):
        error("kind", Message("The kind must be 'level' or 'break'"))
    if not _is_int(level.duration_seconds):
        error("duration_seconds", Message("The duration must be a whole number of seconds"))
    elif level.duration_seconds < 1:
        what = "break" if level.is_break else "level"
        error("duration_seconds",
              Message("The {what} must last at least 1 second (it lasts {seconds})",
                      what=what, seconds=level.duration_seconds))
    amounts_ok: dict[str, bool] = {}
    for name in AMOUNT_FIELDS:
        value = getattr(level, name)
        word = FIELD_WORDS[name]
        if not _is_int(value):
            error(name, Message("The {word} must be a whole number of chips", word=word))
        elif value < 0:
            error(name, Message("The {word} ({value}) may not be negative", word=word, value=value))
        amounts_ok[name] = _is_int(value) and value >= 0
    if not isinstance(level.big_blind_ante, bool):
        error("big_blind_ante", Message("The big-blind ante must be true or false"))
    if not isinstance(level.note, str):
        error("note", Message("The note must be text"))

    if level.is_break:
        if level.game is not None:
            error("game", Message("A break has no game"))
        for name in AMOUNT_FIELDS:
            if amounts_ok[name] and getattr(level, name) != 0:
                error(name, Message("A break has no stakes: the {word} must be 0",
                                    word=FIELD_WORDS[name]))
        if level.big_blind_ante is True:
            error("big_blind_ante",
                  Message("A break has no stakes: it cannot have a big-blind ante"))
        return errors

    if not isinstance(level.game, Game):
        error("game", Message("A level needs a game, one of {codes}", codes=", ".join(GAME_CODES)))
        return errors

    def amount(name: str) -> int | None:
        return getattr(level, name) if amounts_ok[name] else None

    def positive(name: str) -> None:
        value = amount(name)
        if value is not None and value <= 0:
            error(name, Message("The {word} must be more than 0 in {game}",
                                word=FIELD_WORDS[name], game=_label(level)))

    small_bet, big_bet = amount("small_bet"), amount("big_bet")
    if level.game.is_stud:
        positive("bring_in")
        positive("small_bet")
        positive("big_bet")
        if small_bet and big_bet is not None and big_bet < small_bet:
            error("big_bet", Message("The big bet ({big_bet}) must be at least the small bet "
                                     "({small_bet})", big_bet=big_bet, small_bet=small_bet))
        bring_in = amount("bring_in")
        if bring_in and small_bet and bring_in > small_bet:
            error("bring_in",
                  Message("The bring-in ({bring_in}) may not be more than the small bet "
                          "({small_bet})", bring_in=bring_in, small_bet=small_bet))
        for name in ("small_blind", "big_blind"):
            if amounts_ok[name] and getattr(level, name) != 0:
                error(name, Message("Stud has no {word}: a level may not mix stud fields with "
                                    "blind fields", word=FIELD_WORDS[name]))
        if level.big_blind_ante is True:
            error("big_blind_ante", Message("Stud has no big-blind ante: a level may not mix stud "
                                            "fields with blind fields"))
        return errors

    positive("small_blind")
    positive("big_blind")
    small_blind, big_blind = amount("small_blind"), amount("big_blind")
    if small_blind and big_blind and big_blind < small_blind:
        error("big_blind",
              Message("The big blind ({big_blind}) must be at least the small blind "
                      "({small_blind})", big_blind=big_blind, small_blind=small_blind))
    if amounts_ok["bring_in"] and level.bring_in != 0:
        error("bring_in", Message("{game} has no bring-in: a level may not mix stud fields "
                                  "with blind fields", game=_sentence_start(_label(level))))
    if level.big_blind_ante is True and amounts_ok["ante"] and level.ante == 0:
        error("ante", Message("A big-blind ante needs an amount: the ante must be more than 0"))
    if level.game.betting.is_fixed:
        positive("small_bet")
        positive("big_bet")
        if small_bet and big_bet is not None and big_bet < small_bet:
            error("big_bet", Message("The big bet ({big_bet}) must be at least the small bet "
                                     "({small_bet})", big_bet=big_bet, small_bet=small_bet))
    else:
        for name in ("small_bet", "big_bet"):
            if amounts_ok[name] and getattr(level, name) != 0:
                error(name, Message("{game} has no fixed bets: the {word} must be 0",
                                    game=_sentence_start(_label(level)), word=FIELD_WORDS[name]))
    return errors


def _sentence_start(text: str) -> str:
    return text[:1].upper() + text[1:]


def _label(level: Level) -> str:
    return level.game.label if isinstance(level.game, Game) else "this game"


def validate(structure: Structure) -> dict[str, str]:
    """Every rule the structure breaks, as ``{field path: sentence}``; ``{}`` when valid.

    The rules: at least one playing level; every entry lasts at least one
    second; blind games have small_blind > 0, big_blind >= small_blind and
    no bring-in; fixed-limit Omaha also small_bet > 0 and big_bet >= small_bet;
    stud has bring_in > 0, small_bet > 0, big_bet >= small_bet,
    bring_in <= small_bet and no blinds; a break has no game and no stakes;
    amounts are non-negative integers.

    >>> validate(Structure((Level(Kind.BREAK, 600),)))
    {'levels': 'The structure needs at least one playing level'}
    """
    errors: dict[str, str] = {}
    if not isinstance(structure.name, str):
        errors["name"] = Message("The name must be text")
    for i, level in enumerate(structure.levels):
        if not isinstance(level, Level):
            errors[f"levels[{i}]"] = Message("Each entry must be a level or a break")
            continue
        errors.update(_level_errors(level, f"levels[{i}]"))
    errors = locate(errors, structure.levels)
    if not any(isinstance(level, Level) and not level.is_break for level in structure.levels):
        errors.setdefault("levels", Message("The structure needs at least one playing level"))
    return errors


# ---------------------------------------------------------------- parsing

_DEFAULTS = Level()


def _parse_level(item: Any, path: str, errors: dict[str, str]) -> Level:
    """One entry from JSON; type errors go into ``errors`` and the field falls back to its default."""
    if not isinstance(item, dict):
        errors[path] = Message("Each entry must be an object with the level's fields")
        return Level(Kind.BREAK, 1)  # placeholder: contributes no further errors
    values: dict[str, Any] = {}
    kind_raw = item.get("kind", "level")
    try:
        values["kind"] = Kind(kind_raw)
    except (ValueError, TypeError):
        errors[f"{path}.kind"] = Message("The kind must be 'level' or 'break', not {value!r}",
                                         value=kind_raw)
        values["kind"] = Kind.LEVEL
    game_raw = item.get("game")
    if game_raw is None:
        values["game"] = None
    elif isinstance(game_raw, str) and game_raw in GAME_CODES:
        values["game"] = Game(game_raw)
    else:
        errors[f"{path}.game"] = Message("Unknown game {value!r}: the game must be one of {codes}",
                                         value=game_raw, codes=", ".join(GAME_CODES))
        values["game"] = None
    for name in ("duration_seconds", *AMOUNT_FIELDS):
        raw = item.get(name, 0)
        if _is_int(raw):
            values[name] = raw
        else:
            word = FIELD_WORDS[name]
            unit = "seconds" if name == "duration_seconds" else "chips"
            errors[f"{path}.{name}"] = Message("The {word} must be a whole number of {unit}, "
                                               "not {value!r}", word=word, unit=unit, value=raw)
            values[name] = getattr(_DEFAULTS, name)
    bba = item.get("big_blind_ante", False)
    if isinstance(bba, bool):
        values["big_blind_ante"] = bba
    else:
        errors[f"{path}.big_blind_ante"] = Message("The big-blind ante must be true or false, "
                                                   "not {value!r}", value=bba)
        values["big_blind_ante"] = False
    note = item.get("note", "")
    if note is None:
        note = ""
    if isinstance(note, str):
        values["note"] = note
    else:
        errors[f"{path}.note"] = Message("The note must be text")
        values["note"] = ""
    level = Level(**values)
    for key, message in _level_errors(level, path).items():
        errors.setdefault(key, message)
    return level


def parse_levels(data: Any, path: str = "levels") -> tuple[Level, ...]:
    """Levels from JSON-like data (a list of objects); omitted fields default to 0/false/"".

    Raises ``StructureError`` naming every bad field, not just the first.
    Unknown keys are ignored.

    >>> parse_levels([{"game": "F7S", "ante": 25, "bring_in": 50, "small_bet": 200,
    ...                "big_bet": 400, "duration_seconds": 2400}])[0].stakes_label()
    'Ante 25 · bring-in 50 · 200/400'
    >>> try:
    ...     parse_levels([{"game": "PO", "duration_seconds": 60, "small_blind": True,
    ...                    "big_blind": 100, "bring_in": 25}])
    ... except StructureError as e:
    ...     for field, message in e.errors.items(): print(field, "->", message)
    levels[0].small_blind -> Level 1: the small blind must be a whole number of chips, not True
    levels[0].bring_in -> Level 1: pot-limit Omaha has no bring-in: a level may not mix stud fields with blind fields
    """
    if not isinstance(data, list | tuple):
        raise StructureError({path: Message("The levels must be a list")})
    errors: dict[str, str] = {}
    levels = tuple(_parse_level(item, f"{path}[{i}]", errors) for i, item in enumerate(data))
    if not any(isinstance(item, dict) and not level.is_break
               for item, level in zip(data, levels, strict=True)):
        errors.setdefault(path, Message("The structure needs at least one playing level"))
    if errors:
        raise StructureError(locate(errors, data, path))
    return levels


def parse_structure(data: Any) -> Structure:
    """A structure from ``{"name": ..., "levels": [...]}`` (or its JSON text); raises StructureError."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except ValueError as exc:
            raise StructureError({"": Message("This is not valid JSON: {error}", error=exc)}) from exc
    if not isinstance(data, dict):
        raise StructureError({"": Message("A structure must be an object with a name and levels")})
    errors: dict[str, str] = {}
    name = data.get("name", "")
    if name is None:
        name = ""
    if not isinstance(name, str):
        errors["name"] = Message("The name must be text")
        name = ""
    levels: tuple[Level, ...] = ()
    if "levels" not in data:
        errors["levels"] = Message("The structure needs at least one playing level")
    else:
        try:
            levels = parse_levels(data["levels"], "levels")
        except StructureError as exc:
            errors.update(exc.errors)
    if errors:
        raise StructureError(errors)
    return Structure(levels, name)


# ---------------------------------------------------------------- templates

def _load_templates() -> dict[str, Structure]:
    """The shipped structure sheets, ``director/tournament/structures/<name>.json``."""
    folder = resources.files("director.tournament").joinpath("structures")
    loaded: dict[str, Structure] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            loaded[entry.name.removesuffix(".json")] = parse_structure(entry.read_text("utf-8"))
    return loaded


TEMPLATES: dict[str, Structure] = _load_templates()
"""Templates a director starts from, by name: plo-standard, plo-turbo, limit-o8, stud, mixed."""


def template(name: str) -> Structure:
    """A shipped template by name; an unknown name raises StructureError (never KeyError).

    >>> template("stud").levels[0].game
    <Game.F7S: 'F7S'>
    >>> try:
    ...     template("holdem")
    ... except StructureError as e:
    ...     print(e.errors["template"])
    There is no template 'holdem'; choose one of limit-o8, mixed, plo-standard, plo-turbo, stud
    """
    try:
        return TEMPLATES[name]
    except (KeyError, TypeError):
        raise StructureError({"template": Message("There is no template {name!r}; choose one of "
                                                  "{names}", name=name, names=", ".join(TEMPLATES))}) from None
