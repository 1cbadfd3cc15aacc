"""The database models, one module per concept.

Each module defines its models on ``director.db.Base``; importing them here
registers them with the metadata, so ``db.create_all()`` creates every table.
Later issues add their modules (players, tables, hands) and a line below.

Ids are never used twice (issue 26): on SQLite every table whose primary key is
one integer it draws itself gets ``AUTOINCREMENT`` here, in one place, so a
deleted event's id (which a league or a backup may still name) is not given to
the next event.  PostgreSQL's sequences never go back anyway.
"""

from sqlalchemy import Integer

from director.db import Base, hold_in_session
from director.models import (
    audit,  # noqa: F401  (the log of changes)
    change_feed,  # noqa: F401  (the change feed of several processes on SQLite)
    hands,  # noqa: F401  (dealer hands, their events, tablets)
    house,  # noqa: F401  (house rules: the policy flags of RULES.md §11.1)
    money,  # noqa: F401  (money settings, the payment ledger)
    people,  # noqa: F401  (the room's player list across events, leagues)
    requests,  # noqa: F401  (the director's writes a retry must not apply twice)
    seating,  # noqa: F401  (players, tables, seats)
    security,  # noqa: F401  (guess limits, director sessions)
    waiting_list,  # noqa: F401  (the waiting list of a full room)
)
from director.models.money import MoneySettings
from director.models.seating import SeatingSettings
from director.models.tournament import Tournament

hold_in_session(Tournament, MoneySettings, SeatingSettings)


def _ids_never_reused() -> None:
    """``sqlite_autoincrement`` on each table with one integer primary key of its own
    (not a foreign key: ``money_settings.tournament_id`` is the event's id)."""
    for table in Base.metadata.tables.values():
        columns = list(table.primary_key.columns)
        if len(columns) == 1 and isinstance(columns[0].type, Integer) \
                and not columns[0].foreign_keys:
            table.dialect_options["sqlite"]["autoincrement"] = True


_ids_never_reused()

__all__ = ["Tournament"]
