"""A tiny script language for engine tests: one token per decision.

``f`` fold, ``x`` check, ``c`` call, ``ai`` all-in, ``bi`` bring-in,
``k`` complete, ``r<to>`` raise to; ``F``/``T``/``R`` deal an unknown flop,
turn or river.  ``play(hand, "r7 c f c F x")`` returns the new hand.
"""

from __future__ import annotations

from director.poker.events import Action, ActionKind, DealBoard
from director.poker.state import Hand

KINDS = {"f": ActionKind.FOLD, "c": ActionKind.CALL, "x": ActionKind.CHECK,
         "ai": ActionKind.ALL_IN, "bi": ActionKind.BRING_IN, "k": ActionKind.COMPLETE}


def step(hand: Hand, token: str) -> Hand:
    """One scripted step for the player to act: f c x ai r<to> k(complete) bi, or F/T/R board."""
    if token in ("F", "T", "R"):
        return hand.apply(DealBoard((None,) * (3 if token == "F" else 1)))
    p = hand.to_act
    assert p is not None, f"nobody to act for {token}"
    if token in KINDS:
        return hand.apply(Action(p, KINDS[token]))
    assert token[0] == "r"
    return hand.apply(Action(p, ActionKind.RAISE, int(token[1:])))


def play(hand: Hand, script: str) -> Hand:
    for token in script.split():
        hand = step(hand, token)
    return hand
