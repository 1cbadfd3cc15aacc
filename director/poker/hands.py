"""Reading hands at showdown: Omaha and stud, high and 8-or-better low.

High hands are ranked by ``phevaluator`` (a perfect-hash evaluator, written in C);
its rank 1 is a royal flush and 7462 the worst high card, so our ``strength``
is ``7463 - rank``: HIGHER IS BETTER, and equal strength is a tie (suits never
break a tie for winning a pot, RULES.md §0.2).

Omaha (RULES.md §6.3): a hand is exactly two of the four hole cards plus exactly
three board cards, for high and, separately, for low -- 6 x 10 = 60 candidates.

Low (RULES.md §7.1; RRP *Stud High-Low*, WSOP-T): ace-to-five with an
8 qualifier -- five different ranks, all 8 or lower, ace = 1; straights and
flushes are ignored; lows compare from the highest card down, the lower wins.

Two speeds:

* :func:`omaha_high_strength` and :func:`omaha_low_ranks` do no naming; use them
  to rank many hands (a 9-player PO/8 showdown is well under a millisecond).
* :func:`omaha_high`, :func:`omaha_low`, :func:`stud_high`, :func:`stud_low` also
  find the five cards used and the words a dealer reads out.

>>> from director.poker.cards import parse_cards
>>> omaha_high(parse_cards("K♦ 7♥ 7♣ 2♠"), parse_cards("K♣ K♥ 7♠ 3♦ 9♠")).name
'kings full of sevens'
>>> omaha_low(parse_cards("A♦ 3♠ J♥ T♦"), parse_cards("2♣ 5♦ 8♥ K♣ Q♠")).name
'8-5-3-2-A low'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from director.poker.cards import (
    OMAHA_HOLE_CARDS,
    Card,
    check_no_duplicates,
    check_omaha_cards,
    check_stud_cards,
)
from director.poker.errors import CardError

try:  # the C functions take card ids (0..51) directly: much faster than the wrappers
    from phevaluator import _pheval  # type: ignore[import-untyped]

    _evaluate_5: Callable[[int, int, int, int, int], int] = _pheval.evaluate_5cards
    _evaluate_6: Callable[..., int] = _pheval.evaluate_6cards
    _evaluate_7: Callable[..., int] = _pheval.evaluate_7cards
    _evaluate_omaha: Callable[..., int] = _pheval.evaluate_omaha_cards  # board first, then hole
except ImportError:  # pragma: no cover - a phevaluator without the private module
    from phevaluator import evaluator as _ev  # type: ignore[import-untyped,unused-ignore]
    from phevaluator import evaluator_omaha as _evo  # type: ignore[import-untyped,unused-ignore]

    _evaluate_5 = _ev.evaluate_5cards
    _evaluate_6 = _ev.evaluate_6cards
    _evaluate_7 = _ev.evaluate_7cards
    _evaluate_omaha = _evo.evaluate_omaha_cards

NO_LOW = "no low"

WORST_RANK = 7462  # phevaluator: 7-5-4-3-2 offsuit
STRENGTH_BASE = WORST_RANK + 1  # strength = STRENGTH_BASE - phevaluator rank

CATEGORIES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
"""Hand categories, weakest first."""

# phevaluator rank upper bounds of each category, best first.
_CATEGORY_BOUNDS = (
    (10, "straight flush"),
    (166, "four of a kind"),
    (322, "full house"),
    (1599, "flush"),
    (1609, "straight"),
    (2467, "three of a kind"),
    (3325, "two pair"),
    (6185, "pair"),
    (7462, "high card"),
)

_RANK_WORD = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}
_RANK_PLURAL = {rank: ("sixes" if rank == 6 else word + "s") for rank, word in _RANK_WORD.items()}
_RANK_LETTER = {rank: "23456789TJQKA"[rank - 2] for rank in range(2, 15)}
_LOW_LETTER = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8"}
# Low value of a rank for 8-or-better: ace = 1, 2..8 themselves, 9..K = 0 (cannot play low).
_LOW_VALUE = (0, 0, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0, 1)

_HOLE_PAIRS = tuple(combinations(range(OMAHA_HOLE_CARDS), 2))
_BOARD_TRIPLES = {n: tuple(combinations(range(n), 3)) for n in (3, 4, 5)}
# Card id (phevaluator's 0..51, the same as Card.index) = 4 * rank + _SUIT_ID - 8, computed
# inline: the property call costs more than the evaluation itself.
_SUIT_ID = {"c": 0, "d": 1, "h": 2, "s": 3}


def category_of(strength: int) -> str:
    """The category of a strength: ``category_of(7463 - 1) == "straight flush"``."""
    rank = STRENGTH_BASE - strength
    for bound, name in _CATEGORY_BOUNDS:
        if rank <= bound:
            return name
    raise ValueError(f"strength {strength} is out of range")


@dataclass(frozen=True, slots=True)
class HighHand:
    """A high hand: its strength (HIGHER IS BETTER), the five cards, and its name.

    Hands order by strength only, so ``max(hands)`` is a best hand; two hands with
    equal strength tie (they may still differ in suits, so they need not be ``==``).
    """

    strength: int
    cards: tuple[Card, ...]
    category: str
    name: str

    def beats(self, other: HighHand) -> bool:
        return self.strength > other.strength

    def __lt__(self, other: HighHand) -> bool:
        return self.strength < other.strength

    def __le__(self, other: HighHand) -> bool:
        return self.strength <= other.strength

    def __gt__(self, other: HighHand) -> bool:
        return self.strength > other.strength

    def __ge__(self, other: HighHand) -> bool:
        return self.strength >= other.strength


@dataclass(frozen=True, slots=True)
class LowHand:
    """A qualifying 8-or-better low: five distinct ranks HIGHEST FIRST, ace = 1.

    Ordering is by ``ranks`` only and a LOWER tuple is a BETTER low, so
    ``min(lows)`` is a best low and ``a < b`` means *a beats b* (RULES.md §7.1).

    >>> a = LowHand((8, 5, 3, 2, 1), (), "8-5-3-2-A low")
    >>> b = LowHand((8, 5, 4, 2, 1), (), "8-5-4-2-A low")
    >>> a.beats(b), a < b, min(b, a).name
    (True, True, '8-5-3-2-A low')
    """

    ranks: tuple[int, ...]
    cards: tuple[Card, ...]
    name: str

    def beats(self, other: LowHand) -> bool:
        return self.ranks < other.ranks

    def __lt__(self, other: LowHand) -> bool:
        return self.ranks < other.ranks

    def __le__(self, other: LowHand) -> bool:
        return self.ranks <= other.ranks

    def __gt__(self, other: LowHand) -> bool:
        return self.ranks > other.ranks

    def __ge__(self, other: LowHand) -> bool:
        return self.ranks >= other.ranks


# --------------------------------------------------------------------------- naming


def low_name(ranks: Sequence[int] | None) -> str:
    """``(8, 5, 3, 2, 1)`` -> ``"8-5-3-2-A low"``; ``None`` -> ``"no low"``."""
    if ranks is None:
        return NO_LOW
    return "-".join(_LOW_LETTER[r] for r in ranks) + " low"


_NO_SETS = frozenset({"high card", "straight", "flush", "straight flush"})


def _reading_order(five: Sequence[Card], category: str) -> tuple[Card, ...]:
    """The five cards in the order a dealer reads them: sets first, then kickers.

    Bigger groups first, higher ranks first, higher suits first; a five-high
    straight (the wheel) reads 5-4-3-2-A.
    """
    suit = _SUIT_ID
    # One integer per card: group size, then rank, then suit (unique, so no Card is compared).
    if category in _NO_SETS:
        keyed = sorted([((c.rank << 2) | suit[c.suit], c) for c in five], reverse=True)
    else:
        ranks = [c.rank for c in five]
        keyed = sorted([((ranks.count(c.rank) << 6) | (c.rank << 2) | suit[c.suit], c)
                        for c in five], reverse=True)
    ordered = [c for _, c in keyed]
    if category in ("straight", "straight flush") and ordered[0].rank == 14 and ordered[1].rank == 5:
        ordered = ordered[1:] + ordered[:1]
    return tuple(ordered)


def _name(cards: Sequence[Card], category: str) -> str:
    """The words a dealer reads out for five cards in reading order."""
    first = cards[0].rank
    if category == "straight flush":
        return "royal flush" if first == 14 else f"straight flush, {_RANK_WORD[first]} high"
    if category == "four of a kind":
        return f"four {_RANK_PLURAL[first]}"
    if category == "full house":
        return f"{_RANK_PLURAL[first]} full of {_RANK_PLURAL[cards[3].rank]}"
    if category == "flush":
        return f"{_RANK_WORD[first]}-high flush"
    if category == "straight":
        return f"{_RANK_WORD[first]}-high straight"
    if category == "three of a kind":
        return f"three {_RANK_PLURAL[first]}"
    if category == "two pair":
        return f"two pair, {_RANK_PLURAL[first]} and {_RANK_PLURAL[cards[2].rank]}"
    if category == "pair":
        return f"pair of {_RANK_PLURAL[first]}"
    return "-".join(_RANK_LETTER[c.rank] for c in cards) + " high"


_NAMES: dict[int, tuple[str, str]] = {}
"""(category, name) by strength: the name depends on the ranks alone, which the strength fixes."""


def _high_hand(strength: int, five: Sequence[Card]) -> HighHand:
    known = _NAMES.get(strength)
    if known is None:
        category = category_of(strength)
        cards = _reading_order(five, category)
        known = _NAMES[strength] = (category, _name(cards, category))
    else:
        cards = _reading_order(five, known[0])
    return HighHand(strength, cards, known[0], known[1])


# --------------------------------------------------------------------------- Omaha high


def _unknown_card() -> CardError:
    return CardError("A hand with a face-down or unknown card cannot be read", rule="TDA 13-A")


def _omaha_ids(hole: Sequence[Card], board: Sequence[Card]) -> tuple[list[int], list[int]]:
    """Card ids, after checking the counts (4 hole, 3-5 board) and duplicates."""
    suit = _SUIT_ID
    try:
        h = [4 * c.rank + suit[c.suit] - 8 for c in hole]
        b = [4 * c.rank + suit[c.suit] - 8 for c in board]
    except AttributeError:
        raise _unknown_card() from None
    if len(h) != OMAHA_HOLE_CARDS or not 3 <= len(b) <= 5 or len(set(h + b)) != len(h) + len(b):
        check_omaha_cards(hole, board)  # raises the dealer's sentence for counts and duplicates
        raise CardError(
            "An Omaha hand needs at least 3 board cards to be read, not {count}",
            rule="RULES §6.3",
            count=len(b),
        )
    return h, b


def _omaha_rank(h: list[int], b: list[int]) -> int:
    """Best (lowest) phevaluator rank over the 2+3 combinations."""
    if len(b) == 5:
        return _evaluate_omaha(*b, *h)
    return min(
        _evaluate_5(h[i], h[j], b[x], b[y], b[z])
        for i, j in _HOLE_PAIRS
        for x, y, z in _BOARD_TRIPLES[len(b)]
    )


def omaha_high_strength(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """Strength (HIGHER IS BETTER) of the best two-hole-plus-three-board hand; no naming.

    RULES.md §6.3.  Equal strength is a tie.  The board must have 3, 4 or 5 cards.

    >>> from director.poker.cards import parse_cards
    >>> a = omaha_high_strength(parse_cards("K♦7♥7♣2♠"), parse_cards("K♣K♥7♠3♦9♠"))
    >>> b = omaha_high_strength(parse_cards("9♠9♣9♦A♥"), parse_cards("9♥K♣7♦4♠2♣"))
    >>> a > b
    True
    """
    h, b = _omaha_ids(hole, board)
    return STRENGTH_BASE - _omaha_rank(h, b)


def omaha_high_strengths(holes: Sequence[Sequence[Card]], board: Sequence[Card]) -> list[int]:
    """:func:`omaha_high_strength` of several hands against one board, in one pass.

    Used at showdown to compare every live hand: the board is read once and the
    counts and duplicates are checked once for all the hands together.

    >>> from director.poker.cards import parse_cards
    >>> board = parse_cards("K♣K♥7♠3♦9♠")
    >>> a, b = omaha_high_strengths([parse_cards("K♦7♥7♣2♠"), parse_cards("9♥9♣9♦A♥")], board)
    >>> a > b, a == omaha_high_strength(parse_cards("K♦7♥7♣2♠"), board)
    (True, True)
    """
    suit = _SUIT_ID
    try:
        b = [4 * c.rank + suit[c.suit] - 8 for c in board]
        ids = [[4 * c.rank + suit[c.suit] - 8 for c in hole] for hole in holes]
    except AttributeError:
        raise _unknown_card() from None
    seen = len(b) + 4 * len(ids)
    if (not 3 <= len(b) <= 5 or any(len(h) != OMAHA_HOLE_CARDS for h in ids)
            or len(set(b).union(*ids)) != seen):
        for hole in holes:
            _omaha_ids(hole, board)  # raises the dealer's sentence for this hand
        check_no_duplicates(*holes, board)
    if len(b) == 5:
        evaluate = _evaluate_omaha
        return [STRENGTH_BASE - evaluate(*b, *h) for h in ids]
    return [STRENGTH_BASE - _omaha_rank(h, b) for h in ids]


def omaha_high(hole: Sequence[Card], board: Sequence[Card]) -> HighHand:
    """The best Omaha high hand: exactly two hole cards plus exactly three board cards.

    RULES.md §6.3 [OM-1..OM-5].  With four hearts on the board and one in the
    hand there is no flush:

    >>> from director.poker.cards import parse_cards
    >>> omaha_high(parse_cards("Q♥ J♠ T♣ 4♦"), parse_cards("A♥ 9♥ 6♥ 2♥ K♣")).name
    'A-K-Q-J-9 high'
    >>> omaha_high(parse_cards("K♠ K♦ 2♣ 3♦"), parse_cards("A♠ A♦ A♥ A♣ 5♦")).name
    'aces full of kings'
    """
    h, b = _omaha_ids(hole, board)
    best = _omaha_rank(h, b)
    i, j, x, y, z = _omaha_best_five(h, b, best)
    return _high_hand(STRENGTH_BASE - best, (hole[i], hole[j], board[x], board[y], board[z]))


def _omaha_best_five(h: list[int], b: list[int], best: int) -> tuple[int, int, int, int, int]:
    """Positions (hole i, hole j, board x, y, z) of a combination of phevaluator rank ``best``.

    A hole pair whose best five of the seven cards (pair + five board cards) is
    already worse than ``best`` cannot make it with exactly three board cards
    either, so its ten board triples are skipped: one C call instead of ten.
    """
    triples = [((x, y, z), b[x], b[y], b[z]) for x, y, z in _BOARD_TRIPLES[len(b)]]
    whole_board = len(b) == 5
    for i, j in _HOLE_PAIRS:
        first, second = h[i], h[j]
        if whole_board and _evaluate_7(first, second, *b) > best:
            continue
        for where, x, y, z in triples:
            if _evaluate_5(first, second, x, y, z) == best:
                return (i, j, *where)
    raise AssertionError("the best Omaha combination was not found")  # pragma: no cover


# --------------------------------------------------------------------------- Omaha low


def _best_omaha_low(hole: Sequence[Card], board: Sequence[Card]) -> tuple[tuple[int, ...], int, int] | None:
    """(ranks highest first, hole low value 1, hole low value 2) of the best low, or None."""
    board_lows = sorted({v for c in board if (v := _LOW_VALUE[c.rank])})
    if len(board_lows) < 3:
        return None
    hole_lows = sorted({v for c in hole if (v := _LOW_VALUE[c.rank])})
    best: tuple[tuple[int, ...], int, int] | None = None
    for n, first in enumerate(hole_lows):
        for second in hole_lows[n + 1:]:
            three = [v for v in board_lows if v != first and v != second][:3]
            if len(three) < 3:
                continue
            ranks = tuple(sorted((first, second, *three), reverse=True))
            if best is None or ranks < best[0]:
                best = (ranks, first, second)
    return best


def omaha_low_ranks(hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, ...] | None:
    """The best 8-or-better low (ranks highest first, ace = 1) using 2 hole + 3 board; no naming.

    RULES.md §7.1.  ``None`` when there is no qualifying low.  Lower tuple = better low.

    >>> from director.poker.cards import parse_cards
    >>> omaha_low_ranks(parse_cards("2♣ 4♦ J♠ T♦"), parse_cards("A♣ 3♦ 7♥ K♣ Q♠"))
    (7, 4, 3, 2, 1)
    >>> omaha_low_ranks(parse_cards("A♦ 2♠ K♥ Q♦"), parse_cards("A♣ 3♦ 7♥ K♣ Q♠")) is None
    True
    """
    _omaha_ids(hole, board)
    best = _best_omaha_low(hole, board)
    return None if best is None else best[0]


def _pick(cards: Sequence[Card], low_values: Sequence[int]) -> list[Card]:
    """For each low value, the highest-suited card of that rank among ``cards``."""
    picked: list[Card] = []
    for value in low_values:
        picked.append(max(c for c in cards if _LOW_VALUE[c.rank] == value))
    return picked


def _low_hand(ranks: tuple[int, ...], cards: Sequence[Card]) -> LowHand:
    order = {value: n for n, value in enumerate(ranks)}
    ordered = tuple(sorted(cards, key=lambda c: order[_LOW_VALUE[c.rank]]))
    return LowHand(ranks, ordered, low_name(ranks))


def omaha_low(hole: Sequence[Card], board: Sequence[Card]) -> LowHand | None:
    """The best Omaha 8-or-better low, exactly 2 hole + 3 board, or ``None`` (RULES.md §7.1).

    The two hole cards must be two different low ranks that do not pair the three
    board cards used (counterfeit, [LO-3]).  Where a rank is held twice, the card
    of the higher suit is shown.

    >>> from director.poker.cards import parse_cards
    >>> omaha_low(parse_cards("A♥ 3♠ K♥ K♦"), parse_cards("7♥ 6♥ 4♥ Q♣ 2♦")).name
    '6-4-3-2-A low'
    """
    _omaha_ids(hole, board)
    best = _best_omaha_low(hole, board)
    if best is None:
        return None
    ranks, first, second = best
    three = [v for v in ranks if v not in (first, second)]
    return _low_hand(ranks, _pick(hole, (first, second)) + _pick(board, three))


# --------------------------------------------------------------------------- stud


def _stud_ids(cards: Sequence[Card]) -> list[int]:
    suit = _SUIT_ID
    try:
        ids = [4 * c.rank + suit[c.suit] - 8 for c in cards]
    except AttributeError:
        raise _unknown_card() from None
    if not 5 <= len(ids) <= 7 or len(set(ids)) != len(ids):
        check_stud_cards(cards)
        raise CardError(
            "A stud hand needs at least 5 cards to be read, not {count}", rule="RULES §3.1", count=len(ids)
        )
    return ids


def stud_high_strength(cards: Sequence[Card]) -> int:
    """Strength (HIGHER IS BETTER) of the best five of 5..7 cards; no naming."""
    ids = _stud_ids(cards)
    rank = _evaluate_5(*ids) if len(ids) == 5 else (_evaluate_6(*ids) if len(ids) == 6 else _evaluate_7(*ids))
    return STRENGTH_BASE - rank


def stud_high(cards: Sequence[Card]) -> HighHand:
    """The best five of a stud player's 5..7 cards (RULES.md §3.1).

    When several five-card sets are equally strong, the one holding the highest
    card by suit is used, since TDA 20-B gives a stud odd chip to the highest card
    by suit in the five-card winning hand.

    >>> from director.poker.cards import parse_cards
    >>> stud_high(parse_cards("A♠ A♦ K♣ K♥ Q♠ Q♥ 2♣")).name
    'two pair, aces and kings'
    """
    ids = _stud_ids(cards)
    count = len(ids)
    rank = _evaluate_5(*ids) if count == 5 else (_evaluate_6(*ids) if count == 6 else _evaluate_7(*ids))
    # Card ids order as cards do (rank, then suit): the five-card sets of the ids
    # sorted high to low come highest cards by suit first, so the first one that is
    # as strong as the best hand is the one to show.
    by_id = {ids[k]: cards[k] for k in range(count)}
    for five in combinations(sorted(ids, reverse=True), 5):
        if _evaluate_5(*five) == rank:
            return _high_hand(STRENGTH_BASE - rank, tuple(by_id[i] for i in five))
    raise AssertionError("the best stud hand was not found")  # pragma: no cover


def stud_low_ranks(cards: Sequence[Card]) -> tuple[int, ...] | None:
    """Best 8-or-better low of 5..7 stud cards, ranks highest first; no naming."""
    _stud_ids(cards)
    lows = sorted({v for c in cards if (v := _LOW_VALUE[c.rank])})
    if len(lows) < 5:
        return None
    return tuple(reversed(lows[:5]))


def stud_low(cards: Sequence[Card]) -> LowHand | None:
    """The best 8-or-better low of a stud/8 player's 5..7 cards, or ``None`` (RULES.md §3.8, §7.1).

    The wheel is the best low even when it is also a straight flush for high:

    >>> from director.poker.cards import parse_cards
    >>> stud_low(parse_cards("A♠ 2♠ 3♠ 4♠ 5♠ K♦ K♣")).name
    '5-4-3-2-A low'
    """
    ranks = stud_low_ranks(cards)
    if ranks is None:
        return None
    return _low_hand(ranks, _pick(cards, ranks))


# --------------------------------------------------------------------------- stud order of action


def exposed_strength(up_cards: Sequence[Card], by_suit: bool) -> tuple[int, ...]:
    """Rank a stud player's up-cards to find who acts first on 4th-7th street. HIGHER IS BETTER.

    RULES.md §3.3: the highest exposed hand acts first; with at most four up-cards
    four of a kind > three of a kind > two pair > one pair > high cards
    (straights and flushes do not count).  Identical hands: with ``by_suit``
    (TDA RP-10-D, the tournament default, policy ``stud_high_hand_tie="suit"``)
    the highest card by suit of the deciding group breaks the tie, so two
    players' hands never compare equal; without it (RRP / WSOP-LA, policy
    ``"position"``) they compare equal and the caller goes by position.

    The tuple is ``(category, ranks..., [suits...])``: category 4 quads, 3 trips,
    2 two pair, 1 pair, 0 high cards; ranks and then suits in reading order.

    [ST-8] S2 Q♥ J♠ against S5 Q♠ J♦:

    >>> from director.poker.cards import parse_cards
    >>> exposed_strength(parse_cards("Q♠ J♦"), True) > exposed_strength(parse_cards("Q♥ J♠"), True)
    True
    >>> exposed_strength(parse_cards("Q♠ J♦"), False) == exposed_strength(parse_cards("Q♥ J♠"), False)
    True
    """
    if not 1 <= len(up_cards) <= 4:
        raise CardError(
            "A stud player shows 1 to 4 up-cards, not {count}", rule="RULES §3.1", count=len(up_cards)
        )
    check_no_duplicates(up_cards)
    counts: dict[int, int] = {}
    for card in up_cards:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 4:
        category = 4
    elif shape[0] == 3:
        category = 3
    elif shape[0] == 2:
        category = 2 if len(shape) > 1 and shape[1] == 2 else 1
    else:
        category = 0
    ordered = sorted(up_cards, key=lambda c: (counts[c.rank], c.rank, c.suit_rank), reverse=True)
    key = (category, *(c.rank for c in ordered))
    if by_suit:
        key = (*key, *(c.suit_rank for c in ordered))
    return key


def bring_in_order(up_card: Card) -> tuple[int, int]:
    """Sort key for the stud bring-in: the LOWEST key brings in (RULES.md §3.2).

    Stud high and stud/8: the ace counts high; equal ranks go by suit
    ♣ < ♦ < ♥ < ♠ (RRP *Stud* 1; TDA RP-10; WSOP).  [ST-1] 3♣ brings in before 3♥:

    >>> from director.poker.cards import parse_card
    >>> min(["J♦", "3♥", "3♣", "A♠", "9♠", "Q♣"], key=lambda t: bring_in_order(parse_card(t)))
    '3♣'
    """
    return (up_card.rank, up_card.suit_rank)


__all__ = [
    "CATEGORIES",
    "NO_LOW",
    "HighHand",
    "LowHand",
    "bring_in_order",
    "category_of",
    "exposed_strength",
    "low_name",
    "omaha_high",
    "omaha_high_strength",
    "omaha_high_strengths",
    "omaha_low",
    "omaha_low_ranks",
    "stud_high",
    "stud_high_strength",
    "stud_low",
    "stud_low_ranks",
]
