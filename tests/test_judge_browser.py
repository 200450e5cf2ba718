"""The judge's page in a real browser (Playwright driving Chromium): a judge builds a position
by tapping, asks for a ruling, opens a worked example, replays a record with the slider and
opens a share link, on a desktop and on a phone. Screenshots are kept under
build/test-artifacts/judge/ for a person to look at.

The browser is the system's Chromium (Debian: `apt-get install chromium`), or the one named
by RULEBOOK_CHROMIUM (tests/conftest.py: `browser`); Playwright's own download is not needed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from compiler.engine.random_play import random_game
from compiler.engine.records import write_record
from tests.conftest import served

playwright_api = pytest.importorskip("playwright.sync_api", reason=(
    "Playwright is not installed: `.venv/bin/pip install -e '.[test]'`"))

pytestmark = pytest.mark.xdist_group("judge_browser")

ARTEFACTS = Path(__file__).resolve().parent.parent / "build" / "test-artifacts" / "judge"
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
RULESET = "trian_deluxe"
WAIT = 15_000  # ms: the longest any answer of the page may take here


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """The judge app, as `rulebook judge` serves it."""
    from compiler.judge.api import create_app

    with served(create_app()) as url:
        yield url


@pytest.fixture(scope="module", params=list(VIEWPORTS))
def page(request, browser, base_url) -> Iterator[object]:
    """One page per viewport, shared by the module's tests in order."""
    phone = request.param == "phone"
    context = browser.new_context(viewport=VIEWPORTS[request.param], base_url=base_url,
                                  has_touch=phone, is_mobile=phone, device_scale_factor=1)
    pg = context.new_page()
    pg.set_default_timeout(WAIT)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.viewport_name = request.param
    pg.script_errors = errors
    yield pg
    context.close()
    assert not errors, f"script errors on the page: {errors}"


def _shot(page, name: str) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}-{page.viewport_name}.png"), full_page=True)


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#board-inner svg")
    page.wait_for_selector("#busy", state="hidden")


def _settled(page) -> None:
    page.wait_for_selector("#busy", state="hidden")
    page.wait_for_timeout(100)


def _laid(page) -> int:
    return page.locator("#board-inner [data-cell]:not(.open)").count()


def test_a_position_is_built_by_tapping(page) -> None:
    _open(page, f"/?ruleset={RULESET}")
    assert "to play" in page.inner_text("#situation")
    before_tiles = _laid(page)
    page.check("#edit-mode")
    page.check('input[name="tool"][value="tile"]')
    page.fill("#tile-search", "")
    tiles = page.locator("#catalogue button")
    assert tiles.count() > 10
    for i in range(tiles.count()):  # the first tile of the catalogue that fits somewhere
        tiles.nth(i).click()
        page.click("#tile-fits")
        _settled(page)
        if page.locator("#board-inner polygon.open.fits").count():
            break
    cell = page.locator("#board-inner polygon.open.fits").first
    at = cell.get_attribute("data-cell")
    cell.click()
    page.wait_for_function(f"document.querySelectorAll('#board-inner [data-cell]:not(.open)').length > {before_tiles}")
    assert page.locator(f'#board-inner [data-cell="{at}"]:not(.open)').count() == 1

    pieces_before = page.locator("#board-inner [data-piece]").count()
    page.check('input[name="tool"][value="piece"]')
    edit_error = page.locator('[data-error-for="edit"]')
    sites = [page.locator("#board-inner circle[data-site]").nth(i).get_attribute("data-site")
             for i in range(page.locator("#board-inner circle[data-site]").count())]
    for site in sites:  # the rules say where a piece may stand: the first site they allow
        page.locator(f'#board-inner circle[data-site="{site}"]').click(force=True)
        _settled(page)
        if page.locator("#board-inner [data-piece]").count() > pieces_before:
            break
        assert edit_error.is_visible()  # refused, in words
    assert page.locator("#board-inner [data-piece]").count() == pieces_before + 1
    assert edit_error.is_hidden()
    _shot(page, "built")

    # an edit the server refuses says why in words, and changes nothing
    page.click("#players-editor summary")
    supply = page.locator("#players-fields input[data-supply]").first
    supply.fill("999")
    page.click("#players-apply")
    page.wait_for_selector('[data-error-for="edit"]:not([hidden])')
    assert "supply" in edit_error.inner_text()
    assert supply.input_value() != "999"  # the form shows the position as it still is
    assert page.locator("#board-inner [data-piece]").count() == pieces_before + 1
    _shot(page, "refused")
    page.click("#players-editor summary")
    page.uncheck("#edit-mode")


def test_a_ruling_is_asked_applied_and_undone(page) -> None:
    _open(page, f"/?ruleset={RULESET}")
    page.wait_for_function("document.querySelectorAll('#move-options option').length > 0")
    move = page.locator("#move-options option").first.get_attribute("value")
    page.fill("#move", move)
    page.click("#ask-form button[type=submit]")
    page.wait_for_selector("#ruling:not([hidden])")
    assert page.inner_text("#verdict") == "LEGAL"
    assert page.inner_text("#ruling-text").strip()
    assert page.locator("#ruling-rules a").count() >= 1
    _shot(page, "ruling")
    before = page.inner_text("#situation")
    page.click("#apply-move")
    page.wait_for_function("!document.getElementById('undo').disabled")
    assert move in page.inner_text("#applied")
    page.click("#undo")
    page.wait_for_function(f"document.getElementById('situation').textContent === {before!r}")

    page.fill("#move", "no such move at all")
    page.click("#ask-form button[type=submit]")
    page.wait_for_function("['ILLEGAL', 'UNREADABLE'].includes(document.getElementById('verdict').textContent)"
                           " || !document.querySelector('[data-error-for=ask]').hidden")
    _shot(page, "unreadable")


def test_tapping_a_site_lists_the_moves_there(page) -> None:
    _open(page, f"/?ruleset={RULESET}")
    cell = page.locator("#board-inner [data-cell]").first  # the set-up's open cell
    if page.viewport_name == "phone":
        cell.tap(force=True)  # a finger, not a mouse
    else:
        cell.click(force=True)
    page.wait_for_selector("#at-moves:not([hidden])")
    page.wait_for_function("/legal move|No legal move/.test(document.getElementById('at-moves').textContent)")

    # zoom: the buttons (and the wheel, on a desktop) change the view; Fit brings it back
    fitted = page.get_attribute("#board-inner", "style")
    page.click("#zoom-in")
    assert page.get_attribute("#board-inner", "style") != fitted
    page.click("#zoom-fit")
    assert page.get_attribute("#board-inner", "style") == fitted
    if page.viewport_name == "desktop":
        page.hover("#board")
        page.mouse.wheel(0, -300)
        assert page.get_attribute("#board-inner", "style") != fitted


def test_a_worked_example_opens(page, base_url) -> None:
    import httpx

    examples = httpx.get(f"{base_url}/api/rulesets/{RULESET}").json()["examples"]
    example = examples[0]
    _open(page, f"/?ruleset={RULESET}&example={example['id']}")
    page.wait_for_function("document.getElementById('example-info').textContent.length > 0")
    assert page.inner_text("#example-info").startswith(f"{example['number']} · {example['title']}")
    assert page.locator('[data-panel="example"]').is_visible()
    asked = httpx.post(f"{base_url}/api/positions/example",
                       json={"ruleset": RULESET, "example": example["id"]}).json()["example"]
    if asked["moves"] and asked["verdict"]:  # the example's question is asked at once
        page.wait_for_selector("#ruling:not([hidden])")
        assert page.inner_text("#verdict") == asked["verdict"]
    _shot(page, "example")


def test_a_record_replays_with_the_slider(page, rules) -> None:
    final, history = random_game(rules, 3, seed=5)
    text = write_record(history, final)
    _open(page, f"/?ruleset={RULESET}")
    page.click('[data-tab="record"]')
    page.fill("#record-text", text)
    page.click("#load-record")
    page.wait_for_selector("#record-slider:not([hidden])")
    total = int(page.get_attribute("#record-upto", "max"))
    assert total >= 2
    page.locator("#record-upto").fill(str(total // 2))
    page.wait_for_function(f"document.getElementById('record-at').textContent.startsWith('{total // 2} of')")
    page.wait_for_function(f"document.getElementById('record-move').textContent.includes('Decision {total // 2}')")
    page.click("#record-next")
    page.wait_for_function(f"document.getElementById('record-at').textContent.startsWith('{total // 2 + 1} of')")
    _shot(page, "record")


def test_a_share_link_restores_the_table(page) -> None:
    _open(page, f"/?ruleset={RULESET}&example=")
    page.click("#share-link")
    page.wait_for_selector("#share-url:not([hidden])")
    url = page.input_value("#share-url")
    assert "#r=" in url and "&p=" in url
    situation = page.inner_text("#situation")
    tiles = _laid(page)
    other = page.context.new_page()
    other.goto(url)
    other.wait_for_selector("#board-inner svg")
    other.wait_for_selector("#busy", state="hidden")
    assert other.inner_text("#situation") == situation
    assert _laid(other) == tiles
    other.close()

    damaged = url.split("&p=")[0] + "&p=AAAA"
    page.goto(damaged)
    page.wait_for_selector("#page-error:not([hidden])")
    assert "damaged" in page.inner_text("#page-error")


def test_a_position_file_opens_and_a_bad_one_is_refused_in_words(page, base_url) -> None:
    import httpx

    made = httpx.post(f"{base_url}/api/positions/new", json={"ruleset": RULESET, "players": 3}).json()
    _open(page, f"/?ruleset={RULESET}")
    page.click('[data-tab="file"]')
    page.fill("#position-text", "{ not json")
    page.click("#load-position")
    page.wait_for_selector('[data-error-for="start"]:not([hidden])')
    assert "not JSON" in page.inner_text('[data-error-for="start"]')
    broken = {**made["position"], "players": "everyone"}
    page.fill("#position-text", json.dumps(broken))
    page.click("#load-position")
    page.wait_for_function("document.querySelector('[data-error-for=start]').textContent.includes('players')")
    page.fill("#position-text", json.dumps(made["position"]))
    page.click("#load-position")
    page.wait_for_selector('[data-error-for="start"]', state="hidden")
    assert page.inner_text("#situation") == made["situation"]["said"]


def test_a_card_game_has_its_table_too(page) -> None:
    _open(page, "/?ruleset=among_the_stars")
    if page.viewport_name == "phone":  # the boards start on the first player's, readable
        assert page.locator("#board-views button").count() >= 3
        assert "scale(1)" not in page.get_attribute("#board-inner", "style")
    page.check("#edit-mode")
    assert page.locator("#legend .item").count() >= 3
    assert page.locator("#players-fields fieldset").count() >= 3

    # the card picker: a card found by name goes into a hand, is moved, and taken out
    page.click("#zones-editor > summary")
    target = page.locator("#card-target option:checked").inner_text()
    page.fill("#card-search", "peace coun")
    page.locator("#card-results .card-hit").first.click()
    page.wait_for_function("document.getElementById('card-note').textContent.includes('put on top of')")
    _settled(page)
    edit_error = page.locator('[data-error-for="edit"]')
    assert edit_error.is_hidden(), edit_error.inner_text()
    chip = page.locator(f'#card-piles .chip[aria-label*="of {target}"]', has_text="Peace Council").first
    chip.click()
    page.select_option("#card-move-to", label="discard pile")
    page.click("#card-move")
    page.wait_for_function("document.getElementById('card-note').textContent.includes('moved from')")
    _settled(page)
    assert page.locator('[data-error-for="edit"]').is_hidden()
    discard = page.locator('#card-piles .chip[aria-label*="of discard pile"]', has_text="Peace Council")
    assert discard.count() == 1
    discard.click()
    page.click("#card-remove")
    page.wait_for_function("document.getElementById('card-note').textContent.includes('taken out of discard pile')")
    _settled(page)
    assert page.locator('#card-piles .chip[aria-label*="of discard pile"]').count() == 0
    assert not page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")
    _shot(page, "cards")
    page.uncheck("#edit-mode")


def test_chance_asks_for_the_outcome(page) -> None:
    _open(page, "/?ruleset=trian_new_order")
    page.wait_for_function("document.querySelectorAll('#move-options option').length > 0")
    page.fill("#move", page.locator("#move-options option").first.get_attribute("value"))
    page.click("#ask-form button[type=submit]")
    page.wait_for_selector("#chance-form:not([hidden])")
    message = page.inner_text("#chance-message")
    assert "Chance" in page.inner_text("#verdict")
    outcome = message.rsplit("one of: ", 1)[1].split(",")[0].strip(" ).")
    page.fill("#chance-outcome", outcome)
    page.click("#chance-form button[type=submit]")
    page.wait_for_function("document.getElementById('verdict').textContent === 'LEGAL'")
    assert f"! {outcome}" in page.input_value("#move")
    assert page.locator("#apply-move").is_visible()
    _shot(page, "chance")


UNNAMED = """() => [...document.querySelectorAll('button, input, select, textarea, summary, [tabindex]')]
  .filter(e => e.getClientRects().length && !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
    && !e.getAttribute('aria-labelledby') && !e.textContent.trim() && !e.title)
  .map(e => `${e.tagName}#${e.id}.${e.className}`)"""


def test_the_keyboard_asks_and_the_ruling_is_announced(page) -> None:
    _open(page, f"/?ruleset={RULESET}")
    page.check("#edit-mode")
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    assert page.evaluate(UNNAMED) == []  # every control says what it is
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = false)")
    page.uncheck("#edit-mode")

    page.focus("#tab-empty")  # the start tabs: arrows move along them
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-example"
    assert page.locator("#panel-example").is_visible()
    page.keyboard.press("ArrowLeft")

    page.wait_for_function("document.querySelectorAll('#move-options option').length > 0")
    move = page.locator("#move-options option").first.get_attribute("value")
    page.focus("#move")
    page.keyboard.type(move)
    page.keyboard.press("Enter")
    page.wait_for_selector("#ruling:not([hidden])")
    said = page.locator("#ruling-said")
    assert said.get_attribute("aria-live") == "polite"
    assert said.inner_text().startswith("LEGAL: ")
    page.focus("#apply-move")
    page.keyboard.press("Enter")
    page.wait_for_function("!document.getElementById('undo').disabled")
    page.focus("#undo")
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('undo').disabled")
