"""Before serving, a process loads what its first requests would otherwise load while the
room waits (``asgi.warm``): each language's CLDR data and the clock state of the events
in play."""

from __future__ import annotations

from babel import localedata

from director import asgi
from director.i18n import LANGUAGES
from director.services import app_key, read_model


def test_warm_loads_each_language_and_reads_the_events_in_play_only(
        app, client, auth, make_tournament, monkeypatch):
    playing, registering, finished = (make_tournament(name=n) for n in ("A", "B", "C"))
    client.post(f"/api/tournaments/{playing}/clock/start", headers=auth)
    assert client.post(f"/api/tournaments/{finished}/cancel", headers=auth).status_code == 200
    read_model.forget()
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


def test_warm_never_stops_the_server(app, monkeypatch, capsys):
    def broken(*_args, **_kwargs):
        raise RuntimeError("no such table: tournament")

    monkeypatch.setattr(asgi, "load_locale_data", broken)
    asgi.warm(app)                                          # said, not raised
    assert "Warm-up skipped: no such table: tournament" in capsys.readouterr().out
