"""adjudicator: the referee for Taiwanese 16-tile mahjong table disputes."""

__version__ = "0.1.0"
