"""Bounty services: who knocked out whom, and what the bounties paid.

The rules are ``director.tournament.bounties``; the event's bounty (none,
fixed or PKO, and the amount) is a money setting, taken at the desk with every
entry (``services.money``: ``Payment.bounty``, ``Player.bounty``), read here
from the stored settings (``services.amounts``) without the money services.

These functions are parts of the seating's units of work and do not commit:

* :func:`knock_out` is called by ``seating.eliminate`` for the players it
  eliminates, with who knocked them out: the director's pick (the seating
  page's "Knocked out by", the API's ``"by"``), or, from a dealer tablet,
  the winners of the pot that busted each player (:func:`from_hand`).
  It records ``Player.knockout`` and, in a PKO, raises the eliminators' heads.
* :func:`take_back` is called when an elimination is undone (the tablet's undo
  of the hand, the director's undo of the bust).

The readers (:func:`won`, :func:`totals`, :func:`heads`) serve the results,
the house summary, the seating chart and the projector.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select

from director.db import db
from director.i18n import N_, translate_violation
from director.models.money import MoneySettings
from director.models.seating import Player, Seat, SeatingTable
from director.poker.errors import RuleViolation
from director.services import Invalid, audit, uow
from director.services.amounts import major, settings_dict
from director.services.audit import Said
from director.tournament import bounties as rules
from director.tournament.bounties import BountyKind, PotWon

DIGITS = re.compile(r"[0-9]{1,18}")
MAX_SPLIT = 10          # players who split one pot (a table seats 10)


@dataclass(frozen=True)
class Setting:
    kind: BountyKind
    amount: int
    unit: int
    currency: str

    @property
    def on(self) -> bool:
        return self.kind is not BountyKind.NONE and self.amount > 0


def setting(tournament_id: int) -> Setting:
    """The event's bounty: kind, amount and the rounding unit (minor units)."""
    s = settings_dict(db.session.get(MoneySettings, tournament_id))
    try:
        kind = BountyKind(s.get("bounty_kind") or "none")
    except ValueError:
        kind = BountyKind.NONE
    return Setting(kind, int(s.get("bounty") or 0), int(s.get("unit") or 1), str(s["currency"]))


def head(player: Player, event: Setting) -> int:
    """The bounty on a player's head now (the event's amount if none was recorded)."""
    if not event.on:
        return 0
    return int(player.bounty) if player.bounty is not None else event.amount


def _money_param(amount: int, currency: str) -> dict[str, str]:
    """Minor units as a log parameter, put into words when read (``audit.money_param``)."""
    return audit.money_param(major(amount, currency), currency)


def _pick(tournament_id: int, value: Any, busted: Sequence[Player]) -> Player | None:
    """The director's "Knocked out by": a player still in, not one of the busted."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str) and DIGITS.fullmatch(value.strip()):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid({"by": _("Knocked out by: give a player still in by his id (a whole "
                               "number), or a list of them for a split pot")})
    player = db.session.get(Player, value) if 0 < value < 2**63 else None
    if player is None or player.tournament_id != tournament_id:
        raise Invalid({"by": _("There is no player %(value)s in this tournament", value=value)})
    if any(player.id == p.id for p in busted):
        raise Invalid({"by": _("%(name)s cannot knock himself out", name=player.name)})
    if not player.active:
        raise Invalid({"by": _("%(name)s is out of the tournament: the player who knocks "
                               "someone out is still in", name=player.name)})
    return player


def _odd_chip_order(picks: Sequence[Player]) -> list[int]:
    """The director's eliminators of a split pot in odd-chip order: from the first left
    of the button of their table (before a hand is dealt, from seat 1).  In stud (the
    odd chip goes by the highest card, which only the table knows), or when they sit
    at different tables, in the order the director gave them."""
    ids = [p.id for p in picks]
    if len(ids) < 2:
        return ids
    rows = db.session.execute(select(Seat.player_id, Seat.seat, SeatingTable.button_seat,
                                     SeatingTable.size, SeatingTable.game_is_stud,
                                     SeatingTable.id).join(
        SeatingTable, SeatingTable.id == Seat.table_id).where(Seat.player_id.in_(ids))).all()
    if len(rows) != len(ids) or len({r.id for r in rows}) != 1 or rows[0].game_is_stud:
        return ids
    return list(rules.odd_chip_order([(r.player_id, r.seat) for r in rows],
                                     rows[0].button_seat, rows[0].size))


def knock_out(tournament_id: int, busted: Sequence[Player], by: Any) -> list[str]:
    """Record who knocked out each of ``busted`` (already marked out) and move the bounties.

    ``by``: None (nobody recorded: the bounty stays unawarded), the director's
    pick (a player id, or a list of them for a split pot, the same eliminators for
    every player of the call), or
    the tablet's ``{busted id: [(player id, chips won from the pot), ...]}`` in
    the pot's odd-chip order.  A pick that is not a player still in is refused
    naming ``by``; the tablet's winners are taken as they are.  Returns the log
    lines.  No commit (part of ``seating.eliminate``).
    """
    if by is None or by == "" or not busted:
        return []
    event = setting(tournament_id)
    if isinstance(by, Mapping):
        winners = {int(k): [(int(pid), int(chips)) for pid, chips in v] for k, v in by.items()}
    else:
        if isinstance(by, list | tuple) and len(by) > MAX_SPLIT:
            raise Invalid({"by": _("Knocked out by: at most %(count)s players split a pot",
                                   count=MAX_SPLIT)})
        picks = [picked for value in (by if isinstance(by, list | tuple) else [by])
                 if (picked := _pick(tournament_id, value, busted)) is not None]
        if len({p.id for p in picks}) != len(picks):
            raise Invalid({"by": _("Knocked out by: each player once")})
        if not picks:
            return []
        # Several: they split the pot, so they split the bounty evenly, its odd unit
        # going as the pot's odd chip would (TDA 20, ``rules.odd_chip_order``).
        winners = {p.id: [(pid, 1) for pid in _odd_chip_order(picks)] for p in busted}
    ids = {pid for pairs in winners.values() for pid, _chips in pairs}
    players = {p.id: p for p in db.session.scalars(select(Player).where(
        Player.tournament_id == tournament_id, Player.id.in_(list(ids))))} if ids else {}
    lines = []
    for player in busted:
        pairs = [(pid, chips) for pid, chips in winners.get(player.id, [])
                 if pid in players and pid != player.id and chips > 0]
        if not pairs:
            continue
        try:
            ko = rules.knock_out(event.kind if event.on else BountyKind.NONE,
                                 bounty=head(player, event), eliminators=[p for p, _c in pairs],
                                 weights=[c for _p, c in pairs], unit=event.unit, busted=player.id)
        except RuleViolation as exc:
            raise Invalid({"by": translate_violation(exc)}) from None
        player.knockout = ko.to_json()
        if player.bounty is None and event.on:
            player.bounty = head(player, event)
        for pid, added in ko.head.items():
            players[pid].bounty = head(players[pid], event) + added
        names = ", ".join(players[pid].name for pid in ko.by)
        _log(tournament_id, names, player.name, ko, players, event.currency)
        if ko.paid:     # said in the reader's language when the seating log is read
            paid = [Said(N_("%(name)s %(amount)s"), name=players[pid].name,
                         amount=_money_param(cash, event.currency))
                    for pid, cash in ko.paid.items()]
            lines.append(Said(N_("%(names)s knocked out %(busted)s: bounty paid %(paid)s"),
                              names=names, busted=player.name, paid=paid))
            if ko.head:
                lines.append(Said(N_("added to their own bounty: %(added)s"), added=[
                    Said(N_("%(name)s %(amount)s"), name=players[pid].name,
                         amount=_money_param(added, event.currency))
                    for pid, added in ko.head.items()]))
        else:
            lines.append(Said(N_("%(names)s knocked out %(busted)s"), names=names,
                              busted=player.name))
    return lines


def collected_at_the_end(tournament_id: int, players: Iterable[Player]) -> None:
    """Log the bounty each player still in at the end collects on his own head (the winner,
    or everyone in a deal that finished the event)."""
    event = setting(tournament_id)
    if not event.on:
        return
    for player in players:
        own = head(player, event)
        if own:
            uow.log("own bounty", tournament_id, name=player.name,
                    amount=_money_param(own, event.currency))


def _log(tournament_id: int, names: str, busted: str, ko: rules.Knockout,
         players: Mapping[int, Player], currency: str) -> None:
    """The knockout in the log of changes: who knocked out whom, and each bounty paid
    (a PKO: the cash and what went onto the winner's own head)."""
    if not ko.paid:
        uow.log("knockout", tournament_id, by=names, name=busted)
        return
    for pid, cash in ko.paid.items():
        money = _money_param(cash, currency)
        if pid in ko.head:
            uow.log("pko bounty paid", tournament_id, by=names, name=busted, paid=money,
                    winner=players[pid].name, head=_money_param(ko.head[pid], currency))
        else:
            uow.log("bounty paid", tournament_id, by=names, name=busted, paid=money,
                    winner=players[pid].name)


def from_hand(hand: Any, players: Sequence[Mapping[str, Any]],
              busted: Iterable[int]) -> dict[int, list[tuple[int, int]]]:
    """The tablet's eliminators: for each busted player id, the winners of the last pot he
    was eligible for (``rules.eliminators``), as player ids with the chips each won from
    it, in the pot's odd-chip order.  ``hand`` is the finished engine hand and
    ``players`` the hand's seats (``DealerHand.players``).  Never raises: a hand it
    cannot read gives no eliminator (the director can still record one)."""
    try:
        index = {int(p["player_id"]): i for i, p in enumerate(players)}
        awards = hand.awards()
        pots = hand.pots()
        won: dict[int, list[tuple[int, int, int]]] = {}
        for a in awards:
            won.setdefault(a.pot_index, []).append((a.player, a.amount, a.odd_chips))
        table = [PotWon(i, tuple(pot.eligible), tuple(won.get(i, ()))) for i, pot in enumerate(pots)]
        out: dict[int, list[tuple[int, int]]] = {}
        for pid in busted:
            if pid not in index:
                continue
            found = rules.eliminators(index[pid], table)
            if found:
                out[pid] = [(int(players[i]["player_id"]), chips) for i, chips in found]
        return out
    except (RuleViolation, KeyError, IndexError, TypeError, ValueError):
        return {}


def take_back(tournament_id: int, players: Sequence[Player]) -> None:
    """Their eliminations are undone: the knockouts are taken back (a PKO eliminator's head
    comes down again).  Refused, naming ``player_ids``, when a PKO head this raised has
    been won since (undo that elimination first).  No commit."""
    recorded = [p for p in players if p.knockout]
    if not recorded:
        return
    event = setting(tournament_id)
    ids = {int(pid) for p in recorded for pid in (p.knockout or {}).get("head", {})}
    others = {p.id: p for p in db.session.scalars(select(Player).where(
        Player.tournament_id == tournament_id, Player.id.in_(list(ids))))} if ids else {}
    for player in recorded:
        try:
            rules.verify_take_back(player.knockout, {pid: not o.active for pid, o in others.items()},
                                   {pid: o.name for pid, o in others.items()})
        except RuleViolation as exc:
            raise Invalid({"player_ids": translate_violation(exc)}) from None
    for player in recorded:
        for pid, added in (player.knockout or {}).get("head", {}).items():
            other = others.get(int(pid))
            if other is not None:
                other.bounty = max(0, head(other, event) - int(added))
        player.knockout = None


# ---------------------------------------------------------------- reading

def heads(tournament_id: int) -> dict[int, int]:
    """Player id -> the bounty on his head now, for the players still in (empty: no bounty)."""
    event = setting(tournament_id)
    if not event.on:
        return {}
    return {p.id: head(p, event) for p in db.session.scalars(select(Player).where(
        Player.tournament_id == tournament_id, Player.status == "active"))}


def won(players: Iterable[Player], event: Setting, keep_own: Iterable[int] = ()) -> dict[int, int]:
    """Player id -> bounties won: every knockout's cash, plus his own head for each player
    in ``keep_own`` (the winner, or everyone in a deal that ended the event)."""
    out: dict[int, int] = {}
    everyone = list(players)
    for player in everyone:
        for pid, cash in ((player.knockout or {}).get("paid") or {}).items():
            out[int(pid)] = out.get(int(pid), 0) + int(cash)
    keep = set(keep_own)
    for player in everyone:
        if player.id in keep and player.active:
            own = head(player, event)
            if own:
                out[player.id] = out.get(player.id, 0) + own
    return out


def knocked_out_by(players: Iterable[Player]) -> dict[int, list[int]]:
    """Busted player id -> the ids of the players who knocked him out."""
    return {p.id: [int(x) for x in (p.knockout or {}).get("by", [])]
            for p in players if p.knockout and p.knockout.get("by")}


@dataclass(frozen=True)
class Totals:
    """The bounty money of an event: taken at the desk, paid to eliminators, kept by the
    players still in when it ended, still on heads in play, and not awarded (a bust with
    no eliminator recorded)."""

    taken: int
    knockouts: int
    kept: int
    in_play: int
    unawarded: int


def totals(players: Sequence[Player], event: Setting, taken: int, keep_own: Iterable[int],
           ) -> Totals:
    keep = set(keep_own)
    knockouts = sum(int(c) for p in players
                    for c in ((p.knockout or {}).get("paid") or {}).values())
    kept = sum(head(p, event) for p in players if p.active and p.id in keep)
    in_play = sum(head(p, event) for p in players if p.active and p.id not in keep)
    unawarded = sum(head(p, event) for p in players
                    if not p.active and not (p.knockout or {}).get("by"))
    return Totals(taken, knockouts, kept, in_play, unawarded)
