"""What `rulebook check` finds by playing the rules: two actions written alike, and worked
examples the engine disagrees with.

The compiler's checks (compiler.load) read the rules; these compile the engine and run it.
Each finding is a `Diagnostic` at the declaration or the example it is about, for every
reader that wants them as such: the language server, and the error codes' pages. (`rulebook
check` prints the same failures grouped across the rulesets that share an example.)
"""

from __future__ import annotations

from compiler.diagnostics import Diagnostic
from compiler.ir import model as m


def played_problems(ruleset: m.Ruleset) -> list[Diagnostic]:
    """Notations two actions share, then each worked example that fails, with its failures."""
    from compiler.engine.notation import notation_clashes
    from compiler.engine.position import Rules
    from compiler.engine.scenario import run_example
    from compiler.variants import inherited_example_hint
    rules = Rules(ruleset)
    out: list[Diagnostic] = list(notation_clashes(rules.game))
    fallback = ruleset.loc.file if ruleset.loc else "<ruleset>"
    for ex in ruleset.examples:
        result = run_example(rules, ex)
        if result.ok:
            continue
        loc = ex.loc
        out.append(Diagnostic(
            file=loc.file if loc else fallback, line=loc.line if loc else 0,
            column=loc.column if loc else 0, code="example",
            message=f"example `{ex.id}` disagrees with the engine: " + "; ".join(result.failures),
            hint=inherited_example_hint(ruleset, ex.id)))
    return out
