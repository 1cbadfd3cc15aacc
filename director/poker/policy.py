"""House policy flags that change how one hand is played (RULES.md §11.1).

Every default is the TDA 2024 tournament answer; the alternatives are what
cash games (Robert's Rules of Poker, RRP) or other houses use.  A ``Policy`` is a
frozen value that travels with the hand's configuration, so replaying a hand
always uses the policy it was dealt under.

>>> Policy().limit_raise_cap, Policy().stud_high_hand_tie
(3, 'suit')
>>> Policy.from_json(Policy(limit_raise_cap=4).to_json()) == Policy(limit_raise_cap=4)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar, Self

from director.poker.errors import RuleViolation

_CHOICES: dict[str, tuple[str, ...]] = {
    "bba_order": ("big-blind-first", "ante-first"),
    "stud_high_hand_tie": ("suit", "position"),
    "odd_chip_multi": ("one-per-winner", "all-to-first"),
    "stud_odd_chip_card_set": ("five-card", "seven-card"),
    "identical_hands_both_ways": ("split-whole", "quarter"),
    "straddle_min_raise": ("double-straddle", "straddle-plus-bb"),
}


class FlagSet:
    """What every set of house flags shares: choices checked on creation, and a
    JSON round trip that refuses unknown flags.  Subclasses are frozen dataclasses
    that name their string flags' allowed values in ``CHOICES``."""

    __slots__ = ()
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {}

    def _check_choices(self) -> None:
        for name, allowed in self.CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise RuleViolation(
                    "Policy {flag} must be one of {allowed}, not {value}",
                    flag=name, allowed=", ".join(allowed), value=value,
                )

    def to_json(self) -> dict[str, Any]:
        """A plain dict of every flag (JSON-ready)."""
        flags: dict[str, Any] = asdict(self)  # type: ignore[call-overload]
        return flags

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Self:
        """Rebuild from :meth:`to_json`; unknown keys are refused, missing keys take the default."""
        if not data:
            return cls()
        known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        unknown = sorted(set(data) - known)
        if unknown:
            raise RuleViolation("Unknown policy flag {flag}", flag=unknown[0])
        return cls(**data)


@dataclass(frozen=True, slots=True)
class Policy(FlagSet):
    """The flags of RULES.md §11.1 that concern a single hand.

    * ``limit_raise_cap``: raises allowed after the bet in fixed limit (3 = bet + 3
      raises, RRP; WSOP-T uses 4); ``None`` = no cap.
    * ``limit_cap_heads_up``: ``True`` keeps the cap when only two players are
      left (TDA 2024 rule 48: the cap holds until the *event* is heads-up);
      ``False`` is the RRP cash rule (no cap once the pot is heads-up before
      the cap was reached).
    * ``bba_order``: big-blind ante, "big-blind-first" (TDA RP-11) or "ante-first".
    * ``pl_preflop_assume_full_blinds``: TDA 54-B, a dead or short blind does not
      shrink the pre-flop pot-limit count.
    * ``pl_count_antes_in_pot``: antes (and the big-blind ante) are in the pot
      for the pot-limit count (RULES.md [PL-9]).
    * ``limit_short_allin_counts_to_cap``: a fixed-limit all-in of at least half
      a bet, which counts as a full raise (TDA 47-B), also counts toward the cap.
    * ``stud_high_hand_tie``: identical exposed stud hands, who acts first:
      "suit" (TDA RP-10-D) or "position" (RRP).
    * ``stud_4th_street_double``: RRP's open-pair double bet on 4th street
      (stud high only; off in tournaments, TDA RP-10-F).
    * ``odd_chip_multi``, ``stud_odd_chip_card_set``, ``identical_hands_both_ways``:
      read by :func:`director.poker.pots.award_pots` (RULES.md §7.3).
    * ``straddle_min_raise``: "double-straddle" (the straddle is the new
      bring-in, min raise to twice it) or "straddle-plus-bb" (pokerkit).
    """

    limit_raise_cap: int | None = 3
    limit_cap_heads_up: bool = True
    bba_order: str = "big-blind-first"
    pl_preflop_assume_full_blinds: bool = True
    pl_count_antes_in_pot: bool = True
    limit_short_allin_counts_to_cap: bool = True
    stud_high_hand_tie: str = "suit"
    stud_4th_street_double: bool = False
    odd_chip_multi: str = "one-per-winner"
    stud_odd_chip_card_set: str = "five-card"
    identical_hands_both_ways: str = "split-whole"
    straddle_min_raise: str = "double-straddle"

    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = _CHOICES

    def __post_init__(self) -> None:
        self._check_choices()
        if self.limit_raise_cap is not None and self.limit_raise_cap < 1:
            raise RuleViolation(
                "Policy limit_raise_cap must be at least 1 or empty, not {value}",
                value=self.limit_raise_cap,
            )



DEFAULT_POLICY = Policy()
