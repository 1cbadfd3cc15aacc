"""A player is looked for by name in his event from an index (revisions 0017, 0018): an
entry's "already a player called ..." check and its record's lookup among the
event's earlier entries read one index entry, not every entry the event has had.
The name is compared by its key (``models.seating.name_key``: casefolded by Python),
the same on SQLite, whose ``lower()`` folds only A-Z, and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from director.db import db
from director.models.money import Payment
from director.models.seating import Player
from director.services import Invalid, seating
from tests.conftest import ENTRY, POSTGRES_URL, query_plans, statements_sent


@pytest.mark.skipif(bool(POSTGRES_URL), reason="SQLite's query plans")
def test_an_entry_looks_for_its_name_in_the_index_not_through_every_entry(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_entry_tournament: Callable[..., int]) -> None:
    tid = make_entry_tournament()
    api = f"/api/tournaments/{tid}/seating/players"
    for i in range(30):
        assert client.post(api, json={"name": f"Player {i:02d}"},
                           headers=auth).status_code == 201
    with statements_sent(app) as sent:
        entry = client.post(api, json={"name": "Late Lena"}, headers=auth)
    assert entry.status_code == 201, entry.get_json()
    by_name = [(statement, parameters) for statement, parameters in sent
               if "player.name_key =" in statement]
    assert len(by_name) >= 2, [s for s, _ in sent]   # the same-name check, the record's
    plans = query_plans(app, by_name)
    for steps in plans:
        assert any("USING INDEX ix_player_name_key" in step for step in steps), steps


def test_a_name_with_letters_beyond_a_to_z_is_one_name_in_any_case(
        app: Flask, make_tournament: Callable[..., int]) -> None:
    """"Åsa Öberg" twice is refused by the seating, in any case (SQLite's lower() left
    "Å" as it was and took both); "Asa Oberg" is another name."""
    tid = make_tournament()
    with app.app_context():
        seating.register_player(tid, "Åsa Öberg", 20_000)
        for same in ("Åsa Öberg", "ÅSA ÖBERG", "åsa öberg"):
            with pytest.raises(Invalid) as refused:
                seating.register_player(tid, same, 20_000)
            assert refused.value.errors == {
                "name": f"There is already a player called {same} in the tournament"}
        # "Å" as "A" and a combining ring above (a name pasted from another program)
        with pytest.raises(Invalid) as refused:
            seating.register_player(tid, "A\u030asa O\u0308berg", 20_000)
        assert refused.value.errors == {
            "name": "There is already a player called Åsa Öberg in the tournament"}
        seating.register_player(tid, "Asa Oberg", 20_000)
        names = db.session.scalars(select(Player.name).where(
            Player.tournament_id == tid).order_by(Player.id)).all()
        assert names == ["Åsa Öberg", "Asa Oberg"]


def test_the_desk_takes_the_buy_in_of_the_player_put_on_the_list_in_another_case(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int]) -> None:
    """"Örjan Ådahl" put on the seating list before the money was set: his buy-in at
    the desk, typed "ÖRJAN ÅDAHL", is his (not a second player of the name)."""
    tid = make_tournament()
    with app.app_context():
        listed, _seat = seating.register_player(tid, "Örjan Ådahl", 20_000)
        listed_id = listed.id
    assert client.post(f"/api/tournaments/{tid}/money/settings", json=ENTRY,
                       headers=auth).status_code == 200
    bought = client.post(f"/api/tournaments/{tid}/money/entries",
                         json={"kind": "buy-in", "name": "ÖRJAN ÅDAHL"}, headers=auth)
    assert bought.status_code == 201, bought.get_json()
    with app.app_context():
        players = db.session.scalars(select(Player).where(Player.tournament_id == tid)).all()
        assert [(p.id, p.name) for p in players] == [(listed_id, "Örjan Ådahl")]
        paid = db.session.scalars(select(Payment.player_id).where(
            Payment.tournament_id == tid)).all()
        assert paid == [listed_id]
