"""One hand of any of our games as a pure fold over its events (TDA 2024).

A :class:`Hand` is built from a :class:`HandConfig` (who plays, stacks, forced
bets, limits, house policy) and a sequence of :mod:`~director.poker.events`.
Its state is a function of those two alone: undo is "replay one event fewer",
and the events are what gets stored (STYLE.md).

Player order is PHH order (shared/PHH.md): in flop games index 0 is the first
seat clockwise from the button and the last index is the button; heads-up the
forced bets are reversed (index 0 posts the big blind, index 1 is the button and
small blind and acts first pre-flop), exactly as pokerkit reads PHH.  In stud the
order is seat order from the dealer's left.

Every rule answers three questions with one piece of logic (STYLE.md): ``legal()``
and the ``can_*`` methods say what may happen, ``why_not(event)`` and
``apply(event)`` say why not with a :class:`RuleViolation` a dealer can read, and
``apply`` does it.

[PL-1] pot-limit Omaha 1/2, first to act pre-flop may raise to 4 up to 7:

>>> from director.poker.events import Action, ActionKind
>>> config = HandConfig(game=Game.PO, starting_stacks=(200,) * 6,
...                     blinds_or_straddles=(1, 2, 0, 0, 0, 0), min_bet=2)
>>> hand = Hand.start(config)
>>> hand.to_act, hand.legal().min_to, hand.legal().max_to
(2, 4, 7)
>>> hand = hand.apply(Action(2, ActionKind.RAISE, 7))
>>> hand.legal().max_to                      # [PL-2]
24
>>> hand.apply(Action(3, ActionKind.RAISE, 25))
Traceback (most recent call last):
...
director.poker.errors.RuleViolation: Pot-limit: the most player 4 may raise to is 24
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, cast

from director.poker import hands
from director.poker.cards import Card, check_no_duplicates
from director.poker.errors import CardError, RuleViolation
from director.poker.events import (
    FOLD_OUT_OF_TURN,
    Action,
    ActionKind,
    CheckByClock,
    DealBoard,
    DealHole,
    Event,
    Kill,
    ManualAward,
    Misdeal,
    Muck,
    Show,
    event_from_json,
    event_to_json,
)
from director.poker.games import Betting, Game
from director.poker.hands import HighHand, LowHand, exposed_strength
from director.poker.policy import DEFAULT_POLICY, Policy
from director.poker.pots import Award, Pot, award_pots, build_pots, pot_name, uncontested

__all__ = [
    "Hand",
    "HandConfig",
    "Legal",
    "Phase",
    "Street",
    "interpret_silent_amount",
]


class Street(StrEnum):
    PRE_FLOP = "pre-flop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"
    THIRD = "third street"
    FOURTH = "fourth street"
    FIFTH = "fifth street"
    SIXTH = "sixth street"
    SEVENTH = "seventh street"


FLOP_STREETS = (Street.PRE_FLOP, Street.FLOP, Street.TURN, Street.RIVER)
STUD_STREETS = (Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH)
_BOARD_COUNTS = (0, 3, 1, 1)
_STUD_COUNTS = (3, 1, 1, 1, 1)
OMAHA_HOLE_CARDS = 4


class Phase(StrEnum):
    """Where the hand is: waiting for cards, betting, at showdown, over."""

    DEALING = "dealing"
    BETTING = "betting"
    SHOWDOWN = "showdown"
    FINISHED = "finished"


_DEALING, _BETTING, _SHOWDOWN, _FINISHED = 0, 1, 2, 3
_PHASES = (Phase.DEALING, Phase.BETTING, Phase.SHOWDOWN, Phase.FINISHED)
_NL, _PL, _FL = 0, 1, 2
_SUIT_BITS = {"c": 0, "d": 1, "h": 2, "s": 3}
_BETTING_KIND = {Betting.NO_LIMIT: _NL, Betting.POT_LIMIT: _PL, Betting.FIXED_LIMIT: _FL}
# (is_stud, betting, hi_lo) of each game, read once: the Game properties are slow to call.
_GAMES = {g: (g.is_stud, g.betting, g.hi_lo) for g in Game}
# Enum members as plain module constants: the hot path compares them on every action.
_FOLD, _CHECK, _CALL = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL
_BRING_IN, _ALL_IN = ActionKind.BRING_IN, ActionKind.ALL_IN


def _ints(value: Iterable[int]) -> tuple[int, ...]:
    return tuple(map(int, value))


def _forced_posts(config: HandConfig) -> list[tuple[int, int]]:
    """(blind, ante) each player posts before the deal, as far as his stack goes.

    A short player posts what he has (all-in).  Big-blind ante (``ante_trimming``
    false): the blind comes first by default (TDA RP-11, policy ``bba_order``),
    so a short big blind posts a full live blind and a reduced dead ante.
    """
    antes, blinds = config.forced_order()
    blind_first = not config.ante_trimming and config.policy.bba_order == "big-blind-first"
    out = []
    for stack, ante, blind in zip(config.starting_stacks, antes, blinds, strict=True):
        if blind_first:
            b = min(blind, stack)
            a = min(ante, stack - b)
        else:
            a = min(ante, stack)
            b = min(blind, stack - a)
        out.append((b, a))
    return out


@dataclass(frozen=True)
class HandConfig:
    """Everything fixed before the first card: the game, stacks, forced bets, limits.

    Field meanings follow PHH (shared/PHH.md): ``antes`` and
    ``blinds_or_straddles`` are per player (empty = none); a non-uniform ante such
    as ``(0, 200, 0)`` is a big-blind ante; ``ante_trimming`` is PHH's
    ``ante_trimming_status`` (``True``: antes count as each player's contribution;
    ``False``: antes are dead money in the main pot, as for the BBA).
    ``small_blind``/``big_blind`` are the level's nominal blinds, used when a blind
    is short or dead (TDA 54-B, RRP *Blinds* 1); by default the big blind is
    ``min_bet`` (no-limit, pot-limit) or ``small_bet`` (fixed limit) and the small
    blind the smaller posted blind, else half the big blind.  ``dead_players`` were
    not at their seats when the initial deal ended: their forced bets are posted
    and their hands killed (TDA 30).  ``event_heads_up`` lifts the fixed-limit raise
    cap (TDA 48).  ``seats`` optionally names the players' seat numbers for messages.
    """

    game: Game
    starting_stacks: tuple[int, ...]
    antes: tuple[int, ...] = ()
    blinds_or_straddles: tuple[int, ...] = ()
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0
    min_bet: int = 0
    ante_trimming: bool = True
    small_blind: int | None = None
    big_blind: int | None = None
    chip_unit: int = 1
    dead_players: tuple[int, ...] = ()
    event_heads_up: bool = False
    seats: tuple[int, ...] = ()
    policy: Policy = field(default=DEFAULT_POLICY)

    def __post_init__(self) -> None:
        s = object.__setattr__
        if type(self.game) is not Game:
            s(self, "game", Game(self.game))
        n = len(self.starting_stacks)
        s(self, "starting_stacks", _ints(self.starting_stacks))
        s(self, "antes", _ints(self.antes) or (0,) * n)
        s(self, "blinds_or_straddles", _ints(self.blinds_or_straddles) or (0,) * n)
        if self.dead_players:
            s(self, "dead_players", tuple(sorted(set(_ints(self.dead_players)))))
        elif type(self.dead_players) is not tuple:
            s(self, "dead_players", ())
        s(self, "seats", _ints(self.seats))
        if type(self.policy) is not Policy and isinstance(self.policy, Mapping):
            s(self, "policy", Policy.from_json(dict(self.policy)))
        stud, betting, _ = _GAMES[self.game]
        if not 2 <= n <= (8 if stud else 10):
            raise RuleViolation("A hand needs 2 to {most} players, not {count}",
                                most=8 if stud else 10, count=n)
        for name in ("antes", "blinds_or_straddles"):
            if len(getattr(self, name)) != n:
                raise RuleViolation("{name} must have one entry per player ({count})",
                                    name=name, count=n)
        if self.seats and len(self.seats) != n:
            raise RuleViolation("seats must have one entry per player ({count})", count=n)
        values = (*self.starting_stacks, *self.antes, *self.blinds_or_straddles,
                  self.bring_in, self.small_bet, self.big_bet, self.min_bet)
        if min(values) < 0:
            raise RuleViolation("Stacks, antes, blinds and limits cannot be negative")
        if any(not 0 <= p < n for p in self.dead_players):
            raise RuleViolation("Dead player {player} is not in the hand", player=self.dead_players[-1])
        if len(self.dead_players) >= n:
            raise RuleViolation("Every player is absent: there is no hand to play", rule="TDA 30")
        if self.chip_unit < 1:
            raise RuleViolation("The smallest chip must be at least 1")
        if stud:
            if self.small_bet <= 0 or self.big_bet <= 0:
                raise RuleViolation("Stud needs a small bet and a big bet")
            if any(self.blinds_or_straddles):
                raise RuleViolation("Stud has no blinds")
        elif betting is Betting.FIXED_LIMIT:
            if self.small_bet <= 0 or self.big_bet <= 0:
                raise RuleViolation("Fixed limit needs a small bet and a big bet")
        elif self.nominal_big_blind <= 0:
            raise RuleViolation("No-limit and pot-limit need a minimum bet (the big blind)")

    @property
    def players(self) -> int:
        return len(self.starting_stacks)

    @property
    def nominal_big_blind(self) -> int:
        """The level's big blind: the minimum bet on every street (RULES.md §2.2)."""
        if self.big_blind is not None:
            return self.big_blind
        if _GAMES[self.game][1] is Betting.FIXED_LIMIT:
            return self.small_bet
        return self.min_bet or max(self.blinds_or_straddles, default=0)

    @property
    def nominal_small_blind(self) -> int:
        if self.small_blind is not None:
            return self.small_blind
        posted = [b for b in self.blinds_or_straddles if b > 0]
        if len(posted) >= 2:
            return min(posted)
        return self.nominal_big_blind // 2

    def forced_order(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(antes, blinds) as actually owed by each index: heads-up PHH reverses them."""
        if self.players == 2:
            return self.antes[::-1], self.blinds_or_straddles[::-1]
        return self.antes, self.blinds_or_straddles

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "policy":
                value = value.to_json()
            elif f.name == "game":
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandConfig:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RuleViolation("Unknown hand setting {name}", name=unknown[0])
        kwargs = dict(data)
        if "policy" in kwargs:
            kwargs["policy"] = Policy.from_json(kwargs["policy"])
        for name in ("starting_stacks", "antes", "blinds_or_straddles", "dead_players", "seats"):
            if name in kwargs:
                kwargs[name] = tuple(kwargs[name])
        return cls(**kwargs)


@dataclass(frozen=True, slots=True)
class Legal:
    """What the player to act may do, as plain values for the dealer screen.

    ``call`` is the chips he must add to call (capped at his stack; ``None`` when
    there is nothing to call).  ``min_to``/``max_to`` bound a bet or raise *to*
    (street totals); ``None`` when he may not bet or raise.  ``pot_to`` is the
    pot-size raise (pot-limit's maximum; the same count shown in no-limit; the
    fixed amount in limit).  ``all_in_to`` is his total with every chip in.
    ``bring_in`` says he may post the stud bring-in, ``complete_to`` the stud
    completion (or completing a short limit all-in to a full bet).
    """

    fold: bool = False
    check: bool = False
    call: int | None = None
    min_to: int | None = None
    max_to: int | None = None
    pot_to: int | None = None
    all_in_to: int | None = None
    bring_in: bool = False
    complete_to: int | None = None

    @property
    def can_raise(self) -> bool:
        return self.min_to is not None


NO_DECISION = Legal()


class Hand:
    """One hand: the state after ``config`` and ``events`` (see the module docstring).

    Build it with :meth:`start` or :meth:`replay`; :meth:`apply` returns a new hand
    and leaves this one untouched (it raises :class:`RuleViolation` for an illegal
    event).
    """

    __slots__ = (
        "config", "_events", "_n", "_stud", "_kind", "_hilo", "_bb", "_policy",
        "_stacks", "_bets", "_contrib", "_dead", "_antes", "_folded", "_mucked", "_killed", "_shown",
        "_holes", "_board", "_street", "_phase", "_dealt",
        "_level", "_rmin", "_full_level", "_full_count", "_raises", "_bet_made",
        "_capped", "_big_raised", "_acted", "_last_bet", "_seen_full", "_actor",
        "_pending", "_may_fold", "_opener_unknown", "_aggressor", "_opener",
        "_shortfall", "_misdeal", "_manual", "_cache", "_seen", "_returned",
    )

    config: HandConfig
    _events: tuple[Event, ...]
    _n: int
    _stud: bool
    _kind: int
    _hilo: bool
    _bb: int
    _policy: Policy
    _stacks: list[int]
    _bets: list[int]
    _contrib: list[int]
    _dead: int
    _antes: int
    _folded: list[bool]
    _mucked: list[bool]
    _killed: list[bool]
    _shown: list[bool]
    _holes: list[tuple[Card | None, ...]]
    _board: tuple[Card | None, ...]
    _street: int
    _phase: int
    _dealt: list[bool]
    _level: int
    _rmin: int
    _full_level: int
    _full_count: int
    _raises: int
    _bet_made: bool
    _capped: bool
    _big_raised: bool
    _acted: list[bool]
    _last_bet: list[int]
    _seen_full: list[int]
    _actor: int | None
    _pending: bool
    _may_fold: bool
    _opener_unknown: bool
    _aggressor: int | None
    _opener: int
    _shortfall: int
    _misdeal: bool
    _manual: ManualAward | None
    _cache: dict[str, Any] | None
    _seen: int
    _returned: list[int]

    # ------------------------------------------------------------------ building

    @classmethod
    def start(cls, config: HandConfig) -> Hand:
        """The hand after the forced bets: antes, blinds and straddles are posted.

        A player short of a forced bet posts what he has (all-in).  Big-blind ante
        (``ante_trimming`` false): the blind comes first by default (TDA RP-11,
        policy ``bba_order``), so a short big blind posts a full live blind and a
        reduced dead ante ([BL-4], [BL-5]).
        """
        template = config.__dict__.get("_start")
        if template is None:
            template = cls._post_forced_bets(config)
            object.__setattr__(config, "_start", template)
        return template._clone()

    @classmethod
    def _post_forced_bets(cls, config: HandConfig) -> Hand:
        h = cls.__new__(cls)
        n = config.players
        game = config.game
        h.config = config
        h._events = ()
        h._n = n
        stud, betting, hilo = _GAMES[game]
        h._stud = stud
        h._kind = _BETTING_KIND[betting]
        h._hilo = hilo
        h._bb = config.nominal_big_blind
        h._policy = config.policy
        blinds = config.forced_order()[1]
        stacks = list(config.starting_stacks)
        bets = [0] * n
        contrib = [0] * n
        dead = 0
        ante_total = 0
        for i, (b, a) in enumerate(_forced_posts(config)):
            stacks[i] -= a + b
            ante_total += a
            if config.ante_trimming:
                contrib[i] += a
            else:
                dead += a
            bets[i] = b
            contrib[i] += b
        h._stacks = stacks
        h._bets = bets
        h._contrib = contrib
        h._dead = dead
        h._antes = ante_total
        h._folded = [False] * n
        h._mucked = [False] * n
        h._killed = [False] * n
        h._shown = [False] * n
        h._holes = [()] * n
        h._board = ()
        h._street = 0
        h._phase = _DEALING
        h._dealt = [False] * n
        h._actor = None
        h._pending = False
        h._may_fold = True
        h._opener_unknown = False
        h._aggressor = None
        h._opener = 0
        h._misdeal = False
        h._manual = None
        h._cache = None
        h._seen = 0
        h._returned = [0] * n
        h._reset_street()
        if not h._stud and max(blinds) > 0:
            top = max(blinds)
            h._level = max(h._bb, top)
            straddled = top > h._bb
            if straddled and config.policy.straddle_min_raise == "double-straddle":
                h._rmin = top
            else:
                h._rmin = h._bb
            if h._kind == _FL:
                h._full_level = h._level
                h._bet_made = True
            assumed = max(sum(blinds), config.nominal_small_blind + h._bb)
            h._shortfall = max(0, assumed - sum(bets)) if config.policy.pl_preflop_assume_full_blinds else 0
            h._opener = (max(range(n), key=lambda i: (blinds[i], i)) + 1) % n
        else:
            # Stud, or a flop game with antes only: nobody has bet yet.
            h._shortfall = 0
        return h

    @classmethod
    def replay(cls, config: HandConfig, events: Iterable[Event]) -> Hand:
        """The hand after ``events``; raises :class:`RuleViolation` at the first illegal one."""
        h = cls.start(config)
        done = tuple(events)
        do = h._do
        act = h._act
        for event in done:
            if type(event) is Action and h._phase == _BETTING:
                act(event)  # what _do would do, one call fewer
            else:
                do(event)
        h._cache = None
        h._events = done
        return h

    def apply(self, event: Event) -> Hand:
        """A new hand with ``event`` applied; this hand is left untouched."""
        h = self._clone()
        h._do(event)
        h._events = self._events + (event,)
        return h

    def undo(self) -> Hand:
        """The hand one event earlier (replays the events but the last)."""
        return Hand.replay(self.config, self._events[:-1])

    def _clone(self) -> Hand:
        h = Hand.__new__(Hand)
        for name in _VALUE_SLOTS:
            setattr(h, name, getattr(self, name))
        for name in _LIST_SLOTS:
            setattr(h, name, getattr(self, name)[:])
        h._cache = None
        return h

    def _reset_street(self) -> None:
        n = self._n
        self._level = 0
        self._rmin = 0
        self._full_level = 0
        self._full_count = 0
        self._raises = 0
        self._bet_made = False
        self._capped = False
        self._big_raised = False
        self._acted = [False] * n
        self._last_bet = [0] * n
        self._seen_full = [0] * n
        self._aggressor = None

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        """``{"config": ..., "events": [...]}``: everything needed to rebuild the hand."""
        return {"config": self.config.to_json(), "events": [event_to_json(e) for e in self._events]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Hand:
        return cls.replay(HandConfig.from_json(data["config"]),
                          [event_from_json(e) for e in data.get("events", ())])

    # ------------------------------------------------------------------ public state

    @property
    def events(self) -> tuple[Event, ...]:
        return self._events

    @property
    def to_act(self) -> int | None:
        """The player whose decision it is, or ``None`` (waiting for cards, showdown, over).

        In flop games the hole cards need not be entered: while they are being
        dealt, the first player to act pre-flop is already known.
        """
        if self._phase == _BETTING:
            return self._actor
        if self._phase == _DEALING and self._street == 0 and not self._stud:
            v = self._dealt_view()
            return v._actor if v._phase == _BETTING else None
        return None

    def _dealt_view(self) -> Hand:
        """This hand as if the remaining hole cards had been dealt unseen."""
        cache = self._cache
        if cache is None:
            cache = self._cache = {}
        view = cache.get("dealt")
        if view is None:
            view = self._clone()
            view._complete_hole_deal()
            cache["dealt"] = view
        assert isinstance(view, Hand)
        return view

    @property
    def street(self) -> Street:
        return (STUD_STREETS if self._stud else FLOP_STREETS)[self._street]

    @property
    def phase(self) -> Phase:
        if self._phase == _SHOWDOWN and self._resolved():
            return Phase.FINISHED
        return _PHASES[self._phase]

    @property
    def finished(self) -> bool:
        return self._phase == _FINISHED or (self._phase == _SHOWDOWN and self._resolved())

    @property
    def misdealt(self) -> bool:
        return self._misdeal

    @property
    def bets(self) -> tuple[int, ...]:
        """Chips in front of each player on the current street (none after a misdeal:
        every chip went back, TDA 35)."""
        if self._misdeal:
            return (0,) * self._n
        return tuple(self._bets)

    def posted(self) -> list[tuple[int, int]]:
        """(blind, ante) each player posted before the deal, as far as his stack went.

        With a big-blind ante the big blind posts both, blind first by default
        (TDA RP-11, policy ``bba_order``); his stack is down by both.

        >>> h = Hand.start(HandConfig(game=Game.NO, starting_stacks=(5000, 5000, 5000),
        ...     antes=(0, 200, 0), blinds_or_straddles=(100, 200, 0), min_bet=200,
        ...     ante_trimming=False))
        >>> h.posted(), h.stacks
        ([(100, 0), (200, 200), (0, 0)], (4900, 4600, 5000))
        """
        return _forced_posts(self.config)

    @property
    def contributions(self) -> tuple[int, ...]:
        """Live chips each player has put in this hand (antes too when they are not dead)."""
        return tuple(self._contrib)

    @property
    def dead_money(self) -> int:
        return self._dead

    @property
    def pot_total(self) -> int:
        """Every chip in the middle, current bets included: the sum of :meth:`pots`
        while the hand is played (an uncalled bet goes back to its owner when its
        round closes, TDA 15-B).  Once the hand is over, every chip that went in:
        the awards plus :meth:`returned`.  After a misdeal nothing is in the middle."""
        if self._misdeal:
            return 0
        total = sum(self._contrib) + self._dead
        return total + sum(self._returned) if self.finished else total

    @property
    def acted_on_street(self) -> bool:
        """Someone has acted on this street (a check counts; a forced bet does not)."""
        return any(self._acted)

    @property
    def stud_opener(self) -> int | None:
        """Stud 4th-7th street: the player with the highest hand showing, who acts
        first (RULES.md §3.3, ST-7, ST-8; ties by suit or position per policy
        ``stud_high_hand_tie``).  None on 3rd street, in flop games, or while the
        up-cards are unknown."""
        if not self._stud or self._street == 0 or self._phase != _BETTING or self._opener_unknown:
            return None
        return self._opener

    @property
    def current_bet(self) -> int:
        """The amount to match on this street (the nominal big blind pre-flop, [BL-6])."""
        return self._level

    @property
    def board(self) -> tuple[Card | None, ...]:
        return self._board

    @property
    def hole_cards(self) -> tuple[tuple[Card | None, ...], ...]:
        return tuple(self._holes)

    @property
    def dealt_this_street(self) -> tuple[bool, ...]:
        """While hole cards (stud: a street's cards) are being entered: who has his already."""
        return tuple(self._dealt)

    def up_cards(self, player: int) -> tuple[Card | None, ...]:
        """Stud: the player's face-up cards (3rd to 6th street cards)."""
        return self._holes[player][2:6] if self._stud else ()

    @property
    def live(self) -> tuple[bool, ...]:
        """Holds cards and has not folded, been killed or mucked."""
        return tuple(not f for f in self._folded)

    @property
    def folded(self) -> tuple[bool, ...]:
        return tuple(self._folded)

    @property
    def killed(self) -> tuple[bool, ...]:
        """Hands declared dead by a ruling (the clock, TDA 29; an absent player, TDA 30; a
        wrong number of cards), not folded by their players: the tablet and the API call
        them "dead".  A fold out of turn is binding (TDA 53) and is his fold, so not here."""
        dead = [False] * self._n
        for e in self._events:
            if isinstance(e, Kill) and e.reason != FOLD_OUT_OF_TURN and self._killed[e.player]:
                dead[e.player] = True
        return tuple(dead)

    @property
    def all_in(self) -> tuple[bool, ...]:
        return tuple((not f) and s == 0 for f, s in zip(self._folded, self._stacks, strict=True))

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips behind; once the hand is over, the finishing stacks (returns and awards in)."""
        if self._misdeal:
            return self.config.starting_stacks
        if self.finished:
            return self._final_stacks()
        return tuple(self._stacks)

    @property
    def awaiting(self) -> str | None:
        """What the dealer must do next: ``"hole"``, ``"board"``, ``"street"``, ``"showdown"``, or None."""
        if self._phase == _DEALING:
            if self._stud:
                return "street"
            return "hole" if self._street == 0 else "board"
        if self._phase == _SHOWDOWN and not self._resolved():
            return "showdown"
        return None

    def name(self, player: int) -> str:
        """How messages name a player: "Seat 3" when seats are known, else "player 4"."""
        if self.config.seats:
            return f"Seat {self.config.seats[player]}"
        return f"player {player + 1}"

    def _who(self, player: int) -> str:
        text = self.name(player)
        return text[0].upper() + text[1:]

    # ------------------------------------------------------------------ events

    def _do(self, e: Event) -> None:
        self._cache = None
        if type(e) is Action and self._phase == _BETTING:
            self._act(e)  # the common case first
            return
        if self._phase == _FINISHED:
            if isinstance(e, Show) and not self._misdeal and self._street == (4 if self._stud else 3):
                # A winner may still table his hand after the others mucked.
                self._show(e)
                return
            raise RuleViolation("The hand is over")
        if isinstance(e, Action):
            self._act(e)
        elif isinstance(e, DealHole):
            self._deal_hole(e)
        elif isinstance(e, DealBoard):
            self._deal_board(e)
        elif isinstance(e, Show):
            self._show(e)
        elif isinstance(e, Muck):
            self._muck(e)
        elif isinstance(e, Kill):
            self._kill(e)
        elif isinstance(e, CheckByClock):
            self._clock_check(e)
        elif isinstance(e, ManualAward):
            self._manual_award(e)
        elif isinstance(e, Misdeal):
            self._misdeal = True
            self._phase = _FINISHED
            self._actor = None
        else:  # pragma: no cover - typing makes this unreachable
            raise RuleViolation("Unknown event {event}", event=repr(e))

    def _player(self, p: int) -> None:
        if type(p) is not int or not 0 <= p < self._n:
            raise RuleViolation("There is no player {player} in this hand", player=p + 1 if isinstance(p, int) else p)

    # -- dealing

    def _note_cards(self, cards: Iterable[Card | None]) -> None:
        """Mark newly seen cards; a card seen twice is a fouled deck (TDA 35-A)."""
        seen = self._seen
        for c in cards:
            if c is None:
                continue
            bit = 1 << ((c.rank << 2) | _SUIT_BITS[c.suit])
            if seen & bit:
                check_no_duplicates(self._all_cards(), [c])
                raise CardError("The {card} appears twice", card=c.symbol)
            seen |= bit
        self._seen = seen

    def _all_cards(self) -> list[Card | None]:
        out: list[Card | None] = list(self._board)
        for h in self._holes:
            out.extend(h)
        return out

    def _deal_hole(self, e: DealHole) -> None:
        p = e.player
        if type(p) is not int or not 0 <= p < self._n:
            self._player(p)
        cards = tuple(e.cards)
        if self._phase != _DEALING or (not self._stud and self._street != 0):
            raise RuleViolation("Hole cards cannot be dealt now: {waiting}", waiting=self._waiting_text())
        if self._dealt[p]:
            raise RuleViolation("{who} already has his cards for {street}", who=self._who(p), street=self.street.value)
        if self._stud:
            if self._folded[p]:
                raise RuleViolation("{who} has no live hand: no more cards", who=self._who(p))
            want = _STUD_COUNTS[self._street]
        else:
            want = OMAHA_HOLE_CARDS
        if len(cards) != want:
            raise RuleViolation("{who} must get {want} cards on {street}, not {count}",
                                who=self._who(p), want=want, street=self.street.value, count=len(cards))
        self._note_cards(cards)
        self._holes[p] = self._holes[p] + cards
        dealt = self._dealt
        dealt[p] = True
        if False in dealt:
            folded = self._folded
            for i in range(self._n):
                if not dealt[i] and not folded[i]:
                    return  # more hands to deal
        self._deal_done()

    def _complete_hole_deal(self) -> None:
        """An action before every hole card was entered: the rest were dealt unseen."""
        for i in range(self._n):
            if not self._dealt[i]:
                self._holes[i] = (None,) * OMAHA_HOLE_CARDS
                self._dealt[i] = True
        self._deal_done()

    def _deal_board(self, e: DealBoard) -> None:
        if self._stud:
            self._deal_community_card(e)
            return
        if self._phase != _DEALING or self._street == 0:
            raise RuleViolation("The board cannot be dealt now: {waiting}", waiting=self._waiting_text())
        want = _BOARD_COUNTS[self._street]
        cards = tuple(e.cards)
        if len(cards) != want:
            raise RuleViolation("The {street} is {want} cards, not {count}",
                                street=self.street.value, want=want, count=len(cards))
        self._note_cards(cards)
        self._board = self._board + cards
        self._deal_done()

    def _deal_community_card(self, e: DealBoard) -> None:
        """Stud 7th street with too few cards left: one community card face up for everyone
        (TDA RP-10-H, RULES.md §3.7).  Whoever acted first on 6th street acts first again,
        which the unchanged up-cards give by themselves."""
        if self._phase != _DEALING or self._street != 4 or any(self._dealt):
            raise RuleViolation("Stud has no board: a community card is dealt only on seventh street, "
                                "instead of every player's seventh card", rule="TDA RP-10-H")
        cards = tuple(e.cards)
        if len(cards) != 1:
            raise RuleViolation("The community card is one card, not {count}", count=len(cards))
        self._note_cards(cards)
        self._board = cards
        self._dealt = [True] * self._n
        self._deal_done()

    def _deal_done(self) -> None:
        """The street's cards are out: kill absent hands, then start the betting."""
        if self._street == 0:
            for p in self.config.dead_players:
                if not self._stud:
                    self._folded[p] = True
                    self._killed[p] = True
            if not self._stud and self._live_count() <= 1:
                self._finish_uncontested()
                return
        self._begin_betting()

    def _waiting_text(self) -> str:
        if self._phase == _BETTING:
            return f"{self.name(self._actor)} is to act" if self._actor is not None else "betting is open"
        if self._phase == _DEALING:
            if self._stud:
                return f"deal {self.street.value}"
            return "deal the hole cards" if self._street == 0 else f"deal the {self.street.value}"
        return "the hand is at showdown"

    # -- betting rounds

    def _live_count(self) -> int:
        return self._folded.count(False)

    def _active_count(self) -> int:
        count = 0
        for f, s in zip(self._folded, self._stacks):  # noqa: B905 - same length
            if s and not f:
                count += 1
        return count

    def _bet_size(self) -> int:
        if self._street >= 2:
            return self.config.big_bet
        return self.config.small_bet

    def _begin_betting(self) -> None:
        self._phase = _BETTING
        self._opener_unknown = False
        n = self._n
        if self._street > 0:
            self._bets = [0] * n
            self._reset_street()
        if self._stud:
            if self._street == 0:
                self._begin_third_street()
                return
            opener = self._stud_high_opener()
            if opener is None:
                self._opener_unknown = True
                self._actor = None
                if self._active_count() < 2:
                    self._end_round()
                return
            self._opener = opener
            self._actor = self._next_to_act(opener - 1)
        elif self._street == 0:
            self._actor = self._next_to_act(self._opener - 1)
        else:
            self._opener = 0
            self._actor = self._next_to_act(-1)
        if self._actor is None:
            self._end_round()

    def _begin_third_street(self) -> None:
        """Stud 3rd street: the lowest up-card brings in (RULES.md §3.2, ST-1, ST-3, ST-5, ST-12)."""
        n = self._n
        ups: list[tuple[tuple[int, int], int]] = []
        for i in range(n):
            if self._folded[i]:
                continue
            up = self._holes[i][2] if len(self._holes[i]) > 2 else None
            if up is None:
                ups = []
                break
            ups.append(((up.rank, up.suit_rank), i))
        dead = set(self.config.dead_players)
        if not ups:
            for p in dead:
                self._folded[p] = True
                self._killed[p] = True
            if self._live_count() <= 1:
                self._finish_uncontested()
                return
            self._opener_unknown = True
            self._pending = True
            self._may_fold = False
            self._actor = None
            return
        low = min(ups)[1]
        self._opener = low
        for p in dead:
            self._folded[p] = True
            self._killed[p] = True
        if low in dead:
            # ST-12: the absent low card still posts the bring-in, and forfeits it.
            self._put(low, min(self.config.bring_in, self._stacks[low] + self._bets[low]))
            self._level = self.config.bring_in
            if self._live_count() <= 1:
                self._finish_uncontested()
                return
            self._actor = self._next_to_act(low)
            if self._actor is None:
                self._end_round()
            return
        if self._live_count() <= 1:
            self._finish_uncontested()
            return
        if self._stacks[low] == 0:
            # ST-5: all-in for the ante; the next player must bring in, complete or fold.
            self._pending = True
            self._may_fold = True
            self._actor = self._next_to_act(low)
            if self._actor is None:
                self._pending = False
                self._end_round()
            return
        self._pending = True
        self._may_fold = False
        self._actor = low

    def _stud_high_opener(self) -> int | None:
        """4th-7th street: the highest exposed hand (RULES.md §3.3, ST-7, ST-8)."""
        by_suit = self._policy.stud_high_hand_tie == "suit"
        best: tuple[tuple[int, ...], int] | None = None
        for i in range(self._n):
            if self._folded[i]:
                continue
            ups = self._holes[i][2:6]
            if not ups or any(c is None for c in ups):
                return None
            key = (exposed_strength([c for c in ups if c is not None], by_suit), -i)
            if best is None or key > best:
                best = key
        return None if best is None else -best[1]

    def _next_to_act(self, after: int) -> int | None:
        """The next player clockwise after ``after`` who still has to act, or None.

        He has chips and either faces more than he has put in, or has not acted on
        this street while someone else could still answer a raise.
        """
        n = self._n
        st = self._stacks
        folded = self._folded
        bets = self._bets
        acted = self._acted
        level = self._level
        several: bool | None = None
        for k in range(1, n + 1):
            i = (after + k) % n
            if folded[i] or not st[i]:
                continue
            if bets[i] < level:
                return i
            if not acted[i]:
                if several is None:
                    several = self._active_count() >= 2
                if several:
                    return i
        return None

    def _end_round(self) -> None:
        self._actor = None
        self._pending = False
        self._return_uncalled()
        last = 4 if self._stud else 3
        if self._street >= last:
            self._phase = _SHOWDOWN
            return
        self._street += 1
        self._phase = _DEALING
        self._dealt = [False] * self._n

    def _after_action(self, p: int) -> None:
        if self._folded.count(False) == 1:
            self._finish_uncontested()
            return
        nxt = self._next_to_act(p)
        if nxt is None:
            self._end_round()
        else:
            self._actor = nxt

    def _finish_uncontested(self) -> None:
        self._return_uncalled()
        self._phase = _FINISHED
        self._actor = None

    def _return_uncalled(self) -> None:
        """The betting round is closed: the part of a bet nobody called goes back to
        its owner's stack now, not at the end of the hand (TDA 15-B, RULES.md §8.1
        step 1).  A killed hand's chips are forfeited, not returned (``build_pots``)."""
        returned = build_pots(self._contrib, [not f for f in self._folded], self._dead,
                              killed=self._killed_players())[1]
        for i, chips in enumerate(returned):
            if chips:
                self._stacks[i] += chips
                self._contrib[i] -= chips
                self._bets[i] = max(0, self._bets[i] - chips)
                self._returned[i] += chips
                self._level = min(self._level, max(self._bets))

    def _put(self, p: int, to: int) -> None:
        amount = to - self._bets[p]
        self._stacks[p] -= amount
        self._bets[p] = to
        self._contrib[p] += amount

    # -- the rules of one decision

    def _may_reopen(self, p: int) -> bool:
        """TDA 47: a player who has acted may raise again only when facing a full raise."""
        if not self._acted[p]:
            return True
        if self._kind == _FL:
            return self._full_count > self._seen_full[p]
        return self._level - self._last_bet[p] >= max(self._rmin, self._bb)

    def _cap_reached(self) -> bool:
        """Fixed-limit raise cap (TDA 48; RRP heads-up exception as policy)."""
        cap = self._policy.limit_raise_cap
        if cap is None or self.config.event_heads_up or self._raises < cap:
            return False
        return not (not self._policy.limit_cap_heads_up and not self._capped and self._live_count() == 2)

    def _double_option(self) -> bool:
        """RRP Stud 4: open pair on 4th street, stud high only (policy, off by default)."""
        if not (self._stud and self._street == 1 and self._policy.stud_4th_street_double and not self._hilo):
            return False
        for i in range(self._n):
            h = self._holes[i]
            if not self._folded[i] and len(h) >= 4 and h[2] is not None and h[3] is not None and h[2].rank == h[3].rank:
                return True
        return False

    def _pot_for_limit(self) -> int:
        """P of RULES.md §2.3: everything in the middle, TDA 54-B full blinds pre-flop."""
        total = sum(self._contrib) + self._dead
        if not self._policy.pl_count_antes_in_pot:
            total -= self._antes
        if self._street == 0:
            total += self._shortfall
        return total

    def _raise_bounds(self, p: int) -> tuple[int, int] | None:
        """(min_to, max_to) for a bet or raise by ``p``, or None when he may not raise."""
        own = self._bets[p]
        all_in = own + self._stacks[p]
        level = self._level
        if all_in <= level:
            return None
        if self._pending:
            complete = min(self.config.small_bet, all_in)
            if complete <= max(level, self.config.bring_in):
                return None
            return complete, complete
        if not self._may_reopen(p):
            return None
        st = self._stacks
        bets = self._bets
        folded = self._folded
        for i in range(self._n):
            if i != p and not folded[i] and st[i] and st[i] + bets[i] > level:
                break
        else:
            return None  # nobody could answer a raise
        if self._kind == _FL:
            if self._cap_reached():
                return None
            s = self._bet_size()
            lo = hi = self._full_level + s
            if self._double_option():
                big = self.config.big_bet
                hi = self._full_level + big
                if self._big_raised:
                    lo = hi
            return min(lo, all_in), min(hi, all_in)
        lo = level + max(self._rmin, self._bb) if level > 0 else self._bb
        hi = all_in if self._kind == _NL else max(lo, 2 * level - own + self._pot_for_limit())
        return min(lo, all_in), min(hi, all_in)

    def legal(self) -> Legal:
        """The options of the player to act (:data:`NO_DECISION` when nobody is to act).

        * Call: the current bet minus what he has in, at most his stack; with a short
          all-in big blind the bet to call is still the full blind (RRP *Blinds* 1, [BL-6]).
        * Minimum bet: the big blind on every street, pot-limit too (RULES.md §2.2).
          Minimum raise: the current bet plus the largest full bet or raise of the
          street (TDA 43-A); pre-flop the big blind (a straddle, by policy) is that bet.
        * Pot-limit maximum: ``2 * bet - own + pot``, the pot counting antes, the
          big-blind ante and, pre-flop, full blinds even when one is dead or short
          (TDA 54-B, RULES.md §2.3).  No-limit: all his chips.
        * Fixed limit: exactly one small bet (pre-flop/flop, 3rd/4th street) or big bet,
          up to the cap (TDA 48); a short all-in of at least half a bet counts as a full
          raise (TDA 47-B).
        * He may not raise when the betting was not re-opened for him (TDA 47-A, [RO-2])
          or when nobody left could answer a raise.

        [MR-1] NL 100/200: after 600, 1600 and 3600 on the flop the next minimum is 5600:

        >>> from director.poker.events import DealBoard
        >>> h = Hand.start(HandConfig(game=Game.NO, starting_stacks=(10_000,) * 4,
        ...                           blinds_or_straddles=(100, 200, 0, 0), min_bet=200))
        >>> for a in ["call", "call", "call", "check"]:
        ...     h = h.apply(Action(h.to_act or 0, ActionKind(a)))
        >>> h = h.apply(DealBoard((None, None, None)))
        >>> for to in (600, 1600, 3600):
        ...     h = h.apply(Action(h.to_act or 0, ActionKind.RAISE, to))
        >>> h.legal().call, h.legal().min_to, h.legal().max_to
        (3600, 5600, 9800)
        """
        if self._phase == _DEALING and self._street == 0 and not self._stud:
            return self._dealt_view().legal()
        p = self.to_act
        if p is None:
            return NO_DECISION
        own = self._bets[p]
        stack = self._stacks[p]
        all_in = own + stack
        bounds = self._raise_bounds(p)
        if self._pending:
            complete = bounds[0] if bounds else None
            return Legal(fold=self._may_fold, bring_in=True, all_in_to=all_in,
                         complete_to=complete, min_to=complete, max_to=complete, pot_to=complete)
        to_call = self._level - own
        min_to = max_to = pot_to = complete_to = None
        if bounds is not None:
            min_to, max_to = bounds
            if self._kind == _FL:
                pot_to = min_to
                if (self._stud and self._street == 0 and not self._bet_made) or self._level > self._full_level:
                    complete_to = min_to
            else:
                pot_to = min(all_in, max(min_to, 2 * self._level - own + self._pot_for_limit()))
        return Legal(
            fold=True,
            check=to_call <= 0,
            call=min(to_call, stack) if to_call > 0 else None,
            min_to=min_to, max_to=max_to, pot_to=pot_to, all_in_to=all_in,
            complete_to=complete_to,
        )

    def _act(self, e: Action) -> None:
        p = e.player
        if type(p) is not int or not 0 <= p < self._n:
            self._player(p)
        if self._phase != _BETTING:
            if self._phase == _DEALING and not self._stud and self._street == 0:
                self._complete_hole_deal()
            if self._phase != _BETTING:
                raise RuleViolation("No betting now: {waiting}", waiting=self._waiting_text())
        if self._actor is None and self._opener_unknown:
            # Up-cards were not entered: the first player to act shows who opens.
            if self._folded[p] or self._stacks[p] == 0:
                raise RuleViolation("{who} cannot act: his hand is dead or all-in", who=self._who(p))
            self._actor = p
            self._opener = p
            self._opener_unknown = False
        if p != self._actor:
            raise RuleViolation("It is not {who}'s turn; {actor} is to act",
                                who=self.name(p), actor=self.name(self._actor) if self._actor is not None else "nobody")
        kind = e.action
        own = self._bets[p]
        stack = self._stacks[p]
        level = self._level
        if kind is _FOLD:
            if self._pending and not self._may_fold:
                raise RuleViolation("{who} has the low card and must bring in or complete", rule="RRP Stud 2",
                                    who=self._who(p))
            self._folded[p] = True
        elif kind is _CALL or kind is _CHECK:
            if self._pending:
                raise RuleViolation("{who} must bring in {amount}, complete or fold", rule="RULES.md §3.2",
                                    who=self._who(p), amount=self.config.bring_in)
            if level > own:
                if kind is _CHECK:
                    raise RuleViolation("{who} cannot check: there is a bet of {bet} to call",
                                        rule="TDA 55", who=self._who(p), bet=level)
                self._put(p, min(level, own + stack))
        elif kind is _BRING_IN:
            if not self._pending:
                raise RuleViolation("There is no bring-in to post now")
            self._put(p, own + min(self.config.bring_in - own, stack))
            self._level = max(level, self.config.bring_in)
            self._pending = False
        elif kind is _ALL_IN:
            to = own + stack
            if stack == 0:
                raise RuleViolation("{who} has no chips left", who=self._who(p))
            if to <= level and not self._pending:
                self._put(p, to)
            elif self._pending and to <= self.config.bring_in:
                self._put(p, to)
                self._level = max(level, self.config.bring_in)
                self._pending = False
            else:
                self._raise_to(p, to)
        else:  # BET, RAISE, COMPLETE
            amount = e.amount
            if amount is not None:
                to = amount
            else:
                bounds = self._raise_bounds(p)
                if bounds is None:
                    self._raise_error(p, min(level + 1, own + stack))
                    raise RuleViolation("{who} may not raise", who=self._who(p))
                if self._kind != _FL and not self._pending:
                    raise RuleViolation("Say how much: a {action} needs an amount", action=kind.value)
                to = bounds[0]
            self._raise_to(p, to)
        self._acted[p] = True
        self._last_bet[p] = self._bets[p]
        self._seen_full[p] = self._full_count
        self._after_action(p)

    def _raise_error(self, p: int, to: int) -> None:
        """Raise the reason why ``p`` may not bet or raise to ``to`` (returns if it is legal)."""
        own = self._bets[p]
        all_in = own + self._stacks[p]
        level = self._level
        who = self._who(p)
        if to > all_in:
            raise RuleViolation("{who} has only {total} in all; he cannot make it {amount}",
                                who=who, total=all_in, amount=to)
        if to <= level:
            raise RuleViolation("A raise must be more than the current bet of {bet}; {amount} is not",
                                bet=level, amount=to)
        bounds = self._raise_bounds(p)
        if bounds is None:
            if self._kind == _FL and self._cap_reached():
                raise RuleViolation("The betting is capped: no more raises on this street",
                                    rule="TDA 48", cap=self._policy.limit_raise_cap)
            if self._acted[p] and not self._may_reopen(p):
                raise RuleViolation("{who} may only call or fold: the betting was not re-opened by a full raise",
                                    rule="TDA 47", who=who)
            raise RuleViolation("{who} may not raise: nobody left can call a raise", who=who)
        lo, hi = bounds
        if self._kind == _FL:
            if to not in (lo, hi):
                if lo == hi:
                    raise RuleViolation("Fixed limit: the bet is {amount}, so it must be made {target}",
                                        rule="RULES.md §2.5", amount=self._bet_size(), target=lo)
                raise RuleViolation("Fixed limit: the bet must be made {low} or {high}",
                                    rule="RRP Stud 4", low=lo, high=hi)
        else:
            if to < lo:
                raise RuleViolation("Raise to {amount} is below the minimum raise to {minimum}",
                                    rule="TDA 43-A", amount=to, minimum=lo)
            if to > hi:
                raise RuleViolation("Pot-limit: the most {who} may raise to is {maximum}",
                                    rule="TDA 54", who=self.name(p), maximum=hi)

    def _raise_to(self, p: int, to: int) -> None:
        if type(to) is not int and (not isinstance(to, int) or isinstance(to, bool)):
            raise RuleViolation("Chips are whole numbers, not {amount}", amount=to)
        bounds = self._raise_bounds(p)
        if bounds is None or not (to in bounds if self._kind == _FL else bounds[0] <= to <= bounds[1]):
            self._raise_error(p, to)
            raise RuleViolation("Raise to {amount} is not allowed", amount=to)
        level = self._level
        self._put(p, to)
        self._aggressor = p
        if self._pending:
            # Stud completion from the bring-in spot: the first bet of the round.
            self._pending = False
        if self._kind == _FL:
            s = self._bet_size()
            full_inc = to - self._full_level
            if self._double_option() and full_inc >= self.config.big_bet:
                self._big_raised = True
            full = full_inc >= s
            treated = not full and 2 * full_inc >= s  # TDA 47-B: half a bet counts
            if full or treated:
                self._full_level = to
                self._full_count += 1
                if not self._bet_made:
                    self._bet_made = True
                elif full or self._policy.limit_short_allin_counts_to_cap:
                    self._raises += 1
                    cap = self._policy.limit_raise_cap
                    if cap is not None and self._raises >= cap and self._live_count() > 2:
                        self._capped = True
        else:
            inc = to - level
            if inc >= max(self._rmin, self._bb) or (level == 0 and to >= self._bb):
                self._rmin = max(self._rmin, inc)
        self._level = max(level, to)

    # -- dealer events in betting

    def _kill(self, e: Kill) -> None:
        p = e.player
        self._player(p)
        if self._folded[p]:
            raise RuleViolation("{who} has no live hand to kill", who=self._who(p))
        if self._live_count() == 1:
            raise RuleViolation("{who} holds the last live hand: it wins the pot", who=self._who(p))
        if self._phase == _SHOWDOWN:
            self._muck(Muck(p))
            return
        self._folded[p] = True
        self._killed[p] = True
        if self._live_count() == 1:
            self._finish_uncontested()
            return
        if self._pending:
            self._may_fold = True  # the bring-in duty passes on, as in [ST-5]
        if self._phase == _BETTING and self._actor is not None:
            nxt = self._next_to_act(self._actor - 1)
            if nxt is None:
                self._end_round()
            else:
                self._actor = nxt
        elif self._phase == _DEALING and (self._stud or self._street == 0) and all(
            self._dealt[i] or self._folded[i] for i in range(self._n)
        ):
            self._deal_done()

    def _clock_check(self, e: CheckByClock) -> None:
        p = e.player
        self._player(p)
        if self._phase != _BETTING or p != self._actor:
            raise RuleViolation("It is not {who}'s turn", who=self.name(p))
        if self._pending or self._level > self._bets[p]:
            raise RuleViolation("{who} is facing a bet: when his time runs out his hand is dead, not checked",
                                rule="TDA 29", who=self._who(p))
        self._act(Action(p, ActionKind.CHECK))

    # -- showdown

    def _show(self, e: Show) -> None:
        p = e.player
        self._player(p)
        if self._folded[p]:
            raise RuleViolation("{who} has no live hand to show", who=self._who(p))
        if not (self._phase in (_SHOWDOWN, _FINISHED)
                or (self._phase == _DEALING and self._active_count() <= 1)):
            raise RuleViolation("Hands are shown at showdown, or when the betting is over with an all-in",
                                rule="TDA 16")
        old = self._holes[p]
        cards = tuple(e.cards)
        if cards == old:
            self._shown[p] = True  # the cards were entered at the deal
            return
        if self._stud and len(cards) == 3 and len(old) >= 3:
            new = (cards[0], cards[1], *old[2:6], cards[2]) if len(old) == 7 else (cards[0], cards[1], *old[2:])
        else:
            new = cards
        if len(new) != len(old):
            raise RuleViolation("{who} holds {count} cards, not {shown}", who=self._who(p),
                                count=len(old), shown=len(cards))
        for a, b in zip(old, new, strict=True):
            if a is not None and b is not None and a != b:
                raise RuleViolation("{who} was dealt {dealt}, not {shown}", who=self._who(p),
                                    dealt=a.symbol, shown=b.symbol)
        self._note_cards(b for a, b in zip(old, new, strict=True) if a is None)
        merged = tuple(b if b is not None else a for a, b in zip(old, new, strict=True))
        self._holes[p] = merged
        self._shown[p] = True

    def _muck(self, e: Muck) -> None:
        p = e.player
        self._player(p)
        if self._phase != _SHOWDOWN:
            raise RuleViolation("Only at showdown may a hand be mucked; before it, that is a fold")
        if self._folded[p]:
            raise RuleViolation("{who} has no live hand to muck", who=self._who(p))
        if self._live_count() == 1:
            raise RuleViolation("{who} holds the last live hand: it wins the pot", who=self._who(p))
        self._folded[p] = True
        self._mucked[p] = True
        if self._live_count() == 1:
            self._phase = _FINISHED

    def _manual_award(self, e: ManualAward) -> None:
        if self._phase != _SHOWDOWN:
            raise RuleViolation("Pots are awarded at showdown")
        named = [p for g in (*e.high, *e.low) for p in g]
        for p in named:
            self._player(p)
            if self._folded[p]:
                raise RuleViolation("{who} has no live hand and cannot win a pot", who=self._who(p))
        if not e.high:
            raise RuleViolation("Name the winner of the high hand")
        if e.low and not self._hilo:
            raise RuleViolation("This game has no low half")
        # A pot goes only to a player the dealer ranked: every pot needs one of its
        # players among the ranked high hands (a low ranked nowhere in a pot: the high scoops).
        ranked = {p for g in e.high for p in g}
        for pot in self._build_pots()[0]:
            if not ranked & set(pot.eligible):
                raise RuleViolation("Rank one of {players} for the {pot}: nobody ranked can win it",
                                    players=" or ".join(self.name(p) for p in pot.eligible),
                                    pot=pot.name[0].lower() + pot.name[1:])
        self._manual = e
        self._phase = _FINISHED
        self._cache = None

    def _resolved(self) -> bool:
        """At showdown: every live hand and the board are known."""
        cache = self._cache
        if cache is None:
            cache = self._cache = {}
        known = cache.get("resolved")
        if known is None:
            known = cache["resolved"] = self._all_known()
        return bool(known)

    def _all_known(self) -> bool:
        board = self._board
        if self._stud:
            need = 7 - len(board)
        else:
            need = OMAHA_HOLE_CARDS
            if len(board) != 5:
                return False
        # "c is None", not "None in cards": that would call Card.__eq__ for every card.
        for c in board:
            if c is None:
                return False
        for folded, h in zip(self._folded, self._holes):  # noqa: B905 - same length
            if not folded:
                if len(h) != need:
                    return False
                for c in h:
                    if c is None:
                        return False
        return True

    # ------------------------------------------------------------------ pots and awards

    def _pot_inputs(self) -> tuple[list[int], list[bool], int]:
        """Contributions, live flags and dead money for :func:`~director.poker.pots.build_pots`."""
        return self._contrib, [not f for f in self._folded], self._dead

    def _killed_players(self) -> list[int]:
        """Players whose hands were killed before the showdown (TDA 29, 30; [ABS-1], [ABS-2]).

        Their chips are forfeited like folded players' (RULES.md §8.1 step 3): a dead
        hand that put in the most (an absent big blind everybody folded to) gets no
        uncalled excess back.  A hand mucked at showdown still gets its uncalled chips
        back (RULES.md §8.1 step 1).
        """
        return [i for i, k in enumerate(self._killed) if k]

    def _build_pots(self) -> tuple[list[Pot], list[int]]:
        contrib, live, dead = self._pot_inputs()
        return build_pots(contrib, live, dead, killed=self._killed_players())

    def pots(self) -> list[Pot]:
        """The main pot and side pots as they stand, current bets included (RULES.md §8.1).

        While the hand goes on, only an all-in player closes a pot: a live player
        who has not matched the bet yet (the small blind before he acts) can still
        put chips in, so he is eligible for every pot, and no side pot is shown
        for him.  At the end everybody live has matched or is all-in, so the pots
        are those of :func:`~director.poker.pots.build_pots` as they are.
        """
        if self._misdeal:
            return []
        pots, outstanding = self._build_pots()
        if self.finished:
            return pots
        can_call = {i for i, (live, all_in) in enumerate(zip(self.live, self.all_in, strict=True))
                    if live and not all_in}
        # A bet not called yet is in the middle until its round closes (then it goes back).
        pots = pots + [Pot(chips, (i,), "") for i, chips in enumerate(outstanding) if chips]
        merged: list[tuple[int, tuple[int, ...]]] = []     # (amount, eligible)
        for pot in pots:
            eligible = tuple(sorted(set(pot.eligible) | can_call))
            if merged and merged[-1][1] == eligible:
                merged[-1] = (merged[-1][0] + pot.amount, eligible)
            else:
                merged.append((pot.amount, eligible))
        return [Pot(amount, eligible, pot_name(i)) for i, (amount, eligible) in enumerate(merged)]

    def returned(self) -> list[int]:
        """The uncalled chips each player got back so far, each part the moment its
        betting round closed (RULES.md §8.1 step 1, SP-5, TDA 15-B)."""
        if self._misdeal:
            return [0] * self._n
        if not self.finished:
            return list(self._returned)
        return [a + b for a, b in zip(self._returned, self._build_pots()[1], strict=True)]

    def awards(self) -> list[Award]:
        """Who gets what, pot by pot, last side pot first; only when the hand is over."""
        if self._misdeal:
            return []
        if not self.finished:
            raise RuleViolation("The hand is not over: {waiting}", waiting=self._waiting_text())
        cache = self._cache
        if cache is None:
            cache = self._cache = {}
        elif "awards" in cache:
            return list(cache["awards"])
        pots, returned = self._build_pots()
        folded = self._folded
        if folded.count(False) == 1:
            result = uncontested(pots, folded.index(False))
        elif self._manual is not None:
            high, low = self._manual_hands(self._manual)
            result = award_pots(pots, high, low, stud=self._stud, unit=self.config.chip_unit,
                                policy=self._policy)
        else:
            high, low = self._evaluate(pots)
            result = award_pots(pots, high, low, stud=self._stud, unit=self.config.chip_unit,
                                policy=self._policy)
        cache["awards"] = result
        cache["returned"] = returned
        return list(result)

    def _evaluate(self, pots: Sequence[Pot]) -> tuple[dict[int, HighHand], dict[int, LowHand | None] | None]:
        """Read every live hand.  Only a player who wins some pot gets his hand named
        (the slow part); the others need just their strength to be compared.

        Called only once every live hand and the board are known (:meth:`_resolved`).
        """
        stud = self._stud
        board = cast("tuple[Card, ...]", self._board)
        holes = cast("list[tuple[Card, ...]]", self._holes)
        folded = self._folded
        players = [i for i in range(self._n) if not folded[i]]
        if stud:
            cards = {i: holes[i] + board for i in players}
            strength = {i: hands.stud_high_strength(cards[i]) for i in players}
        else:
            cards = {i: holes[i] for i in players}
            strength = dict(zip(players, hands.omaha_high_strengths([holes[i] for i in players], board),
                                strict=True))
        winners: set[int] = set()
        for pot in pots:
            eligible = [i for i in pot.eligible if i in strength]
            if eligible:
                best = max([strength[i] for i in eligible])
                winners.update([i for i in eligible if strength[i] == best])
        high: dict[int, HighHand] = {}
        for i, value in strength.items():
            if i in winners:
                high[i] = hands.stud_high(cards[i]) if stud else hands.omaha_high(cards[i], board)
            else:
                high[i] = _unnamed(value)
        low: dict[int, LowHand | None] | None = None
        if self._hilo:
            low = {i: hands.stud_low(c) if stud else hands.omaha_low(c, board) for i, c in cards.items()}
        return high, low

    def tabled_hands(self) -> dict[int, tuple[HighHand, LowHand | None]]:
        """Once the hand is over: every hand tabled face up, losers' too, named (its
        high hand, and its low in a hi-lo game), for the dealer to read out (TDA 16).

        A hand is tabled when it is still live at a showdown of two or more hands,
        or when its owner showed it; only hands whose every card is known are named.
        """
        if not self.finished or self._misdeal:
            return {}
        board = self._board
        if any(c is None for c in board) or (not self._stud and len(board) != 5):
            return {}
        showdown = self._live_count() >= 2 or self._manual is not None
        out: dict[int, tuple[HighHand, LowHand | None]] = {}
        for i in range(self._n):
            if self._folded[i] or not (showdown or self._shown[i]):
                continue
            held = self._holes[i]
            if any(c is None for c in held) or len(held) + (len(board) if self._stud else 0) != (
                    7 if self._stud else OMAHA_HOLE_CARDS):
                continue
            cards = cast("tuple[Card, ...]", held)
            known = cast("tuple[Card, ...]", board)
            if self._stud:
                high = hands.stud_high(cards + known)
                low = hands.stud_low(cards + known) if self._hilo else None
            else:
                high = hands.omaha_high(cards, known)
                low = hands.omaha_low(cards, known) if self._hilo else None
            out[i] = (high, low)
        return out

    def _manual_hands(self, e: ManualAward) -> tuple[dict[int, HighHand], dict[int, LowHand | None] | None]:
        high: dict[int, HighHand] = {}
        groups = len(e.high)
        for rank, group in enumerate(e.high):
            for p in group:
                high[p] = HighHand(groups - rank, (), "chosen by the dealer", "chosen by the dealer")
        for i in range(self._n):
            if not self._folded[i] and i not in high:
                high[i] = HighHand(0, (), "chosen by the dealer", "losing hand")
        low: dict[int, LowHand | None] | None = None
        if self._hilo:
            low = {i: None for i in high}
            for rank, group in enumerate(e.low):
                for p in group:
                    low[p] = LowHand((rank + 5, 4, 3, 2, 1), (), "low chosen by the dealer")
        return high, low

    def _final_stacks(self) -> tuple[int, ...]:
        awards = self.awards()
        cache = self._cache
        assert cache is not None
        out = list(self._stacks)
        for i, r in enumerate(cache["returned"]):
            out[i] += r
        for a in awards:
            out[a.player] += a.amount
        return tuple(out)

    # ------------------------------------------------------------------ showdown order

    def showdown_order(self) -> tuple[int, ...]:
        """Who shows first at showdown (RULES.md §6.1; TDA 2024 rules 16 and 17).

        * Someone is all-in: every hand is turned up at once (TDA 16); the live
          players are listed in seat order.
        * Otherwise the last aggressor on the final street shows first; with no
          bet, the first player to act on that street (flop games: first live seat
          left of the button; stud: the high exposed hand); then clockwise (TDA 17-A).
        """
        live = [i for i in range(self._n) if not self._folded[i]]
        if len(live) <= 1 or self.showdown_at_once:
            return tuple(live)
        if self._aggressor is not None and not self._folded[self._aggressor]:
            start = self._aggressor
        elif self._stud:
            high = self._stud_high_opener()
            start = self._opener if high is None else high
        else:
            start = 0
        return tuple(sorted(live, key=lambda i: (i - start) % self._n))

    @property
    def showdown_at_once(self) -> bool:
        """TDA 16: a live player is all-in, so all hands are tabled together."""
        return any(not f and s == 0 for f, s in zip(self._folded, self._stacks, strict=True))

    @property
    def hands_face_up(self) -> bool:
        """TDA 16: someone is all-in and every other player's betting is finished, so all
        hands involved are turned face up now, before the rest of the board ([SD-3])."""
        if self._phase in (_FINISHED, _BETTING) or self._live_count() < 2 or not self.showdown_at_once:
            return False
        return self._phase == _SHOWDOWN or self._active_count() <= 1

    # ------------------------------------------------------------------ may / why not

    def why_not(self, event: Event) -> RuleViolation | None:
        """The reason ``event`` is illegal now, or None when it is legal."""
        try:
            self._clone()._do(event)
        except RuleViolation as error:
            return error
        return None

    def can(self, event: Event) -> bool:
        return self.why_not(event) is None

    def _can_act(self, kind: ActionKind, amount: int | None = None) -> bool:
        p = self.to_act
        if p is None:
            return False
        return self.can(Action(p, kind, amount))

    def can_fold(self) -> bool:
        return self._can_act(ActionKind.FOLD)

    def can_check(self) -> bool:
        return self._can_act(ActionKind.CHECK)

    def can_call(self) -> bool:
        """There is a bet to call (a check is :meth:`can_check`)."""
        return self.legal().call is not None

    def can_check_or_call(self) -> bool:
        return self._can_act(ActionKind.CALL)

    def can_raise(self, to: int | None = None) -> bool:
        """May the player to act bet or raise (to ``to``, when given)?"""
        if to is None:
            return self.legal().min_to is not None
        return self._can_act(ActionKind.RAISE, to)

    can_bet = can_raise

    def can_complete(self) -> bool:
        return self.legal().complete_to is not None

    def can_bring_in(self) -> bool:
        return self.legal().bring_in

    def __repr__(self) -> str:
        return (f"Hand({self.config.game.value}, {self.street.value}, {self.phase.value}, "
                f"to_act={self.to_act}, stacks={list(self._stacks)}, bets={self._bets})")

    def __eq__(self, other: object) -> bool:
        """Two hands are equal when their configuration and events are equal."""
        if not isinstance(other, Hand):
            return NotImplemented
        return self.config == other.config and self._events == other._events

    __hash__ = None  # type: ignore[assignment]

    def snapshot(self) -> dict[str, Any]:
        """Every observable value, for comparisons in tests and the dealer screen."""
        return {
            "to_act": self.to_act, "street": self.street.value, "phase": self.phase.value,
            "stacks": self.stacks, "bets": self.bets, "contributions": self.contributions,
            "dead_money": self._dead, "live": self.live, "board": self._board,
            "holes": self.hole_cards, "legal": self.legal(), "level": self._level,
        }


_UNNAMED: dict[int, HighHand] = {}


def _unnamed(strength: int) -> HighHand:
    """A hand that wins nothing needs only its strength to be compared: it is named
    by its category alone, and such values are shared (HighHand is immutable)."""
    hand = _UNNAMED.get(strength)
    if hand is None:
        category = hands.category_of(strength)
        hand = _UNNAMED[strength] = HighHand(strength, (), category, category)
    return hand


# What _clone copies: the list attributes get fresh copies, the rest is shared (immutable).
_LIST_SLOTS = tuple(n for n in Hand.__slots__ if str(Hand.__annotations__[n]).startswith("list["))
_VALUE_SLOTS = tuple(n for n in Hand.__slots__ if n not in _LIST_SLOTS)


def interpret_silent_amount(hand: Hand, chips_pushed: int) -> Action:
    """What a silent push of ``chips_pushed`` chips means (TDA 2024 rule 43-A, 45).

    Facing a bet, chips short of a full raise are a call unless they reach at
    least half of the minimum raise increment, in which case the player must make
    a full minimum raise.  His last chips are all-in whatever they come to.
    Not facing a bet, the chips are a bet of that amount (at least the minimum bet).
    In pot-limit, chips beyond the pot are returned: the push is a pot-size raise.

    [MR-5] No-limit, opening bet 1000: pushing 1400 is a call; pushing 1500 is a
    raise to 2000.
    """
    p = hand.to_act
    if p is None:
        raise RuleViolation("Nobody is to act")
    legal = hand.legal()
    own = hand.bets[p]
    stack = hand._stacks[p]
    if chips_pushed <= 0:
        raise RuleViolation("No chips were pushed")
    level = hand.current_bet
    if chips_pushed >= stack:
        all_in = own + stack
        if legal.max_to is not None and all_in > legal.max_to:
            # Pot-limit (or fixed-limit) cap: the excess goes back (TDA 52-B).
            return Action(p, ActionKind.RAISE, legal.max_to)
        if legal.min_to is None and all_in > level and not legal.bring_in:
            return Action(p, ActionKind.CALL)
        return Action(p, ActionKind.ALL_IN)
    if legal.bring_in:
        if legal.complete_to is not None and own + chips_pushed >= legal.complete_to:
            return Action(p, ActionKind.COMPLETE, legal.complete_to)
        return Action(p, ActionKind.BRING_IN)
    to = own + chips_pushed
    if legal.min_to is None or legal.max_to is None:
        return Action(p, ActionKind.CALL)
    if level <= own:
        return Action(p, ActionKind.BET, min(max(to, legal.min_to), legal.max_to))
    if to <= level:
        return Action(p, ActionKind.CALL)
    needed = legal.min_to - level
    if 2 * (to - level) >= needed:
        return Action(p, ActionKind.RAISE, min(max(to, legal.min_to), legal.max_to))
    return Action(p, ActionKind.CALL)
