"""Each error code of `rulebook check` has a page: a mistake that earns the code, with the
message the checker really gives, and the same lines put right, which compile cleanly."""

from __future__ import annotations

import pytest

from compiler.rulebook.error_codes import compiled, error_codes, pages

CODES = error_codes()


@pytest.mark.parametrize("code", CODES, ids=lambda c: c.code)
def test_the_mistake_earns_its_code_and_the_correction_compiles_cleanly(code) -> None:
    assert code.code in {d.code for d in compiled(code.wrong, code.context)}
    assert compiled(code.right, code.context) == []


def test_each_page_shows_the_checkers_own_words() -> None:
    written = pages(CODES)
    page = written["errors/unknown-name.md"]
    assert "error: unknown resource `pionts` [unknown-name]" in page
    assert "hint: did you mean `points`?" in page
    assert "/tmp" not in page  # the place is the example's file, not a temporary folder
    index = written["errors/index.md"]
    assert all(f"[`{c.code}`]({c.code}.md)" in index for c in CODES)
