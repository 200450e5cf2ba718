"""A malformed command line gets an answer in words and an exit code, never a traceback.

Cases are command lines put together from the commands and their options,
with values a user might mistype: a ruleset that does not exist, a file name
longer than the system allows, a folder where a file is wanted, a file where
a folder is wanted, a record given as a position, a file that is not UTF-8,
`--players 0`, `--games -1`, a seed of 5,000 digits. Within the time and
memory bounds, every one of them ends with exit code 0, 1 or 2 and says
something; a failure says what went wrong without a Python detail.

Nothing is written outside a temporary folder: `new-variant` is always given
`--folder` there, `play --save` too, and `build` and `serve` are not run.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from compiler.cli import app
from compiler.engine.formats import from_state
from compiler.engine.records import write_record
from compiler.load import RULES_DIR
from tests.fuzzing import GROUP, budget, bounded, plain, played, positions

pytestmark = GROUP

runner = CliRunner()
HUGE = "9" * 5000


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of inputs, good and bad, for the command lines to name."""
    root = tmp_path_factory.mktemp("cli")
    history = played("trian_deluxe", 3, 40)
    pos = positions("trian_deluxe", 3, 40)[-1]
    (root / "pos.json").write_text(from_state(pos.rules, pos.state).model_dump_json())
    (root / "game.record").write_text(write_record(history))
    (root / "empty.json").write_text("")
    (root / "latin1.json").write_bytes(b'{"ruleset": "trian_deluxe", "x": "\xe9"}')
    (root / "latin1.record").write_bytes(b'[Ruleset "trian_deluxe"]\n[Players "\xe9"]\n')
    (root / "huge.json").write_text('{"ruleset": "trian_deluxe", "players": [], "turn": {"number": '
                                    + HUGE + ', "player": "xemh", "step": "tile"}}')
    (root / "huge.record").write_text(f'[Ruleset "trian_deluxe"]\n[Players "quuylto xemh"]\n'
                                      f'[Seed "{HUGE}"]\n{HUGE}. research\n')
    (root / "pos_as.record").write_text((root / "pos.json").read_text())
    (root / "record_as.json").write_text((root / "game.record").read_text())
    (root / "afolder").mkdir()
    (root / "afolder" / "x.rules").write_text('chapter c "C" { text "no header" }\n')
    (root / "nothing").mkdir()
    (root / "afile").write_text("not a folder\n")
    return root


def files(root: Path) -> list[str]:
    return [str(root / n) for n in ("pos.json", "game.record", "empty.json", "latin1.json",
                                    "latin1.record", "huge.json", "huge.record",
                                    "pos_as.record", "record_as.json", "afolder", "nothing",
                                    "afile", "missing.json")] + \
        ["-", "", str(root / ("x" * 300 + ".json")), "/", str(RULES_DIR / "trian_deluxe")]


RULESETS = ["trian_deluxe", "trian_teams_3v3", "trian_new_order", "nosuch", "", "x" * 300,
            "trian_delux", "rules", str(RULES_DIR / "trian_deluxe" / "actions.rules")]
NUMBERS = ["0", "-1", "1", "2", "3", "7", "x", "", HUGE, "1e3", "²", "99999999999999999999"]
MOVES = ["research", "pass", "", ";", HUGE, "emissary 0,0:planet", "t01 a at 0,0 r0", "!",
         "\u2028", "research ! 3"]
STDIN = ["", "{", '{"ruleset": "trian_deluxe"}', "[Ruleset", "\x00", HUGE]


@st.composite
def command_lines(draw: st.DrawFn, root: Path) -> tuple[list[str], str]:
    """A command line of `rulebook` with arguments a user might get wrong, and what stdin holds."""
    path = st.sampled_from(files(root))
    ruleset = st.sampled_from(RULESETS)
    number = st.sampled_from(NUMBERS)
    small = st.sampled_from(["0", "-1", "1", "x", HUGE])
    command = draw(st.sampled_from(["check", "compile", "moves", "adjudicate", "replay", "play",
                                    "bench", "diff", "new-variant", "schema", "nosuch", ""]))
    args: list[str] = [command] if command else []
    if command == "check":
        args += draw(st.lists(st.sampled_from(files(root)[9:] + [str(root / "afolder" / "x.rules")]),
                              max_size=2)) + ["--no-examples"]
    elif command == "compile":
        args += [draw(ruleset)] + draw(st.sampled_from([[], ["--json"]]))
    elif command in ("moves", "adjudicate", "replay"):
        args += [draw(ruleset), draw(path)]
        if command == "adjudicate":
            args.append(draw(st.sampled_from(MOVES)))
        if command == "replay" and draw(st.booleans()):
            args += ["--upto", draw(number)]
        if draw(st.booleans()):
            args.append("--json")
    elif command == "play":
        args += [draw(ruleset), "--players", draw(number), "--seed", draw(number),
                 "--games", draw(small)]
        if draw(st.booleans()):
            args += ["--save", draw(st.sampled_from([str(root / "afile"), str(root / "saved"),
                                                     str(root / ("y" * 300))]))]
        if draw(st.booleans()):
            args += ["--seats", draw(st.sampled_from(["xemh,quuylto", "", ",,,", "nosuch,x",
                                                      "xemh,xemh"]))]
    elif command == "bench":
        args += [draw(ruleset), "--games", draw(small)]
        if draw(st.booleans()):
            args += ["--players", draw(number)]
    elif command == "diff":
        args += [draw(ruleset), draw(ruleset)]
    elif command == "new-variant":
        args += [draw(st.sampled_from(["house", "House!", "", "x" * 300, "trian_deluxe"])),
                 "--extends", draw(ruleset), "--folder",
                 draw(st.sampled_from([str(root / "afile"), str(root / "new"),
                                       str(root / "nothing"), str(root / ("z" * 300))]))]
    if draw(st.integers(0, 5)) == 0:  # now and then, an option nobody knows
        args.insert(draw(st.integers(0, len(args))), draw(st.sampled_from(["--nope", "-x", "--"])))
    return args, draw(st.sampled_from(STDIN))


@pytest.fixture
def quick_rulesets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each ruleset compiled once: what is tried here is the command line, not the compiler."""
    from compiler import load
    real = load.load_ruleset

    @functools.lru_cache(maxsize=None)
    def remembered(name: str) -> Any:
        return real(name)

    def load_ruleset(name: Any) -> Any:
        return remembered(str(name))
    monkeypatch.setattr(load, "load_ruleset", load_ruleset)


def answers_in_words(args: list[str], stdin: str = "") -> None:
    """Run `rulebook ARGS`: an exit code of 0, 1 or 2, something said, and no traceback."""
    with bounded():
        result = runner.invoke(app, args, input=stdin)
    said = result.output
    shown = f"rulebook {' '.join(a[:60] for a in args)}\n{said[-2000:]}"
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{shown}\nraised {type(result.exception).__name__}") \
            from result.exception
    assert result.exit_code in (0, 1, 2), f"exit code {result.exit_code}: {shown}"
    assert said.strip(), f"exit code {result.exit_code} and not a word said: {shown}"
    if result.exit_code != 0:
        plain(said)


@budget(40)
@given(data=st.data())
def test_a_malformed_command_line_is_answered_in_words(place: Path, quick_rulesets: None,
                                                       data: st.DataObject) -> None:
    args, stdin = data.draw(command_lines(place))
    answers_in_words(args, stdin)


@pytest.mark.parametrize("args", [
    pytest.param(["bench", "nosuch"], id="bench of no ruleset"),
    pytest.param(["play", "trian_deluxe", "--players", "0"], id="no players"),
    pytest.param(["play", "trian_deluxe", "--games", "0"], id="no games"),
    pytest.param(["replay", "trian_deluxe", "GAME", "--upto", "-1"], id="up to turn -1"),
    pytest.param(["moves", "trian_deluxe", "x" * 300 + ".json"], id="a file name of 300 bytes"),
    pytest.param(["check", "x" * 300 + ".rules"], id="a rules file name of 300 bytes"),
    pytest.param(["compile", "x" * 300], id="a ruleset name of 300 bytes"),
    pytest.param(["moves", "trian_deluxe", "FOLDER"], id="a folder given as a position"),
    pytest.param(["moves", "trian_deluxe", "LATIN1"], id="a position file that is not UTF-8"),
    pytest.param(["replay", "trian_deluxe", "POSITION"], id="a position given as a record"),
])
def test_a_known_bad_command_line_is_answered_in_words(place: Path, quick_rulesets: None,
                                                       args: list[str]) -> None:
    named = {"GAME": place / "game.record", "FOLDER": place / "afolder",
             "LATIN1": place / "latin1.json", "POSITION": place / "pos.json"}
    answers_in_words([str(named.get(a, a)) for a in args])
