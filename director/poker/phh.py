"""Poker Hand History (PHH) files: read, write, and map to the engine.

PHH is the open hand-history standard of the University of Toronto Computer
Poker Student Research Group (github.com/uoftcprg/phh-std, MIT); the project's
summary is ``shared/PHH.md``.  One hand is one TOML file.  The standard
variant codes we run are ``PO``, ``FO/8``, ``F7S`` and ``F7S/8``; ``PO/8``,
``NO``, ``NO/8`` and ``FO`` are this project's extensions (the spec allows
new codes).  Any other code is refused.

Three layers:

* :func:`read_phh` / :func:`parse_phh` turn TOML text into a typed
  :class:`HandHistory` (unknown extra fields are kept in ``extra``), and
  :func:`parse_action` reads one action line of the grammar::

      d dh pN CARDS    deal hole cards        d db CARDS   deal board cards
      pN pb            post the bring-in      pN cbr X     complete/bet/raise to X
      pN cc            check or call          pN f         fold
      pN sm CARDS      show                   pN sm        muck
      # text           commentary (also after an action: "p1 cc # tank")

  ``??`` is an unknown card.
* :func:`write_phh` writes a :class:`HandHistory` back (a round trip keeps
  every field and every action).
* :func:`hand_config`, :func:`events` and :func:`to_phh` map to and from the
  engine (:mod:`director.poker.state`).

User-defined fields (our extensions).  The PHH spec lets a file carry fields
of its own whose names start with an underscore; other readers keep them aside
(pokerkit in ``user_defined_fields``) and every standard field stays valid.
The dealer tablet's export writes, and :func:`hand_config` /
:func:`paired_events` (hence ``director replay``) read, these:

* ``_dead_players = ["p5"]``: seats absent when the initial deal ended; their
  forced bets are posted and their hands are dead (TDA 2024 rule 30;
  ``HandConfig.dead_players``).  They have no action lines, so a reader that
  ignores this field stops at their first turn.
* ``_small_blind``, ``_big_blind``: the level's nominal blinds, for a dead or
  short blind (TDA 54-B); ``_chip_unit``; ``_event_heads_up = true`` (TDA 48).
* ``_policy = {limit_raise_cap = 4}``: the house policy flags that differ from
  the TDA defaults (:class:`~director.poker.policy.Policy`); an unlimited
  raise cap is written ``"none"`` (TOML has no null).
* ``_events``: an array of tables, one per engine event PHH has no notation
  for.  ``action`` is the 1-based number of the line of ``actions`` that the
  event stands on; the line is kept so the file reads in order:

  ========================================================  ==========================
  entry                                                     its action line
  ========================================================  ==========================
  ``{action = 9, type = "kill", player = "p3",              ``# p3's hand is killed
  reason = "absent"}`` (TDA 29 clock, TDA 30 absent,        (absent)``, or ``p3 f #
  wrong number of cards)                                    ...`` when p3 was to act
                                                            facing a bet (a fold to
                                                            other readers)
  ``{action = 7, type = "check_by_clock", player = "p2"}``  ``p2 cc # checked by the
  (TDA 29)                                                  clock (TDA 29)``
  ``{action = 20, type = "manual_award", high = [["p1"],    ``# the dealer awarded the
  ["p2", "p3"]], low = []}``: the dealer's ranking, best    pots by hand``
  first, ties grouped (``ManualAward``)
  ``{action = 1, type = "misdeal", reason = "exposed        ``# misdeal: exposed card``
  card"}`` (TDA 35): every chip goes back
  ========================================================  ==========================

  Players are named ``"pN"`` as in the actions.  A malformed entry, or one
  whose line does not fit (a kill on another player's fold), is a
  :class:`PHHError`.

>>> from director.poker.events import Misdeal
>>> t = write_phh(from_hand(Hand.replay(HandConfig("PO", (500, 500, 500), blinds_or_straddles=(5, 10, 0),
...                                                 min_bet=10), [Misdeal("exposed card")])))
>>> print(t[t.index("actions"):], end="")
actions = ["# misdeal: exposed card"]
_events = [{action = 1, type = "misdeal", reason = "exposed card"}]
finishing_stacks = [500, 500, 500]
>>> replay(parse_phh(t)).misdealt
True

>>> h = parse_phh('''
... variant = "PO"
... antes = [0, 0, 0]
... blinds_or_straddles = [1, 2, 0]
... min_bet = 2
... starting_stacks = [100, 100, 100]
... actions = ["d dh p1 AsKsQsJs", "d dh p2 ????????", "d dh p3 2c3c4c5c", "p3 cbr 7", "p1 f", "p2 f"]
... hand = 12
... ''')
>>> h.variant.label, h.players_count, h.actions[3].amount, h.extra["hand"]
('pot-limit Omaha', 3, 7, 12)
>>> h.actions[1].cards
(None, None, None, None)
>>> parse_phh(write_phh(h)) == h
True
"""

from __future__ import annotations

import datetime as _dt
import enum
import math
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from director.poker.cards import DECK, RANKS, SUITS, Card
from director.poker.errors import RuleViolation
from director.poker.events import Action as EngineAction
from director.poker.events import ActionKind as EventKind
from director.poker.events import (
    CheckByClock,
    DealBoard,
    DealHole,
    Event,
    Kill,
    ManualAward,
    Misdeal,
    Muck,
    Show,
)
from director.poker.games import Betting, Game
from director.poker.policy import Policy
from director.poker.state import Hand, HandConfig


class PHHError(RuleViolation):
    """A PHH file that cannot be read: bad TOML, a missing or mistyped field,
    or an action line that does not follow the grammar."""


class ActionKind(enum.StrEnum):
    """The PHH action codes (``shared/PHH.md``)."""

    DEAL_HOLE = "dh"
    DEAL_BOARD = "db"
    POST_BRING_IN = "pb"
    COMPLETE_BET_OR_RAISE = "cbr"
    CHECK_OR_CALL = "cc"
    FOLD = "f"
    SHOW = "sm"  # "pN sm CARDS"
    MUCK = "sm-"  # "pN sm" (written back as "sm")
    COMMENT = "#"  # a line that holds only commentary


@dataclass(frozen=True, slots=True)
class Action:
    """One parsed action line.

    ``player`` is the 0-based player index (``p1`` is 0); ``None`` for board
    deals and comments.  ``cards`` holds ``None`` for each unknown ``??``
    card.  ``number`` is the 1-based position in the ``actions`` array, used
    in error messages.

    >>> a = parse_action("p2 cbr 1200 # snap", 4)
    >>> a.kind, a.player, a.amount, a.comment
    (<ActionKind.COMPLETE_BET_OR_RAISE: 'cbr'>, 1, 1200, 'snap')
    >>> str(a)
    'p2 cbr 1200 # snap'
    """

    kind: ActionKind
    player: int | None = None
    cards: tuple[Card | None, ...] = ()
    amount: int | None = None
    comment: str | None = None
    number: int = 0

    def __str__(self) -> str:
        return format_action(self)

    @property
    def is_player_decision(self) -> bool:
        """A betting decision (bring-in, complete/bet/raise, check/call, fold)."""
        return self.kind in _DECISIONS


_DECISIONS = frozenset({ActionKind.POST_BRING_IN, ActionKind.COMPLETE_BET_OR_RAISE,
                        ActionKind.CHECK_OR_CALL, ActionKind.FOLD})


# The header fields we model, in the order we write them.  Anything else in a
# file lands in HandHistory.extra and is written back after these.
_GAME_FIELDS = ("variant", "ante_trimming_status", "antes", "blinds_or_straddles",
                "bring_in", "small_bet", "big_bet", "min_bet", "starting_stacks", "actions")
_TAIL_FIELDS = ("finishing_stacks",)


@dataclass(frozen=True)
class HandHistory:
    """One PHH hand.

    Lists are tuples, one entry per player in PHH order (p1 first).
    ``blinds_or_straddles`` is as written in the file (heads-up it is still
    ``[SB, BB]``; :func:`hand_config` applies the heads-up reversal).
    ``extra`` keeps every other field (``players``, ``event``, ``hand``...)
    in file order.
    """

    variant: Game
    starting_stacks: tuple[int, ...]
    antes: tuple[int, ...]
    actions: tuple[Action, ...] = ()
    blinds_or_straddles: tuple[int, ...] = ()
    bring_in: int = 0
    small_bet: int | None = None
    big_bet: int | None = None
    min_bet: int | None = None
    ante_trimming_status: bool = False
    finishing_stacks: tuple[int, ...] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def players_count(self) -> int:
        return len(self.starting_stacks)

    @property
    def player_names(self) -> tuple[str, ...]:
        """``players`` from the file, else ``p1``...``pN``."""
        names = self.extra.get("players")
        if isinstance(names, list) and len(names) == self.players_count:
            return tuple(str(n) for n in names)
        return tuple(f"p{i + 1}" for i in range(self.players_count))


# --------------------------------------------------------------------------- cards

_CARD_RE = re.compile(r"(?:[2-9TJQKA][cdhs]|\?\?)")
_SUIT_INDEX = {suit: n for n, suit in enumerate(SUITS)}


def parse_phh_cards(text: str, *, number: int = 0, line: str = "") -> tuple[Card | None, ...]:
    """Cards written back to back in PHH notation: ``"AsKd7h"``; ``"??"`` is
    an unknown card (``None``).

    >>> parse_phh_cards("As??7h")
    (Card(rank=14, suit='s'), None, Card(rank=7, suit='h'))
    """
    if not text or len(text) % 2 or not all(_CARD_RE.fullmatch(text[i:i + 2])
                                            for i in range(0, len(text), 2)):
        raise PHHError('Action {number} "{line}": "{cards}" is not a list of cards '
                       '(rank 23456789TJQKA, suit cdhs, "??" unknown)',
                       number=number, line=line or text, cards=text)
    # The deck's own card objects: the same card read twice is the same object,
    # so comparing a shown hand with the dealt one is an identity check.
    return tuple(None if text[i] == "?" else DECK[4 * RANKS.index(text[i]) + _SUIT_INDEX[text[i + 1]]]
                 for i in range(0, len(text), 2))


def format_phh_cards(cards: Iterable[Card | None]) -> str:
    """``(As, None, 7h)`` -> ``"As??7h"``."""
    return "".join("??" if c is None else RANKS[c.rank - 2] + c.suit for c in cards)


assert SUITS == "cdhs"  # the regular expression above spells the suits out


# --------------------------------------------------------------------------- actions

_PLAYER_RE = re.compile(r"p([1-9][0-9]*)")


def parse_action(text: str, number: int = 0) -> Action:
    """Parse one PHH action line; ``number`` (1-based) names it in errors.

    >>> parse_action("d dh p3 ????????", 2).player
    2
    >>> parse_action("p1 sm").kind
    <ActionKind.MUCK: 'sm-'>
    >>> parse_action("p1 raise 7", 9)
    Traceback (most recent call last):
    ...
    director.poker.phh.PHHError: Action 9 "p1 raise 7": "raise" is not a PHH action (dh, db, pb, cbr, cc, f, sm)
    """
    if not isinstance(text, str):
        raise PHHError("Action {number} is not a string: {value}", number=number, value=repr(text))
    body, hash_, comment_text = text.partition("#")
    comment = comment_text.strip() if hash_ else None
    words = body.split()

    def bad(template: str, **params: Any) -> PHHError:
        return PHHError('Action {number} "{line}": ' + template, number=number, line=text.strip(),
                        **params)

    if not words:
        if comment is None:
            raise bad("the action is empty")
        return Action(ActionKind.COMMENT, comment=comment, number=number)
    if words[0] == "d":
        if len(words) < 2:
            raise bad("the dealer action is missing (dh or db)")
        if words[1] == "dh":
            if len(words) != 4:
                raise bad('write "d dh pN CARDS"')
            return Action(ActionKind.DEAL_HOLE, player=_player(words[2], bad),
                          cards=parse_phh_cards(words[3], number=number, line=text.strip()),
                          comment=comment, number=number)
        if words[1] == "db":
            if len(words) != 3:
                raise bad('write "d db CARDS"')
            return Action(ActionKind.DEAL_BOARD,
                          cards=parse_phh_cards(words[2], number=number, line=text.strip()),
                          comment=comment, number=number)
        raise bad('"{code}" is not a dealer action (dh, db)', code=words[1])
    player = _player(words[0], bad)
    if len(words) < 2:
        raise bad("the player's action is missing")
    code, rest = words[1], words[2:]
    if code in ("pb", "cc", "f"):
        if rest:
            raise bad('"{code}" takes nothing after it', code=code)
        kind = {"pb": ActionKind.POST_BRING_IN, "cc": ActionKind.CHECK_OR_CALL,
                "f": ActionKind.FOLD}[code]
        return Action(kind, player=player, comment=comment, number=number)
    if code == "cbr":
        if len(rest) != 1 or not re.fullmatch(r"[0-9]+", rest[0]):
            raise bad('write "pN cbr AMOUNT" with a whole number of chips')
        return Action(ActionKind.COMPLETE_BET_OR_RAISE, player=player, amount=int(rest[0]),
                      comment=comment, number=number)
    if code == "sm":
        if not rest:
            return Action(ActionKind.MUCK, player=player, comment=comment, number=number)
        if len(rest) != 1:
            raise bad('write "pN sm CARDS" with the cards back to back')
        return Action(ActionKind.SHOW, player=player,
                      cards=parse_phh_cards(rest[0], number=number, line=text.strip()),
                      comment=comment, number=number)
    raise bad('"{code}" is not a PHH action (dh, db, pb, cbr, cc, f, sm)', code=code)


def _player(word: str, bad: Any) -> int:
    match = _PLAYER_RE.fullmatch(word)
    if match is None:
        raise bad('"{word}" is not a player (p1, p2, ...) or the dealer (d)', word=word)
    return int(match.group(1)) - 1


def format_action(action: Action) -> str:
    """Write an action back in PHH notation (inverse of :func:`parse_action`)."""
    kind = action.kind
    if kind is ActionKind.COMMENT:
        return f"# {action.comment}"
    if kind is ActionKind.DEAL_HOLE:
        text = f"d dh p{_n(action)} {format_phh_cards(action.cards)}"
    elif kind is ActionKind.DEAL_BOARD:
        text = f"d db {format_phh_cards(action.cards)}"
    elif kind is ActionKind.COMPLETE_BET_OR_RAISE:
        text = f"p{_n(action)} cbr {action.amount}"
    elif kind is ActionKind.SHOW:
        text = f"p{_n(action)} sm {format_phh_cards(action.cards)}"
    elif kind is ActionKind.MUCK:
        text = f"p{_n(action)} sm"
    else:
        text = f"p{_n(action)} {kind.value}"
    return text if action.comment is None else f"{text} # {action.comment}"


def _n(action: Action) -> int:
    assert action.player is not None
    return action.player + 1


# --------------------------------------------------------------------------- reading


def read_phh(path: str) -> HandHistory:
    """Read a PHH file.  Raises ``OSError`` if it cannot be opened and
    :class:`PHHError` if it is not a PHH hand."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise PHHError("The file is not UTF-8 text ({error})", error=str(e)) from None
    return parse_phh(text)


def parse_phh(text: str) -> HandHistory:
    """Parse the TOML text of one PHH hand (see the module docstring)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PHHError("The file is not valid TOML: {error}", error=str(e)) from None
    return history_from_dict(data)


def history_from_dict(data: Mapping[str, Any]) -> HandHistory:
    """Build a :class:`HandHistory` from the TOML table of a PHH hand."""
    if "variant" not in data:
        raise PHHError('The field "variant" is missing')
    code = data["variant"]
    try:
        variant = Game(code)
    except ValueError:
        raise PHHError('Variant "{code}" is not a game we run ({codes})', code=str(code),
                       codes=", ".join(g.value for g in Game)) from None
    stacks = _ints(data, "starting_stacks")
    if stacks is None:
        raise PHHError('The field "starting_stacks" is missing')
    count = len(stacks)
    if count < 2:
        raise PHHError("A hand needs at least two players; this one has {count}", count=count)
    antes = _per_player(data, "antes", count) or (0,) * count
    blinds = _per_player(data, "blinds_or_straddles", count) or ()
    if variant.uses_blinds and not blinds:
        raise PHHError('The field "blinds_or_straddles" is missing ({game} uses blinds)',
                       game=variant.label)
    if variant.is_stud and blinds and any(blinds):
        raise PHHError('Stud has no blinds: remove "blinds_or_straddles"')
    bring_in = _int(data, "bring_in")
    if variant.is_stud and not bring_in:
        raise PHHError('The field "bring_in" is missing ({game} has a bring-in)', game=variant.label)
    small_bet, big_bet, min_bet = _int(data, "small_bet"), _int(data, "big_bet"), _int(data, "min_bet")
    if variant.betting is Betting.FIXED_LIMIT and (not small_bet or not big_bet):
        raise PHHError('The fields "small_bet" and "big_bet" are needed for {game}',
                       game=variant.label)
    if variant.betting is not Betting.FIXED_LIMIT and not min_bet:
        raise PHHError('The field "min_bet" is needed for {game}', game=variant.label)
    trimming = data.get("ante_trimming_status", False)
    if not isinstance(trimming, bool):
        raise PHHError('The field "ante_trimming_status" must be true or false')
    raw_actions = data.get("actions", [])
    if not isinstance(raw_actions, list):
        raise PHHError('The field "actions" must be an array of strings')
    actions = tuple(parse_action(a, i) for i, a in enumerate(raw_actions, 1))
    for action in actions:
        if action.player is not None and action.player >= count:
            raise PHHError('Action {number} "{line}": there is no player p{player} in a '
                           "{count}-player hand", number=action.number, line=str(action),
                           player=action.player + 1, count=count)
    finishing = _ints(data, "finishing_stacks")
    if finishing is not None and len(finishing) != count:
        raise PHHError('"finishing_stacks" has {got} entries for {count} players',
                       got=len(finishing), count=count)
    known = set(_GAME_FIELDS) | set(_TAIL_FIELDS)
    extra = {k: v for k, v in data.items() if k not in known}
    _check_extensions(extra, count, actions)
    return HandHistory(variant=variant, starting_stacks=stacks, antes=antes, actions=actions,
                       blinds_or_straddles=blinds, bring_in=bring_in or 0, small_bet=small_bet,
                       big_bet=big_bet, min_bet=min_bet, ante_trimming_status=trimming,
                       finishing_stacks=finishing, extra=extra)


def _int(data: Mapping[str, Any], name: str) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PHHError('The field "{name}" must be a whole number of chips, not {value}',
                       name=name, value=repr(value))
    return value


def _ints(data: Mapping[str, Any], name: str) -> tuple[int, ...] | None:
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, list) or any(
            isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in value):
        raise PHHError('The field "{name}" must be an array of whole numbers of chips',
                       name=name)
    return tuple(value)


def _per_player(data: Mapping[str, Any], name: str, count: int) -> tuple[int, ...] | None:
    """An array with one entry per player; a single number means "everyone"
    (antes) and a short array is padded with zeros, as the PHH spec allows."""
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise PHHError('The field "{name}" must not be negative', name=name)
        return (value,) * count if name == "antes" else (value,) + (0,) * (count - 1)
    values = _ints(data, name)
    assert values is not None
    if len(values) > count:
        raise PHHError('"{name}" has {got} entries for {count} players', name=name,
                       got=len(values), count=count)
    return values + (0,) * (count - len(values))


# --------------------------------------------------------------------------- writing


def write_phh(history: HandHistory) -> str:
    """The TOML text of a hand; :func:`parse_phh` reads it back to an equal
    :class:`HandHistory`."""
    h = history
    fields: list[tuple[str, Any]] = [("variant", h.variant.value),
                                     ("ante_trimming_status", h.ante_trimming_status),
                                     ("antes", list(h.antes))]
    if h.blinds_or_straddles:
        fields.append(("blinds_or_straddles", list(h.blinds_or_straddles)))
    if h.variant.is_stud or h.bring_in:
        fields.append(("bring_in", h.bring_in))
    for name in ("small_bet", "big_bet", "min_bet"):
        value = getattr(h, name)
        if value is not None:
            fields.append((name, value))
    fields.append(("starting_stacks", list(h.starting_stacks)))
    fields.append(("actions", [format_action(a) for a in h.actions]))
    fields.extend(h.extra.items())
    if h.finishing_stacks is not None:
        fields.append(("finishing_stacks", list(h.finishing_stacks)))
    return "".join(f"{_key(k)} = {_toml_value(v)}\n" for k, v in fields)


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else _toml_string(name)


def _toml_string(text: str) -> str:
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        return value.isoformat()
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(str(k))} = {_toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, Sequence):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise PHHError("Cannot write {value} to a PHH file", value=repr(value))


# --------------------------------------------------------------------------- extensions

# PHH user-defined fields (names start with "_", as the spec asks; other PHH
# readers keep them aside, pokerkit in ``user_defined_fields``).  See the
# module docstring for what each one means.
DEAD_PLAYERS = "_dead_players"
SMALL_BLIND = "_small_blind"
BIG_BLIND = "_big_blind"
CHIP_UNIT = "_chip_unit"
EVENT_HEADS_UP = "_event_heads_up"
POLICY = "_policy"
RULINGS = "_events"

_KILL, _CLOCK_CHECK, _MANUAL_AWARD, _MISDEAL = "kill", "check_by_clock", "manual_award", "misdeal"


def _player_name(player: int) -> str:
    return f"p{player + 1}"


def _ext_player(value: Any, count: int, field_name: str) -> int:
    """A player written ``"p3"`` in a user-defined field: his 0-based index."""
    match = _PLAYER_RE.fullmatch(value) if isinstance(value, str) else None
    if match is None or not 1 <= int(match.group(1)) <= count:
        raise PHHError('"{field}": {value} is not a player of this hand (p1 to p{count})',
                       field=field_name, value=repr(value), count=count)
    return int(match.group(1)) - 1


def _ext_chips(extra: Mapping[str, Any], name: str, *, least: int = 0) -> int | None:
    value = extra.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise PHHError('The field "{name}" must be a whole number of chips, at least {least}, '
                       "not {value}", name=name, least=least, value=repr(value))
    return value


def config_extensions(history: HandHistory) -> dict[str, Any]:
    """The :class:`HandConfig` settings a file carries in user-defined fields
    (keyword arguments; empty for a plain PHH file).

    >>> h = parse_phh('variant = "PO"\\nantes = 0\\nblinds_or_straddles = [100, 200, 0]\\n'
    ...               'min_bet = 200\\nstarting_stacks = [5000, 5000, 5000]\\nactions = []\\n'
    ...               '_dead_players = ["p2"]\\n_policy = {limit_raise_cap = "none"}')
    >>> ext = config_extensions(h)
    >>> ext["dead_players"], ext["policy"].limit_raise_cap
    ((1,), None)
    """
    return _config_extensions(history.extra, history.players_count)


def _config_extensions(extra: Mapping[str, Any], count: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    dead = extra.get(DEAD_PLAYERS)
    if dead is not None:
        if not isinstance(dead, list):
            raise PHHError('The field "{name}" must be an array of players ("p1", "p2", ...)',
                           name=DEAD_PLAYERS)
        players = tuple(sorted({_ext_player(p, count, DEAD_PLAYERS) for p in dead}))
        if len(players) >= count:
            raise PHHError("Every player is absent: there is no hand to play", rule="TDA 30")
        out["dead_players"] = players
    for name, key, least in ((SMALL_BLIND, "small_blind", 0), (BIG_BLIND, "big_blind", 0),
                             (CHIP_UNIT, "chip_unit", 1)):
        value = _ext_chips(extra, name, least=least)
        if value is not None:
            out[key] = value
    heads_up = extra.get(EVENT_HEADS_UP)
    if heads_up is not None:
        if not isinstance(heads_up, bool):
            raise PHHError('The field "{name}" must be true or false', name=EVENT_HEADS_UP)
        out["event_heads_up"] = heads_up
    flags = extra.get(POLICY)
    if flags is not None:
        if not isinstance(flags, Mapping):
            raise PHHError('The field "{name}" must be a table of house policy flags', name=POLICY)
        # TOML has no null: an unlimited raise cap is written "none".
        values = {k: None if v == "none" else v for k, v in flags.items()}
        try:
            out["policy"] = Policy.from_json(values)
        except (RuleViolation, TypeError) as e:
            raise PHHError('The field "{name}": {error}', name=POLICY, error=str(e)) from None
    return out


def _policy_flags(policy: Policy) -> dict[str, Any]:
    """The flags of ``policy`` that differ from the TDA defaults (``_policy``)."""
    default = Policy().to_json()
    return {k: "none" if v is None else v for k, v in policy.to_json().items() if default[k] != v}


def ruling_events(history: HandHistory) -> dict[int, Event]:
    """The engine events a file carries in ``_events``, by the number of the
    action line each one stands on (see the module docstring).

    >>> h = parse_phh('variant = "PO"\\nantes = 0\\nblinds_or_straddles = [100, 200, 0]\\n'
    ...               'min_bet = 200\\nstarting_stacks = [5000, 5000, 5000]\\n'
    ...               'actions = ["# misdeal: exposed card"]\\n'
    ...               '_events = [{action = 1, type = "misdeal", reason = "exposed card"}]')
    >>> ruling_events(h)
    {1: Misdeal(reason='exposed card')}
    """
    return _ruling_events(history.extra, history.players_count, history.actions)


def _ruling_events(extra: Mapping[str, Any], count: int,
                   actions: Sequence[Action]) -> dict[int, Event]:
    raw = extra.get(RULINGS)
    if raw is None:
        return {}
    if not isinstance(raw, list):
        raise PHHError('The field "{name}" must be an array of tables', name=RULINGS)
    lines = {a.number: a for a in actions}
    out: dict[int, Event] = {}
    for entry in raw:
        if not isinstance(entry, Mapping):
            raise PHHError('Each entry of "{name}" must be a table, not {value}', name=RULINGS,
                           value=repr(entry))
        number = entry.get("action")
        if isinstance(number, bool) or not isinstance(number, int) or number not in lines:
            raise PHHError('"{name}": action {number} is not a line of "actions"', name=RULINGS,
                           number=repr(number))
        if number in out:
            raise PHHError('"{name}": action {number} has two events', name=RULINGS, number=number)
        line = lines[number]
        kind = entry.get("type")
        event: Event
        if kind == _KILL:
            player = _ext_player(entry.get("player"), count, RULINGS)
            fits = line.kind is ActionKind.COMMENT or (line.kind is ActionKind.FOLD
                                                       and line.player == player)
            event = Kill(player, str(entry.get("reason", "absent")))
        elif kind == _CLOCK_CHECK:
            player = _ext_player(entry.get("player"), count, RULINGS)
            fits = line.kind is ActionKind.CHECK_OR_CALL and line.player == player
            event = CheckByClock(player)
        elif kind == _MANUAL_AWARD:
            fits = line.kind is ActionKind.COMMENT
            event = ManualAward(_groups(entry.get("high", []), count),
                                _groups(entry.get("low", []), count))
        elif kind == _MISDEAL:
            fits = line.kind is ActionKind.COMMENT
            event = Misdeal(str(entry.get("reason", "")))
        else:
            raise PHHError('"{name}": "{kind}" is not an event we record (kill, check_by_clock, '
                           "manual_award, misdeal)", name=RULINGS, kind=str(kind))
        if not fits:
            raise PHHError('"{name}": the {kind} cannot stand on action {number} "{line}"',
                           name=RULINGS, kind=kind, number=number, line=str(line))
        out[number] = event
    return out


def _groups(value: Any, count: int) -> tuple[tuple[int, ...], ...]:
    """``[["p1"], ["p2", "p3"]]``: players best first, ties grouped."""
    if not isinstance(value, list) or not all(isinstance(g, list) for g in value):
        raise PHHError('"{name}": an award is an array of groups of players, e.g. [["p1"], ["p2", "p3"]]',
                       name=RULINGS)
    return tuple(tuple(_ext_player(p, count, RULINGS) for p in g) for g in value)


def _check_extensions(extra: Mapping[str, Any], count: int, actions: Sequence[Action]) -> None:
    """Refuse a file whose user-defined fields of ours are malformed."""
    _config_extensions(extra, count)
    _ruling_events(extra, count, actions)


# --------------------------------------------------------------------------- the engine

# A PHH action maps to one engine event (comments map to none).  ``cbr`` is a
# bet, raise or stud completion "to" an amount: the engine reads a raise with
# no bet as a bet and a raise from the bring-in spot as the completion, so all
# three are ``RAISE``.  ``cc`` is a check or call: the engine's ``CALL`` with
# nothing to call is a check (RULES.md §2.1).
_TO_EVENT_KIND = {
    ActionKind.POST_BRING_IN: EventKind.BRING_IN,
    ActionKind.COMPLETE_BET_OR_RAISE: EventKind.RAISE,
    ActionKind.CHECK_OR_CALL: EventKind.CALL,
    ActionKind.FOLD: EventKind.FOLD,
}


def hand_config(history: HandHistory, policy: Policy | None = None) -> HandConfig:
    """The engine's :class:`HandConfig` for a PHH hand.

    The fields map one to one (PHH order is the engine's player order).  The
    heads-up reversal of the forced bets (p1 posts the big blind, p2 is the
    button) is the engine's job (``HandConfig.forced_order``), so
    ``blinds_or_straddles`` goes in as written.  ``ante_trimming_status``
    becomes ``ante_trimming``.  Our user-defined fields (``_dead_players``,
    ``_small_blind``, ``_big_blind``, ``_chip_unit``, ``_event_heads_up``,
    ``_policy``) fill in the rest; ``policy``, when given, overrides the
    file's ``_policy``.

    >>> h = parse_phh('variant = "NO"\\nantes = [0, 0]\\nblinds_or_straddles = [1, 2]\\n'
    ...               'min_bet = 2\\nstarting_stacks = [100, 100]\\nactions = []')
    >>> hand_config(h).forced_order()[1]      # heads-up: p1 posts the big blind
    (2, 1)
    """
    settings = config_extensions(history)
    if policy is not None:
        settings["policy"] = policy
    return HandConfig(
        game=history.variant,
        starting_stacks=history.starting_stacks,
        antes=history.antes,
        blinds_or_straddles=history.blinds_or_straddles,
        bring_in=history.bring_in,
        small_bet=history.small_bet or 0,
        big_bet=history.big_bet or 0,
        min_bet=history.min_bet or 0,
        ante_trimming=history.ante_trimming_status,
        **settings,
    )


def file_policy(history: HandHistory) -> Policy | None:
    """The house policy written in the file's ``_policy`` field, if any."""
    policy = config_extensions(history).get("policy")
    return policy if isinstance(policy, Policy) else None


def to_event(action: Action) -> Event | None:
    """The engine event for one PHH action (``None`` for a comment)."""
    kind = action.kind
    if kind is ActionKind.COMMENT:
        return None
    if kind is ActionKind.DEAL_HOLE:
        assert action.player is not None
        return DealHole(action.player, action.cards)
    if kind is ActionKind.DEAL_BOARD:
        return DealBoard(action.cards)
    assert action.player is not None
    if kind is ActionKind.SHOW:
        return Show(action.player, action.cards)
    if kind is ActionKind.MUCK:
        return Muck(action.player)
    return EngineAction(action.player, _TO_EVENT_KIND[kind], action.amount)


def paired_events(history: HandHistory) -> list[tuple[Action, Event | None]]:
    """Each PHH action with its engine event (``None`` for comments).

    A line named in ``_events`` stands for that event instead: a comment for
    a kill, a misdeal or an award by hand, ``pN f`` for a hand killed in turn,
    ``pN cc`` for a check by the clock.
    """
    rulings = ruling_events(history)
    return [(a, rulings[a.number] if a.number in rulings else to_event(a))
            for a in history.actions]


def events(history: HandHistory) -> list[Event]:
    """The engine events of a PHH hand, in order (comments dropped)."""
    return [e for _, e in paired_events(history) if e is not None]


def replay(history: HandHistory, policy: Policy | None = None) -> Hand:
    """The engine's hand after every action of ``history``; raises
    :class:`RuleViolation` at the first illegal one."""
    return Hand.replay(hand_config(history, policy), events(history))


def from_hand(hand: Hand, extra: Mapping[str, Any] | None = None) -> HandHistory:
    """The :class:`HandHistory` of an engine hand (the dealer screen's export).

    Actions are written as PHH reads them: a bet, raise or completion is
    ``cbr`` to the player's street total, a check or call (an all-in for less
    too) is ``cc``.  Hole cards the dealer never entered are written as
    ``??``.  ``finishing_stacks`` is written once the hand is over.

    What PHH has no notation for goes in user-defined fields (module
    docstring), so that ``director replay`` rebuilds the very same hand: the
    seats dead at the deal (TDA 30) in ``_dead_players``; a hand killed by
    the floor (TDA 29 clock, TDA 30 absent, a wrong number of cards), a check
    by the clock, an award by hand and a misdeal (TDA 35) in ``_events``,
    each standing on its own action line (a ``#`` comment, or the ``f`` /
    ``cc`` other PHH readers should apply); the level's nominal blinds, the
    chip unit and any house policy flag that is not the default.
    """
    config = hand.config
    lines: list[Action] = []
    rulings: list[dict[str, Any]] = []
    current = Hand.start(config)
    dealt: set[int] = set()

    def add(kind: ActionKind, **kw: Any) -> None:
        lines.append(Action(kind, number=len(lines) + 1, **kw))

    def ruling(kind: str, **kw: Any) -> None:
        rulings.append({"action": len(lines), "type": kind, **kw})

    def killed_in_turn(at: int, event: Kill) -> bool:
        """A hand killed when its player was to act facing a bet: other
        readers may apply it as his fold (Omaha: unless hole cards are still
        to be entered after it, since the fold line comes after the deal)."""
        p = event.player
        return (current.to_act == p and current.bets[p] < current.current_bet
                and (config.game.is_stud
                     or not any(isinstance(e, DealHole) for e in hand.events[at + 1:])))

    for at, event in enumerate(hand.events):
        in_turn = isinstance(event, Kill) and killed_in_turn(at, event)
        if (isinstance(event, EngineAction | CheckByClock) or in_turn) and not config.game.is_stud:
            for p in range(config.players):  # cards dealt but never entered
                if p not in dealt:
                    add(ActionKind.DEAL_HOLE, player=p, cards=(None,) * 4)
                    dealt.add(p)
        before = current
        current = current.apply(event)
        if isinstance(event, DealHole):
            add(ActionKind.DEAL_HOLE, player=event.player, cards=event.cards)
            dealt.add(event.player)
        elif isinstance(event, DealBoard):
            add(ActionKind.DEAL_BOARD, cards=event.cards)
        elif isinstance(event, Show):
            add(ActionKind.SHOW, player=event.player, cards=event.cards)
        elif isinstance(event, Muck):
            add(ActionKind.MUCK, player=event.player)
        elif isinstance(event, CheckByClock):
            add(ActionKind.CHECK_OR_CALL, player=event.player, comment="checked by the clock (TDA 29)")
            ruling(_CLOCK_CHECK, player=_player_name(event.player))
        elif isinstance(event, EngineAction):
            p = event.player
            kind = event.action
            if kind is EventKind.FOLD:
                add(ActionKind.FOLD, player=p)
            elif kind is EventKind.BRING_IN or (before.legal().bring_in
                                                 and current.bets[p] <= config.bring_in):
                add(ActionKind.POST_BRING_IN, player=p)
            elif current.bets[p] > before.current_bet:
                add(ActionKind.COMPLETE_BET_OR_RAISE, player=p, amount=current.bets[p])
            else:
                add(ActionKind.CHECK_OR_CALL, player=p)
        elif isinstance(event, Kill):
            p = event.player
            text = f"{_player_name(p)}'s hand is killed ({event.reason})"
            if in_turn:
                add(ActionKind.FOLD, player=p, comment=text)  # a fold to other readers
            else:
                add(ActionKind.COMMENT, comment=text)
            ruling(_KILL, player=_player_name(p), reason=event.reason)
        elif isinstance(event, ManualAward):
            add(ActionKind.COMMENT, comment="the dealer awarded the pots by hand")
            ruling(_MANUAL_AWARD, high=[[_player_name(p) for p in g] for g in event.high],
                   low=[[_player_name(p) for p in g] for g in event.low])
        else:
            add(ActionKind.COMMENT, comment=f"misdeal: {event.reason}" if event.reason else "misdeal")
            ruling(_MISDEAL, reason=event.reason)
    fields: dict[str, Any] = dict(extra or {})
    if config.dead_players:
        fields[DEAD_PLAYERS] = [_player_name(p) for p in config.dead_players]
    if config.small_blind is not None:
        fields[SMALL_BLIND] = config.small_blind
    if config.big_blind is not None:
        fields[BIG_BLIND] = config.big_blind
    if config.chip_unit != 1:
        fields[CHIP_UNIT] = config.chip_unit
    if config.event_heads_up:
        fields[EVENT_HEADS_UP] = True
    flags = _policy_flags(config.policy)
    if flags:
        fields[POLICY] = flags
    if rulings:
        fields[RULINGS] = rulings
    return HandHistory(
        variant=config.game,
        starting_stacks=config.starting_stacks,
        antes=config.antes,
        actions=tuple(lines),
        blinds_or_straddles=() if config.game.is_stud else config.blinds_or_straddles,
        bring_in=config.bring_in,
        small_bet=config.small_bet if config.game.betting is Betting.FIXED_LIMIT else None,
        big_bet=config.big_bet if config.game.betting is Betting.FIXED_LIMIT else None,
        min_bet=None if config.game.betting is Betting.FIXED_LIMIT else config.min_bet,
        ante_trimming_status=config.ante_trimming,
        finishing_stacks=hand.stacks if hand.finished else None,
        extra=fields,
    )


def to_phh(hand: Hand, extra: Mapping[str, Any] | None = None) -> str:
    """The PHH text of an engine hand (see :func:`from_hand`); ``extra`` adds
    context fields such as ``event``, ``hand``, ``players``."""
    return write_phh(from_hand(hand, extra))
