"""Deals at the final table: ICM or chip-chop from the stacks of the players still in,
a satellite's "everyone left gets a seat", and saving the agreed amounts (one
transaction: the payout lines, the deal, and, when everything is shared out, the
end of the event with each player's place and own bounty).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, select

from director.db import db, utcnow
from director.i18n import N_, number_filter, translate_violation
from director.models.money import Payment
from director.models.seating import Player
from director.poker.errors import RuleViolation
from director.schemas import Amount, Schema, Str, Whole
from director.schemas import deal_body as schemas_deal_body
from director.services import Invalid, audit, once, uow
from director.services import bounties as bounty_service
from director.services import tournaments as lifecycle_service
from director.services.amounts import minor_units
from director.services.money.payments import PAYOUT, iso, person_of, unit_of_work
from director.services.money.settings import configured, lock_if_closed, money_param
from director.services.money.totals import Money, money
from director.tournament.icm import MAX_ICM_PLAYERS, chip_chop, icm
from director.tournament.money import take_off_the_top
from director.tournament.payouts import DealPlacesError, deal_places
from director.tournament.satellites import verify_seat_deal

SEAT_DEAL = "seats"
DEAL_METHODS = {"icm": N_("ICM"), "chip-chop": N_("Chip-chop"),
                "chip-chop-floor": N_("Chip-chop, everyone guaranteed the lowest prize left"),
                SEAT_DEAL: N_("Everyone left gets a seat")}
"""The deal methods; ``seats`` is a satellite's only deal (``satellites.verify_seat_deal``)."""


@dataclass
class DealQuote:
    method: str
    players: list[Player]
    stacks: list[int]
    prizes: list[int]            # still to win, first place first
    amounts: list[int]           # what each player is dealt
    left_to_play: int = 0        # not dealt: won by whoever wins the rest
    chips_in_play: int = 0

    @property
    def money_left(self) -> int:
        return sum(self.prizes)

    @property
    def dealt(self) -> int:
        """The money the deal shares out now (the money left, less what is played for)."""
        return self.money_left - self.left_to_play

    @property
    def stacks_total(self) -> int:
        return sum(self.stacks)

    @property
    def stacks_difference(self) -> int:
        """The stacks entered less the chips in play (0: they add up)."""
        return self.stacks_total - self.chips_in_play

    @property
    def places(self) -> tuple[tuple[int, int | None], ...]:
        """The places the deal gives its players if it finishes the event: chip order."""
        return deal_places(self.stacks)


def _deal_players(tournament_id: int) -> list[Player]:
    return list(db.session.scalars(select(Player).where(
        Player.tournament_id == tournament_id, Player.status == "active").order_by(
        Player.chips.desc(), Player.id)))


REASON_MAX = 300


def deal_body(tournament_id: int) -> Schema:
    """The deal's request body for the players still in (``schemas.deal_body``), plus
    ``left_to_play`` (an amount of the money left not dealt, won by whoever wins the
    rest) and ``stacks_reason`` (why the stacks entered differ from the chips in play)."""
    schema = schemas_deal_body(DEAL_METHODS, [(p.id, p.name, p.chips)
                                              for p in _deal_players(tournament_id)])
    schema.fields["left_to_play"] = Amount(label=N_("The amount left to play for"),
                                           required=False, nullable=True)
    schema.fields["stacks_reason"] = Str(required=False, nullable=True, default="",
                                         max_len=REASON_MAX)
    players = _deal_players(tournament_id)
    for player in players:               # the places agreed (blank: chip order)
        schema.fields[f"place_{player.id}"] = Whole(
            label=N_("%(name)s's place"), label_params={"name": player.name}, min=1,
            max=max(len(players), 1), required=False, nullable=True)
    return schema


def deal_quote(tournament_id: int, data: Mapping[str, Any]) -> tuple[Money, DealQuote]:
    """ICM or chip-chop from the stacks of the players still in and the prizes still to win.

    ``data`` is the body loaded by :func:`deal_body` (raw values are loaded here the
    same way): ``method`` and ``stack_<player id>`` (default: his chips now).
    """
    return _quote(tournament_id, deal_body(tournament_id).load(data))


def _quote(tournament_id: int, body: Mapping[str, Any]) -> tuple[Money, DealQuote]:
    view = money(tournament_id)
    method = str(body["method"] or (SEAT_DEAL if view.satellite is not None else "icm"))
    players = _deal_players(tournament_id)
    if len(players) < 2:
        raise Invalid({"method": _("A deal needs at least 2 players still in")})
    if view.satellite is not None or method == SEAT_DEAL:
        return view, _seat_quote(view, method, players, body)
    if len(players) > MAX_ICM_PLAYERS:
        raise Invalid({"method": _("A deal is made at the final table: %(count)s players are "
                                   "still in (at most %(max)s)", count=len(players),
                                   max=MAX_ICM_PLAYERS)})
    if not view.amounts:
        raise Invalid({"method": _("There is no prize pool yet")})
    stacks = [body.get(f"stack_{player.id}") or player.chips for player in players]
    prizes = list(view.amounts[: len(players)])
    reserve = 0
    if body.get("left_to_play") is not None:
        reserve = minor_units("left_to_play", body["left_to_play"],
                              _("The amount left to play for"), view.currency)
    try:
        dealt = take_off_the_top(prizes, reserve)
    except RuleViolation as exc:
        raise Invalid({"left_to_play": translate_violation(exc)}) from None
    try:
        if method == "icm":
            amounts = icm(stacks, dealt, unit=view.unit)
        else:
            amounts = chip_chop(stacks, dealt, unit=view.unit,
                                guarantee_lowest=method == "chip-chop-floor")
    except RuleViolation as exc:
        raise Invalid({"method": translate_violation(exc)}) from None
    return view, DealQuote(method, players, stacks, prizes, list(amounts), reserve,
                           view.chips_in_play)


def _seat_quote(view: Money, method: str, players: list[Player],
                body: Mapping[str, Any]) -> DealQuote:
    """A satellite's deal keeps the seats equal: once no more players are left than seats,
    everyone left gets a seat (``satellites.verify_seat_deal``); nothing else is dealt."""
    if view.satellite is None:
        raise Invalid({"method": _("Everyone left gets a seat is a satellite's deal: set the "
                                   "satellite seat value in the money settings")})
    if method != SEAT_DEAL:
        raise Invalid({"method": _("A satellite's seats are not shared out as cash: the deal "
                                   "is “Everyone left gets a seat”")})
    if body.get("left_to_play"):
        raise Invalid({"left_to_play": _("A seat deal leaves nothing to play for")})
    try:
        verify_seat_deal(len(players), view.satellite.seats)
    except RuleViolation as exc:
        raise Invalid({"method": translate_violation(exc)}) from None
    stacks = [body.get(f"stack_{player.id}") or player.chips for player in players]
    seats = [view.satellite.seat_value] * len(players)
    return DealQuote(SEAT_DEAL, players, stacks, list(view.amounts[: len(players)]), seats, 0,
                     view.chips_in_play)


def stacks_refusal(quote: DealQuote) -> str | None:
    """Why the stacks entered cannot be taken as they are (None: they add up, or the deal
    is a satellite's seats, which the stacks do not change)."""
    if not quote.stacks_difference or quote.method == SEAT_DEAL:
        return None
    return _("The stacks add up to %(stacks)s chips, but %(chips)s chips are in play: correct "
             "them, or confirm the difference with its reason",
             stacks=number_filter(quote.stacks_total), chips=number_filter(quote.chips_in_play))


@once.twin_answered
@unit_of_work
def save_deal(tournament_id: int, data: Mapping[str, Any],
              idempotency_key: str | None = None) -> dict[str, Any]:
    """:func:`_save_deal`; sent again with its ``idempotency_key`` (a double click on *Save
    and pay*), nothing more (``once.Applied``) where it would say a deal is saved
    already or the event is finished, and so for copies racing each other
    (``once.twin_answered``)."""
    return _save_deal(tournament_id, data, idempotency_key)


def _save_deal(tournament_id: int, data: Mapping[str, Any],
               idempotency_key: str | None) -> dict[str, Any]:
    """Save the agreed amounts and pay them: one payout line per player in the deal.

    The amounts may differ from the calculation (players negotiate), but they
    must add up to exactly the money dealt (the money left, less any amount
    ``left_to_play``), and none may be negative.  The stacks must add up to the
    chips in play, unless the director confirms the difference with its reason
    (``stacks_reason``, kept with the deal and logged).  ``data``: the body of
    :func:`deal_body`, with ``amount_<player id>`` (default: the calculated
    amount).

    A deal that shares out all the money left finishes the event (the clock
    stops).  One that leaves an amount to play for does not: the event goes
    on, and that amount is the winner's when it finishes (:func:`results`).
    """
    once.verify_new(tournament_id, idempotency_key)
    body = deal_body(tournament_id).load(data)
    lifecycle_service.verify_open(tournament_id)
    view, quote = _quote(tournament_id, body)
    row = configured(tournament_id)
    errors: dict[str, str] = {}
    agreed: list[int] = []
    for player, calculated in zip(quote.players, quote.amounts, strict=True):
        amount = body.get(f"amount_{player.id}")
        try:
            agreed.append(calculated if amount is None else minor_units(
                f"amount_{player.id}", amount, _("%(name)s's amount", name=player.name),
                view.currency))
        except Invalid as exc:
            errors.update(exc.errors)
    if quote.method == SEAT_DEAL:       # a seat is a seat: no amount differs
        for player, amount in zip(quote.players, agreed, strict=True):
            if view.satellite is not None and amount != view.satellite.seat_value:
                errors[f"amount_{player.id}"] = _(
                    "Every player left gets a seat worth %(seat)s: %(name)s's amount cannot "
                    "differ", seat=view.fmt(view.satellite.seat_value), name=player.name)
    try:
        places = deal_places(quote.stacks, [body.get(f"place_{p.id}") for p in quote.players])
    except DealPlacesError as exc:
        errors[f"place_{quote.players[exc.index].id}"] = translate_violation(exc)
    if errors:                          # a malformed amount first: it names its field
        raise Invalid(errors)
    reason = str(body.get("stacks_reason") or "").strip()
    refusal = stacks_refusal(quote)
    if refusal is not None and not reason:
        raise Invalid({"stacks": refusal})
    if row.deal:
        raise Invalid({"deal": _("A deal is already saved: undo one of its payments to cancel it")})
    if sum(agreed) != quote.dealt:
        if quote.left_to_play:
            raise Invalid({"deal": _("The amounts add up to %(total)s, but the money left to deal "
                                     "is %(left)s (%(played)s is left to play for)",
                                     total=view.fmt(sum(agreed)), left=view.fmt(quote.dealt),
                                     played=view.fmt(quote.left_to_play))})
        raise Invalid({"deal": _("The amounts add up to %(total)s, but the money left is %(left)s",
                                 total=view.fmt(sum(agreed)), left=view.fmt(quote.money_left))})
    for player in quote.players:
        if db.session.scalar(select(func.count(Payment.id)).where(
                Payment.player_id == player.id, Payment.kind == PAYOUT,
                Payment.undone_at.is_(None))):
            raise Invalid({"deal": _("%(name)s was already paid: undo that payment first", name=player.name)})
    now = utcnow()
    lock_if_closed(view.tournament, row, now)
    label = DEAL_METHODS[quote.method]  # stored in English: the ledger note (translated on show)
    for player, amount in zip(quote.players, agreed, strict=True):
        db.session.add(Payment(tournament_id=tournament_id, player_id=player.id,
                               player_name=player.name, person=person_of(player.name),
                               kind=PAYOUT, prize=amount, level=view.at.level,
                               note=f"Deal ({label})"))
    deal = {"method": quote.method, "player_ids": [p.id for p in quote.players],
            "stacks": quote.stacks, "calculated": quote.amounts,
            "amounts": {str(p.id): a for p, a in zip(quote.players, agreed, strict=True)},
            "left_to_play": quote.left_to_play, "chips_in_play": quote.chips_in_play,
            "stacks_reason": reason if refusal is not None else "",
            "at": iso(now)}
    if not quote.left_to_play:                    # everything is shared out: the event is over
        # Each player in it finishes in the place the deal gives him (chip order, or as
        # agreed), stored where the seating stores every place.
        deal["places"] = {str(p.id): [first, last] for p, (first, last)
                          in zip(quote.players, places, strict=True)}
        for player, (first, last) in zip(quote.players, places, strict=True):
            player.place, player.place_last = first, last
    row.deal = deal
    row.updated_at = now
    if refusal is not None:
        details = {"tournament_id": tournament_id, "reason": reason,
                   "stacks": quote.stacks_total, "chips_in_play": quote.chips_in_play,
                   "difference": quote.stacks_difference}
        uow.after_commit(lambda: audit.record("deal stacks confirmed",
                                              f"tournament {tournament_id}", details=details))
    uow.log("deal saved", tournament_id, method={"msgid": label},
            players={"players": len(quote.players)},
            amount=money_param(tournament_id, sum(agreed)))
    if not quote.left_to_play:          # the event is over: each keeps the bounty on his head
        lifecycle_service.finish_event(tournament_id, now)
        bounty_service.collected_at_the_end(tournament_id, quote.players)
    uow.screens(tournament_id, "money")
    once.remember(tournament_id, idempotency_key, "deal saved")
    uow.commit()
    return deal
