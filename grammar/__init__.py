"""The Lark grammar of the incident language (data)."""
