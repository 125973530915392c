"""The phases of a game and the kinds of decision a game can be waiting for.

Plain string constants with no imports, so every other engine module can use them.
"""

from __future__ import annotations

# Phases of a game.
INITIAL_TICKETS = "initial_tickets"
PLAYING = "playing"
GAME_OVER = "game_over"

# Kinds of pending decision.
CHOOSE_INITIAL_TICKETS = "choose_initial_tickets"
TURN_ACTION = "turn_action"
SECOND_CARD = "second_card"
TUNNEL_PAYMENT = "tunnel_payment"
KEEP_TICKETS = "keep_tickets"
