"""Quick match (seeks paired into games by the workers) and rematches of finished games."""
