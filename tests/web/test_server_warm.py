"""Before serving, a process loads what its first requests would otherwise load while the
room waits (``asgi.warm``): each language's CLDR data, and the clock state and the room
(with its digest) of the events in play."""

from __future__ import annotations

import random

from babel import localedata

from director import asgi
from director.i18n import LANGUAGES
from director.services import app_key, read_model, seating
from director.services.seating import layout, proposals


def test_warm_loads_each_language_and_reads_the_events_in_play_only(
        app, client, auth, make_tournament, monkeypatch):
    playing, registering, finished = (make_tournament(name=n) for n in ("A", "B", "C"))
    client.post(f"/api/tournaments/{playing}/clock/start", headers=auth)
    assert client.post(f"/api/tournaments/{finished}/cancel", headers=auth).status_code == 200
    with app.app_context():
        for name in ("Ann", "Bo", "Cy"):
            seating.register_player(playing, name, 10_000)
        seating.draw(playing, random.Random(3))
    read_model.forget()
    monkeypatch.setattr(layout, "_rooms", layout.Kept(8))           # as a fresh process
    monkeypatch.setattr(proposals, "_digests", layout.Kept(16))
    # As a fresh process finds Babel: no locale's data read yet (a newer Babel
    # also keeps a wrapper over each locale's data, apart).
    monkeypatch.setattr(localedata, "_cache", {})
    monkeypatch.setattr(localedata, "_dict_cache", {}, raising=False)
    asgi.warm(app)
    assert set(LANGUAGES) <= set(localedata._cache)
    with app.app_context():
        key = app_key()
    kept = {tid for (owner, tid) in read_model._kept if owner == key}
    assert kept == {playing, registering}
    # the room of each, read once with its digest: the first seating request reads it
    # again from equal rows and gets the same object, its digest worked out
    room = layout._rooms.get(playing)
    assert room is not None and layout._rooms.get(finished) is None
    assert sorted(p.name for t in room[1].layout.tables for p in t.seats.values()) == \
        ["Ann", "Bo", "Cy"]
    assert proposals._digests.get(id(room[1].layout)) is not None
    with app.app_context():
        assert layout.load_stored(playing) is room[1]


def test_warm_never_stops_the_server(app, monkeypatch, capsys):
    def broken(*_args, **_kwargs):
        raise RuntimeError("no such table: tournament")

    monkeypatch.setattr(asgi, "load_locale_data", broken)
    asgi.warm(app)                                          # said, not raised
    assert "Warm-up skipped: no such table: tournament" in capsys.readouterr().out
