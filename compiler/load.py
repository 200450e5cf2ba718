"""Loading a ruleset: read its `.rules` files, parse each, assemble, check.

A ruleset is a folder under `rules/`. Its files are read in name order; one of
them holds the `ruleset` header, whose `chapters` list fixes the reading order.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from compiler.changelog import FILE as CHANGELOG
from compiler.changelog import read_changelog
from compiler.alongside import join_alongside
from compiler.check import check_ruleset
from compiler.diagnostics import (
    CompileError, Diagnostic, SourceMap, capped, decode_source, did_you_mean, shown,
)
from compiler.ir import model as m
from compiler.numbering import number
from compiler.parse import parse_rules
from compiler.variants import apply_variant, blame_replacements, merge_header

REPO_ROOT = Path(__file__).resolve().parents[1]
RULES_DIR = REPO_ROOT / "rules"

# Texts that stand in for files on disk, by resolved path: an editor's unsaved buffers, so
# the language server (compiler/lsp/) checks what the author sees, bases included.
_UNSAVED: ContextVar[Mapping[Path, str]] = ContextVar("unsaved", default={})


@contextmanager
def reading_unsaved(texts: Mapping[Path, str]) -> Iterator[None]:
    """Within this block, load a file in `texts` from its text there, not from the disk."""
    token = _UNSAVED.set({p.resolve(): t for p, t in texts.items()})
    try:
        yield
    finally:
        _UNSAVED.reset(token)


def ruleset_dirs(root: Path = RULES_DIR) -> dict[str, Path]:
    """Every ruleset folder under `root`, by folder name."""
    if not root.is_dir():
        return {}
    return {p.name: p for p in sorted(root.iterdir()) if p.is_dir() and any(p.glob("*.rules"))}


def id_taken(ruleset_id: str, folder: Path, root: Path = RULES_DIR) -> Diagnostic | None:
    """The error when `folder`, a ruleset under `root` (`rules/`, what the rulebook builds),
    declares the id another folder there stands for: a variant copied from another and not
    renamed would silently take its place. A copy kept elsewhere to try something is fine."""
    if folder.resolve().parent != root.resolve():
        return None
    other = ruleset_dirs(root).get(ruleset_id)
    if other is None or other.resolve() == folder.resolve():
        return None
    return Diagnostic(file=str(folder), code="duplicate",
                      message=f"this folder declares `ruleset {ruleset_id}`, and so does "
                              f"{other}: the rulebook would show only one of them",
                      hint=f"give this ruleset an id of its own, by custom its folder's name "
                           f"(`ruleset {folder.name} …`)")


def resolve_ruleset_path(name: str | Path) -> Path:
    """A ruleset given as a folder, a file inside one, or a name under `rules/`."""
    path = Path(name)
    problem = None
    if str(name).strip():
        try:
            if path.is_file():
                return path.parent
            if path.is_dir():
                return path
        except OSError as e:  # a name too long for a file name, and the like
            problem = e.strerror
    known = ruleset_dirs()
    if str(name) in known:
        return known[str(name)]
    hint = did_you_mean(str(name), known)
    shown_name = shown(str(name), 80)
    raise CompileError([Diagnostic(file=shown_name or "<ruleset>", code="not-found",
                                   message=f"no ruleset `{shown_name}` (looked in {RULES_DIR}"
                                           + (f"; {problem.lower()}" if problem else "") + ")",
                                   hint=hint or "known rulesets: " + ", ".join(known))])


def parse_files(files: list[Path], sources: SourceMap) -> tuple[list[Any], list[Diagnostic]]:
    items: list[Any] = []
    diagnostics: list[Diagnostic] = []
    for f in files:
        name = display_path(f)
        try:
            unsaved = _UNSAVED.get().get(f.resolve())
            text = unsaved if unsaved is not None else decode_source(f.read_bytes(), name)
            sources.add(name, text)
            items.extend(parse_rules(text, name))
        except CompileError as e:
            diagnostics.extend(e.diagnostics)
        except OSError as e:
            diagnostics.append(Diagnostic(file=name, code="not-found",
                                          message=f"cannot read this file: {e.strerror or e}"))
    return items, diagnostics


def assemble(items: list[Any], files: list[str], sources: SourceMap) -> tuple[m.Ruleset, list[Diagnostic]]:
    """Put top-level items together into one `Ruleset` (unchecked)."""
    headers = [i for i in items if isinstance(i, m.Ruleset)]
    diagnostics: list[Diagnostic] = []
    if not headers:
        diagnostics.append(Diagnostic(file=files[0] if files else "<ruleset>", code="structure",
                                      message="no `ruleset NAME { ... }` header in these files"))
        rs = m.Ruleset(id="unnamed")
    else:
        rs = headers[0]
        for extra in headers[1:]:
            diagnostics.append(sources.diagnostic(extra.loc, "duplicate",
                                                  f"a second ruleset header (`{extra.id}`)"))
    rs.files = files
    for item in items:
        if isinstance(item, m.Chapter):
            rs.chapters.append(item)
        elif isinstance(item, m.TileSet):
            rs.tilesets.append(item)
        elif isinstance(item, m.CardSet):
            rs.cardsets.append(item)
        elif isinstance(item, m.Term):
            rs.terms.append(item)
        elif isinstance(item, m.Ruling):
            rs.rulings.append(item)
        elif isinstance(item, m.Example):
            rs.examples.append(item)
        elif isinstance(item, m.Edit):
            diagnostics.append(sources.diagnostic(
                item.loc, "structure", f"`{item.op.replace('_', ' ')}` edits a base ruleset, "
                f"but `{rs.id}` extends none", hint="write `ruleset NAME extends BASE { ... }`"))
        elif not isinstance(item, m.Ruleset):
            rs.decls.append(item)
    return rs, diagnostics


def assemble_files(files: list[Path], sources: SourceMap, chain: tuple[str, ...] = ()
                   ) -> tuple[m.Ruleset, list[Diagnostic]]:
    """Parse and assemble `files`; for a variant, first assemble its base, then edit it."""
    items, diagnostics = parse_files(files, sources)
    if diagnostics:
        raise CompileError(diagnostics)
    header = next((i for i in items if isinstance(i, m.Ruleset)), None)
    if header is None or header.extends is None:
        rs, diagnostics = assemble(items, [display_path(f) for f in files], sources)
        if header is not None and header.tiles_from is not None:
            _borrow_tiles(rs, header, sources, chain)
        return rs, diagnostics
    if header.extends in chain or header.extends == header.id:
        cycle = " → ".join((*chain, header.id, header.extends))
        raise CompileError([sources.diagnostic(header.loc, "structure",
                                               f"rulesets extend each other in a circle: {cycle}")])
    try:
        base_dir = resolve_ruleset_path(header.extends)
    except CompileError as e:
        d = e.diagnostics[0]
        raise CompileError([sources.diagnostic(header.loc, "unknown-name",
                                               f"`{header.id}` extends unknown ruleset "
                                               f"`{header.extends}`", hint=d.hint)]) from None
    base, diagnostics = assemble_files(sorted(base_dir.glob("*.rules")), sources,
                                       (*chain, header.id))
    number(base)  # the base's numbers first: the variant's additions go around them
    rs, more = apply_variant(base, header, items, sources)
    rs.files = rs.files + [display_path(f) for f in files]
    return rs, diagnostics + more


def _borrow_tiles(rs: m.Ruleset, header: m.Ruleset, sources: SourceMap,
                  chain: tuple[str, ...]) -> None:
    """Copy the tile sets of `tiles from OTHER` into `rs`; a set of its own wins.

    A game of its own may play with another game's tiles without being a
    variant of it: only the tile sets come across, nothing else.
    """
    other = header.tiles_from or ""
    if other in chain or other == header.id:
        cycle = " → ".join((*chain, header.id, other))
        raise CompileError([sources.diagnostic(header.loc, "structure",
                                               f"rulesets borrow tiles in a circle: {cycle}")])
    try:
        other_dir = resolve_ruleset_path(other)
    except CompileError as e:
        raise CompileError([sources.diagnostic(header.loc, "unknown-name",
                                               f"`{header.id}` borrows tiles from unknown "
                                               f"ruleset `{other}`",
                                               hint=e.diagnostics[0].hint)]) from None
    lender, _ = assemble_files(sorted(other_dir.glob("*.rules")), sources, (*chain, header.id))
    own = {t.id for t in rs.tilesets}
    rs.tilesets = [t for t in lender.tilesets if t.id not in own] + rs.tilesets


def load_files(files: list[Path]) -> tuple[m.Ruleset, SourceMap, list[Diagnostic]]:
    """Parse, assemble and check these files as one ruleset.

    Returns the ruleset, the sources read and the warnings. Raises
    `CompileError` carrying every error found.
    """
    sources = SourceMap()
    rs, diagnostics = assemble_files(files, sources)
    diagnostics += expand_copies(rs, sources)
    diagnostics += join_alongside(rs, sources)
    if any(d.severity == "error" for d in diagnostics):
        raise CompileError(diagnostics)
    diagnostics += check_ruleset(rs, sources)
    diagnostics = blame_replacements(rs, diagnostics, sources, {display_path(f) for f in files})
    folders = {f.parent for f in files}
    if len(folders) == 1:  # a ruleset folder: its changelog, if it keeps one
        folder = folders.pop()
        rs.history, problems = read_changelog(folder, rs, display_path(folder / CHANGELOG))
        diagnostics += problems
    errors = [d for d in diagnostics if d.severity == "error"]
    if errors:
        raise CompileError(diagnostics)
    return rs, sources, capped([d for d in diagnostics if d.severity == "warning"])


def expand_copies(rs: m.Ruleset, sources: SourceMap) -> list[Diagnostic]:
    """Fill each `copies` tile set with the faces of the set it copies, ids suffixed."""
    out: list[Diagnostic] = []
    sets = {s.id: s for s in rs.tilesets}
    for s in rs.tilesets:
        if s.copy_of is None:
            continue
        source = sets.get(s.copy_of)
        if source is None or source.copy_of is not None:
            out.append(sources.diagnostic(s.loc, "unknown-name",
                                          f"tile set `{s.id}` copies unknown tile set "
                                          f"`{s.copy_of}`",
                                          hint=did_you_mean(s.copy_of, [x for x in sets if
                                                                        sets[x].copy_of is None])))
            continue
        s.tiles = [t.model_copy(update={"id": t.id + s.suffix}) for t in source.tiles] + s.tiles
    return out


def read_header(name: str | Path, chain: tuple[str, ...] = ()) -> m.Ruleset:
    """A ruleset's header (title, players, base...) as the compiled ruleset has it, without
    compiling: only the file holding the header is parsed, and a variant's base header fills
    what the variant leaves unsaid. A list of rulesets needs no more (compiling all: seconds)."""
    path = resolve_ruleset_path(name)
    for f in sorted(path.glob("*.rules")):
        shown_name = display_path(f)
        text = decode_source(f.read_bytes(), shown_name)
        if not re.search(r"^\s*ruleset\s", text, re.M):
            continue
        own = next((i for i in parse_rules(text, shown_name) if isinstance(i, m.Ruleset)), None)
        if own is None:
            continue
        if own.extends is None or own.extends in chain or own.extends == own.id:
            return own
        base = read_header(own.extends, (*chain, own.id)).model_copy()
        merge_header(base, own)
        return base
    raise CompileError([Diagnostic(file=str(path), code="structure",
                                   message="no `ruleset NAME { ... }` header in these files")])


def load_ruleset_dir(path: Path) -> m.Ruleset:
    files = sorted(path.glob("*.rules"))
    if not files:
        raise CompileError([Diagnostic(file=str(path), code="not-found",
                                       message="no `.rules` files in this folder")])
    return load_files(files)[0]


def load_ruleset(name: str | Path) -> m.Ruleset:
    """Load a ruleset by name (`my_game`) or path."""
    return load_ruleset_dir(resolve_ruleset_path(name))


def display_path(path: Path) -> str:
    """A path as a reader would type it: from the current folder when it is under it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
