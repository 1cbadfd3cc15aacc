"""The first-run demo event: a PLO tournament worth opening.

``make run`` (``director init-db --demo-if-empty``) creates it once, when the
database holds no tournament.  Everything goes through the ordinary services,
so the demo is exactly what a director would get by hand:

1. the tournament, on the ``plo-standard`` structure (``tournaments``);
2. the seating settings, 9-handed (``seating.configure``);
3. the money settings, EUR 100 + 10 for 20,000 chips (``money.save_settings``);
4. 27 buy-ins taken at the desk (``money.sell``), which register the players;
5. the seat draw, 3 tables of 9 (``seating.draw``).

The clock is not started: the director starts it when the room is ready.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from director.models import Tournament
from director.services import get_tournament, money, seating, tournaments

DEMO_NAME = "Demo — Pot-limit Omaha"
DEMO_TEMPLATE = tournaments.DEMO_TEMPLATE
TABLE_SIZE = 9
STARTING_STACK = 20_000
MONEY_SETTINGS = {"currency": "EUR", "buy_in": "100", "fee": "10",
                  "starting_stack": STARTING_STACK, "late_registration_level": 6,
                  "payout_template": "standard"}

# 27 players from the rooms this app is written for, and their visitors.
PLAYERS = (
    # Sweden
    "Anna Berg", "Erik Lindqvist", "Karin Sjöberg", "Johan Åkesson", "Sofia Nyström",
    "Lars Holmgren",
    # Indonesia
    "Budi Santoso", "Siti Rahmawati", "Agus Wijaya", "Dewi Lestari", "Rizky Pratama",
    "Putri Handayani",
    # and the rest of the world
    "Marie Dubois", "Luca Bianchi", "Seán O'Brien", "María García", "Jan Kowalski",
    "Yuki Tanaka", "Kwame Mensah", "Priya Sharma", "Hans Müller", "Olga Ivanova",
    "Nguyễn Văn An", "Ahmet Yılmaz", "Chen Wei", "Lucas Oliveira", "Aoife Murphy",
)


@dataclass(frozen=True)
class Demo:
    tournament: Tournament
    players: int
    tables: int


def create_demo(rng: random.Random | None = None) -> Demo:
    """Create the demo event (each step is the service's own unit of work)."""
    tournament = tournaments.create_from_template(DEMO_NAME, DEMO_TEMPLATE)
    tid = tournament.id
    seating.configure(tid, {"table_size": TABLE_SIZE, "starting_chips": STARTING_STACK})
    money.save_settings(tid, MONEY_SETTINGS)
    for number, name in enumerate(PLAYERS, start=1):
        money.sell(tid, "buy-in", name=name, request_key=f"demo-buy-in-{number}")
    plan = seating.draw(tid, rng)
    tables = len({move.to_table for move in plan.moves})
    return Demo(get_tournament(tid), len(PLAYERS), tables)


def create_demo_if_empty(rng: random.Random | None = None) -> Demo | None:
    """The demo event, the first time only (when there is no tournament at all)."""
    if tournaments.count():
        return None
    return create_demo(rng)
