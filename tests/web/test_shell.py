"""The page that loads the web client, its static files, and what the client may call."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

STATIC = Path(__file__).resolve().parents[2] / "web" / "static" / "web"


@pytest.fixture
def client() -> Client:
    return Client()


def test_the_root_serves_the_client_page(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    body = response.content.decode()
    assert '<script type="module" src="/static/web/app.js">' in body
    assert 'href="/static/web/style.css"' in body


# What the first screen imports, and what is loaded when first shown (`import()`).
FIRST_SCREEN = {"game.js", "board.js", "lobby.js", "chatdock.js", "ondemand.js", "maps/index.js"}
ON_DEMAND = {
    "account.js",
    "friends.js",
    "replay.js",
    "quickmatch.js",
    "chat.js",
    "result.js",
    "rematch.js",
    "recap.js",
}


def test_the_page_preloads_the_first_screens_modules_at_once(client):
    # The imports of the entry point are asked for together, not level by level as each
    # module is read: a phone would wait for every level's round trip. The pages and
    # panels a first screen does not show are left to their `import()`.
    body = client.get("/").content.decode()
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/static/web/([^"]+)">', body))
    modules = {p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*.js")}
    assert preloaded >= FIRST_SCREEN
    assert not preloaded & ON_DEMAND
    assert preloaded | ON_DEMAND == modules - {"app.js"}

    # Each module left out is loaded by an import(), or imported by one that is; no module
    # of the first screen imports it statically.
    def imports(names, pattern):
        text = "\n".join((STATIC / name).read_text() for name in names)
        return set(re.findall(pattern, text, re.MULTILINE))

    static, dynamic = r'^import [^;]*?"\./([^"]+)";', r'import\("\./([^"]+)"\)'
    assert not imports(preloaded | {"app.js"}, static) & ON_DEMAND
    loaded = imports(modules, dynamic)
    assert loaded <= ON_DEMAND
    assert loaded | imports(loaded, static) >= ON_DEMAND


def test_a_game_page_starts_its_reads_before_its_modules_load(client):
    # The inline script in the head reads the game's view (then its board and options)
    # while the modules load, through /api/v1 only, and comes before every file it waits for.
    body = client.get("/").content.decode()
    head = body[: body.index("</head>")]
    script = head.index("<script>")
    assert script < head.index('rel="stylesheet"') < head.index('type="module"')
    inline = head[script : head.index("</script>", script)]
    assert "window.ttrAhead" in inline
    # Signed in with no language chosen here, the account (its language) is read there too.
    assert 'read("/auth/me")' in inline
    assert re.findall(r"fetch\(([^,)]*)", inline) == ["`/api/v1${path}`"]


def test_the_page_answers_only_get(client):
    assert client.post("/").status_code == 405


def test_it_loads_nothing_from_outside_the_server(client):
    body = client.get("/").content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', body)
    assert sources
    assert all(s.startswith(("/", "#", "data:")) for s in sources), sources
    for path in (p for p in STATIC.rglob("*") if p.is_file()):
        assert "http://" not in path.read_text().replace("http://www.w3.org/2000/svg", ""), path
        assert "https://" not in path.read_text(), path


def test_only_the_api_module_talks_to_the_server():
    # Every request goes through api.js, and api.js only reaches /api/v1: the client is
    # built on the public API alone. i18n.js reads the client's own words, and only them;
    # backdrop.js reads the boards' land and sea, static files beside it, and only them.
    callers = sorted(p.name for p in STATIC.rglob("*.js") if "fetch(" in p.read_text())
    assert callers == ["api.js", "backdrop.js", "i18n.js"]
    i18n = (STATIC / "i18n.js").read_text()
    assert re.findall(r"fetch\(([^,)]*)", i18n) == ["`/web/i18n/${code}.json`"]
    backdrop = (STATIC / "backdrop.js").read_text()
    assert re.findall(r"fetch\(([^,)]*)", backdrop) == ["url"]
    assert "new URL(`./maps/${map}.json`, import.meta.url)" in backdrop
    assert 'const BASE = "/api/v1";' in (STATIC / "api.js").read_text()
    assert "fetch(BASE + path" in (STATIC / "api.js").read_text()


def test_static_files_are_served_with_debug_off(settings, tmp_path):
    # Without DEBUG, Django serves no static files: WhiteNoise serves what collectstatic
    # gathered into STATIC_ROOT.
    settings.DEBUG = False
    settings.STATIC_ROOT = tmp_path
    call_command("collectstatic", interactive=False, verbosity=0)
    response = Client().get("/static/web/app.js")
    assert response.status_code == 200
    assert "javascript" in response["Content-Type"]
    assert b"showLobby" in b"".join(response.streaming_content)
