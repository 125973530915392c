"""The games' signals, as the notifications app hears them: each one, sent inside the
transaction of a change, records the inbox row and its outbox rows in that transaction,
under a dedupe key, so nothing is told twice and nothing survives a rollback."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from engine import new_game
from games import events
from games.models import Game, GameStatus, Seat, SeatKind
from games.queries import sql
from notifications import services, tasks
from notifications.models import Device, Notification, WebhookEndpoint
from notifications.webhooks import new_secret

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def queued(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The outbox rows handed to the workers at commit (none are sent)."""
    calls: list[int] = []
    monkeypatch.setattr(services, "deliveries_queue", lambda ids: calls.extend(ids))
    return calls


@pytest.fixture
def alice(player: Any) -> Any:
    return player("alice")


@pytest.fixture
def bob(player: Any) -> Any:
    """A player with a webhook and a phone, as well as an email address."""
    user = player("bob")
    WebhookEndpoint.objects.create(user=user, url="http://127.0.0.1:9/hook", secret=new_secret())
    Device.objects.create(user=user, platform="fcm", token="fcm-bob")
    return user


def make_game(*users: Any, deadline: Any = None) -> Game:
    """An active Europe game at version 3; a user takes a human seat, None an AI seat."""
    creator = next(u for u in users if u is not None)
    game = Game.objects.create(
        board="europe",
        created_by=creator,
        players=len(users),
        seed=7,
        status=GameStatus.ACTIVE,
        version=3,
        deadline=deadline,
    )
    for index, user in enumerate(users):
        if user is None:
            Seat.objects.create(game=game, index=index, kind=SeatKind.AI, ai_level="easy")
        else:
            Seat.objects.create(game=game, index=index, kind=SeatKind.HUMAN, user=user)
    # As the games app reads a game it sends in its events: with its seats.
    found = sql.game_with_seats(game.pk)
    assert found is not None
    return found


def told(user: Any, kind: str | None = None) -> list[Notification]:
    found = Notification.objects.filter(user=user).order_by("id")
    return list(found.filter(kind=kind) if kind else found)


def channels(notification: Notification) -> list[str]:
    return sorted(notification.deliveries.values_list("channel", flat=True))


def seat_of(game: Game, index: int) -> Seat:
    return Seat.objects.select_related("user").get(game=game, index=index)


def test_an_invitation_reaches_the_invited_user_once_by_inbox_and_email(
    alice: Any, player: Any, queued: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    carol = player("carol")
    game = make_game(alice, None)
    seat = Seat.objects.create(game=game, index=2, kind=SeatKind.INVITED, user=carol)

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        events.invitation(game, seat)
        events.invitation(game, seat)
        assert queued == []  # the email is handed to the workers at commit

    [note] = told(carol)
    assert note.kind == "invitation"
    assert note.dedupe_key == f"game:{game.pk}:invitation:{carol.pk}"
    assert note.data == {"game_id": game.pk, "board": "europe", "seat": 2, "invited_by": "alice"}
    assert channels(note) == ["email"]
    assert queued == [d.pk for d in note.deliveries.all()]
    assert told(alice) == []


def test_the_start_is_announced_to_every_player_on_each_of_their_channels(
    alice: Any, bob: Any
) -> None:
    game = make_game(alice, bob, None)

    with transaction.atomic():
        events.game_started(game)

    for user, index in ((alice, 0), (bob, 1)):
        [note] = told(user)
        assert (note.kind, note.dedupe_key) == ("game_started", f"game:{game.pk}:started")
        assert note.data == {"game_id": game.pk, "board": "europe", "seat": index}
    assert channels(told(alice)[0]) == []
    assert channels(told(bob)[0]) == ["push", "webhook"]
    assert Notification.objects.count() == 2


def test_your_turn_goes_only_to_the_people_whose_decision_just_became_pending(
    alice: Any, bob: Any
) -> None:
    deadline = timezone.now() + timedelta(hours=1)
    game = make_game(alice, bob, None, deadline=deadline)
    state = new_game("europe", 3, 7, 0)  # all three choose their tickets

    with transaction.atomic():
        events.turns(game, state, {0})

    assert told(alice) == []
    [note] = told(bob)
    assert note.kind == "your_turn"
    assert note.dedupe_key == f"game:{game.pk}:v3:turn:1"
    assert note.data == {
        "game_id": game.pk,
        "board": "europe",
        "seat": 1,
        "pending": "choose_initial_tickets",
        "deadline": deadline.isoformat(),
    }
    assert channels(note) == ["push", "webhook"]


def test_nobody_is_told_of_a_turn_that_was_already_pending(alice: Any, bob: Any) -> None:
    game = make_game(alice, bob)

    with transaction.atomic():
        events.turns(game, new_game("europe", 2, 7, 0), {0, 1})

    assert Notification.objects.count() == 0


def test_a_seat_the_ai_took_over_is_not_told_its_turn_came(alice: Any, bob: Any) -> None:
    game_id = make_game(alice, bob).pk
    Seat.objects.filter(game_id=game_id, index=1).update(ai_controlled=True)
    game = sql.game_with_seats(game_id)
    assert game is not None

    with transaction.atomic():
        events.turns(game, new_game("europe", 2, 7, 0), set())

    assert [n.kind for n in told(alice)] == ["your_turn"]
    assert told(bob) == []


def test_the_same_turn_told_twice_is_recorded_once(alice: Any, bob: Any) -> None:
    game = make_game(alice, bob)
    state = new_game("europe", 2, 7, 0)

    with transaction.atomic():
        events.turns(game, state, set())
    with transaction.atomic():
        events.turns(game, state, set())

    assert len(told(alice)) == len(told(bob)) == 1


def test_the_end_tells_each_player_their_place_and_total(alice: Any, bob: Any) -> None:
    game = make_game(alice, None, bob)
    result = {
        "players": [
            {"seat": 0, "place": 2, "total": 80},
            {"seat": 1, "place": 3, "total": 40},
            {"seat": 2, "place": 1, "total": 120},
        ]
    }

    with transaction.atomic():
        events.game_over(game, result)

    [to_alice], [to_bob] = told(alice), told(bob)
    assert (to_alice.kind, to_alice.dedupe_key) == ("game_over", f"game:{game.pk}:over")
    assert (to_alice.data["place"], to_alice.data["total"]) == (2, 80)
    assert (to_bob.data["seat"], to_bob.data["place"], to_bob.data["total"]) == (2, 1, 120)
    assert channels(to_alice) == ["email"]
    assert channels(to_bob) == ["email", "push", "webhook"]


def test_a_timeout_is_told_and_so_is_the_ai_taking_the_seat(alice: Any, bob: Any) -> None:
    game = make_game(alice, bob)
    Seat.objects.filter(game=game, index=1).update(missed_turns=2)
    seat = seat_of(game, 1)

    with transaction.atomic():
        events.timed_out(game, seat, "ai_takes_seat", True)

    timed_out, taken_over = told(bob)
    assert (timed_out.kind, timed_out.dedupe_key) == ("timed_out", f"game:{game.pk}:v3:timeout:1")
    assert timed_out.data == {
        "game_id": game.pk,
        "board": "europe",
        "seat": 1,
        "policy": "ai_takes_seat",
        "missed_turns": 2,
    }
    assert (taken_over.kind, taken_over.dedupe_key) == (
        "seat_taken_over",
        f"game:{game.pk}:takeover:1:2",
    )
    assert told(alice) == []


def test_a_timeout_without_a_take_over_is_one_notice(alice: Any, bob: Any) -> None:
    game = make_game(alice, bob)

    with transaction.atomic():
        events.timed_out(game, seat_of(game, 0), "ai_plays_turn", False)

    assert [n.kind for n in told(alice)] == ["timed_out"]


def test_nothing_is_recorded_or_queued_when_the_change_rolls_back(
    alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = make_game(alice, bob)

    with (
        django_capture_on_commit_callbacks() as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        events.game_started(game)
        events.turns(game, new_game("europe", 2, 7, 0), set())
        raise RuntimeError("the move failed")

    assert Notification.objects.count() == 0
    assert callbacks == []


def test_a_failing_notice_fails_the_change_it_reports(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make_game(alice, bob)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the outbox is full")

    monkeypatch.setattr(services, "_outbox_rows", broken)

    with pytest.raises(RuntimeError), transaction.atomic():
        events.game_started(game)


def pending_game(user: Any, other: Any, minutes: int) -> Game:
    game = make_game(user, other, deadline=timezone.now() + timedelta(minutes=minutes))
    Seat.objects.filter(game=game, index=0).update(pending=True)
    return game


def test_a_deadline_warning_goes_out_once_for_each_window_it_falls_in(alice: Any, bob: Any) -> None:
    game = pending_game(alice, bob, minutes=50)

    assert tasks.warn_deadlines() == 2  # within 24 h and within 1 h
    assert tasks.warn_deadlines() == 0

    warnings = told(alice, "deadline_approaching")
    assert sorted(n.dedupe_key for n in warnings) == [
        f"game:{game.pk}:v3:warn:3600",
        f"game:{game.pk}:v3:warn:86400",
    ]
    assert sorted(n.data["window_seconds"] for n in warnings) == [3600, 86400]
    assert told(bob) == []


@pytest.mark.parametrize(
    ("pace", "warned"),
    [(86400, [3600]), (7200, [3600]), (3600, []), (300, []), (60, [])],
)
def test_a_window_warns_only_in_games_whose_time_per_move_is_longer(
    alice: Any, bob: Any, pace: int, warned: list[int]
) -> None:
    game = pending_game(alice, bob, minutes=0.5)  # within every window
    Game.objects.filter(pk=game.pk).update(turn_time_limit=pace)

    assert tasks.warn_deadlines() == len(warned)
    assert sorted(n.data["window_seconds"] for n in told(alice, "deadline_approaching")) == warned


def test_no_warning_for_a_deadline_far_off_or_a_seat_the_ai_plays(alice: Any, bob: Any) -> None:
    pending_game(alice, bob, minutes=3 * 24 * 60)
    taken = pending_game(bob, alice, minutes=30)
    Seat.objects.filter(game=taken, index=0).update(ai_controlled=True)

    assert tasks.warn_deadlines() == 0
    assert Notification.objects.count() == 0


def test_the_warnings_run_on_the_beat_as_often_as_deadlines_are_swept() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["notifications-warn-deadlines"]

    assert entry["task"] == tasks.warn_deadlines.name
    assert entry["schedule"] == float(settings.DEADLINE_SWEEP_SECONDS)
