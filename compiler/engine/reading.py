"""Reading a position file: one home for the CLI and the judge's API.

Both take untrusted JSON and must refuse it the same way, with every problem
and its JSON path; this module turns the text into a settled Position or
raises PositionFileError, whose str() is the message the CLI prints.
"""
from __future__ import annotations

from typing import Any

from compiler.engine.position import Position, Rules

MAX_SHOWN = 20  # problems listed before "… and N more"


class PositionFileError(ValueError):
    """A position that cannot be read or be on a table: a headline and its problems.

    `problems` are (JSON path, message) pairs; `more` counts those left unlisted."""

    def __init__(self, headline: str, problems: list[tuple[str, str]] | None = None,
                 more: int = 0) -> None:
        self.headline = headline
        self.problems = problems or []
        self.more = more
        lines = [headline] + [f"  {p}: {m}" for p, m in self.problems]
        if more:
            lines.append(f"  … and {more} more")
        super().__init__("\n".join(lines))


def json_path(loc: tuple[Any, ...]) -> str:
    """A pydantic location as the JSON path position errors use: players[0].seat."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(the whole file)"


def read_position(rules: Rules, data: str | dict[str, Any], name: str) -> Position:
    """The position a position file (its text, or already-parsed JSON) describes, moved on to
    its first real decision; PositionFileError if it is not one a table could have."""
    from pydantic import ValidationError

    from compiler.engine.evaluate import ChanceError
    from compiler.engine.formats import PositionError, PositionModel, position_from_model
    from compiler.engine.scenario import settled
    try:
        if isinstance(data, str):
            model = PositionModel.model_validate_json(data.removeprefix("\ufeff"))
        else:
            model = PositionModel.model_validate(data)
        return settled(position_from_model(rules, model))
    except ValidationError as e:
        errors = e.errors()
        raise PositionFileError(
            f"{name}: not a valid position file (its schema: rulebook schema):",
            [(json_path(p["loc"]), p["msg"]) for p in errors[:MAX_SHOWN]],
            max(0, len(errors) - MAX_SHOWN)) from None
    except PositionError as e:
        raise PositionFileError(f"{name}: this position cannot be on a table:",
                                [(p, m) for p, m in e.problems]) from None
    except ChanceError as e:  # nobody has a decision, and what comes next is chance's
        raise PositionFileError(
            f"{name}: nobody has a decision here, and the game goes on by itself to where "
            f"chance decides, which a position file cannot say: {e}; give the position "
            f"before the move that leads here, and the outcome with that move") from None
