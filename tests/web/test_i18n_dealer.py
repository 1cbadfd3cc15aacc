"""The dealer's screens in Swedish and Indonesian (issues 5 and 8).

A dealer in Stockholm or Jakarta pairs the tablet, picks the language in the
tablet's own switch, and reads no English: the page, the strings the
tablet's JavaScript composes (seat statuses, pots, the rulings panel, the log)
and the card picker's letters (sv E K D Kn, id As K Q J).  What the dealer
sees in a real browser: tests/browser/test_i18n_dealer_browser.py.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director import i18n
from tests.conftest import level
from tests.web.test_dealer_helpers import o8_showdown, play, seat_table
from tests.web.test_i18n_pages import english_left, visible_text

NAMES = ["Anna Berg", "Budi Santoso", "Karin Sjöberg", "Dewi Lestari"]
# Words of the tablet that must not be left in English on a Swedish or Indonesian tablet.
TABLET_ENGLISH = ["Table", "Seat", "Seats", "Deal", "Undo", "Rulings", "Call the clock", "Board",
                  "Connected", "to act", "Cancel", "folded", "Flop dealt", "Enter the cards"]
# Swedish has its own words for these; Indonesian dealers say them in English.
TABLET_ENGLISH_SV = [*TABLET_ENGLISH, "Log", "Dealer", "Min raise"]
# Indonesian floor words that are English loanwords (director/translations/glossary-id.md).
LOANWORDS_ID = {"OK", "Pot", "Fold", "fold", "call", "bet", "raise", "check", "all-in",
                "Main pot", "misdeal", "Misdeal", "Undercall", "Muck", "High", "Low", "Dealer",
                "dealer", "Flop dealt", "flop", "turn", "river", "Side pot %(n)s",
                "SB", "BB", "D"}
LOANWORDS_SV = {"OK", "flop", "turn", "river"}
RANKS = {"sv": {"A": "E", "K": "K", "Q": "D", "J": "Kn"},
         "id": {"A": "As", "K": "K", "Q": "Q", "J": "J"}}


def paired_tablet(app: Flask, table: dict[str, Any], language: str) -> FlaskClient:
    """A tablet paired with the table's code that then picks ``language`` in its switch."""
    tablet = app.test_client()
    assert tablet.post("/dealer/pair", data={"table": table["number"],
                                             "code": table["code"]}).status_code == 302
    page = tablet.get(f"/dealer/table/{table['id']}").get_data(as_text=True)
    switch = re.search(rf'href="([^"]*/language/{language}[^"]*)"', page)
    assert switch, "the tablet has its own language switch"
    back = tablet.get(switch.group(1).replace("&amp;", "&"))
    assert back.status_code == 302 and back.headers["Location"].endswith(f"/dealer/table/{table['id']}")
    return tablet


def json_block(html: str, element_id: str) -> dict[str, Any]:
    found = re.search(rf'<script[^>]*id="{element_id}"[^>]*>(.*?)</script>', html, re.S)
    assert found, element_id
    return dict(json.loads(found.group(1)))


@pytest.fixture
def table(client: FlaskClient, make_tournament: Callable[..., int],
          auth: dict[str, str]) -> dict[str, Any]:
    return seat_table(client, make_tournament, auth, NAMES,
                      levels=[level(100, 200), level(200, 400)])


@pytest.mark.parametrize("language", ["sv", "id"])
def test_the_tablet_page_and_its_scripts_strings_are_translated(
        app: Flask, table: dict[str, Any], language: str) -> None:
    tablet = paired_tablet(app, table, language)
    english = app.test_client()
    assert english.post("/dealer/pair", data={"table": table["number"],
                                              "code": table["code"]}).status_code == 302
    html = tablet.get(f"/dealer/table/{table['id']}").get_data(as_text=True)
    assert f'<html lang="{language}"' in html
    text = visible_text(html, language)
    assert english_left(text, TABLET_ENGLISH_SV if language == "sv" else TABLET_ENGLISH) == [], text
    # Every sentence the tablet's JavaScript composes is in the language (loanwords aside).
    local = json_block(html, "dealer-i18n")
    source = json_block(english.get(f"/dealer/table/{table['id']}").get_data(as_text=True),
                        "dealer-i18n")
    assert local.keys() == source.keys()
    allowed = LOANWORDS_ID if language == "id" else LOANWORDS_SV
    same = sorted(k for k in local if local[k] == source[k] and source[k] not in allowed)
    assert same == [], same
    assert "%(card)s" in local["dealt_card"] and "%(n)s" in local["side_pot"]
    # The seat badges (glossaries): sv lilla/stora mörken and knappen, id keeps SB/BB/D.
    assert [local["badge_small_blind"], local["badge_big_blind"], local["badge_button"]] == \
        (["LM", "SM", "K"] if language == "sv" else ["SB", "BB", "D"])
    # The card letters, the numbers' locale and the game names for live.js.
    page = json_block(html, "i18n")
    assert page["locale"] == language
    assert {rank: page["ranks"][rank] for rank in "AKQJ"} == RANKS[language]
    assert page["games"]["PO"] not in ("", "PO", "pot-limit Omaha")
    assert "live.js" in html and html.index("live.js") < html.index("dealer.js")


def test_the_hand_a_swedish_tablet_reads_has_swedish_buttons_and_numbers(
        app: Flask, table: dict[str, Any]) -> None:
    tablet = paired_tablet(app, table, "sv")
    csrf = re.search(r'data-csrf="([^"]+)"', tablet.get(f"/dealer/table/{table['id']}")
                     .get_data(as_text=True))
    assert csrf
    headers = {"X-CSRF-Token": csrf.group(1)}
    started = tablet.post(f"/api/tables/{table['id']}/hands", json={}, headers=headers)
    assert started.status_code == 201, started.get_json()
    hand = started.get_json()
    labels = [b["label"] for b in hand["buttons"]]
    assert labels[0] == "Syna 200" and labels[-1] == "Lägg dig"
    assert any(label.startswith("Minsta höjning till 400") for label in labels), labels
    assert english_left(" ".join(labels) + " " + hand["prompt"],
                        ["Fold", "Call", "Min raise", "raise to", "All-in", "Seat", "to act"]) == []
    preview = tablet.post(f"/api/tables/{table['id']}/hand/rulings", headers=headers,
                          json={"ruling": "misdeal"})
    assert preview.status_code == 200, preview.get_json()
    assert preview.get_json()["ruling"]["rule"].startswith("TDA")


@pytest.mark.parametrize("language", ["sv", "id"])
def test_the_rulings_panel_explains_the_ruling_in_the_language(
        app: Flask, table: dict[str, Any], language: str) -> None:
    tablet = paired_tablet(app, table, language)
    csrf = re.search(r'data-csrf="([^"]+)"', tablet.get(f"/dealer/table/{table['id']}")
                     .get_data(as_text=True))
    assert csrf
    headers = {"X-CSRF-Token": csrf.group(1)}
    assert tablet.post(f"/api/tables/{table['id']}/hands", json={}, headers=headers).status_code == 201
    texts = []
    for body in ({"ruling": "misdeal"}, {"ruling": "boxed_cards", "count": 1},
                 {"ruling": "premature_card", "street": "flop"}, {"ruling": "fouled_deck"}):
        preview = tablet.post(f"/api/tables/{table['id']}/hand/rulings", headers=headers, json=body)
        assert preview.status_code == 200, preview.get_json()
        texts.append(preview.get_json()["ruling"]["text"])
    assert english_left(" ".join(texts), ["the hand", "is void", "the deck", "card", "dealt",
                                          "too soon", "with the same button"]) == [], texts


def test_the_directors_hands_page_names_game_and_state_in_swedish(
        app: Flask, client: FlaskClient, table: dict[str, Any], auth: dict[str, str],
        login: Callable[[], None]) -> None:
    url = f"/api/tables/{table['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    play(client, url, auth, hand, ["fold", "fold", "fold"])
    login()
    client.get("/language/sv")
    html = client.get(f"/director/{table['tournament_id']}/dealers/{table['id']}/hands")
    text = visible_text(html.get_data(as_text=True), "sv")
    assert "Hand 1 · Pot limit-Omaha · avslutad" in text, text
    assert english_left(text, ["finished", "pot-limit Omaha", "Hands at table", "Correct this hand",
                               "Download PHH"]) == []


def test_rulings_built_from_parts_name_actions_in_the_language(
        app: Flask, table: dict[str, Any]) -> None:
    """A ruling sentence made of a main clause and tails (director.i18n.RULING_TAILS) and one
    that names the player's action read in Swedish throughout.

    The out-of-turn raise is ruled before the skipped players act, so the action backs
    up to the player to act (TDA 53); the ruling that it stands, asked when the action
    reaches him, is tests/web/test_dealer_rulings_fixes.py::test_OOT_1_..."""
    tablet = paired_tablet(app, table, "sv")
    csrf = re.search(r'data-csrf="([^"]+)"', tablet.get(f"/dealer/table/{table['id']}")
                     .get_data(as_text=True))
    assert csrf
    headers = {"X-CSRF-Token": csrf.group(1)}
    hand = tablet.post(f"/api/tables/{table['id']}/hands", json={}, headers=headers).get_json()
    blind = hand["positions"]["big_blind"]
    absent = tablet.post(f"/api/tables/{table['id']}/hand/rulings", headers=headers,
                         json={"ruling": "absent_player", "seat": blind})
    assert absent.status_code == 200, absent.get_json()
    text = absent.get_json()["ruling"]["text"]
    name = next(s["name"] for s in hand["seats"] if s["seat"] == blind)
    assert text.startswith(f"Plats {blind} ({name})") and "hans hand är död" in text, text
    assert "Hans mörkar och anten (200) ligger kvar i potten" in text, text
    to_act = hand["to_act"]
    later = [s["seat"] for s in hand["seats"] if s["seat"] != to_act and s["seat"] != blind]
    oot = tablet.post(f"/api/tables/{table['id']}/hand/rulings", headers=headers,
                      json={"ruling": "action_out_of_turn", "seat": later[-1], "action": "raise",
                            "amount": 800})
    assert oot.status_code == 200, oot.get_json()
    ruling = oot.get_json()["ruling"]
    text = ruling["text"]
    assert ruling["decision"] == "backs_up", ruling
    names = {s["seat"]: s["name"] for s in hand["seats"]}
    first, raiser = f"{to_act} ({names[to_act]})", f"{later[-1]} ({names[later[-1]]})"
    assert text.startswith(f"Handlingen går tillbaka till plats {first}. Plats {raiser}:s höjning "
                           "till 800 i fel tur står bara om handlingen fram till honom inte "
                           "ändras"), text
    assert "om någon satsar eller höjer går hans marker tillbaka och han har alla sina val" in text
    assert text.endswith(f"Döm när handlingen når plats {raiser}"), text
    assert english_left(text, ["raise", "out of turn", "stands", "seat", "The action", "backs up",
                               "options", "Rule it"]) == []


def test_a_ruling_names_its_card_with_the_local_letters(app: Flask) -> None:
    from director.poker import rulings as R  # noqa: PLC0415
    from director.poker.cards import parse_card  # noqa: PLC0415
    from director.services.dealer_rulings import _shown_params  # noqa: PLC0415

    ruling = R.fouled_deck(parse_card("Jh"))
    with app.test_request_context("/", headers={"Accept-Language": "sv"}):
        from director.i18n import translate_template  # noqa: PLC0415
        assert translate_template(ruling.template, _shown_params(ruling.params)) == \
            "Kn♥ finns två gånger: leken är felaktig. Given är ogiltig och alla insatser går tillbaka"
    with app.test_request_context("/", headers={"Accept-Language": "id"}):
        assert translate_template(ruling.template, _shown_params(
            R.fouled_deck(parse_card("As")).params)).startswith("As♠ muncul dua kali")


def test_the_language_picked_before_pairing_stays_after_it(
        app: Flask, table: dict[str, Any]) -> None:
    tablet = app.test_client()
    assert tablet.get("/language/sv").status_code == 302
    assert tablet.post("/dealer/pair", data={"table": table["number"],
                                             "code": table["code"]}).status_code == 302
    html = tablet.get(f"/dealer/table/{table['id']}").get_data(as_text=True)
    assert '<html lang="sv"' in html


def test_a_swedish_hand_log_writes_the_board_with_swedish_letters(
        app: Flask, table: dict[str, Any]) -> None:
    tablet = paired_tablet(app, table, "sv")
    csrf = re.search(r'data-csrf="([^"]+)"', tablet.get(f"/dealer/table/{table['id']}")
                     .get_data(as_text=True))
    assert csrf
    headers = {"X-CSRF-Token": csrf.group(1)}
    url = f"/api/tables/{table['id']}"
    hand = tablet.post(f"{url}/hands", json={}, headers=headers).get_json()
    hand = play(tablet, url, headers, hand, ["call", "call", "call", "check"])
    dealt = tablet.post(f"{url}/hand/board", headers=headers,
                        json={"cards": ["Jh", "Qs", "As"], "version": hand["version"]})
    assert dealt.status_code == 200, dealt.get_json()
    log = [line["text"] for line in dealt.get_json()["log"]]
    assert any("Kn♥ D♠ E♠" in line for line in log), log


O8_AWARD = {
    "sv": ("Huvudpott (1\u00a0209): hög: till plats {high} (", "triss i kungar, 605",
           "låg: delas av platserna {a} (", "8-4-3-2-E, 302 var", "udda mark (1) till plats {high} ("),
    "id": ("Pot utama (1.209): high: untuk kursi {high} (", "three of a kind King, 605",
           "low: dibagi kursi {a} (", "8-4-3-2-As, masing-masing 302",
           "chip sisa (1) untuk kursi {high} ("),
}


@pytest.mark.parametrize("language", ["sv", "id"])
def test_an_o8_showdown_award_is_read_in_the_tablets_language(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int], language: str) -> None:
    t = seat_table(client, make_tournament, auth, NAMES[:3], levels=[level(100, 200, game="PO/8")])
    tablet = paired_tablet(app, t, language)
    csrf = re.search(r'data-csrf="([^"]+)"', tablet.get(f"/dealer/table/{t['id']}")
                     .get_data(as_text=True))
    assert csrf
    headers = {"X-CSRF-Token": csrf.group(1)}
    url = f"/api/tables/{t['id']}"
    hand = tablet.post(f"{url}/hands", json={}, headers=headers).get_json()
    hand, (high, low_a, low_b) = o8_showdown(tablet, url, headers, hand, flop_bet=203)
    text = hand["award_text"][0]
    opening, full_house, split, low, odd = O8_AWARD[language]
    assert text.startswith(opening.format(high=high)), text
    assert full_house in text and low in text, text
    assert any(split.format(a=seat) in text for seat in (low_a, low_b)), text
    assert odd.format(high=high) in text, text
    labels = {(a["half"], a["seat"]): a["hand_label"] for a in hand["awards"]}
    assert labels[("high", high)] == full_house.removesuffix(", 605")
    assert labels[("low", low_a)] == ("8-4-3-2-E låg" if language == "sv" else "low 8-4-3-2-As")
    assert english_left(text, ["Main pot", "high to", "split seats", "full of", "each", "odd chip"]
                        if language == "sv" else ["full of", "split seats", "each", "odd chip",
                                                  "to seat"]) == [], text


@pytest.mark.parametrize(("english", "sv", "id_"), [
    ("kings full of sevens", "kåk, kungar över sjuor", "full house, King dan tujuh"),
    ("three nines", "triss i nior", "three of a kind sembilan"),
    ("two pair, kings and sevens", "två par, kungar och sjuor", "two pair, King dan tujuh"),
    ("ace-high flush", "färg, ess högst", "flush, As tertinggi"),
    ("ten-high straight", "stege, tia högst", "straight, sepuluh tertinggi"),
    ("pair of aces", "par i ess", "one pair As"),
    ("four queens", "fyrtal i damer", "four of a kind Queen"),
    ("straight flush, nine high", "färgstege, nia högst", "straight flush, sembilan tertinggi"),
    ("K-Q-J-T-5 high", "K-D-Kn-T-5 högst", "high card K-Q-J-T-5"),
    ("8-5-3-2-A low", "8-5-3-2-E låg", "low 8-5-3-2-As"),
    ("no low", "ingen låg", "tidak ada low"),
])
def test_hand_names_are_said_in_the_language(app: Flask, english: str, sv: str, id_: str) -> None:
    from flask_babel import force_locale

    with app.test_request_context():
        assert i18n.hand_name(english) == english
        with force_locale("sv"):
            assert i18n.hand_name(english) == sv
        with force_locale("id"):
            assert i18n.hand_name(english) == id_
