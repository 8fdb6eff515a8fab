"""Subjects: names, aliases and variants found in text, source ids matched to subjects, and how
sentences name a source."""
