"""The game page's chat: two players talking from two browsers (text and a quick message,
the unread count on the other's Chat button), the bottom sheet on a phone, a message
reported and its sender muted and unmuted from the message's menu, a spectator in the
spectators' room, and a rate limit's refusal told with its wait."""

from __future__ import annotations

import re
import uuid

import pytest

from chat.models import ChatReport, ChatSuspension, Message, Mute

from .pages import (
    DESKTOP,
    PHONE,
    TIMEOUT_MS,
    api_as,
    finish_with_ai,
    game_against_ai,
    make_user,
    new_game,
    open_as,
    two_player_game,
    unlabelled_controls,
)
from .test_tap_targets import small_targets

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("_fast_passwords")]

TOUCH = {"viewport": PHONE, "is_mobile": True, "has_touch": True}


@pytest.fixture(autouse=True)
def _fresh_rate_counts() -> None:
    """The posting rates count in the cache: no test starts with another's messages."""
    from django.core.cache import cache

    cache.clear()


def say(user, game_id: int, room: str = "players", **body: str) -> dict:
    """A message posted through the API, as another client would."""
    answer = api_as(user).post(
        f"/api/v1/games/{game_id}/chat",
        {"room": room, **body},
        format="json",
        HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
    )
    assert answer.status_code == 201, answer.content
    return answer.json()


def open_game(browser, base_url: str, user, game_id: int, **options):
    page = open_as(browser, base_url, user, f"#/game/{game_id}", **options)
    page.wait_for_selector("#chat-button", timeout=TIMEOUT_MS)
    return page


def bodies(page) -> list[str]:
    return page.eval_on_selector_all(
        "#chat li.chat-msg .chat-body", "nodes => nodes.map(n => n.textContent)"
    )


def chat_posts(page) -> list[tuple[str, str | None]]:
    """The chat posts the page sends: each body with its Idempotency-Key."""
    sent: list[tuple[str, str | None]] = []

    def on_request(request) -> None:
        if request.method == "POST" and re.search(r"/games/\d+/chat$", request.url):
            sent.append((request.post_data or "", request.headers.get("idempotency-key")))

    page.on("request", on_request)
    return sent


def test_two_players_talk_from_two_browsers(browser, web_server, artifacts):
    ada, bert = make_user("ada"), make_user("bert")
    game_id = two_player_game(ada, bert)
    ada_page = open_game(browser, web_server.url, ada, game_id)
    bert_page = open_game(browser, web_server.url, bert, game_id)
    sent = chat_posts(ada_page)

    ada_page.click("#chat-button")
    ada_page.wait_for_selector("#chat:not([hidden]) .chat-empty:not([hidden])", timeout=TIMEOUT_MS)
    assert ada_page.get_attribute("#chat", "data-room") == "players"
    assert unlabelled_controls(ada_page) == []
    # The box takes 500 characters and counts them.
    ada_page.fill("#chat-text", "x" * 520)
    assert len(ada_page.input_value("#chat-text")) == 500
    assert ada_page.text_content("#chat .chat-count") == "500 / 500"
    assert ada_page.text_content("#chat-count") == "Characters: 500 of 500"
    ada_page.fill("#chat-text", "  Good evening, <b>bert</b>  ")
    assert ada_page.text_content("#chat .chat-count") == "29 / 500"
    ada_page.keyboard.press("Enter")  # Enter sends (Shift+Enter would start a new line)
    ada_page.wait_for_selector("#chat li.chat-msg.mine", timeout=TIMEOUT_MS)
    assert ada_page.input_value("#chat-text") == ""
    ada_page.click("#chat button.chat-quick-message[data-quick=good_luck]")
    ada_page.wait_for_function(
        "() => document.querySelectorAll('#chat li.chat-msg.mine').length === 2",
        timeout=TIMEOUT_MS,
    )
    assert bodies(ada_page) == ["Good evening, <b>bert</b>", "Good luck!"]
    # Each post with a key of its own.
    assert len(sent) == 2 and all(key for _, key in sent) and sent[0][1] != sent[1][1]
    assert [m.text for m in Message.objects.order_by("id")] == ["Good evening, <b>bert</b>", ""]

    # bert's closed chat counts them on its button, then shows them with sender and time.
    bert_page.wait_for_selector("#chat-button[data-unread='2']", timeout=TIMEOUT_MS)
    assert bert_page.text_content("#chat-button .chat-unread") == "2"
    assert "2 unread" in bert_page.get_attribute("#chat-button", "aria-label")
    bert_page.screenshot(path=str(artifacts / "desktop-chat-unread.png"))
    bert_page.click("#chat-button")
    bert_page.wait_for_selector("#chat li.chat-msg[data-sender=ada]", timeout=TIMEOUT_MS)
    assert bodies(bert_page) == ["Good evening, <b>bert</b>", "Good luck!"]
    assert bert_page.locator("#chat li.chat-msg b").count() == 0  # text, never HTML
    first = bert_page.locator("#chat li.chat-msg").first
    assert first.locator(".chat-sender").text_content() == "ada"
    assert re.search(r"\d", first.locator("time").text_content())
    assert bert_page.get_attribute("#chat-button", "data-unread") == "0"
    # A side panel on the desktop: the board and the other panels stay in view beside it.
    chat_box = bert_page.locator("#chat").bounding_box()
    side_box = bert_page.locator(".game > .side").bounding_box()
    assert chat_box["x"] >= side_box["x"] + side_box["width"] - 1
    assert chat_box["x"] + chat_box["width"] <= DESKTOP["width"]
    # ada's page has had its own messages from the game's stream: it reads the room no more.
    ada_page.wait_for_selector("#chat[data-live=stream]", timeout=TIMEOUT_MS)
    ada_page.wait_for_timeout(500)  # the one read made at the first chat event
    reads: list[str] = []
    ada_page.on(
        "request",
        lambda r: reads.append(r.url) if r.method == "GET" and "/chat?" in r.url else None,
    )
    # Narrower, a drawer on the right edge over the panels: the board keeps its width.
    board_width = bert_page.locator("#board").bounding_box()["width"]
    bert_page.set_viewport_size({"width": 1024, "height": 768})
    drawer = bert_page.locator("#chat").bounding_box()
    assert drawer["x"] + drawer["width"] == 1024 and drawer["height"] == 768
    bert_page.click("#chat button.chat-close")
    closed_width = bert_page.locator("#board").bounding_box()["width"]
    bert_page.click("#chat-button")
    assert bert_page.locator("#board").bounding_box()["width"] == closed_width
    assert closed_width < board_width
    bert_page.screenshot(path=str(artifacts / "desktop-1024-chat.png"))
    bert_page.set_viewport_size(DESKTOP)
    bert_page.fill("#chat-text", "Thanks, you too")
    bert_page.click("#chat button.chat-send")
    bert_page.screenshot(path=str(artifacts / "desktop-chat.png"))

    # ada's panel is open: the answer arrives there through the stream, and counts as read.
    ada_page.wait_for_selector("#chat li.chat-msg[data-sender=bert]", timeout=TIMEOUT_MS)
    assert reads == []
    assert bodies(ada_page)[-1] == "Thanks, you too"
    assert ada_page.get_attribute("#chat-button", "data-unread") == "0"

    # The last message read is kept per game: after a reload nothing is unread; a new one is.
    bert_page.reload()
    bert_page.wait_for_selector("#chat-button[data-unread='0']", timeout=TIMEOUT_MS)
    say(ada, game_id, quick="well_played")
    bert_page.wait_for_selector("#chat-button[data-unread='1']", timeout=TIMEOUT_MS)


def test_the_bottom_sheet_on_a_phone(browser, web_server, artifacts):
    ada, bert = make_user("ada"), make_user("bert")
    game_id = two_player_game(ada, bert)
    say(ada, game_id, text="Ready when you are")
    say(ada, game_id, quick="hello")
    page = open_game(browser, web_server.url, bert, game_id, **TOUCH)
    page.wait_for_selector("#chat-button[data-unread='2']", timeout=TIMEOUT_MS)
    # The button floats in the bottom corner, over the panels, large enough for a thumb.
    button = page.locator("#chat-button").bounding_box()
    assert button["y"] + button["height"] <= PHONE["height"]
    assert button["y"] > PHONE["height"] / 2
    assert button["width"] >= 44 and button["height"] >= 44
    page.tap("#chat-button")
    page.wait_for_selector("#chat li.chat-msg[data-sender=ada]", timeout=TIMEOUT_MS)
    page.wait_for_selector("#chat button.chat-quick-message", timeout=TIMEOUT_MS)
    # A bottom sheet: the screen's width, from its bottom edge up to most of its height,
    # with the top of the map still showing above it.
    sheet = page.locator("#chat").bounding_box()
    assert sheet["x"] == 0 and sheet["width"] == PHONE["width"]
    assert abs(sheet["y"] + sheet["height"] - PHONE["height"]) <= 1
    assert 0.1 * PHONE["height"] < sheet["y"] < 0.5 * PHONE["height"]
    assert page.locator("#chat-button").is_hidden()
    assert bodies(page) == ["Ready when you are", "Hello!"]
    small = small_targets(page)
    assert not small, "smaller than 44x44:\n" + "\n".join(small)
    page.tap("#chat li.chat-msg[data-sender=ada] .chat-more")
    small = small_targets(page)
    assert not small, "smaller than 44x44 in a message's menu:\n" + "\n".join(small)
    page.tap("#chat li.chat-msg[data-sender=ada] .chat-report-open")
    small = small_targets(page)
    assert not small, "smaller than 44x44 in the report form:\n" + "\n".join(small)
    page.screenshot(path=str(artifacts / "phone-chat-report.png"))
    page.tap("#chat li.chat-msg[data-sender=ada] .chat-report button[type=button]")  # Cancel
    page.fill("#chat-text", "On my way")
    page.tap("#chat button.chat-send")
    page.wait_for_selector("#chat li.chat-msg.mine", timeout=TIMEOUT_MS)
    page.screenshot(path=str(artifacts / "phone-chat-sheet.png"))
    # Closed, the button comes back with nothing unread.
    page.tap("#chat button.chat-close")
    page.wait_for_selector("#chat", state="hidden", timeout=TIMEOUT_MS)
    assert page.get_attribute("#chat-button", "data-unread") == "0"
    assert page.locator("#chat-button").is_visible()
    page.screenshot(path=str(artifacts / "phone-chat-closed.png"))


def test_a_message_reported_and_its_sender_muted_and_unmuted(browser, web_server, artifacts):
    ada, bert = make_user("ada"), make_user("bert")
    game_id = two_player_game(ada, bert)
    rude = say(bert, game_id, text="You will lose, loser")
    page = open_game(browser, web_server.url, ada, game_id)
    page.click("#chat-button")
    message = page.locator(f"#chat li.chat-msg[data-id='{rude['id']}']")
    message.wait_for(timeout=TIMEOUT_MS)
    # Own messages have no menu; another's has Report and Mute.
    say(ada, game_id, text="Be nice")
    page.wait_for_selector("#chat li.chat-msg.mine", timeout=TIMEOUT_MS)
    assert page.locator("#chat li.chat-msg.mine .chat-more").count() == 0
    more = message.locator(".chat-more")
    assert more.get_attribute("aria-label") == "Options for the message from bert"
    more.click()
    assert more.get_attribute("aria-expanded") == "true"
    message.locator(".chat-report-open").click()
    message.locator("select[name=reason]").select_option("abuse")
    message.locator(".chat-report button[type=submit]").click()
    page.wait_for_selector("#toast:not([hidden])", timeout=TIMEOUT_MS)
    assert "Reported" in page.text_content("#toast")
    report = ChatReport.objects.get()
    assert (report.message_id, report.reporter, report.reason) == (rude["id"], ada, "abuse")
    # A second report of the same message: the API's refusal, shown by the message.
    more.click()
    message.locator(".chat-report-open").click()
    message.locator(".chat-report button[type=submit]").click()
    note = message.locator(".problem")
    note.wait_for(timeout=TIMEOUT_MS)
    assert note.text_content().strip()
    assert ChatReport.objects.count() == 1
    message.locator(".chat-report button[type=button]").click()  # Cancel
    assert note.is_hidden() and message.locator(".chat-report").is_hidden()

    # Mute bert: his message leaves the list, and he is in the muted list.
    more.click()
    message.locator(".chat-mute").click()
    page.wait_for_selector(
        f"#chat li.chat-msg[data-id='{rude['id']}']", state="detached", timeout=TIMEOUT_MS
    )
    assert Mute.objects.filter(user=ada, muted=bert).exists()
    assert bodies(page) == ["Be nice"]
    page.click("#chat .chat-muted-toggle")
    page.wait_for_selector("#chat-muted li[data-username=bert]", timeout=TIMEOUT_MS)
    assert page.text_content("#chat .chat-muted-toggle") == "Muted (1)"
    # Muted, bert's next message does not come either.
    say(bert, game_id, text="Still there?")
    page.wait_for_timeout(4000)  # more than a read of the room
    assert bodies(page) == ["Be nice"]
    page.screenshot(path=str(artifacts / "desktop-chat-muted.png"))

    # Unmute: his messages are back.
    page.click("#chat-muted li[data-username=bert] button.chat-unmute")
    page.wait_for_selector("#chat-muted li.muted", timeout=TIMEOUT_MS)
    page.wait_for_function(
        "() => document.querySelectorAll('#chat li.chat-msg[data-sender=bert]').length === 2",
        timeout=TIMEOUT_MS,
    )
    assert bodies(page) == ["You will lose, loser", "Be nice", "Still there?"]
    assert not Mute.objects.exists()


def test_a_spectator_talks_in_the_spectators_room(browser, web_server):
    ada, bert, cleo = make_user("ada"), make_user("bert"), make_user("cleo")
    game_id = two_player_game(ada, bert)
    say(ada, game_id, text="Only for players")
    page = open_game(browser, web_server.url, cleo, game_id)
    page.click("#chat-button")
    page.wait_for_selector(
        "#chat[data-room=spectators] .chat-empty:not([hidden])", timeout=TIMEOUT_MS
    )
    assert page.locator("#chat .chat-room").count() == 0  # one room while the game runs
    page.fill("#chat-text", "Go ada!")
    page.keyboard.press("Enter")
    page.wait_for_selector("#chat li.chat-msg.mine", timeout=TIMEOUT_MS)
    assert bodies(page) == ["Go ada!"]
    assert Message.objects.get(text="Go ada!").room == "spectators"


def test_a_rate_limit_says_how_long_to_wait(browser, web_server, settings, artifacts):
    from dataclasses import replace

    from ttr_service.config.account_env import Rate

    settings.CHAT = replace(settings.CHAT, post_rates=(Rate(2, 60),))
    ada, bert = make_user("ada"), make_user("bert")
    game_id = two_player_game(ada, bert)
    page = open_game(browser, web_server.url, ada, game_id)
    page.click("#chat-button")
    page.wait_for_selector("#chat .chat-empty:not([hidden])", timeout=TIMEOUT_MS)
    for n in range(3):
        page.fill("#chat-text", f"message {n}")
        page.keyboard.press("Enter")
        if n < 2:
            page.wait_for_function(
                f"() => document.querySelectorAll('#chat li.chat-msg.mine').length === {n + 1}",
                timeout=TIMEOUT_MS,
            )
    page.wait_for_selector("#chat-problem[data-code=THROTTLED]", timeout=TIMEOUT_MS)
    assert page.text_content("#chat-problem").strip()
    page.wait_for_selector("#chat .chat-wait:not([hidden])", timeout=TIMEOUT_MS)
    assert re.fullmatch(
        r"Wait \d+ seconds? before the next message\.", page.text_content("#chat .chat-wait")
    )
    assert page.is_disabled("#chat button.chat-send")
    assert page.input_value("#chat-text") == "message 2"  # kept, to send once allowed
    assert Message.objects.count() == 2
    page.screenshot(path=str(artifacts / "desktop-chat-wait.png"))


def test_after_the_game_both_rooms_are_read(browser, web_server):
    ada, cleo = make_user("ada"), make_user("cleo")
    game_id = game_against_ai(ada, ais=1)
    say(ada, game_id, text="Good game, robot")
    say(cleo, game_id, room="spectators", text="Watching from the stands")
    finish_with_ai(game_id)
    page = open_game(browser, web_server.url, ada, game_id)
    page.wait_for_selector("#result td.total", timeout=TIMEOUT_MS)
    page.click("#chat-button")
    page.wait_for_selector("#chat li.chat-msg.mine", timeout=TIMEOUT_MS)
    rooms = page.locator("#chat button.chat-room")
    assert rooms.all_text_contents() == ["Players", "Spectators"]
    assert page.get_attribute("#chat button.chat-room[data-room=players]", "aria-pressed") == "true"
    assert bodies(page) == ["Good game, robot"]
    assert page.locator("#chat .chat-form").is_visible()
    # The spectators' room, read only for a player.
    page.click("#chat button.chat-room[data-room=spectators]")
    page.wait_for_selector("#chat li.chat-msg[data-sender=cleo]", timeout=TIMEOUT_MS)
    assert bodies(page) == ["Watching from the stands"]
    assert page.locator("#chat .chat-form").is_hidden()
    assert page.locator("#chat .chat-read-only").is_visible()
    page.click("#chat button.chat-room[data-room=players]")
    page.wait_for_selector("#chat li.chat-msg.mine", timeout=TIMEOUT_MS)
    assert bodies(page) == ["Good game, robot"]


def test_the_chat_in_russian_from_the_keyboard(browser, web_server):
    ada, bert = make_user("ada"), make_user("bert")
    game_id = two_player_game(ada, bert)
    say(ada, game_id, quick="good_luck")
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script("localStorage.setItem('ttr.language', 'ru')")
    page = open_game(browser, web_server.url, bert, game_id, context=context)
    page.wait_for_selector("#chat-button[data-unread='1']", timeout=TIMEOUT_MS)
    assert page.text_content("#chat-button .label") == "Чат"
    assert page.get_attribute("#chat-button", "aria-label") == "Чат, 1 непрочитанное сообщение"
    # Opened from the keyboard: the panel takes the focus, Escape gives it back.
    page.focus("#chat-button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#chat li.chat-msg[data-sender=ada]", timeout=TIMEOUT_MS)
    assert page.evaluate("() => document.activeElement.id") == "chat"
    assert page.locator("#chat li.chat-msg .chat-more").get_attribute("aria-label") == (
        "Действия с сообщением от ada"  # noqa: RUF001 (Russian)
    )
    assert page.get_attribute("#chat-text", "placeholder") == "Напишите сообщение"
    assert page.text_content("#chat button.chat-send") == "Отправить"
    page.keyboard.press("Escape")
    page.wait_for_selector("#chat", state="hidden", timeout=TIMEOUT_MS)
    assert page.evaluate("() => document.activeElement.id") == "chat-button"


def test_older_messages_page_by_page_and_a_suspended_sender_told(browser, web_server):
    ada, bert = make_user("ada"), make_user("bert")
    game_id = two_player_game(ada, bert)
    Message.objects.bulk_create(
        Message(game_id=game_id, room="players", sender=bert, seat=1, text=f"line {n}")
        for n in range(60)
    )
    page = open_game(browser, web_server.url, ada, game_id)
    # The count is of the newest page read (50, and more); the panel shows it, then the rest.
    page.wait_for_selector("#chat-button[data-unread='50']", timeout=TIMEOUT_MS)
    assert page.text_content("#chat-button .chat-unread") == "50+"
    page.click("#chat-button")
    page.wait_for_function(
        "() => document.querySelectorAll('#chat li.chat-msg').length === 50", timeout=TIMEOUT_MS
    )
    assert bodies(page)[0] == "line 10" and bodies(page)[-1] == "line 59"
    page.click("#chat button.chat-older")
    page.wait_for_function(
        "() => document.querySelectorAll('#chat li.chat-msg').length === 60", timeout=TIMEOUT_MS
    )
    assert bodies(page) == [f"line {n}" for n in range(60)]
    assert page.locator("#chat button.chat-older").is_hidden()

    # A moderator suspends ada's chat: her post is refused with the API's words.
    ChatSuspension.objects.create(user=ada)
    page.fill("#chat-text", "Hello?")
    page.click("#chat button.chat-send")
    page.wait_for_selector("#chat-problem[data-code=CHAT_SUSPENDED]", timeout=TIMEOUT_MS)
    assert "suspended" in page.text_content("#chat-problem")
    assert page.input_value("#chat-text") == "Hello?"
    assert not Message.objects.filter(sender=ada).exists()


def test_leaving_a_lobby_moves_the_chat_to_the_spectators_room(browser, web_server):
    ada, bert = make_user("ada"), make_user("bert")
    game_id = new_game(ada, [{"type": "open"}, {"type": "open"}])
    joined = api_as(bert).post(
        f"/api/v1/games/{game_id}/join", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex
    )
    assert joined.status_code == 200, joined.content
    say(ada, game_id, text="Waiting for a third")
    page = open_game(browser, web_server.url, bert, game_id)
    page.click("#chat-button")
    page.wait_for_selector("#chat[data-room=players] li.chat-msg", timeout=TIMEOUT_MS)
    assert bodies(page) == ["Waiting for a third"]
    page.click("#prompt button:has-text('Leave')")
    page.wait_for_selector("#chat[data-room=spectators]", timeout=TIMEOUT_MS)
    page.wait_for_selector("#chat .chat-empty:not([hidden])", timeout=TIMEOUT_MS)
    assert bodies(page) == []
    assert page.locator("#chat .chat-form").is_visible()
