"""An author checking one variant builds its book and the books it builds on, not every
ruleset, from wherever they run the command."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compiler.cli import app
from compiler.rulebook.build import ONLY_VARIABLE, build_site

# Every build writes the book's pages into the one docs folder (site/): one at a time.
pytestmark = pytest.mark.xdist_group("rulebook")


def test_only_one_variant_and_its_base_are_built(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ONLY_VARIABLE, "trian_family")
    monkeypatch.chdir(tmp_path)  # the guides' quotes of rules files are found from anywhere
    site = build_site(strict=True, site_dir=tmp_path / "site")
    books = sorted(p.parent.name for p in site.glob("*/offline.json"))
    assert books == ["trian-deluxe", "trian-family"]
    assert (site / "trian-family" / "changes" / "index.html").is_file()


def test_a_misspelt_ruleset_is_named_with_the_ones_meant() -> None:
    result = CliRunner().invoke(app, ["build", "--only", "trian_famly"])
    assert ONLY_VARIABLE not in os.environ  # the next build is a whole one
    assert result.exit_code == 1
    assert "no ruleset `trian_famly`" in result.output and "trian_family" in result.output
    assert "Traceback" not in result.output
