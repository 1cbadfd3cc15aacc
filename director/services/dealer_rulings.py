"""The rulings panel: ask the engine for a floor ruling about the hand, show it,
and apply its effect when the dealer confirms.

The situation (players, substantial action, the bet, the seats) is read from
the hand itself; the dealer adds only what he saw (which card, which seat, how
many chips).  An effect that is an engine event (a misdeal, a killed hand, a
check by the clock, a corrected action) is applied through
``dealer.apply_events``; a procedure (replace a card, scramble the burn ...)
changes nothing the engine records and is written to the hand's log.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from flask_babel import pgettext

from director.i18n import (
    N_,
    current_language,
    number_filter,
    translate_template,
    translate_violation,
)
from director.i18n import gettext as _
from director.poker import rulings as R
from director.poker import shot_clock as SC
from director.poker.cards import Card, format_card, parse_card
from director.poker.errors import RuleViolation
from director.poker.events import Action, ActionKind, CheckByClock, Event, Kill, Misdeal
from director.poker.state import Hand
from director.services import Invalid, house_rules, uow
from director.services import dealer_bodies as body
from director.services import dealer_shot_clock as shot_clock
from director.services.audit import Said
from director.services.dealer import (
    Answer,
    Illegal,
    Seating,
    apply_events,
    cached_hand,
    forget_latest,
    hand_json,
    live_clock_call,
    log_note,
    open_hand,
    stored_answer,
    write_note,
)

KINDS = body.KINDS
_BY_POLICY = ("stud_exposed_downcards",)
"""Rulings whose answer depends on a house policy flag that sources disagree on: the
text names the rule and where the policy comes from."""


def _substantial(hand: Hand) -> bool:
    kinds = [e.action for e in hand.events if isinstance(e, Action)]
    return R.substantial_action(kinds)


def _street_actions(hand: Hand) -> bool:
    """Has anyone acted on the current street (after its cards came)?"""
    for e in reversed(hand.events):
        if isinstance(e, Action):
            return True
        if type(e).__name__ in ("DealBoard", "DealHole"):
            return False
    return False


def _seat_index(data: Mapping[str, Any], seating: Seating) -> int:
    return seating.index(data["seat"])


HOUSE = "house_policy"
"""The key under which ``rule`` adds the tournament's ruling policy to the loaded body."""


def _policy(data: Mapping[str, Any]) -> R.RulingPolicy:
    """The ruling policy (RULES.md §11.1): the body's ``policy`` when the request sends
    one (the JSON API), else the tournament's house rules (``services.house_rules``,
    added by ``rule`` as ``data[HOUSE]``), else the TDA 2024 default."""
    policy: R.RulingPolicy = data.get("policy") or data.get(HOUSE) or R.DEFAULT_RULING_POLICY
    return policy


def _policy_source(data: Mapping[str, Any]) -> str:
    """How the dealer is told where the policy a ruling used comes from."""
    sent = data.get("policy")
    if sent not in (None, R.DEFAULT_RULING_POLICY):
        return _("house policy sent with the ruling")
    if sent is None and data.get(HOUSE) not in (None, R.DEFAULT_RULING_POLICY):
        return _("this tournament's house rules")
    if sent is not None and data.get(HOUSE) not in (None, R.DEFAULT_RULING_POLICY):
        return _("the TDA default, sent with the ruling")
    return _("the TDA default: this tournament sets no other")


def _exposed_positions(exposed: Any, seating: Seating, stud: bool) -> dict[int, Card | None]:
    """The deal positions of the cards the dealer named by seat and card (``exposed``),
    each with the card if he saw it: the deal goes one card at a time around the hand's
    players in engine order, dead seats included (``rulings.deal_position``).  A seat
    not in the hand, or a card named twice, is a 400 naming the item."""
    seen: dict[int, Card | None] = {}
    players = len(seating.players)
    for i, item in enumerate(exposed):
        p = seating.index(item["seat"], field=f"exposed[{i}].seat")
        if stud:
            break                       # the engine says which ruling stud uses
        position = R.deal_position(p, item["card"], players)
        if position in seen:
            raise Invalid({f"exposed[{i}].card": _("This card is named twice")})
        code = item.get("code")
        seen[position] = code[0] if code else None
    return seen


def _chip_situation(hand: Hand, p: int) -> dict[str, Any]:
    legal = hand.legal()
    current = hand.current_bet
    last_raise = (legal.min_to - current) if legal.min_to is not None and current else \
        (hand.config.nominal_big_blind or 1)
    return {"current_bet": current, "last_raise": max(1, last_raise), "own": hand.bets[p],
            "stack": hand.stacks[p], "max_to": legal.max_to}


def build(kind: str, data: Mapping[str, Any], hand: Hand, seating: Seating,
          now: datetime, clock_call: Mapping[str, Any] | None) -> R.Ruling:
    """The engine's ruling for ``kind`` about ``hand``; ``data`` is the loaded body
    (``dealer_bodies.ruling_body``): the fields of ``RULINGS[kind]``."""
    seats = tuple(int(p["seat"]) for p in seating.players)
    game = hand.config.game
    n = len(seats)
    sa = _substantial(hand)
    if kind == "misdeal":
        reason = data.get("reason") or ""
        if sa:
            return R.Ruling(R.Decision.PLAY_ON, "TDA 35-D",
                            "Substantial action has taken place, so no misdeal can be called: "
                            "the hand plays on", {})
        return R.Ruling(R.Decision.MISDEAL, "TDA 35", N_("Misdeal: the hand is void and is redealt "
                                               "with the same button"), {}, Misdeal(reason or "misdeal"))
    if kind == "exposed_card":
        positions = list(data.get("positions") or ())
        seen = _exposed_positions(data.get("exposed") or (), seating, game.is_stud)
        return R.exposed_card_on_deal(positions + [p for p in seen if p not in positions], players=n,
                                      game=game, substantial_action=sa, seats=seats,
                                      seen=seen if seen else None)
    if kind == "boxed_cards":
        return R.boxed_cards(data["count"], initial_deal=data["initial_deal"], substantial_action=sa)
    if kind == "wrong_number_of_cards":
        p = _seat_index(data, seating)
        acted = any(isinstance(e, Action) and e.player == p for e in hand.events)
        return R.wrong_number_of_cards(p, data["cards"], game=game,
                                       substantial_action=sa, is_button=(p == n - 1 and not game.is_stud),
                                       has_acted=acted, seats=seats)
    if kind == "fouled_deck":
        return R.fouled_deck(hand_finished=hand.finished)
    if kind == "wrong_button":
        if game.is_stud:
            raise Illegal(_("Stud is dealt without a button"))
        return R.wrong_button(seating.seat(n - 1), substantial_action=sa)   # PHH: the button acts last
    if kind == "flop_irregularity":
        return R.flop_irregularity(data["cards"], burned=data["burned"],
                                   action_on_flop=hand.street.value == "flop" and _street_actions(hand))
    if kind == "missing_burn":
        street = data["street"]
        return R.missing_burn(street, action_on_street=hand.street.value == street
                              and _street_actions(hand))
    if kind == "premature_card":
        return R.premature_card(data["street"], game=game, policy=_policy(data))
    if kind == "stud_exposed_downcards":
        p = _seat_index(data, seating)
        cards = data["cards"]
        ups = {i: hand.up_cards(i)[0] for i in range(n)
               if hand.up_cards(i) and hand.up_cards(i)[0] is not None}
        ante = hand.config.antes[p] if hand.config.antes else 0
        # His up-card entered before the ruling: the cards as entered stand (no undo).
        entered = hand.up_cards(p)[0] if hand.up_cards(p) else None
        return R.stud_exposed_downcards(p, cards, up_cards=ups or None, ante=ante,  # type: ignore[arg-type]
                                        substantial_action=sa, policy=_policy(data), seats=seats,
                                        entered=entered)
    if kind == "absent_player":
        p = _seat_index(data, seating)
        back = data.get("back")
        antes, blinds = hand.config.forced_order()
        return R.absent_player(p, back, game=game, forced_bets=antes[p] + blinds[p],
                               bring_in=hand.config.bring_in, policy=_policy(data), seats=seats)
    if kind == "clock_expired":
        if not clock_call:
            raise Illegal(_("No clock has been called in this hand"))
        p = seating.index(int(clock_call["seat"]))
        called = datetime.fromisoformat(str(clock_call["called_at"]).replace("Z", "+00:00"))
        ends = clock_call.get("ends_at")     # the time he was given when the clock was called
        expired = now >= datetime.fromisoformat(str(ends).replace("Z", "+00:00")) if ends \
            else R.clock_expired(called, now, _policy(data))
        if not expired:
            raise Illegal(_("The player still has time on the clock"))
        if hand.to_act != p:
            raise Illegal(_("%(who)s has acted: the clock is over", who=seating.label(p)))
        legal = hand.legal()
        return R.clock_expiry(legal.call is not None or legal.bring_in, player=p, seats=seats)
    if kind == "action_out_of_turn":
        p = _seat_index(data, seating)
        if hand.to_act is None:
            raise Illegal(_("Nobody is to act: an action out of turn is ruled during a betting round"))
        if hand.folded[p] or hand.all_in[p]:
            raise Illegal(_("%(who)s has no action left in this hand", who=seating.label(p)))
        what = data["action"]
        amount = data.get("amount")
        bet_when = data.get("bet_when_acted")
        if bet_when is None:
            bet_when = hand.current_bet
        min_to = hand.legal().min_to if hand.to_act == p else None
        return R.action_out_of_turn(p, what, amount, bet_when_acted=bet_when, bet_now=hand.current_bet,
                                    min_raise_to=min_to, to_act=hand.to_act, seats=seats)
    p = _seat_index(data, seating)
    s = _chip_situation(hand, p)
    if kind == "undercall":
        live = sum(hand.live)
        # What he faced is read from the hand (the body's ``opening_bet`` is not trusted).
        return R.undercall(data["pushed"], player=p, current_bet=s["current_bet"],
                           own=s["own"], heads_up=live == 2, faced=R.bet_faced(hand),
                           declared_call=data["declared_call"], stack=s["stack"], seats=seats)
    if kind == "silent_push":
        return R.silent_push(data["pushed"], player=p,
                             current_bet=s["current_bet"], last_raise=s["last_raise"], own=s["own"],
                             declared_raise=data["declared_raise"], stack=s["stack"],
                             max_to=s["max_to"], seats=seats)
    if kind == "single_chip":
        return R.single_chip(data["chip"], player=p, current_bet=s["current_bet"],
                             last_raise=s["last_raise"], own=s["own"],
                             declared_raise=data["declared_raise"], max_to=s["max_to"],
                             seats=seats)
    if kind == "multiple_chips":
        return R.multiple_chips(data["chips"], player=p,
                                current_bet=s["current_bet"], last_raise=s["last_raise"], own=s["own"],
                                declared_raise=data["declared_raise"], stack=s["stack"],
                                max_to=s["max_to"], seats=seats)
    raise Invalid({"ruling": _("ruling must be one of: %(kinds)s", kinds=", ".join(KINDS))})


_NTH: dict[str, Callable[[], str]] = {
    "first": lambda: pgettext("which of a player's cards: 'seat 4's {nth} card'", "first"),
    "second": lambda: pgettext("which of a player's cards: 'seat 4's {nth} card'", "second"),
    "third": lambda: pgettext("which of a player's cards: 'seat 4's {nth} card'", "third"),
    "fourth": lambda: pgettext("which of a player's cards: 'seat 4's {nth} card'", "fourth"),
}


def _action_noun(action: str) -> str:
    """An action a ruling names in a sentence ("his raise to 800 out of turn stands")."""
    nouns = {
        "fold": pgettext("a player's action, in a ruling", "fold"),
        "check": pgettext("a player's action, in a ruling", "check"),
        "call": pgettext("a player's action, in a ruling", "call"),
        "bet": pgettext("a player's action, in a ruling", "bet"),
        "raise": pgettext("a player's action, in a ruling", "raise"),
        "complete": pgettext("a player's action, in a ruling", "complete"),
        "bring_in": pgettext("a player's action, in a ruling", "bring-in"),
        "all_in": pgettext("a player's action, in a ruling", "all-in"),
    }
    return nouns.get(action, action)


def _grouped(params: Mapping[str, Any]) -> dict[str, Any]:
    """Every whole number with the locale's thousands separator (en 12,000, sv 12 000
    with a no-break space, id 12.000): chips in a sentence are read at a glance."""
    return {key: number_filter(value) if isinstance(value, int) and not isinstance(value, bool)
            else value for key, value in params.items()}


def _violation(exc: RuleViolation, seating: Seating) -> str:
    """The engine's refusal in the dealer's language, its amounts grouped, its seats named."""
    return seating.words(translate_template(exc.template, _grouped(exc.params)))


def _shown_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """The ruling's parameters as the dealer reads them: a card with the locale's
    letters (sv "Kn♥"), an action in the dealer's words, which of his cards ("first"),
    every amount with the locale's thousands separator."""
    shown = _grouped(params)
    for key in ("card", "entered"):
        card = shown.get(key)
        if isinstance(card, str) and card:
            with contextlib.suppress(RuleViolation):
                shown[key] = format_card(parse_card(card), current_language())
    nth = shown.get("nth")
    if isinstance(nth, str) and nth in _NTH:
        shown["nth"] = _NTH[nth]()
    for key in ("action", "kind"):
        if isinstance(shown.get(key), str):
            shown[key] = _action_noun(shown[key])
    street = shown.get("street")
    if isinstance(street, str) and street in ("4th", "5th", "6th", "7th"):
        shown["street"] = {
            "4th": pgettext("a stud street: 'the {street} street cards'", "4th"),
            "5th": pgettext("a stud street: 'the {street} street cards'", "5th"),
            "6th": pgettext("a stud street: 'the {street} street cards'", "6th"),
            "7th": pgettext("a stud street: 'the {street} street cards'", "7th"),
        }[street]
    return shown


def effect_event(ruling: R.Ruling, hand: Hand) -> Event | None:
    """The hand event the dealer's confirm applies, or None (a procedure to log).

    A call ruled by chips is the engine's call (its amount is the engine's); an
    exposed stud down-card that becomes the up-card is his third-street deal
    (``rulings.up_card_deal``).  Raises ``RuleViolation`` if the event cannot be
    applied to ``hand`` now, so a preview that rules it never precedes a refused
    confirm.
    """
    effect = ruling.effect
    event: Event | None = None
    if isinstance(effect, Misdeal | Kill | CheckByClock):
        event = effect
    elif isinstance(effect, Action):
        event = Action(effect.player, ActionKind.CALL) \
            if effect.action is ActionKind.CALL and effect.amount is not None else effect
    elif isinstance(effect, R.UpCard):
        event = R.up_card_deal(hand, effect)
    if event is not None:
        problem = hand.why_not(event)
        if problem is not None:
            raise problem
    return event


def ruling_json(ruling: R.Ruling, seating: Seating, event: Event | None = None) -> dict[str, Any]:
    data = ruling.to_json()
    try:
        text = translate_template(ruling.template, _shown_params(ruling.params))
    except (KeyError, ValueError, IndexError):
        text = ruling.text
    data["text"] = seating.words(text)
    data["applies"] = event is not None
    return data


def rule(table_id: int, data: Mapping[str, Any], *, who: str, now: datetime) -> Answer:
    """Preview a ruling (``confirm`` false) or apply its effect (``confirm`` true).

    ``data`` is the request body as sent; it is loaded here (``dealer_bodies.ruling_body``),
    so a bad field is a 400 naming it before the hand is read.
    """
    data = body.ruling_body(data)
    kind, confirm = data["ruling"], data["confirm"]
    version, key = data["version"], data["idempotency_key"]
    row = open_hand(table_id, version if confirm else None)
    # A policy sent with the ruling wins; otherwise the tournament's house rules rule.
    data = {**data, HOUSE: house_rules.ruling_policy(row.tournament_id)}
    hand = cached_hand(row)
    seating = Seating(row.players)
    try:
        ruling = build(kind, data, hand, seating, now, live_clock_call(row))
    except RuleViolation as exc:
        raise Illegal(_violation(exc, seating)) from None
    blocked: str | None = None
    try:
        event = effect_event(ruling, hand)
    except RuleViolation as exc:
        # The ruling stands, but its effect is not legal in the hand as entered: the
        # preview says so and the confirm only logs it (never a refused confirm).
        event, blocked = None, _violation(exc, seating)
    shown = ruling_json(ruling, seating, event)
    if blocked is not None:
        shown["blocked"] = blocked
        shown["text"] = _("%(text)s. It cannot be entered as ruled: %(reason)s", text=shown["text"],
                          reason=blocked)
    if kind in _BY_POLICY:
        shown["text"] = _("%(text)s. Rule: %(rule)s, %(source)s", text=shown["text"], rule=ruling.rule,
                          source=_policy_source(data))
    if not confirm:
        return Answer({"ruling": shown, "hand": hand_json(row, hand)})
    note = _("Ruling (%(rule)s): %(text)s", rule=ruling.rule, text=shown["text"])
    if event is not None:
        if kind == "action_out_of_turn" and (row.positions or {}).get("oot_reminder"):
            # ruled at his turn (or binding at once): the reminder of TDA 53 is over
            row.positions = {k: v for k, v in row.positions.items() if k != "oot_reminder"}
            uow.after_commit(functools.partial(forget_latest, table_id))
            uow.commit()
        made: Callable[[Hand, Seating], list[Event]] = lambda h, s: [event]  # noqa: E731
        answer = apply_events(table_id, made, version=version, key=key, who=who, note=note)
    elif kind == "action_out_of_turn" and (ruling.decision == R.Decision.BACKS_UP
                                           or (row.positions or {}).get("oot_reminder")):
        answer = _remember_out_of_turn(row, hand, ruling, data, who, note, key)
    else:
        log_note(table_id, note, who)
        answer = Answer(hand_json(open_hand(table_id, None)))
    return Answer({"ruling": shown, "hand": answer.body})


def _remember_out_of_turn(row: Any, hand: Hand, ruling: R.Ruling, data: Mapping[str, Any], who: str,
                          note: str, key: str | None) -> Answer:
    """An action out of turn that backs up (TDA 53) is ruled again when the action reaches
    the seat: the hand keeps the reminder (every tablet of the table shows it, also one
    that was not there), and ruling it at that seat ends it."""
    positions = dict(row.positions or {})
    if ruling.decision == R.Decision.BACKS_UP:
        positions["oot_reminder"] = {k: data.get(k) for k in ("seat", "action", "amount", "bet_when_acted")}
        if positions["oot_reminder"]["bet_when_acted"] is None:
            positions["oot_reminder"]["bet_when_acted"] = hand.current_bet
    else:
        positions.pop("oot_reminder", None)
    row.positions = positions
    return write_note(row, hand, who, note, key)


def shot_clock_use(table_id: int, seat: int, what: str, *, version: int | None, key: str | None,
                   who: str, now: datetime, offline_seconds: int | None = None) -> Answer:
    """``what`` "time_bank": the player to act plays a time-bank card (logged, his time grows
    by ``TIME_BANK_SECONDS``); "expired": his time has run out, the house rule is applied
    (refused while he has time left); "offline": the tablet is back after
    ``offline_seconds`` without the server, which do not count against him
    (``shot_clock.went_offline``)."""
    if what == "offline" and offline_seconds is None:
        raise Invalid({"offline_seconds": _("Give the seconds the tablet was offline")})
    stored = stored_answer(key, table_id)
    if stored is not None:
        return stored
    row = open_hand(table_id, version)
    setup = shot_clock.setup_of(row)
    if setup is None:
        raise Illegal(_("This hand is played without a shot clock"))
    hand = cached_hand(row)
    seating = Seating(row.players)
    p = seating.index(seat)
    if hand.to_act != p:
        raise Illegal(_("%(who)s is not to act", who=seating.label(p)))
    started = shot_clock.turn_started(row)
    if what == "offline":
        seconds = shot_clock.went_offline(row, started, int(offline_seconds or 0), now)
        return write_note(row, hand, who, Said(N_("The tablet was offline %(seconds)s seconds: they do not "
                                                  "count against the shot clock of %(who)s"), seconds=seconds,
                                               who=seating.label(p)), key, turn_started=started)
    turn = shot_clock.turn(row, hand, setup, started, now)
    assert turn is not None
    if what == "expired":
        try:
            event = SC.expiry_event(turn, now, rule=str(setup["expiry"]), can_check=hand.can_check(),
                                    seats=hand.config.seats or None,
                                    paused=shot_clock.clock_paused(row, started)[0])
        except RuleViolation as exc:
            raise Illegal(seating.words(translate_violation(exc))) from None

        def make(h: Hand, s: Seating) -> list[Event]:
            return [event]
        note = Said(N_("Shot clock: the time of %(who)s ran out"), who=seating.label(p))
        return apply_events(table_id, make, version=row.version, key=key, who=who, note=note)
    left = int(setup.get("cards") or 0) - shot_clock.cards_played(row, shot_clock.bank_key(row, p), setup)
    try:
        SC.verify_time_bank(left, player=p, seats=hand.config.seats or None)
    except RuleViolation as exc:
        raise Illegal(seating.words(translate_violation(exc))) from None
    text = Said(N_("%(who)s plays a time-bank card: %(seconds)s seconds more (%(left)s left)"),
                who=seating.label(p), seconds=SC.TIME_BANK_SECONDS, left=left - 1)
    return write_note(row, hand, shot_clock.bank_key(row, p), text, key, turn_started=started)
