"""The web client in English, Greek, Vietnamese and Russian: every text it writes comes from
its catalogues (web/locale/<lang>/LC_MESSAGES/djangojs.po, served as JSON), the language
picker switches at once and is remembered, and every API request asks for the language
chosen (Accept-Language) so that the problems come back in it too."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from django.test import Client

from .pages import (
    PASSWORD,
    PHONE,
    TIMEOUT_MS,
    act,
    game_against_ai,
    keep_all_offered,
    make_user,
    open_as,
)

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "web" / "static" / "web"
LOCALE = ROOT / "web" / "locale"
LANGS = ("el", "vi", "ru")
PLURAL_FORMS = {"el": 2, "vi": 1, "ru": 3}

# The client's main labels in English: none is left on a page shown in another language.
ENGLISH_LABELS = [
    "Market",
    "My hand",
    "My tickets",
    "Players",
    "Moves",
    "Your turn",
    "Deck",
    "Discard",
    "Draw tickets",
    "Build a station",
    "Lobby",
    "Animations",
    "Sound on my turn",
    "Friends",
    "Account",
    "Log out",
    "kept",
    "to start",
    "drew",
    "Trains",
    "Score",
    "Cards",
    "My games",
    "Open games",
    "Invitations",
    "New game",
    "Quick match",
    "Create game",
    "Play now",
]

# ------------------------------------------------------------------ the catalogues
_LITERAL = r'"(?:[^"\\\n]|\\.)*"'
_CALLS = {
    # name: how many string literals it opens with, and which is the context
    "t": (1, False),
    "tn": (2, False),
    "tp": (2, True),
    "tnp": (3, True),
}


def client_texts() -> dict[str, tuple[str, str | None]]:
    """Every text the client's modules translate: key ("context|msgid" or "msgid") to
    (msgid, msgid_plural or None), as makemessages finds them."""
    found: dict[str, tuple[str, str | None]] = {}
    for path in sorted(STATIC.glob("*.js")):
        if path.name == "i18n.js":
            continue
        # Comments set aside: only calls count.
        source = "\n".join(
            line for line in path.read_text().splitlines() if not line.lstrip().startswith("//")
        )
        for name, (count, has_context) in _CALLS.items():
            for call in re.finditer(rf"(?<![\w.]){name}\(", source):
                rest = source[call.end() :]
                literals = re.match(r"\s*" + r"\s*,\s*".join([f"({_LITERAL})"] * count), rest)
                assert literals, (
                    f"{path.name}: {name}( without {count} plain string literal(s) "
                    f"(makemessages cannot find it): {rest[:60]!r}"
                )
                texts = [json.loads(g) for g in literals.groups()]
                context = texts.pop(0) if has_context else None
                msgid, plural = texts[0], (texts[1] if len(texts) > 1 else None)
                found[f"{context}|{msgid}" if context else msgid] = (msgid, plural)
    return found


def catalogue(lang: str) -> tuple[str, dict[str, dict[str, object]]]:
    """A .po file's header and entries by key ("context|msgid" or "msgid")."""
    entries: dict[str, dict[str, object]] = {}
    text = (LOCALE / lang / "LC_MESSAGES" / "djangojs.po").read_text(encoding="utf-8")
    header = ""
    for block in text.strip().split("\n\n"):
        entry: dict[str, object] = {"flags": [], "msgstr": {}}
        field: tuple[str, int] | None = None
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"] = [f.strip() for f in line[2:].split(",")]  # type: ignore[assignment]
                continue
            if line.startswith("#"):
                continue
            m = re.match(r'(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d)\])? (".*")$', line)
            if m:
                value = ast.literal_eval(m.group(3))
                if m.group(1) == "msgstr":
                    field = ("msgstr", int(m.group(2) or 0))
                    entry["msgstr"][field[1]] = value  # type: ignore[index]
                else:
                    field = (m.group(1), 0)
                    entry[m.group(1)] = value
            elif line.startswith('"') and field:
                value = ast.literal_eval(line)
                if field[0] == "msgstr":
                    entry["msgstr"][field[1]] += value  # type: ignore[index]
                else:
                    entry[field[0]] = str(entry[field[0]]) + value
        if entry.get("msgid") == "":
            header = entry["msgstr"][0]  # type: ignore[index]
            entries[""] = entry
            continue
        if "msgid" in entry:
            context = entry.get("msgctxt")
            entries[f"{context}|{entry['msgid']}" if context else str(entry["msgid"])] = entry
    return header, entries


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"%\(\w+\)[sd]", text))


def test_the_client_translates_its_texts():
    texts = client_texts()
    # A sample of every kind: a label, a count, a verb said to you.
    assert "Log in" in texts
    assert texts["%(n)s player"] == ("%(n)s player", "%(n)s players")
    assert "you|drew from the deck" in texts
    assert len(texts) > 300
    for path in STATIC.glob("*.js"):
        # A template literal inside t() would never be found by makemessages.
        assert not re.search(r"(?<![\w.])(t|tn|tp|tnp)\(\s*`", path.read_text()), path.name


@pytest.mark.parametrize("lang", LANGS)
def test_every_client_text_is_translated_in_each_catalogue(lang):
    header, entries = catalogue(lang)
    assert f"Language: {lang}" in header
    assert f"nplurals={PLURAL_FORMS[lang]};" in header
    assert "fuzzy" not in entries[""]["flags"]  # type: ignore[operator]
    missing = []
    for key, (msgid, plural) in client_texts().items():
        entry = entries.get(key)
        if entry is None:
            missing.append(key)
            continue
        assert "fuzzy" not in entry["flags"], (lang, key)  # type: ignore[operator]
        forms = entry["msgstr"]
        assert isinstance(forms, dict)
        if plural is None:
            assert forms[0], (lang, key)
            assert placeholders(forms[0]) == placeholders(msgid), (lang, key, forms[0])
        else:
            assert entry.get("msgid_plural") == plural, (lang, key)
            assert len(forms) == PLURAL_FORMS[lang], (lang, key, forms)
            for form in forms.values():
                assert form, (lang, key)
                assert placeholders(form) == placeholders(plural), (lang, key, form)
    assert not missing, f"not in web/locale/{lang}/LC_MESSAGES/djangojs.po: {missing}"


def test_the_catalogue_is_served_as_cacheable_json():
    client = Client()
    answer = client.get("/web/i18n/ru.json")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/json")
    assert "max-age" in answer["Cache-Control"]
    words = answer.json()["catalog"]
    assert words["Log in"] == "Войти"
    assert len(words["%(n)s player"]) == 3
    assert words["you\x04drew from the deck"] == "тянете карту из колоды"
    again = client.get("/web/i18n/ru.json", HTTP_IF_NONE_MATCH=answer["ETag"])
    assert again.status_code == 304
    assert client.get("/web/i18n/de.json").status_code == 404
    assert client.get("/web/i18n/el.json").json()["catalog"]["Log in"] == "Σύνδεση"


# ------------------------------------------------------------------ in the browser
def languages_of_api_calls(page) -> list[tuple[str, str]]:
    """(method path, Accept-Language) of every API request the page sends through api.js:
    an event stream (EventSource) cannot set a header, and carries the browser's own."""
    sent: list[tuple[str, str]] = []

    def on_request(request) -> None:
        if "/api/v1/" in request.url and request.resource_type != "eventsource":
            path = request.url.split("/api/v1", 1)[1].split("?")[0]
            sent.append((f"{request.method} {path}", request.headers.get("accept-language", "")))

    page.on("request", on_request)
    return sent


def visible_text(page) -> str:
    return page.evaluate("() => document.title + '\\n' + document.body.innerText")


def leftover_english(text: str) -> list[str]:
    return [label for label in ENGLISH_LABELS if re.search(rf"\b{re.escape(label)}\b", text)]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_fast_passwords")
def test_a_russian_phone_plays_in_russian(browser, web_server, artifacts):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=2)
    keep_all_offered(ada, game_id)  # the AI seats keep theirs: ada's turn
    act(ada, game_id, {"type": "draw_blind"})

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="ru-RU")
    page = context.new_page()
    calls = languages_of_api_calls(page)
    page.goto(f"{web_server.url}/")
    page.wait_for_selector("#login:has-text('Войти')", timeout=TIMEOUT_MS)
    assert page.evaluate("document.documentElement.lang") == "ru"
    assert page.input_value("#language") == "ru"
    page.screenshot(path=str(artifacts / "ru-phone-login.png"))
    page.fill("input[name=username]", "ada")
    page.fill("input[name=password]", PASSWORD)
    page.click("#login")

    page.wait_for_selector("#create-game", timeout=TIMEOUT_MS)
    page.wait_for_selector(f"#my-games li[data-game='{game_id}']", timeout=TIMEOUT_MS)
    lobby = visible_text(page)
    for words in (
        "Быстрая игра",
        "Мои игры",
        "Открытые игры",
        "Новая игра",
        "Создать игру",
        "Выйти",
    ):
        assert words in lobby, words
    assert "ваш ход" in page.inner_text(f"#my-games li[data-game='{game_id}'] .badge")
    assert not leftover_english(lobby), leftover_english(lobby)
    page.screenshot(path=str(artifacts / "ru-phone-lobby.png"), full_page=True)

    page.click(f"#my-games li[data-game='{game_id}'] a")
    page.wait_for_selector("#whose-turn:has-text('Ваш ход')", timeout=TIMEOUT_MS)
    page.wait_for_selector("#log li", timeout=TIMEOUT_MS)
    game = visible_text(page)
    for words in ("Рынок", "Мои карты", "Мои билеты", "Игроки", "Вагоны", "Колода (", "Ходы ("):
        assert words in game, words
    assert page.title().startswith("▶ Ваш ход")
    log = page.locator("#log li").all_inner_texts()
    # ada's own moves said to her, the AI seats' of them: the verbs differ.
    assert any(
        line.startswith("Вы") and "оставляете" in line and "на старте" in line for line in log
    ), log
    assert any("оставляет" in line for line in log), log
    assert any(line.startswith("Вы тянете") and "из колоды" in line for line in log), log
    assert not leftover_english(game), leftover_english(game)
    page.screenshot(path=str(artifacts / "ru-phone-game.png"), full_page=True)
    assert calls
    assert {language for _, language in calls} == {"ru"}, calls

    # The account bar stays one line, every link in it on the screen, in Greek too (longer).
    for lang in ("ru", "el"):
        if lang != "ru":
            page.select_option("#language", lang)
            page.wait_for_selector(f"html[lang={lang}] #market h3", timeout=TIMEOUT_MS)
            page.screenshot(path=str(artifacts / f"{lang}-phone-game.png"))
        assert page.locator(".topbar").bounding_box()["height"] < 48
        assert page.inner_text(".language-picker .code") == lang.upper()
        for link in ("a.brand", "#nav-friends", "#nav-account", ".language-picker", "#logout"):
            box = page.locator(link).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (lang, link, box)

    context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_fast_passwords")
def test_the_picker_switches_at_once_and_is_remembered(browser, web_server, artifacts):
    ada = make_user("ada")
    game_id = game_against_ai(ada, ais=1)
    keep_all_offered(ada, game_id)
    page = open_as(browser, web_server.url, ada, f"#/game/{game_id}")  # an English browser
    page.wait_for_selector("#whose-turn:has-text('Your turn')", timeout=TIMEOUT_MS)
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.inner_text("#market h3") == "Market"
    calls = languages_of_api_calls(page)
    patches: list[object] = []
    page.on(
        "request",
        lambda r: (
            patches.append(json.loads(r.post_data or "null"))
            if r.method == "PATCH" and r.url.endswith("/api/v1/auth/me")
            else None
        ),
    )

    page.select_option("#language", "el")
    page.wait_for_selector("#market h3:has-text('Αγορά')", timeout=TIMEOUT_MS)
    assert page.inner_text("#whose-turn") == "Η σειρά σου"  # noqa: RUF001
    assert page.evaluate("document.documentElement.lang") == "el"
    assert page.evaluate("localStorage.getItem('ttr.language')") == "el"
    assert page.input_value("#language") == "el"
    assert not leftover_english(visible_text(page)), leftover_english(visible_text(page))
    # The account is told too (a server that does not keep a language refuses it, which
    # the page takes quietly: the choice stays in this browser).
    page.wait_for_timeout(500)
    assert patches == [{"language": "el"}]
    assert page.is_hidden("#error")
    page.screenshot(path=str(artifacts / "el-desktop-game.png"))

    # Every request after the switch asks for Greek, after a reload too.
    assert ("PATCH /auth/me", "el") in calls, calls
    calls.clear()
    page.reload()
    page.wait_for_selector("#market h3:has-text('Αγορά')", timeout=TIMEOUT_MS)
    assert calls and {language for _, language in calls} == {"el"}, calls

    page.select_option("#language", "vi")
    page.wait_for_selector("#market h3:has-text('Chợ bài')", timeout=TIMEOUT_MS)
    page.select_option("#language", "en")
    page.wait_for_selector("#market h3:has-text('Market')", timeout=TIMEOUT_MS)
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.inner_text("#whose-turn") == "Your turn"


@pytest.mark.django_db(transaction=True)
def test_the_login_page_has_the_picker(browser, web_server):
    page = browser.new_page()
    page.goto(f"{web_server.url}/")
    page.wait_for_selector("#login:has-text('Log in')", timeout=TIMEOUT_MS)
    names = page.eval_on_selector_all("#language option", "os => os.map(o => o.textContent)")
    assert names == ["English", "Ελληνικά", "Tiếng Việt", "Русский"]
    page.select_option("#language", "vi")
    page.wait_for_selector("#login:has-text('Đăng nhập')", timeout=TIMEOUT_MS)
    assert page.inner_text("#signup") == "Đăng ký"
    assert page.title() == "Ticket to Ride"
    page.reload()
    page.wait_for_selector("#login:has-text('Đăng nhập')", timeout=TIMEOUT_MS)
    assert page.evaluate("document.documentElement.lang") == "vi"
    page.close()
