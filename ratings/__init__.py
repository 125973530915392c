"""Per-player statistics and Elo ratings, recorded once for each finished game."""
