"""Playing cards: the value type, the notation dealers type, and card-count checks.

Notation (RULES.md §0.2): a card is a rank followed by a suit, ``As`` or ``A♠``.
Suits rank ♣ < ♦ < ♥ < ♠ (clubs, diamonds, hearts, spades: alphabetical); the
suit order is used only for the stud bring-in, tie-breaks for who acts first,
odd chips and seat draws, never to decide who wins a pot.

Reading rules for :func:`parse_card` and :func:`parse_cards`, exactly:

1. A card is a RANK followed by a SUIT.  Letters are case-insensitive and the
   emoji variation selector (U+FE0F) after a suit symbol is ignored.
2. SUIT is one letter ``c d h s`` or one symbol ``♣ ♦ ♥ ♠`` (also the white
   symbols ``♧ ♢ ♡ ♤`` and the phone keyboard's ``❤``).
3. RANK is ``2``-``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``, ``A`` (English), or
   a local letter: Swedish ``E`` (ess, ace), ``D`` (dam, queen), ``Kn`` (knekt,
   jack), as in seed 001's ``E♠ K♥ D♠ Kn♥``; Indonesian ``As`` (ace) -- the
   Indonesian king, queen and jack are ``K Q J`` as in English.
4. A local letter is only ever read as a rank when a suit follows it, so ``As``
   alone is always the ace of spades, ``As♥`` and ``Ash`` are the ace of
   hearts, and ``Ass`` and ``As♠`` the ace of spades.  No local letter is also
   an English rank, so a single card never has two readings.
5. In a run of cards written without spaces (``AsKd7h``, ``E♠Kn♥``) a reading is
   chosen that uses every character.  Where two readings would both work the
   English one wins, unless ``locale`` is given, in which case that locale's
   letters are tried first.
6. With ``locale="sv"`` or ``locale="id"``, :func:`parse_rank` also accepts that
   locale's letters standing alone (``parse_rank("E", locale="sv") == 14``);
   without a locale a bare rank must be English.

>>> parse_card("A♠") == parse_card("as") == parse_card("AS") == parse_card("a♠")
True
>>> parse_card("10h"), parse_card("Kn♥").symbol, parse_card("E♠").symbol
(Card(rank=10, suit='h'), 'J♥', 'A♠')
>>> format_cards(parse_cards("E♠ K♥ D♠ Kn♥"))
'AsKhQsJh'
>>> format_card(parse_card("Qs"), locale="sv")
'D♠'
>>> parse_cards("As As")
Traceback (most recent call last):
...
director.poker.errors.CardError: The A♠ appears twice
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from director.poker.errors import CardError

SUITS = "cdhs"  # order low -> high: clubs < diamonds < hearts < spades
RANKS = "23456789TJQKA"
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
LOCALES = ("en", "sv", "id")

_SUIT_TEXT: dict[str, str] = {
    "c": "c", "d": "d", "h": "h", "s": "s",
    "♣": "c", "♦": "d", "♥": "h", "♠": "s",
    "♧": "c", "♢": "d", "♡": "h", "♤": "s",
    "❤": "h",  # the heavy heart phones offer for ♥
}
_SUIT_RANK = {"c": 0, "d": 1, "h": 2, "s": 3}

# English rank words, upper case.
_ENGLISH_RANKS: dict[str, int] = {r: i + 2 for i, r in enumerate(RANKS)} | {"10": 10}
# Local rank words (upper case) by locale.  Never overlap with English ranks.
_LOCAL_RANKS: dict[str, dict[str, int]] = {
    "sv": {"E": 14, "D": 12, "KN": 11},
    "id": {"AS": 14},
}
# The letters a dealer of each locale reads, ace first (for a card picker).
_LETTERS: dict[str, dict[int, str]] = {
    "en": {14: "A", 13: "K", 12: "Q", 11: "J"},
    "sv": {14: "E", 13: "K", 12: "D", 11: "Kn"},
    "id": {14: "As", 13: "K", 12: "Q", 11: "J"},
}

_SEPARATORS = re.compile(r"[\s,;]+")


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card.  ``rank`` is 2..14 (ace = 14), ``suit`` one of ``"cdhs"``.

    Cards order by rank, then by suit ♣ < ♦ < ♥ < ♠, which is the order the
    stud bring-in uses (RRP *Stud* 1, TDA RP-10).

    >>> c = Card(14, "s")
    >>> str(c), c.symbol, c.suit_rank, c.index
    ('As', 'A♠', 3, 51)
    >>> Card(3, "c") < Card(3, "h") < Card(4, "c")
    True
    """

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not (isinstance(self.rank, int) and 2 <= self.rank <= 14) or self.suit not in _SUIT_RANK:
            raise CardError("{text} is not a card", text=f"{self.rank!r}/{self.suit!r}")

    def __str__(self) -> str:
        return RANKS[self.rank - 2] + self.suit

    @property
    def symbol(self) -> str:
        """The card as a dealer writes it: ``"A♠"``."""
        return RANKS[self.rank - 2] + SUIT_SYMBOLS[self.suit]

    @property
    def suit_rank(self) -> int:
        """Suit order for bring-in and tie-breaks: ♣ 0, ♦ 1, ♥ 2, ♠ 3."""
        return _SUIT_RANK[self.suit]

    @property
    def index(self) -> int:
        """0..51, ``(rank - 2) * 4 + suit_rank``: 2♣ = 0, A♠ = 51 (phevaluator's card id)."""
        return (self.rank - 2) * 4 + _SUIT_RANK[self.suit]

    @property
    def low_rank(self) -> int:
        """Rank for ace-to-five low: the ace counts 1 (RULES.md §7.1)."""
        return 1 if self.rank == 14 else self.rank


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(2, 15) for suit in SUITS)
"""All 52 cards, in :attr:`Card.index` order (``DECK[c.index] is c``)."""


def card_from_index(index: int) -> Card:
    """The card with :attr:`Card.index` ``index`` (0 = 2♣ ... 51 = A♠)."""
    return DECK[index]


def _norm_locale(locale: str | None) -> str | None:
    """``"sv_SE"``/``"sv-SE"``/``"SV"`` -> ``"sv"``; ``None`` stays ``None``."""
    if locale is None:
        return None
    code = locale.replace("-", "_").split("_")[0].lower()
    if code not in LOCALES:
        raise CardError("Card letters for language {locale} are not known", locale=locale)
    return code


def _rank_words(locale: str | None) -> tuple[tuple[str, int], ...]:
    """Rank words to try at one position, in order of preference (rule 5)."""
    english = tuple(_ENGLISH_RANKS.items())
    if locale in _LOCAL_RANKS:
        assert locale is not None
        others = tuple(w for code, words in _LOCAL_RANKS.items() if code != locale for w in words.items())
        return (*_LOCAL_RANKS[locale].items(), *english, *others)
    return (*english, *(w for words in _LOCAL_RANKS.values() for w in words.items()))


@lru_cache(maxsize=4096)
def _read_run(text: str, locale: str | None) -> tuple[Card, ...] | None:
    """Split a run of cards with no spaces, e.g. ``"AsKd7h"``; ``None`` if impossible."""
    upper = text.upper()
    words = _rank_words(locale)

    def read(pos: int) -> tuple[Card, ...] | None:
        if pos == len(text):
            return ()
        for word, rank in words:
            end = pos + len(word)
            if upper.startswith(word, pos) and end < len(text):
                suit = _SUIT_TEXT.get(text[end].lower())
                if suit is None:
                    continue
                after = end + 1
                if after < len(text) and text[after] == "\ufe0f":
                    after += 1
                rest = read(after)
                if rest is not None:
                    return (Card(rank, suit), *rest)
        return None

    return read(0)


def parse_card(text: str | Card, locale: str | None = None) -> Card:
    """Read one card in any of the notations above (module docstring, rules 1-6).

    >>> parse_card("Ts") == parse_card("10♠") == parse_card("t♤")
    True
    >>> parse_card("As"), parse_card("As♥", locale="id")
    (Card(rank=14, suit='s'), Card(rank=14, suit='h'))
    >>> parse_card("Xs")
    Traceback (most recent call last):
    ...
    director.poker.errors.CardError: “Xs” is not a card; write it like A♠, As or 10♥
    """
    if isinstance(text, Card):
        return text
    code = _norm_locale(locale)
    cleaned = text.strip()
    cards = _read_run(cleaned, code) if cleaned else None
    if cards is None or len(cards) != 1:
        raise CardError("“{text}” is not a card; write it like A♠, As or 10♥", text=text)
    return cards[0]


def parse_rank(text: str, locale: str | None = None) -> int:
    """Read a rank alone (2..14).  Local letters need ``locale`` (rule 6).

    >>> parse_rank("q"), parse_rank("10"), parse_rank("Kn", locale="sv"), parse_rank("As", locale="id")
    (12, 10, 11, 14)
    """
    code = _norm_locale(locale)
    word = text.strip().upper()
    if word in _ENGLISH_RANKS:
        return _ENGLISH_RANKS[word]
    if code in _LOCAL_RANKS and word in _LOCAL_RANKS[code]:
        return _LOCAL_RANKS[code][word]
    raise CardError("“{text}” is not a card rank", text=text)


def parse_cards(text: str | Iterable[str | Card], locale: str | None = None) -> tuple[Card, ...]:
    """Read several cards: ``"AsKd7h"``, ``"A♠ K♦ 7♥"``, ``"As, Kd"`` or ``["As", "Kd"]``.

    Spaces, commas and semicolons separate cards; a run without separators is
    split as in rule 5.  A card given twice raises :class:`CardError`.

    >>> format_cards(parse_cards("AsKd 7♥, 10c"))
    'AsKd7hTc'
    """
    code = _norm_locale(locale)
    cards: list[Card] = []
    if isinstance(text, str):
        for chunk in _SEPARATORS.split(text.strip()):
            if not chunk:
                continue
            run = _read_run(chunk, code)
            if run is None:
                raise CardError("“{text}” is not a card; write it like A♠, As or 10♥", text=chunk)
            cards.extend(run)
    else:
        cards.extend(parse_card(item, code) for item in text)
    check_no_duplicates(cards)
    return tuple(cards)


def format_cards(cards: Iterable[Card | None]) -> str:
    """``"AsKd"``; an unknown (face-down) card is ``"??"``.

    >>> format_cards([Card(14, "s"), None, Card(10, "h")])
    'As??Th'
    """
    return "".join("??" if card is None else str(card) for card in cards)


def card_letters(locale: str | None = None) -> dict[int, str]:
    """The rank letters a dealer of ``locale`` reads, ace first, for a card picker.

    sv: E K D Kn for A K Q J (seed 001); id: As K Q J; en (default): A K Q J.
    The ten is ``T`` in every locale (``10`` is accepted when typing).

    >>> " ".join(card_letters("sv").values())
    'E K D Kn T 9 8 7 6 5 4 3 2'
    """
    code = _norm_locale(locale) or "en"
    return {rank: _LETTERS[code].get(rank, RANKS[rank - 2]) for rank in range(14, 1, -1)}


def format_card(card: Card | None, locale: str | None = None) -> str:
    """The card with the locale's rank letter and the suit symbol: sv ``"Kn♥"``, id ``"As♠"``.

    >>> format_card(Card(11, "h"), "sv"), format_card(Card(14, "s"), "id"), format_card(Card(14, "s"))
    ('Kn♥', 'As♠', 'A♠')
    """
    if card is None:
        return "??"
    return card_letters(locale)[card.rank] + SUIT_SYMBOLS[card.suit]


def check_no_duplicates(*groups: Iterable[Card | None]) -> None:
    """No card may be dealt twice; unknown cards (``None``) are ignored.

    >>> check_no_duplicates([Card(14, "s")], [Card(14, "s")])
    Traceback (most recent call last):
    ...
    director.poker.errors.CardError: The A♠ appears twice
    """
    seen: set[Card] = set()
    for group in groups:
        for card in group:
            if card is None:
                continue
            if card in seen:
                raise CardError("The {card} appears twice", card=card.symbol)
            seen.add(card)


OMAHA_HOLE_CARDS = 4
OMAHA_BOARD_SIZES = (0, 3, 4, 5)
STUD_MAX_CARDS = 7


def check_omaha_cards(hole: Sequence[Card | None], board: Sequence[Card | None]) -> None:
    """An Omaha hand has 4 hole cards; the board has 0, 3, 4 or 5 cards; no card twice.

    RULES.md §6.3 (two-plus-three), §6.2 (all four hole cards are tabled).

    >>> check_omaha_cards(parse_cards("AsKsQsJs Ts"), [])
    Traceback (most recent call last):
    ...
    director.poker.errors.CardError: An Omaha hand has 4 hole cards, not 5
    """
    if len(hole) != OMAHA_HOLE_CARDS:
        raise CardError("An Omaha hand has 4 hole cards, not {count}", rule="RULES §6.3", count=len(hole))
    if len(board) not in OMAHA_BOARD_SIZES:
        raise CardError(
            "An Omaha board has 0, 3, 4 or 5 cards, not {count}", rule="RULES §6.3", count=len(board)
        )
    check_no_duplicates(hole, board)


def check_stud_cards(cards: Sequence[Card | None]) -> None:
    """A seven-card stud hand has at most 7 cards (RULES.md §3.1); no card twice.

    >>> check_stud_cards(parse_cards("2c3c4c5c6c7c8c9c"))
    Traceback (most recent call last):
    ...
    director.poker.errors.CardError: A stud hand has at most 7 cards, not 8
    """
    if len(cards) > STUD_MAX_CARDS:
        raise CardError("A stud hand has at most 7 cards, not {count}", rule="RULES §3.1", count=len(cards))
    check_no_duplicates(cards)
