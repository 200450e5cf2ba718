"""`rulebook lsp`: the language server, over standard input and output (pygls).

Each open `.rules` file belongs to the ruleset of its folder. Opening, changing
or saving one checks that ruleset, its bases with it, from the texts the editor
holds (`checking.check_folder`), and publishes what `rulebook check` prints on
the file each message is about: a mistake in a base found while editing a
variant goes to the base's file. The last ruleset that compiled is kept, indexed
(`index.Index`), so hover, go to definition and completion work on while the
text being typed does not parse.

A failing handler never sends the editor a traceback: it logs one line to the
editor's output (`window/logMessage`) and the full trace to standard error,
and the server goes on.
"""

from __future__ import annotations

import asyncio
import logging
import traceback
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from compiler.diagnostics import Diagnostic, source_lines
from compiler.ir import model as m
from compiler.ir.nodes import Loc
from compiler.lsp.checking import (Outcome, base_ruleset, check_folder, path_of,
                                   ruleset_folder)
from compiler.lsp.index import ID, Entry, Index
from compiler.lsp.keywords import keywords, type_names
from compiler.played import played_problems

log = logging.getLogger(__name__)

# How long typing must pause before the ruleset is checked again (seconds).
SETTLE = 0.3

R = TypeVar("R")


class RulesServer(LanguageServer):
    """The server, with what it remembers of each ruleset folder."""

    def __init__(self) -> None:
        from importlib.metadata import PackageNotFoundError, version
        try:
            own = version("rulebook")
        except PackageNotFoundError:
            own = "0"
        super().__init__("rulebook", own)
        self.indexes: dict[Path, Index] = {}      # the last ruleset of each folder that compiled
        self.shown: dict[Path, dict[str, list[t.Diagnostic]]] = {}  # published, by folder
        self.read: dict[Path, set[Path]] = {}     # the files each folder's last check read
        self.played: dict[Path, list[Diagnostic]] = {}  # what the engine found, by folder
        self.edits: dict[Path, int] = {}          # a counter per folder: is a check still the latest?
        # One thread checks, one ruleset after the other; the protocol keeps answering meanwhile.
        self.checker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="check")

    # ------------------------------------------------------------- checking

    async def check(self, uri: str, delay: float = 0.0) -> None:
        """Check the ruleset of `uri` once typing settles, and every other ruleset checked
        before that read the file (the variants of a base being edited). What the compiler
        finds is published first; what the engine finds playing the worked examples (slower)
        follows. Nothing is published once newer text has come."""
        file = _path(uri)
        if file is None:
            return
        folder = ruleset_folder(file)
        turn = self.edits[folder] = self.edits.get(folder, 0) + 1
        if delay:
            await asyncio.sleep(delay)
            if self.edits[folder] != turn:
                return
        docs = self.workspace.text_documents
        unsaved = {p: doc.source for u, doc in docs.items() if (p := _path(u)) is not None}
        versions = {u: doc.version for u, doc in docs.items() if doc.version is not None}
        folders = [folder, *(f for f, files in self.read.items() if file in files and f != folder)]
        loop = asyncio.get_running_loop()
        outcomes = []
        for each in folders:
            outcome = await loop.run_in_executor(self.checker, _checked, each, unsaved)
            ruleset = outcome.ruleset
            if ruleset is None and each not in self.indexes:  # never compiled: its base, at least
                ruleset = await loop.run_in_executor(self.checker, base_ruleset, each, unsaved)
            if ruleset is not None:
                self.indexes[each] = await loop.run_in_executor(self.checker, Index, ruleset)
            outcomes.append(outcome)
        if self.edits[folder] != turn:
            return
        self.publish(outcomes, file, versions)
        played: dict[Path, list[Diagnostic]] = {}
        for o in outcomes:
            if self.edits[folder] != turn:  # newer text: play that instead
                return
            if o.ruleset is not None and o.playable:
                played[o.folder] = await loop.run_in_executor(self.checker, _played, o.ruleset,
                                                              o.folder)
        if played and self.edits[folder] == turn:
            self.played.update(played)
            self.publish(outcomes, file, versions)

    def publish(self, outcomes: list[Outcome], asked: Path, versions: dict[str, int]) -> None:
        """Publish each file's diagnostics as the checks of all rulesets found them (a base
        shared by two variants), each message once; a file no longer at fault gets none.
        An open file's diagnostics carry the version of its text that was checked."""
        touched = {from_fs_path(str(asked)) or ""}
        for outcome in outcomes:
            found: dict[str, list[t.Diagnostic]] = {}
            # Until the engine has played the examples again, what it found last time stands
            # (no flicker while typing); a ruleset that does not compile has none.
            played = self.played.get(outcome.folder, []) if outcome.playable else []
            for d in [*outcome.diagnostics, *played]:
                file = path_of(d.file)
                if not (d.file.endswith(".rules") or file.is_file()):  # a folder: the ruleset
                    file = asked
                found.setdefault(from_fs_path(str(file)) or "", []).append(
                    self.diagnostic(d, self.lines(file)))
            touched |= {*self.shown.get(outcome.folder, {}), *found}
            self.shown[outcome.folder] = found
            self.read[outcome.folder] = outcome.files
        for uri in touched - {""}:
            merged: dict[tuple[Any, ...], t.Diagnostic] = {}
            for shown in self.shown.values():
                for said in shown.get(uri, []):
                    merged.setdefault((said.range.start.line, said.range.start.character,
                                       said.code, said.message), said)
            self.text_document_publish_diagnostics(t.PublishDiagnosticsParams(
                uri=uri, diagnostics=list(merged.values()), version=versions.get(uri)))

    def diagnostic(self, d: Diagnostic, lines: Sequence[str]) -> t.Diagnostic:
        """The protocol's diagnostic for one of ours: the caret's range, the hint under the
        message (a "did you mean" included)."""
        line = max(d.line - 1, 0)
        text = lines[line] if line < len(lines) else ""
        start = min(max(d.column - 1, 0), len(text))
        if d.end_column > d.column:
            end = d.end_column - 1
        else:  # a caret without a width: the word it stands on
            word = ID.match(text, start)
            end = word.end() if word else min(start + 1, len(text))
        span = self.to_client(lines, t.Range(start=t.Position(line=line, character=start),
                                             end=t.Position(line=line, character=end)))
        return t.Diagnostic(
            range=span, message=d.message + (f"\n{d.hint}" if d.hint else ""),
            severity=t.DiagnosticSeverity.Error if d.severity == "error"
            else t.DiagnosticSeverity.Warning,
            code=d.code, source="rulebook")

    # ------------------------------------------------------------- places

    def lines(self, file: Path) -> list[str]:
        """A file's lines as the editor has them (open) or as saved."""
        uri = from_fs_path(str(file)) or ""
        if uri in self.workspace.text_documents:
            return source_lines(self.workspace.get_text_document(uri).source)
        try:
            return source_lines(file.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            return []

    def to_client(self, lines: Sequence[str], span: t.Range) -> t.Range:
        """A range in characters as the editor counts them (UTF-16 by default)."""
        return self.workspace.position_codec.range_to_client_units(list(lines), span)

    def location(self, loc: Loc) -> t.Location:
        """Where a declaration starts, for go to definition."""
        file = path_of(loc.file)
        lines = self.lines(file)
        line = max(loc.line - 1, 0)
        text = lines[line] if line < len(lines) else ""
        start = min(max(loc.column - 1, 0), len(text))
        end = loc.end_column - 1 if loc.end_line == loc.line and loc.end_column > loc.column \
            else len(text)
        span = t.Range(start=t.Position(line=line, character=start),
                       end=t.Position(line=line, character=max(start, end)))
        return t.Location(uri=from_fs_path(str(file)) or "", range=self.to_client(lines, span))

    async def index_of(self, uri: str) -> Index | None:
        """The last good index of the ruleset holding `uri` (checked now if never before)."""
        file = _path(uri)
        if file is None:
            return None
        folder = ruleset_folder(file)
        if folder not in self.indexes:
            await self.check(uri)
        return self.indexes.get(folder)

    def in_reference(self, uri: str, position: t.Position) -> bool:
        """Whether the cursor stands inside a `[[` not yet closed on its line."""
        lines = list(self.workspace.get_text_document(uri).lines)
        at = self.workspace.position_codec.position_from_client_units(lines, position)
        before = lines[at.line][:at.character] if at.line < len(lines) else ""
        opened = before.rfind("[[")
        return opened >= 0 and "]]" not in before[opened:]

    async def entries_at(self, uri: str, position: t.Position) -> tuple[Index | None, list[Entry]]:
        """The ids under the cursor, with the index they come from."""
        index = await self.index_of(uri)
        if index is None:
            return None, []
        doc = self.workspace.get_text_document(uri)
        lines = list(doc.lines)
        at = self.workspace.position_codec.position_from_client_units(lines, position)
        if at.line >= len(lines):
            return index, []
        return index, index.at(lines[at.line], at.character)


def _path(uri: str) -> Path | None:
    fs = to_fs_path(uri)
    return Path(fs).resolve() if fs and fs.endswith(".rules") else None


def _checked(folder: Path, unsaved: dict[Path, str]) -> Outcome:
    """`check_folder` without the engine's part, a crash in the compiler reported as one
    diagnostic, not lost."""
    try:
        return check_folder(folder, unsaved, examples=False)
    except Exception as e:  # noqa: BLE001  the server must go on; the trace goes to stderr
        return Outcome(folder, [_crashed(folder, "checker", e)])


def _played(ruleset: m.Ruleset, folder: Path) -> list[Diagnostic]:
    """`played_problems`, a crash in the engine reported as one diagnostic."""
    try:
        return played_problems(ruleset)
    except Exception as e:  # noqa: BLE001  as above
        return [_crashed(folder, "engine", e)]


def _crashed(folder: Path, what: str, e: Exception) -> Diagnostic:
    log.error("the %s failed on %s:\n%s", what, folder, traceback.format_exc())
    return Diagnostic(file=str(folder), code="internal",
                      message=f"the {what} failed on this ruleset ({type(e).__name__}: {e}); "
                              f"`rulebook check {folder}` shows the same")


def guarded(name: str, handler: Callable[[RulesServer, Any], Awaitable[R] | R]
            ) -> Callable[[RulesServer, Any], Awaitable[R | None]]:
    """`handler`, with an exception logged (one line to the editor) instead of sent."""
    async def run(ls: RulesServer, params: Any) -> R | None:
        try:
            result = handler(ls, params)
            if asyncio.iscoroutine(result):
                result = await result
            return result  # type: ignore[return-value]
        except Exception as e:  # noqa: BLE001  never a traceback to the editor
            log.error("%s failed:\n%s", name, traceback.format_exc())
            ls.window_log_message(t.LogMessageParams(
                type=t.MessageType.Error, message=f"rulebook: {name} failed: "
                                                  f"{type(e).__name__}: {e}"))
            return None
    return run


# ------------------------------------------------------------------ features


async def did_open(ls: RulesServer, params: t.DidOpenTextDocumentParams) -> None:
    await ls.check(params.text_document.uri)


async def did_change(ls: RulesServer, params: t.DidChangeTextDocumentParams) -> None:
    await ls.check(params.text_document.uri, delay=SETTLE)


async def did_save(ls: RulesServer, params: t.DidSaveTextDocumentParams) -> None:
    await ls.check(params.text_document.uri)


async def did_close(ls: RulesServer, params: t.DidCloseTextDocumentParams) -> None:
    await ls.check(params.text_document.uri)  # the saved text again, not the buffer's


async def hover(ls: RulesServer, params: t.HoverParams) -> t.Hover | None:
    index, entries = await ls.entries_at(params.text_document.uri, params.position)
    if index is None or not entries:
        return None
    return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown,
                                            value=index.hover(entries)))


async def definition(ls: RulesServer, params: t.DefinitionParams) -> list[t.Location] | None:
    _, entries = await ls.entries_at(params.text_document.uri, params.position)
    return [ls.location(e.loc) for e in entries] or None


async def completion(ls: RulesServer, params: t.CompletionParams) -> t.CompletionList:
    """Inside prose's `[[`, what it may link to; elsewhere every declared id (its kinds as
    the detail), the grammar's keywords and its type names."""
    items: list[t.CompletionItem] = []
    index = await ls.index_of(params.text_document.uri)
    if index is not None and ls.in_reference(params.text_document.uri, params.position):
        return t.CompletionList(is_incomplete=False, items=[
            t.CompletionItem(label=label, kind=t.CompletionItemKind.Reference, detail=e.kind,
                             documentation=e.title or None)
            for label, e in index.references()])
    if index is not None:
        for ident, entries in sorted(index.entries.items()):
            kinds = sorted({e.kind for e in entries})
            title = next((e.title for e in entries if e.title), "")
            items.append(t.CompletionItem(
                label=ident, kind=t.CompletionItemKind.Reference, detail=", ".join(kinds),
                documentation=title or None))
    types = set(type_names())
    items += [t.CompletionItem(label=w, kind=t.CompletionItemKind.TypeParameter
                               if w in types else t.CompletionItemKind.Keyword,
                               detail="type" if w in types else "keyword")
              for w in keywords()]
    return t.CompletionList(is_incomplete=False, items=items)


def shutdown(ls: RulesServer, params: None) -> None:
    """Checks waiting for their turn are dropped: the editor is leaving."""
    ls.checker.shutdown(wait=False, cancel_futures=True)


FEATURES: dict[str, Callable[[RulesServer, Any], Any]] = {
    t.SHUTDOWN: shutdown,
    t.TEXT_DOCUMENT_DID_OPEN: did_open,
    t.TEXT_DOCUMENT_DID_CHANGE: did_change,
    t.TEXT_DOCUMENT_DID_SAVE: did_save,
    t.TEXT_DOCUMENT_DID_CLOSE: did_close,
    t.TEXT_DOCUMENT_HOVER: hover,
    t.TEXT_DOCUMENT_DEFINITION: definition,
    t.TEXT_DOCUMENT_COMPLETION: completion,
}


def make_server() -> RulesServer:
    """A server with every feature registered, each guarded."""
    server = RulesServer()
    for method, handler in FEATURES.items():
        server.feature(method)(guarded(method, handler))
    return server


def serve() -> None:
    """Run the server on standard input and output until the editor says exit."""
    logging.basicConfig(level=logging.WARNING, format="rulebook lsp: %(message)s")
    make_server().start_io()
