"""The intermediate representation: typed pydantic models read by engine and rulebook alike."""
