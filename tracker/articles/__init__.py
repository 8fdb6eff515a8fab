"""Articles in, claims out: reading a text or URL for extraction and importing reviewed
candidates as claims."""
