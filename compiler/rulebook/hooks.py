"""mkdocs hooks: generate the rulebook's pages from rules/ before every build."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from mkdocs.exceptions import Abort

from compiler import links
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


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    """Point each "Ask the judge" link at the judge, relative to this page (links.py)."""
    if links.JUDGE_MARKER not in html:
        return html
    return html.replace(links.JUDGE_MARKER, links.judge_root(page.url))
