"""The event's chip set, its planned colour-ups and the chip race at the table (issue 17).

* :func:`chip_view`: the chip set, the smallest chip in play, the colour-ups the
  structure allows (``tournament.chip_race.planned_colour_ups``) and the next one.
* :func:`save_chip_set`: the event's denominations (``Tournament.chip_set``).
* :func:`race`: one colour-up for the whole room: each player's count of the
  removed chip, table by table the direct exchange and the race (cards dealt
  from a seeded deck, so that the quote and the confirmation agree), and each
  stack after it.  With ``confirm`` the stacks and the smallest chip in play (the
  odd-chip rule's seating setting) are written through ``seating.colour_up``.

Bad input raises ``Invalid`` naming the field and changes nothing.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select

from director.db import db, utcnow
from director.i18n import number_filter, translate_violation
from director.models.seating import Player, Seat, SeatingSettings, SeatingTable
from director.poker.errors import RuleViolation
from director.services import Invalid, get_tournament, once, retry_on_conflict, uow
from director.services import money as money_service
from director.services import seating as seating_service
from director.services import tournaments as tournament_service
from director.tournament import chip_race as rules
from director.tournament.seating import SeatingPolicy

MAX_SEED = 2**31 - 1


def _chip_set(tournament_id: int) -> tuple[int, ...]:
    raw = get_tournament(tournament_id).chip_set
    try:
        return rules.parse_chip_set(raw) if raw else ()
    except RuleViolation:
        return ()


def _smallest_in_play(tournament_id: int, chips: tuple[int, ...]) -> int | None:
    row = db.session.get(SeatingSettings, tournament_id)
    policy = SeatingPolicy.from_json(row.policy) if row is not None and row.policy \
        else SeatingPolicy()
    if policy.smallest_chip:
        return policy.smallest_chip
    return chips[0] if chips else None


def chip_view(tournament_id: int) -> dict[str, Any]:
    """``{"chip_set", "smallest_chip", "colour_ups": [{"index", "level_number",
    "removed", "smallest"}], "next": {"removed", "new"} | None}``."""
    tournament = get_tournament(tournament_id)
    chips = _chip_set(tournament_id)
    smallest = _smallest_in_play(tournament_id, chips)
    structure = tournament.structure
    ups = []
    if chips:
        for up in rules.planned_colour_ups(structure.levels, chips):
            after = structure.next_playing(up.index)
            ups.append(up.to_json() | {"level_number": None if after is None
                                       else structure.level_number(after)})
    following = [chip for chip in chips if smallest is not None and chip > smallest]
    upcoming = {"removed": smallest, "new": following[0]} if following else None
    return {"chip_set": list(chips) or None, "smallest_chip": smallest,
            "colour_ups": ups, "next": upcoming}


def save_chip_set(tournament_id: int, values: Any) -> dict[str, Any]:
    """Store the event's chip denominations; a bad set is refused naming ``chip_set``."""
    if isinstance(values, str):
        parts = [part.strip().removeprefix("T") for part in values.replace(";", ",").split(",")]
        try:
            values = [int(part.replace(" ", "")) for part in parts if part]
        except ValueError:
            raise Invalid({"chip_set": _("Give the chips as numbers separated by commas, "
                                         "for example 25, 100, 500, 1000, 5000")}) from None
    try:
        chips = rules.parse_chip_set(values)
    except RuleViolation as exc:
        raise Invalid({"chip_set": translate_violation(exc)}) from None

    def work() -> None:
        tournament = tournament_service.verify_open(tournament_id)
        tournament.chip_set = list(chips)
        uow.commit()

    retry_on_conflict(work)
    return chip_view(tournament_id)


def seated_players(tournament_id: int) -> list[tuple[int, int, Player]]:
    """(table number, seat, player) of every seated player in play, table by table."""
    rows = db.session.execute(
        select(SeatingTable.number, Seat.seat, Player)
        .join(Seat, Seat.table_id == SeatingTable.id)
        .join(Player, Player.id == Seat.player_id)
        .where(SeatingTable.tournament_id == tournament_id, Player.status == "active")
        .order_by(SeatingTable.number, Seat.seat)).all()
    return [(int(number), int(seat), player) for number, seat, player in rows]


def _counts(raw: Any, players: Mapping[int, Player], removed: int, new: int) -> dict[int, int]:
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise Invalid({"counts": _("Give each player's count of the removed chip as "
                                   "{\"player id\": count}")})
    counts: dict[int, int] = {}
    errors: dict[str, str] = {}
    for key, value in raw.items():
        field = f"counts.{key}"
        try:
            player_id = int(str(key))
        except ValueError:
            errors[field] = _("There is no player %(player)s in play", player=key)
            continue
        player = players.get(player_id)
        if player is None:
            errors[field] = _("There is no player %(player)s in play", player=key)
            continue
        if value in (None, ""):
            continue
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value.strip())
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            errors[field] = _("%(name)s: the count of T%(chip)s chips must be a whole number",
                              name=player.name, chip=removed)
            continue
        if value * removed > player.chips:
            errors[field] = _("%(name)s has %(stack)s chips: %(count)s T%(chip)s chips are more "
                              "than that", name=player.name, stack=number_filter(player.chips),
                              count=value, chip=removed)
            continue
        counts[player_id] = value
    for player_id, player in players.items():      # the rest must be the bigger chips
        key = f"counts.{player_id}"
        count = counts.get(player_id, 0)
        rest = player.chips - count * removed
        if key not in errors and rest >= 0 and rest % new:
            errors[key] = _("%(name)s has %(stack)s chips: besides %(count)s T%(chip)s chips the "
                            "rest (%(rest)s) is not made of T%(new)s and bigger chips; count "
                            "again", name=player.name, stack=number_filter(player.chips), count=count,
                            chip=removed, rest=number_filter(rest), new=new)
    if errors:
        raise Invalid(errors)
    return counts


def _verify_not_mid_level(tournament_id: int) -> None:
    """The race changes the stacks: it is confirmed at a break (the colour-up's
    moment) or with the clock stopped, never while a level is being played.  The
    quote may be worked out at any time."""
    at = money_service.moment(get_tournament(tournament_id), utcnow())
    if at.running and not at.on_break:
        raise Invalid({"clock": _(
            "The chip race is confirmed at a break: level %(level)s is being played. "
            "Wait for the break, or pause the clock first", level=at.level)})


@once.twin_answered
def race(tournament_id: int, data: Mapping[str, Any], *, confirm: bool,
         idempotency_key: str | None = None) -> dict[str, Any]:
    """The chip race for the colour-up of the smallest chip in play (see the module).
    A confirmed race sent again with its ``idempotency_key`` (a double click, a retry)
    is ``once.Applied``: without it the race would colour up the next chip too."""
    if confirm:
        tournament_service.verify_open(tournament_id)
        _verify_not_mid_level(tournament_id)
    chips = _chip_set(tournament_id)
    if not chips:
        raise Invalid({"chip_set": _("Give the event's chip set first")})
    smallest = _smallest_in_play(tournament_id, chips)
    removed = data.get("removed", smallest)
    if removed != smallest:
        raise Invalid({"removed": _("The chip to colour up is the smallest in play, T%(chip)s",
                                    chip=smallest)})
    following = [chip for chip in chips if chip > removed]
    if not following:
        raise Invalid({"removed": _("T%(chip)s is the largest chip of the set: there is "
                                    "nothing to colour up to", chip=removed)})
    new = following[0]
    seed = data.get("seed")
    if seed is None:
        seed = secrets.randbelow(MAX_SEED)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise Invalid({"seed": _("The seed must be a whole number from 0 to %(most)s",
                                 most=MAX_SEED)})
    seated = seated_players(tournament_id)
    if not seated:
        raise Invalid({"counts": _("Nobody is seated: draw the seats first")})
    players = {player.id: player for _n, _s, player in seated}
    counts = _counts(data.get("counts"), players, removed, new)
    tables: dict[int, list[tuple[int, Player]]] = {}
    for number, seat, player in seated:
        tables.setdefault(number, []).append((seat, player))
    out, stacks = [], {}
    for number, seats in tables.items():
        try:
            result = rules.race_table(
                {seat: counts.get(p.id, 0) for seat, p in seats},
                {seat: p.chips for seat, p in seats}, removed=removed, new=new,
                rng=random.Random(f"{seed}:{number}"))
        except RuleViolation as exc:
            raise Invalid({"counts": translate_violation(exc)}) from None
        out.append(_table_json(number, seats, result))
        stacks.update({p.id: result.stacks[seat] for seat, p in seats})
    answer = {"removed": removed, "new": new, "seed": seed, "tables": out, "confirmed": False}
    if confirm:
        won = sum(seat["won"] for table in out for seat in table["seats"])
        uow.log("chip race", tournament_id, removed=str(removed), new=str(new),
                players={"players": won})            # told with the colour-up's commit
        seating_service.colour_up(tournament_id, stacks, new, idempotency_key)
        answer["confirmed"] = True
    answer["smallest_chip"] = new if confirm else removed
    return answer


def _table_json(number: int, seats: list[tuple[int, Player]],
                table: rules.TableRace) -> dict[str, Any]:
    result = table.result
    rows = []
    for seat, player in seats:
        count = table.counts.get(seat, 0)
        won = result.new_chips.get(seat, 0) if result is not None else 0
        rows.append({
            "seat": seat, "player_id": player.id, "name": player.name, "count": count,
            "exchanged": table.exchanged.get(seat, 0),
            "odd": table.plan.odd_chips.get(seat, 0),
            "cards": [str(card) for card in table.cards.get(seat, ())],
            "card_symbols": [card.symbol for card in table.cards.get(seat, ())],
            "best_card": str(result.best_cards[seat]) if result and seat in result.best_cards
            else None,
            "won": 1 if result is not None and seat in result.winners else 0,
            "protected": bool(result is not None and seat in result.protected),
            "new_chips": won,
            "chips_before": player.chips, "chips_after": table.stacks[seat],
        })
    return {"table": number, "odd_value": table.plan.odd_value,
            "chips_raced": table.plan.chips_raced, "seats": rows}
