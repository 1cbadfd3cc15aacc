"""Who engine player *i* is: the one place engine indices meet seats and names
(``DealerHand.players``), and sentences that name "Seat 3 (Ann)", never an index."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from director.i18n import N_
from director.i18n import gettext as _
from director.services import Invalid
from director.services.audit import Said

_SEAT_WORD = re.compile(r"\b([Ss]eats?|[Pp]lats(?:er)?|[Kk]ursi) (\d+(?:(?:, | and )\d+)*)")


_PLAYER_WORD = re.compile(r"\b([Pp]layers?) (\d+(?:(?:, | and )\d+)*)")


class Seating:
    """The one place engine indices meet seats and names (``DealerHand.players``)."""

    def __init__(self, players: Sequence[dict[str, Any]]) -> None:
        self.players = list(players)
        self.by_seat = {int(p["seat"]): i for i, p in enumerate(self.players)}

    def seat(self, index: int) -> int:
        return int(self.players[index]["seat"])

    def name(self, index: int) -> str:
        return str(self.players[index]["name"])

    def label(self, index: int) -> str:
        return Said(N_("Seat %(seat)s (%(name)s)"), seat=self.seat(index), name=self.name(index))

    def index(self, seat: int, field: str = "seat") -> int:
        if seat not in self.by_seat:
            raise Invalid({field: _("Seat %(seat)s is not in this hand", seat=seat)})
        return self.by_seat[seat]

    def _names(self, numbers: str, by_index: bool) -> str:
        parts = re.split(r"(, | and )", numbers)
        out = []
        for part in parts:
            if part.isdigit():
                n = int(part)
                index = n - 1 if by_index else self.by_seat.get(n)
                if index is not None and 0 <= index < len(self.players):
                    out.append(f"{self.seat(index)} ({self.name(index)})")
                    continue
            out.append(part)
        return "".join(out)

    def words(self, text: str, *, engine_players: bool = False) -> str:
        """Name players in a sentence: "seat 3" -> "seat 3 (Ann)"; with
        ``engine_players`` also "player 4" (an index + 1) -> "seat 7 (Bo)"."""
        text = _SEAT_WORD.sub(lambda m: f"{m.group(1)} {self._names(m.group(2), False)}", text)
        if engine_players:
            def player(m: re.Match[str]) -> str:
                word = "Seat" if m.group(1)[0] == "P" else "seat"
                if m.group(1).endswith("s"):
                    word += "s"
                return f"{word} {self._names(m.group(2), True)}"
            text = _PLAYER_WORD.sub(player, text)
        return text
