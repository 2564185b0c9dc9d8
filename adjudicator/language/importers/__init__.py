"""Importers: other programs' game records turned into the JSON form of an incident."""
