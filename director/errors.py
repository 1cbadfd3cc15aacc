"""The two refusals every layer shares, below all of them.

A service, a request schema and the security module refuse with ``Invalid``
(``errors``: field -> sentence) or ``NotFound``; the views turn them into 400
and 404 (``director.views.errors``).  ``director.services`` re-exports both.
"""

from __future__ import annotations


class Invalid(ValueError):
    """The input names fields that are wrong: ``errors`` maps field -> sentence."""

    def __init__(self, errors: dict[str, str]) -> None:
        self.errors = dict(errors)
        super().__init__("; ".join(f"{field}: {message}" for field, message in self.errors.items()))


class NotFound(LookupError):
    """No such row."""
