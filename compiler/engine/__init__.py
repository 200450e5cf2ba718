"""Playing and judging: a ruleset compiled into tables and closures, positions, rulings."""
