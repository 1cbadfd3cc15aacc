"""The tablet, round two (issue 31): who is dealt in, a called clock that ran out, killed
hands, fixed limit, a paired tablet coming back, the hand's log, the reminder of TDA 53,
a redeal's number and the shot clock, through the dealer JSON API and pages."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from director.db import db
from director.models.seating import Player, Seat
from tests.conftest import level
from tests.web.test_dealer_helpers import play, seat_table


def _fold_to_the_end(client: FlaskClient, url: str, auth: dict[str, str], hand: dict[str, Any]) -> None:
    while not hand["finished"]:
        hand = play(client, url, auth, hand, ["fold"])


def test_who_is_dealt_in_is_the_same_on_the_next_hand_screen_and_in_the_deal_as_the_button_moves(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    """A new player waits for the button only while he sits between the button and the small
    blind (TDA 32): hand after hand, the seats the tablet shows as waiting are exactly the
    seats the deal leaves out, and the button it shows is the one dealt."""
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"], table_size=9)
    url = f"/api/tables/{t['id']}"
    seated = False
    waited = dealt_after_waiting = 0
    for _ in range(12):
        shown = client.get(f"{url}/next").get_json()
        if not seated:
            button, small = shown["positions"]["button"], shown["positions"]["small_blind"]
            between = [(button + k - 1) % 9 + 1 for k in range(1, (small - button) % 9)]
            if between:       # a newcomer sits down between the coming button and small blind
                with app.app_context():
                    player = Player(tournament_id=t["tournament_id"], name="Newcomer", chips=10_000,
                                    entry_chips=10_000)
                    db.session.add(player)
                    db.session.flush()
                    db.session.add(Seat(tournament_id=t["tournament_id"], table_id=t["id"],
                                        seat=between[0], player_id=player.id, waiting=True))
                    db.session.commit()
                seated = True
                shown = client.get(f"{url}/next").get_json()
        expected = sorted(s["seat"] for s in shown["seats"] if not s["waiting"])
        waited += sum(1 for s in shown["seats"] if s["waiting"])
        r = client.post(f"{url}/hands", json={}, headers=auth)
        assert r.status_code == 201, r.get_json()
        hand = r.get_json()
        assert sorted(s["seat"] for s in hand["seats"]) == expected
        assert {k: hand["positions"][k] for k in shown["positions"]} == shown["positions"]
        dealt_after_waiting += waited > 0 and len(hand["seats"]) == 5
        _fold_to_the_end(client, url, auth, hand)
    assert waited and dealt_after_waiting       # both states were seen as the button went round


def _run_the_clock_out(app: Flask, hand_id: int) -> None:
    """The called clock's end moved a minute into the past (as if the player sat on it)."""
    from director.models.hands import DealerHand
    from director.services import dealer
    with app.app_context():
        row = db.session.get(DealerHand, hand_id)
        assert row is not None and row.clock_call
        call = dict(row.clock_call)
        ends = dealer.utc(call["ends_at"]) - timedelta(seconds=call["seconds"] + 60)
        call["ends_at"] = ends.isoformat().replace("+00:00", "Z")
        row.clock_call = call
        db.session.commit()
        dealer.forget_cached_hands()


def test_TDA_29_an_action_after_the_called_clock_ran_out_is_refused_and_the_ruling_kills_the_hand(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], levels=[level(100, 200)])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    seat = hand["to_act"]
    called = client.post(f"{url}/hand/clock", json={"seat": seat, "version": hand["version"]},
                         headers=auth).get_json()
    _run_the_clock_out(app, called["hand_id"])
    late = client.post(f"{url}/hand/actions", json={"seat": seat, "action": "call",
                                                     "version": called["version"]}, headers=auth)
    assert late.status_code == 422
    assert "ran out before he acted" in late.get_json()["error"] and "TDA 29" in late.get_json()["error"]
    assert client.get(f"{url}/hand").get_json()["version"] == called["version"]      # nothing applied
    ruled = client.post(f"{url}/hand/rulings", json={"ruling": "clock_expired", "confirm": True,
                                                      "version": called["version"]}, headers=auth)
    assert ruled.status_code == 200, ruled.get_json()
    after = ruled.get_json()["hand"]
    assert next(s for s in after["seats"] if s["seat"] == seat)["status"] == "dead"
    assert after["clock_call"] is None and after["to_act"] != seat


def test_TDA_29_a_clock_the_player_beat_does_not_follow_him_to_his_next_turn(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo"], levels=[level(100, 200)])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    seat = hand["to_act"]
    called = client.post(f"{url}/hand/clock", json={"seat": seat, "version": hand["version"]},
                         headers=auth).get_json()
    hand = play(client, url, auth, called, ["call"])            # in time
    _run_the_clock_out(app, hand["hand_id"])
    hand = play(client, url, auth, hand, ["check"])
    hand = client.post(f"{url}/hand/board", json={"cards": None, "version": hand["version"]},
                       headers=auth).get_json()
    assert hand["clock_call"] is None
    if hand["to_act"] != seat:
        hand = play(client, url, auth, hand, ["check"])
    assert hand["to_act"] == seat
    play(client, url, auth, hand, ["check"])                   # his own turn again: accepted


def test_the_hand_says_its_log_is_only_the_last_lines_and_the_whole_log_is_offered(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"], levels=[level(100, 200)])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    assert hand["log_partial"] is False
    hand = play(client, url, auth, hand, ["call", "call", "call", "check"])
    for _ in range(3):
        hand = client.post(f"{url}/hand/board", json={"cards": None, "version": hand["version"]},
                           headers=auth).get_json()
        hand = play(client, url, auth, hand, ["check"] * 4)
    assert hand["log_partial"] is True and len(hand["log"]) == 12
    whole = client.get(f"{url}/hand/log").get_json()
    assert whole["partial"] is False and len(whole["log"]) > 12
    assert whole["log"][:12] == hand["log"]                              # newest first, the same lines
    assert whole["log"][-1]["text"].startswith("Hand 1 dealt")


def test_a_paired_tablet_opening_the_dealer_page_again_gets_its_table_until_it_is_revoked(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"])
    tablet = app.test_client()
    assert tablet.get("/dealer/").status_code == 200                          # not paired: the form
    paired = tablet.post("/dealer/pair", data={"table": str(t["number"]), "code": t["code"]})
    assert paired.status_code == 302
    again = tablet.get("/dealer/")
    assert again.status_code == 302 and again.headers["Location"].endswith(f"/dealer/table/{t['id']}")
    # a QR code with a code (another table's, or this one's again) still shows the form
    assert tablet.get(f"/dealer/?table={t['number']}&code={t['code']}").status_code == 200
    assert client.post(f"/api/tables/{t['id']}/dealer/revoke", headers=auth).status_code == 200
    assert tablet.get("/dealer/").status_code == 200                          # revoked: the form


def test_TDA_35_a_redeal_after_a_misdeal_keeps_its_hand_number_and_the_next_hand_counts_on(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], levels=[level(100, 200)])
    url = f"/api/tables/{t['id']}"
    first = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    assert first["hand_number"] == 1
    misdeal = client.post(f"{url}/hand/rulings", json={"ruling": "misdeal", "confirm": True,
                                                       "version": first["version"]}, headers=auth)
    assert misdeal.status_code == 200 and misdeal.get_json()["hand"]["misdeal"]
    redeal = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    assert redeal["hand_number"] == 1 and redeal["positions"]["button"] == first["positions"]["button"]
    assert redeal["log"][-1]["text"].startswith("Hand 1 dealt") and "redeal" in redeal["log"][-1]["text"]
    _fold_to_the_end(client, url, auth, redeal)
    second = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    assert second["hand_number"] == 2


def test_TDA_53_the_reminder_of_an_action_that_backed_up_is_kept_by_the_hand_for_every_tablet(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"], levels=[level(100, 200)])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    seats = sorted(s["seat"] for s in hand["seats"])
    a = hand["to_act"]
    b = seats[(seats.index(a) + 1) % len(seats)]
    oot = {"ruling": "action_out_of_turn", "seat": b, "action": "raise", "amount": 800, "bet_when_acted": 200}
    r = client.post(f"{url}/hand/rulings", json={**oot, "confirm": True, "version": hand["version"]},
                    headers=auth)
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["ruling"]["decision"] == "backs_up"
    seen = client.get(f"{url}/hand").get_json()          # another tablet reads the hand
    assert seen["oot_reminder"] == {"seat": b, "action": "raise", "amount": 800, "bet_when_acted": 200}
    assert seen["version"] == hand["version"] + 1
    hand = play(client, url, auth, seen, ["call"])        # the action reaches him
    assert hand["to_act"] == b and hand["oot_reminder"]["seat"] == b
    r = client.post(f"{url}/hand/rulings", json={**oot, "confirm": True, "version": hand["version"]},
                    headers=auth)
    assert r.status_code == 200, r.get_json()
    after = r.get_json()["hand"]
    assert after["current_bet"] == 800 and after["oot_reminder"] is None
    assert client.get(f"{url}/hand").get_json()["oot_reminder"] is None


def test_undo_the_street_takes_back_every_action_of_the_betting_round_in_one_write(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"], levels=[level(100, 200)])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    hand = play(client, url, auth, hand, ["call", "call", "call", "check"])
    flop = client.post(f"{url}/hand/board", json={"cards": ["As", "Kd", "7h"], "version": hand["version"]},
                       headers=auth).get_json()
    assert flop["can_undo_street"] is False
    hand = play(client, url, auth, flop, ["check", ("bet", 400), "call"])
    assert hand["can_undo_street"] is True
    r = client.post(f"{url}/hand/undo", json={"street": True, "version": hand["version"]}, headers=auth)
    assert r.status_code == 200, r.get_json()
    back = r.get_json()
    assert back["board"] == ["As", "Kd", "7h"] and back["to_act"] == flop["to_act"]
    assert [s["stack"] for s in back["seats"]] == [s["stack"] for s in flop["seats"]]
    assert back["version"] == hand["version"] + 1                          # one write
    assert back["log"][0]["text"].count(";") == 2                         # the three actions named
    bad = client.post(f"{url}/hand/undo", json={"street": "yes"}, headers=auth)
    assert bad.status_code == 400 and "street" in bad.get_json()["errors"]


def test_TDA_25_a_stack_counted_at_the_table_between_hands_becomes_the_players_chips(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], levels=[level(100, 200)])
    url = f"/api/tables/{t['id']}"
    seat = t["seats"]["Bo"]
    r = client.post(f"{url}/stack", json={"seat": seat, "chips": 12_500}, headers=auth)
    assert r.status_code == 200, r.get_json()
    assert next(s for s in r.get_json()["seats"] if s["seat"] == seat)["chips"] == 12_500
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    assert next(s for s in hand["seats"] if s["seat"] == seat)["stack"] + \
        next(s for s in hand["seats"] if s["seat"] == seat)["bet"] == 12_500
    during = client.post(f"{url}/stack", json={"seat": seat, "chips": 100}, headers=auth)
    assert during.status_code == 422 and "count the stack after it" in during.get_json()["error"]
    assert client.post(f"{url}/stack", json={"seat": seat, "chips": -5}, headers=auth).status_code == 400
    empty = [s for s in range(1, 11) if s not in t["seats"].values()][0]
    _fold_to_the_end(client, url, auth, hand)
    nobody = client.post(f"{url}/stack", json={"seat": empty, "chips": 100}, headers=auth)
    assert nobody.status_code == 400 and "seat" in nobody.get_json()["errors"]


def test_a_button_out_of_position_is_a_misdeal_redealt_with_the_button_the_tablet_shows(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"], levels=[level(100, 200)])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    button = hand["positions"]["button"]
    r = client.post(f"{url}/hand/rulings", json={"ruling": "wrong_button", "confirm": True,
                                                  "version": hand["version"]}, headers=auth)
    assert r.status_code == 200, r.get_json()
    ruling, after = r.get_json()["ruling"], r.get_json()["hand"]
    assert ruling["decision"] == "misdeal" and f"button on seat {button}" in ruling["text"]
    assert after["misdeal"]
    redeal = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    assert redeal["positions"]["button"] == button and redeal["hand_number"] == hand["hand_number"]
    redeal = play(client, url, auth, redeal, ["call", "call", "call", "check"])     # substantial action
    r = client.post(f"{url}/hand/rulings", json={"ruling": "wrong_button"}, headers=auth)
    assert r.status_code == 200 and r.get_json()["ruling"]["decision"] == "play_on"


SWEDISH = ("Plats ", "synar", "lägger sig", "höjer till", " given:", "nivå")
ENGLISH_WORDS = ("Seat ", "calls", "folds", "raises to", " dealt:")


def test_a_hand_played_by_a_tablet_in_swedish_reads_in_indonesian_on_a_tablet_in_indonesian(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    from director.models.hands import HandLogEntry
    from director.services import dealer
    from tests.web.test_dealer_i18n_round_two import _csrf
    from tests.web.test_i18n_dealer import paired_tablet
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"], levels=[level(100, 200)])
    url = f"/api/tables/{t['id']}"
    swedish = paired_tablet(app, t, "sv")
    headers = _csrf(swedish, t["id"])
    hand = swedish.post(f"{url}/hands", json={}, headers=headers).get_json()
    for kind, amount in (("call", None), ("raise", 600), ("fold", None)):
        r = swedish.post(f"{url}/hand/actions", headers=headers, json={
            "seat": hand["to_act"], "action": kind, "amount": amount, "version": hand["version"]})
        assert r.status_code == 200, r.get_json()
        hand = r.get_json()
    written = [line["text"] for line in hand["log"]]
    assert any("Plats" in line for line in written) and any("synar" in line for line in written), written
    with app.app_context():                          # a line written before: plain text, kept as it is
        db.session.add(HandLogEntry(hand_id=hand["hand_id"], who="dealer", text="Gammal rad: Plats 9"))
        db.session.commit()
        dealer.forget_cached_hands()
    indonesian = paired_tablet(app, t, "id")
    for read in (indonesian.get(f"{url}/hand").get_json()["log"],
                 indonesian.get(f"{url}/hand/log").get_json()["log"]):
        lines = [line["text"] for line in read if line["text"] != "Gammal rad: Plats 9"]
        assert len(lines) == 4 and any(line["text"] == "Gammal rad: Plats 9" for line in read), read
        assert all("Kursi" in line or "Tangan" in line for line in lines), lines
        assert any("raise ke" in line for line in lines) and any("dibagikan" in line for line in lines)
        assert not [line for line in lines if any(word in line for word in SWEDISH + ENGLISH_WORDS)], lines
    while not hand["finished"]:                     # folded to the raiser: his chips back, the pot his
        r = swedish.post(f"{url}/hand/actions", headers=headers, json={
            "seat": hand["to_act"], "action": "fold", "version": hand["version"]})
        assert r.status_code == 200, r.get_json()
        hand = r.get_json()
    assert any("Huvudpott" in line["text"] for line in hand["log"])
    assert any("tillbaka till" in line["text"] for line in hand["log"])
    read = [line["text"] for line in indonesian.get(f"{url}/hand/log").get_json()["log"]]
    assert any("Pot utama" in line and "tanpa lawan" in line for line in read), read
    assert any("dikembalikan ke Kursi" in line for line in read), read
    ended = [line for line in read if line != "Gammal rad: Plats 9"]
    assert not [line for line in ended if any(word in line for word in SWEDISH + ENGLISH_WORDS
                                              + ("Huvudpott", "utan motspelare", "Main pot"))], ended


def test_an_undo_written_by_a_tablet_in_swedish_reads_in_indonesian_on_a_tablet_in_indonesian(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    """The undo line names the taps it takes back in the reader's language too (it kept
    the writer's words: "Batalkan: Plats 4 (Ann) synar; Plats 7 (Bo) synar")."""
    from tests.web.test_dealer_i18n_round_two import _csrf
    from tests.web.test_i18n_dealer import paired_tablet
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"], levels=[level(100, 200)])
    url = f"/api/tables/{t['id']}"
    swedish = paired_tablet(app, t, "sv")
    headers = _csrf(swedish, t["id"])
    hand = swedish.post(f"{url}/hands", json={}, headers=headers).get_json()
    for kind in ("call", "call"):
        r = swedish.post(f"{url}/hand/actions", headers=headers, json={
            "seat": hand["to_act"], "action": kind, "version": hand["version"]})
        assert r.status_code == 200, r.get_json()
        hand = r.get_json()
    r = swedish.post(f"{url}/hand/undo", headers=headers, json={"street": True, "version": hand["version"]})
    assert r.status_code == 200, r.get_json()
    assert any(line["text"].startswith("Ångra: Plats") for line in r.get_json()["log"]), r.get_json()["log"]
    indonesian = paired_tablet(app, t, "id")
    undo = [line["text"] for line in indonesian.get(f"{url}/hand/log").get_json()["log"]
            if line["text"].startswith(("Batalkan", "Ångra", "Undo"))]
    assert len(undo) == 1 and undo[0].startswith("Batalkan: Kursi"), undo
    assert undo[0].count("Kursi") == 2 and undo[0].count("; ") == 1, undo   # both calls
    assert not [word for word in SWEDISH + ENGLISH_WORDS if word in undo[0]], undo


def test_the_deal_line_says_the_stakes_in_the_readers_language(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    """A big-blind-ante level dealt on a Swedish tablet: the deal line read on an
    Indonesian one says its stakes in Indonesian ("ante BB"), not "BB-ante"."""
    from tests.web.test_dealer_i18n_round_two import _csrf
    from tests.web.test_i18n_dealer import paired_tablet
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"],
                   levels=[level(100, 200, ante=200, big_blind_ante=True)])
    url = f"/api/tables/{t['id']}"
    swedish = paired_tablet(app, t, "sv")
    hand = swedish.post(f"{url}/hands", json={}, headers=_csrf(swedish, t["id"])).get_json()
    dealt = [line["text"] for line in hand["log"] if "100/200" in line["text"]]
    assert len(dealt) == 1 and "100/200 BB-ante 200" in dealt[0], hand["log"]
    indonesian = paired_tablet(app, t, "id")
    read = [line["text"] for line in indonesian.get(f"{url}/hand/log").get_json()["log"]
            if "100/200" in line["text"]]
    assert len(read) == 1 and "100/200 ante BB 200" in read[0] and "BB-ante" not in read[0], read
