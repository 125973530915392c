"""Changes to games: each command is one function that owns its transaction (lock, check,
apply, store, tell, queue on commit). Named noun first: ``game_create``, ``move_play``."""
