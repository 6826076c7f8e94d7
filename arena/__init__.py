"""arena: bot tournaments for turn-based board games."""

__version__ = "0.1.0"
