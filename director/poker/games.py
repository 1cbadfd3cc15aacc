"""The games we run, by their PHH variant codes (shared/PHH.md).

``PO``, ``FO/8`` and ``F7S`` are standard PHH codes; ``PO/8``, ``NO``,
``NO/8``, ``FO`` and ``F7S/8`` are this project's extensions, documented in
the README.

>>> Game("PO/8").hi_lo, Game("PO/8").betting
(True, <Betting.POT_LIMIT: 'pot-limit'>)
>>> Game.F7S.is_stud, Game.F7S.betting.is_fixed
(True, True)
"""

from __future__ import annotations

from enum import StrEnum


class Betting(StrEnum):
    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    FIXED_LIMIT = "fixed-limit"

    @property
    def is_fixed(self) -> bool:
        return self is Betting.FIXED_LIMIT


class Game(StrEnum):
    PO = "PO"
    PO8 = "PO/8"
    NO = "NO"
    NO8 = "NO/8"
    FO = "FO"
    FO8 = "FO/8"
    F7S = "F7S"
    F7S8 = "F7S/8"

    @property
    def betting(self) -> Betting:
        return {"P": Betting.POT_LIMIT, "N": Betting.NO_LIMIT, "F": Betting.FIXED_LIMIT}[self.value[0]]

    @property
    def hi_lo(self) -> bool:
        return self.value.endswith("/8")

    @property
    def is_stud(self) -> bool:
        return "7S" in self.value

    @property
    def uses_blinds(self) -> bool:
        """Omaha games have a button and blinds; stud has antes and a bring-in."""
        return not self.is_stud

    @property
    def label(self) -> str:
        """The English name a floor person says: "pot-limit Omaha hi/lo"."""
        base = "seven-card stud" if self.is_stud else "Omaha"
        limit = "" if self.is_stud else {
            Betting.POT_LIMIT: "pot-limit ",
            Betting.NO_LIMIT: "no-limit ",
            Betting.FIXED_LIMIT: "limit ",
        }[self.betting]
        return f"{limit}{base}{' hi/lo' if self.hi_lo else ''}"


GAME_CODES: tuple[str, ...] = tuple(g.value for g in Game)
