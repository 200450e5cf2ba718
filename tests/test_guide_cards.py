"""The guide "Cards, zones and hidden information" quotes real rules, and its commands print
what it shows.

Each rules snippet names its file (```` ```rules title="PATH" ````); the snippet must still
stand in that file, line for line (indentation aside), where `# …` marks lines left out, and
the file must parse. The rulesets quoted are compiled and their examples played by their own
tests, so a snippet found here is one that works. The console blocks are run.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from compiler.cli import app
from compiler.parse import parse_rules

ROOT = Path(__file__).parents[1]
GUIDE = ROOT / "site" / "guides" / "cards-and-zones.md"
ELIDED = "# …"
runner = CliRunner()


def snippets() -> list[tuple[str, str]]:
    """(the file a snippet names, the snippet's text), in the guide's order."""
    return re.findall(r'```rules title="([^"]+)"\n(.*?)```', GUIDE.read_text(), re.S)


def consoles() -> list[str]:
    return re.findall(r"```console\n(.*?)```", GUIDE.read_text(), re.S)


def test_every_rules_block_of_the_guide_names_its_file() -> None:
    blocks = re.findall(r"```rules(.*)\n", GUIDE.read_text())
    assert blocks and all(b.startswith(' title="') for b in blocks)
    assert len(snippets()) == len(blocks)


def _runs(text: str) -> list[list[str]]:
    """The snippet's runs of lines between the `# …` marks, each line stripped."""
    runs: list[list[str]] = [[]]
    for line in text.strip("\n").splitlines():
        if line.strip() == ELIDED:
            runs.append([])
        elif line.strip():
            runs[-1].append(line.strip())
    return [r for r in runs if r]


@pytest.mark.parametrize("where,text", snippets(),
                         ids=[f"{i}-{Path(w).name}" for i, (w, _) in enumerate(snippets())])
def test_a_snippet_stands_in_the_file_it_names(where: str, text: str) -> None:
    source = (ROOT / where).read_text()
    assert parse_rules(source, where)
    lines = [line.strip() for line in source.splitlines()]
    start = 0
    for run in _runs(text):
        found = next((i for i in range(start, len(lines) - len(run) + 1)
                      if lines[i:i + len(run)] == run), None)
        assert found is not None, f"not in {where} (after line {start}):\n" + "\n".join(run)
        start = found + len(run)


def _position(tmp_path: Path) -> None:
    """A table from the middle of a random game of Among the Stars, as `position.json`."""
    played = runner.invoke(app, ["play", "among_the_stars", "--players", "3", "--seed", "2"])
    (tmp_path / "game.record").write_text(played.output)
    replayed = runner.invoke(app, ["replay", "among_the_stars", str(tmp_path / "game.record"),
                                   "--upto", "3", "--json"])
    assert replayed.exit_code == 0, replayed.output
    (tmp_path / "position.json").write_text(replayed.output)


def test_each_console_block_prints_what_the_guide_shows(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    _position(tmp_path)
    monkeypatch.chdir(tmp_path)
    blocks = consoles()
    assert len(blocks) >= 3
    for block in blocks:
        command, *shown = block.strip("\n").splitlines()
        args = shlex.split(command.removeprefix("$ "))
        assert args[0] == "rulebook"
        args = [str(ROOT / a) if a.startswith("tests/") else a for a in args[1:]]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        assert result.output.strip("\n").splitlines() == shown
