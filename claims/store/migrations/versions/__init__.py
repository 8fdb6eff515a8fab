"""One module per schema revision, oldest first (``0001_…``); see docs/database.md."""
