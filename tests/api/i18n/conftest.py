from tests.notifications.helpers import eager_tasks, player, recorded_pushes

__all__ = ["eager_tasks", "player", "recorded_pushes"]
