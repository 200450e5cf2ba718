"""A file read again is not parsed again, yet every reading gets items of its own.

`parse_rules` keeps the items of a file read twice (a variant's base is read for every
variant, and a process compiles a ruleset many times) and hands out copies: a variant
editing its base must change no other reading of the same file.
"""

import compiler.parse as parse
from compiler.engine.position import Rules
from compiler.load import RULES_DIR, load_ruleset
from compiler.parse import forget_parsed, parse_rules

TURN = RULES_DIR / "trian_deluxe" / "turn.rules"


def test_each_reading_of_a_file_gets_the_same_items_and_its_own_copy():
    forget_parsed()
    text = TURN.read_text(encoding="utf-8")
    first, second, third = (parse_rules(text, str(TURN)) for _ in range(3))
    assert first == second == third
    assert (str(TURN), text) in parse._KEPT  # kept from the second reading on
    third[0].title = "changed by one reader"  # a later reader sees the file as written
    assert parse_rules(text, str(TURN))[0] == first[0]
    assert first[0] is not second[0] is not third[0]


def test_a_changed_text_is_parsed_afresh():
    forget_parsed()
    text = TURN.read_text(encoding="utf-8")
    parse_rules(text, str(TURN))
    parse_rules(text, str(TURN))
    edited = text.replace('"Gather minerals"', '"Gather your minerals"')
    assert edited != text
    assert parse_rules(text, str(TURN)) != parse_rules(edited, str(TURN))


def test_a_variant_compiled_after_its_base_plays_the_same_games():
    """The base read a second time, now from the kept items, gives the same rules."""
    forget_parsed()
    fresh = Rules(load_ruleset("trian_conquest"))
    load_ruleset("trian_deluxe")
    again = Rules(load_ruleset("trian_conquest"))
    assert again.ruleset == fresh.ruleset
    a, b = fresh.start(4, seed=3), again.start(4, seed=3)
    for _ in range(30):
        moves = a.legal_moves()
        assert moves == b.legal_moves()
        a, _ = a.play(moves[len(moves) // 2])
        b, _ = b.play(moves[len(moves) // 2])
    assert a.scores() == b.scores()


def test_readers_in_several_threads_each_get_the_file_as_written():
    """The judge's app compiles in a thread of its own and the language server in another:
    readings at once neither fail nor share items."""
    from concurrent.futures import ThreadPoolExecutor
    forget_parsed()
    text = TURN.read_text(encoding="utf-8")
    with ThreadPoolExecutor(max_workers=4) as pool:
        readings = list(pool.map(lambda _: parse_rules(text, str(TURN)), range(12)))
    assert all(r == readings[0] for r in readings)
    assert len({id(r[0]) for r in readings}) == len(readings)
