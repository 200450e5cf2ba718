"""The rulebook: Markdown pages for mkdocs, generated from a checked ruleset."""
