"""The seating log: its lines, kept language-neutral (``audit.Said``) and read in
each reader's language."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from director.db import db
from director.i18n import (
    N_,
)
from director.models.seating import (
    Player,
    SeatingLogEntry,
)
from director.services.audit import Said
from director.tournament.seating import (
    Move,
    SeatingPlan,
)


def seating_log(tournament_id: int, action: str, lines: Iterable[str]) -> None:
    """The seating log's lines, stored language-neutral when they are ``audit.Said``
    sentences (read in each reader's language: ``audit.said_again``)."""
    for line in lines:
        db.session.add(SeatingLogEntry(tournament_id=tournament_id, action=action,
                                       text=line.stored() if isinstance(line, Said) else line))


def place_said(player: Player) -> Any:
    """A finishing place as a log parameter: 3, or "3–4 (shared)" said when read."""
    if player.place_last and player.place_last != player.place:
        return Said(N_("%(first)s–%(last)s (shared)"), first=player.place,
                    last=player.place_last)
    return player.place


def said_move(move: Move) -> Said:
    """``i18n.move_text`` kept language-neutral for the log."""
    to = Said(N_("table %(table)s seat %(seat)s"), table=move.to_table, seat=move.to_seat)
    note = Said(" (%(note)s)", note={"seating": move.note}) if move.note else ""
    if move.from_table is None:
        return Said("%(name)s: %(to)s%(note)s", name=move.name, to=to, note=note)
    return Said("%(name)s: %(from)s → %(to)s%(note)s", name=move.name, to=to, note=note,
                **{"from": Said(N_("table %(table)s seat %(seat)s"), table=move.from_table,
                                seat=move.from_seat)})


def said_plan(plan: SeatingPlan) -> list[Said]:
    """``i18n.plan_lines`` kept language-neutral for the log."""
    lines = [Said("%(note)s", note={"seating": plan.note})] if plan.note else []
    lines += [Said(N_("Floor: %(note)s"), note={"seating": text}) for text in plan.floor_notes]
    lines += [Said(N_("Open table %(table)s (%(size)s seats)"), table=n, size=size)
              for n, size in sorted(plan.open_tables.items())]
    lines += [said_move(m) for m in plan.moves]
    lines += [Said(N_("Table %(table)s: button starts in seat %(seat)s"), table=n, seat=seat)
              for n, seat in sorted(plan.buttons.items())]
    lines += [Said(N_("Close table %(table)s"), table=n) for n in plan.close_tables]
    return lines
