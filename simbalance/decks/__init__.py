"""Card decks shared by several games, loaded from ``configs/decks/``."""
