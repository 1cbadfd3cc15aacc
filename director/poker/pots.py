"""Pots, side pots and who wins them (RULES.md §7 and §8).

Two steps, both pure:

1. :func:`build_pots` turns what each player put in into the main pot and the
   side pots, after giving back the uncalled part of the largest bet
   (RULES.md §8.1; TDA 2024 rules 15-B, 21, 65-A).
2. :func:`award_pots` splits each pot among the players eligible for it, from
   the last side pot down to the main pot, high/low and odd chips included
   (RULES.md §7.2-§7.4; TDA 2024 rules 16, 20, 21; WSOP-T 73).

Player numbers are indices in the hand's player list.  For flop games index 0
is the first seat clockwise from the button and the button is last, so "first
winner clockwise from the button" is simply the lowest index.  For stud the
list is in seat order from the dealer's left.

>>> pots, returned = build_pots([50, 150, 300, 300], [True, True, True, True])
>>> [(p.name, p.amount, p.eligible) for p in pots]
[('Main pot', 200, (0, 1, 2, 3)), ('Side pot 1', 300, (1, 2, 3)), ('Side pot 2', 300, (2, 3))]
>>> returned
[0, 0, 0, 0]
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import gcd

from director.poker.cards import Card
from director.poker.errors import RuleViolation
from director.poker.hands import HighHand, LowHand
from director.poker.policy import Policy

__all__ = [
    "Award",
    "Pot",
    "award_pots",
    "build_pots",
    "describe_awards",
    "pot_name",
    "uncontested",
]

WHOLE = "whole"
HIGH = "high"
LOW = "low"

# Award.reason values: why a pot was not split in the usual way.
UNCONTESTED = "uncontested"  # only one eligible player: no hand needed (TDA 17-B)
NO_LOW = "no-low"  # hi/lo pot, nobody eligible has a qualifying low (RULES.md §7.1)
BOTH_WAYS = "both-ways"  # the same players win high and low: whole pot split (WSOP-T 73)

# The Policy values read here (RULES.md §11.1); no policy means TDA 2024's.
_TDA = Policy()
ALL_TO_FIRST = "all-to-first"  # odd_chip_multi; default "one-per-winner"
SEVEN_CARD = "seven-card"  # stud_odd_chip_card_set; default "five-card"
SPLIT_WHOLE = "split-whole"  # identical_hands_both_ways; the other is "quarter"


# --------------------------------------------------------------------------
# Building the pots


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its chips, the live players who can win it, and its name."""

    amount: int
    eligible: tuple[int, ...]
    name: str


def pot_name(index: int) -> str:
    """"Main pot" for index 0, then "Side pot 1", "Side pot 2", ...

    >>> pot_name(0), pot_name(2)
    ('Main pot', 'Side pot 2')
    """
    return "Main pot" if index == 0 else f"Side pot {index}"


def build_pots(
    contributions: Sequence[int],
    live: Sequence[bool],
    dead_money: int = 0,
    *,
    killed: Collection[int] = (),
) -> tuple[list[Pot], list[int]]:
    """Split the chips into a main pot and side pots (RULES.md §8.1).

    Returns ``(pots, returned)``; ``returned[i]`` is the uncalled part given
    back to player ``i``.

    1. The uncalled part comes back first: if one player put in more than
       anybody else (folded players count), the excess over the second
       largest contribution is returned to him.  It is never a one-player
       side pot (TDA 2024 rules 15-B and 65-A).
    2. Every distinct contribution level makes a slice; each slice takes
       ``min(c, level) - min(c, previous level)`` from every player, folded
       or not, so folded players' chips stay in the slices they reached.
       The players eligible for a slice are the live players who reached its
       level.  Consecutive slices with the same players merge.
    3. ``dead_money`` (antes taken as dead, the big-blind ante, dead blinds)
       goes to the main pot (RULES.md §8.1 step 3).  If a live player put in
       no live chips at all, the main pot is the dead money alone (he can win
       only that) and the first slice becomes side pot 1.

    ``killed`` names the players whose hands were killed (absent at the end of
    the deal, the clock, a fouled hand: TDA 29, 30).  Their blinds and bets
    are treated like folded players' chips (RULES.md §8.1 step 3): they are
    never eligible, and what they put in is forfeited, so an excess of theirs
    is not an uncalled bet to give back but stays in the pot.

    Chips that no live player reached (possible only when hands were killed)
    go to the highest pot that still has a live player (all the live players
    if none of them put in a live chip).  When nobody at all
    is live, everything that is not returned forms one "Main pot" with no
    eligible player; :func:`award_pots` refuses to award it and the floor
    decides.  Chips are always conserved::

        sum(pot.amount) + sum(returned) == sum(contributions) + dead_money

    [SP-3]: A 50, B 150, C 300, D 300 all in or called, E put in 100 and folded.

    >>> pots, returned = build_pots([50, 150, 300, 300, 100], [True] * 4 + [False])
    >>> [(p.name, p.amount, p.eligible) for p in pots]
    [('Main pot', 250, (0, 1, 2, 3)), ('Side pot 1', 350, (1, 2, 3)), ('Side pot 2', 300, (2, 3))]

    [SP-6]: big-blind ante 1,000 dead; SB 1,000 folded, BB 2,000 all in,
    UTG shoves 20,000: 18,000 goes back to UTG and the pot is 6,000.

    >>> build_pots([1000, 2000, 20000], [False, True, True], dead_money=1000)
    ([Pot(amount=6000, eligible=(1, 2), name='Main pot')], [0, 0, 18000])

    [ABS-2]: PLO 100/200, the big blind's hand was killed (absent at the end
    of the deal) and everybody folds to the small blind: the killed blind is
    not given back, the small blind wins all 300.

    >>> build_pots([100, 200], [True, False], killed=[1])
    ([Pot(amount=300, eligible=(0,), name='Main pot')], [0, 0])
    """
    count = len(contributions)
    if len(live) != count:
        raise RuleViolation(
            "{contributions} contributions were given for {players} players",
            contributions=count,
            players=len(live),
        )
    if count and min(contributions) < 0:
        index = min(range(count), key=contributions.__getitem__)
        raise RuleViolation(
            "Player {player} cannot have put in {amount} chips",
            player=index + 1,
            amount=contributions[index],
        )
    if dead_money < 0:
        raise RuleViolation("Dead money cannot be {amount}", amount=dead_money)
    for player in killed:
        if not 0 <= player < count:
            raise RuleViolation("There is no player {player} to kill", player=player + 1)

    chips_in = list(contributions)
    returned = [0] * count
    if count:
        top = max(chips_in)
        owner = chips_in.index(top)
        if owner not in killed:
            second = max(chips_in[:owner] + chips_in[owner + 1:], default=0)
            if top > second:
                returned[owner] = top - second
                chips_in[owner] = second

    contenders = [i for i in range(count) if live[i] and i not in killed]
    slices: list[tuple[int, tuple[int, ...]]] = []
    if dead_money:
        slices.append((dead_money, tuple(contenders)))
    # Every level is somebody's contribution, so a slice takes the full step
    # (level - previous) from each player who reached the level, nothing from the rest.
    ordered = sorted(chips_in)
    reached = 0  # players below the current level: ordered[:reached]
    previous = 0
    for level in ordered:
        if level == previous:
            continue
        while ordered[reached] < level:
            reached += 1
        slices.append(((level - previous) * (count - reached),
                       tuple([i for i in contenders if chips_in[i] >= level])))
        previous = level

    amounts: list[int] = []
    eligibles: list[tuple[int, ...]] = []
    for amount, eligible in slices:
        # Eligibility only shrinks as the level rises, so a slice no live
        # player reached joins the pot below it: whoever is still live wins
        # those chips.  If there is no pot below (every live player put in
        # nothing), it is a pot for all the live players.
        if not eligible and not amounts:
            eligible = tuple(contenders)
        if amounts and (eligible == eligibles[-1] or not eligible):
            amounts[-1] += amount
        else:
            amounts.append(amount)
            eligibles.append(eligible)
    pots = [
        Pot(amount, eligible, pot_name(index))
        for index, (amount, eligible) in enumerate(zip(amounts, eligibles, strict=True))
    ]
    return pots, returned


# --------------------------------------------------------------------------
# Awarding the pots


@dataclass(frozen=True, slots=True)
class Award:
    """Chips from one pot (or one half of it) pushed to one player.

    Everything the dealer screen needs to say it in the dealer's language
    is a field; ``explanation`` is the English sentence with 1-based
    "player N" numbers.

    ``odd_chips`` counts the chips this player received because they could
    not be split evenly: the leftover units of a tied half (or of a whole
    pot) that went to him, plus, for the only winner of a high half, the odd
    unit the high half takes from the low half (TDA 20-C).

    Added beyond the engine contract: ``pot_amount`` (the whole pot),
    ``winners`` (everybody sharing this half, ascending index), and
    ``reason`` ("" | "uncontested" | "no-low" | "both-ways").
    """

    pot_index: int
    pot_name: str
    half: str
    player: int
    amount: int
    hand_name: str | None
    odd_chips: int
    explanation: str
    pot_amount: int = 0
    winners: tuple[int, ...] = ()
    reason: str = ""


def award_pots(
    pots: Sequence[Pot],
    high: Mapping[int, HighHand],
    low: Mapping[int, LowHand | None] | None,
    *,
    stud: bool,
    unit: int = 1,
    policy: Policy | None = None,
    stud_cards: Mapping[int, Sequence[Card]] | None = None,
) -> list[Award]:
    """Award every pot, last side pot first, down to the main pot.

    ``high`` holds the hand of every player who reached the showdown;
    ``low`` is ``None`` for high-only games, otherwise each player's
    qualifying low or ``None``.  ``unit`` is the smallest chip in play.

    Rules applied to each pot separately (TDA 2024 rule 21; RULES.md §7.4),
    among only the players eligible for it:

    * one eligible player: he takes it whole without a hand (TDA 17-B);
    * high-only game, or hi/lo with no qualifying low among its eligible
      players: the best high takes the whole pot (RULES.md §7.1);
    * otherwise high half = ceil(units / 2), low half = floor(units / 2):
      the odd unit goes high (TDA 20-C);
    * the same players win both halves (two identical hands both ways):
      the whole pot is split evenly instead of quartered (WSOP-T 73;
      policy ``identical_hands_both_ways="quarter"`` quarters it as usual);
    * ties within a half: equal shares in units, leftover units one per
      winner starting with the first winner clockwise from the button
      (RRP *Ties*; TDA 20-A names the first); policy ``odd_chip_multi=
      "all-to-first"`` gives them all to the first (pokerkit's way);
    * stud: the leftover goes first to the winner holding the highest card
      by suit in his five-card winning hand (TDA 20-B).  In a low hand the
      ace counts as 1, so it is not the highest card there.  With policy
      ``stud_odd_chip_card_set="seven-card"`` (RRP) all seven cards count
      (pass them as ``stud_cards``; without them the five-card hand is
      used), and in the low half the lowest card by suit wins the chip.

    House choices come from ``policy`` (``odd_chip_multi``,
    ``stud_odd_chip_card_set``, ``identical_hands_both_ways``); ``None`` means
    the TDA 2024 defaults, ``Policy()``.

    A pot that is not a whole number of ``unit`` chips must hold smaller
    chips, so it is split in units of ``gcd(amount, unit)`` instead.

    [ODD-1]: pot 1,225 in T25 chips is 49 units; high 25 units, low 24.

    >>> awards = award_pots([Pot(1225, (0, 1), "Main pot")],
    ...     {0: HighHand(6000, (), "flush", "a flush"), 1: HighHand(3000, (), "pair", "a pair")},
    ...     {0: None, 1: LowHand((8, 5, 3, 2, 1), (), "8-5-3-2-A low")},
    ...     stud=False, unit=25)
    >>> [a.explanation for a in awards]
    ['Main pot 1,225: high to player 1, a flush, 625 with the odd chip', 'Main pot 1,225: low to player 2, 8-5-3-2-A, 600']
    """
    house = policy or _TDA
    multi = house.odd_chip_multi
    card_set = house.stud_odd_chip_card_set
    both_ways = house.identical_hands_both_ways
    if unit < 1:
        raise RuleViolation("The smallest chip cannot be {unit}", unit=unit)

    awards: list[Award] = []
    for pot_index in range(len(pots) - 1, -1, -1):
        pot = pots[pot_index]
        if pot.amount <= 0:
            continue
        if not pot.eligible:
            raise RuleViolation(
                "The {pot} of {amount} has no live hand left: call the floor",
                rule="TDA 1",
                pot=pot.name.lower(),
                amount=f"{pot.amount:,}",
            )
        if len(pot.eligible) == 1:
            awards.append(_whole_to_one(pot_index, pot, pot.eligible[0]))
            continue
        for player in pot.eligible:
            if player not in high:
                raise RuleViolation(
                    "Player {player} can win the {pot} but his hand is missing",
                    player=player + 1,
                    pot=pot.name.lower(),
                )
        _award_contested(
            awards, pot_index, pot, high, low, stud, unit, multi, card_set, both_ways, stud_cards
        )
    return awards


def uncontested(pots: Sequence[Pot], winner: int) -> list[Award]:
    """Everyone else folded: every pot goes to ``winner`` without a showdown.

    TDA 2024 rule 17-B: an uncontested winner need not show.  Awards come
    last side pot first, like :func:`award_pots`.

    >>> [a.explanation for a in uncontested([Pot(300, (1,), "Main pot")], 1)]
    ['Main pot 300: to player 2, uncontested, 300']
    """
    awards = []
    for pot_index in range(len(pots) - 1, -1, -1):
        pot = pots[pot_index]
        if pot.amount <= 0:
            continue
        if winner not in pot.eligible:
            raise RuleViolation(
                "Player {player} is not eligible for the {pot}",
                player=winner + 1,
                pot=pot.name.lower(),
            )
        awards.append(_whole_to_one(pot_index, pot, winner))
    return awards


def describe_awards(
    awards: Iterable[Award],
    *,
    player_name: Callable[[int], str] | None = None,
    shown_hands: Mapping[int, str] | None = None,
) -> list[str]:
    """One sentence per pot for the dealer to read aloud, in award order.

    ``player_name`` names a player index (default "player N", 1-based).
    ``shown_hands`` holds the hand names of players who tabled a hand: a pot
    that went to one player because the others mucked (no contest, so no
    ``hand_name``) is then said with the hand he showed, not "uncontested".

    >>> a = Award(0, "Main pot", "high", 2, 600, "kings full of sevens", 0, "", 1200, (2,))
    >>> b = Award(0, "Main pot", "low", 4, 300, "8-5-3-2-A low", 0, "", 1200, (4, 6))
    >>> c = Award(0, "Main pot", "low", 6, 300, "8-5-3-2-A low", 0, "", 1200, (4, 6))
    >>> describe_awards([a, b, c])
    ['Main pot 1,200: high to player 3, kings full of sevens, 600; low split players 5 and 7, 8-5-3-2-A, 300 each']
    >>> d = Award(0, "Main pot", "whole", 1, 3900, None, 0, "", 3900, (1,), "uncontested")
    >>> describe_awards([d], player_name=lambda i: f"p{i + 1}", shown_hands={1: "ten-high straight"})
    ['Main pot 3,900: to p2, ten-high straight, 3,900']
    """
    name = player_name or _player
    shown = shown_hands or {}
    sentences: list[str] = []
    current_pot: tuple[int, str] | None = None
    pot_total = 0
    parts: list[str] = []
    group: list[Award] = []

    def close_group() -> None:
        if group:
            parts.append(_describe_group(group, name, shown))
            group.clear()

    def close_pot() -> None:
        close_group()
        if current_pot is not None:
            sentences.append(f"{current_pot[1]} {pot_total:,}: " + "; ".join(parts))
        parts.clear()

    for award in awards:
        key = (award.pot_index, award.pot_name)
        if key != current_pot:
            close_pot()
            current_pot = key
            pot_total = award.pot_amount
        if group and group[0].half != award.half:
            close_group()
        group.append(award)
    close_pot()
    return sentences


# --------------------------------------------------------------------------
# The arithmetic


def _whole_to_one(pot_index: int, pot: Pot, player: int) -> Award:
    return Award(
        pot_index=pot_index,
        pot_name=pot.name,
        half=WHOLE,
        player=player,
        amount=pot.amount,
        hand_name=None,
        odd_chips=0,
        explanation=f"{pot.name} {pot.amount:,}: to {_player(player)}, uncontested, {pot.amount:,}",
        pot_amount=pot.amount,
        winners=(player,),
        reason=UNCONTESTED,
    )


def _award_contested(
    awards: list[Award],
    pot_index: int,
    pot: Pot,
    high: Mapping[int, HighHand],
    low: Mapping[int, LowHand | None] | None,
    stud: bool,
    unit: int,
    multi: str,
    card_set: str,
    both_ways: str,
    stud_cards: Mapping[int, Sequence[Card]] | None,
) -> None:
    eligible = pot.eligible
    strengths = [high[p].strength for p in eligible]
    best_strength = max(strengths)
    high_winners = tuple([p for p, s in zip(eligible, strengths, strict=True) if s == best_strength])
    if low is None and len(high_winners) == 1:
        # The common case, one best high hand in a high-only game: the whole pot, no odd chip.
        player = high_winners[0]
        name = high[player].name
        awards.append(Award(pot_index, pot.name, WHOLE, player, pot.amount, name, 0,
                            _explain(pot, WHOLE, player, high_winners, name, pot.amount, 0, 1, ""),
                            pot.amount, high_winners, ""))
        return

    best_low: LowHand | None = None
    if low is not None:
        for p in eligible:
            hand = low.get(p)
            if hand is not None and (best_low is None or hand.ranks < best_low.ranks):
                best_low = hand
    low_winners: tuple[int, ...] = ()
    if low is not None and best_low is not None:
        low_ranks = best_low.ranks
        low_winners = tuple(
            p for p in eligible if (h := low.get(p)) is not None and h.ranks == low_ranks
        )

    chip = gcd(pot.amount, unit)
    units = pot.amount // chip

    def order(winners: tuple[int, ...], half: str) -> tuple[int, ...]:
        if len(winners) < 2 or not stud:
            return winners  # flop games: ascending index = clockwise from the button
        return _stud_odd_chip_order(winners, half, high, low, card_set, stud_cards)

    high_name = high[high_winners[0]].name
    if best_low is None:
        reason = NO_LOW if low is not None else ""
        _split(awards, pot_index, pot, WHOLE, order(high_winners, HIGH), units, units, chip,
               high_name, multi, reason)
    elif both_ways == SPLIT_WHOLE and len(high_winners) > 1 and high_winners == low_winners:
        name = f"{high_name} and {_low_text(best_low.name)}"
        _split(awards, pot_index, pot, WHOLE, order(high_winners, HIGH), units, units, chip,
               name, multi, BOTH_WAYS)
    else:
        low_units = units // 2
        _split(awards, pot_index, pot, HIGH, order(high_winners, HIGH), units - low_units,
               units, chip, high_name, multi, "")
        _split(awards, pot_index, pot, LOW, order(low_winners, LOW), low_units, units, chip,
               best_low.name, multi, "")


def _stud_odd_chip_order(
    winners: tuple[int, ...],
    half: str,
    high: Mapping[int, HighHand],
    low: Mapping[int, LowHand | None] | None,
    card_set: str,
    stud_cards: Mapping[int, Sequence[Card]] | None,
) -> tuple[int, ...]:
    """Stud odd-chip order: highest card by suit first (TDA 20-B).

    Five-card rule: the card is taken from the winning hand of this half; in
    a low hand the ace counts as 1.  Seven-card rule (RRP): all the player's
    cards (``stud_cards``, else his five), and in the low half the lowest
    card by suit goes first, ace low.  Equal keys (impossible with real
    cards) keep seat order.
    """
    low_half = half == LOW

    def cards_of(player: int) -> Sequence[Card]:
        if card_set == SEVEN_CARD and stud_cards is not None and player in stud_cards:
            return stud_cards[player]
        if low_half and low is not None and (hand := low.get(player)) is not None:
            return hand.cards
        return high[player].cards

    def key(player: int) -> tuple[int, int]:
        ranked = [((1 if c.rank == 14 else c.rank) if low_half else c.rank, c.suit_rank)
                  for c in cards_of(player)]
        if low_half and card_set == SEVEN_CARD:
            lowest = min(ranked, default=(15, 4))
            return (-lowest[0], -lowest[1])
        return max(ranked, default=(0, -1))

    return tuple(sorted(winners, key=key, reverse=True))


def _split(
    awards: list[Award],
    pot_index: int,
    pot: Pot,
    half: str,
    winners: tuple[int, ...],
    half_units: int,
    pot_units: int,
    chip: int,
    hand_name: str,
    multi: str,
    reason: str,
) -> None:
    """Share ``half_units`` among ``winners`` (given in odd-chip order)."""
    count = len(winners)
    base, leftover = divmod(half_units, count)
    shares = [base] * count
    if multi == ALL_TO_FIRST:
        shares[0] += leftover
    else:
        for i in range(leftover):
            shares[i] += 1
    # The high half's own odd unit (TDA 20-C) is an odd chip for a lone winner.
    halving_odd = 1 if half == HIGH and count == 1 and pot_units % 2 else 0
    positions: Sequence[int]
    if count == 1:
        ascending, positions = winners, (0,)
    else:
        ascending = tuple(sorted(winners))
        positions = sorted(range(count), key=winners.__getitem__)
    for position in positions:
        player = winners[position]
        amount = shares[position] * chip
        odd = (shares[position] - base + halving_odd) * chip
        awards.append(Award(
            pot_index=pot_index,
            pot_name=pot.name,
            half=half,
            player=player,
            amount=amount,
            hand_name=hand_name,
            odd_chips=odd,
            explanation=_explain(pot, half, player, ascending, hand_name, amount, odd, chip,
                                 reason),
            pot_amount=pot.amount,
            winners=ascending,
            reason=reason,
        ))


# --------------------------------------------------------------------------
# Words


def _player(index: int) -> str:
    return f"player {index + 1}"


def _players(indices: Sequence[int]) -> str:
    numbers = [str(i + 1) for i in indices]
    if len(numbers) == 1:
        return f"player {numbers[0]}"
    return "players " + ", ".join(numbers[:-1]) + " and " + numbers[-1]


def _low_text(name: str) -> str:
    """"8-5-3-2-A low" reads "8-5-3-2-A" after the word "low"."""
    return name.removesuffix(" low")


def _odd_text(odd: int, chip: int) -> str:
    if odd <= 0:
        return ""
    pieces = odd // chip
    return " with the odd chip" if pieces == 1 else f" with {pieces} odd chips"


def _hand_text(half: str, hand_name: str, reason: str) -> str:
    text = _low_text(hand_name) if half == LOW else hand_name
    return f"{text}, no low" if reason == NO_LOW else text


def _lead(half: str, reason: str) -> str:
    if reason == BOTH_WAYS:
        return "both ways "
    return "" if half == WHOLE else f"{half} "


def _explain(
    pot: Pot,
    half: str,
    player: int,
    winners: tuple[int, ...],
    hand_name: str,
    amount: int,
    odd: int,
    chip: int,
    reason: str,
) -> str:
    """"Main pot 1,200: high to player 2, kings full of sevens, 600"."""
    others = [p for p in winners if p != player]
    shared = f", split with {_players(others)}" if others else ""
    return (
        f"{pot.name} {pot.amount:,}: {_lead(half, reason)}to {_player(player)}{shared}, "
        f"{_hand_text(half, hand_name, reason)}, {amount:,}{_odd_text(odd, chip)}"
    )


def _describe_group(
    group: Sequence[Award], name: Callable[[int], str], shown: Mapping[int, str]
) -> str:
    """One clause for the winners of one half of one pot."""
    first = group[0]
    lead = _lead(first.half, first.reason)
    if len(group) == 1:
        if first.hand_name is None:
            hand = shown.get(first.player, "uncontested")
        else:
            hand = _hand_text(first.half, first.hand_name, first.reason)
        return f"{lead}to {name(first.player)}, {hand}, {first.amount:,}"
    winners = [a.player for a in group]
    if name is _player:
        players = _players(winners)  # "players 1 and 3"
    else:
        named = [name(i) for i in winners]
        players = ", ".join(named[:-1]) + " and " + named[-1]
    hand = _hand_text(first.half, first.hand_name or "", first.reason)
    amounts = [a.amount for a in group]
    if len(set(amounts)) == 1:
        money = f"{amounts[0]:,} each"
    else:
        money = ", ".join(f"{x:,}" for x in amounts[:-1]) + f" and {amounts[-1]:,}"
    return f"{lead}split {players}, {hand}, {money}"

