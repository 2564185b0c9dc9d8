"""What names the JSON form of a log (its format and version) and the error a JSON log
that cannot be read raises: shared by the form's reader (json_form.py) and the importers
that turn another platform's record into the form (importers/)."""

from __future__ import annotations

FORMAT = "adjudicator.incident"
VERSION = 1


class FormError(ValueError):
    """A JSON log that cannot be read; ``str()`` names the part (``events[3]``) at fault."""

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        self.reason = message
        super().__init__(f"{where}：{message}" if where else message)
