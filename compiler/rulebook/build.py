"""Building the rulebook: compile every ruleset, verify every example, write pages, run mkdocs.

`generate` does the first three and is called by the mkdocs hook on every
build, so `rulebook build`, `mkdocs build` and `mkdocs serve` agree. A ruleset
that does not compile, or an example the engine disagrees with, stops the
build with the reason.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compiler.diagnostics import CompileError, Repeats, did_you_mean
from compiler.load import REPO_ROOT, load_ruleset_dir, ruleset_dirs
from compiler.numbering import code_clashes
from compiler.rulebook.search import BookSearch
from compiler.variants import inherited_example_hint

KEEP = ("assets", "overrides", "guides", "README.md", "sw.js")


class BuildError(Exception):
    """The rulebook cannot be built; the message says why."""


@dataclass(frozen=True)
class Generated:
    """What mkdocs needs from `generate` besides the pages it wrote."""
    nav: list[Any]
    summary: str
    search: dict[str, BookSearch]  # each book's folder → what its search finds beyond headings


# `rulebook build --only NAME`: build these rulesets (comma-separated) and the ones they
# build on, not every ruleset; an author checking one variant waits for two books, not all.
ONLY_VARIABLE = "RULEBOOK_ONLY"


def only_asked() -> list[str]:
    return [x.strip() for x in os.environ.get(ONLY_VARIABLE, "").split(",") if x.strip()]


def _with_bases(only: list[str], dirs: dict[str, Path]) -> dict[str, Path]:
    """The folders of the rulesets asked for and of every ruleset they build on."""
    wanted: dict[str, Path] = {}
    todo = list(only)
    while todo:
        name = todo.pop()
        if name in wanted:
            continue
        if name not in dirs:
            hint = did_you_mean(name, dirs)
            raise BuildError(f"--only: no ruleset `{name}` in rules/"
                             + (f"; {hint}" if hint else f" (known: {', '.join(dirs)})"))
        wanted[name] = dirs[name]
        try:
            base = load_ruleset_dir(dirs[name]).extends
        except CompileError:
            continue  # reported when it is built
        if base:
            todo.append(base)
    return {name: path for name, path in dirs.items() if name in wanted}


def generate(docs: Path, only: list[str] | None = None) -> Generated:
    """Write every generated page into `docs` (or only those of the rulesets `only` names and
    their bases); return the navigation, a summary line and what each book's search finds
    besides its headings."""
    from compiler.engine.position import Rules
    from compiler.engine.random_play import random_game
    from compiler.engine.records import write_record
    from compiler.engine.notation import notation_clashes
    from compiler.engine.scenario import run_example
    from compiler.rulebook import offline
    from compiler.rulebook.pages import Page, RulesetPages, site_index

    problems: list[str] = []
    failing, broken = Repeats(), Repeats()
    books: list[RulesetPages] = []
    examples = 0
    declared: dict[str, Path] = {}  # each ruleset id, by the folder that declares it
    dirs = _with_bases(only, ruleset_dirs()) if only else ruleset_dirs()
    for name, path in dirs.items():
        try:
            rs = load_ruleset_dir(path)
        except CompileError as e:
            new = [d.render() for d in e.diagnostics if broken.add(name, d.render())]
            problems.append(f"ruleset {name} does not compile:\n" + ("\n".join(new) if new else
                            "    (the errors above, in a ruleset it builds on)"))
            continue
        first = declared.setdefault(rs.id, path)
        if first != path:  # one would silently overwrite the other's pages
            problems.append(f"{_shown(path)} declares `ruleset {rs.id}`, as {_shown(first)} "
                            f"does: each ruleset needs an id of its own; rename one (by "
                            f"custom, a ruleset's id is its folder's name)")
            continue
        rules = Rules(rs)
        problems += [d.render() for d in notation_clashes(rules.game)]
        results = {ex.id: run_example(rules, ex) for ex in rs.examples}
        for res in results.values():
            if not res.ok:
                loc = res.example.loc
                where = f"{loc.file}:{loc.line}" if loc else name
                failing.add(name, where, res.example.id, *res.failures,
                            hint=inherited_example_hint(rs, res.example.id))
        examples += len(results)
        final, history = random_game(rules, rs.players_max, seed=1)
        books.append(RulesetPages(rules, results, write_record(history, final)))
    for lines in failing.found:  # an inherited example's failure, once for all rulesets
        where, ident, *failures = lines
        hint = failing.hint(lines)
        said = [*failures, hint] if hint is not None else failures
        problems.append(f"{where}: example `{ident}` disagrees with the engine"
                        f"{failing.where(lines)}:\n" + "\n".join(f"    {f}" for f in said))
    problems += code_clashes(b.rs for b in books)
    if problems:
        raise BuildError("\n".join(problems))
    by_id = {b.rs.id: b for b in books}
    for book in books:
        book.link_books(by_id)

    def lineage(book: RulesetPages) -> tuple[str, ...]:
        """The ids from the root ruleset down to this one: a base comes before its variants."""
        chain = [book.rs.id]
        while book.base is not None:
            book = book.base
            chain.append(book.rs.id)
        return tuple(reversed(chain))
    books.sort(key=lineage)
    from compiler.rulebook import error_codes
    from compiler.rulebook.reference import reference_page
    pages = [site_index(books), Page("language.md", "The rules language", reference_page())]
    codes = error_codes.error_codes()
    stale = error_codes.problems(codes)
    if stale:
        raise BuildError("\n".join(stale))
    code_pages = error_codes.pages(codes)
    pages += [Page(path, path, text) for path, text in code_pages.items()]
    extra: dict[str, str | bytes] = {}
    nav: list[Any] = [{"Home": "index.md"}]
    games: dict[str, list[Any]] = {}  # one tab per game: its base ruleset, then its variants
    for book in books:
        book_pages, book_files = book.pages(), book.extra_files()
        pages += book_pages
        extra.update(book_files)
        extra[f"{book.slug}/{offline.MANIFEST}"] = offline.manifest(
            book.slug, [*(p.path for p in book_pages), *book_files])
        root = book
        while root.base is not None:
            root = root.base
        games.setdefault(root.rs.title, []).extend(book.nav())
    nav += [{title: entries} for title, entries in games.items()]
    guides = [{"Writing your own variant": "guides/variants.md"},
              {"Cards, zones and hidden information": "guides/cards-and-zones.md"},
              {"Editing rules in an editor": "guides/editors.md"},
              {"Language reference": "language.md"},
              {"Error codes": [{"All codes": f"{error_codes.FOLDER}/index.md"},
                               *[{f"[{c.code}]": f"{error_codes.FOLDER}/{c.code}.md"}
                                 for c in codes]]}]
    nav.append({"Authoring": guides})
    written = {p.path: p.text for p in pages} | extra
    _sync(docs, written)
    partial = f" (only {', '.join(only)} and what they build on)" if only else ""
    summary = (f"{len(books)} ruleset(s){partial}, {examples} worked examples verified against "
               f"the engine, {len(pages)} pages")
    return Generated(nav, summary,
                     {b.slug: BookSearch(b.label, b.search_entries()) for b in books})


def _shown(path: Path) -> str:
    """A ruleset folder as an author names it: `rules/trian_family`, not its full path."""
    try:
        return path.relative_to(REPO_ROOT).as_posix()
    except ValueError:
        return str(path)


def _sync(docs: Path, files: dict[str, str | bytes]) -> None:
    """Write what changed and delete stale generated files (so live preview does not loop)."""
    docs.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        path = docs / rel
        data = content.encode("utf-8") if isinstance(content, str) else content
        if path.is_file() and path.read_bytes() == data:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    for path in sorted(docs.rglob("*"), reverse=True):
        rel = path.relative_to(docs).as_posix()
        if rel.split("/")[0] in KEEP:
            continue
        if path.is_file() and rel not in files:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def build_site(strict: bool = True, console: Any = None, site_dir: Path | None = None) -> Path:
    """Run the whole build: generate, then `mkdocs build` (strict: any warning fails).

    `site_dir` overrides where the HTML goes (tests build into a temporary folder).
    """
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort, MkDocsException

    started = time.perf_counter()
    collect = _Collect()
    log = logging.getLogger("mkdocs")
    log.addHandler(collect)
    try:
        overrides = {"site_dir": str(site_dir)} if site_dir is not None else {}
        config = load_config(config_file=str(REPO_ROOT / "mkdocs.yml"), strict=strict,
                             **overrides)
        build(config)
    except (Abort, MkDocsException, BuildError) as e:
        details = "\n".join(collect.messages)
        raise BuildError(f"{e}\n{details}".strip()) from None
    finally:
        log.removeHandler(collect)
    if strict and collect.messages:
        raise BuildError("mkdocs warned:\n" + "\n".join(collect.messages))
    site = Path(config.site_dir)
    if console is not None:
        console.print(f"{config.get('extra', {}).get('summary', '')}"
                      f"rulebook written to {site} in {time.perf_counter() - started:.1f}s")
    return site


def serve_site(port: int = 8000) -> None:
    from mkdocs.commands.serve import serve
    serve(config_file=str(REPO_ROOT / "mkdocs.yml"), dev_addr=f"127.0.0.1:{port}",
          livereload=True)
