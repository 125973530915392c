"""The friends page: a request sent from one browser and accepted in another, both pages
following along on the user's stream; who is in a game now; blocking and unblocking; and
the preference that only friends may invite me."""

from __future__ import annotations

import pytest

from accounts.models import Block, Friendship, SocialPreference

from .pages import (
    DESKTOP,
    PHONE,
    TIMEOUT_MS,
    fits_the_width,
    game_against_ai,
    make_user,
    open_as,
    unlabelled_controls,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("_fast_passwords")]


def friends_of(user) -> int:
    return (
        Friendship.objects.filter(user_low=user).count()
        + Friendship.objects.filter(user_high=user).count()
    )


def test_a_request_is_sent_from_one_browser_and_accepted_in_another(browser, web_server, artifacts):
    ada, bert = make_user("ada"), make_user("bert")
    ada_page = open_as(browser, web_server.url, ada, "#/")
    ada_page.click("#nav-friends")
    ada_page.wait_for_selector(".friends-page[data-ready]", timeout=TIMEOUT_MS)
    bert_page = open_as(browser, web_server.url, bert, "#/friends")
    bert_page.wait_for_selector("#app[data-live=stream]", timeout=TIMEOUT_MS)
    ada_page.wait_for_selector("#app[data-live=stream]", timeout=TIMEOUT_MS)
    assert unlabelled_controls(ada_page) == []

    # Refusals are told by the form that sent them.
    ada_page.fill("#send-request-username", "nobody-here")
    ada_page.click("#send-request")
    ada_page.wait_for_selector(
        "#send-request-problem[data-code=PLAYER_NOT_FOUND]", timeout=TIMEOUT_MS
    )
    # From the keyboard: the field, then Enter.
    ada_page.fill("#send-request-username", "bert")
    ada_page.focus("#send-request-username")
    ada_page.keyboard.press("Enter")
    ada_page.wait_for_selector("#outgoing li[data-username=bert]", timeout=TIMEOUT_MS)
    assert ada_page.locator("#send-request-problem").is_hidden()

    # bert's page hears of it on the stream, well before its next read.
    bert_page.wait_for_selector("#incoming li[data-username=ada]", timeout=5_000)
    bert_page.click("#incoming button[aria-label='Accept ada']")
    bert_page.wait_for_selector("#friend-list li[data-username=ada]", timeout=TIMEOUT_MS)
    assert bert_page.locator("#incoming li[data-username]").count() == 0
    ada_page.wait_for_selector("#friend-list li[data-username=bert]", timeout=5_000)
    assert ada_page.locator("#outgoing li[data-username]").count() == 0
    assert friends_of(ada) == 1

    # Who is in a game now shows on a visit, linked to the game to watch.
    bert_game = game_against_ai(bert)
    ada_page.reload()
    ada_page.wait_for_selector(
        "#friend-list li[data-username=bert][data-in-game=true] .in-game", timeout=TIMEOUT_MS
    )
    link = "#friend-list li[data-username=bert] a.in-game"
    assert ada_page.get_attribute(link, "href") == f"#/game/{bert_game}"
    ada_page.screenshot(path=str(artifacts / "desktop-friends.png"))

    ada_page.click("#friend-list button[aria-label='Remove bert']")
    ada_page.wait_for_selector("#friend-list li.muted", timeout=TIMEOUT_MS)
    assert friends_of(ada) == 0


def test_a_request_is_declined_and_another_cancelled(browser, web_server):
    ada, bert, carl = make_user("ada"), make_user("bert"), make_user("carl")
    page = open_as(browser, web_server.url, ada, "#/friends")
    page.wait_for_selector(".friends-page[data-ready]", timeout=TIMEOUT_MS)
    for name in ("bert", "carl"):
        page.fill("#send-request-username", name)
        page.click("#send-request")
        page.wait_for_selector(f"#outgoing li[data-username={name}]", timeout=TIMEOUT_MS)
    page.click("#outgoing button[aria-label='Cancel carl']")
    page.wait_for_selector("#outgoing li[data-username=carl]", state="detached")

    bert_page = open_as(browser, web_server.url, bert, "#/friends")
    bert_page.click("#incoming button[aria-label='Decline ada']")
    bert_page.wait_for_selector("#incoming li.muted", timeout=TIMEOUT_MS)
    assert friends_of(ada) == 0 and friends_of(carl) == 0


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_player_is_blocked_and_unblocked_and_the_preference_kept(
    browser, web_server, artifacts, viewport
):
    ada, _ = make_user("ada"), make_user("bert")
    context = browser.new_context(
        viewport=viewport, is_mobile=viewport is PHONE, has_touch=viewport is PHONE
    )
    page = open_as(browser, web_server.url, ada, "#/friends", context=context)
    page.wait_for_selector(".friends-page[data-ready]", timeout=TIMEOUT_MS)

    page.fill("#block-username", "ada")
    page.click("#block")
    page.wait_for_selector("#block-problem[data-code=NAMED_YOURSELF]", timeout=TIMEOUT_MS)
    page.fill("#block-username", "bert")
    page.click("#block")
    page.wait_for_selector("#block-list li[data-username=bert]", timeout=TIMEOUT_MS)
    assert Block.objects.filter(blocker=ada, blocked__username="bert").exists()

    assert not page.is_checked("#friends-only")
    page.check("#friends-only")
    page.wait_for_selector("#friends-only:not([disabled])", timeout=TIMEOUT_MS)
    page.wait_for_function("() => !document.querySelector('#friends-only').closest('[aria-busy]')")
    assert SocialPreference.objects.get(user=ada).invitations_from_friends_only
    if viewport is PHONE:
        assert fits_the_width(page)
        assert page.is_visible("#nav-friends") and page.is_visible("#logout")
        page.screenshot(path=str(artifacts / "phone-friends.png"), full_page=True)

    page.reload()
    page.wait_for_selector(".friends-page[data-ready]", timeout=TIMEOUT_MS)
    assert page.is_checked("#friends-only")
    page.click("#block-list button[aria-label='Unblock bert']")
    page.wait_for_selector("#block-list li.muted", timeout=TIMEOUT_MS)
    assert not Block.objects.filter(blocker=ada).exists()
    page.uncheck("#friends-only")
    page.wait_for_function("() => !document.querySelector('#friends-only').closest('[aria-busy]')")
    assert not SocialPreference.objects.get(user=ada).invitations_from_friends_only


def test_every_write_carries_a_key_and_a_lost_answer_is_asked_again_with_it(browser, web_server):
    ada, _ = make_user("ada"), make_user("bert")
    context = browser.new_context(viewport=DESKTOP)
    page = open_as(browser, web_server.url, ada, "#/friends", context=context)
    page.wait_for_selector(".friends-page[data-ready]", timeout=TIMEOUT_MS)
    writes: list[tuple[str, str, str | None]] = []
    page.on(
        "request",
        lambda r: (
            r.method in ("POST", "PUT", "PATCH", "DELETE")
            and writes.append((r.method, r.url, r.headers.get("idempotency-key")))
        ),
    )
    replayed: list[str | None] = []
    page.on(
        "response",
        lambda r: (
            r.request.method == "POST"
            and r.url.endswith("/blocks")
            and replayed.append(r.headers.get("idempotent-replayed"))
        ),
    )
    # The first block reaches the server and is applied; its answer is lost on the way back.
    lost = []

    def lose_the_first_answer(route) -> None:
        if route.request.method == "POST" and not lost:
            lost.append(route.fetch().status)
            route.abort()
        else:
            route.continue_()

    context.route("**/api/v1/blocks", lose_the_first_answer)
    page.fill("#block-username", "bert")
    page.click("#block")
    page.wait_for_selector("#block-list li[data-username=bert]", timeout=TIMEOUT_MS)
    assert lost == [201]
    assert replayed == ["true"]
    assert Block.objects.filter(blocker=ada).count() == 1
    blocks = [key for method, url, key in writes if url.endswith("/blocks")]
    assert len(blocks) == 2 and blocks[0] and blocks[0] == blocks[1]

    page.click("#block-list button[aria-label='Unblock bert']")
    page.wait_for_selector("#block-list li.muted", timeout=TIMEOUT_MS)
    page.check("#friends-only")
    page.wait_for_function("() => !document.querySelector('#friends-only').closest('[aria-busy]')")
    keys = [key for _, _, key in writes]
    assert len(keys) >= 4 and all(keys)
    assert len(set(keys)) == len(keys) - 1  # one key per intent, the lost one sent twice
