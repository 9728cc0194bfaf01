"""The Dixit table companion: reads a Dixit table, scores each round, keeps the game."""

__version__ = "0.1.0"
