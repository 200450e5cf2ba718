"""The page of a book's versions: what changed in its rules from one version to the next.

Written from the ruleset's changelog (compiler/changelog.py): each version with its date
and summary, and each change linked to the rules and rulings it touched, so a reader who
learned an older version finds exactly what to read again.
"""

from __future__ import annotations

from compiler.ir import model as m
from compiler.rulebook.links import Index

PAGE = "versions.md"
TITLE = "Versions of these rules"


def history_lines(rs: m.Ruleset, ix: Index) -> list[str]:
    lines = [f"# {TITLE}", "",
             f"This book is version {rs.version} of its rules. Each version below says what "
             f"changed from the one before, and links the rules and rulings it touched.", ""]
    for v in rs.history:
        lines += [f"## Version {v.number} {{ #version-{v.number.replace('.', '-')} }}", "",
                  f"*{v.date.isoformat()}*", ""]
        if v.summary:
            lines += [ix.prose(v.summary), ""]
        for c in v.change:
            touched = [ix.rule_link(r, f"§{ix.rules[r].number} {ix.rules[r].title}")
                       for r in c.rules]
            touched += [ix.ruling_link(r, f"ruling {ix.rulings[r].number} {ix.rulings[r].title}")
                        for r in c.rulings]
            lines.append(f"- {ix.prose(c.text)}" + (f" ({'; '.join(touched)})" if touched else ""))
        lines.append("")
    return lines
