"""`rulebook lsp`, driven as an editor drives it: the protocol's own client calls.

One server runs for the module (`rulebook lsp` as a subprocess, spoken to by pygls's
`LanguageClient` over stdio). The author edits a house-rules variant of the Deluxe
game kept in a temporary folder, as a new author would in their own: a planted
mistake, its fix, a hover on a rule, a jump into the base game, completion.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as t
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from compiler.links import site_url
from compiler.load import REPO_ROOT, RULES_DIR
from tests import compiled

GUIDE = REPO_ROOT / "site" / "guides" / "editors.md"
WAIT = 30.0
# `rulebook`, as the editor starts it: the script installed beside this Python.
_SCRIPT = Path(sys.executable).with_name("rulebook")
RULEBOOK = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "compiler.cli"]  # seconds: a check of a ruleset takes well under 2

# A variant with a mistake planted on line 13 (`minerl`); `FIXED` corrects it.
HOUSE = '''\
ruleset house_rules extends trian_deluxe {
    subtitle "House rules"
}

replace rule actions.research "Research" {
    text """
    Score 1 [[points|victory point]] and take 1 [[mineral]] from the
    [[pool]], if any is left, as in [[rule:areas.points.space]].
    """
    action research "research" {
        notation "research"
        give 1 points to me
        give 1 minerl from pool to me
    }
}
'''
FIXED = HOUSE.replace("minerl", "mineral")


class Editor:
    """An editor's side of the protocol: documents it opens and edits, what it is told."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.client = LanguageClient("test-editor", "1")
        self.published: dict[str, asyncio.Queue[t.PublishDiagnosticsParams]] = {}
        self.logged: list[str] = []
        self.versions: dict[str, int] = {}

        @self.client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def diagnostics(params: t.PublishDiagnosticsParams) -> None:
            self.queue(params.uri).put_nowait(params)

        @self.client.feature(t.WINDOW_LOG_MESSAGE)
        def log_message(params: t.LogMessageParams) -> None:
            self.logged.append(params.message)

    def run(self, work: Any) -> Any:
        return self.loop.run_until_complete(asyncio.wait_for(work, WAIT))

    def queue(self, uri: str) -> asyncio.Queue[t.PublishDiagnosticsParams]:
        return self.published.setdefault(uri, asyncio.Queue())

    def start(self) -> None:
        async def start() -> None:
            await self.client.start_io(*RULEBOOK, "lsp", cwd=str(REPO_ROOT))
            await self.client.initialize_async(t.InitializeParams(
                capabilities=t.ClientCapabilities(), root_uri=from_fs_path(str(REPO_ROOT))))
            self.client.initialized(t.InitializedParams())
        self.run(start())

    def stop(self) -> None:
        async def stop() -> None:
            await self.client.shutdown_async(None)
            self.client.exit(None)
            await self.client.stop()
        self.run(stop())

    def forget(self, uri: str) -> None:
        """Drop what was published for `uri` so far: the next wait sees only what follows."""
        queue = self.queue(uri)
        while not queue.empty():
            queue.get_nowait()

    def diagnostics_with(self, uri: str, code: str) -> list[t.Diagnostic]:
        """The first diagnostics published for `uri` that hold one with `code`."""
        async def found() -> list[t.Diagnostic]:
            while True:
                params = await self.queue(uri).get()
                if any(d.code == code for d in params.diagnostics):
                    return list(params.diagnostics)
        return self.run(found())

    def diagnostics(self, uri: str) -> list[t.Diagnostic]:
        """The next diagnostics published for `uri`, for its latest text when it is open
        (a check of an older text may still be answering)."""
        async def latest() -> list[t.Diagnostic]:
            while True:
                params = await self.queue(uri).get()
                if params.version is None or params.version >= self.versions.get(uri, 0):
                    return list(params.diagnostics)
        return self.run(latest())

    def open(self, path: Path, text: str) -> str:
        uri = from_fs_path(str(path)) or ""
        self.forget(uri)
        self.versions[uri] = version = self.versions.get(uri, 0) + 1  # never one seen before
        self.client.text_document_did_open(t.DidOpenTextDocumentParams(
            text_document=t.TextDocumentItem(uri=uri, language_id="rules", version=version,
                                             text=text)))
        return uri

    def change(self, uri: str, text: str) -> None:
        """The whole text replaced, as a client without incremental sync sends it."""
        self.forget(uri)
        self.versions[uri] += 1
        self.client.text_document_did_change(t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[t.TextDocumentContentChangeWholeDocument(text=text)]))

    def close(self, uri: str) -> None:
        self.forget(uri)
        self.client.text_document_did_close(t.DidCloseTextDocumentParams(
            text_document=t.TextDocumentIdentifier(uri=uri)))

    def hover(self, uri: str, line: int, character: int) -> t.Hover | None:
        return self.run(self.client.text_document_hover_async(t.HoverParams(
            text_document=t.TextDocumentIdentifier(uri=uri),
            position=t.Position(line=line, character=character))))

    def definition(self, uri: str, line: int, character: int) -> Any:
        return self.run(self.client.text_document_definition_async(t.DefinitionParams(
            text_document=t.TextDocumentIdentifier(uri=uri),
            position=t.Position(line=line, character=character))))

    def completion(self, uri: str, line: int, character: int) -> t.CompletionList:
        return self.run(self.client.text_document_completion_async(t.CompletionParams(
            text_document=t.TextDocumentIdentifier(uri=uri),
            position=t.Position(line=line, character=character))))


@pytest.fixture(scope="module")
def editor() -> Iterator[Editor]:
    loop = asyncio.new_event_loop()
    ed = Editor(loop)
    ed.start()
    try:
        yield ed
    finally:
        ed.stop()
        loop.close()


@pytest.fixture(scope="module")
def house(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The variant's file, saved with its mistake: the editor's text is what counts."""
    path = tmp_path_factory.mktemp("authoring") / "house_rules" / "ruleset.rules"
    path.parent.mkdir()
    path.write_text(HOUSE, encoding="utf-8")
    return path


def where(text: str, needle: str) -> tuple[int, int]:
    """0-based line and character of the first `needle` in `text`, as the protocol counts."""
    for number, line in enumerate(text.split("\n")):
        if needle in line:
            return number, line.index(needle)
    raise AssertionError(f"{needle!r} is not in the text")


# ------------------------------------------------------------- diagnostics ---

def test_a_misspelt_resource_is_reported_as_the_author_types_with_did_you_mean(
        editor: Editor, house: Path) -> None:
    """didOpen → the error `rulebook check` gives: its code, the word's range, the hint."""
    uri = editor.open(house, HOUSE)
    [problem] = editor.diagnostics(uri)
    line, column = where(HOUSE, "minerl")
    assert problem.code == "unknown-name"
    assert problem.severity == t.DiagnosticSeverity.Error
    assert (problem.range.start.line, problem.range.start.character) == (line, column)
    assert (problem.range.end.line, problem.range.end.character) == (line, column + len("minerl"))
    assert problem.message == "unknown resource `minerl`\ndid you mean `mineral`?"
    assert problem.message in GUIDE.read_text(encoding="utf-8")  # as the guide shows it


def test_fixing_the_mistake_clears_the_diagnostics(editor: Editor, house: Path) -> None:
    """didChange with the word corrected (the file on disk still has the mistake)."""
    uri = editor.open(house, HOUSE)
    assert editor.diagnostics(uri)
    editor.change(uri, FIXED)
    assert editor.diagnostics(uri) == []


def test_a_mistake_in_an_unsaved_base_file_goes_on_the_base_file(
        editor: Editor, house: Path) -> None:
    """The base's text in the editor counts for the variant too; the variant's check puts the
    base's error on the base's URI, not the variant's. Closing the base's buffer (its saved
    text is sound) clears it."""
    variant = editor.open(house, FIXED)
    assert editor.diagnostics(variant) == []
    base = RULES_DIR / "trian_deluxe" / "actions.rules"
    saved = base.read_text(encoding="utf-8")
    broken = saved.replace("give 1 mineral to e.area", "give 1 minerl to e.area", 1)
    assert broken != saved
    base_uri = editor.open(base, broken)
    problems = editor.diagnostics(base_uri)
    assert [(p.code, p.range.start.line) for p in problems] == [
        ("unknown-name", where(broken, "minerl")[0]), ("type", where(broken, "minerl")[0])]
    assert "did you mean `mineral`?" in problems[0].message
    editor.forget(base_uri)
    editor.change(variant, FIXED + "\n")  # the variant checked again: base and all
    assert editor.diagnostics(variant) == []
    assert editor.diagnostics(base_uri) == problems
    editor.close(base_uri)
    assert editor.diagnostics(base_uri) == []


def test_an_inherited_example_the_variant_changes_is_reported_at_the_example(
        editor: Editor, house: Path) -> None:
    """The engine plays every worked example, as `rulebook check` does: research now pays 1,
    so the base's example that says 2 fails, on the base's file, with the advice."""
    examples = RULES_DIR / "trian_deluxe" / "examples_areas.rules"
    uri = from_fs_path(str(examples)) or ""
    editor.forget(uri)
    editor.open(house, FIXED + "\n")
    failed = {d.message.split(":")[0]: d for d in editor.diagnostics_with(uri, "example")}
    nebula_four = failed["example `nebula_four` disagrees with the engine"]
    assert nebula_four.range.start.line == where(examples.read_text(encoding="utf-8"),
                                                 "example nebula_four")[0]
    assert re.search(r"expected xemh to gain \+2 .*, but the change is \+1", nebula_four.message)
    assert "write `remove example nebula_four`" in nebula_four.message


# ------------------------------------------------------------------ hover ---

def test_hover_on_a_rule_id_shows_its_number_text_and_permalink(
        editor: Editor, house: Path) -> None:
    """The variant's own wording of the rule it replaced, under the base's number."""
    uri = editor.open(house, FIXED)
    assert editor.diagnostics(uri) == []
    line, column = where(FIXED, "actions.research")
    shown = editor.hover(uri, line, column + 3)
    assert shown is not None and isinstance(shown.contents, t.MarkupContent)
    number = compiled.ruleset("trian_deluxe").rule_index()["actions.research"].number
    text = shown.contents.value
    assert f"**rule** `actions.research` §{number} — Research" in text
    assert f"Score 1 [victory point]({site_url()}house-rules/glossary/#points" in text
    assert "/house-rules/actions/#actions-research" in text


def test_hover_on_a_term_shows_its_definition(editor: Editor, house: Path) -> None:
    uri = editor.open(house, FIXED)
    editor.diagnostics(uri)
    line, column = where(FIXED, "mineral]]")
    shown = editor.hover(uri, line, column + 2)
    assert shown is not None and isinstance(shown.contents, t.MarkupContent)
    assert shown.contents.value.startswith("**term** `mineral`")
    assert "/glossary/#mineral" in shown.contents.value


def test_hover_keeps_working_while_the_text_does_not_parse(editor: Editor, house: Path) -> None:
    """The last ruleset that compiled answers until the text compiles again."""
    uri = editor.open(house, FIXED)
    editor.diagnostics(uri)
    half_typed = FIXED.replace("give 1 points to me", "give 1 points to me {{")
    editor.change(uri, half_typed)
    [problem] = editor.diagnostics(uri)
    assert problem.code == "syntax"
    line, column = where(half_typed, "areas.points.space")
    shown = editor.hover(uri, line, column + 1)
    assert shown is not None and isinstance(shown.contents, t.MarkupContent)
    assert "**rule** `areas.points.space`" in shown.contents.value


# ------------------------------------------------------------- definition ---

def test_go_to_definition_of_a_base_rule_opens_the_base_file_at_its_line(
        editor: Editor, house: Path) -> None:
    uri = editor.open(house, FIXED)
    editor.diagnostics(uri)
    line, column = where(FIXED, "areas.points.space")
    [found] = editor.definition(uri, line, column + 8)
    areas = RULES_DIR / "trian_deluxe" / "areas.rules"
    assert found.uri == from_fs_path(str(areas))
    declared = areas.read_text(encoding="utf-8").split("\n")[found.range.start.line]
    assert declared.strip().startswith('rule areas.points.space "Outer space')


def test_go_to_definition_of_the_variants_own_rule_stays_in_the_variant(
        editor: Editor, house: Path) -> None:
    uri = editor.open(house, FIXED)
    editor.diagnostics(uri)
    line, column = where(FIXED, "actions.research")
    [found] = editor.definition(uri, line, column)
    assert found.uri == uri
    assert found.range.start.line == line


# ------------------------------------------------------------- completion ---

def test_completion_offers_declared_ids_with_their_kind_and_the_grammars_keywords(
        editor: Editor, house: Path) -> None:
    uri = editor.open(house, FIXED)
    editor.diagnostics(uri)
    offered = {item.label: item for item in editor.completion(uri, 12, 8).items}
    assert offered["areas.points.space"].detail == "rule"
    assert offered["mineral"].detail == "resource, term"
    assert offered["research"].detail == "action"
    assert offered["forbid"].kind == t.CompletionItemKind.Keyword
    assert offered["bool"].detail == "type"


def test_completion_inside_a_prose_reference_offers_what_prose_may_link_to(
        editor: Editor, house: Path) -> None:
    """After `[[`: terms by id, rules and the rest as `kind:id`; no keywords."""
    uri = editor.open(house, FIXED)
    editor.diagnostics(uri)
    line, column = where(FIXED, "[[pool]]")
    offered = {item.label: item for item in editor.completion(uri, line, column + 2).items}
    assert offered["mineral"].detail == "term"
    assert offered["rule:areas.points.space"].detail == "rule"
    assert offered["chapter:actions"].detail == "chapter"
    assert "forbid" not in offered and "areas.points.space" not in offered


# ---------------------------------------------------------------- failures ---

def test_a_failing_request_is_logged_and_the_server_goes_on(
        editor: Editor, house: Path, tmp_path: Path) -> None:
    """A "file" the server cannot read (a folder named like one): no traceback in the
    answer, one line in the editor's log, and the next request is answered."""
    odd = tmp_path / "odd.rules"
    odd.mkdir()
    shutil.copy(house, tmp_path / "house.rules")
    before = len(editor.logged)
    assert editor.hover(from_fs_path(str(odd)) or "", 0, 0) is None
    assert any("hover" in line and "failed" in line for line in editor.logged[before:])
    uri = editor.open(house, FIXED)
    editor.diagnostics(uri)
    line, column = where(FIXED, "actions.research")
    assert editor.hover(uri, line, column) is not None
