"""Errors the engine raises, written for a dealer to read.

Every error keeps its English message template and its parameters apart, so
that the web layer can translate the template (it is the gettext msgid) and
fill in the parameters for the dealer's language.  The engine itself never
imports a translation library.

>>> e = RuleViolation("Raise to {amount} is below the minimum raise to {minimum}",
...                   amount=7, minimum=8)
>>> str(e)
'Raise to 7 is below the minimum raise to 8'
>>> e.template
'Raise to {amount} is below the minimum raise to {minimum}'
"""

from __future__ import annotations

from typing import Any


def N_(text: str) -> str:  # noqa: N802  (the gettext convention)
    """Mark an English template for extraction into the catalogue; returns it unchanged.

    ``director.i18n.KEYWORDS`` lists ``N_``, so ``python -m director.i18n update``
    picks up every template wrapped in it (the rulings' sentences) while the engine
    stays free of any translation library.
    """
    return text


class RuleViolation(ValueError):
    """An action, card or setting the rules do not allow.

    ``template`` is the English sentence with ``{name}`` placeholders and
    ``params`` the values; ``str(error)`` is the filled-in English sentence.
    ``rule`` optionally names the source ("TDA 43-A").
    """

    def __init__(self, template: str, *, rule: str | None = None, **params: Any) -> None:
        self.template = template
        self.params = params
        self.rule = rule
        super().__init__(template.format(**params))

    @property
    def message(self) -> str:
        return str(self)


class CardError(RuleViolation):
    """A card that cannot be parsed, a duplicate card, or an impossible card count."""
