"""Fetched bodies, stored content-addressed by sha256."""
