"""One test per fault found when the web client was tried as a new player would."""

from __future__ import annotations

import re

import pytest

from games.models import Game

from .pages import (
    DESKTOP,
    PHONE,
    TIMEOUT_MS,
    act,
    finish_with_ai,
    game_against_ai,
    keep_all_offered,
    make_user,
    open_as,
    record_actions,
    two_player_game,
    view_of,
    wait_for_prompt,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("_fast_passwords")]


def boxes(page) -> list[bool]:
    return page.eval_on_selector_all(
        "#prompt input[type=checkbox]", "nodes => nodes.map(n => n.checked)"
    )


def test_unticked_tickets_stay_unticked_when_the_game_changes_under_the_prompt(browser, web_server):
    ada, bert = make_user("ada"), make_user("bert")
    game_id = two_player_game(ada, bert)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    wait_for_prompt(page, "choose_initial_tickets")
    version = page.get_attribute("#prompt", "data-version")
    page.locator("#prompt input[type=checkbox]").first.uncheck()
    assert boxes(page)[0] is False

    keep_all_offered(bert, game_id)  # the version moves on while ada's prompt is open
    page.wait_for_selector(
        f'#prompt[data-kind=choose_initial_tickets]:not([data-version="{version}"])',
        timeout=TIMEOUT_MS,
    )
    assert boxes(page)[0] is False
    assert all(boxes(page)[1:])


def test_the_first_keep_sends_the_version_its_options_were_read_at(browser, web_server):
    ada, bert = make_user("ada"), make_user("bert")
    game_id = two_player_game(ada, bert)
    page = open_as(browser, web_server.url, ada)
    moved = []

    def opponent_moves_first(route) -> None:
        # Between ada's read of the game and her read of the options, bert keeps his
        # tickets: the options are a version ahead of the view the page holds.
        if not moved:
            keep_all_offered(bert, game_id)
            moved.append(Game.objects.get(pk=game_id).version)
        route.continue_()

    page.route(re.compile(r".*/legal-actions$"), opponent_moves_first)
    sent = record_actions(page)
    page.goto(f"{web_server.url}/#/game/{game_id}")
    wait_for_prompt(page, "choose_initial_tickets")
    page.click("#keep-tickets")
    page.wait_for_selector("#prompt:not([data-kind=choose_initial_tickets])", timeout=TIMEOUT_MS)
    assert moved and sent[0]["version"] == moved[0]
    assert page.is_hidden("#error")


def test_switzerland_names_countries_on_tickets_and_on_the_map(browser, web_server, artifacts):
    ada = make_user("ada")
    for _ in range(12):  # until the deal offers ada a country ticket
        game_id = game_against_ai(ada, ais=1, board="switzerland")
        offered = view_of(ada, game_id)["state"]["you"]["offered_tickets"]
        if any(t.get("destinations") for t in offered):
            break
    else:
        pytest.fail("no country ticket was dealt in 12 games")
    country = next(t for t in offered if t.get("destinations"))
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    wait_for_prompt(page, "choose_initial_tickets")
    offer = page.inner_text(f'#prompt [data-ticket="{country["id"]}"]')
    assert "undefined" not in page.inner_text("#prompt")
    assert all(d["to"] in offer for d in country["destinations"]), offer
    # Border points read as their country, never as the board's ids (DE1, AT2).
    labels = page.eval_on_selector_all("svg .city text", "nodes => nodes.map(n => n.textContent)")
    assert labels and not [x for x in labels if re.fullmatch(r"[A-Z]{2}\d", x)]
    titles = page.eval_on_selector_all("svg .route title", "nodes => nodes.map(n => n.textContent)")
    assert not [x for x in titles if re.search(r"\b[A-Z]{2}\d\b", x)]
    # Hovering the country ticket lights up its origin and every border point it may reach.
    page.hover(f'#prompt [data-ticket="{country["id"]}"]')
    assert page.locator("g.city.hl").count() > 2
    page.screenshot(path=str(artifacts / "desktop-switzerland.png"))
    page.click("#keep-tickets")
    page.wait_for_selector("#tickets li.ticket", timeout=TIMEOUT_MS)
    assert "undefined" not in page.inner_text("#tickets")


def not_clipped(page, selector: str) -> None:
    box = page.eval_on_selector(
        selector,
        """card => {
            const table = card.querySelector('table');
            const c = card.getBoundingClientRect();
            const t = table.getBoundingClientRect();
            const last = [...table.querySelectorAll('tr > :last-child')]
                .map(n => n.getBoundingClientRect().right);
            return {scroll: card.scrollWidth, client: card.clientWidth, card: c.right,
                    table: t.right, last: Math.max(...last), view: innerWidth};
        }""",
    )
    assert box["scroll"] <= box["client"], (selector, box)
    assert box["last"] <= box["card"] + 0.5 and box["card"] <= box["view"], (selector, box)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_score_sheet_and_the_players_table_fit_their_cards(
    browser, web_server, artifacts, viewport
):
    ada = make_user("margarethe.vanderlinden")  # names are up to 32 characters
    game_id = game_against_ai(ada, ais=3)
    finish_with_ai(game_id)
    phone = viewport is PHONE
    page = open_as(
        browser, web_server.url, ada, f"#/game/{game_id}", viewport=viewport, is_mobile=phone
    )
    page.wait_for_selector("#result table td.total", timeout=TIMEOUT_MS)
    not_clipped(page, "#result")
    not_clipped(page, "#players")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.screenshot(path=str(artifacts / f"{'phone' if phone else 'desktop'}-score-sheet.png"))


def test_logging_out_in_one_tab_logs_out_the_others(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    first = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    second = open_as(browser, web_server.url, ada, f"#/game/{game_id}", context=first.context)
    for page in (first, second):
        page.wait_for_selector("#prompt[data-kind]", timeout=TIMEOUT_MS)
    first.click("#logout")
    first.wait_for_selector("#login", timeout=TIMEOUT_MS)
    # The other tab notices at once, not at its next poll, and is not left as a spectator.
    second.wait_for_selector("#login", timeout=2_000)
    assert second.locator("#logout").count() == 0
    assert second.inner_text("#who").strip() == ""


def test_acting_in_an_out_of_date_tab_explains_and_catches_up(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    keep_all_offered(ada, game_id)
    # The stream would bring the page up to date at once: it never opens here, so the page
    # polls, every 4 s while the move is the player's.
    context = browser.new_context(viewport=DESKTOP)
    context.route(re.compile(r".*/events\?.*"), lambda route: None)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}", context=context)
    wait_for_prompt(page, "turn_action")
    with page.expect_response(re.compile(rf".*/games/{game_id}$"), timeout=TIMEOUT_MS):
        pass  # just after a poll: the next one is seconds away
    act(ada, game_id, {"type": "draw_blind"})  # from another tab
    page.click("#draw-blind")
    page.wait_for_selector("#error:not([hidden])", timeout=TIMEOUT_MS)
    message = page.inner_text("#error")
    assert "version" not in message.lower(), message
    assert "another tab" in message, message
    wait_for_prompt(page, "second_card")


def test_a_quick_double_click_on_the_deck_draws_one_card_and_says_so(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    keep_all_offered(ada, game_id)
    hand_before = sum(view_of(ada, game_id)["state"]["you"]["hand"].values())
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    wait_for_prompt(page, "turn_action")
    sent = record_actions(page)
    # The server answers slowly: every button stays disabled until it has.
    page.evaluate(
        """() => {
            const send = window.fetch;
            window.fetch = (url, options) => /actions$/.test(url)
                ? new Promise((done) => setTimeout(done, 600)).then(() => send(url, options))
                : send(url, options);
        }"""
    )
    page.eval_on_selector("#draw-blind", "b => { b.click(); b.click(); }")
    assert page.is_disabled("#draw-blind")
    assert page.locator("#market button:not([disabled])").count() == 0
    page.wait_for_selector("#toast:not([hidden])", timeout=TIMEOUT_MS)
    assert "You drew" in page.inner_text("#toast")
    wait_for_prompt(page, "second_card")
    assert len(sent) == 1
    assert sum(view_of(ada, game_id)["state"]["you"]["hand"].values()) == hand_before + 1


def test_an_error_does_not_move_the_board(browser, web_server):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    keep_all_offered(ada, game_id)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")
    wait_for_prompt(page, "turn_action")
    before = page.locator("svg.board").bounding_box()
    page.locator("g.route:not(.selectable)").first.dispatch_event("click")
    page.wait_for_selector("#error:not([hidden])", timeout=TIMEOUT_MS)
    assert page.locator("svg.board").bounding_box() == before
    page.click("#error button.close")
    assert page.is_hidden("#error")
    assert page.locator("svg.board").bounding_box() == before


def test_the_status_line_never_runs_ahead_of_the_market(browser, web_server):
    ada, bert = make_user("ada"), make_user("bert")
    game_id = two_player_game(ada, bert, first_seat=1)
    keep_all_offered(ada, game_id)
    keep_all_offered(bert, game_id)
    page = open_as(browser, web_server.url, ada)
    # The board's data arrives well after the move log: the whose-turn line (which the
    # log refreshes) must still wait for the rest of the view.
    page.add_init_script(
        """{
            const send = window.fetch;
            window.fetch = (url, options) => /\\/boards\\//.test(url)
                ? new Promise((done) => setTimeout(done, 1500)).then(() => send(url, options))
                : send(url, options);
        }"""
    )
    page.goto(f"{web_server.url}/#/game/{game_id}")
    page.reload()
    page.wait_for_selector("#whose-turn", timeout=TIMEOUT_MS)
    assert page.locator("#market button.card-face").count() == 5
    assert page.locator("svg.board").count() == 1
