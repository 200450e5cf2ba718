"""A rules specification language for board games.

The pipeline, one package per stage:

    grammar/*.lark  ->  parse  ->  ir  ->  check  ->  engine / rulebook

`parse` turns rules files into IR nodes, `check` resolves names and types and
validates a ruleset, `kernel` holds the game-agnostic geometry (lattices,
edge-matching tiles, areas), `engine` plays and adjudicates, `rulebook`
writes the site. Nothing here knows any particular game: games live in
`rules/`.
"""

