"""The frames both event streams send, read from a live server, match the committed schema
as schemathesis reads it: each event picked by its name, its ``data`` a string of JSON valid
under the component its frame names (tests/stream_frames.py); and schemathesis itself,
called on both operations, finds nothing wrong with their answers."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
import schemathesis
from schemathesis.specs.openapi.checks import response_schema_conformance

from tests import stream_frames
from tests.faults.helpers import client_for, user
from tests.faults.play import act, create_game, keep_offered_tickets
from tests.processes import WebServer, production_env, running
from tests.workers.conftest import database_url

from . import chat_scenarios
from .conftest import asgi_web, ticket
from .sse_client import StreamReader

pytestmark = pytest.mark.postgres

GAME_EVENTS = "/api/v1/games/{game_id}/events"
USER_EVENTS = "/api/v1/stream"


@pytest.fixture
def web(transactional_db, redis_server, tmp_path) -> Iterator[WebServer]:
    env = production_env(database_url(), redis_server.url, "frames")
    with running(asgi_web(env, tmp_path / "web")) as server:
        yield server


def body(reader: StreamReader) -> str:
    return "".join(line + "\n" for line in reader.lines)


def checked(schema: stream_frames.StreamSchema, text: str) -> tuple[list[str], list[str]]:
    """The events' names, and what is wrong with them."""
    found = stream_frames.events(text)
    return [e["event"] for e in found], [p for e in found for p in schema.problems(e)]


def play_a_short_game(
    web: WebServer, host: httpx.Client, guest: httpx.Client
) -> tuple[int, StreamReader, StreamReader]:
    """A game of two played to its end (a few draws, chat, a forfeit), the host watching
    its stream and the guest their own stream throughout; both readers returned."""
    inbox = StreamReader(f"{web.url}{USER_EVENTS}", params={"ticket": ticket(guest)}).start()
    game_id = create_game(
        host, [{"type": "creator"}, {"type": "invite", "username": "guest"}], first_seat=1
    )
    inbox.wait_for(lambda r: any(e.event == "invitation" for e in r.events), 10, "invitation")
    assert guest.post(f"/games/{game_id}/invitation/accept").status_code == 200
    stream = chat_scenarios.watch(web, game_id, host)
    try:
        chat_scenarios.say(host, game_id, "players", "good luck")
        keep_offered_tickets(host, game_id)
        keep_offered_tickets(guest, game_id)
        for _ in range(2):
            assert act(guest, game_id, {"type": "draw_blind"}).status_code == 200
        # Not watching the game's stream, the guest hears of the host's words on theirs.
        chat_scenarios.say(host, game_id, "players", "your move")
        inbox.wait_for(lambda r: "your move" in chat_scenarios.said(r), 10, "the chat notice")
        assert act(guest, game_id, {"type": "forfeit"}).status_code == 200
        stream.wait_for(lambda r: r.closed, 10, "the end of the game's stream")
        inbox.wait_for(lambda r: any(e.event == "game_over" for e in r.events), 10, "game over")
    finally:
        stream.stop()
        inbox.stop()
    return game_id, stream, inbox


def test_every_frame_of_both_streams_matches_the_schema(web):
    document = stream_frames.load()
    game_schema = stream_frames.StreamSchema(document, GAME_EVENTS)
    user_schema = stream_frames.StreamSchema(document, USER_EVENTS)
    host, guest = client_for(web, user("host")), client_for(web, user("guest"))
    game_id, stream, inbox = play_a_short_game(web, host, guest)

    names, problems = checked(game_schema, body(stream))
    assert problems == [], problems
    assert names[0] == "game" and names[-1] == "end", names
    assert {"move", "chat"} <= set(names), names
    # The moves' events inside a move's data are checked too: several kinds were sent.
    kinds = {
        event["type"]
        for move in (e.data for e in stream.events if e.event == "move")
        for event in move["events"]
    }
    assert {"tickets_kept", "card_drawn", "forfeited", "game_over"} <= kinds, kinds

    names, problems = checked(user_schema, body(inbox))
    assert problems == [], problems
    assert {"invitation", "chat", "game_over"} <= set(names), names

    # The finished game's whole stream, and the guest's inbox from its start.
    replays = (
        (f"/api/v1/games/{game_id}/events", {}, game_schema, "end"),
        (USER_EVENTS, {"after": 0}, user_schema, "game_over"),
    )
    for path, params, schema, last in replays:
        reader = StreamReader(f"{web.url}{path}", params={**params, "ticket": ticket(guest)})
        try:
            reader.start().wait_for(
                lambda r, last=last: last in {e.event for e in r.events}, 10, path
            )
        finally:
            reader.stop()
        names, problems = checked(schema, body(reader))
        assert problems == [], (path, problems)
        assert len(names) >= 3, names


def test_schemathesis_finds_the_streams_answers_conform(web):
    host, guest = client_for(web, user("host")), client_for(web, user("guest"))
    game_id, _, _ = play_a_short_game(web, host, guest)
    loaded = schemathesis.openapi.from_path(stream_frames.SCHEMA_PATH)
    calls = [
        ("games_events", {"game_id": game_id}, {}),
        ("stream", {}, {"after": 0}),
    ]
    for operation_id, path_parameters, query in calls:
        operation = loaded.find_operation_by_id(operation_id)
        case = operation.Case(
            path_parameters=path_parameters, query={**query, "ticket": ticket(host)}
        )
        # The user's stream never ends: schemathesis reads it for the timeout, then judges
        # the events it has.
        response = case.call(base_url=web.url, timeout=3)
        assert response.status_code == 200, response.text
        assert stream_frames.events(response.text), operation_id
        case.validate_response(response, checks=[response_schema_conformance])
