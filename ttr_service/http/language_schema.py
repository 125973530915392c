"""The schema says, on every operation, how the answer's language is chosen
(``Accept-Language``) and which it is (``Content-Language``): a drf-spectacular
postprocessing hook, so no operation can forget it."""

from __future__ import annotations

from typing import Any

from ttr_service.config.languages import LANGUAGE_CODES

_SPOKEN = ", ".join(f"`{code}`" for code in LANGUAGE_CODES)

# On each operation itself (clients read a parameter's name there); what it does is told
# once, in the API's description ("Languages").
ACCEPT_LANGUAGE: dict[str, Any] = {
    "in": "header",
    "name": "Accept-Language",
    "required": False,
    "schema": {"type": "string"},
    "description": f"The languages the client reads (the service speaks {_SPOKEN}); the "
    "account's own `language` wins. See the API's description.",
}

CONTENT_LANGUAGE: dict[str, Any] = {
    "schema": {"type": "string", "enum": LANGUAGE_CODES},
    "description": "The language of the answer's texts for a person.",
}


def document_languages(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """The parameter on every operation; the header once under ``components``, and a
    reference to it on every response."""
    components = result.setdefault("components", {})
    components.setdefault("headers", {})["ContentLanguage"] = CONTENT_LANGUAGE
    header = {"$ref": "#/components/headers/ContentLanguage"}
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            operation.setdefault("parameters", []).append(dict(ACCEPT_LANGUAGE))
            for response in operation["responses"].values():
                response.setdefault("headers", {})["Content-Language"] = dict(header)
    return result
