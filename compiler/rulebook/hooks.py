"""mkdocs hooks: generate the rulebook's pages from rules/ before every build."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

from mkdocs.exceptions import Abort

from compiler import links
from compiler.rulebook import navigation, printed
from compiler.rulebook.build import BuildError, generate

log = logging.getLogger("mkdocs.rulebook")


def on_config(config: Any) -> Any:
    problem = links.site_url_problem(links.site_url())
    if problem is not None:
        raise Abort(f"${links.SITE_URL_VARIABLE}: {problem}")
    config.site_url = links.site_url()
    try:
        nav, summary = generate(Path(config.docs_dir))
    except BuildError as e:
        raise Abort(f"The rulebook cannot be built:\n{e}") from None
    config.nav = nav
    config.extra["summary"] = summary + "; "
    log.info(summary)
    return config


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Keep each book's one page (printed.py) out of search: it repeats the whole book, so
    every hit would come twice."""
    if page.file.src_uri.endswith("/" + printed.PAGE):
        page.meta["search"] = {"exclude": True}
    return markdown


# What a reader searching the rules does not want in a result: the engine's reading of a
# rule, a diagram's labels and code listings, which the prose around them already names.
# Material's search plugin skips any element carrying data-search-exclude.
_UNSEARCHED = re.compile(r'<(details class="abstract"|svg|pre)(?=[\s>])')


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    """Point "Ask the judge" links at the judge, relative to this page (links.py); keep the
    engine's boxes, diagrams and code listings out of search."""
    if links.JUDGE_MARKER in html:
        html = html.replace(links.JUDGE_MARKER, links.judge_root(page.url))
    return _UNSEARCHED.sub(r"<\1 data-search-exclude", html)


def on_page_context(context: dict[str, Any], page: Any, config: Any, nav: Any) -> dict[str, Any]:
    """Write into the page only the navigation its reader can use (navigation.py)."""
    context["nav"] = navigation.pruned(nav)
    return context
