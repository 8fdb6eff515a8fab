"""Curated data as I/O: loading data/ into the database (load) and editing the data
files for `tracker track` / `untrack` (edit, with tomlkit)."""
