"""Languages on the pages: English, Bahasa Indonesia and Svenska (issue 8).

Each main page is rendered in Swedish and Indonesian and its visible text
(plus titles, placeholders and labels) is checked for English words that must
not be left, and for the local words a floor person expects.  Then the order
of the language choice (session, event, browser), the header switch, the
event's language form, locale number formats and translated rule messages.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import break_, level

NBSP = "[\u00a0\u202f ]"  # Babel's Swedish group separator is a (narrow) no-break space


class VisibleText(HTMLParser):
    """The text a person reads or hears: text nodes and title/placeholder/aria-label/alt,
    without scripts, styles and elements marked as another language (the language
    switch names each language in its own language)."""

    ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
            "source", "track", "wbr"}

    def __init__(self, page_lang: str) -> None:
        super().__init__()
        self.page_lang = page_lang
        self.parts: list[str] = []
        self.stack: list[tuple[str, bool]] = []

    def _skipping(self) -> bool:
        return any(skip for _, skip in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        foreign = values.get("lang") not in (None, self.page_lang) and tag != "html"
        skip = tag in ("script", "style") or foreign
        if not skip and not self._skipping():
            self.parts.extend(str(values[a]) for a in self.ATTRIBUTES if values.get(a))
        if tag not in self.VOID:
            self.stack.append((tag, skip))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            open_tag, _ = self.stack.pop()
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self._skipping() and data.strip():
            self.parts.append(data.strip())


def visible_text(html: str, lang: str) -> str:
    parser = VisibleText(lang)
    parser.feed(html)
    return " | ".join(parser.parts)


# English words that must not be left on a Swedish or Indonesian page.  Indonesian
# floor staff use some English terms as loanwords (level, blind, ante, bring-in,
# small/big bet, limit: see director/translations/glossary-id.md); those are allowed.
ENGLISH = ["Tournament", "Tournaments", "Clocks", "Clock", "Next", "Players", "Average",
           "Prize", "Paused", "Start", "Resume", "Save", "Name", "Duration", "Create",
           "running", "stopped", "not started", "Director", "login", "Log out", "Find my seat",
           "Seating", "Remove", "Import", "Export", "Structure", "Note", "Game", "Kind",
           "Blinds", "Break", "breaks", "Now", "Time left", "Open projector", "Manage",
           "Please", "Language", "Click", "sound", "screen", "from scratch", "minutes",
           "Levels", "Add", "Move", "copy", "yes", "Starts", "Created"]
ENGLISH_SV = [*ENGLISH, "Level", "Small blind", "Big blind", "Small bet", "Big bet", "Limits"]


def english_left(text: str, words: list[str]) -> list[str]:
    return [w for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]


@pytest.fixture
def event(make_tournament: Callable[..., int]) -> int:
    return make_tournament(levels=[level(1000, 2000), break_(600), level(1500, 3000, ante=3000)],
                           name="Fredag Omaha")


def choose(client: FlaskClient, code: str) -> None:
    response = client.get(f"/language/{code}")
    assert response.status_code == 302


def pages(event: int) -> list[str]:
    return ["/", f"/clock/{event}", "/director/", "/director/new", f"/director/{event}"]


LOCAL_WORDS = {
    "sv": {
        "/": ["Turneringsklockor", "Klockor", "Hitta min plats", "stoppad"],
        "clock": ["Nivå 1", "Pot limit-Omaha", "Nästa nivå", "Nästa paus om", "Spelare kvar",
                  "Snittstack", "Prispott", "Inte startad", "Klicka för ljud och helskärm"],
        "/director/": ["Turneringar", "Ny turnering", "Hantera", "Nivå 1", "av 2"],
        "/director/new": ["Ny turnering", "Från början", "Skapa", "2 nivåer"],
        "tournament": ["Starta", "Nästa nivå", "Föregående nivå", "Nivåer och pauser",
                       "Stora mörken", "Lilla mörken", "Spara strukturen", "Paus",
                       "Evenemangets språk", "Placering"],
    },
    "id": {
        "/": ["Jam turnamen", "Cari kursi saya", "berhenti"],
        "clock": ["Level 1", "Omaha Pot-Limit", "Level berikutnya", "Istirahat berikutnya dalam",
                  "Pemain tersisa", "Rata-rata stack", "Total hadiah", "Belum dimulai"],
        "/director/": ["Turnamen", "Turnamen baru", "Kelola", "dari 2"],
        "/director/new": ["Turnamen baru", "Dari awal", "Buat", "2 level"],
        "tournament": ["Mulai", "Level berikutnya", "Level sebelumnya", "Level dan istirahat",
                       "Simpan struktur", "Istirahat", "Bahasa acara", "Penempatan kursi"],
    },
}


@pytest.mark.parametrize("code", ["sv", "id"])
def test_main_pages_have_no_english_left(client: FlaskClient, login: Callable[[], None],
                                         event: int, code: str) -> None:
    login()
    choose(client, code)
    words = ENGLISH_SV if code == "sv" else ENGLISH
    for path in pages(event):
        response = client.get(path)
        assert response.status_code == 200, path
        html = response.get_data(as_text=True)
        assert f'<html lang="{code}">' in html, path
        text = visible_text(html, code)
        assert english_left(text, words) == [], f"{path}: {text}"
        key = {f"/clock/{event}": "clock", f"/director/{event}": "tournament"}.get(path, path)
        for word in LOCAL_WORDS[code][key]:
            assert word in text, f"{path} lacks {word!r}: {text}"


def test_the_english_pages_still_read_in_english(client: FlaskClient, login: Callable[[], None],
                                                 event: int) -> None:
    login()
    text = visible_text(client.get(f"/clock/{event}").get_data(as_text=True), "en")
    assert "Level 1" in text and "Blinds 1,000/2,000" in text and "Next level" in text
    assert "Level 2 · Blinds 1,500/3,000 · Ante 3,000" not in text  # the break comes next
    assert "Break" in text


def test_projector_reads_level_and_blinds_in_swedish_with_swedish_numbers(
        client: FlaskClient, make_tournament: Callable[..., int]) -> None:
    event = make_tournament(levels=[level(100, 200, seconds=60), level(1000, 2000, ante=2000)])
    choose(client, "sv")
    text = visible_text(client.get(f"/clock/{event}").get_data(as_text=True), "sv")
    assert "Nivå 1" in text
    assert "Mörkar 100/200" in text
    # the next level: its number and game, then its stakes, each part unbreakable
    assert "Nästa nivå | Nivå 2 | · | Pot limit-Omaha | Mörkar 1" in text, text
    assert re.search(rf"Mörkar 1{NBSP}000/2{NBSP}000 \| · \| Ante 2{NBSP}000", text), text


def test_indonesian_numbers_use_dots_for_thousands(client: FlaskClient,
                                                   make_tournament: Callable[..., int]) -> None:
    event = make_tournament(levels=[level(1000, 2000)])
    choose(client, "id")
    text = visible_text(client.get(f"/clock/{event}").get_data(as_text=True), "id")
    assert "Blind 1.000/2.000" in text


def test_limit_and_stud_stakes_in_swedish(client: FlaskClient,
                                          make_tournament: Callable[..., int]) -> None:
    event = make_tournament(levels=[
        level(200, 400, game="FO/8", small_bet=400, big_bet=800),
        {"kind": "level", "game": "F7S", "duration_seconds": 1200, "ante": 50, "bring_in": 100,
         "small_bet": 400, "big_bet": 800},
    ])
    choose(client, "sv")
    text = visible_text(client.get(f"/clock/{event}").get_data(as_text=True), "sv")
    assert "Insatser 400/800 | · | Mörkar 200/400" in text  # each part unbreakable (a span)
    # the game's name translated whole (issue 15: "Limit-Omaha hi/lo", once the lead merges
    # /tmp/i18n/screens.jsonl; "Fixed limit-Omaha hi/lo" before)
    assert "Limit-Omaha hi/lo" in text or "Fixed limit-Omaha hi/lo" in text
    assert "Nivå 2 | · | Sjukorts stud | Ante 50 | · | Bring-in 100 | · | Insatser 400/800" in text


# ---------------------------------------------------------------- choosing the language

def test_accept_language_picks_the_language(client: FlaskClient, event: int) -> None:
    html = client.get("/", headers={"Accept-Language": "sv-SE,sv;q=0.9,en;q=0.5"}).get_data(
        as_text=True)
    assert '<html lang="sv">' in html and "Turneringsklockor" in html
    html = client.get("/", headers={"Accept-Language": "id-ID,id;q=0.9"}).get_data(as_text=True)
    assert '<html lang="id">' in html and "Jam turnamen" in html
    html = client.get("/", headers={"Accept-Language": "de-DE"}).get_data(as_text=True)
    assert '<html lang="en">' in html and "Tournament clocks" in html


def test_event_language_beats_the_browser_and_the_session_beats_both(
        client: FlaskClient, login: Callable[[], None], csrf: Callable[[], str],
        event: int) -> None:
    login()
    response = client.post(f"/director/{event}/language",
                           data={"language": "id", "csrf_token": csrf()})
    assert response.status_code == 302
    swedish_browser = {"Accept-Language": "sv"}
    # The event's pages follow the event; a page without an event follows the browser.
    assert '<html lang="id">' in client.get(f"/clock/{event}", headers=swedish_browser).get_data(
        as_text=True)
    assert '<html lang="sv">' in client.get("/", headers=swedish_browser).get_data(as_text=True)
    # The user's own choice wins everywhere.
    choose(client, "en")
    assert '<html lang="en">' in client.get(f"/clock/{event}", headers=swedish_browser).get_data(
        as_text=True)


def test_event_language_form_saves_clears_and_refuses_a_bad_code(
        app: Flask, client: FlaskClient, login: Callable[[], None], csrf: Callable[[], str],
        event: int) -> None:
    from director.db import db
    from director.models import Tournament

    login()
    client.post(f"/director/{event}/language", data={"language": "sv", "csrf_token": csrf()})
    page = client.get(f"/director/{event}").get_data(as_text=True)
    assert '<option value="sv" lang="sv" selected>' in page
    response = client.post(f"/director/{event}/language",
                           data={"language": "xx", "csrf_token": csrf()}, follow_redirects=True)
    assert response.status_code == 200
    # the event's page is in the event's language (Swedish), so is the refusal
    assert "Språket måste vara ett av en, id, sv" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Tournament, event).language == "sv"
    client.post(f"/director/{event}/language", data={"language": "", "csrf_token": csrf()})
    with app.app_context():
        assert db.session.get(Tournament, event).language is None


def test_event_language_needs_the_director(client: FlaskClient, event: int) -> None:
    response = client.post(f"/director/{event}/language", data={"language": "sv"})
    assert response.status_code in (302, 401, 403)
    assert '<html lang="en">' in client.get(f"/clock/{event}").get_data(as_text=True)


def test_the_switch_in_the_header_links_every_language_and_comes_back(
        client: FlaskClient, event: int) -> None:
    html = client.get("/").get_data(as_text=True)
    for code, name in (("en", "English"), ("id", "Bahasa Indonesia"), ("sv", "Svenska")):
        assert f'lang="{code}"' in html and name in html
    assert 'href="/language/sv?next=/"' in html
    response = client.get(f"/language/sv?next=/clock/{event}")
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/clock/{event}")
    assert '<html lang="sv">' in client.get("/").get_data(as_text=True)
    # the projector has the switch too (it has no site header)
    assert "/language/id?next=" in client.get(f"/clock/{event}").get_data(as_text=True)


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example/", "/\\evil.example",
                                    "javascript:alert(1)"])
def test_the_language_switch_only_redirects_to_this_site(client: FlaskClient, target: str) -> None:
    response = client.get("/language/sv", query_string={"next": target})
    assert response.status_code == 302
    location = response.headers["Location"]
    assert "evil" not in location and "javascript" not in location


def test_an_unknown_language_is_a_404_and_changes_nothing(client: FlaskClient) -> None:
    assert client.get("/language/fr").status_code == 404
    assert '<html lang="en">' in client.get("/").get_data(as_text=True)


# ---------------------------------------------------------------- messages, numbers, cards

def test_structure_errors_are_translated_and_name_their_field(client: FlaskClient,
                                                              auth: dict[str, str]) -> None:
    body = {"name": "x", "levels": [{"kind": "level", "game": "PO", "duration_seconds": 0,
                                     "small_blind": 200, "big_blind": 100}]}
    response = client.post("/api/tournaments", json=body,
                           headers={**auth, "Accept-Language": "sv"})
    assert response.status_code == 400
    errors = response.get_json()["errors"]
    assert errors["levels[0].big_blind"].endswith(": stora mörken (100) måste vara minst lika "
                                                  "stor som lilla mörken (200)")
    assert errors["levels[0].duration_seconds"].endswith(": nivån måste vara minst 1 sekund "
                                                         "lång (den är 0)")
    response = client.post("/api/tournaments", json=body, headers={**auth, "Accept-Language": "id"})
    assert response.get_json()["errors"]["levels[0].big_blind"].endswith(
        ": big blind (100) minimal sebesar small blind (200)")


def test_clock_rule_messages_are_translated(client: FlaskClient, auth: dict[str, str],
                                            make_tournament: Callable[..., int]) -> None:
    event = make_tournament(levels=[level(100, 200)])
    response = client.post(f"/api/tournaments/{event}/clock/next",
                           headers={**auth, "Accept-Language": "sv"})
    assert response.status_code == 400
    assert response.get_json()["errors"]["level_index"] == (
        "Det här är sista nivån: det finns ingen nästa nivå")


def test_engine_violations_are_translated_at_the_edge(app: Flask) -> None:
    from director.i18n import translate_violation
    from director.poker.cards import parse_card
    from director.poker.errors import CardError, RuleViolation

    error = RuleViolation("Raise to {amount} is below the minimum raise to {minimum}",
                          amount=7, minimum=8)
    with app.test_request_context(headers={"Accept-Language": "sv"}):
        assert translate_violation(error) == "Höjning till 7 är under minsta höjningen till 8"
    with app.test_request_context(headers={"Accept-Language": "id"}):
        assert translate_violation(error) == "Raise ke 7 di bawah minimum raise ke 8"
        with pytest.raises(CardError) as caught:
            parse_card("Zz")
        assert "bukan kartu" in translate_violation(caught.value)
    with app.test_request_context():
        assert translate_violation(error) == str(error)


def test_number_money_and_date_filters_follow_the_locale(app: Flask) -> None:
    from datetime import UTC, datetime

    from flask import render_template_string

    source = "{{ 1234567|number }} | {{ 12500|money('SEK') }} | {{ when|datetime }}"
    when = datetime(2026, 11, 29, 20, 5, tzinfo=UTC)
    with app.test_request_context(headers={"Accept-Language": "sv"}):
        text = render_template_string(source, when=when)
        assert re.fullmatch(rf"1{NBSP}234{NBSP}567 \| 12{NBSP}500,00{NBSP}kr \| 2026-11-29 20:05",
                            text), text
    with app.test_request_context(headers={"Accept-Language": "id"}):
        assert render_template_string("{{ 1234567|number }} {{ 1234.5|number }}") == (
            "1.234.567 1.234,5")
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert render_template_string("{{ 1234567|chips }}") == "1,234,567"


def test_card_letters_follow_the_locale_and_input_takes_both(app: Flask) -> None:
    from flask import render_template_string

    from director.i18n import parse_local_card, rank_letters
    from director.poker.cards import Card

    source = "{{ 'Jh'|card }} {{ 'As'|card }} {{ 'Qd'|card }}"
    with app.test_request_context(headers={"Accept-Language": "sv"}):
        assert render_template_string(source) == "Kn♥ E♠ D♦"
        assert list(rank_letters().values())[:4] == ["E", "K", "D", "Kn"]
        assert parse_local_card("Kn♥") == parse_local_card("Jh") == Card(11, "h")
        assert parse_local_card("E♠") == Card(14, "s")
    with app.test_request_context(headers={"Accept-Language": "id"}):
        assert render_template_string(source) == "J♥ As♠ Q♦"
        assert list(rank_letters().values())[:4] == ["As", "K", "Q", "J"]
        assert parse_local_card("As♠") == Card(14, "s")
        assert parse_local_card("Ks") == Card(13, "s")
    with app.test_request_context():
        assert render_template_string(source) == "J♥ A♠ Q♦"


def test_javascript_gets_its_sentences_as_data_not_as_a_script(client: FlaskClient,
                                                               event: int) -> None:
    import json

    choose(client, "sv")
    html = client.get(f"/clock/{event}").get_data(as_text=True)
    match = re.search(r'<script type="application/json" id="i18n">(.*?)</script>', html, re.S)
    assert match
    data = json.loads(match.group(1))
    assert data["locale"] == "sv"
    assert data["strings"]["blinds"] == "Mörkar %(small)s/%(big)s"
    assert data["strings"]["level"] == "Nivå %(number)s"
    assert data["games"]["PO"] == "Pot limit-Omaha"
    assert {k: data["ranks"][k] for k in "AKQJT2"} == {"A": "E", "K": "K", "Q": "D", "J": "Kn",
                                                        "T": "T", "2": "2"}
    # no inline executable script (a strict CSP is coming)
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag or 'type="application/json"' in tag, tag


# ---------------------------------------------------------------- seating and money pages

# English that must not be left on the seating, find-my-seat, desk and results pages.
SEATING_MONEY_ENGLISH = [
    "Table", "Tables", "Seat", "Seats", "Register", "Players", "Player", "Eliminate", "Confirm",
    "Undo", "Print", "Reseat", "Chip count", "Chips", "Hand dealt", "Finishing places",
    "Seating chart", "Moves to confirm", "Search", "Take", "Results", "Payouts", "Entries",
    "registered", "waits", "open", "Nothing", "Average stack", "Table size",
    "Breaking order", "Stop", "Discard", "Balance", "Break table", "move", "moves", "place",
    "shared", "Prize", "Paid", "still in", "Name", "Find", "Type part", "wait for the button",
    "Seat draw", "Money", "Refused", "Settings",
]
# Indonesian floors say "dealer" and "log" too (glossary-id.md); Swedish ones do not.
SEATING_MONEY_ENGLISH_SV = [*SEATING_MONEY_ENGLISH, "dealer", "Log"]


@pytest.fixture
def seated_event(request: pytest.FixtureRequest, client: FlaskClient,
                 login: Callable[[], None], csrf: Callable[[], str], auth: dict[str, str],
                 make_tournament: Callable[..., int]) -> dict[str, int]:  # event, player, number
    """Money set, twelve buy-ins, seats drawn at two tables, two busts with the balance move
    proposed: every part of the seating and money pages has something to show.  The director
    works in the language of the test (``code``), as the messages and the log are written in
    the language of whoever acts."""
    event = make_tournament(levels=[level(100, 200), break_(600), level(200, 400)],
                            name="Fredag Omaha")
    login()
    callspec = getattr(request.node, "callspec", None)
    choose(client, callspec.params.get("code", "sv") if callspec else "sv")
    form = {"csrf_token": csrf(), "buy_in": "100", "fee": "10", "starting_stack": "20000",
            "late_registration_level": "1", "currency": "EUR", "unit": "1", "guarantee": "0",
            "rebuy": "on", "rebuy_price": "100", "rebuy_fee": "0", "rebuy_chips": "20000",
            "rebuy_until": "1", "payout_template": "standard"}
    assert client.post(f"/director/{event}/money", data=form).status_code == 302
    ids = [client.post(f"/api/tournaments/{event}/money/entries",
                       json={"kind": "buy-in", "name": f"Spelare {n}"}, headers=auth
                       ).get_json()["player_id"] for n in range(1, 13)]
    settings = {"csrf_token": csrf(), "table_size": "6", "balance_threshold": "1",
                "halt_short_by": "3", "hand_for_hand_seconds": "60",
                "stud_only": "no"}
    assert client.post(f"/director/{event}/seating/settings", data=settings).status_code == 302
    assert client.post(f"/director/{event}/seating/draw",
                       data={"csrf_token": csrf()}).status_code == 302
    seating = client.get(f"/api/tournaments/{event}/seating").get_json()
    first = seating["tables"][0]
    busted = [int(pid) for pid in first["chips"]][:2]
    response = client.post(f"/director/{event}/seating/eliminate",
                           data={"csrf_token": csrf(), "player_ids": busted})
    assert response.status_code == 302
    player = next(pid for pid in ids if pid not in busted)
    return {"event": event, "player": player, "number": ids.index(player) + 1}


def seating_money_pages(event: int) -> dict[str, str]:
    return {"seating": f"/director/{event}/seating", "find": f"/seats/{event}?q=spelare",
            "find-nobody": f"/seats/{event}?q=zzz", "draw": f"/seats/{event}/draw",
            "desk": f"/director/{event}/desk", "results": f"/results/{event}",
            "cards": f"/director/{event}/seating/cards",
            "slips": f"/director/{event}/seating/slips"}


SEATING_MONEY_WORDS = {
    "sv": {"seating": ["Placering", "Bordskarta", "Bord 1", "Flyttar att bekräfta",
                       "Balansera borden: 1 flytt", "Registrera en spelare", "Slutplaceringar",
                       "stora mörken", "Hand för hand"],
           "find": ["Hitta min plats", "Bord", "Plats", "Skriv en del av ditt namn"],
           "find-nobody": ["Ingen placerad spelare matchar ”zzz”."],
           "draw": ["Platslottning", "10 spelare", "2 bord"],
           "desk": ["Registreringsdisken"],
           "results": ["Resultat"],
           "cards": ["Platskort", f"20{NBSP}000 marker"],
           "slips": ["Flyttlappar", "Balansera borden: 1 flytt"]},
    "id": {"seating": ["Penempatan kursi", "Denah meja", "Meja 1",
                       "Perpindahan yang perlu dikonfirmasi", "Seimbangkan meja: 1 perpindahan",
                       "Daftarkan pemain", "Posisi akhir"],
           "find": ["Cari kursi saya", "Meja", "Kursi", "Ketik sebagian nama Anda"],
           "find-nobody": ["Tidak ada pemain duduk yang cocok dengan “zzz”."],
           "draw": ["Undian kursi", "10 pemain", "2 meja"],
           "desk": ["Meja pendaftaran"],
           "results": ["Hasil"],
           "cards": ["Kartu kursi", "20.000 chip"],
           "slips": ["Slip perpindahan", "Seimbangkan meja: 1 perpindahan"]},
}


@pytest.mark.parametrize("code", ["sv", "id"])
def test_seating_find_my_seat_desk_and_results_have_no_english_left(
        client: FlaskClient, seated_event: dict[str, int], code: str) -> None:
    for key, path in seating_money_pages(seated_event["event"]).items():
        response = client.get(path)
        assert response.status_code in (200, 400), path
        html = response.get_data(as_text=True)
        assert f'<html lang="{code}">' in html, path
        text = visible_text(html, code)
        words = SEATING_MONEY_ENGLISH_SV if code == "sv" else SEATING_MONEY_ENGLISH
        assert english_left(text, words) == [], f"{path}: {text}"
        for word in SEATING_MONEY_WORDS[code][key]:
            assert re.search(word, text) if NBSP in word else word in text, \
                f"{path} lacks {word!r}: {text}"


def test_find_my_seat_gives_its_script_the_sentences_as_data(client: FlaskClient,
                                                             seated_event: dict[str, int]) -> None:
    choose(client, "sv")
    html = client.get(f"/seats/{seated_event['event']}").get_data(as_text=True)
    assert 'data-t-table="Bord"' in html and 'data-t-seat="Plats"' in html
    assert 'data-t-nobody="Ingen placerad spelare matchar ”{query}”."' in html
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag or 'type="application/json"' in tag, tag


def test_seating_and_money_messages_are_translated(client: FlaskClient, csrf: Callable[[], str],
                                                    auth: dict[str, str],
                                                    seated_event: dict[str, int]) -> None:
    event = seated_event["event"]
    choose(client, "sv")
    # a flash message after an action, and the plan's lines in the JSON API
    response = client.post(f"/director/{event}/seating/chips",
                           data={"csrf_token": csrf(), "player_id": seated_event["player"],
                                 "chips": "25000"}, follow_redirects=True)
    number = seated_event["number"]
    assert re.search(rf"Spelare {number} har 25{NBSP}000 marker\.", response.get_data(as_text=True))
    lines = client.get(f"/api/tournaments/{event}/seating",
                       headers={"Accept-Language": "sv"}).get_json()["pending_plan"]["lines"]
    assert lines[0] == "Balansera borden: 1 flytt"
    assert re.fullmatch(r"Spelare \d+: bord \d plats \d+ → bord \d plats \d+ \(.+\)", lines[-1]), lines
    # a TDA 11-A question to the floor, when the random draw leads to one, is Swedish too
    assert all(line.startswith("Till floorn: bord ") and "big blind" not in line
               for line in lines[1:-1]), lines
    # a refusal names its field in the user's language
    bad = client.post(f"/director/{event}/seating/reseat",
                      data={"csrf_token": csrf(), "player_id": seated_event["player"],
                            "table": "9", "seat": "1"})
    assert bad.status_code == 400
    assert "Det finns inget bord 9 i spel" in bad.get_data(as_text=True)
    refused = client.post(f"/api/tournaments/{event}/money/entries", json={"kind": "gift"},
                          headers=auth)
    assert refused.status_code == 400
    assert refused.get_json()["errors"]["kind"] == (
        "Det som säljs är ett av: buy-in, re-entry, rebuy, add-on")
    # the engine's refusal (a RuleViolation of the entry rules), translated at the edge
    choose(client, "id")
    late = client.post(f"/api/tournaments/{event}/money/entries",
                       json={"kind": "add-on", "player_id": seated_event["player"]}, headers=auth)
    assert late.status_code == 400
    assert late.get_json()["errors"], late.get_json()
    text = " ".join(late.get_json()["errors"].values())
    assert "add-on" in text and not re.search(r"\b(is|the|not|allowed)\b", text), text
