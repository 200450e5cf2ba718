"""Each error code of `rulebook check` has a page: a mistake that earns the code, with the
message the checker really gives, and the same lines put right, which compile cleanly."""

from __future__ import annotations

import pytest

from compiler.rulebook.error_codes import compiled, error_codes, pages

CODES = error_codes()


@pytest.mark.parametrize("code", [c for c in CODES if c.shown], ids=lambda c: c.code)
def test_the_mistake_earns_its_code_and_the_correction_compiles_cleanly(code) -> None:
    assert code.code in {d.code for d in compiled(code.wrong, code.context)}
    assert compiled(code.right, code.context) == ()


def test_each_page_shows_the_checkers_own_words() -> None:
    written = pages(CODES)
    page = written["errors/unknown-name.md"]
    assert "error: unknown resource `pionts` [unknown-name]" in page
    assert "hint: did you mean `points`?" in page
    assert "/tmp" not in page  # the place is the example's file, not a temporary folder
    index = written["errors/index.md"]
    assert all(f"[`{c.code}`]({c.code}.md)" in index for c in CODES)


def test_every_code_check_or_the_editor_can_give_has_a_page() -> None:
    """The codes are read from the compiler's source, where each message is made: the
    checker, the parser, the loader and variants, what check plays, the language server."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "compiler"
    sources = [*root.joinpath("check").glob("*.py"), *root.joinpath("parse").glob("*.py"),
               *root.joinpath("lsp").glob("*.py"),
               *(root / f for f in ("load.py", "variants.py", "alongside.py", "diagnostics.py",
                                    "changelog.py", "played.py", "engine/notation.py"))]
    given: set[str] = set()
    for path in sources:
        text = path.read_text(encoding="utf-8")
        given |= set(re.findall(r'Diagnostic\((?:[^()]|\([^()]*\))*?code="([a-z-]+)"', text, re.S))
        given |= set(re.findall(r'(?:report|_error|diagnostic)\(\s*[^,()]+(?:\([^()]*\))?,\s*'
                                r'"([a-z-]+)"', text))
    assert "unknown-name" in given and "order" in given  # the scan finds them
    assert given <= {c.code for c in CODES}, sorted(given - {c.code for c in CODES})
