"""(spec/RELECTURE.md, R8) Numbers typed into a live widget on a 390 px phone: the one French-aware
parser answers inline, in French, and never runs a silently changed value.

The parry and dodge demo is activated in place; the defender's wounds box (B, a whole
number 0–1000, D100-ATK-3) receives what a GM might type. « 12.5 » used to become 125
and the attack ran; −3 and 99 999 999 999 were clamped. Each is now refused in the
widget's banner, naming the field, the value once, the bounds and the rule, and the
attack shown stays the last valid one. Every request stays on 127.0.0.1 (``page``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.live_page import activate_bar as activate

pytestmark = pytest.mark.browser

PAGE = "book/demos/parade-esquive.html"

#: what is typed → what the banner says (spaces normalised), one refusal each
TYPED = [
    ("12,5", "Valeur « 12,5 » refusée pour « B du défenseur » : un nombre entier entre 0 "
             "et 1 000 est attendu, pas un nombre à virgule (D100-ATK-3)."),
    ("12.5", "Valeur « 12.5 » refusée pour « B du défenseur » : un nombre entier entre 0 "
             "et 1 000 est attendu, pas un nombre à virgule (D100-ATK-3)."),
    ("-3", "Valeur −3 refusée pour « B du défenseur » : un nombre entier entre 0 et 1 000 "
           "est attendu (D100-ATK-3)."),
    ("99999999999", "Valeur 99 999 999 999 refusée pour « B du défenseur » : un nombre "
                    "entier entre 0 et 1 000 est attendu (D100-ATK-3)."),
]

BANNER_TEXT = """(live) => {
  const el = Array.from(live.querySelectorAll('.widget-html-content'))
    .find(e => e.innerText.includes('⚠'));
  return el ? el.innerText.replace(/[\\u00a0\\u202f]/g, ' ').trim() : '';
}"""


def test_typed_numbers_are_refused_inline_at_390px(page: Any, site_url: str,
                                                   artifacts: Path) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{site_url}{PAGE}")
    activate(page)
    live = page.locator(".escarmouche-live-widget").first
    live.wait_for()
    wounds = live.locator(".widget-text", has_text="B :").locator("input").first
    wounds.wait_for()
    assert wounds.input_value() == "12"
    result = live.locator(".widget-html-content", has_text="Une attaque, pas à pas").first
    shown = result.inner_text()
    for typed, said in TYPED:
        wounds.fill(typed)
        wounds.press("Enter")
        handle = live.element_handle()
        page.wait_for_function(
            f"(live) => ({BANNER_TEXT})(live).includes({said[:40]!r})", arg=handle,
            timeout=30_000)
        banner = page.evaluate(BANNER_TEXT, handle)
        assert banner.endswith(said), (typed, banner)
        assert banner.count("refusée") == 1
        assert result.inner_text() == shown  # the last valid attack stays on screen
        box = wounds.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390
    page.screenshot(path=artifacts / "live-nombres-390px.png", full_page=True)
    wounds.fill("14")
    wounds.press("Enter")
    page.wait_for_function(f"(live) => !({BANNER_TEXT})(live)", arg=live.element_handle(),
                           timeout=30_000)
    assert page.errors == []
