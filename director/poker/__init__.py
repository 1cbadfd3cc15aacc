"""The rules engine: pure Python, no Flask, no database, no clock.

Modules: ``games`` (variant codes), ``errors`` (RuleViolation), ``cards``,
``hands`` (hand reading), ``pots`` (side pots and awards), ``state`` (one hand
as a fold over its events), ``phh`` (hand histories).
"""
