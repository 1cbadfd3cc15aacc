"""Fault injection for the crash tests: kill the process at a named step.

``DIRECTOR_CRASH_AT=<step>`` in a server's environment makes that process end
at once (``os._exit(1)``: no cleanup, no commit, no answer, as a power cut or
``kill -9`` would) when it reaches :func:`crash_point` with that name.  The
tests use it to prove that a change is one unit of work: whatever step the
process dies at, the database holds all of the change or none of it
(``tests/web/test_dealer_finish_crash.py``).

The steps of a hand's finish (``services.dealer``), in order:

``finish-start``          the engine accepted the last event, nothing written yet
``after-hand-rows``       the hand's version, status, events and log lines written
``after-chips``           the players' chips moved
``after-eliminations``    the busted players are out (places, bounties, seating
                          plan, the event's end when one player is left)
``before-commit``         everything written, not committed
``after-commit``          committed, nothing told yet (screens, tablets, log)

and of the undo of a finished hand: ``undo-after-reinstate`` (the chips taken
back and the busted players in their seats again), ``undo-before-commit``,
``undo-after-commit``.

Unset (always, outside those tests) a crash point is one comparison with None:
the variable is read once, when this module is imported.
"""

from __future__ import annotations

import os

CRASH_AT: str | None = os.environ.get("DIRECTOR_CRASH_AT") or None


def crash_point(step: str) -> None:
    """End the process here if ``DIRECTOR_CRASH_AT`` names ``step``."""
    if CRASH_AT is not None and step == CRASH_AT:
        os._exit(1)
