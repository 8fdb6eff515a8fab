"""Curated data files (``data/*.toml``) to validated specs: keys, fields, cross-entry checks,
and every problem of a folder reported at once. No database here."""
