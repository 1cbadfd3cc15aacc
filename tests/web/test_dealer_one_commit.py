"""A dealer's tap and its log line are one commit (issue 28).

Every accepted write request has a line in the log, written before the answer.
A tablet's tap was committed twice: the hand's write (grouped with the other
tablets' writes), then its log line (another group).  The line now goes into the
write's own transaction: the tablet waits for one commit, and a tap is never in
the hand without its line nor its line in the log without the tap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director.db import GroupCommit
from director.services import audit


@pytest.fixture
def hand(client: FlaskClient, auth: dict[str, str],
         make_tournament: Callable[..., int]) -> tuple[str, dict[str, Any]]:
    tid = make_tournament(name="One commit")
    assert client.post(f"/api/tournaments/{tid}/money/settings", headers=auth,
                       json={"buy_in": "100", "starting_stack": 10_000}).status_code == 200
    for name in ("Ann", "Bo", "Cy", "Di"):
        assert client.post(f"/api/tournaments/{tid}/seating/players", headers=auth,
                           json={"name": name, "chips": 10_000}).status_code == 201
    assert client.post(f"/api/tournaments/{tid}/seating/draw", headers=auth).status_code == 200
    table = client.get(f"/api/tournaments/{tid}/dealer/pairing",
                       headers=auth).get_json()["tables"][0]["table_id"]
    url = f"/api/tables/{table}"
    dealt = client.post(f"{url}/hands", headers=auth, json={"absent_seats": []})
    assert dealt.status_code in (200, 201), dealt.get_json()
    return url, dealt.get_json()


def _taps(app: Flask) -> list[Any]:
    with app.app_context():
        return [line for line in audit.recent(limit=500)
                if line.action == "POST dealer_api.action"]


def test_a_tap_is_committed_once_with_its_log_line(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        hand: tuple[str, dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    url, state = hand
    commits: list[int] = []
    real = GroupCommit.submit

    def counted(self: GroupCommit, work: Any) -> Any:
        commits.append(1)
        return real(self, work)

    monkeypatch.setattr(GroupCommit, "submit", counted)
    before = len(_taps(app))
    for _ in range(2):                        # two folds, each its own tap
        answer = client.post(f"{url}/hand/actions", headers=auth, json={
            "seat": state["to_act"], "action": "fold", "version": state["version"]})
        assert answer.status_code == 200, answer.get_json()
        state = answer.get_json()
    assert len(commits) == 2
    taps = _taps(app)
    assert len(taps) == before + 2
    assert {line.status for line in taps[:2]} == {200}
    assert {line.details.get("action") for line in taps[:2]} == {"fold"}


def test_a_refused_tap_writes_no_line_and_a_retry_is_logged_as_one(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        hand: tuple[str, dict[str, Any]]) -> None:
    url, state = hand
    before = len(_taps(app))
    stale = client.post(f"{url}/hand/actions", headers=auth, json={
        "seat": state["to_act"], "action": "fold", "version": state["version"] - 1})
    assert stale.status_code == 409
    assert len(_taps(app)) == before
    body = {"seat": state["to_act"], "action": "fold", "version": state["version"],
            "idempotency_key": "tap-1"}
    first = client.post(f"{url}/hand/actions", headers=auth, json=body)
    again = client.post(f"{url}/hand/actions", headers=auth, json=body)
    assert first.status_code == again.status_code == 200
    assert first.get_json() == again.get_json()
    assert len(_taps(app)) == before + 2      # the tap, and the retry answered as before
