"""MathML rendering of the rules' formulas, on the real ruleset and on hand-built nodes."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

from compiler.ir import model as m
from compiler.ir import nodes as n
from compiler.ir.english import Vocabulary
from compiler.rulebook.mathml import MathML
from tests import compiled


@pytest.fixture(scope="module")
def rs() -> m.Ruleset:
    return compiled.ruleset("trian_deluxe")


@pytest.fixture(scope="module")
def vocab(rs: m.Ruleset) -> Vocabulary:
    return Vocabulary.of(rs)


@pytest.fixture(scope="module")
def mm(vocab: Vocabulary) -> MathML:
    return MathML(vocab)


# ------------------------------------------------------------------ helpers


def statements(body: list[Any], lets: dict[str, Any]) -> Iterator[tuple[Any, dict[str, Any]]]:
    """Every statement of a body, nested ones included, with the `let`s bound before it."""
    for s in body:
        if isinstance(s, n.Let):
            lets[s.name] = s.value
        yield s, dict(lets)
        for attr in ("body", "then", "otherwise"):
            yield from statements(getattr(s, attr, None) or [], lets)


def gives(rs: m.Ruleset) -> list[tuple[m.Declaration, n.Give, dict[str, Any]]]:
    out = []
    for d in rs.all_decls():
        body = d.body if isinstance(d, m.Trigger) else \
            d.effects if isinstance(d, m.Action) else []
        for s, lets in statements(body, {}):
            if isinstance(s, n.Give):
                out.append((d, s, lets))
    return out


def defines(rs: m.Ruleset) -> dict[str, m.Define]:
    return {d.id: d for d in rs.all_decls() if isinstance(d, m.Define)}


def give_in_rule(rs: m.Ruleset, rule: str) -> tuple[n.Give, dict[str, Any]]:
    found = [(s, lets) for d, s, lets in gives(rs) if d.rule == rule]
    assert len(found) == 1, found
    return found[0]


def parse(markup: str) -> ET.Element:
    root = ET.fromstring(markup)
    assert root.tag == "math"
    return root


def text_of(markup: str) -> str:
    return "".join(parse(markup).itertext())


def num(v: int) -> n.Number:
    return n.Number(value=v, type="int")


def tiles_in_a() -> n.Call:
    a = n.Name(id="a", ref="var", type="area")
    coll = n.Collection(source=n.Name(id="tiles", ref="builtin", type="set:tile"),
                        within=a, type="set:tile")
    return n.Call(func="count", args=[coll], type="int")


# -------------------------------------------------------------------- tests


def test_every_give_and_define_is_wellformed_math(rs: m.Ruleset, mm: MathML) -> None:
    found = gives(rs)
    assert len(found) >= 10
    for _, s, lets in found:
        out = mm.give(s, lets=lets)
        root = parse(out)
        assert root.get("display") == "block"
        assert "\n" not in out
    ds = defines(rs)
    assert {"level", "tech", "yield"} <= set(ds)
    for d in ds.values():
        parse(mm.define(d))
        parse(mm.formula(d.expr))
        parse(mm.formula(d.expr, display=False, lhs="x < y & z"))


def test_nebula_scoring_reads_as_a_product_of_terms(rs: m.Ruleset, mm: MathML,
                                                    vocab: Vocabulary) -> None:
    give, _ = give_in_rule(rs, "end.nebulas")
    out = mm.give(give)
    words = text_of(out)
    assert "×" in words
    assert "mining level" in words          # the define's title, without "the" and "of {a}"
    assert "of the area" not in words
    assert "tiles in the area" in words
    assert words.startswith(vocab.many("points"))
    assert "count" not in out and "level(" not in out    # not code


def test_system_scoring_keeps_the_parentheses_around_the_sum(rs: m.Ruleset, mm: MathML) -> None:
    give, _ = give_in_rule(rs, "end.systems")
    root = parse(mm.give(give))
    ops = [e.text for e in root.iter("mo")]
    assert ops.count("(") == 1 and ops.count(")") == 1
    words = text_of(mm.give(give))
    assert "technology value×(planets in the area+emissaries in the area)" in words


def test_level_has_no_needless_parentheses_and_a_qualifier(rs: m.Ruleset, mm: MathML) -> None:
    out = mm.define(defines(rs)["level"])
    root = parse(out)
    assert "(" not in [e.text for e in root.iter("mo")]
    words = text_of(out)
    assert words.startswith("mining level of the area=")
    assert "research stations in the area not carrying a space station" in words
    assert "2×space stations in the area" in words


def test_tech_is_a_piecewise_table(rs: m.Ruleset, mm: MathML) -> None:
    root = parse(mm.define(defines(rs)["tech"]))
    table = root.find(".//mtable")
    assert table is not None
    rows = table.findall("mtr")
    assert [r.find("mtd/mn").text for r in rows] == ["10", "4", "0"]  # type: ignore[union-attr]
    conds = ["".join(r.findall("mtd")[1].itertext()) for r in rows]
    assert conds[0].startswith("if ") and "space station" in conds[0]
    assert conds[1].startswith("if ") and "research station" in conds[1]
    assert conds[2] == "otherwise"
    holder = next(r for r in root.iter("mrow") if table in list(r))
    assert [c.tag for c in holder] == ["mo", "mtable"] and holder[0].text == "{"


def test_a_let_bound_amount_is_shown_by_its_value(rs: m.Ruleset, mm: MathML) -> None:
    found = [(s, lets) for _, s, lets in gives(rs) if isinstance(s.amount, n.Name)]
    assert found
    give, lets = found[0]
    root = parse(mm.give(give, lets=lets))
    assert [e.text for e in root.iter("mi")] == ["min"]
    assert "amount" not in text_of(mm.give(give, lets=lets))


def test_division_is_a_floored_fraction(vocab: Vocabulary) -> None:
    mm = MathML(vocab)
    expr = n.Arith(first=num(3), rest=[("*", tiles_in_a()), ("/", num(2))], type="int")
    root = parse(mm.formula(expr, display=False, lhs="points"))
    assert root.get("display") is None
    frac = root.find(".//mfrac")
    assert frac is not None and len(frac) == 2
    assert "".join(frac[0].itertext()) == "3×tiles in the area"
    assert frac[1].text == "2"
    ops = [e.text for e in root.iter("mo")]
    assert "⌊" in ops and "⌋" in ops and "(" not in ops


def test_parentheses_follow_precedence(vocab: Vocabulary) -> None:
    mm = MathML(vocab)
    add = n.Arith(first=num(1), rest=[("+", num(2))], type="int")
    mul = n.Arith(first=num(3), rest=[("*", num(4))], type="int")
    cases = [
        (n.Arith(first=add, rest=[("*", num(5))]), "(1+2)×5"),
        (n.Arith(first=num(5), rest=[("-", add)]), "5−(1+2)"),
        (n.Arith(first=num(5), rest=[("+", add)]), "5+1+2"),
        (n.Arith(first=num(5), rest=[("+", mul)]), "5+3×4"),
        (n.Arith(first=num(5), rest=[("*", n.Neg(value=num(2)))]), "5×(−2)"),
        (n.Neg(value=add), "−(1+2)"),
    ]
    for node, want in cases:
        assert "".join(parse(f"<math>{mm.expr(node)}</math>").itertext()) == want


def test_min_and_max(vocab: Vocabulary) -> None:
    mm = MathML(vocab)
    node = n.Call(func="max", args=[num(1), tiles_in_a()], type="int")
    root = parse(mm.formula(node))
    assert root.find(".//mi").text == "max"  # type: ignore[union-attr]
    assert "(1,tiles in the area)" in "".join(root.itertext())


def test_text_is_escaped(vocab: Vocabulary) -> None:
    mm = MathML(vocab)
    root = parse(mm.formula(n.Text(value="<b>&", type="str"), lhs="a < b & c"))
    assert "<b>&" in "".join(root.itertext())
    assert "a < b & c" in "".join(root.itertext())


def test_terms_link_kind_words(rs: m.Ruleset, vocab: Vocabulary) -> None:
    mm = MathML(vocab, terms={"station": "glossary/#station",
                              "level": ("end/#end.nebulas", 'the "level"')})
    root = parse(mm.define(defines(rs)["level"]))
    links = {a.get("href"): ("".join(a.itertext()), a.get("title")) for a in root.iter("a")}
    assert links["glossary/#station"] == ("research stations", None)
    assert links["end/#end.nebulas"] == ("mining level of the area", 'the "level"')
    for a in root.iter("mtext"):
        assert all(child.tag == "a" for child in a)


def test_output_is_deterministic(rs: m.Ruleset, vocab: Vocabulary) -> None:
    first = [MathML(vocab).give(s, lets=lets) for _, s, lets in gives(rs)]
    again = MathML(vocab)
    assert [again.give(s, lets=lets) for _, s, lets in gives(rs)] == first
    assert [again.give(s, lets=lets) for _, s, lets in gives(rs)] == first
    ds = list(defines(rs).values())
    assert [again.define(d) for d in ds] == [MathML(vocab).define(d) for d in ds]


def test_no_game_words_in_the_module() -> None:
    from pathlib import Path

    import compiler.rulebook.mathml as mod
    text = Path(mod.__file__).read_text(encoding="utf-8").lower()
    for word in ("emissary", "nebula", "planet", "mineral", "teleport", "outpost", "extractor",
                 "exmitter", "starlight", "galaxy", "trian", "corvette", "rogue", "credit",
                 "colony", "warp", "reactor"):
        assert word not in text, word
