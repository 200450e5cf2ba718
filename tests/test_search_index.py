"""The search index holds what a reader searches for: the rules' prose, not the engine's
readings, diagrams' labels or code listings, and not each book a second time (its page to
print). The index's size is kept from growing back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.xdist_group("rulebook")


def test_the_index_holds_prose_and_not_the_engines_readings(site: Path) -> None:
    path = site / "search" / "search_index.json"
    docs = json.loads(path.read_text(encoding="utf-8"))["docs"]
    assert not [d["location"] for d in docs if "/print/" in d["location"]]
    assert not [d["location"] for d in docs if "As the engine reads it" in d["text"]]
    assert not [d["location"] for d in docs if "<svg" in d["text"] or "give count(" in d["text"]]
    emissary = [d for d in docs if d["location"] == "trian-deluxe/actions/#actions-emissary"]
    assert emissary and "emissary" in emissary[0]["text"]
    # 5.3 MB before the engine's boxes and the print pages were left out; issue 13 asks for
    # under 1 MB (one index per book, loaded on demand, is the way there).
    assert path.stat().st_size < 3_000_000
