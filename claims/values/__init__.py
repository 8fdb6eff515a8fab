"""Values and their notation: :class:`~claims.values.value.Value` with its interval, written numbers,
the curated-data notation, display in English and in a locale, and the time and canonical-JSON helpers."""
