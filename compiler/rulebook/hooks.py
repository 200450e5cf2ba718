"""mkdocs hooks: generate the rulebook's pages from rules/ before every build."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import minify_html
from mkdocs.exceptions import Abort

from compiler import links
from compiler.load import REPO_ROOT
from compiler.rulebook import navigation, printed, search
from compiler.rulebook.build import BuildError, generate, only_asked

log = logging.getLogger("mkdocs.rulebook")


def on_config(config: Any) -> Any:
    problem = links.site_url_problem(links.site_url())
    if problem is not None:
        raise Abort(f"${links.SITE_URL_VARIABLE}: {problem}")
    config.site_url = links.site_url()
    # Guides quote rules files from the repository, wherever `rulebook build` is run from.
    config.mdx_configs.setdefault("pymdownx.snippets", {})["base_path"] = [str(REPO_ROOT)]
    global _search
    only = only_asked()
    if only:  # the guides link into books this build leaves out: not worth a warning here
        config.validation.links.not_found = logging.INFO
    try:
        made = generate(Path(config.docs_dir), only)
    except BuildError as e:
        raise Abort(f"The rulebook cannot be built:\n{e}") from None
    config.nav = made.nav
    config.extra["summary"] = made.summary + "; "
    _search = made.search
    log.info(made.summary)
    return config


# Each book's search entries beyond its headings, from this build's `generate`, for
# on_post_build (the search plugin writes the site's index first).
_search: dict[str, search.BookSearch] = {}


def on_post_build(config: Any) -> None:
    """Give each book its own search index (search.py); say that no judge serves this copy
    (the judge says otherwise where it serves it: links.JUDGE_FILE)."""
    search.split(Path(config.site_dir), _search)
    (Path(config.site_dir) / links.JUDGE_FILE).write_text('{"answers": false}\n',
                                                           encoding="utf-8")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Keep each book's one page (printed.py) out of search: it repeats the whole book, so
    every hit would come twice."""
    if page.file.src_uri.endswith("/" + printed.PAGE):
        page.meta["search"] = {"exclude": True}
    return markdown


# What a reader searching the rules does not want in a result: the engine's reading of a
# rule, a diagram's labels and code listings, which the prose around them already names, and
# the lines of links under a rule or atop an example ("Referenced by: §7.3", "✓ Verified"),
# and the step-by-step table of what follows an example's move (its prose says it in brief).
# Material's search plugin skips any element carrying data-search-exclude.
_UNSEARCHED = re.compile(r'<(details class="abstract"|svg|pre|div class="rule-meta"'
                         r'|span class="verified"|div class="effects")(?=[\s>])')


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


def on_post_page(output: str, page: Any, config: Any) -> str:
    """The page as written to disk, without the theme's indentation and comments.

    The theme indents its markup generously; a page read on a phone over a weak connection
    need not carry a third of its weight in spaces. minify-html does it for a small part of
    what a pure-Python minifier cost (htmlmin: a quarter of the whole build). Closing tags,
    the opening `<html>` and `<head>`, the doctype and the spaces between attributes stay;
    quotes that a value does not need go (`id=x`, as HTML allows: tests read a page through
    `built_page`, which puts them back), attributes come in a fixed order, and scripts and
    styles are left alone."""
    return minify_html.minify(output, keep_closing_tags=True,
                              keep_html_and_head_opening_tags=True)
