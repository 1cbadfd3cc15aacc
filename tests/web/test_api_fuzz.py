"""Whatever the body, the API answers 201/200 or 400 naming a field: never a 500."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

LEVEL_KEYS = ["kind", "duration_seconds", "game", "small_blind", "big_blind", "ante",
              "big_blind_ante", "small_bet", "big_bet", "bring_in", "note"]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=False), st.text(max_size=12),
    st.sampled_from(["PO", "PO/8", "F7S", "level", "break", "FO/8"]),
)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                           max_leaves=12)
levels = st.lists(st.dictionaries(st.sampled_from(LEVEL_KEYS), scalars, max_size=11), max_size=4)
bodies = st.one_of(
    json_values,
    st.fixed_dictionaries({"name": scalars, "levels": levels}),
    st.fixed_dictionaries({"name": st.text(max_size=120), "levels": json_values}),
)
FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(body=bodies)
def test_create_never_fails_with_a_500(client, auth, body):
    response = client.post("/api/tournaments", data=json.dumps(body), headers=auth,
                           content_type="application/json")
    assert response.status_code in (201, 400), response.get_data(as_text=True)
    if response.status_code == 400:
        assert response.get_json()["errors"]


@FUZZ
@given(raw=st.binary(max_size=64))
def test_raw_bytes_never_fail_with_a_500(client, auth, raw):
    response = client.post("/api/tournaments", data=raw, headers=auth,
                           content_type="application/json")
    assert response.status_code in (201, 400)


@FUZZ
@given(body=st.one_of(json_values, st.fixed_dictionaries({"seconds": scalars})))
def test_adjust_never_fails_with_a_500(client, auth, make_tournament, body):
    tournament_id = make_tournament()
    response = client.post(f"/api/tournaments/{tournament_id}/clock/adjust",
                           data=json.dumps(body), headers=auth, content_type="application/json")
    assert response.status_code in (200, 400), response.get_data(as_text=True)
