"""Every page of the built rulebook reads as English: no Python values leaking into the
prose, no "1 tiles", and no list run on into the paragraph above it (Markdown needs a blank
line before a list, and the engine's readings are written line by line)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.xdist_group("rulebook")

# Words of Python that must never reach a reader, and plurals after a 1.
LEAKS = re.compile(r"\b(None|True|False)\b|\b1 (tiles|pieces|points|cards|players|areas)\b")


def _prose(site: Path) -> Iterator[tuple[str, str]]:
    """(page, text) for every page, without its code blocks, scripts and tags."""
    for page in sorted(site.rglob("index.html")):
        html = page.read_text(encoding="utf-8")
        html = re.sub(r"<(script|style|pre|code)\b.*?</\1>", " ", html, flags=re.S)
        yield str(page.relative_to(site).parent), re.sub(r"<[^>]+>", " ", html)


def test_no_page_says_none_true_false_or_1_tiles(site: Path) -> None:
    found = [(page, m.group(0), text[max(0, m.start() - 40):m.end() + 20].split())
             for page, text in _prose(site) if not page.startswith("language")
             for m in LEAKS.finditer(text)]
    assert found == []


def test_no_list_runs_on_into_the_paragraph_above_it(site: Path) -> None:
    run_on = []
    for page in sorted(site.rglob("index.html")):
        html = page.read_text(encoding="utf-8")
        for paragraph in re.findall(r"<p>(.*?)</p>", html, re.S):
            if re.search(r"\n[-*] ", paragraph):
                run_on.append((str(page.relative_to(site).parent), paragraph[:80]))
    assert run_on == []
