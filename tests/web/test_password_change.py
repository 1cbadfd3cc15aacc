"""Changing the director password asks for the current one; a wrong one is refused with a
sentence and changes nothing (the director token stands in for a forgotten password)."""

from __future__ import annotations

from director import security
from tests.conftest import TOKEN


def change(client, csrf, current: str | None, new: str):
    data = {"csrf_token": csrf(), "password": new, "confirm": new}
    if current is not None:
        data["current"] = current
    return client.post("/director/password", data=data)


def test_changing_the_password_needs_the_current_one(app, client, login, csrf):
    login()
    assert change(client, csrf, None, "first-pin-1").status_code == 302   # the first: no current
    page = client.get("/director/password").get_data(as_text=True)
    assert 'name="current"' in page and "Change the director password" in page
    missing = change(client, csrf, None, "second-pin-2")
    wrong = change(client, csrf, "not-it", "second-pin-2")
    for refused in (missing, wrong):
        assert refused.status_code == 400
        assert "That is not the current password: the password is not changed" in \
            refused.get_data(as_text=True)
    with app.app_context():
        assert security.password_matches("first-pin-1") and not security.password_matches(
            "second-pin-2")
    assert change(client, csrf, "first-pin-1", "second-pin-2").status_code == 302
    assert change(client, csrf, TOKEN, "third-pin-3").status_code == 302   # forgotten: the token
    with app.app_context():
        assert security.password_matches("third-pin-3")
