"""The language server: `rulebook lsp`, an editor that knows the rules language.

Any editor with a Language Server Protocol client gets, for `.rules` files, the
diagnostics `rulebook check` prints (as the author types), hover with a rule's
number and text, go to definition and completion of ids and keywords. The
server only asks the compiler: checking is `compiler.load`'s, words are the
grammar's, addresses are the rulebook's. Nothing here knows a game.

    checking.py   a ruleset checked from the editor's unsaved texts
    index.py      every id a compiled ruleset declares, where, and what it says
    keywords.py   the language's words, read from the grammar
    server.py     the protocol: pygls features calling the above
    textmate.py   the TextMate grammar for highlighting, from the Pygments lexer's data
"""
