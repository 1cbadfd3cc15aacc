"""Write the SQL dump of a database made by a released version of director.

Not a test: it builds ``release-1ace821.sql``, the data of the migration tests
(``tests/web/test_migrations.py``).  Run it against the release's own source,
so that the database is exactly what that release's ``init-db`` made and its
services wrote::

    git archive 1ace821 | tar -x -C /tmp/release
    PYTHONPATH=/tmp/release .venv/bin/python tests/web/migration_data/make_release_db.py \\
        tests/web/migration_data/release-1ace821.sql

The event is mid-level: 16 players bought in (one rebuy, one bust), drawn at
two tables, the clock running in level 2, house rules set, a tablet paired,
two hands finished at table 1 and a third one in play (its last action undone).
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

TOKEN = "release-token"


def build(out: Path) -> None:
    from director import create_app
    from director.db import db
    from director.services.audit import writer
    from director.services.events import events

    tmp = Path(tempfile.mkdtemp())
    database = tmp / "director.sqlite"
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp / "instance"), "TOKEN": TOKEN,
                      "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"})
    with app.app_context():
        db.create_all()
    client = app.test_client()
    auth = {"Authorization": f"Bearer {TOKEN}"}

    def call(method: str, path: str, body: Any = None, expect: int = 200) -> Any:
        response = client.open(path, method=method, json=body, headers=auth)
        assert response.status_code == expect, (path, response.status_code, response.get_json())
        return response.get_json()

    level = {"kind": "level", "game": "PO", "duration_seconds": 1200}
    tid = call("POST", "/api/tournaments", {"name": "Thursday PLO", "levels": [
        {**level, "small_blind": 100, "big_blind": 200},
        {**level, "small_blind": 200, "big_blind": 400},
        {"kind": "break", "duration_seconds": 600, "note": "Colour up"},
        {**level, "small_blind": 300, "big_blind": 600, "ante": 600},
    ]}, expect=201)["id"]
    call("POST", f"/api/tournaments/{tid}/money/settings", {
        "buy_in": "100", "fee": "10", "starting_stack": 10000, "late_registration_level": 3,
        "rebuy": True, "rebuy_price": "100", "rebuy_chips": 10000, "rebuy_until": 2})
    call("POST", f"/api/tournaments/{tid}/seating/settings", {"table_size": 9})
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu",
             "Max", "Ned", "Oda", "Pia"]
    players = {}
    for i, name in enumerate(names):
        sale = call("POST", f"/api/tournaments/{tid}/money/entries",
                    {"kind": "buy-in", "name": name, "request_key": f"buy-{i}"}, expect=201)
        players[name] = sale["player_id"]
    call("POST", f"/api/tournaments/{tid}/seating/draw")
    call("POST", f"/api/tournaments/{tid}/house-rules",
         {"bba_order": "ante-first", "odd_chip_multi": "all-to-first"})
    call("POST", f"/api/tournaments/{tid}/clock/start")
    call("POST", f"/api/tournaments/{tid}/clock/next")        # level 2, running
    call("POST", f"/api/tournaments/{tid}/money/entries",
         {"kind": "rebuy", "player_id": players["Pia"], "stack": 0, "request_key": "rebuy-1"},
         expect=201)
    call("POST", f"/api/tournaments/{tid}/seating/eliminate", {"player_id": players["Oda"]})

    table = call("GET", f"/api/tournaments/{tid}/dealer/pairing")["tables"][0]
    paired = client.post("/api/dealer/pair", json={"code": table["code"]})
    assert paired.status_code == 201, paired.get_json()
    url = f"/api/tables/{table['table_id']}"
    for number in range(3):
        hand = call("POST", f"{url}/hands", {"absent_seats": []}, expect=201)
        actions = 0
        while not hand["finished"] and (number < 2 or actions < 3):
            if hand["to_act"] is None:
                break
            action = "fold" if number == 0 else ("call" if hand["legal"]["call"] else "check")
            hand = call("POST", f"{url}/hand/actions", {
                "seat": hand["to_act"], "action": action, "version": hand["version"],
                "idempotency_key": f"h{number}-{actions}"})
            actions += 1
        while number == 1 and not hand["finished"]:
            if hand["awaiting"] == "board":
                hand = call("POST", f"{url}/hand/board", {"cards": None, "version": hand["version"]})
            elif hand["to_act"] is not None:
                hand = call("POST", f"{url}/hand/actions", {
                    "seat": hand["to_act"], "action": "check" if hand["legal"]["check"] else "call",
                    "version": hand["version"]})
            else:
                break
        if number == 1 and not hand["finished"]:      # the showdown: the first seat wins
            first = hand["seats"][0]["seat"]
            hand = call("POST", f"{url}/hand/award", {"version": hand["version"],
                                                      "high": [[first]]})
    undo = call("POST", f"{url}/hand/undo", {"version": hand["version"], "idempotency_key": "undo-1"})
    assert not undo["finished"]
    events(app).close()
    writer(app).close()
    with app.app_context():
        db.engine.dispose()
    with sqlite3.connect(database) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        dump = "\n".join(connection.iterdump())
    out.write_text(dump + "\n", encoding="utf-8")


if __name__ == "__main__":
    build(Path(sys.argv[1]))
