"""The schema says, on every operation, how the answer's language is chosen
(``Accept-Language``) and which it is (``Content-Language``): a drf-spectacular
postprocessing hook, so no operation can forget it."""

from __future__ import annotations

from typing import Any

from ttr_service.config.languages import LANGUAGE_CODES

_SPOKEN = ", ".join(f"`{code}`" for code in LANGUAGE_CODES)

ACCEPT_LANGUAGE: dict[str, Any] = {
    "in": "header",
    "name": "Accept-Language",
    "required": False,
    "schema": {"type": "string"},
    "description": (
        f"The languages the client reads, as browsers send them (`ru-RU,ru;q=0.9,en;q=0.8`). "
        f"The answer's texts for a person (a problem's `title`, `detail` and field errors) "
        f"are in the first of them the service speaks ({_SPOKEN}), else in English. The "
        f"account's own choice (`language` of `GET /auth/me`), when it has one, wins."
    ),
    "example": "ru-RU,ru;q=0.9",
}

CONTENT_LANGUAGE: dict[str, Any] = {
    "schema": {"type": "string", "enum": LANGUAGE_CODES},
    "description": "The language of the answer's texts for a person.",
}


def document_languages(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """Both once under ``components``, and a reference to each on every operation and
    every response."""
    components = result.setdefault("components", {})
    components.setdefault("parameters", {})["AcceptLanguage"] = ACCEPT_LANGUAGE
    components.setdefault("headers", {})["ContentLanguage"] = CONTENT_LANGUAGE
    parameter = {"$ref": "#/components/parameters/AcceptLanguage"}
    header = {"$ref": "#/components/headers/ContentLanguage"}
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            operation.setdefault("parameters", []).append(dict(parameter))
            for response in operation["responses"].values():
                response.setdefault("headers", {})["Content-Language"] = dict(header)
    return result
