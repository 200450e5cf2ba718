"""The rulebook as the judge serves it (create_app(rulebook_dir=<the built site>), at
/rulebook/): a chapter page shows "Ask the judge" once the judge answers, and it opens the
judge on that page's ruleset; a worked example's "Open in the judge" opens that example's
table with its question asked. The site is the session's one build (conftest `site`), so this
module shares the "rulebook" xdist group with tests/test_rulebook.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from compiler import links as urls
from compiler.ir import model as m
from tests.conftest import built_page, served

pytestmark = pytest.mark.xdist_group("rulebook")

ARTEFACTS = Path(__file__).resolve().parent.parent / "build" / "test-artifacts" / "judge"
WAIT = 15_000  # ms


@pytest.fixture(scope="module")
def judge_url(site: Path) -> Iterator[str]:
    from compiler.judge.api import create_app

    with served(create_app(rulebook_dir=site)) as url:
        yield url


@pytest.fixture(scope="module")
def page(browser, judge_url) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=judge_url)
    pg = context.new_page()
    pg.set_default_timeout(WAIT)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, f"script errors on the page: {errors}"


def _judge_opened(page) -> dict[str, list[str]]:
    page.wait_for_selector("#board-inner svg")
    page.wait_for_selector("#busy", state="hidden")
    return parse_qs(urlparse(page.url).query)


def test_a_chapter_page_asks_the_judge_with_its_ruleset(page, deluxe: m.Ruleset) -> None:
    chapter = deluxe.chapters[0]
    page.goto(f"/rulebook/{urls.chapter_page(deluxe.id, chapter.id)}")
    ask = page.locator("a.judge-link", has_text="Ask the judge").first
    ask.wait_for(state="visible")  # shown only once the judge has answered
    ask.evaluate("a => a.removeAttribute('target')")
    ask.click()
    query = _judge_opened(page)
    assert urlparse(page.url).path == "/"
    assert query["ruleset"] == [deluxe.id]
    assert page.input_value("#ruleset") == deluxe.id


def test_a_worked_example_opens_in_the_judge(page, site: Path, deluxe: m.Ruleset) -> None:
    example = next(x for x in deluxe.examples if x.play)
    marker = f"example={example.id}"
    holder = next(f for f in sorted((site / urls.slug(deluxe.id)).rglob("index.html"))
                  if marker in built_page(f))
    page.goto(f"/rulebook/{holder.parent.relative_to(site).as_posix()}/")
    link = page.locator(f'a.judge-link[href$="{marker}"]', has_text="Open in the judge").first
    link.wait_for(state="visible")
    link.click()
    query = _judge_opened(page)
    assert query == {"ruleset": [deluxe.id], "example": [example.id]}
    page.wait_for_selector("#ruling:not([hidden])")  # its question asked at once
    assert page.input_value("#example") == example.id
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "opened-from-the-rulebook-desktop.png"), full_page=True)


def test_a_static_copy_hides_the_judge_without_a_failed_request(browser, site: Path,
                                                               deluxe: m.Ruleset) -> None:
    """Hosted as plain files, no judge answers: the links stay hidden, and the page learns it
    from the site's own judge.json, so no reader's console shows a 404."""
    from tests.conftest import files_served

    with files_served(site) as url:
        context = browser.new_context(base_url=url)
        pg = context.new_page()
        failed: list[str] = []
        pg.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400
              else None)
        pg.goto(f"/{urls.chapter_page(deluxe.id, deluxe.chapters[0].id)}")
        pg.wait_for_function("sessionStorage.length > 0")  # the judge was asked
        assert not pg.locator("a.judge-link", has_text="Ask the judge").first.is_visible()
        context.close()
    assert failed == []
