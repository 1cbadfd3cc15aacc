"""Words said once and kept (issue 28: a dealer's tap says the same numbers and stakes
every time): what is kept is exactly what Babel says, in each language, and a
``force_locale`` inside a request gets its own language's words, not the request's."""

from __future__ import annotations

from flask import Flask
from flask_babel import force_locale, format_decimal, get_locale

from director.i18n import number_filter, request_locale, stakes_label

LEVELS = [
    {"game": "PO", "small_blind": 1000, "big_blind": 2000},
    {"game": "NH", "small_blind": 1000, "big_blind": 2000, "ante": 2000, "big_blind_ante": True},
    {"game": "FH", "small_blind": 500, "big_blind": 1000, "small_bet": 1000, "big_bet": 2000},
    {"game": "7S", "ante": 100, "bring_in": 200, "small_bet": 1000, "big_bet": 2000},
]


def test_a_kept_whole_number_is_babels_own_in_every_language(app: Flask) -> None:
    for language in ("en", "sv", "id"):
        with app.test_request_context("/", headers={"Accept-Language": language}):
            for value in (0, 7, 999, 1000, 12_500, 1_234_567, -2500):
                first, again = number_filter(value), number_filter(value)
                assert first == again == str(format_decimal(value)), (language, value)


def test_kept_stakes_follow_force_locale_inside_a_request(app: Flask) -> None:
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        english = [stakes_label(level) for level in LEVELS]
        with force_locale("sv"):
            swedish = [stakes_label(level) for level in LEVELS]
            assert str(request_locale()) == str(get_locale()) == "sv"
        assert [stakes_label(level) for level in LEVELS] == english
    with app.test_request_context("/", headers={"Accept-Language": "sv"}):
        assert [stakes_label(level) for level in LEVELS] == swedish
    assert "1\u00a0000/2\u00a0000" in swedish[0] and "1,000/2,000" in english[0]


def test_the_request_locale_is_flask_babels(app: Flask) -> None:
    for language in ("en", "sv", "id"):
        with app.test_request_context("/", headers={"Accept-Language": language}):
            assert request_locale() is get_locale()
            assert str(request_locale()) == language
