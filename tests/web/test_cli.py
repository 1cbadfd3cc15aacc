"""The command line: init-db (with the demo event once), token, replay delegation, config."""

from __future__ import annotations

from click.testing import CliRunner

from director import cli, create_app, replay
from director.config import database_url
from director.db import db
from director.models import Tournament


def test_init_db_creates_the_demo_event_only_the_first_time(app, runner):
    result = runner.invoke(args=["init-db", "--demo-if-empty"])
    assert "demo tournament" in result.output
    result = runner.invoke(args=["init-db", "--demo-if-empty"])
    assert "demo" not in result.output
    with app.app_context():
        tournaments = db.session.scalars(db.select(Tournament)).all()
        assert len(tournaments) == 1
        demo = tournaments[0].structure
        assert all(lvl.game is None or lvl.game.value == "PO" for lvl in demo.levels)
        assert len(demo.playing_levels()) >= 10 and any(lvl.is_break for lvl in demo.levels)


def test_token_prints_the_configured_token(runner):
    assert runner.invoke(args=["token"]).output.strip() == "test-director-token"


def test_a_token_and_secret_are_generated_into_the_instance_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("DIRECTOR_TOKEN", raising=False)
    monkeypatch.delenv("DIRECTOR_SECRET_KEY", raising=False)
    config = {"INSTANCE_PATH": str(tmp_path / "inst"),
              "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite'}"}
    first = create_app(config)
    second = create_app(config)
    token = (tmp_path / "inst" / "director_token").read_text().strip()
    assert first.config["TOKEN"] == second.config["TOKEN"] == token and len(token) >= 24
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    assert (tmp_path / "inst" / "director_token").stat().st_mode & 0o077 == 0


def test_environment_variables_configure_the_app(tmp_path, monkeypatch):
    monkeypatch.setenv("DIRECTOR_TOKEN", "from-env")
    monkeypatch.setenv("DIRECTOR_DATABASE_URL", f"sqlite:///{tmp_path / 'env.sqlite'}")
    monkeypatch.setenv("DIRECTOR_SCHEDULER", "OFF")
    app = create_app({"INSTANCE_PATH": str(tmp_path / "inst")})
    assert app.config["TOKEN"] == "from-env"
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("env.sqlite")
    assert app.config["SCHEDULER"] == "off"


def test_postgres_urls_use_psycopg3():
    assert database_url("postgresql://u@db/d") == "postgresql+psycopg://u@db/d"


def test_sqlite_runs_in_wal_mode_with_foreign_keys(app):
    with app.app_context():
        assert db.session.execute(db.text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.session.execute(db.text("PRAGMA foreign_keys")).scalar() == 1
        assert db.session.execute(db.text("PRAGMA busy_timeout")).scalar() >= 5000


def test_replay_delegates_and_exits_with_its_code(monkeypatch, tmp_path):
    calls = []

    def fake_replay(files, as_json, trace, out, err):
        calls.append((files, as_json, trace))
        out.write("replayed\n")
        return 3

    monkeypatch.setattr(replay, "replay_command", fake_replay)
    hand = tmp_path / "a.phh"
    hand.write_text("")
    result = CliRunner().invoke(cli.main, ["replay", "--json", str(hand)])
    assert result.exit_code == 3
    assert calls == [([str(hand)], True, False)]
    assert "replayed" in result.output
