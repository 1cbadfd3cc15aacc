"""The database models, one module per concept.

Each module defines its models on ``director.db.Base``; importing them here
registers them with the metadata, so ``db.create_all()`` creates every table.
Later issues add their modules (players, tables, hands) and a line below.
"""

from director.db import hold_in_session
from director.models import (
    change_feed,  # noqa: F401  (the change feed of several processes on SQLite)
    hands,  # noqa: F401  (dealer hands, their events, tablets)
    house,  # noqa: F401  (house rules: the policy flags of RULES.md §11.1)
    money,  # noqa: F401  (money settings, the payment ledger)
    people,  # noqa: F401  (the room's player list across events, leagues)
    seating,  # noqa: F401  (players, tables, seats)
    waiting_list,  # noqa: F401  (the waiting list of a full room)
)
from director.models.money import MoneySettings
from director.models.seating import SeatingSettings
from director.models.tournament import Tournament

hold_in_session(Tournament, MoneySettings, SeatingSettings)

__all__ = ["Tournament"]
