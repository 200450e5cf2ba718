"""The tutorial "Writing your own variant" tells the truth.

Its rules text is quoted from the tutorial variant by the build; what it
says the tools print is checked here, by doing what the tutorial does.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from typer.testing import CliRunner

from compiler.cli import app
from compiler.load import RULES_DIR

TUTORIAL = Path(__file__).parents[1] / "site" / "guides" / "variants.md"
runner = CliRunner()


def console_blocks() -> list[str]:
    return re.findall(r"```console\n(.*?)```", TUTORIAL.read_text(), re.S)


def test_every_quoted_section_exists_in_the_tutorial_variant() -> None:
    source = (RULES_DIR / "tutorial_deep_space" / "ruleset.rules").read_text()
    for name in re.findall(r'--8<-- "rules/tutorial_deep_space/ruleset.rules:(\w+)"',
                           TUTORIAL.read_text()):
        assert f"# --8<-- [start:{name}]" in source and f"# --8<-- [end:{name}]" in source


def test_the_scaffold_step_prints_what_the_tutorial_shows(tmp_path: Path) -> None:
    result = runner.invoke(app, ["new-variant", "deep_space", "--extends", "trian_deluxe",
                                 "--folder", str(tmp_path / "deep_space")])
    assert result.exit_code == 0
    assert "a variant of trian_deluxe." in console_blocks()[0]
    assert "a variant of trian_deluxe." in result.output


def test_a_misspelt_id_gets_the_error_the_tutorial_shows(tmp_path: Path) -> None:
    folder = tmp_path / "deep_space"
    shutil.copytree(RULES_DIR / "tutorial_deep_space", folder)
    path = folder / "ruleset.rules"
    path.write_text(path.read_text().replace("replace rule areas.points.space",
                                             "replace rule areas.points.spce"))
    result = runner.invoke(app, ["check", str(folder), "--no-examples"])
    assert result.exit_code == 1
    shown = next(b for b in console_blocks() if "areas.points.spce" in b)
    for phrase in ("error: cannot replace rule `areas.points.spce`: trian_deluxe has no such rule",
                   "hint: did you mean `areas.points.space`, `areas.points.system` or "
                   "`areas.points`?",
                   "                 ^^^^^^^^^^^^^^^^^"):
        assert phrase in shown and phrase in result.output


def test_an_inherited_example_that_now_disagrees_is_reported_as_the_tutorial_shows(
        tmp_path: Path) -> None:
    """At step 4 the variant has neither fixed nor removed the base's examples: `check`
    prints what the tutorial shows, and the three it only names fail too."""
    folder = tmp_path / "deep_space"
    shutil.copytree(RULES_DIR / "tutorial_deep_space", folder)
    path = folder / "ruleset.rules"
    text = path.read_text()
    for section in ("fix", "remove"):  # the steps the tutorial takes after this one
        start, end = f"# --8<-- [start:{section}]", f"# --8<-- [end:{section}]"
        text = text[:text.index(start)] + text[text.index(end):]
    path.write_text(text.replace("ruleset tutorial_deep_space", "ruleset deep_space"))
    result = runner.invoke(app, ["check", str(folder)])
    assert result.exit_code == 1
    shown = next(b for b in console_blocks() if "nebula_four" in b)
    printed = " ".join(result.output.split())  # as one line: a narrow terminal wraps hints
    for line in shown.splitlines()[1:]:
        if line.strip() != "…":
            assert " ".join(line.split("error:")[-1].split()) in printed
    named = re.search(r"Three more follow, (.*?), said the same way",
                      TUTORIAL.read_text()).group(1)
    for example in re.findall(r"`(\w+)`", named):
        assert f"example `{example}` disagrees with the engine" in result.output
