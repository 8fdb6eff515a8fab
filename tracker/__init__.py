"""The I/O around the claims core: fetching, adapters, scheduling, events, site, CLI."""
