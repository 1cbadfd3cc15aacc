"""The tablet's rulings dialog is drawn from the server's rulings (issue 27, item 4), in a
real browser: each ruling the page gives dealer.js, picked in the dialog, shows exactly its
fields with their labels, and the dialog fits a tablet held either way (1024x768,
768x1024) in English, Indonesian and Swedish: nothing runs off the side, no text is drawn
over text.  The served description itself: tests/web/test_dealer_ruling_forms.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Server
from tests.browser.test_dealer_browser import setup, tablet, wait_prompt
from tests.browser.test_layout import CHECK, names

pytestmark = [pytest.mark.browser]

SIZES = ((1024, 768), (768, 1024))
LANGUAGES = ("en", "id", "sv")
SHOWN = ("action_out_of_turn", "exposed_card", "undercall", "stud_exposed_downcards")
"""The rulings kept as screenshots: the most fields, the exposed-card rows, the card picker."""

# CHECK (test_layout) for the dialog alone: the page behind the modal is not what he reads.
DIALOG_CHECK = CHECK.replace("document.createTreeWalker(document.body",
                             "document.createTreeWalker(document.getElementById('rulings')")

# Runs in the page: each field of the dialog, its label and whether it lies inside the window.
FIELDS = """() => {
  const dlg = document.getElementById("rulings");
  const box = dlg.getBoundingClientRect();
  const out = [];
  for (const field of dlg.querySelectorAll(".ruling-fields > .field")) {
    const named = field.querySelector("[name]");
    const r = field.getBoundingClientRect();
    out.push({name: named && named.getAttribute("name"), label: field.querySelector("span").textContent,
              left: r.left, right: r.right});
  }
  return {fields: out, left: box.left, right: box.right, width: innerWidth,
          scroll: dlg.scrollWidth, client: dlg.clientWidth};
}"""


def test_each_ruling_shows_its_served_fields_and_the_dialog_fits_the_tablet(
        chromium: Any, live_server: Server, artifacts: Path) -> None:
    t = setup(live_server, names(4), {"game": "NO", "small_blind": 1000, "big_blind": 2000})
    page = tablet(chromium, live_server, t["code"])
    page.click("#deal-button")
    wait_prompt(page, "to act")
    folder = artifacts / "ruling-forms"
    folder.mkdir(parents=True, exist_ok=True)
    for language in LANGUAGES:
        if language != "en":
            page.click(f".language-switch a[hreflang={language}]")
            page.wait_for_selector(f'html[lang="{language}"]')
        page.wait_for_selector("#controls button")
        served = json.loads(page.locator("#dealer-rulings").text_content() or "[]")
        assert len(served) >= 17
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.click("#rulings-button")
            page.wait_for_selector("#rulings[open] #ruling-kind")
            offered = page.eval_on_selector_all("#ruling-kind option", "os => os.map(o => [o.value, o.text])")
            assert offered == [[r["kind"], r["label"]] for r in served]
            for ruling in served:
                page.select_option("#ruling-kind", ruling["kind"])
                seen = page.evaluate(FIELDS)
                where = f"{ruling['kind']} {width}x{height} {language}"
                assert [(f["name"], f["label"]) for f in seen["fields"]] == \
                    [(f["name"], f["label"]) for f in ruling["fields"]], where
                assert seen["left"] >= 0 and seen["right"] <= seen["width"], (where, seen)
                assert seen["scroll"] <= seen["client"], (where, "the dialog scrolls sideways")
                for field in seen["fields"]:
                    assert seen["left"] <= field["left"] and field["right"] <= seen["right"], (where, field)
                result = page.evaluate(DIALOG_CHECK)
                assert not result["overlaps"], (where, result["overlaps"])
                if ruling["kind"] in SHOWN:
                    page.screenshot(path=str(folder / f"{ruling['kind']}-{width}x{height}-{language}.png"))
            page.keyboard.press("Escape")
            page.wait_for_function("() => !document.getElementById('rulings').open")
