"""The judge's table: set up a disputed position and get the ruling (a reader of the engine)."""
