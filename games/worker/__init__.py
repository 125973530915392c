"""What the Celery workers run for games: the tasks, and the AI seats' loop."""
