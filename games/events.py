"""What happens to games, told to whichever app listens (notifications, ratings).

The games app sends each signal inside the transaction of the change it reports, and
receivers run at once, in that transaction: what they write commits or rolls back with
the change, and a receiver that raises fails it. Work for later is theirs to queue on
commit. Every signal is sent by ``Game`` with keyword arguments only, its ``game`` read
with its seats and their users (``game.seated``):

- ``invitation_sent``: ``game``, ``seat`` (the invited user's seat);
- ``play_started``: ``game``, its seats all taken and its first state stored;
- ``turn_changed``: ``game``, ``state`` (the engine state just stored), ``before`` (the
  indexes of the seats whose decision was pending before the change);
- ``game_finished``: ``game``, ``result`` (the final standings, as ``Game.result``);
- ``seat_timed_out``: ``game``, ``seat``, ``policy`` (the timeout policy applied),
  ``taken_over`` (whether the AI now plays for the seat's user).

The functions below send them; each is named after what the games code reports.

A change is also followed by work registered here to happen once it commits (in its
transaction, ``transaction.on_commit``: a rolled back change wakes nobody and queues
nothing): ``changed`` wakes the game's event streams (``game:<id>``), and
``ai_turns_on_commit`` asks a worker to play the AI seats' turns. Tasks are asked for by
name (``games.worker.tasks`` registers them), so the modules that ask never import the
tasks, which import them; the names are those the tasks had when they lived in
``games.tasks``, which queued messages and the beat schedule use.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import Signal

from engine import GameState
from games.models import Game, Seat
from ttr_service.streams import wakeups
from ttr_service.tasks.sending import send_task

PLAY_AI_TURNS = "games.tasks.play_ai_turns"
SETTLE_DEADLINE = "games.tasks.settle_deadline"
SWEEP_DEADLINES = "games.tasks.sweep_deadlines"

invitation_sent = Signal()
play_started = Signal()
turn_changed = Signal()
game_finished = Signal()
seat_timed_out = Signal()


def invitation(game: Game, seat: Seat) -> None:
    invitation_sent.send(sender=Game, game=game, seat=seat)


def game_started(game: Game) -> None:
    play_started.send(sender=Game, game=game)


def turns(game: Game, state: GameState, before: set[int]) -> None:
    turn_changed.send(sender=Game, game=game, state=state, before=before)


def game_over(game: Game, result: dict[str, Any]) -> None:
    game_finished.send(sender=Game, game=game, result=result)


def timed_out(game: Game, seat: Seat, policy: str, taken_over: bool) -> None:
    seat_timed_out.send(sender=Game, game=game, seat=seat, policy=policy, taken_over=taken_over)


def topic(game_id: int) -> str:
    """The wake-up topic of a game's event streams."""
    return f"game:{game_id}"


def changed(game_id: int) -> None:
    """Wake the game's streams once the current transaction commits."""
    transaction.on_commit(lambda: wakeups.publish(topic(game_id)))


def ai_turns_on_commit(game_id: int, version: int) -> None:
    """A worker plays the game's pending AI decisions once this transaction commits."""
    transaction.on_commit(lambda: send_task(PLAY_AI_TURNS, game_id, version))


def ai_turns(game_id: int, version: int) -> bool:
    """A worker plays the game's pending AI decisions (queued now)."""
    return send_task(PLAY_AI_TURNS, game_id, version)


def settling(game_id: int) -> bool:
    """A worker settles the game's passed deadline (queued now)."""
    return send_task(SETTLE_DEADLINE, game_id)
