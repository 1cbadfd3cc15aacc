"""``director replay``: replay PHH hand histories through the rules engine.

Each file is read (:mod:`director.poker.phh`) and every action is applied
through the same engine the dealer screen uses
(:class:`director.poker.state.Hand`).  An illegal action stops that file
with a message naming the file, the action and the rule; at the end the
finishing stacks are compared with the file's ``finishing_stacks``.

Output contract (the CLI wires it as ``director replay [--json] [--trace] FILE...``):

* ``--json``: one JSON object per file, one per line:
  ``{"file", "variant", "finishing_stacks", "error"}``, and with ``--trace``
  also ``"trace"``: one entry per player decision, taken before it:
  ``{"player" (1-based), "call", "min_to", "max_to", "bring_in"}``.
* otherwise a readable account of each hand: board, pots, who won what and why.
* exit code 0 when every file replayed cleanly, 1 when a file had an illegal
  action or its stacks differ from ``finishing_stacks``, 2 for usage errors
  (no files, a file that cannot be read, bad TOML, a file that is not a PHH
  hand).  An action line outside the PHH grammar counts as an illegal
  action (1).

Policy: a hand replays under the policy its file writes in ``_policy`` (the
dealer tablet's export writes every flag that is not the default), else under
the TDA 2024 defaults (:class:`Policy`), except that a file whose ``event``
names the World Series of Poker uses the WSOP house cap for limit games,
bet + 4 raises (WSOP-T 100-b).

The tablet's other user-defined fields (``_dead_players``, ``_events`` for
kills, clock checks, awards by hand and misdeals; see
:mod:`director.poker.phh`) are applied as the engine events they stand for,
so a downloaded hand replays to the stacks it finished with on the server.  (The 41 hands of
the 2023 WSOP Poker Players Championship never go past bet + 3 raises, so
they replay under either.)

``python -m director.replay [--json] [--trace] FILE...`` runs it without the
``director`` CLI.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO, cast

from director.poker import hands, phh
from director.poker.cards import Card
from director.poker.errors import RuleViolation
from director.poker.events import Event, Kill, Misdeal, Muck, Show
from director.poker.policy import Policy
from director.poker.pots import describe_awards
from director.poker.state import Hand

USAGE = "usage: director replay [--json] [--trace] FILE..."
WSOP_POLICY = Policy(limit_raise_cap=4)  # WSOP-T 100-b: bet + 4 raises, even heads-up


@dataclass
class Replay:
    """The result of replaying one file."""

    file: str
    variant: str | None = None
    finishing_stacks: list[int] | None = None
    error: str | None = None
    exit_code: int = 0
    trace: list[dict[str, Any]] = field(default_factory=list)
    history: phh.HandHistory | None = None
    hand: Hand | None = None

    def to_json(self, with_trace: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.file, "variant": self.variant,
                               "finishing_stacks": self.finishing_stacks, "error": self.error}
        if with_trace:
            out["trace"] = self.trace
        return out


def policy_for(history: phh.HandHistory) -> Policy:
    """The house policy a file's hand was played under (see the module docstring)."""
    written = phh.file_policy(history)
    if written is not None:
        return written
    event = str(history.extra.get("event", ""))
    if "world series of poker" in event.lower() or event.upper().startswith("WSOP"):
        return WSOP_POLICY
    return Policy()


def replay_file(path: str, policy: Policy | None = None) -> Replay:
    """Read and replay one PHH file; never raises for a bad file or hand."""
    result = Replay(path)
    try:
        history = phh.read_phh(path)
    except OSError as e:
        result.error = f"{path}: cannot read the file ({e.strerror or e})"
        result.exit_code = 2
        return result
    except RuleViolation as e:
        result.error = f"{path}: {e}"
        # An action line outside the grammar is a bad hand (1); anything else
        # (TOML, header fields) means the file is not a PHH hand (2).
        result.exit_code = 1 if str(e).startswith("Action ") else 2
        return result
    result.history = history
    result.variant = history.variant.value
    return replay_history(history, result, policy or policy_for(history))


def replay_history(history: phh.HandHistory, result: Replay, policy: Policy) -> Replay:
    """Apply the hand's actions one by one, recording the trace."""
    path = result.file
    try:
        config = phh.hand_config(history, policy=policy)
        hand = Hand.start(config)
    except RuleViolation as e:
        result.error = f"{path}: {_rule(e)}"
        result.exit_code = 1
        return result
    for action, event in phh.paired_events(history):
        try:
            hand, entry = step(hand, action, event)
        except RuleViolation as e:
            result.error = f'{path}: action {action.number} "{action}": {_rule(e)}'
            result.exit_code = 1
            result.hand = hand
            result.finishing_stacks = None
            return result
        if entry is not None:
            result.trace.append(entry)
    result.hand = hand
    if not hand.finished:
        result.error = (f"{path}: the hand is not finished after the last action"
                        f" ({_waiting_for(hand)})")
        result.exit_code = 1
        return result
    result.finishing_stacks = list(hand.stacks)
    expected = history.finishing_stacks
    if expected is not None and tuple(expected) != tuple(hand.stacks):
        diffs = [f"p{i + 1} {got:,} (file says {want:,})"
                 for i, (got, want) in enumerate(zip(hand.stacks, expected, strict=True))
                 if got != want]
        result.error = (f"{path}: finishing stacks differ from the file's finishing_stacks: "
                        + ", ".join(diffs))
        result.exit_code = 1
    return result


def step(hand: Hand, action: phh.Action, event: Event | None
         ) -> tuple[Hand, dict[str, Any] | None]:
    """Apply one PHH action: the new hand and, for a player decision, its
    trace entry (taken before the action).  Raises :class:`RuleViolation`.

    A check by a player whom the engine does not ask to act, because every
    other live player is all-in and he owes nothing (the big blind's "option"
    behind all-ins), changes nothing: pokerkit, the PHH reference
    implementation, records one, so it is accepted and skipped, with a trace
    entry that offers only the check.
    """
    if event is None:
        return hand, None
    if (action.kind is phh.ActionKind.CHECK_OR_CALL and hand.to_act is None
            and not hand.finished and action.player is not None
            and not hand.folded[action.player]
            and hand.bets[action.player] >= hand.current_bet
            and sum(1 for i, s in enumerate(hand.stacks) if s and not hand.folded[i]) <= 1):
        return hand, {"player": action.player + 1, "call": 0, "min_to": None, "max_to": None,
                      "bring_in": False}
    entry = decision(hand, action) if action.is_player_decision else None
    return hand.apply(event), entry


def decision(hand: Hand, action: phh.Action) -> dict[str, Any]:
    """The options of the player to act, before he acts (the --trace entry)."""
    legal = hand.legal()
    player = hand.to_act if hand.to_act is not None else action.player
    assert player is not None
    if legal.bring_in:
        # The bring-in player: post the bring-in or complete; no call.
        call = None
        to = legal.complete_to if legal.complete_to is not None else legal.min_to
        min_to, max_to = to, (legal.max_to if legal.max_to is not None else to)
    else:
        call = 0 if legal.check else legal.call
        min_to, max_to = legal.min_to, legal.max_to
    return {"player": player + 1, "call": call, "min_to": min_to, "max_to": max_to,
            "bring_in": bool(legal.bring_in)}


def _rule(error: RuleViolation) -> str:
    return f"{error} ({error.rule})" if error.rule else str(error)


def _waiting_for(hand: Hand) -> str:
    if hand.to_act is not None:
        return f"waiting for p{hand.to_act + 1} to act"
    if hand.awaiting == "showdown":
        return "at showdown, waiting for the live hands to be shown or mucked"
    if hand.awaiting in ("hole", "board", "street"):
        return f"waiting for the {hand.street} to be dealt"
    return f"on the {hand.street}"


# ---------------------------------------------------------------------------- text


def describe(result: Replay) -> str:
    """The readable account of one replayed hand: who won what and why.

    The players (by name when the file has ``players``), the board or each
    player's up-cards, every hand shown at showdown with what it makes (high,
    and low in hi/lo games), the hands mucked, the pots, uncalled chips
    returned, and one sentence per pot naming the winner and the hand that won
    it.  A pot won because every other hand was mucked is said with the hand
    the winner showed; "uncontested" means nobody else was left.
    """
    lines = [f"== {result.file}"]
    h = result.history
    names: tuple[str, ...] = ()
    if h is not None and "players" in h.extra:
        names = h.player_names

    def who(i: int) -> str:
        return f"p{i + 1} {names[i]}" if i < len(names) else f"p{i + 1}"

    if h is not None:
        title = h.variant.label
        if "hand" in h.extra:
            title += f", hand {h.extra['hand']}"
        lines.append(title)
        lines.append("Players: " + ", ".join(
            f"{who(i)} ({stack:,})" for i, stack in enumerate(h.starting_stacks)))
    hand = result.hand
    if hand is not None:
        stud = hand.config.game.is_stud
        shown, mucked = _showdown(hand)
        if stud:
            ups = []
            for i in range(hand.config.players):
                if hand.up_cards(i):
                    gone = " (mucked)" if i in mucked else " (folded)" if hand.folded[i] else ""
                    ups.append(f"{who(i)} {_cards(hand.up_cards(i))}{gone}")
            if ups:
                lines.append("Up cards: " + "; ".join(ups))
            if hand.board:
                lines.append("Community card: " + _cards(hand.board))
        elif hand.board:
            lines.append("Board: " + _cards(hand.board))
        readings: dict[int, str] = {}
        for i in shown:
            reading = _reading(hand, i)
            cards = _cards(hand.hole_cards[i])
            if reading:
                readings[i] = reading[0]
                lines.append(f"Shows: {who(i)} {cards}: " + "; ".join(reading))
            else:
                lines.append(f"Shows: {who(i)} {cards}")
        if mucked:
            lines.append("Mucked: " + ", ".join(who(i) for i in mucked))
        if hand.config.dead_players:
            lines.append("Dead at the deal (TDA 30): "
                         + ", ".join(who(i) for i in hand.config.dead_players))
        for event in hand.events:
            if isinstance(event, Kill):
                lines.append(f"Hand killed: {who(event.player)} ({event.reason})")
        misdeal = next((e for e in hand.events if isinstance(e, Misdeal)), None)
        if misdeal is not None:
            reason = f" ({misdeal.reason})" if misdeal.reason else ""
            lines.append(f"Misdeal{reason}: the hand is void and every chip goes back (TDA 35)")
        try:
            pots = [] if misdeal is not None else hand.pots()
        except RuleViolation:
            pots = []
        so_far = "" if hand.finished else " (so far)"
        for pot in pots:
            lines.append(f"{pot.name}{so_far} {pot.amount:,}, eligible: "
                         + ", ".join(who(i) for i in pot.eligible))
        if hand.finished and misdeal is None:
            for i, chips in enumerate(hand.returned()):
                if chips:
                    lines.append(f"Uncalled {chips:,} returned to {who(i)}")
            lines.extend(describe_awards(hand.awards(), player_name=who, shown_hands=readings))
    if result.finishing_stacks is not None:
        lines.append("Finishing stacks: " + ", ".join(
            f"{who(i)} {s:,}" for i, s in enumerate(result.finishing_stacks)))
    if result.error:
        lines.append(f"ERROR {result.error}")
    elif h is not None and h.finishing_stacks is not None:
        lines.append("Matches the file's finishing stacks.")
    return "\n".join(lines) + "\n"


def _cards(cards: Sequence[Card | None]) -> str:
    return " ".join("??" if c is None else c.symbol for c in cards)


def _showdown(hand: Hand) -> tuple[list[int], list[int]]:
    """Who showed and who mucked, from the events the hand has applied (a
    player who showed and later mucked counts as mucked)."""
    shown: list[int] = []
    mucked: list[int] = []
    for event in hand.events:
        if isinstance(event, Show) and event.player not in shown:
            shown.append(event.player)
        elif isinstance(event, Muck) and event.player not in mucked:
            mucked.append(event.player)
    return [p for p in shown if p not in mucked], mucked


def _reading(hand: Hand, player: int) -> list[str]:
    """What a shown hand makes: its high name, and in hi/lo its low ("no low");
    empty when some of its cards or the board are unknown."""
    hole = hand.hole_cards[player]
    board = hand.board
    if any(c is None for c in (*hole, *board)):
        return []
    known = cast("tuple[Card, ...]", hole)
    table = cast("tuple[Card, ...]", board)
    game = hand.config.game
    try:
        if game.is_stud:
            high = hands.stud_high(known + table)
            low = hands.stud_low(known + table) if game.hi_lo else None
        else:
            high = hands.omaha_high(known, table)
            low = hands.omaha_low(known, table) if game.hi_lo else None
    except RuleViolation:
        return []
    words = [high.name]
    if game.hi_lo:
        words.append(low.name if low is not None else hands.NO_LOW)
    return words


# ---------------------------------------------------------------------------- command


def replay_command(files: Sequence[str], as_json: bool, trace: bool, out: TextIO,
                   err: TextIO) -> int:
    """``director replay [--json] [--trace] FILE...`` (see the module docstring)."""
    if not files:
        err.write(USAGE + "\n")
        return 2
    code = 0
    for path in files:
        result = replay_file(path)
        code = max(code, result.exit_code)
        if as_json:
            out.write(json.dumps(result.to_json(trace)) + "\n")
        else:
            out.write(describe(result))
            if trace:
                for entry in result.trace:
                    out.write("  " + json.dumps(entry) + "\n")
        if result.error:
            err.write(result.error + "\n")
    return code


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="director replay", add_help=True,
                                     description="Replay PHH hand histories.")
    parser.add_argument("--json", action="store_true", help="one JSON object per file")
    parser.add_argument("--trace", action="store_true", help="the options at every decision")
    parser.add_argument("files", nargs="*", metavar="FILE")
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as e:  # argparse exits 2 on usage errors already
        return int(e.code or 0)
    return replay_command(args.files, args.json, args.trace, sys.stdout, sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
