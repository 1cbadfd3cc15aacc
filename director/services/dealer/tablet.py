"""What the tablet shows: the hand's state as JSON (the API contract plus the buttons,
the prompt, the log, the undo label), and the GET of the table's current hand,
read from the tablets' read model (``memory``) when it was computed already."""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any

from director.i18n import N_, chips_text, current_language, game_name, stakes_label
from director.i18n import gettext as _
from director.models.hands import DealerHand
from director.poker.cards import Card, format_card
from director.poker.events import event_from_json
from director.poker.games import Betting
from director.poker.state import Hand, Legal, Phase
from director.services import NotFound
from director.services import dealer_shot_clock as shot_clock
from director.services.dealer.log import (
    LOG_SHOWN,
    describe_event,
    hand_awards,
    last_tap_events,
    recent_log,
    returned_chips,
    said_lines,
    tabled_lines,
)
from director.services.dealer.memory import (
    STATES_COUNTED,
    AnyRow,
    cached_hand,
    keep_tablet_state,
    tablet_state,
)
from director.services.dealer.rows import (
    get_table_or_history,
    latest_hand,
    shown_number,
)
from director.services.dealer.seats import Seating


def _card(card: Card | None) -> str:
    return "??" if card is None else str(card)


_SUITS = {"c": N_("clubs"), "d": N_("diamonds"), "h": N_("hearts"), "s": N_("spades")}


def _card_words(card: Card | None) -> str:
    if card is None:
        return "?"
    return f"{format_card(card, current_language())} ({_(_SUITS[card.suit])})"


def _seat_statuses(hand: Hand, dead: set[int]) -> list[str]:
    """Each seat's status (the hand's killed, folded and all-in players read once)."""
    if hand.misdealt:
        return ["misdeal"] * len(hand.folded)
    killed, folded, all_in, finished = hand.killed, hand.folded, hand.all_in, hand.finished
    return ["dead" if i in dead or killed[i]    # absent (TDA 30) or killed by a ruling (the clock, TDA 29)
            else "folded" if folded[i]
            else "all_in" if all_in[i] and not finished
            else "active" for i in range(len(folded))]


def buttons(hand: Hand, legal: Legal | None = None) -> list[dict[str, Any]]:
    """The big buttons, each with its exact number and the seat whose action it is.

    Order: the safest, most common action first (Check, Call, Bring in), then the
    bets and raises from the smallest up, all-in last of those, and Fold at the far
    end, never next to Check or Call.  In stud where the house allows it (policy
    ``stud_4th_street_double``, RULES.md §11.1, RRP Stud 4), an open pair on 4th
    street adds the big bet as its own button: "Bet 400 (open pair)".  ``legal``: the
    hand's ``legal()``, when the caller has it."""
    legal = hand.legal() if legal is None else legal
    p = hand.to_act
    if p is None:
        return []
    seat = hand.config.seats[p] if hand.config.seats else p + 1
    out: list[dict[str, Any]] = []

    def button(action: str, amount: int | None, label: str) -> None:
        out.append({"action": action, "amount": amount, "label": label, "seat": seat})

    fold = functools.partial(button, "fold", None, _("Fold"))
    bet_word = hand.current_bet > hand.bets[p] or (hand.current_bet > 0 and hand.street.value == "pre-flop")
    if legal.bring_in:
        button("bring_in", None, _("Bring in %(amount)s", amount=chips_text(hand.config.bring_in)))
        if legal.complete_to is not None:
            button("complete", legal.complete_to,
                   _("Complete to %(amount)s", amount=chips_text(legal.complete_to)))
        if legal.fold:
            fold()
        return out
    if legal.check:
        button("check", None, _("Check"))
    elif legal.call is not None:
        all_in = legal.all_in_to is not None and hand.bets[p] + legal.call >= legal.all_in_to
        label = _("Call %(amount)s (all-in)", amount=chips_text(legal.call)) if all_in \
            else _("Call %(amount)s", amount=chips_text(legal.call))
        button("call", None, label)
    fixed = hand.config.game.betting is Betting.FIXED_LIMIT
    if legal.min_to is not None:
        if legal.complete_to is not None and hand.config.game.is_stud:
            button("complete", legal.complete_to,
                   _("Complete to %(amount)s", amount=chips_text(legal.complete_to)))
        elif legal.all_in_to is not None and legal.min_to == legal.all_in_to:
            # Too short for a full raise (or just enough): all-in is the only raise there is
            # (TDA 43-B: a short all-in does not reopen the betting); never "Min raise to".
            button("all_in", legal.all_in_to, _("All-in %(amount)s", amount=chips_text(legal.all_in_to)))
            fold()
            return out
        elif fixed:
            label = _("Raise to %(amount)s", amount=chips_text(legal.min_to)) if bet_word \
                else _("Bet %(amount)s", amount=chips_text(legal.min_to))
            button("raise" if bet_word else "bet", legal.min_to, label)
            double = legal.max_to
            if double is not None and double > legal.min_to and double != legal.all_in_to:
                # RRP Stud 4: the open pair on 4th street lets anyone bet the big bet.
                label = _("Raise to %(amount)s (open pair)", amount=chips_text(double)) if bet_word \
                    else _("Bet %(amount)s (open pair)", amount=chips_text(double))
                button("raise" if bet_word else "bet", double, label)
        else:
            if bet_word:
                button("raise", legal.min_to, _("Min raise to %(amount)s", amount=chips_text(legal.min_to)))
            else:
                button("bet", legal.min_to, _("Min bet %(amount)s", amount=chips_text(legal.min_to)))
            if legal.pot_to is not None and legal.pot_to > legal.min_to \
                    and legal.pot_to != legal.all_in_to:
                label = _("Pot: raise to %(amount)s", amount=chips_text(legal.pot_to)) if bet_word \
                    else _("Pot: bet %(amount)s", amount=chips_text(legal.pot_to))
                button("raise" if bet_word else "bet", legal.pot_to, label)
        if legal.all_in_to is not None and legal.max_to == legal.all_in_to \
                and legal.all_in_to > legal.min_to:
            button("all_in", legal.all_in_to, _("All-in %(amount)s", amount=chips_text(legal.all_in_to)))
    if legal.fold:
        fold()
    return out


def _prompt(hand: Hand, seating: Seating, row: DealerHand, legal: Legal) -> str:
    """What the dealer does next, in one sentence (``legal``: the hand's ``legal()``)."""
    if hand.misdealt:
        return _("Misdeal: the hand is void and every chip goes back. Redeal with the same button.")
    if hand.finished:
        return _("The hand is over. Push the pots, then start the next hand.")
    awaiting = hand.awaiting
    p = hand.to_act
    if p is not None and legal.bring_in and legal.fold:       # [ST-5]: the duty passed on
        up = hand.up_cards(p)
        return _("%(who)s has the lowest up-card, %(card)s: bring in %(amount)s, complete or fold",
                 who=seating.label(p), card=_card_words(up[0] if up else None),
                 amount=chips_text(hand.config.bring_in))
    if p is not None and legal.bring_in:
        up = hand.up_cards(p)
        return _("%(who)s has the lowest up-card, %(card)s: bring in %(amount)s or complete",
                 who=seating.label(p), card=_card_words(up[0] if up else None),
                 amount=chips_text(hand.config.bring_in))
    if p is not None:
        # Stud 4th-7th street: said only to the player the engine has act first (the
        # highest hand showing, RULES.md §3.3), and only before anyone acted on the
        # street: once the opener checked, the next player is just "to act".
        if p == hand.stud_opener and not hand.acted_on_street:
            up = [c for c in hand.up_cards(p) if c is not None]
            return _("%(who)s has the high hand showing (%(cards)s) and acts first",
                     who=seating.label(p), cards=" ".join(format_card(c, current_language()) for c in up))
        return _("%(who)s to act", who=seating.label(p))
    if awaiting == "board":
        street = {"flop": _("the flop"), "turn": _("the turn"), "river": _("the river")}[hand.street.value]
        return _("Burn and deal %(street)s", street=street)
    if awaiting == "street":
        return _("Deal %(street)s and enter every up-card", street=_(hand.street.value))
    if awaiting == "showdown":
        order = hand.showdown_order()
        if hand.showdown_at_once:
            return _("Showdown: a player is all-in, every hand is turned face up (TDA 16)")
        return _("Showdown: %(who)s shows first (TDA 16/17)", who=seating.label(order[0])) if order \
            else _("Showdown")
    if hand.config.game.is_stud and p is None and hand.phase is Phase.BETTING:
        return _("Enter the up-cards: the engine names who acts first")
    return ""


def _undo_label(row: AnyRow, hand: Hand, seating: Seating, last_tap: str | None) -> str | None:
    """What Undo takes back, as the button says it: "Undo: Seat 4 (Ann) raises to 800".
    ``last_tap``: the last write's events as the log says them, when the caller knows
    them (else they are read).  Right after the deal it is the deal itself (see :func:`undo`)."""
    if not hand.events:
        return _("Undo the deal of hand %(n)s", n=shown_number(row)) if row.status == "playing" else None
    if not last_tap:
        last_tap = "; ".join(describe_event(event_from_json(e.event), seating)
                             for e in reversed(last_tap_events(row.id)))
    return _("Undo: %(what)s", what=last_tap) if last_tap else None


def _posted(hand: Hand) -> list[dict[str, int] | None]:
    """What each player posted before the deal (a big-blind ante: blind and ante), or None."""
    if hand.misdealt:
        return [None] * hand.config.players
    return [{"blind": blind, "ante": ante} if blind or ante else None for blind, ante in hand.posted()]


def hand_json(row: AnyRow, hand: Hand | None = None,
              log: list[dict[str, Any]] | None = None, version: int | None = None,
              last_tap: str | None = None, turn_started: datetime | None = None) -> dict[str, Any]:
    """The tablet's view of the hand (the API contract plus what the screen shows).

    ``pot_total`` is always the sum of ``pots`` (an uncalled bet is back in its
    owner's ``stack`` as soon as its round closes; ``returned`` lists those chips).
    ``can_muck`` is false at a showdown where every hand is tabled (TDA 16).
    ``undo_label`` says what Undo takes back (``last_tap``: the log's words for the events
    just written, when the caller knows them).  Each seat's ``posted`` is its forced bets."""
    hand = hand or cached_hand(row)
    seating = Seating(row.players)
    dead = set(hand.config.dead_players)
    legal = hand.legal()
    p = hand.to_act
    shown = hand.hole_cards
    posts = _posted(hand)
    stud = hand.config.game.is_stud
    stacks, bets, statuses = hand.stacks, hand.bets, _seat_statuses(hand, dead)
    dealt = hand.dealt_this_street if hand.awaiting == "street" else None
    seats = []
    for i in range(len(seating.players)):
        cards: list[str] = []
        if stud or any(c is not None for c in shown[i]):
            cards = [_card(c) for c in shown[i]]
        seat = {
            "seat": seating.seat(i), "name": seating.name(i),
            "player_id": seating.players[i].get("player_id"),
            "stack": stacks[i], "bet": bets[i], "status": statuses[i],
            "cards": cards,
            "up_cards": [_card(c) for c in hand.up_cards(i)] if stud else [],
        }
        if dealt is not None and dealt[i]:
            seat["street_dealt"] = True      # his cards of this street are in (an exposed down-card ruled)
        posted = posts[i]
        if posted is not None:
            seat["posted"] = posted
        seats.append(seat)
    awards, award_text = hand_awards(hand, seating)
    pots = [{"name": pot.name, "amount": pot.amount,
             "eligible": [seating.seat(i) for i in pot.eligible]} for pot in hand.pots()]
    can_undo = bool(hand.events) or row.status == "playing"
    order = [seating.seat(i) for i in hand.showdown_order()] \
        if hand.awaiting == "showdown" else []
    level = row.level or {}
    shown_log = recent_log(row.id, row.version) if log is None else log
    return {
        "hand_id": row.id,
        "version": row.version if version is None else version,
        "game": row.game,
        "to_act": seating.seat(p) if p is not None else None,
        "legal": {"fold": legal.fold, "check": legal.check, "call": legal.call,
                  "min_to": legal.min_to, "max_to": legal.max_to, "pot_to": legal.pot_to,
                  "all_in_to": legal.all_in_to, "bring_in": legal.bring_in,
                  "complete_to": legal.complete_to},
        "pots": pots,
        "seats": seats,
        "board": [_card(c) for c in hand.board],
        "finished": hand.finished,
        "awards": awards,
        # beyond the contract: what the tablet shows
        "table_id": row.table_id, "table_number": row.table_number, "hand_number": shown_number(row),
        "game_label": game_name(row.game),
        "level": {"level_number": level.get("level_number"), "stakes_label": stakes_label(level),
                  "index": level.get("index")},
        "positions": {k: v for k, v in (row.positions or {}).items()
                      if k in ("button", "small_blind", "big_blind")},
        "to_act_name": seating.name(p) if p is not None else None,
        "street": hand.street.value, "phase": hand.phase.value, "awaiting": hand.awaiting,
        "misdeal": hand.misdealt, "pot_total": sum(pot["amount"] for pot in pots),
        "current_bet": hand.current_bet,
        "buttons": buttons(hand, legal),
        # fixed limit has no free amount anywhere: its bets are the buttons (RULES.md §2.3)
        "any_amount": hand.config.game.betting is not Betting.FIXED_LIMIT and legal.min_to is not None
        and legal.max_to is not None and legal.min_to != legal.max_to,
        "prompt": _prompt(hand, seating, row, legal),
        "showdown_order": order,
        "showdown_at_once": bool(order) and hand.showdown_at_once,
        "award_text": award_text,
        "returned": returned_chips(hand, seating)[0],
        "shown_text": tabled_lines(hand, seating),
        "can_muck": hand.awaiting == "showdown" and not hand.hands_face_up,
        "clock_call": live_clock_call(row),
        # the shot clock of the player to act (house rule; ``turn_started``: when the action
        # reached him, when the caller knows it)
        "shot_clock": shot_clock.state(row, hand, turn_started),
        # an action out of turn that backed up (TDA 53): ruled again when the action reaches him
        "oot_reminder": (row.positions or {}).get("oot_reminder") if row.status == "playing" else None,
        "can_undo": can_undo,
        # more than one action on this street: Undo the street takes them all back at once
        "can_undo_street": not hand.finished and hand.acted_on_street,
        "undo_label": _undo_label(row, hand, seating, last_tap) if can_undo else None,
        "log": said_lines(shown_log),
        # the log above is its last LOG_SHOWN lines: GET .../hand/log has them all
        "log_partial": len(shown_log) >= LOG_SHOWN,
    }


def current(table_id: int) -> dict[str, Any]:
    """GET: the table's current (latest) hand, or 404 when none was dealt yet.

    The tablets' read model (``memory.tablet_state``): the state of the hand at its
    version in the reader's language is computed once, by the write that made the
    version (for its own language) or by the first GET, and then read by every
    tablet of the table; only the shot clock's seconds are read at each request."""
    get_table_or_history(table_id)
    row = latest_hand(table_id)
    if row is None:
        raise NotFound(_("No hand has been dealt at this table yet"))
    kept = tablet_state(row.id, row.version, current_language())
    if kept is None:
        body = hand_json(row)
        keep_state(body)
        STATES_COUNTED["computed"] += 1
        return body
    return {**kept, "shot_clock": shot_clock.state(row, cached_hand(row), None)}


def keep_state(body: dict[str, Any]) -> None:
    """Keep a hand JSON just computed as the tablets' state of its version (in the
    language it was said in), less the shot clock."""
    keep_tablet_state(body["hand_id"], body["version"], current_language(),
                      {k: v for k, v in body.items() if k != "shot_clock"})


def utc(text: str) -> datetime:
    return datetime.fromisoformat(str(text).replace("Z", "+00:00"))


def live_clock_call(row: AnyRow) -> dict[str, Any] | None:
    """The clock called in this hand while it still stands: until the player it was called
    on acts (any event recorded after the call ends it; a call stored before calls kept
    their event count lasts while he is to act)."""
    call = row.clock_call
    if not call or row.status != "playing":
        return None
    at = call.get("at_seq")
    return call if at is None or int(at) == row.last_seq else None
