"""Game-agnostic geometry: lattices, tile faces and edge matching, areas and closure."""
