"""Where the rulebook is published is a setting of the build, and a copy served anywhere
else still works: glossary and § hover previews show on another port and in another folder
than the site was built for."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compiler import links
from compiler.cli import app
from tests.conftest import built_page, files_served


def test_the_site_url_comes_from_the_build_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(links.SITE_URL_VARIABLE, raising=False)
    assert links.site_url() == "http://127.0.0.1:8000/"  # where `rulebook serve` shows it
    monkeypatch.setenv(links.SITE_URL_VARIABLE, "https://rules.example.org/books")
    assert links.site_url() == "https://rules.example.org/books/"
    assert links.rule_url("trian_deluxe", "setup", "setup.races") == (
        "https://rules.example.org/books/trian-deluxe/setup/#setup-races")


@pytest.mark.parametrize(("url", "said"), [
    ("rules.example.org", "is not a web address: write it whole"),
    ("ftp://example.org/", "is not a web address"),
    ("https://example.org/books/?v=2", "has a ?query or #fragment"),
])
def test_a_site_url_that_is_no_web_address_is_refused_before_building(url: str, said: str) -> None:
    result = CliRunner().invoke(app, ["build", "--site-url", url])
    assert result.exit_code == 2
    assert said in result.output and "Traceback" not in result.output


@pytest.fixture(scope="module")
def elsewhere(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site (built for http://127.0.0.1:8000/) served from a folder of another host's
    tree, on another port: http://127.0.0.1:PORT/books/."""
    root = tmp_path_factory.mktemp("host")
    (root / "books").symlink_to(site, target_is_directory=True)
    with files_served(root) as url:
        yield url + "books/"


@pytest.mark.xdist_group("rulebook")
def test_the_built_site_names_its_published_address(site: Path) -> None:
    page = built_page(site / "trian-deluxe" / "setup" / "index.html")
    assert '<link href="http://127.0.0.1:8000/trian-deluxe/setup/" rel="canonical">' in page
    assert "<loc>http://127.0.0.1:8000/trian-deluxe/setup/</loc>" in (
        site / "sitemap.xml").read_text(encoding="utf-8")


@pytest.mark.xdist_group("rulebook")
@pytest.mark.parametrize(("link", "shows"), [
    ("article a[href$='glossary/#points']", "The score."),   # a glossary term
    ("article a[href$='tiles/#tiles-touch']", "6.2 Touching the galaxy"),  # a § link
])
def test_hover_previews_work_where_the_site_was_not_built_for(browser, elsewhere: str,
                                                              link: str, shows: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(elsewhere + "trian-deluxe/setup/")
    page.locator(link).first.hover()
    preview = page.locator(".md-tooltip2")
    preview.first.wait_for(state="visible", timeout=10_000)
    assert shows in preview.first.inner_text()
    context.close()
    assert errors == []
