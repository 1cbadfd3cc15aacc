"""The catalogues (issue 8): complete, real, up to date.

* ``messages.pot`` holds exactly the msgids the sources have now (re-extracted
  here from director/ and templates/ with the keywords of ``director.i18n``,
  the engine's error classes included);
* every ``.po`` has those msgids; in ``id`` and ``sv`` every message is
  translated (every plural form), none is fuzzy, and each keeps the
  placeholders of its msgid;
* the translations are not copies of the English;
* the committed ``.mo`` files are compiled from the ``.po`` files as they are.

After changing a user-facing string: ``python -m director.i18n update``,
translate the new entries, ``python -m director.i18n compile``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from director.i18n import LANGUAGES, TRANSLATIONS, extract

FIX = "run `python -m director.i18n update`, translate, then `python -m director.i18n compile`"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)(?:[!:][^}]*)?\}")


def load(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def ids(catalog: Catalog) -> set[object]:
    return {message.id for message in catalog if message.id}


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def test_the_template_catalogue_is_up_to_date_with_the_sources(tmp_path: Path) -> None:
    fresh = tmp_path / "messages.pot"
    extract(fresh)
    now, committed = ids(load(fresh)), ids(load(TRANSLATIONS / "messages.pot"))
    assert not now - committed, f"new strings not in messages.pot ({FIX}): {sorted(map(str, now - committed))}"
    assert not committed - now, f"strings gone from the sources ({FIX}): {sorted(map(str, committed - now))}"


def test_the_engine_messages_are_in_the_catalogue() -> None:
    catalog = ids(load(TRANSLATIONS / "messages.pot"))
    for msgid in ("Raise to {amount} is below the minimum raise to {minimum}",  # RuleViolation
                  "“{text}” is not a card; write it like A♠, As or 10♥",  # CardError
                  "The big blind ({big_blind}) must be at least the small blind ({small_blind})",
                  "This is the last level: there is no next level"):
        assert msgid in catalog


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_each_language_has_every_message(code: str) -> None:
    template = ids(load(TRANSLATIONS / "messages.pot"))
    catalog = ids(load(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", code))
    assert catalog == template, f"{code}/messages.po is not merged with messages.pot ({FIX})"


@pytest.mark.parametrize("code", ["id", "sv"])
def test_every_message_is_translated_and_none_is_fuzzy(code: str) -> None:
    catalog = load(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", code)
    untranslated, fuzzy, broken = [], [], []
    for message in catalog:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(forms):
            untranslated.append(message.id)
        if message.fuzzy:
            fuzzy.append(message.id)
        wanted = placeholders(message.id[-1] if isinstance(message.id, tuple) else message.id)
        broken.extend((message.id, form) for form in forms
                      if form and placeholders(form) != wanted)
    assert untranslated == [], f"untranslated in {code} ({FIX}): {untranslated}"
    assert fuzzy == [], f"fuzzy in {code}: {fuzzy}"
    assert broken == [], f"placeholders changed in {code}: {broken}"


@pytest.mark.parametrize("code", ["id", "sv"])
def test_translations_are_not_copies_of_the_english(code: str) -> None:
    catalog = load(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po", code)
    singles = [m for m in catalog if m.id and not isinstance(m.id, tuple)]
    copies = [m.id for m in singles if m.string == m.id]
    # Loanwords and codes may stay ("Ante", "Bring-in", "OK", "Showdown" in Indonesian).
    assert len(copies) <= len(singles) * 0.08, f"{len(copies)} copies in {code}: {copies}"


def test_the_words_a_swedish_floor_person_uses() -> None:
    catalog = load(TRANSLATIONS / "sv" / "LC_MESSAGES" / "messages.po", "sv")
    text = {m.id: m.string for m in catalog if m.id and not isinstance(m.id, tuple)}
    assert text["Blinds %(small)s/%(big)s"] == "Mörkar %(small)s/%(big)s"
    assert text["Level %(number)s"] == "Nivå %(number)s"
    assert text["pot"] == "potten" and text["side pot"] == "sidopotten"
    assert text["Call %(amount)s"] == "Syna %(amount)s"
    assert text["Fold"] == "Lägg dig"
    assert text["Raise to {amount} is below the minimum raise to {minimum}"].startswith("Höjning")


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_the_compiled_catalogues_match_the_po_files(code: str) -> None:
    folder = TRANSLATIONS / code / "LC_MESSAGES"
    po = load(folder / "messages.po", code)
    with (folder / "messages.mo").open("rb") as f:
        mo = read_mo(f)
    def value(text: object) -> object:
        return tuple(text) if isinstance(text, list | tuple) else text

    expected = {value(m.id): value(m.string) for m in po if m.id and not m.fuzzy and
                (all(m.string) if isinstance(m.string, tuple) else m.string)}
    compiled = {value(m.id): value(m.string) for m in mo if m.id}
    # an untranslated plural may be compiled as its English forms (what gettext shows anyway)
    untranslated = {key: text for key, text in compiled.items() if key not in expected}
    assert all(text == key for key, text in untranslated.items()), "stale .mo"
    assert {key: compiled.get(key) for key in expected} == expected, (
        f"{code}/messages.mo is stale: run `python -m director.i18n compile`")


def test_a_glossary_per_language_sits_beside_the_catalogues() -> None:
    for code, words in (("sv", ["mörkar", "pott", "höjning", "syna", "lägga sig", "knapp",
                                "sidopott", "E", "Kn"]),
                        ("id", ["blind", "fold", "call", "raise", "all-in", "As"]),
                        ("en", ["blind", "button", "side pot"])):
        text = (TRANSLATIONS / f"glossary-{code}.md").read_text("utf-8")
        for word in words:
            assert word in text, f"glossary-{code}.md lacks {word}"
