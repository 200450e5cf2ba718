"""Moves of actions a ruleset does not have, recognised from the rulesets around it.

A variant may remove an action of the game it is made from (a family
variant without towers), and a ruleset built on this one may add actions it
lacks (an expansion's ships). A judge asked about such a
move should hear that, not that the text cannot be read:

- found in a ruleset this one is made from (along `extends`): the move is
  ILLEGAL, and the ruling cites what took it away: the rule of this ruleset
  that replaced the one holding the action, or the variant's "What changes"
  page where its removal is listed;
- found only in a ruleset made from this one: it is not a move of this game
  (UNREADABLE), and the message names the ruleset whose move it is.

Rulesets are loaded only when a move cannot be read, once per process, and
only those whose files mention the move's first word at all (a notation or
an action id must contain it), so a typo costs no loading.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from compiler import links
from compiler.diagnostics import CompileError
from compiler.engine.ruling import Breach, RuleCitation

if TYPE_CHECKING:
    from compiler.engine.actions import CompiledAction
    from compiler.engine.position import Rules
    from compiler.ir import model as m

_loaded: dict[str, Rules | None] = {}


def _named(name: str) -> Rules | None:
    """The ruleset `name` under rules/, compiled for play (None if it does not load)."""
    if name not in _loaded:
        from compiler.engine.position import Rules
        from compiler.load import load_ruleset
        try:
            _loaded[name] = Rules(load_ruleset(name))
        except (CompileError, OSError, ValueError):
            _loaded[name] = None
    return _loaded[name]


_texts: dict[str, str] = {}


def _mentions(name: str, word: str) -> bool:
    """Whether any file of the ruleset folder `name` has `word` as a whole word."""
    from compiler.load import ruleset_dirs
    if name not in _texts:
        folder = ruleset_dirs().get(name)
        try:
            _texts[name] = "\n".join(f.read_text(encoding="utf-8", errors="replace")
                                     for f in sorted(folder.glob("*.rules"))) if folder else ""
        except OSError:
            _texts[name] = ""
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])",
                     _texts[name]) is not None


_extends: dict[str, str | None] = {}


def _base_of(name: str) -> str | None:
    """The ruleset that ruleset folder `name` extends, read from its header alone."""
    if name not in _extends:
        from compiler.ir import model as m
        from compiler.load import ruleset_dirs
        from compiler.parse import parse_rules
        _extends[name] = None
        folder = ruleset_dirs().get(name)
        for f in sorted(folder.glob("*.rules")) if folder else []:
            try:
                text = f.read_text(encoding="utf-8")
                if re.search(r"^\s*ruleset\s", text, re.M):
                    header = next(i for i in parse_rules(text, str(f)) if isinstance(i, m.Ruleset))
                    _extends[name] = header.extends
                    break
            except (CompileError, OSError, UnicodeDecodeError, StopIteration):
                continue
    return _extends[name]


def _label(rs: m.Ruleset) -> str:
    return f"{rs.subtitle or rs.title or rs.id} (`{rs.id}`)"


def _reads(rules: Rules, text: str, lacking: Rules) -> CompiledAction | None:
    """The first action of `rules` whose notation reads `text` and that `lacking` does not have."""
    for aid, rx in rules.notation.regexes.items():
        if aid not in lacking.game.actions and rx.fullmatch(text):
            return rules.game.actions[aid]
    return None


def absent_action(rules: Rules, text: str) -> tuple[str, Breach] | None:
    """(verdict, breach) for a move of an action `rules` does not have, or None."""
    text = " ".join(text.partition("!")[0].split())
    if not text:
        return None
    word = text.split()[0]
    from compiler.engine.notation import template
    if any(template(a).split()[0] == word for a in rules.game.actions.values()):
        return None  # a move of this ruleset, mistyped: its own message says more
    from compiler.load import ruleset_dirs
    if not any(_mentions(name, word) for name in ruleset_dirs()):
        return None
    child = rules.ruleset
    seen = {child.id}
    while child.extends and child.extends not in seen:
        seen.add(child.extends)
        base = _named(child.extends)
        if base is None:
            break
        action = _reads(base, text, rules)
        if action is not None:
            return "ILLEGAL", _removed(rules, child, base, action)
        child = base.ruleset
    for other in _built_on(rules.ruleset.id, word):
        action = _reads(other, text, rules)
        if action is not None:
            return "UNREADABLE", Breach(
                rule=None, code="notation",
                message=f"`{text}` is a move of {_label(other.ruleset)}: "
                        f"“{action.decl.title}”, written `{other.notation.shape(action)}`. "
                        f"{_label(rules.ruleset)} has no such action")
    return None


def _built_on(ruleset_id: str, word: str) -> list[Rules]:
    """The rulesets under rules/ made from `ruleset_id` that mention `word`, nearest first."""
    from compiler.load import ruleset_dirs
    found: list[tuple[int, str]] = []
    for name in ruleset_dirs():
        if name == ruleset_id or not _mentions(name, word):
            continue
        depth, at, seen = 0, name, {name}
        while (up := _base_of(at)) is not None and up not in seen:
            depth += 1
            if up == ruleset_id:
                found.append((depth, name))
                break
            seen.add(up)
            at = up
    return [r for _, name in sorted(found) if (r := _named(name)) is not None]


def _ancestors(rules: Rules, rule_id: str) -> list[str]:
    """The rule, the rules it sits in, and its chapter: anything removing one removes it."""
    parent: dict[str, str] = {}
    for ch in rules.ruleset.chapters:
        stack = [(r, ch.id) for r in ch.rules]
        while stack:
            r, above = stack.pop()
            parent[r.id] = above
            stack.extend((sub, r.id) for sub in r.rules)
    out = [rule_id]
    while out[-1] in parent:
        out.append(parent[out[-1]])
    return out


def _removed(rules: Rules, child: m.Ruleset, base: Rules, action: CompiledAction) -> Breach:
    """The breach for an action `base` has and `child` (this ruleset or one it is made from)
    took away, citing what took it away."""
    here = _label(rules.ruleset)
    said = f"“{action.decl.title}” (`{base.notation.shape(action)}`) is not part of {here}"
    ids = _ancestors(base, action.rule) if action.rule else []
    change = next((c for i in ids for c in child.changes
                   if c.id == i and c.op in ("removed", "replaced")), None)
    if change is None:
        return Breach(rule=None, code="unavailable",
                      message=f"{said}: it is an action of {_label(base.ruleset)}")
    old = base.cite(change.id)
    what = f"rule {old.number} “{old.title}”" if old else f"`{change.id}`"
    who = "this variant" if child.id == rules.ruleset.id else _label(child)
    verb = "removes" if change.op == "removed" else "replaces"
    message = f"{said}: {who} {verb} {what} of {_label(base.ruleset)}"
    here_now = rules.cite(change.id) if change.op == "replaced" else None
    if here_now is not None:  # the replacing rule is in this rulebook: cite it
        return Breach(rule=here_now, code="unavailable",
                      message=message + ", and the new rule has no such action")
    url = links.site_url() + links.page(child.id, "changes") + "#" + change.op
    where = "here" if child.id == rules.ruleset.id else f"by {child.id}"
    cite = RuleCitation(id=change.id, number=old.number if old else "",
                        title=f"{old.title if old else change.id} (in {base.ruleset.id}; "
                              f"{change.op} {where})", url=url)
    return Breach(rule=cite, code="unavailable", message=message)


__all__ = ["absent_action"]
