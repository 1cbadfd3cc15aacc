"""Floor rulings for the dealer tablet's rulings panel (RULES.md §2.7-2.8, §3.5-3.7, §4, §5).

Each function takes the situation as plain values (deal positions, number of
players, the amounts in front of the player, whether substantial action has
happened, the house policy) and returns a :class:`Ruling`: a short decision key,
the rule and its source, the English sentence for the dealer (a template with
``{placeholders}`` that the web layer translates) and the *effect* the dealer
screen applies to the hand when the dealer confirms.

An effect is either a hand event from :mod:`director.poker.events` (``Misdeal``,
``Kill``, ``CheckByClock``, ``Action``), which the screen applies with
``hand.apply(effect)``, or one of the procedure values defined here
(``ReplaceCard``, ``ScrambleBurn``, ``RedealStreet``, ...), which describe what
the dealer does with the physical cards and chips and change nothing the
engine records (or, for ``CorrectRaise`` and ``DeadHandAnteReturned``, ask the
service to amend the recorded hand).  ``None`` means nothing to apply.

Players are indices into the hand's player list, as everywhere in the engine
(flop games: PHH order, index 0 = first seat clockwise from the button, so the
deal goes index 0, 1, 2, ... in every pass, heads-up included).  Sentences name
*seats*: pass ``seats`` (the seat number of each index) or get index + 1.

Where sources differ the TDA 2024 answer is the default and the alternative is
a :class:`RulingPolicy` flag (RULES.md §11.1).

[MD-3] Six-handed Omaha, card 9 (seat 3's second card) flashed:

>>> r = exposed_card_on_deal([9], players=6)
>>> r.decision, r.text
('replace_card', "Seat 3's card number 2 (card 9 off the deck) was exposed. Finish the deal; then seat 3 gets the next card from the stub (card 25) and the exposed card is the burn for the flop")
>>> r.effect
ReplaceCard(player=2, becomes='flop burn')

[CLK-2] The clock runs out on a player who faces no bet:

>>> clock_expiry(False, player=0).effect
CheckByClock(player=0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, ClassVar

from director.poker.cards import Card
from director.poker.errors import N_, RuleViolation
from director.poker.events import (
    FOLD_OUT_OF_TURN,
    Action,
    ActionKind,
    CheckByClock,
    DealHole,
    Kill,
    Misdeal,
    event_to_json,
)
from director.poker.games import Game
from director.poker.hands import bring_in_order
from director.poker.policy import FlagSet
from director.poker.shot_clock import (
    EXPIRY_CHOICES,
    SHOT_CLOCK_CHOICES,
    TIME_BANK_CARD_CHOICES,
    TIME_BANK_PER_CHOICES,
)
from director.poker.state import Hand, Street

OMAHA_HOLE_CARDS = 4
STUD_INITIAL_CARDS = 3
DECK_SIZE = 52


# --------------------------------------------------------------------------- policy

_CHOICES: dict[str, tuple[str, ...]] = {
    "stud_one_downcard_exposed": ("up-card", "misdeal"),
    "stud_two_downcards_exposed": ("misdeal", "dead-hand"),
    "absent_player_kill_point": ("end-of-deal", "first-card", "action"),
    "clock_seconds": ("25+5", "60+10"),
    "premature_turn_procedure": ("reshuffle", "set-aside"),
    "shot_clock": SHOT_CLOCK_CHOICES,
    "shot_clock_expiry": EXPIRY_CHOICES,
    "time_bank_cards": TIME_BANK_CARD_CHOICES,
    "time_bank_per": TIME_BANK_PER_CHOICES,
}


@dataclass(frozen=True, slots=True)
class RulingPolicy(FlagSet):
    """The house flags of RULES.md §11.1 that change a ruling (defaults: TDA 2024).

    * ``stud_one_downcard_exposed``: "up-card" (TDA RP-10-A, RRP *Stud* 5: the
      exposed down-card becomes the up-card, the third card is dealt down) or
      "misdeal" (WSOP-T 88-a-6, old TDA, RRP *Tournaments*).
    * ``stud_two_downcards_exposed``: "misdeal" before substantial action (our
      suggestion; TDA is silent) or "dead-hand" with the ante returned (RRP *Stud* 5).
    * ``absent_player_kill_point``: "end-of-deal" (TDA 30, 2024), "first-card"
      (TDA 2013, some houses) or "action" (cash: killed when the action reaches him).
    * ``clock_seconds``: "25+5" (TDA 29, 2024) or "60+10" (older TDA, WSOP-LA).
    * ``premature_turn_procedure``: "reshuffle" (TDA RP-5) or "set-aside" (RRP).
    * ``shot_clock``: seconds per action, "off" (TDA has none), "30", "45" or "60";
      ``shot_clock_expiry`` "dead" or "check-fold"; ``time_bank_cards`` per player
      ("0" to "4") per ``time_bank_per`` "level" or "day" (``director.poker.shot_clock``).

    >>> RulingPolicy.from_json({"clock_seconds": "60+10"}).clock_seconds
    '60+10'
    """

    stud_one_downcard_exposed: str = "up-card"
    stud_two_downcards_exposed: str = "misdeal"
    absent_player_kill_point: str = "end-of-deal"
    clock_seconds: str = "25+5"
    premature_turn_procedure: str = "reshuffle"
    shot_clock: str = "off"
    shot_clock_expiry: str = "dead"
    time_bank_cards: str = "0"
    time_bank_per: str = "level"

    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = _CHOICES

    def __post_init__(self) -> None:
        self._check_choices()


DEFAULT_RULING_POLICY = RulingPolicy()


# --------------------------------------------------------------------------- effects


@dataclass(frozen=True, slots=True)
class ReplaceCard:
    """Finish the deal, then give ``player`` the next card from the stub; his
    exposed card becomes ``becomes`` (RRP Hold'em irregularities 1)."""

    player: int
    becomes: str = "flop burn"
    type: ClassVar[str] = "replace_card"


@dataclass(frozen=True, slots=True)
class DealMissingCards:
    """Give ``player`` (the button) ``count`` cards from the top of the stub (TDA 35-B, 37)."""

    player: int
    count: int
    type: ClassVar[str] = "deal_missing_cards"


@dataclass(frozen=True, slots=True)
class ScrambleBurn:
    """Scramble ``scrambled`` cards face down; the floor picks one at random as
    the burn; the rest, plus ``from_stub`` cards off the stub, are the ``street``
    (TDA 39-A, 39-B).  The board cards entered for that street are re-entered."""

    street: str
    scrambled: int
    from_stub: int
    type: ClassVar[str] = "scramble_burn"


@dataclass(frozen=True, slots=True)
class RedealStreet:
    """Deal ``street`` (``cards`` cards) again after the betting, without a new burn.

    ``method`` "reshuffle": the premature cards go back into the stub, which is
    reshuffled face down (TDA RP-5).  "set-aside": RRP's premature-turn procedure.
    "burn-and-next": the card dealt becomes the burn and the next card replaces it.
    ``cards`` is 0 for a stud street (one card to each player still in).
    The board cards entered for that street are removed.
    """

    street: str
    cards: int
    method: str = "reshuffle"
    type: ClassVar[str] = "redeal_street"


@dataclass(frozen=True, slots=True)
class UpCard:
    """Stud: ``player``'s exposed down-card is his up-card; his third card is dealt down."""

    player: int
    card: Card | None
    type: ClassVar[str] = "up_card"


@dataclass(frozen=True, slots=True)
class DeadHandAnteReturned:
    """Stud: ``player``'s hand is dead and his ``ante`` goes back to him (RRP *Stud* 5)."""

    player: int
    ante: int
    type: ClassVar[str] = "dead_hand_ante_returned"


@dataclass(frozen=True, slots=True)
class SeventhStreet:
    """Stud 7th street with a short stub (TDA RP-10-H).

    ``reshuffle_burns``: scramble the stub with the three earlier burns, cut, burn
    one.  ``community_card``: one card face up in the middle, shared by everyone.
    """

    reshuffle_burns: bool
    community_card: bool
    type: ClassVar[str] = "seventh_street"


@dataclass(frozen=True, slots=True)
class CorrectRaise:
    """``player``'s short bet or raise becomes a bet or raise to ``to``; players
    who called it put in the corrected amount (TDA 52-A)."""

    player: int
    to: int
    type: ClassVar[str] = "correct_raise"


Procedure = (ReplaceCard | DealMissingCards | ScrambleBurn | RedealStreet | UpCard
             | DeadHandAnteReturned | SeventhStreet | CorrectRaise)
Effect = Misdeal | Kill | CheckByClock | Action | Procedure


def effect_to_json(effect: Effect | None) -> dict[str, Any] | None:
    """An effect as a JSON dict with a ``type`` key (events exactly as :func:`event_to_json`).

    >>> effect_to_json(ReplaceCard(2))
    {'type': 'replace_card', 'player': 2, 'becomes': 'flop burn'}
    >>> effect_to_json(Kill(3, "clock"))
    {'type': 'kill', 'player': 3, 'reason': 'clock'}
    """
    if effect is None:
        return None
    if isinstance(effect, Misdeal | Kill | CheckByClock | Action):
        return event_to_json(effect)
    out: dict[str, Any] = {"type": effect.type}
    for f in fields(effect):
        value = getattr(effect, f.name)
        out[f.name] = str(value) if isinstance(value, Card) else value
    return out


# --------------------------------------------------------------------------- the ruling


class Decision(StrEnum):
    """The short keys the dealer screen switches on."""

    MISDEAL = "misdeal"
    REPLACE_CARD = "replace_card"
    SCRAP_CARD = "scrap_card"
    BURN_CARD = "burn_card"
    DEAL_MISSING_CARD = "deal_missing_card"
    HAND_DEAD = "hand_dead"
    HAND_CHECKED = "hand_checked"
    PLAY_ON = "play_on"
    SCRAMBLE_BURN = "scramble_burn"
    RESHUFFLE_AND_REDEAL = "reshuffle_and_redeal"
    SET_ASIDE = "set_aside"
    BECOMES_UP_CARD = "becomes_up_card"
    DEAD_HAND_ANTE_RETURNED = "dead_hand_ante_returned"
    DEAL_DOWN = "deal_down"
    RESHUFFLE_BURNS = "reshuffle_burns"
    COMMUNITY_CARD = "community_card"
    BINDING = "binding"
    NOT_BINDING = "not_binding"
    CALL = "call"
    BET = "bet"
    RAISE_TO = "raise_to"
    ALL_IN = "all_in"
    FLOOR_DECIDES = "floor_decides"
    BACKS_UP = "backs_up"


@dataclass(frozen=True, slots=True)
class Ruling:
    """A floor ruling: what happens, by which rule, in a sentence, and what to apply.

    ``decision`` is a :class:`Decision` key; ``rule`` the source ("TDA 35-A item 7");
    ``template`` the English sentence with ``{placeholders}`` filled from ``params``
    (the msgid the web layer translates); ``effect`` what the screen applies when the
    dealer confirms (None: nothing).  ``call_floor`` marks rulings the rules give to
    the floor (a TD must come to the table or decide).

    >>> r = Ruling("misdeal", "TDA 35-A item 7", "Card {n} was exposed: misdeal", {"n": 1}, Misdeal())
    >>> r.text
    'Card 1 was exposed: misdeal'
    """

    decision: str
    rule: str
    template: str
    params: dict[str, Any] = field(default_factory=dict, hash=False)
    effect: Effect | None = None
    call_floor: bool = False

    def __post_init__(self) -> None:
        # A Decision member is stored as its plain string key (equal to the member).
        object.__setattr__(self, "decision", str(self.decision))

    @property
    def text(self) -> str:
        """The English sentence for the dealer."""
        return self.template.format(**self.params)

    def to_json(self) -> dict[str, Any]:
        return {
            "decision": str(self.decision),
            "rule": self.rule,
            "template": self.template,
            "params": dict(self.params),
            "text": self.text,
            "effect": effect_to_json(self.effect),
            "call_floor": self.call_floor,
        }


def _seat(player: int, seats: Sequence[int] | None) -> int:
    """The seat number a sentence names for player index ``player``."""
    if seats is None:
        return player + 1
    if not 0 <= player < len(seats):
        raise RuleViolation("There is no player {player} at this table", player=player + 1)
    return seats[player]


def _chips(name: str, value: int, *, minimum: int = 0) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise RuleViolation("{name} must be a whole number of chips of at least {minimum}, not {value}",
                            name=name, minimum=minimum, value=value)


# --------------------------------------------------------------------------- substantial action

_PUTS_CHIPS_IN = frozenset({ActionKind.CALL, ActionKind.BET, ActionKind.RAISE,
                            ActionKind.COMPLETE, ActionKind.ALL_IN})


def substantial_action(actions: Iterable[ActionKind | str]) -> bool:
    """Whether substantial action has happened (TDA 36, RULES.md §0.2).

    ``actions`` are the actions taken *in turn* so far, in order; posted blinds,
    antes and the stud bring-in are forced bets and are left out.  Substantial
    action is (a) two actions of which at least one puts chips in the pot, or
    (b) any three actions.  After it no misdeal can be called (TDA 35-D).

    >>> substantial_action(["check", "check"]), substantial_action(["fold", "call"])
    (False, True)
    >>> substantial_action(["fold", "fold", "fold"])
    True
    """
    kinds = [ActionKind(a) for a in actions]
    if ActionKind.BRING_IN in kinds:
        kinds = [k for k in kinds if k is not ActionKind.BRING_IN]
    return len(kinds) >= 3 or (len(kinds) == 2 and any(k in _PUTS_CHIPS_IN for k in kinds))


# --------------------------------------------------------------------------- Omaha deal


def dealt_to(position: int, players: int) -> tuple[int, int]:
    """Who receives the card at deal ``position`` (1 = first card off the deck), and
    which of his cards it is (1-4): ``(player, card_number)``.

    Cards go one at a time, starting left of the button and ending on the button,
    four passes (RULES.md §1.1).  In PHH order that is index 0, 1, ... in every pass,
    heads-up included (the big blind, index 0, gets the first card).

    >>> dealt_to(9, 6)      # [MD-3] six-handed: seat 3's second card
    (2, 2)
    >>> dealt_to(2, 2)      # heads-up: the second card goes to the button
    (1, 1)
    """
    if not 2 <= players <= 10:
        raise RuleViolation("Omaha is dealt to 2 to 10 players, not {players}", players=players)
    if not 1 <= position <= OMAHA_HOLE_CARDS * players:
        raise RuleViolation("Deal position {position} is not a hole card: {players} players get cards 1 to {last}",
                            position=position, players=players, last=OMAHA_HOLE_CARDS * players)
    return (position - 1) % players, (position - 1) // players + 1


def deal_position(player: int, card_number: int, players: int) -> int:
    """The deal position (1 = first card off the deck) of ``player``'s ``card_number``-th
    card (1-4): the inverse of :func:`dealt_to`.

    The dealer with the deck in his hand knows whose card it was and which of that
    player's cards, not how many cards came off before it.  Every player of the hand
    gets cards, an absent (dead) one too (TDA 30), so he counts in each pass.

    >>> deal_position(2, 2, 6)      # [MD-3] six-handed: seat 3's second card is card 9
    9
    >>> deal_position(5, 1, 6)      # the button's first card is the sixth off the deck
    6
    """
    if not 2 <= players <= 10:
        raise RuleViolation("Omaha is dealt to 2 to 10 players, not {players}", players=players)
    if not 0 <= player < players:
        raise RuleViolation("There is no player {player} at this table", player=player + 1)
    if not 1 <= card_number <= OMAHA_HOLE_CARDS:
        raise RuleViolation("Give 1 to 4: which of the seat's cards was exposed")
    return (card_number - 1) * players + player + 1


_NTH = ("first", "second", "third", "fourth")
"""Which of a player's cards, as the sentences say it (``{nth}``, translated by the web layer)."""


def exposed_card_on_deal(
    positions: Sequence[int],
    *,
    players: int,
    game: Game = Game.PO,
    substantial_action: bool = False,
    seats: Sequence[int] | None = None,
    seen: Mapping[int, Card | None] | None = None,
) -> Ruling:
    """Hole cards exposed by the dealer during an Omaha deal (TDA 35-A item 7, 35-D;
    Robert's Rules, Hold'em irregularities 1).

    ``positions`` are the deal positions of the exposed cards (1 = first card off
    the deck).  ``seen``: the dealer named them by seat and card instead
    (:func:`deal_position` gives the positions), ``{position: the card or None}``;
    the sentence then names the seat, which of his cards it was and the card, never
    a deal position.  Before substantial action:

    * one of the first two cards off the deck (the small blind's and the big
      blind's first cards; heads-up the big blind's and the button's) -> misdeal
      (TDA 35-A item 7);
    * any two exposed down-cards -> misdeal (TDA 35-A item 7, Robert's Rules);
    * a single other card -> the deal goes on, the player gets the next card from
      the stub when the deal is complete and the exposed card is the flop burn, so
      the flop is the cards it would have been (Robert's Rules, Hold'em irregularities 1).

    After substantial action no misdeal can be called: the hand plays on (TDA 35-D).

    [MD-1] card 1 flashed, six-handed: misdeal.

    >>> exposed_card_on_deal([1], players=6).decision
    'misdeal'

    [MD-3] named by seat: seat 3's second card, the A♠.

    >>> from director.poker.cards import parse_card
    >>> exposed_card_on_deal([9], players=6, seen={9: parse_card("As")}).text
    "Seat 3's second card (A♠) was exposed. Finish the deal; then seat 3 gets the next card from the stub and the exposed card is the burn for the flop"
    """
    if game.is_stud:
        raise RuleViolation("In stud use the ruling for exposed stud down-cards", rule="TDA RP-10-A")
    if not positions:
        raise RuleViolation("Name the deal position of the exposed card")
    if len(set(positions)) != len(positions):
        raise RuleViolation("Each exposed card has its own deal position")
    placed = [dealt_to(p, players) for p in sorted(positions)]
    first = sorted(positions)[0]
    player, number = placed[0]
    params: dict[str, Any] = {
        "position": first,
        "seat": _seat(player, seats),
        "card_number": number,
        "count": len(positions),
        "positions": ", ".join(str(p) for p in sorted(positions)),
    }
    if seen is not None:
        _name_the_card(params, seen.get(first))
    if substantial_action:
        return Ruling(
            Decision.PLAY_ON, "TDA 35-D",
            N_("Substantial action has taken place, so no misdeal can be called: the hand plays on"),
            params,
        )
    early = [p for p in sorted(positions) if p <= 2]
    if early:
        p, number = dealt_to(early[0], players)
        params.update(position=early[0], seat=_seat(p, seats), card_number=number)
        if seen is None:
            template = N_("Card {position} off the deck (seat {seat}) was exposed: one of the first two "
                          "cards off the deck is a misdeal")
        else:
            template = _name_the_card(params, seen.get(early[0]), (
                N_("Seat {seat}'s {nth} card was exposed: one of the first two cards off the deck "
                   "is a misdeal"),
                N_("Seat {seat}'s {nth} card ({card}) was exposed: one of the first two cards off "
                   "the deck is a misdeal")))
        return Ruling(Decision.MISDEAL, "TDA 35-A item 7", template, params, Misdeal("exposed card"))
    if len(positions) >= 2:
        if seen is None:
            template = N_("{count} down-cards were exposed (cards {positions} off the deck): misdeal")
        else:
            owners = list(dict.fromkeys(_seat(p, seats) for p, _n in placed))
            params["seats"] = ", ".join(str(s) for s in owners)
            template = (N_("{count} of seat {seat}'s down-cards were exposed: misdeal") if len(owners) == 1
                        else N_("{count} down-cards were exposed (seats {seats}): misdeal"))
        return Ruling(Decision.MISDEAL, "TDA 35-A item 7", template, params, Misdeal("exposed cards"))
    params["replacement"] = OMAHA_HOLE_CARDS * players + 1
    if seen is None:
        template = N_("Seat {seat}'s card number {card_number} (card {position} off the deck) was exposed. "
                      "Finish the deal; then seat {seat} gets the next card from the stub (card {replacement}) "
                      "and the exposed card is the burn for the flop")
    else:
        template = _name_the_card(params, seen.get(first), (
            N_("Seat {seat}'s {nth} card was exposed. Finish the deal; then seat {seat} gets the next "
               "card from the stub and the exposed card is the burn for the flop"),
            N_("Seat {seat}'s {nth} card ({card}) was exposed. Finish the deal; then seat {seat} gets "
               "the next card from the stub and the exposed card is the burn for the flop")))
    return Ruling(Decision.REPLACE_CARD, "Robert's Rules, Hold'em irregularities 1", template, params,
                  ReplaceCard(player))


def _name_the_card(params: dict[str, Any], card: Card | None,
                   templates: tuple[str, str] = ("", "")) -> str:
    """Put which of his cards (``nth``) and the card (``card``, "" if not named) in
    ``params``; the template of ``templates`` (without the card, with it) that fits."""
    params["nth"] = _NTH[params["card_number"] - 1]
    params["card"] = card.symbol if card is not None else ""
    return templates[card is not None]


def boxed_cards(count: int, *, initial_deal: bool = True, substantial_action: bool = False) -> Ruling:
    """Cards found face up in the deck (RULES.md §4.3).

    One boxed card is a scrap of paper: shown, taken out, and the deal goes on with
    the next card.  Two or more in the initial deal, before substantial action, is a
    misdeal (TDA 35-A item 1).

    >>> boxed_cards(1).decision, boxed_cards(2).decision
    ('scrap_card', 'misdeal')
    """
    if count < 1:
        raise RuleViolation("Name how many boxed cards were found")
    params: dict[str, Any] = {"count": count}
    if count >= 2 and initial_deal and not substantial_action:
        return Ruling(Decision.MISDEAL, "TDA 35-A item 1",
                      N_("{count} boxed cards in the initial deal: misdeal"), params, Misdeal("boxed cards"))
    return Ruling(
        Decision.SCRAP_CARD, "TDA 35-A item 1; Robert's Rules, Irregularities (boxed card)",
        N_("A boxed card is treated as a scrap of paper: show it, take it out of play and deal "
        "the next card in its place") if count == 1 else
        N_("Each boxed card is treated as a scrap of paper: show it, take it out of play and deal "
        "the next card in its place"),
        params,
    )


def wrong_number_of_cards(
    player: int,
    cards: int,
    *,
    game: Game = Game.PO,
    substantial_action: bool = False,
    is_button: bool = False,
    has_acted: bool = False,
    seats: Sequence[int] | None = None,
) -> Ruling:
    """A player dealt too many or too few cards (TDA 35-A item 5, 35-D, 37; RULES.md [MD-5], [MD-6]).

    Before substantial action: misdeal.  After it: that hand is dead, and the dealer
    still burns exactly one card before the next street (TDA 38: burns protect the
    stub, they do not restore card order).  Button exception (TDA 35-B, 37): a button
    dealt too few cards gets the missing card(s) from the stub, even after
    substantial action, as long as he says so before acting; if he checks or bets
    with too few cards his hand is dead.

    >>> wrong_number_of_cards(3, 5).decision                            # [MD-5]
    'misdeal'
    >>> wrong_number_of_cards(3, 5, substantial_action=True).effect
    Kill(player=3, reason='wrong number of cards')
    """
    expected = STUD_INITIAL_CARDS if game.is_stud else OMAHA_HOLE_CARDS
    if cards == expected:
        raise RuleViolation("{cards} cards is the right number for {game}", cards=cards, game=game.label)
    if cards < 0:
        raise RuleViolation("A player cannot hold {cards} cards", cards=cards)
    params: dict[str, Any] = {"seat": _seat(player, seats), "cards": cards, "expected": expected}
    if is_button and cards < expected and not game.is_stud:
        params["missing"] = expected - cards
        if not has_acted:
            return Ruling(
                Decision.DEAL_MISSING_CARD, "TDA 37; TDA 35-B",
                N_("The button (seat {seat}) was dealt {cards} cards and said so before acting: "
                "give him {missing} card(s) from the top of the stub"),
                params, DealMissingCards(player, expected - cards),
            )
        return Ruling(
            Decision.HAND_DEAD, "TDA 37",
            N_("The button (seat {seat}) acted with {cards} cards instead of {expected}: his hand is dead"),
            params, Kill(player, "wrong number of cards"),
        )
    if not substantial_action:
        return Ruling(
            Decision.MISDEAL, "TDA 35-A item 5",
            N_("Seat {seat} was dealt {cards} cards instead of {expected} before substantial action: misdeal"),
            params, Misdeal("wrong number of cards"),
        )
    return Ruling(
        Decision.HAND_DEAD, "TDA 35-D; TDA 38",
        N_("Seat {seat} has {cards} cards instead of {expected} after substantial action: his hand "
        "is dead and the hand plays on. Burn exactly one card before the next street as usual"),
        params, Kill(player, "wrong number of cards"),
    )


def fouled_deck(duplicate: Card | None = None, *, hand_finished: bool = False) -> Ruling:
    """A fouled deck (a duplicate card) voids the hand at any time before it ends,
    substantial action or not: all bets are returned (TDA 35-E).  Once the hand is
    over, the result stands (TDA 35-E, 22).

    >>> fouled_deck().effect
    Misdeal(reason='fouled deck')
    """
    params: dict[str, Any] = {"card": duplicate.symbol if duplicate is not None else ""}
    if hand_finished:
        return Ruling(Decision.PLAY_ON, "TDA 35-E; TDA 22",
                      N_("The hand is over: a fouled deck found now does not change its result"), params)
    template = (N_("The {card} appears twice: the deck is fouled. The hand is void and every bet goes back")
                if duplicate is not None else
                N_("The deck is fouled: the hand is void and every bet goes back"))
    return Ruling(Decision.MISDEAL, "TDA 35-E", template, params, Misdeal("fouled deck"))


def wrong_button(button_seat: int, *, substantial_action: bool = False) -> Ruling:
    """The dealer button was out of position when the hand was dealt (the tablet shows
    where it goes: ``button_seat``).  Before substantial action it is a misdeal and the
    hand is redealt with the button where it belongs (Robert's Rules, Irregularities:
    "the button was out of position"; TDA 35-A lists misdeals "not limited to" its items).
    After substantial action no misdeal can be called: the hand plays on and the button
    goes to its place for the next hand (TDA 35-D).

    >>> wrong_button(4).decision, wrong_button(4, substantial_action=True).decision
    ('misdeal', 'play_on')
    """
    params: dict[str, Any] = {"button": button_seat}
    if substantial_action:
        return Ruling(Decision.PLAY_ON, "TDA 35-D",
                      N_("Substantial action has taken place: the hand plays on. Put the button on seat "
                         "{button} for the next hand"), params)
    return Ruling(Decision.MISDEAL, "Robert's Rules, Irregularities; TDA 35-A",
                  N_("The button was out of position: misdeal. Put the button on seat {button} and "
                     "deal again"), params, Misdeal("button out of position"))


# --------------------------------------------------------------------------- board errors


def flop_irregularity(cards: int, *, burned: bool = True, action_on_flop: bool = False) -> Ruling:
    """A flop of the wrong size or dealt without a burn (TDA 39-A, 39-B; RULES.md §4.5).

    * Four cards (exposed or not): call the floor; the dealer scrambles the four face
      down, the floor picks one at random as the next burn, the other three are the
      flop (TDA 39-A).
    * More than four: the cards go back into the stub, which is reshuffled; the burn
      stays; a new flop is dealt without a burn (WSOP-LA 163).
    * Three cards without a burn, no action yet: scramble the three face down, one is
      picked as the burn, the flop is the other two plus the next card off the stub.
      Once anyone has acted (even a check) the flop stands, and the turn gets its
      normal single burn (TDA 39-B).

    >>> flop_irregularity(4).effect
    ScrambleBurn(street='flop', scrambled=4, from_stub=0)
    """
    params: dict[str, Any] = {"cards": cards}
    if cards == 4:
        return Ruling(
            Decision.SCRAMBLE_BURN, "TDA 39-A",
            N_("A four-card flop: scramble the four cards face down; the floor picks one at random as "
            "the next burn card and the other three are the flop"),
            params, ScrambleBurn("flop", 4, 0), call_floor=True,
        )
    if cards > 4:
        return Ruling(
            Decision.RESHUFFLE_AND_REDEAL, "TDA 39-A; WSOP-LA 163",
            N_("{cards} cards were flopped: the burn stays, the board cards go back into the stub, which "
            "is reshuffled face down, and a new flop is dealt without a burn"),
            params, RedealStreet("flop", 3), call_floor=True,
        )
    if cards < 3:
        raise RuleViolation("A flop of {cards} cards: deal the missing flop cards from the stub", cards=cards)
    if burned:
        return Ruling(Decision.PLAY_ON, "TDA 39", N_("The flop was dealt correctly"), params)
    if action_on_flop:
        return Ruling(
            Decision.PLAY_ON, "TDA 39-B",
            N_("The flop was dealt without a burn but there has been action on it: the flop stands, "
            "and the turn is dealt with its normal single burn"),
            params,
        )
    return Ruling(
        Decision.SCRAMBLE_BURN, "TDA 39-B",
        N_("The flop was dealt without a burn and nobody has acted: scramble the three cards face "
        "down; the floor picks one as the burn; the flop is the other two and the next card "
        "off the stub"),
        params, ScrambleBurn("flop", 3, 1), call_floor=True,
    )


def missing_burn(street: str, *, action_on_street: bool = False) -> Ruling:
    """The turn or river was dealt without a burn card (RULES.md §4.5; RRP, WSOP-LA 165).

    Found before anyone acts on that street, the error is corrected: the card
    dealt becomes the burn and the next card off the stub is the turn (river).
    Once there has been action on the card, it stands.  (A flop without a burn is
    :func:`flop_irregularity`, TDA 39-B.)

    >>> missing_burn("turn").decision, missing_burn("turn", action_on_street=True).decision
    ('burn_card', 'play_on')
    """
    if street == "flop":
        return flop_irregularity(3, burned=False, action_on_flop=action_on_street)
    if street not in ("turn", "river"):
        raise RuleViolation("Board streets are flop, turn and river, not {street}", street=street)
    params: dict[str, Any] = {"street": street}
    if action_on_street:
        return Ruling(Decision.PLAY_ON, "Robert's Rules, Hold'em irregularities; WSOP-LA 165",
                      N_("The {street} was dealt without a burn, but there has been action on it: it stands"),
                      params)
    return Ruling(
        Decision.BURN_CARD, "Robert's Rules, Hold'em irregularities; WSOP-LA 165",
        N_("The {street} was dealt without a burn and nobody has acted: that card becomes the burn, "
        "and the next card off the stub is the {street}"),
        params, RedealStreet(street, 1, "burn-and-next"),
    )


_BOARD_CARDS = {"flop": 3, "turn": 1, "river": 1}
_STUD_STREETS = ("4th", "5th", "6th", "7th")


def premature_card(street: str, *, game: Game = Game.PO,
                   policy: RulingPolicy = DEFAULT_RULING_POLICY) -> Ruling:
    """Board cards dealt before the betting ended (TDA RP-5; WSOP-LA 167; RULES.md §4.6).

    TDA: the burn stays a burn, the premature cards go back into the stub, the stub
    is reshuffled face down (TDA 39-D), the betting is completed, and the street is
    dealt again **without** another burn.  Stud (4th-7th street): the same
    (TDA RP-5-D).  With ``premature_turn_procedure="set-aside"`` (RRP) a premature
    turn is set aside, the card that would have been the river is burned-and-turned
    as the turn, and after that round the stub is reshuffled with the set-aside card
    and the river is turned without a burn.  A premature card may not be used even
    if everyone then folds (WSOP-LA 166).

    [PRE-1] Flop dealt while the big blind still had to act:

    >>> premature_card("flop").effect
    RedealStreet(street='flop', cards=3, method='reshuffle')
    """
    if game.is_stud:
        if street not in _STUD_STREETS:
            raise RuleViolation("Stud streets are {streets}, not {street}",
                                streets=", ".join(_STUD_STREETS), street=street)
        return Ruling(
            Decision.RESHUFFLE_AND_REDEAL, "TDA RP-5-D",
            N_("The {street} street cards were dealt too soon: return them to the stub and reshuffle it "
            "face down; finish the betting, then deal {street} street again without another burn"),
            {"street": street}, RedealStreet(street, 0),
        )
    if street not in _BOARD_CARDS:
        raise RuleViolation("Board streets are flop, turn and river, not {street}", street=street)
    params: dict[str, Any] = {"street": street, "cards": _BOARD_CARDS[street]}
    if street == "turn" and policy.premature_turn_procedure == "set-aside":
        return Ruling(
            Decision.SET_ASIDE, "Robert's Rules, Hold'em irregularities 5",
            N_("The turn was dealt too soon: set it aside and finish the betting. Then burn and turn "
            "the card that would have been the river as the turn. After that round, reshuffle the "
            "stub with the set-aside card (not the burns or discards) and turn the river without a burn"),
            params, RedealStreet("turn", 1, "set-aside"),
        )
    return Ruling(
        Decision.RESHUFFLE_AND_REDEAL, "TDA RP-5",
        (N_("The flop was dealt too soon: the burn card stays a burn; put the three flop cards back "
         "into the stub and reshuffle it face down. Finish the betting, then deal a new flop "
         "from the top of the stub without another burn. The premature cards may not be used even "
         "if everyone folds")) if street == "flop" else
        (N_("The {street} was dealt too soon: the burn card stays a burn; put the {street} card back "
         "into the stub and reshuffle it face down. Finish the betting, then deal the {street} again "
         "from the top of the stub without another burn. The premature card may not be used even "
         "if everyone folds")),
        params, RedealStreet(street, _BOARD_CARDS[street]),
    )


# --------------------------------------------------------------------------- stud


def _bring_in(up_cards: Mapping[int, Card]) -> int:
    """The player with the lowest up-card (ace high, suits ♣ < ♦ < ♥ < ♠)."""
    return min(up_cards, key=lambda p: bring_in_order(up_cards[p]))


def stud_exposed_downcards(
    player: int,
    exposed: Sequence[Card | None],
    *,
    up_cards: Mapping[int, Card] | None = None,
    ante: int = 0,
    substantial_action: bool = False,
    policy: RulingPolicy = DEFAULT_RULING_POLICY,
    seats: Sequence[int] | None = None,
    entered: Card | None = None,
) -> Ruling:
    """Down-cards exposed by the dealer on the stud initial deal (RULES.md §3.5).

    ``exposed`` are the exposed down-cards in deal order (``None`` if not known);
    ``up_cards`` the other players' up-cards by player index (for naming the
    bring-in); ``entered`` his third-street up-card when the street was entered
    before the ruling (None: not entered, or entered unseen).

    * One exposed, policy "up-card" (TDA RP-10-A, RRP *Stud* 5): it becomes his
      up-card and his third card is dealt face down; he may become the bring-in.
      Policy "misdeal": misdeal (WSOP-T 88-a-6) before substantial action.
      Ruled after his up-card was entered as another card, that card was dealt face
      up as his third card: it is too late to deal the third card down, so the cards
      as entered stand and the hand plays on; the exposed card stays a down-card
      everyone has seen (our reading of TDA RP-10-A and Robert's Rules, Stud 5, which
      only say how to deal the third card).  The ruling records the exposed card in
      the hand's log; nothing is undone.
    * Two exposed, policy "misdeal" (default; TDA silent): misdeal before substantial
      action.  Policy "dead-hand" (RRP *Stud* 5): his hand is dead, his ante is
      returned; if his first exposed card would have been the low card, the player
      to his left acts first and may fold, bring in or complete.
    * Three exposed: misdeal (WSOP-LA 214).
    * After substantial action no misdeal can be called (TDA 35-D).

    [ST-10] Seat 4's first down-card, the 2♣, is flashed: it is his up-card.

    >>> from director.poker.cards import parse_card
    >>> stud_exposed_downcards(3, [parse_card("2c")]).decision
    'becomes_up_card'
    """
    count = len(exposed)
    if not 1 <= count <= STUD_INITIAL_CARDS:
        raise RuleViolation("Between 1 and 3 initial stud cards can be exposed, not {count}", count=count)
    _chips("The ante", ante)
    others = dict(up_cards or {})
    others.pop(player, None)
    first = exposed[0]
    params: dict[str, Any] = {
        "seat": _seat(player, seats),
        "count": count,
        "card": first.symbol if first is not None else "",
        "ante": ante,
    }
    if substantial_action:
        return Ruling(Decision.PLAY_ON, "TDA 35-D",
                      N_("Substantial action has taken place, so no misdeal can be called: the hand plays on"),
                      params)
    if count == 1 and policy.stud_one_downcard_exposed == "up-card":
        if entered is not None and first is not None and entered != first:
            params["entered"] = entered.symbol
            return Ruling(Decision.PLAY_ON, "TDA RP-10-A",
                          N_("Seat {seat}'s exposed down-card {card} was not made his up-card: his third "
                             "card {entered} is already face up and entered. The cards stand and the hand "
                             "plays on; the {card} stays a down-card everyone has seen"), params)
        template = (N_("Seat {seat}'s exposed down-card {card} becomes his up-card; deal his third "
                    "card face down"))
        if first is not None and others:
            bring_in = _bring_in({**others, player: first})
            params["bring_in"] = _seat(bring_in, seats)
            template += N_(". Seat {bring_in} has the low card and brings in")
        return Ruling(Decision.BECOMES_UP_CARD, "TDA RP-10-A", template, params, UpCard(player, first))
    if count == 1:
        return Ruling(Decision.MISDEAL, "WSOP-T 88-a-6",
                      N_("Seat {seat}'s down-card was exposed on the initial deal: misdeal (house rule)"),
                      params, Misdeal("exposed down-card"))
    if count == 2 and policy.stud_two_downcards_exposed == "dead-hand":
        template = N_("Both of seat {seat}'s down-cards were exposed: his hand is dead and his ante ({ante}) goes back to him")
        if first is not None and others:
            if _bring_in({**others, player: first}) == player:
                later = sorted(p for p in others if p > player)
                left = later[0] if later else min(others)
                params["first_to_act"] = _seat(left, seats)
                template += (N_(". His first exposed card would have been the low card: seat {first_to_act} "
                             "acts first and may fold, bring in or complete"))
            else:
                params["bring_in"] = _seat(_bring_in(others), seats)
                template += N_(". Seat {bring_in} brings in")
        return Ruling(Decision.DEAD_HAND_ANTE_RETURNED, "Robert's Rules, Stud 5", template, params,
                      DeadHandAnteReturned(player, ante))
    if count == 2:
        return Ruling(Decision.MISDEAL, "TDA 35-A; WSOP-T 88-a-6",
                      N_("Both of seat {seat}'s down-cards were exposed on the initial deal: misdeal"),
                      params, Misdeal("exposed down-cards"))
    return Ruling(Decision.MISDEAL, "WSOP-LA 214",
                  N_("All three of seat {seat}'s initial cards were dealt face up: misdeal"),
                  params, Misdeal("exposed down-cards"))


def up_card_deal(hand: Hand, effect: UpCard) -> DealHole | None:
    """The event that records an exposed down-card as the player's up-card (TDA RP-10-A).

    On the third-street deal, before his cards are entered: his three cards are the
    two down-cards nobody saw and the exposed card face up (the PHH order: down,
    down, up), so the engine names the bring-in with it.  None when there is nothing
    to record: the card is not known, or his cards were entered with that up-card.
    Refused when his cards were entered with another up-card, or the deal is over.

    >>> from director.poker.cards import parse_card
    >>> from director.poker.games import Game
    >>> from director.poker.state import HandConfig
    >>> h = Hand.start(HandConfig(game=Game.F7S, starting_stacks=(1000,) * 3, antes=(10,) * 3,
    ...                           bring_in=25, small_bet=100, big_bet=200))
    >>> up_card_deal(h, UpCard(1, parse_card("2c")))
    DealHole(player=1, cards=(None, None, Card(rank=2, suit='c')))
    """
    card = effect.card
    p = effect.player
    if not hand.config.game.is_stud:
        raise RuleViolation("An exposed down-card becomes an up-card only in stud", rule="TDA RP-10-A")
    up = hand.up_cards(p)
    if up:
        if up[0] is None or card is None or up[0] == card:
            return None
        raise RuleViolation("{who}'s up-card is entered as {entered}: undo the deal and enter the exposed "
                            "{card} as his up-card", rule="TDA RP-10-A", who=hand.name(p),
                            entered=up[0].symbol, card=card.symbol)
    if hand.street is not Street.THIRD or hand.awaiting != "street":
        raise RuleViolation("The initial deal is over: the exposed card cannot become his up-card now",
                            rule="TDA RP-10-A")
    if card is None:
        return None
    return DealHole(p, (None, None, card))


def stub_before_seventh(players_per_street: Sequence[int]) -> int:
    """Cards left in the stub before 7th street: 52 minus the cards dealt on 3rd-6th
    street minus the 4th, 5th and 6th street burns (no burn before 3rd street).

    >>> stub_before_seventh([8, 8, 8, 8, 8])        # [ST-13]
    1
    """
    p = _streets(players_per_street)
    return DECK_SIZE - STUD_INITIAL_CARDS * p[0] - p[1] - p[2] - p[3] - 3


def _streets(players_per_street: Sequence[int]) -> tuple[int, ...]:
    p = tuple(players_per_street)
    if len(p) != 5:
        raise RuleViolation("Give the players on 3rd, 4th, 5th, 6th and 7th street ({count} given)",
                            count=len(p))
    if not 2 <= p[0] <= 8 or any(b > a for a, b in zip(p, p[1:], strict=False)) or p[-1] < 1:
        raise RuleViolation("Players per street must start at 2 to 8 and never grow: {players}",
                            players="/".join(str(n) for n in p))
    return p


def seventh_street(players_per_street: Sequence[int], stub: int | None = None) -> Ruling:
    """How to deal 7th street when the stub may be short (TDA RP-10-H; WSOP-LA 228).

    Required cards = players on 7th + 1 burn + 1 card that must stay undealt.

    1. Enough -> deal normally, face down.
    2. Not enough, but the stub plus the three earlier burns suffice -> scramble the
       stub with the burns, cut, burn one, deal everyone a card.
    3. Still not enough and the stub has 3 or more cards -> burn one and deal one
       community card face up.
    4. Stub under 3 cards -> scramble the stub with the 3 burns, cut, burn one, deal
       a community card.

    With a community card the player who acted first on 6th street acts first on 7th.
    ``stub`` defaults to :func:`stub_before_seventh`.

    >>> seventh_street([8, 6, 6, 6, 6]).decision      # [ST-15]
    'reshuffle_burns'
    """
    p = _streets(players_per_street)
    left = stub_before_seventh(p) if stub is None else stub
    if left < 0:
        raise RuleViolation("The stub cannot hold {stub} cards", stub=left)
    players = p[-1]
    params: dict[str, Any] = {"players": players, "stub": left, "required": players + 2,
                              "with_burns": left + 3}
    if left >= players + 2:
        return Ruling(Decision.DEAL_DOWN, "TDA RP-10-H",
                      N_("{stub} cards in the stub, {required} needed: deal 7th street normally, face down"),
                      params, None)
    if left + 3 >= players + 2:
        return Ruling(
            Decision.RESHUFFLE_BURNS, "TDA RP-10-H",
            N_("Only {stub} cards in the stub, {required} needed: scramble the stub with the three "
            "earlier burn cards ({with_burns} cards), cut, burn one and deal each of the {players} "
            "players a card"),
            params, SeventhStreet(reshuffle_burns=True, community_card=False),
        )
    if left >= 3:
        return Ruling(
            Decision.COMMUNITY_CARD, "TDA RP-10-H",
            N_("Only {stub} cards in the stub, {required} needed: burn one and deal one community card "
            "face up for everyone. The player who acted first on 6th street acts first"),
            params, SeventhStreet(reshuffle_burns=False, community_card=True),
        )
    return Ruling(
        Decision.COMMUNITY_CARD, "TDA RP-10-H",
        N_("Only {stub} cards in the stub: scramble them with the three earlier burn cards, cut, burn "
        "one and deal one community card face up for everyone. The player who acted first on 6th "
        "street acts first"),
        params, SeventhStreet(reshuffle_burns=True, community_card=True),
    )


# --------------------------------------------------------------------------- absent players, clock


class Presence(StrEnum):
    """By when an absent player was back at his seat ("within reach of the chair")."""

    FIRST_CARD = "first-card"    # before the first card of the deal
    END_OF_DEAL = "end-of-deal"  # during the deal, there when its last card was dealt
    ACTION = "action"            # after the deal, before the action reached him


_PRESENCE_ORDER = {Presence.FIRST_CARD: 0, Presence.END_OF_DEAL: 1, Presence.ACTION: 2}
_KILL_RULES = {
    "end-of-deal": ("TDA 30", "when the last card of the initial deal was dealt"),
    "first-card": ("TDA 30 (house rule: first card)", "when the first card was dealt"),
    "action": ("Robert's Rules (cash games)", "when the action reached him"),
}


def absent_player(
    player: int,
    back: Presence | str | None,
    *,
    game: Game = Game.PO,
    forced_bets: int = 0,
    low_card: bool = False,
    bring_in: int = 0,
    absent_for_original_deal: bool = False,
    policy: RulingPolicy = DEFAULT_RULING_POLICY,
    seats: Sequence[int] | None = None,
) -> Ruling:
    """A player away from his seat (TDA 30, 35-C; RP-10-C; RULES.md §5.1, §3.6).

    ``back`` says by when he was back at his seat (a :class:`Presence`), or None if
    he is still away.  By default (TDA 30) he must be at his seat when the last card
    of the initial deal has been dealt; otherwise his hand is killed at once and his
    blinds and antes (``forced_bets``) stay in the pot.  In stud, if his up-card is
    the low card he still posts the bring-in, which is lost too.  A player who was
    away for the original deal of a hand that was then misdealt plays the re-deal if
    he is there for it (TDA 35-C, 2024): pass ``absent_for_original_deal=True``.

    [ABS-1] The big blind is back only after the initial deal:

    >>> absent_player(1, "action", forced_bets=200).effect
    Kill(player=1, reason='absent')
    """
    _chips("The forced bets", forced_bets)
    _chips("The bring-in", bring_in)
    kill_point = Presence(policy.absent_player_kill_point)
    live = back is not None and _PRESENCE_ORDER[Presence(back)] <= _PRESENCE_ORDER[kill_point]
    rule, when = _KILL_RULES[kill_point.value]
    params: dict[str, Any] = {"seat": _seat(player, seats), "when": when,
                              "forced_bets": forced_bets, "bring_in": bring_in}
    if live:
        if absent_for_original_deal:
            return Ruling(
                Decision.PLAY_ON, "TDA 35-C",
                N_("Seat {seat} was away for the original deal, but the re-deal is a new deal and he is "
                "at his seat: his hand is live"),
                params,
            )
        return Ruling(Decision.PLAY_ON, rule, N_("Seat {seat} was at his seat {when}: his hand is live"), params)
    template = N_("Seat {seat} was not at his seat {when}: his hand is dead")
    if forced_bets:
        template += N_(". His blinds and antes ({forced_bets}) stay in the pot")
    if game.is_stud:
        rule = f"{rule}; TDA RP-10-C"
        if low_card:
            template += N_(". He has the low card, so he still posts the bring-in ({bring_in}), which is lost")
        template += N_(". Deal no more cards to his hand")
    return Ruling(Decision.HAND_DEAD, rule, template, params, Kill(player, "absent"))


@dataclass(frozen=True, slots=True)
class ClockTime:
    """A clock called on a player: ``seconds`` to act plus a ``countdown`` (TDA 29)."""

    seconds: int
    countdown: int

    @property
    def total(self) -> int:
        return self.seconds + self.countdown


def clock_time(policy: RulingPolicy = DEFAULT_RULING_POLICY) -> ClockTime:
    """How long a player on the clock has: 25 s plus a 5 s countdown (TDA 29, 2024),
    or 60 s plus a 10 s countdown (older TDA, WSOP-LA).

    >>> clock_time().total, clock_time(RulingPolicy(clock_seconds="60+10")).total
    (30, 70)
    """
    seconds, countdown = policy.clock_seconds.split("+")
    return ClockTime(int(seconds), int(countdown))


def clock_ends_at(called_at: datetime, policy: RulingPolicy = DEFAULT_RULING_POLICY) -> datetime:
    """When a clock called at ``called_at`` (timezone-aware UTC) runs out."""
    if called_at.tzinfo is None:
        raise RuleViolation("Times must be timezone-aware (UTC)")
    return called_at + timedelta(seconds=clock_time(policy).total)


def clock_expired(called_at: datetime, now: datetime,
                  policy: RulingPolicy = DEFAULT_RULING_POLICY) -> bool:
    """True once the whole clock, countdown included, has run out at ``now``.
    A tie goes to the player (TDA 29), so exactly at the end he still has time."""
    if now.tzinfo is None:
        raise RuleViolation("Times must be timezone-aware (UTC)")
    return now > clock_ends_at(called_at, policy)


def verify_in_time(ends_at: datetime, now: datetime, *, player: int,
                   seats: Sequence[int] | None = None) -> None:
    """An action of a player on the clock is taken only while his time lasts (TDA 29):
    once the countdown has run out his hand is dead (or checked), so his later action is
    refused and the clock's ruling is due.  A tie goes to the player.  ``now`` is an
    argument: the engine reads no clock.

    >>> from datetime import UTC, datetime, timedelta
    >>> end = datetime(2026, 1, 1, tzinfo=UTC)
    >>> verify_in_time(end, end, player=0) is None
    True
    """
    if ends_at.tzinfo is None or now.tzinfo is None:
        raise RuleViolation("Times must be timezone-aware (UTC)")
    if now > ends_at:
        raise RuleViolation("The clock on seat {seat} ran out before he acted: his hand is dead or "
                            "checked (TDA 29). Rule it with Clock expired", seat=_seat(player, seats))


def clock_expiry(facing_bet: bool, *, player: int, seats: Sequence[int] | None = None) -> Ruling:
    """The clock ran out before the player acted (TDA 29).

    Facing a bet his hand is dead (his chips already in stay in the pot); not facing
    a bet his hand is checked.  If he acts at the same moment as time expires, the
    tie goes to the player: record his action instead.

    [CLK-1] facing a 2000 bet: hand dead.

    >>> clock_expiry(True, player=4).decision
    'hand_dead'
    """
    params: dict[str, Any] = {"seat": _seat(player, seats)}
    if facing_bet:
        return Ruling(
            Decision.HAND_DEAD, "TDA 29",
            N_("Seat {seat}'s time ran out facing a bet: his hand is dead; the chips he has put in stay in the pot"),
            params, Kill(player, "clock"),
        )
    return Ruling(Decision.HAND_CHECKED, "TDA 29",
                  N_("Seat {seat}'s time ran out with no bet to him: his hand is checked"),
                  params, CheckByClock(player))


# --------------------------------------------------------------------------- action and chips


def action_out_of_turn(
    player: int,
    action: ActionKind | str,
    amount: int | None = None,
    *,
    bet_when_acted: int,
    bet_now: int,
    min_raise_to: int | None = None,
    to_act: int | None = None,
    seats: Sequence[int] | None = None,
) -> Ruling:
    """An action out of turn (TDA 53; RULES.md §2.8).

    ``bet_when_acted`` is the bet he faced when he acted out of turn, ``bet_now``
    the bet he faces now that the skipped players have acted (street totals).  The
    out-of-turn action is binding if the action to him has not changed (a check,
    call or fold by a skipped player does not change it); if someone bet or raised,
    his chips go back and he has all his options.  An out-of-turn fold is always
    binding.

    ``to_act`` is the player whose turn it is when the floor is called.  If that is
    not the out-of-turn player, the skipped players have not acted yet: play backs
    up to ``to_act`` and nothing can be ruled binding or not yet (decision
    ``backs_up``, no effect: rule again when the action reaches him).  A fold out
    of turn is binding at once: his hand is killed (``Kill``), so the action never
    stops at him.

    [OOT-1] Seat 6 raised to 800 out of turn over a 300 bet; seat 5 calls, so the
    raise stands:

    >>> action_out_of_turn(5, "raise", 800, bet_when_acted=300, bet_now=300).effect
    Action(player=5, action=<ActionKind.RAISE: 'raise'>, amount=800)

    The same raise, ruled while seat 5 is still to act: play backs up to seat 5.

    >>> action_out_of_turn(5, "raise", 800, bet_when_acted=300, bet_now=300, to_act=4).decision
    'backs_up'
    """
    kind = ActionKind(action)
    _chips("The bet he faced", bet_when_acted)
    _chips("The bet he faces now", bet_now)
    if bet_now < bet_when_acted:
        raise RuleViolation("The bet to seat {seat} cannot have gone down from {then} to {now}",
                            seat=_seat(player, seats), then=bet_when_acted, now=bet_now)
    params: dict[str, Any] = {"seat": _seat(player, seats), "action": kind.value,
                              "amount": amount if amount is not None else "", "bet_now": bet_now}
    if to_act is not None and to_act != player:
        params["to_act"] = _seat(to_act, seats)
        if kind is ActionKind.FOLD:
            return Ruling(Decision.BINDING, "TDA 53",
                          N_("Seat {seat} folded out of turn: a fold out of turn is always binding, his "
                             "hand is dead. The action backs up to seat {to_act}"),
                          params, Kill(player, FOLD_OUT_OF_TURN))
        return Ruling(
            Decision.BACKS_UP, "TDA 53",
            N_("The action backs up to seat {to_act}. Seat {seat}'s {action} to {amount} out of turn "
               "stands only if the action to him does not change: if everyone before him checks, "
               "calls or folds it is binding; if anyone bets or raises, his chips go back and he has "
               "all his options. Rule it when the action reaches seat {seat}")
            if amount is not None else
            N_("The action backs up to seat {to_act}. Seat {seat}'s {action} out of turn stands only "
               "if the action to him does not change: if everyone before him checks, calls or folds "
               "it is binding; if anyone bets or raises, he has all his options. Rule it when the "
               "action reaches seat {seat}"),
            params, None)
    if kind is ActionKind.FOLD:
        return Ruling(Decision.BINDING, "TDA 53",
                      N_("Seat {seat} folded out of turn: a fold out of turn is always binding"),
                      params, Action(player, kind))
    if bet_now == bet_when_acted:
        return Ruling(
            Decision.BINDING, "TDA 53",
            N_("The action to seat {seat} has not changed: his {action} to {amount} out of turn stands")
            if amount is not None else
            N_("The action to seat {seat} has not changed: his {action} out of turn stands"),
            params, Action(player, kind, amount),
        )
    template = (N_("The action to seat {seat} changed (there is now {bet_now} to call): his {action} "
                   "to {amount} out of turn is not binding. His chips go back; he may fold, call "
                   "{bet_now}") if amount is not None else
                N_("The action to seat {seat} changed (there is now {bet_now} to call): his {action} "
                   "out of turn is not binding. His chips go back; he may fold, call {bet_now}"))
    if min_raise_to is not None:
        params["min_raise_to"] = min_raise_to
        template += N_(" or raise to at least {min_raise_to}")
    else:
        template += N_(" or raise")
    return Ruling(Decision.NOT_BINDING, "TDA 53", template, params, None)


def _check_situation(current_bet: int, last_raise: int, own: int) -> None:
    _chips("The current bet", current_bet)
    _chips("The last full raise", last_raise, minimum=1)
    _chips("The chips already in", own)
    if own > current_bet:
        raise RuleViolation("A player cannot have {own} in when the bet is {bet}", own=own, bet=current_bet)


def _cap(to: int, max_to: int | None) -> int:
    return to if max_to is None else min(to, max_to)


def _result(kind: ActionKind, player: int, to: int, own: int, pushed: int,
            rule: str, template: str, params: dict[str, Any], stack: int | None = None) -> Ruling:
    """A call / bet / raise-to ruling with the change the player gets back.

    If ``stack`` is given and the bet or raise owed takes all of it, the player is all-in.
    """
    params = dict(params)
    if (stack is not None and kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.CALL)
            and to - own >= stack):
        params["owed"] = to
        to = own + stack
        kind = ActionKind.ALL_IN
        template += N_(". That takes all his chips: he is all-in for {to}")
    decision = {ActionKind.CALL: Decision.CALL, ActionKind.BET: Decision.BET,
                ActionKind.RAISE: Decision.RAISE_TO, ActionKind.ALL_IN: Decision.ALL_IN}[kind]
    params.update(to=to, change=max(0, own + pushed - to), more=max(0, to - own - pushed))
    amount = None if kind in (ActionKind.CALL, ActionKind.ALL_IN) else to
    return Ruling(decision, rule, template, params, Action(player, kind, amount))


def silent_push(
    pushed: int,
    *,
    player: int,
    current_bet: int,
    last_raise: int,
    own: int = 0,
    declared_raise: bool = False,
    stack: int | None = None,
    max_to: int | None = None,
    seats: Sequence[int] | None = None,
) -> Ruling:
    """Chips pushed forward without a full verbal declaration: the 50 % rule (TDA 43-A).

    ``current_bet`` is the street total to match, ``own`` what the player already
    has in on this street, ``last_raise`` the largest full bet or raise increment of
    the street (pre-flop: the big blind; not facing a bet: the minimum bet).  A raise
    of at least the full increment stands; an increment of at least half of it must
    be made up to a full minimum raise; less is a call and the rest comes back --
    unless "raise" was declared first (then a full raise is owed) or the chips are
    all his chips (all-in).  Not facing a bet the chips are a bet of that amount, at
    least the minimum bet.  ``max_to`` caps any bet or raise (pot limit).

    [MR-5] Opening bet 1000: pushing 1400 is a call (400 back); 1500 is a raise to 2000.

    >>> silent_push(1400, player=2, current_bet=1000, last_raise=1000).decision
    'call'
    >>> silent_push(1500, player=2, current_bet=1000, last_raise=1000).params["to"]
    2000
    """
    _check_situation(current_bet, last_raise, own)
    _chips("The chips pushed", pushed, minimum=1)
    seat = _seat(player, seats)
    to = own + pushed
    params: dict[str, Any] = {"seat": seat, "pushed": pushed, "current_bet": current_bet}
    if stack is not None:
        _chips("The stack", stack)
        if pushed > stack:
            raise RuleViolation("Seat {seat} has only {stack} chips, not {pushed}",
                                seat=seat, stack=stack, pushed=pushed)
        if pushed == stack:
            return _result(ActionKind.ALL_IN, player, to, own, pushed, "TDA 43-A; TDA 45",
                           N_("Seat {seat} put in all his chips: he is all-in for {to}"), params)
    facing = current_bet > own
    if not facing:
        bet_to = _cap(max(to, current_bet + last_raise), max_to)
        return _result(
            ActionKind.BET if current_bet == 0 else ActionKind.RAISE, player, bet_to, own, pushed, "TDA 43-A; TDA 52-A",
            N_("No bet to seat {seat}: his {pushed} is a bet to {to}") if bet_to == to else
            N_("No bet to seat {seat}: his {pushed} is corrected to a bet to {to}"),
            params, stack,
        )
    if to < current_bet:
        raise RuleViolation("Seat {seat}'s {pushed} is less than the call: rule it as an undercall",
                            rule="TDA 51-B", seat=seat, pushed=pushed)
    min_to = current_bet + last_raise
    params.update(min_to=min_to, increment=to - current_bet, needed=last_raise)
    if to == current_bet:
        return _result(ActionKind.CALL, player, current_bet, own, pushed, "TDA 43-A",
                       N_("Seat {seat} calls {to}"), params, stack)
    if to >= min_to:
        return _result(ActionKind.RAISE, player, _cap(to, max_to), own, pushed, "TDA 43-A",
                       N_("Seat {seat} raises to {to}") if _cap(to, max_to) == to else
                       N_("Seat {seat}'s raise is capped at the pot: raise to {to}, {change} back"), params, stack)
    if declared_raise:
        return _result(ActionKind.RAISE, player, _cap(min_to, max_to), own, pushed, "TDA 43-A",
                       N_("Seat {seat} said raise: his raise is made up to the minimum, raise to {to} "
                       "({more} more)"), params, stack)
    if 2 * (to - current_bet) >= last_raise:
        return _result(ActionKind.RAISE, player, _cap(min_to, max_to), own, pushed, "TDA 43-A",
                       N_("Seat {seat}'s {pushed} raises by {increment}, at least half of the {needed} "
                       "needed: he must make a full raise to {to} ({more} more)"), params, stack)
    return _result(ActionKind.CALL, player, current_bet, own, pushed, "TDA 43-A",
                   N_("Seat {seat}'s {pushed} raises by {increment}, less than half of the {needed} "
                   "needed: it is a call of {to}, {change} goes back"), params, stack)


class Faced(StrEnum):
    """What a player facing a bet faces: the words an undercall ruling uses."""

    BIG_BLIND = "big blind"
    BRING_IN = "bring-in"
    COMPLETION = "completion"
    BET = "bet"
    RAISE = "raise"

    @property
    def opening(self) -> bool:
        """Is it the opening bet of the street (TDA 51-B)?  Pre-flop the big blind
        is (TDA 51-B); in stud we count the bring-in and the completion, which is not
        a raise but the round's first bet (RRP *Stud* 3), as the opening bet."""
        return self is not Faced.RAISE


def bet_faced(hand: Hand) -> Faced | None:
    """What the bet on the current street of ``hand`` is: the big blind, the bring-in,
    the completion, the street's first bet, or a raise (None: there is no bet).

    Replays the hand and keeps the actions of this street that raised the bet.

    >>> from director.poker.games import Game
    >>> from director.poker.state import HandConfig
    >>> h = Hand.start(HandConfig(game=Game.NO, starting_stacks=(10_000,) * 3,
    ...                           blinds_or_straddles=(100, 200, 0), min_bet=200))
    >>> str(bet_faced(h))
    'big blind'
    >>> str(bet_faced(h.apply(Action(2, ActionKind.RAISE, 600))))
    'raise'
    """
    if hand.current_bet <= 0:
        return None
    replayed = Hand.start(hand.config)
    raised: list[ActionKind] = []
    for event in hand.events:
        street, level = replayed.street, replayed.current_bet
        replayed = replayed.apply(event)
        if replayed.street != street:
            raised = []
        elif isinstance(event, Action) and replayed.current_bet > level:
            raised.append(event.action)
    if hand.config.game.is_stud and hand.street is Street.THIRD:
        bets = [k for k in raised if k is not ActionKind.BRING_IN]
        return Faced.BRING_IN if not bets else Faced.COMPLETION if len(bets) == 1 else Faced.RAISE
    if hand.street is Street.PRE_FLOP:
        return Faced.RAISE if raised else Faced.BIG_BLIND
    return Faced.BET if len(raised) <= 1 else Faced.RAISE


_UNDERCALL_HEADS_UP: dict[Faced, str] = {
    Faced.BIG_BLIND: N_("Heads-up, seat {seat}'s {pushed} is short of the big blind of {current_bet}: "
                        "it is a full call of {to} ({more} more)"),
    Faced.BRING_IN: N_("Heads-up, seat {seat}'s {pushed} is short of the bring-in of {current_bet}: "
                       "it is a full call of {to} ({more} more)"),
    Faced.COMPLETION: N_("Heads-up, seat {seat}'s {pushed} is short of the completion to {current_bet}: "
                         "it is a full call of {to} ({more} more)"),
    Faced.BET: N_("Heads-up, seat {seat}'s {pushed} is short of the bet of {current_bet}: "
                  "it is a full call of {to} ({more} more)"),
    Faced.RAISE: N_("Heads-up, seat {seat}'s {pushed} is short of the raise to {current_bet}: "
                    "it is a full call of {to} ({more} more)"),
}
_UNDERCALL_OPENING: dict[Faced, str] = {
    Faced.BIG_BLIND: N_("Seat {seat}'s {pushed} is short of the big blind of {current_bet}, the opening "
                        "bet: it is a full call of {to} ({more} more)"),
    Faced.BRING_IN: N_("Seat {seat}'s {pushed} is short of the bring-in of {current_bet}, the opening "
                       "bet: it is a full call of {to} ({more} more)"),
    Faced.COMPLETION: N_("Seat {seat}'s {pushed} is short of the completion to {current_bet}, the "
                         "opening bet: it is a full call of {to} ({more} more)"),
    Faced.BET: N_("Seat {seat}'s {pushed} is short of the bet of {current_bet}, the opening bet: "
                  "it is a full call of {to} ({more} more)"),
}


def undercall(
    pushed: int,
    *,
    player: int,
    current_bet: int,
    own: int = 0,
    heads_up: bool,
    opening_bet: bool | None = None,
    faced: Faced | str | None = None,
    declared_call: bool = False,
    stack: int | None = None,
    seats: Sequence[int] | None = None,
) -> Ruling:
    """Chips short of the call put out without saying "call" (TDA 51-B; 51-A).

    Saying "call" commits the player to the full call (TDA 51-A).  A silent undercall
    is a mandatory full call when heads-up or facing the opening bet of a street in a
    multi-way pot (pre-flop the big blind is the opening bet); otherwise it is the
    floor's decision.  A player who puts in all his chips is all-in.

    ``faced`` is what he faced (:func:`bet_faced`): the sentence names it, and it
    decides ``opening_bet`` when that is not given (only a raise is not the opening
    bet).  Without either, the bet is taken to be the opening bet.

    [UC-1] Four-handed, A opens 8000 on the flop, B silently pushes 2000: B must call 8000.

    >>> undercall(2000, player=1, current_bet=8000, heads_up=False, faced="bet").text
    "Seat 2's 2000 is short of the bet of 8000, the opening bet: it is a full call of 8000 (6000 more)"
    """
    faced = Faced(faced) if faced is not None else None
    if opening_bet is None:
        opening_bet = faced is None or faced.opening
    _chips("The current bet", current_bet, minimum=1)
    _chips("The chips already in", own)
    _chips("The chips pushed", pushed, minimum=1)
    seat = _seat(player, seats)
    to = own + pushed
    if to >= current_bet:
        raise RuleViolation("Seat {seat}'s {pushed} is not short of the call", seat=seat, pushed=pushed)
    params: dict[str, Any] = {"seat": seat, "pushed": pushed, "current_bet": current_bet}
    if stack is not None and pushed >= stack:
        return _result(ActionKind.ALL_IN, player, to, own, pushed, "TDA 51-B",
                       N_("Seat {seat} put in all his chips: he is all-in for {to}"), params)
    if declared_call:
        return _result(ActionKind.CALL, player, current_bet, own, pushed, "TDA 51-A",
                       N_("Seat {seat} said call: he must call the full {to} ({more} more)"), params, stack)
    if heads_up or opening_bet:
        if faced is not None and (heads_up or faced in _UNDERCALL_OPENING):
            template = (_UNDERCALL_HEADS_UP if heads_up else _UNDERCALL_OPENING)[faced]
        elif heads_up:
            template = N_("Seat {seat}'s {pushed} is short of the heads-up bet: it is a full call of "
                          "{to} ({more} more)")
        else:
            template = N_("Seat {seat}'s {pushed} is short of the opening bet: it is a full call of "
                          "{to} ({more} more)")
        return _result(ActionKind.CALL, player, current_bet, own, pushed, "TDA 51-B", template,
                       params, stack)
    return Ruling(Decision.FLOOR_DECIDES, "TDA 51-B",
                  N_("Seat {seat}'s {pushed} is short of the {current_bet} to call, facing a raise in a "
                  "multi-way pot: the floor decides whether it is a full call or the chips go back "
                  "and the hand folds"), params, None, call_floor=True)


def single_chip(
    chip: int,
    *,
    player: int,
    current_bet: int,
    last_raise: int,
    own: int = 0,
    declared_raise: bool = False,
    declared_to: int | None = None,
    max_to: int | None = None,
    seats: Sequence[int] | None = None,
) -> Ruling:
    """One oversized chip (TDA 44).

    Facing a bet, a single oversized chip without "raise" said first is a call.
    With "raise" said before the chip lands and no amount, it is a raise to the
    most the chip allows (capped by ``max_to`` in pot limit), at least a minimum
    raise; with an amount, a raise to that amount.  Not facing a bet, a silent
    oversized chip is a bet of its full value.

    [CHIP-2] Facing 1000, a silent 5000 chip is a call of 1000.

    >>> single_chip(5000, player=3, current_bet=1000, last_raise=1000).decision
    'call'
    """
    _check_situation(current_bet, last_raise, own)
    _chips("The chip", chip, minimum=1)
    seat = _seat(player, seats)
    params: dict[str, Any] = {"seat": seat, "chip": chip, "current_bet": current_bet}
    most = _cap(own + chip, max_to)
    if current_bet <= own:
        to = declared_to if declared_to is not None else most
        kind = ActionKind.BET if current_bet == 0 else ActionKind.RAISE
        return _result(kind, player, to, own, chip, "TDA 44",
                       N_("No bet to seat {seat}: his single {chip} chip is a bet to {to}"), params)
    if own + chip < current_bet:
        raise RuleViolation("A {chip} chip does not cover the call of {bet}: rule it as an undercall",
                            rule="TDA 51-B", chip=chip, bet=current_bet)
    if not declared_raise and declared_to is None:
        return _result(ActionKind.CALL, player, current_bet, own, chip, "TDA 44",
                       N_("Seat {seat} did not say raise: his single {chip} chip is a call of {to}, "
                       "{change} change"), params)
    min_to = _cap(current_bet + last_raise, max_to)
    if declared_to is not None:
        to = _cap(max(declared_to, min_to), max_to)
        template = N_("Seat {seat} said raise to {to}: raise to {to}, {change} change")
    else:
        to = max(most, min_to)
        template = ("Seat {seat} said raise and put in a single {chip} chip: raise to the most "
                    "the chip allows" + (", capped at the pot" if max_to is not None and own + chip > max_to else "")
                    + ": {to}, {change} change")
    return _result(ActionKind.RAISE, player, to, own, chip, "TDA 44", template, params)


def multiple_chips(
    chips: Sequence[int],
    *,
    player: int,
    current_bet: int,
    last_raise: int,
    own: int = 0,
    declared_raise: bool = False,
    stack: int | None = None,
    max_to: int | None = None,
    seats: Sequence[int] | None = None,
) -> Ruling:
    """Several chips put out silently (TDA 45).

    Facing a bet: if every chip is needed to call (taking away one of the smallest
    chips leaves less than the call) it is a call; otherwise the 50 % standard of
    TDA 43-A applies (:func:`silent_push`).  A player's last chips are all-in
    whatever they come to.

    [CHIP-3] Blinds 250/500, raise to 1100: 500 + 1000 silently is a call.

    >>> multiple_chips([500, 1000], player=3, current_bet=1100, last_raise=600).decision
    'call'
    """
    if not chips:
        raise RuleViolation("Name the chips that were put out")
    for c in chips:
        _chips("A chip", c, minimum=1)
    _check_situation(current_bet, last_raise, own)
    pushed = sum(chips)
    seat = _seat(player, seats)
    params: dict[str, Any] = {"seat": seat, "pushed": pushed, "current_bet": current_bet,
                              "smallest": min(chips)}
    if stack is not None and pushed == stack:
        return silent_push(pushed, player=player, current_bet=current_bet, last_raise=last_raise,
                           own=own, stack=stack, max_to=max_to, seats=seats)
    facing = current_bet > own
    if (facing and not declared_raise and own + pushed >= current_bet
            and own + pushed - min(chips) < current_bet):
        return _result(ActionKind.CALL, player, current_bet, own, pushed, "TDA 45",
                       N_("Every chip of seat {seat}'s {pushed} is needed to call (without one {smallest} "
                       "chip it is short): it is a call of {to}, {change} change"), params, stack)
    ruling = silent_push(pushed, player=player, current_bet=current_bet, last_raise=last_raise,
                         own=own, declared_raise=declared_raise, stack=stack, max_to=max_to, seats=seats)
    return Ruling(ruling.decision, "TDA 45; " + ruling.rule, ruling.template, ruling.params,
                  ruling.effect, ruling.call_floor)


def under_raise(
    raised_to: int,
    *,
    player: int,
    current_bet: int,
    last_raise: int,
    next_card_dealt: bool = False,
    seats: Sequence[int] | None = None,
) -> Ruling:
    """A bet or raise below the legal minimum (TDA 52-A).

    It is corrected to the minimum for the bettor and everyone who called it, until
    the next card is dealt (on the river: until the showdown).  After that it stands.
    ``current_bet`` and ``last_raise`` describe the bet he faced.

    [UR-1] A bets 600, B "raises" to 1000: corrected to 1200 for B and both callers.

    >>> under_raise(1000, player=1, current_bet=600, last_raise=600).effect
    CorrectRaise(player=1, to=1200)
    """
    _check_situation(current_bet, last_raise, 0)
    min_to = current_bet + last_raise
    seat = _seat(player, seats)
    if raised_to >= min_to:
        raise RuleViolation("A raise to {to} is not below the minimum raise to {minimum}",
                            to=raised_to, minimum=min_to)
    if raised_to <= current_bet:
        raise RuleViolation("{to} is not a raise over {bet}", to=raised_to, bet=current_bet)
    params: dict[str, Any] = {"seat": seat, "raised_to": raised_to, "to": min_to,
                              "short": min_to - raised_to}
    kind = "bet" if current_bet == 0 else "raise"
    params["kind"] = kind
    if next_card_dealt:
        return Ruling(Decision.PLAY_ON, "TDA 52-A",
                      N_("Seat {seat}'s {kind} to {raised_to} was {short} short, but the next card has "
                      "been dealt: it stands"), params)
    return Ruling(Decision.RAISE_TO, "TDA 52-A",
                  N_("Seat {seat}'s {kind} to {raised_to} is {short} short of the minimum: it becomes a "
                  "{kind} to {to}, and everyone who called it puts in {to}"),
                  params, CorrectRaise(player, min_to))


__all__ = [
    "DEFAULT_RULING_POLICY",
    "ClockTime",
    "CorrectRaise",
    "DeadHandAnteReturned",
    "DealMissingCards",
    "Decision",
    "Effect",
    "Presence",
    "RedealStreet",
    "ReplaceCard",
    "Ruling",
    "RulingPolicy",
    "ScrambleBurn",
    "SeventhStreet",
    "UpCard",
    "Faced",
    "absent_player",
    "action_out_of_turn",
    "bet_faced",
    "boxed_cards",
    "clock_ends_at",
    "clock_expired",
    "clock_expiry",
    "clock_time",
    "deal_position",
    "dealt_to",
    "effect_to_json",
    "exposed_card_on_deal",
    "flop_irregularity",
    "missing_burn",
    "fouled_deck",
    "multiple_chips",
    "wrong_button",
    "premature_card",
    "seventh_street",
    "silent_push",
    "single_chip",
    "stub_before_seventh",
    "substantial_action",
    "stud_exposed_downcards",
    "under_raise",
    "undercall",
    "up_card_deal",
    "wrong_number_of_cards",
]
