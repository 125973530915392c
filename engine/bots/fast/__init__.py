"""Fast play-outs for the tree search: a compact game state and a quick policy.

``FastState`` carries the engine's rules on plain integer lists (``state``), ``playout``
plays one to its end with the play-out policy (``policy``), ``final_sheet`` scores it as
the engine would (``score``), and ``moves`` translates between its moves and the
engine's actions.
"""

from .board import FastBoard, fast_board
from .moves import to_action, to_move
from .policy import Policy, playout
from .score import final_sheet
from .state import FastMove, FastState

__all__ = [
    "FastBoard",
    "FastMove",
    "FastState",
    "Policy",
    "fast_board",
    "final_sheet",
    "playout",
    "to_action",
    "to_move",
]
