"""A ruleset's version history: `changelog.toml` beside its rules files.

A group that learned the rules from an older printing, or a judge comparing a ruling with
last year's, needs to know what changed between versions of a book, and where. Each
ruleset folder may keep a changelog, newest version first:

    [[version]]
    number = "1.1"
    date = 2026-12-01
    summary = "Ships can no longer fly through a gas cloud."

    [[version.change]]
    text = "A ship's flight stops at a gas cloud."
    rules = ["ships.flight"]
    rulings = ["cloud_flight"]

It is data, not rules, so it is TOML read into pydantic models; what it names is checked
against the compiled ruleset when the ruleset loads, so `rulebook check` and the build
report a mistake with its line and a "did you mean".
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from compiler.diagnostics import Diagnostic, did_you_mean
from compiler.ir import model as m

FILE = "changelog.toml"


class Changelog(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: list[m.VersionNote] = Field(min_length=1)


def read_changelog(folder: Path, rs: m.Ruleset, shown: str
                   ) -> tuple[list[m.VersionNote], list[Diagnostic]]:
    """The versions in `folder`'s changelog, newest first, checked against `rs`; or none
    and the problems, each with its line in the file (`shown` is the name to print)."""
    path = folder / FILE
    if not path.is_file():
        return [], []
    text = path.read_text(encoding="utf-8")
    problems: list[Diagnostic] = []

    def problem(message: str, near: str | None = None, hint: str | None = None) -> None:
        line = _line_of(text, near) if near else 0
        problems.append(Diagnostic(file=shown, line=line, column=1 if line else 0,
                                   code="changelog", message=message, hint=hint,
                                   source_line=text.splitlines()[line - 1] if line else None))

    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        where = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        line = int(where.group(1)) if where else 0
        said = re.sub(r" [(]at line.*", "", str(e))
        if "Illegal character '\\n'" in said or "Unterminated string" in said:
            said = "a quoted text is not closed before the end of the line"
        problems.append(Diagnostic(
            file=shown, line=line, column=int(where.group(2)) if where else 0, code="changelog",
            message=f"this is not TOML: {said}",
            source_line=text.splitlines()[line - 1] if 0 < line <= len(text.splitlines()) else None))
        return [], problems
    try:
        log = Changelog.model_validate(raw)
    except ValidationError as e:
        for err in e.errors():
            problem(_said(err), near=_key_of(err))
        return [], problems
    versions = log.version
    if versions[0].number != rs.version:
        problem(f"the newest version here is {versions[0].number}, but the ruleset says "
                f"`version \"{rs.version}\"`", near=f'"{versions[0].number}"',
                hint="list the newest version first, and keep it the same as the ruleset "
                     "header's `version`")
    seen: set[str] = set()
    for newer, older in zip(versions, versions[1:]):
        if newer.date < older.date:
            problem(f"version {newer.number} ({newer.date}) is listed before version "
                    f"{older.number} ({older.date}), which is newer",
                    near=f'"{newer.number}"', hint="list versions newest first")
    rule_ids = {r.id for r in rs.all_rules()}
    ruling_ids = {r.id for r in rs.rulings}
    for v in versions:
        if v.number in seen:
            problem(f"version {v.number} is listed twice", near=f'"{v.number}"')
        seen.add(v.number)
        for c in v.change:
            for rid in c.rules:
                if rid not in rule_ids:
                    problem(f"version {v.number} names rule `{rid}`, which this ruleset does "
                            f"not have", near=f'"{rid}"', hint=did_you_mean(rid, rule_ids))
            for rid in c.rulings:
                if rid not in ruling_ids:
                    problem(f"version {v.number} names ruling `{rid}`, which this ruleset "
                            f"does not have", near=f'"{rid}"', hint=did_you_mean(rid, ruling_ids))
    return (versions if not problems else []), problems


def _said(err: dict) -> str:
    """A pydantic error about the changelog, in words, with where it is."""
    where = []
    for part in err["loc"]:
        if isinstance(part, int):
            where[-1] = f"{where[-1]} {part + 1}" if where else str(part + 1)
        else:
            where.append({"version": "version", "change": "change"}.get(part, f"`{part}`"))
    place = ", ".join(where) or "the file"
    if err["type"] == "extra_forbidden":
        key = err["loc"][-1]
        close = did_you_mean(str(key), [*Changelog.model_fields, *m.VersionNote.model_fields,
                                        *m.VersionChange.model_fields])
        return f"{place}: unknown key `{key}`" + (f"; {close}" if close else "")
    if err["type"] == "missing":
        return f"{place}: missing; every version needs a `number` and a `date`, every change a `text`"
    if err["type"].startswith("date"):
        return f"{place}: write a date as 2026-12-01"
    if err["type"] == "too_short":
        return "the file lists no `[[version]]`"
    return f"{place}: {err['msg'].lower()}"


def _key_of(err: dict) -> str | None:
    last = next((p for p in reversed(err["loc"]) if isinstance(p, str)), None)
    return f"{last} =" if last and last not in ("version", "change") else None


def _line_of(text: str, needle: str) -> int:
    for i, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return i
    return 0
