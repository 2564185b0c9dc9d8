"""The incident language: grammar, reader, the typed Incident, tiles, seats, errors."""
