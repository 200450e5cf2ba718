"""The language reference's pages of error codes: one per code `rulebook check` gives.

The codes, what each means and a mistake beside its correction are data
(compiler/error_codes.toml). Each mistake is compiled when the book is built and its page
shows the message as the checker gives it, so the page cannot drift from the checker; a
mistake that no longer earns its code, or a correction that does not compile cleanly, stops
the build.
"""

from __future__ import annotations

import tempfile
from functools import lru_cache
import tomllib
from dataclasses import dataclass
from pathlib import Path

from compiler.diagnostics import CompileError, Diagnostic
from compiler.load import load_files
from compiler.played import played_problems
from compiler.rulebook.reference import Construct, wrap

CODES_FILE = Path(__file__).resolve().parents[1] / "error_codes.toml"
FOLDER = "errors"


@dataclass(frozen=True)
class ErrorCode:
    code: str
    title: str
    summary: str
    wrong: str = ""   # empty for a code no few lines in the small ruleset can earn (a file
    right: str = ""   # that is not UTF-8, a changelog): its page says when it is given
    context: str = "rule"

    @property
    def shown(self) -> bool:
        return bool(self.wrong)


def error_codes() -> list[ErrorCode]:
    with CODES_FILE.open("rb") as f:
        data = tomllib.load(f)
    return [ErrorCode(code=code, title=e["title"], summary=e["summary"].strip(),
                      wrong=e.get("wrong", "").strip("\n"), right=e.get("right", "").strip("\n"),
                      context=e.get("context", "rule")) for code, e in data.items()]


@lru_cache(maxsize=None)
def compiled(snippet: str, context: str) -> tuple[Diagnostic, ...]:
    """What the checker says of `snippet` set in the reference's small ruleset (kept: the
    build checks each mistake and then shows it)."""
    construct = Construct(name="error code", grammar_rule="rule", summary="", example=snippet,
                          context=context, group="Structure")  # type: ignore[arg-type]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "demo.rules"
        path.write_text(wrap(construct), encoding="utf-8")
        try:
            ruleset, _, found = load_files([path])
            found = found + played_problems(ruleset)  # as `rulebook check` plays it
        except CompileError as e:
            found = e.diagnostics
        return tuple(d.model_copy(update={"file": d.file.replace(str(path), "demo.rules"),
                                          "message": d.message.replace(str(path),
                                                                       "demo.rules")})
                     for d in found)


def problems(codes: list[ErrorCode]) -> list[str]:
    """Each code whose mistake no longer earns it, or whose correction is not clean."""
    out = []
    for c in (c for c in codes if c.shown):
        if not any(d.code == c.code for d in compiled(c.wrong, c.context)):
            out.append(f"{CODES_FILE.name} [{c.code}]: the wrong example no longer gets "
                       f"this code")
        if compiled(c.right, c.context):
            out.append(f"{CODES_FILE.name} [{c.code}]: the right example does not compile "
                       f"cleanly")
    return out


def pages(codes: list[ErrorCode]) -> dict[str, str]:
    """`errors/index.md` and one page per code, by their paths in the docs folder."""
    out = {f"{FOLDER}/index.md": "\n".join([
        "# Error codes", "",
        "Every message of `rulebook check` ends with its code in brackets, "
        "`[unknown-name]`. Each page says what the code means, shows a mistake that earns "
        "it, with the message exactly as the checker gives it, and the same lines put right.",
        "", "| Code | Means |", "|---|---|",
        *[f"| [`{c.code}`]({c.code}.md) | {c.title} |" for c in codes], ""])}
    for c in codes:
        if not c.shown:
            out[f"{FOLDER}/{c.code}.md"] = "\n".join([
                "---", f'title: "[{c.code}] {c.title}"', "---", "",
                f"# `{c.code}`: {c.title}", "", c.summary, ""])
            continue
        said = "\n".join(d.render() for d in compiled(c.wrong, c.context)
                         if d.code == c.code)
        out[f"{FOLDER}/{c.code}.md"] = "\n".join([
            "---", f'title: "[{c.code}] {c.title}"', "---", "",
            f"# `{c.code}`: {c.title}", "", c.summary, "",
            "## A mistake that earns it", "", "```rules", c.wrong, "```", "",
            "`rulebook check` says:", "", "```text", said, "```", "",
            "## Put right", "", "```rules", c.right, "```", "",
            "The lines stand " + {"rule": "inside a rule", "action": "inside an action",
                                  "chapter": "inside a chapter", "top": "at the top of a file"}
            .get(c.context, "inside a rule") + " of the small ruleset the "
            "[language reference](../language.md) compiles its examples in.", ""])
    return out
