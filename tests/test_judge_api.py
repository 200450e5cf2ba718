"""The judge's API: every endpoint, good and malformed input, on a tile game, a variant
with its own order and a card game. Each ruleset compiles once per process (service cache)."""
from __future__ import annotations

import copy
import json

import pytest
from fastapi.testclient import TestClient

from compiler.judge.api import create_app

RULESETS = ["trian_deluxe", "trian_new_order", "among_the_stars"]


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


@pytest.fixture(scope="module")
def starts(client: TestClient) -> dict[str, dict]:
    out = {}
    for rid in RULESETS:
        players = client.get(f"/api/rulesets/{rid}").json()["players"]["min"]
        r = client.post("/api/positions/new", json={"ruleset": rid, "players": players})
        assert r.status_code == 200, r.text
        out[rid] = r.json()
    return out


def _error(r, status: int) -> dict:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and "Traceback" not in r.text
    return body["error"]


def test_catalogue_lists_every_ruleset(client: TestClient) -> None:
    ids = {r["id"]: r for r in client.get("/api/rulesets").json()["rulesets"]}
    assert set(RULESETS) <= set(ids)
    assert ids["trian_new_order_beginner"]["base"] == "trian_new_order"
    assert ids["trian_deluxe"]["players"]["min"] <= ids["trian_deluxe"]["players"]["max"]


@pytest.mark.parametrize("rid", RULESETS)
def test_ruleset_described_from_declarations(client: TestClient, rid: str) -> None:
    d = client.get(f"/api/rulesets/{rid}").json()
    assert d["id"] == rid and d["seats"] and d["steps"]
    if rid.startswith("trian"):
        assert d["tiles"] and d["tiles"][0]["faces"][0]["svg"].startswith("<svg")
        assert d["rotations"] == 3 and not d["per_player_board"]
    else:
        assert d["per_player_board"]


def test_unknown_ruleset_says_what_it_might_be(client: TestClient) -> None:
    e = _error(client.get("/api/rulesets/trian_deluxx"), 404)
    assert "did you mean `trian_deluxe`" in e["message"]


@pytest.mark.parametrize("rid", ["../x", "..%2F..%2Fetc", "/etc/passwd", "rules/trian_deluxe"])
def test_ruleset_id_is_never_a_path(client: TestClient, rid: str) -> None:
    r = client.post("/api/positions/new", json={"ruleset": rid, "players": 2})
    assert _error(r, 404)["code"] == "unknown-ruleset"


def test_schema(client: TestClient) -> None:
    assert "properties" in client.get("/api/schema").json()


@pytest.mark.parametrize("rid", RULESETS)
def test_new_position_reads_back_the_same(client: TestClient, starts: dict, rid: str) -> None:
    start = starts[rid]
    assert start["situation"]["turn"] >= 1 and start["problems"] == []
    again = client.post("/api/positions/check", json={"ruleset": rid,
                                                      "position": start["position"]})
    assert again.status_code == 200 and again.json()["position"] == start["position"]


def test_wrong_player_count(client: TestClient) -> None:
    e = _error(client.post("/api/positions/new", json={"ruleset": "trian_deluxe",
                                                        "players": 9}), 422)
    assert "2 to 4" in e["message"]


def test_svg_has_click_targets(client: TestClient, starts: dict) -> None:
    tile = starts["trian_deluxe"]
    assert tile["open_cells"] == ["0,0"] and 'data-cell="0,0"' in tile["svg"]
    pos = tile["position"]
    mv = client.post("/api/moves", json={"ruleset": "trian_deluxe", "position": pos}).json()
    ruling = client.post("/api/adjudicate", json={"ruleset": "trian_deluxe", "position": pos,
                                                  "move": mv["moves"][0]["notation"]}).json()
    svg = ruling["after"]["svg"]
    assert 'class="site"' in svg and 'data-site="0,0:' in svg and '<g class="tile" data-cell="0,0"' in svg
    assert 'class="open"' in svg


def test_moves_at_a_cell(client: TestClient, starts: dict) -> None:
    pos = starts["trian_deluxe"]["position"]
    every = client.post("/api/moves", json={"ruleset": "trian_deluxe", "position": pos}).json()
    at = client.post("/api/moves", json={"ruleset": "trian_deluxe", "position": pos,
                                         "at": "0,0"}).json()
    assert every["count"] == at["count"] > 0
    assert all("0,0" in m["at"] for m in at["moves"])
    none = client.post("/api/moves", json={"ruleset": "trian_deluxe", "position": pos,
                                           "at": "5,5"}).json()
    assert none["count"] == 0


def test_fits(client: TestClient, starts: dict) -> None:
    pos = starts["trian_deluxe"]["position"]
    tile = client.get("/api/rulesets/trian_deluxe").json()["tiles"][0]["id"]
    found = client.post("/api/fits", json={"ruleset": "trian_deluxe", "position": pos,
                                           "tile": tile}).json()["placements"]
    assert found and {p["at"] for p in found} == {"0,0"}
    e = _error(client.post("/api/fits", json={"ruleset": "trian_deluxe", "position": pos,
                                              "tile": "nope"}), 422)
    assert e["problems"][0]["path"] == "tile"


def test_fits_without_tiles_is_empty(client: TestClient, starts: dict) -> None:
    pos = starts["among_the_stars"]["position"]
    r = client.post("/api/fits", json={"ruleset": "among_the_stars", "position": pos,
                                       "tile": "x"})
    assert r.status_code in (200, 422)


@pytest.mark.parametrize("rid", RULESETS)
def test_adjudicate_a_legal_move(client: TestClient, starts: dict, rid: str) -> None:
    pos = starts[rid]["position"]
    before = copy.deepcopy(pos)
    mv = client.post("/api/moves", json={"ruleset": rid, "position": pos}).json()["moves"]
    move = mv[0]["notation"]
    r = client.post("/api/adjudicate", json={"ruleset": rid, "position": pos,
                                             "move": move}).json()
    if r["chance"] is not None:  # the page asks for the outcome and sends the move again
        assert r["verdict"] == "ILLEGAL" and r["chance"]["rule"]["url"]
        outcome = r["chance"]["message"].rsplit("one of: ", 1)[1].split(",")[0].strip(" )")
        r = client.post("/api/adjudicate", json={"ruleset": rid, "position": pos,
                                                 "move": f"{move} ! {outcome}"}).json()
    assert r["verdict"] == "LEGAL" and "LEGAL" in r["text"]
    assert r["after"]["position"] != before and pos == before


def test_chance_is_asked_for(client: TestClient, starts: dict) -> None:
    pos = starts["trian_new_order"]["position"]
    mv = client.post("/api/moves", json={"ruleset": "trian_new_order", "position": pos})
    move = mv.json()["moves"][0]["notation"]
    r = client.post("/api/adjudicate", json={"ruleset": "trian_new_order", "position": pos,
                                             "move": move}).json()
    assert r["chance"] and "after `!`" in r["chance"]["message"] and r["after"] is None


def test_unreadable_move_gets_its_ruling(client: TestClient, starts: dict) -> None:
    pos = starts["trian_deluxe"]["position"]
    r = client.post("/api/adjudicate", json={"ruleset": "trian_deluxe", "position": pos,
                                             "move": "fly to the moon"})
    assert r.status_code == 200 and r.json()["verdict"] == "UNREADABLE"
    assert r.json()["after"] is None


def test_impossible_position_names_its_path(client: TestClient, starts: dict) -> None:
    pos = copy.deepcopy(starts["trian_deluxe"]["position"])
    pos["players"][0]["seat"] = "nobody"
    e = _error(client.post("/api/positions/check", json={"ruleset": "trian_deluxe",
                                                         "position": pos}), 422)
    assert e["code"] == "bad-position"
    assert any(p["path"].startswith("position.players[0]") for p in e["problems"])


def test_wrong_types_and_bad_json(client: TestClient) -> None:
    e = _error(client.post("/api/positions/new", json={"ruleset": "trian_deluxe",
                                                        "players": "two"}), 422)
    assert e["problems"][0]["path"] == "players"
    e = _error(client.post("/api/positions/new", content=b"{nope",
                           headers={"content-type": "application/json"}), 422)
    assert "not JSON" in e["problems"][0]["message"]
    _error(client.post("/api/moves", json=[1, 2]), 422)
    _error(client.post("/api/moves", json={"ruleset": "trian_deluxe", "position": {},
                                           "extra": 1}), 422)


def test_oversize_body_is_refused(client: TestClient) -> None:
    e = _error(client.post("/api/positions/check", content=b" " * 1_000_001,
                           headers={"content-type": "application/json"}), 413)
    assert e["code"] == "too-large"

    def chunks():  # no Content-Length: counted as it streams
        for _ in range(11):
            yield b" " * 100_000
    e = _error(client.post("/api/positions/check", content=chunks(),
                           headers={"content-type": "application/json"}), 413)


def test_deep_nesting_is_refused_before_parsing(client: TestClient) -> None:
    deep = b"[" * 400_000 + b"]" * 400_000  # 800 kB: under the size limit
    e = _error(client.post("/api/moves", content=deep,
                           headers={"content-type": "application/json"}), 400)
    assert e["code"] == "too-deep"
    e = _error(client.post("/api/positions/check", json={
        "ruleset": "trian_deluxe", "position": {"a": "[[[[" * 100}}), 422)  # strings don't nest
    assert e["code"] == "bad-position"


def test_unreadable_bodies_and_lax_types(client: TestClient) -> None:
    e = _error(client.post("/api/positions/new", content=b'{"ruleset":"trian_deluxe",'
                           b'"players":' + b"9" * 5000 + b"}",
                           headers={"content-type": "application/json"}), 400)
    assert "4300 digits" in e["message"]
    e = _error(client.post("/api/positions/new", json={"ruleset": "trian_deluxe",
                                                        "players": True}), 422)
    assert e["problems"][0]["path"] == "players"


def test_unknown_seat_view(client: TestClient, starts: dict) -> None:
    pos = starts["among_the_stars"]["position"]
    e = _error(client.post("/api/moves", json={"ruleset": "among_the_stars", "position": pos,
                                               "as": "nobody"}), 422)
    assert e["problems"][0]["path"] == "as"


def test_example_and_record(client: TestClient) -> None:
    d = client.get("/api/rulesets/trian_deluxe").json()
    ex = d["examples"][0]["id"]
    r = client.post("/api/positions/example", json={"ruleset": "trian_deluxe", "example": ex})
    assert r.status_code == 200, r.text
    assert r.json()["example"]["id"] == ex
    e = _error(client.post("/api/positions/example", json={"ruleset": "trian_deluxe",
                                                           "example": ex + "x"}), 404)
    assert "did you mean" in e["message"]
    e = _error(client.post("/api/positions/record", json={"ruleset": "trian_deluxe",
                                                          "record": "not a record {"}), 422)
    assert e["code"] == "bad-record"


def test_draw(client: TestClient, starts: dict) -> None:
    r = client.post("/api/draw", json={"ruleset": "trian_deluxe",
                                       "position": starts["trian_deluxe"]["position"]})
    assert r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg") and "data-cell" not in r.text


def test_openapi_documents_every_request_and_reply(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    routes = {(method.upper(), route.path) for route in client.app.routes
              if route.path.startswith("/api/") for method in getattr(route, "methods", ())}
    assert len(routes) == 11
    for method, path in routes:
        op = spec["paths"][path][method.lower()]
        if method == "POST":  # every POST documents its body
            assert "$ref" in op["requestBody"]["content"]["application/json"]["schema"]
        reply = op["responses"]["200"]["content"]
        schema = (reply.get("application/json") or reply["image/svg+xml"])["schema"]
        assert schema.get("$ref") or schema.get("type") in ("object", "string"), (path, schema)
        assert op["responses"]["422"]["content"]["application/json"]["schema"]["$ref"] \
            .endswith("/ErrorReply")
    names = spec["components"]["schemas"]
    assert {"PositionReply", "AdjudicationReply", "Ruling", "Situation", "PositionModel",
            "RulesetInfo", "RulesetList", "MovesReply", "FitsReply", "RecordReply",
            "ExampleReply"} <= set(names)
    assert "said" in names["SituationReply"]["properties"]
    assert client.get("/docs").status_code == 404


def test_unknown_route_is_json(client: TestClient) -> None:
    assert _error(client.get("/api/nothing"), 404)["code"] == "not-found"
    json.dumps(client.get("/api/nothing").json())


def test_record_with_its_stops(client: TestClient) -> None:
    from compiler.engine.random_play import random_game
    from compiler.engine.records import write_record
    from compiler.judge.service import rules_of
    final, history = random_game(rules_of("trian_deluxe"), 2, seed=5)
    text = write_record(history, final)
    whole = client.post("/api/positions/record", json={"ruleset": "trian_deluxe",
                                                       "record": text}).json()
    part = client.post("/api/positions/record", json={"ruleset": "trian_deluxe",
                                                      "record": text, "upto": 2}).json()
    assert whole["record"]["total"] == len(whole["record"]["decisions"]) > 2
    assert part["record"]["upto"] == 2 and part["situation"]["turn"] < whole["situation"]["turn"]
    # every stop says whose turn line it is, the lines past `upto` too
    seats = {s["id"]: s["name"] for s in client.get("/api/rulesets/trian_deluxe").json()["seats"]}
    for stops in (whole["record"]["decisions"], part["record"]["decisions"]):
        assert all(seats[d["seat"]] == d["player"] for d in stops)
    assert stops[0]["seat"] != stops[1]["seat"]


def test_resources_say_what_holds_them(client: TestClient) -> None:
    held = {r["id"]: r["holders"] for r in
            client.get("/api/rulesets/trian_new_order").json()["resources"]}
    assert held["red"] == ["player", "area"]  # minerals lie in areas
    held = {r["id"]: r["holders"] for r in
            client.get("/api/rulesets/among_the_stars").json()["resources"]}
    assert held["energy"] == ["player", "tile"] and held["points"] == ["player"]


def test_card_game_zones_and_cards(client: TestClient) -> None:
    d = client.get("/api/rulesets/among_the_stars").json()
    zones = {z["id"]: z for z in d["zones"]}
    cards = {c["id"] for c in d["cards"]}
    assert zones["hand"]["whose"] == "player" and zones["deck"]["whose"] == "shared"
    assert set(zones["hand"]["cards"]) == cards and "turret" in cards
    assert all(c["svg"].startswith("<svg") and c["name"] for c in d["cards"])
    faces = {f["face"]: f["svg"] for f in d["tiles"][0]["faces"]}
    assert 'class="card-svg"' in faces["front"] and "face down" in faces["down"]
    assert client.get("/api/rulesets/trian_deluxe").json()["zones"] == []


def test_example_url_is_the_example(client: TestClient) -> None:
    from compiler import links
    ex = client.get("/api/rulesets/trian_new_order").json()["examples"][0]
    assert ex["url"] == (links.site_url() + "trian-new-order/extraction/#example-gain-station")


@pytest.mark.parametrize("served", [True, False])
def test_reply_urls_point_at_the_served_rulebook(tmp_path, starts: dict, served: bool) -> None:
    from compiler import links
    if served:
        (tmp_path / "index.html").write_text("<p>the rulebook</p>")
    app = TestClient(create_app(tmp_path if served else None))
    root = "/rulebook/" if served else links.site_url()
    pos = starts["trian_new_order"]["position"]
    move = app.post("/api/moves", json={"ruleset": "trian_new_order",
                                        "position": pos}).json()["moves"][0]["notation"]
    r = app.post("/api/adjudicate", json={"ruleset": "trian_new_order", "position": pos,
                                          "move": move}).json()
    urls = [r["chance"]["rule"]["url"]] + [x["url"] for m in r["ruling"]["moves"]
                                           for x in m["decided_by"]]
    assert urls and all(u.startswith(root + "trian-new-order/") for u in urls)
    assert root + "trian-new-order/" in r["text"]
    d = app.get("/api/rulesets/trian_new_order").json()
    assert d["rulebook"] == root + "trian-new-order/"
    assert all(x["url"].startswith(root) for x in d["examples"])
    listed = app.get("/api/rulesets").json()["rulesets"]
    assert all(x["rulebook"].startswith(root) for x in listed)
    if served:
        assert "the rulebook" in app.get("/rulebook/").text


def test_an_example_is_asked_for_by_its_id_or_its_number(client: TestClient) -> None:
    listed = client.get("/api/rulesets/trian_conquest").json()["examples"]
    assert [x["number"] for x in listed][:2] == ["TD-E1", "TD-E2"]
    by_number = client.post("/api/positions/example",
                            json={"ruleset": "trian_conquest", "example": "TC-E36"})
    assert by_number.status_code == 200 and by_number.json()["example"]["number"] == "TC-E36"
    ambiguous = client.post("/api/positions/example",
                            json={"ruleset": "trian_conquest", "example": "E36"})
    assert ambiguous.status_code == 404
    assert "TD-E36" in ambiguous.text and "TC-E36" in ambiguous.text
