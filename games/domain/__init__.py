"""Facts of the games app that need no database: AI levels, deadlines, seats, versions."""
