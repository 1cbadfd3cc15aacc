"""Issue 15: the screens' banners come from the server, each at its moment — hand-for-hand,
the bubble, in the money, the final table, the colour-up at a break and the finished
event with its results — told through the API as the director plays an event out."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import break_, level, statements_sent

SETTINGS: dict[str, Any] = {"currency": "EUR", "buy_in": "100", "fee": "10",
                            "starting_stack": 20_000, "late_registration_level": 1,
                            "rebuy": True, "rebuy_price": "100", "rebuy_chips": 20_000,
                            "rebuy_until": 2, "payout_template": "custom",
                            "custom_payouts": "50, 30, 20"}


@pytest.fixture
def event(client, auth, make_tournament):
    tid = make_tournament(levels=[level(25, 50), level(50, 100),
                                  break_(600, "Colour-up: remove the T25 chips"),
                                  level(100, 200), break_(600, "Dinner"), level(200, 400)])

    class Event:
        id = tid

        def post(self, path: str, **body: Any) -> Any:
            response = client.post(f"/api/tournaments/{tid}/{path}", json=body, headers=auth)
            assert response.status_code in (200, 201), (path, response.get_json())
            return response.get_json()

        def clock(self) -> dict[str, Any]:
            return dict(client.get(f"/api/tournaments/{tid}/clock").get_json())

        def kinds(self) -> list[str]:
            return [banner["kind"] for banner in self.clock()["banners"]]

        def seated(self) -> dict[int, list[int]]:
            tables = client.get(f"/api/tournaments/{tid}/seating").get_json()["tables"]
            return {t["number"]: [s["player_id"] for s in t["seats"]] for t in tables}

        def bust(self, player_id: int) -> None:
            """Eliminate one player and confirm the balancing or table-breaking plan."""
            plan = self.post("seating/eliminate", player_ids=[player_id]).get("pending_plan")
            if plan:
                self.post(f"seating/plans/{plan['id']}/confirm")

    event = Event()
    event.post("money/settings", **SETTINGS)
    event.post("seating/settings", table_size=6)
    for i in range(1, 9):
        event.post("seating/players", name=f"Player {i:02d}")
    event.post("seating/draw")
    return event


def test_no_banner_while_the_field_is_far_from_the_money(event):
    state = event.clock()
    assert state["banners"] == []
    assert state["places_paid"] == 3
    assert state["open"] == {"late_registration": True, "re_entry": None, "rebuy": False,
                             "add_on": None}
    event.post("clock/start")
    assert event.clock()["open"]["rebuy"] is True


def test_hand_for_hand_is_announced_on_every_screen(event):
    event.post("clock/start")
    event.post("seating/hand-for-hand", action="announce")
    assert "hand_for_hand" in event.kinds()
    event.post("seating/hand-for-hand", action="start")
    assert event.kinds()[0] == "hand_for_hand"
    event.post("seating/hand-for-hand", action="stop")
    assert "hand_for_hand" not in event.kinds()


def test_bubble_then_in_the_money_then_final_table_then_the_winner(event):
    event.post("clock/start")
    event.post("clock/next")                       # level 2: late registration is over
    tables = event.seated()
    assert len(tables) == 2
    # 8 -> 5 players: two tables of 6 seats still hold them
    for _ in range(3):
        biggest = max(tables.values(), key=len)
        event.bust(biggest[-1])
        tables = event.seated()
    state = event.clock()
    assert state["players_left"] == 5
    # 5 players fit one table: the break-table plan was confirmed -> final table
    assert len(tables) == 1
    assert event.kinds() == ["final_table"]
    event.bust(next(iter(tables.values()))[-1])                   # 4 left, 3 paid: the bubble
    assert event.clock()["banners"][0] == {"kind": "bubble", "places_paid": 3}
    event.bust(next(iter(event.seated().values()))[-1])           # 3 left: in the money
    assert event.kinds() == ["in_the_money", "final_table"]
    event.bust(next(iter(event.seated().values()))[-1])           # 2 left
    assert event.kinds() == ["in_the_money", "final_table"]
    left = next(iter(event.seated().values()))
    event.bust(left[-1])                                          # the winner is known
    state = event.clock()
    assert state["status"] == "finished"
    assert [b["kind"] for b in state["banners"]] == ["finished"]
    results = state["results"]
    assert [r["place"] for r in results] == [str(p) for p in range(1, 9)]
    assert results[0]["name"] == state["winner"]["name"]
    # 8 x 100 = 800 in the pool: 50 %, 30 %, 20 %; nothing for fourth
    assert [r["prize"] for r in results[:4]] == [400, 240, 160, None]


def test_colour_up_is_shown_at_the_break_that_has_one(event):
    event.post("clock/start")
    event.post("clock/next")
    assert "colour_up" not in event.kinds()
    event.post("clock/next")                       # the break with the colour-up note
    state = event.clock()
    assert state["level"]["is_break"]
    assert {"kind": "colour_up", "note": "Colour-up: remove the T25 chips"} in state["banners"]
    event.post("clock/next")
    event.post("clock/next")                       # the dinner break: no colour-up
    assert event.clock()["level"]["is_break"] and "colour_up" not in event.kinds()


def test_the_projector_page_carries_the_banner_words(event, client):
    page = client.get(f"/clock/{event.id}").get_data(as_text=True)
    for key in ("banner_hand_for_hand", "banner_bubble", "banner_in_the_money",
                "banner_final_table", "banner_colour_up", "winner"):
        assert f'"{key}"' in page


def test_the_bubble_of_a_table_paying_more_places_than_the_ticker_lists_is_read_from_one_money_view(
        client, auth, make_tournament, app):
    """40 places paid, the ticker lists 30: the bubble is at 41 players left, counted
    from the same money view as the ticker (one ledger total per clock state)."""
    from director.services import read_model

    tid = make_tournament(levels=[level(25, 50)])
    shares = ", ".join(["2.5"] * 40)
    settings = {**SETTINGS, "custom_payouts": shares, "rebuy": False}
    assert client.post(f"/api/tournaments/{tid}/money/settings", json=settings,
                       headers=auth).status_code == 200
    for i in range(41):
        answer = client.post(f"/api/tournaments/{tid}/seating/players",
                             json={"name": f"Player {i:02d}"}, headers=auth)
        assert answer.status_code == 201, answer.get_json()
    with app.app_context():
        read_model.forget(tid)                      # read now, not the state kept
    with statements_sent(app, lambda statement, _parameters: statement) as seen:
        state = client.get(f"/api/tournaments/{tid}/clock").get_json()
    assert len(state["payouts"]) == 30 and state["places_paid"] == 40
    assert state["banners"] == [{"kind": "bubble", "places_paid": 40}]
    totals = [s for s in seen if "sum(payment.prize)" in s.lower()]
    assert len(totals) == 1, totals
