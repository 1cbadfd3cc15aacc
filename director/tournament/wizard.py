"""The blind-structure wizard: a structure proposed from the event's facts.

Input (``WizardInput``): the starting stack, the chip set, the expected
players, the target duration and the game or games (several = a mixed
rotation, one game a level in the given order).  Output (``Proposal``):
levels in round numbers that the chip set can make, with a big-blind ante
or stud antes and bring-ins, breaks with their colour-ups, and the expected
end.  The director edits the result like any structure.

The conventions (RULES.md §9.1 and the shipped templates; conventions, not rules):

* one **stake** ``x`` per level climbs a ladder of round numbers
  (1, 1.2, 1.5, 1.6, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten), 20-50 % a level;
* pot- and no-limit Omaha: blinds ``x/2``/``x``, a big-blind ante of ``x``
  from level 4 (TDA RP-11: "generally after level 3 or 4");
* limit Omaha: blinds ``x``/``2x``, limits ``2x``/``4x`` (BB = small bet,
  big bet = 2 x small bet, SB = ½ BB);
* stud: limits ``2x``/``4x``, bring-in about ¼ and ante about ⅛ of the small
  bet (RULES.md §9.1: 50 / 100 / 400 / 800), in whole smallest chips;
* the first stake is about the stack / 300 (stud: / 150; the templates start
  20,000 at 25/50, 15,000 at limits 100/200, 15,000 stud at 200/400);
* the event is expected to end when 40 big blinds (limit and stud: 40 small
  bets) are left in play (heads-up, 20 each); the structure goes on a few
  levels after that;
* a break every two hours of play (15 minutes; 10 with levels under 20);
* the smallest chip moves up at a break once the stake is 4 of the next chip,
  and each break notes the colour-up the structure allows
  (``chip_race.planned_colour_ups``: no blind or ante needs the chip any more).

The level length and the pace are picked so that the expected end is nearest
the target; a target no pace reaches within ``TOLERANCE`` is refused with the
closest one can get.

>>> from datetime import datetime, timezone
>>> start = datetime(2025, 3, 1, 18, 0, tzinfo=timezone.utc)
>>> plan = propose(WizardInput(20_000, (25, 100, 500, 1000, 5000), 100, 10 * 3600,
...                            (Game.PO,)), start)
>>> first = plan.structure.levels[0]
>>> (first.small_blind, first.big_blind), plan.level_minutes
((25, 50), 20)
>>> plan.expected_end.isoformat()
'2025-03-02T03:40:00+00:00'
>>> [entry.note for entry in plan.structure.levels if entry.is_break][:3]
['', 'Colour-up: remove T25 chips (chip race)', 'Colour-up: remove T100 and T500 chips (chip race)']
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from director.poker.errors import RuleViolation
from director.poker.games import GAME_CODES, Game
from director.tournament.chip_race import ColourUp, parse_chip_set, planned_colour_ups
from director.tournament.structure import Kind, Level, Message, Structure, StructureError

__all__ = [
    "Proposal",
    "WizardError",
    "WizardInput",
    "base_stake",
    "parse_input",
    "propose",
]

MANTISSAS = (10, 12, 15, 16, 20, 25, 30, 40, 50, 60, 80)
"""Round stakes: these times a power of ten, divided by ten."""
LEVEL_MINUTES = (5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 45, 50, 60, 75, 90, 120)
GROWTHS = (1.2, 1.25, 1.3, 1.4, 1.5)
START_DEPTH = 300        # stack / first stake (stud: half as deep, in stakes)
END_IN_PLAY = 40         # big blinds (limit, stud: small bets) left in play at the end
ANTE_FROM_LEVEL = 4
BREAK_EVERY_SECONDS = 2 * 3600
EXTRA_LEVELS = 4         # levels after the expected end, so that the clock never runs out
MAX_LEVELS = 80
TOLERANCE = 0.2          # the expected end within 20 % of the target, else refused
MIN_START_DEPTH = 25     # a stack of fewer first stakes is no tournament

LIMITS = {"starting_stack": (100, 10**9), "players": (2, 10_000),
          "duration_minutes": (30, 48 * 60), "level_minutes": (1, 240)}


class WizardError(StructureError):
    """Inputs the wizard refuses; ``errors`` maps the field to the sentence."""


@dataclass(frozen=True, slots=True)
class WizardInput:
    """The event's facts: ``duration_seconds`` is the target; ``level_minutes``
    fixes the level length (None: the wizard picks it)."""

    starting_stack: int
    chips: tuple[int, ...]
    players: int
    duration_seconds: int
    games: tuple[Game, ...]
    level_minutes: int | None = None
    name: str = ""


@dataclass(frozen=True, slots=True)
class Proposal:
    """A proposed structure, with the expected end and the planned colour-ups."""

    structure: Structure
    starts_at: datetime
    expected_end: datetime
    expected_seconds: int
    end_index: int            # the entry at whose end the event is expected to end
    level_minutes: int
    growth_percent: int
    colour_ups: tuple[ColourUp, ...]
    chips: tuple[int, ...]
    starting_stack: int = 0

    def to_json(self) -> dict[str, Any]:
        """The structure export format (``name``, ``levels``) plus ``wizard``: the
        expected end and the colour-ups (the importer ignores the extra key)."""
        return self.structure.to_json() | {"wizard": {
            "starts_at": _iso(self.starts_at),
            "expected_end": _iso(self.expected_end),
            "expected_seconds": self.expected_seconds,
            "end_index": self.end_index,
            "level_minutes": self.level_minutes,
            "growth_percent": self.growth_percent,
            "chips": list(self.chips),
            "starting_stack": self.starting_stack,
            "colour_ups": [up.to_json() for up in self.colour_ups],
        }}


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


# ---------------------------------------------------------------- input

def parse_input(data: Any) -> WizardInput:
    """The wizard's input from JSON-like data; every bad field is named at once.

    >>> parse_input({"starting_stack": 20000, "chips": [25, 100], "players": 50,
    ...              "duration_minutes": 360, "games": ["PO", "F7S/8"]}).games
    (<Game.PO: 'PO'>, <Game.F7S8: 'F7S/8'>)
    >>> try:
    ...     parse_input({"starting_stack": 20010, "chips": [25, 100], "players": 1,
    ...                  "duration_minutes": 360, "games": ["Holdem"]})
    ... except WizardError as e:
    ...     for field, message in e.errors.items(): print(field, "->", message)
    players -> The players must be a whole number from 2 to 10,000
    games -> Unknown game 'Holdem': the game must be one of PO, PO/8, NO, NO/8, FO, FO/8, F7S, F7S/8
    starting_stack -> The starting stack (20,010) must be made of whole T25 chips
    """
    if not isinstance(data, dict):
        raise WizardError({"": Message("Send the wizard's fields as an object")})
    errors: dict[str, str] = {}
    words = {"starting_stack": "starting stack", "players": "players",
             "duration_minutes": "target duration in minutes",
             "level_minutes": "level length in minutes"}

    def whole(name: str, required: bool = True) -> int | None:
        value = data.get(name)
        if value is None and not required:
            return None
        low, high = LIMITS[name]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            errors[name] = Message("The {word} must be a whole number from {low:,} to {high:,}",
                                   word=words[name], low=low, high=high)
            return None
        return value

    stack = whole("starting_stack")
    players = whole("players")
    minutes = whole("duration_minutes")
    level_minutes = whole("level_minutes", required=False)
    chips: tuple[int, ...] = ()
    try:
        chips = parse_chip_set(data.get("chips"))
    except RuleViolation as exc:
        errors["chips"] = Message(exc.template, **exc.params)
    games_raw = data.get("games")
    games: list[Game] = []
    if isinstance(games_raw, str):
        games_raw = [part.strip() for part in games_raw.split(",") if part.strip()]
    if not isinstance(games_raw, list) or not games_raw or len(games_raw) > 8:
        errors["games"] = Message("Give one to eight games, from {codes}", codes=", ".join(GAME_CODES))
    else:
        for code in games_raw:
            if isinstance(code, str) and code in GAME_CODES:
                games.append(Game(code))
            else:
                errors["games"] = Message("Unknown game {value!r}: the game must be one of {codes}",
                                          value=code, codes=", ".join(GAME_CODES))
                break
    name = data.get("name") or ""
    if not isinstance(name, str) or len(name) > 100:
        errors["name"] = Message("The name must be text of at most 100 characters")
    if stack is not None and chips and stack % chips[0]:
        errors["starting_stack"] = Message("The starting stack ({stack:,}) must be made of whole "
                                           "T{chip} chips", stack=stack, chip=chips[0])
    if errors:
        raise WizardError(errors)
    assert stack is not None and players is not None and minutes is not None
    return WizardInput(stack, chips, players, minutes * 60, tuple(games), level_minutes,
                       name if isinstance(name, str) else "")


# ---------------------------------------------------------------- stakes

def _round_values(low: int, high: int) -> Iterator[int]:
    """Round stakes in ``[low, high]``, ascending."""
    power = 1
    while power <= high:
        for mantissa in MANTISSAS:
            value = mantissa * power // 10
            if mantissa * power % 10 == 0 and low <= value <= high:
                yield value
        power *= 10


def _makeable(x: int, unit: int, games: Sequence[Game]) -> bool:
    """Can every exact amount of stake ``x`` be paid in whole ``unit`` chips?"""
    for game in games:
        if game.is_stud or game.betting.is_fixed:
            if x % unit:
                return False
        elif x % 2 or (x // 2) % unit:
            return False
    return True


def _nearest(target: float, low: int, high: int, unit: int, games: Sequence[Game]) -> int | None:
    """The round, makeable stake in ``[low, high]`` nearest ``target`` (by ratio)."""
    best = None
    for value in _round_values(max(1, low), high):
        if _makeable(value, unit, games) and (
                best is None or abs(math.log(value / target)) < abs(math.log(best / target))):
            best = value
    return best


def _next_stake(x: int, growth: float, unit: int, games: Sequence[Game]) -> int:
    """The next level's stake: the round one nearest ``x * growth``, at least 10 % up;
    failing that, the next multiple of what the chips make."""
    found = _nearest(x * growth, math.floor(x * 1.1) + 1, x * 2, unit, games)
    if found is not None:
        return found
    step = 2 * unit
    return max(x + step, math.ceil(x * growth / step) * step)


def _nearest_unit(amount: float, unit: int) -> int:
    """``amount`` in whole ``unit`` chips, halves up, at least one chip."""
    return max(unit, math.floor(amount / unit + 0.5) * unit)


def _round_amount(amount: float, unit: int) -> int:
    """A stud ante or bring-in: the round number in whole ``unit`` chips nearest
    ``amount`` (1,250 with T100 chips -> 1,200), at least one chip."""
    choices = [v for v in _round_values(unit, max(unit, int(amount * 2))) if v % unit == 0]
    if not choices:
        return _nearest_unit(amount, unit)
    return min(choices, key=lambda v: (abs(math.log(v / max(amount, 1))), -v))


def _up_to(amount: int, unit: int) -> int:
    return -(-amount // unit) * unit


def _level(game: Game, x: int, unit: int, number: int, seconds: int,
           last: dict[Game, Level]) -> Level:
    """The level of ``game`` at stake ``x`` (see the module's conventions)."""
    if game.is_stud:
        previous = last.get(game)
        ante = _round_amount(x / 4, unit)
        bring_in = _round_amount(x / 2, unit)
        if previous is not None:      # never down, also when a colour-up rounds up
            ante = max(ante, _up_to(previous.ante, unit))
            bring_in = max(bring_in, _up_to(previous.bring_in, unit))
        bring_in = min(max(bring_in, ante), 2 * x)
        return Level(game=game, duration_seconds=seconds, ante=ante, bring_in=bring_in,
                     small_bet=2 * x, big_bet=4 * x)
    if game.betting.is_fixed:
        return Level(game=game, duration_seconds=seconds, small_blind=x, big_blind=2 * x,
                     small_bet=2 * x, big_bet=4 * x)
    ante = x if number >= ANTE_FROM_LEVEL else 0
    return Level(game=game, duration_seconds=seconds, small_blind=x // 2, big_blind=x,
                 ante=ante, big_blind_ante=bool(ante))


def base_stake(level: Level) -> int:
    """The stake a level was built from: the big blind of pot- and no-limit, the small
    blind of limit Omaha, half the small bet of stud (one ladder for a mixed rotation).

    >>> base_stake(Level(game=Game.F7S, ante=25, bring_in=50, small_bet=200, big_bet=400))
    100
    """
    if level.game is None:
        return 0
    if level.game.is_stud:
        return level.small_bet // 2
    return level.small_blind if level.game.betting.is_fixed else level.big_blind


# ---------------------------------------------------------------- the ladder

@dataclass(frozen=True, slots=True)
class _Draft:
    levels: tuple[Level, ...]
    end_index: int
    expected_seconds: int
    level_seconds: int
    growth: float


def _start_stake(inputs: WizardInput) -> int:
    stud = any(game.is_stud for game in inputs.games)
    depth = START_DEPTH // 2 if stud else START_DEPTH
    unit = inputs.chips[0]
    target = max(inputs.starting_stack / depth, 1)
    found = _nearest(target, 1, max(10 * unit * 8, int(target * 4) + 8), unit, inputs.games)
    if found is None:
        found = 2 * unit if any(not g.is_stud and not g.betting.is_fixed for g in inputs.games) \
            else unit
    return found


def _end_stake(inputs: WizardInput) -> float:
    """The stake at which the event is expected to be over: ``END_IN_PLAY`` big blinds
    left in play (limit Omaha and stud: small bets, which are two stakes)."""
    per_stake = 2 if all(g.is_stud or g.betting.is_fixed for g in inputs.games) else 1
    return inputs.starting_stack * inputs.players / (END_IN_PLAY * per_stake)


def _draft(inputs: WizardInput, level_seconds: int, growth: float) -> _Draft:
    chips, games = inputs.chips, inputs.games
    break_seconds = 15 * 60 if level_seconds >= 20 * 60 else 10 * 60
    every = max(1, round(BREAK_EVERY_SECONDS / level_seconds))
    end_stake = _end_stake(inputs)
    unit_index, x = 0, _start_stake(inputs)
    entries: list[Level] = []
    last: dict[Game, Level] = {}
    elapsed, expected, end_index, end_number = 0, 0, -1, 0
    number = 0
    while True:
        number += 1
        game = games[(number - 1) % len(games)]
        level = _level(game, x, chips[unit_index], number, level_seconds, last)
        last[game] = level
        entries.append(level)
        elapsed += level_seconds
        if end_index < 0 and x >= end_stake:
            expected, end_index, end_number = elapsed, len(entries) - 1, number
        if (end_index >= 0 and number >= end_number + EXTRA_LEVELS) or number >= MAX_LEVELS:
            break
        if number % every == 0:
            entries.append(Level(Kind.BREAK, break_seconds))
            elapsed += break_seconds
            while unit_index + 1 < len(chips) and chips[unit_index + 1] * 4 <= x:
                unit_index += 1
        x = _next_stake(x, growth, chips[unit_index], games)
    if end_index < 0:
        expected, end_index = elapsed, len(entries) - 1
    return _Draft(tuple(entries), end_index, expected, level_seconds, growth)


def _cost(draft: _Draft, target: int) -> float:
    """How far the draft is from what a director wants: the end off the target first,
    then a pace far from 25-33 % a level, then levels outside 15-60 minutes."""
    miss = abs(draft.expected_seconds - target) / target
    pace = 0 if 1.25 <= draft.growth <= 1.3 else abs(math.log(draft.growth / 1.28))
    minutes = draft.level_seconds // 60
    length = 0 if 15 <= minutes <= 60 else 0.05
    return miss + 0.5 * pace + length


def propose(inputs: WizardInput, start: datetime) -> Proposal:
    """The proposed structure for ``inputs``, starting at ``start`` (an argument: the
    wizard reads no clock).  Raises ``WizardError`` naming the field when no
    structure fits.
    """
    first = _start_stake(inputs)
    if inputs.starting_stack < MIN_START_DEPTH * first:
        raise WizardError({"starting_stack": Message(
            "A stack of {stack:,} is only {depth} times the first stake ({stake:,}) the T{chip} "
            "chips allow: give a bigger stack or a smaller chip", stack=inputs.starting_stack,
            depth=inputs.starting_stack // first, stake=first, chip=inputs.chips[0])})
    minutes = (inputs.level_minutes,) if inputs.level_minutes else LEVEL_MINUTES
    drafts = [_draft(inputs, m * 60, g) for m in minutes for g in GROWTHS]
    best = min(drafts, key=lambda d: _cost(d, inputs.duration_seconds))
    if abs(best.expected_seconds - inputs.duration_seconds) > TOLERANCE * inputs.duration_seconds:
        field = "level_minutes" if inputs.level_minutes else "duration_minutes"
        raise WizardError({field: Message(
            "No structure ends near {target}: with {players} players, {stack:,} chips each and "
            "these chips the closest is about {closest} ({minutes}-minute levels)",
            target=_hours(inputs.duration_seconds), players=inputs.players,
            stack=inputs.starting_stack, closest=_hours(best.expected_seconds),
            minutes=best.level_seconds // 60)})
    ups = planned_colour_ups(best.levels, inputs.chips)
    notes = {up.index: up.note() for up in ups}
    levels = tuple(Level(Kind.BREAK, entry.duration_seconds, note=notes.get(i, ""))
                   if entry.is_break else entry for i, entry in enumerate(best.levels))
    name = inputs.name or _name(inputs)
    return Proposal(
        structure=Structure(levels, name),
        starts_at=start,
        expected_end=start + timedelta(seconds=best.expected_seconds),
        expected_seconds=best.expected_seconds,
        end_index=best.end_index,
        level_minutes=best.level_seconds // 60,
        growth_percent=round((best.growth - 1) * 100),
        colour_ups=ups,
        chips=inputs.chips,
        starting_stack=inputs.starting_stack,
    )


def _hours(seconds: int) -> str:
    """``37800`` -> ``'10 h 30 min'``."""
    hours, rest = divmod(round(seconds / 60), 60)
    return f"{hours} h {rest:02d} min" if rest else f"{hours} h"


def _name(inputs: WizardInput) -> str:
    games = "/".join(str(game) for game in inputs.games)
    return f"{games} — {inputs.starting_stack:,} chips, {inputs.players} players"
