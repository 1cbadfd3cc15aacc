"""Blueprints, one per audience: auth, director pages, public clock screens, JSON API.

A view parses the request, calls one service and renders; it never commits.
"""

from __future__ import annotations

from flask import Flask

from director.views import (
    api,
    auth,
    chip_race,
    clock,
    dealer,
    dealer_api,
    director,
    errors,
    house_rules,
    language,
    players,
    screens,
    seating,
    waiting_list,
    wizard,
)
from director.views import money as money_views


def register(app: Flask) -> None:
    app.register_blueprint(auth.bp)
    app.register_blueprint(director.bp)
    app.register_blueprint(clock.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(seating.bp)
    app.register_blueprint(money_views.bp)
    app.register_blueprint(waiting_list.bp)   # issue 17 item 7: seat choice, waiting list
    app.register_blueprint(dealer.bp)
    app.register_blueprint(dealer_api.bp)
    app.register_blueprint(language.bp)
    app.register_blueprint(house_rules.bp)
    app.register_blueprint(chip_race.bp)      # issue 17: chip race, screens, blind wizard
    app.register_blueprint(screens.bp)
    app.register_blueprint(wizard.bp)
    app.register_blueprint(players.bp)        # issue 17: players across events, leagues
    errors.register(app)
