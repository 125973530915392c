"""The problem side of the OpenAPI schema, generated from the declared codes.

``problems(...)`` gives an operation its
error responses from the codes it names: each status the codes have, described by the
codes' meanings (or a text of the operation's own for one of them), plus what every
operation may answer (401 and 429, and 413 and 415 where it reads a body).
"""

from __future__ import annotations

from typing import Any, Literal

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from ttr_service.http.codes import Code, ProblemCode, declared
from ttr_service.http.problems import PROBLEM_CONTENT_TYPE, ProblemSerializer, problem

Token = Literal["required", "optional", "none"]
"""What an operation does with a token: needs one, takes one if sent, or reads none."""

Named = ProblemCode | tuple[ProblemCode, str]
"""A code an operation answers, alone or with the operation's own words for it."""


_TOKEN_CODES: dict[Token, tuple[Named, ...]] = {
    "required": (Code.NOT_AUTHENTICATED, Code.AUTHENTICATION_FAILED),
    "optional": (
        (
            Code.AUTHENTICATION_FAILED,
            "A token was sent that is unknown, expired or revoked (without one, the operation "
            "answers as to anyone).",
        ),
    ),
    "none": (),
}
_KEY_CODES: tuple[Named, ...] = (
    Code.BAD_IDEMPOTENCY_KEY,
    Code.IDEMPOTENCY_KEY_IN_FLIGHT,
    Code.IDEMPOTENCY_KEY_REUSED,
)
_BODY_CODES: tuple[Named, ...] = (
    Code.VALIDATION_ERROR,
    Code.MALFORMED_JSON,
    Code.REQUEST_TOO_LARGE,
    Code.BODY_TOO_LARGE,
    Code.UNSUPPORTED_MEDIA_TYPE,
)


def _described(code: ProblemCode, text: str) -> str:
    said = f"`{code}`: {text}"
    return said if said.endswith(".") else said + "."


def problems(
    *codes: Named, body: bool = False, token: Token = "required", keyed: bool = False
) -> dict[Any, OpenApiResponse]:
    """The problem responses of an operation that answers ``codes`` (each status they
    have, described by what each code means there), with those every operation may give:
    401 as ``token`` says, 429 ``THROTTLED``, with ``body`` (it reads a request body)
    400 ``VALIDATION_ERROR`` and ``MALFORMED_JSON``, 413 and 415, and with ``keyed`` (it
    takes an Idempotency-Key) the key's refusals."""
    named = [
        *_TOKEN_CODES[token],
        *(_BODY_CODES if body else ()),
        *(_KEY_CODES if keyed else ()),
        *codes,
        Code.THROTTLED,
    ]
    by_status: dict[int, dict[str, str]] = {}
    for item in named:
        code, text = item if isinstance(item, tuple) else (item, declared(item).meaning)
        by_status.setdefault(declared(code).status, {})[str(code)] = _described(code, text)
    return {
        (status, PROBLEM_CONTENT_TYPE): OpenApiResponse(
            ProblemSerializer, description=" ".join(texts.values())
        )
        for status, texts in sorted(by_status.items())
    }


def problem_example(
    code: ProblemCode,
    detail: str,
    path: str,
    errors: list[dict[str, str]] | None = None,
    *,
    name: str | None = None,
    **members: Any,
) -> OpenApiExample:
    """A problem body as the schema shows it for one response (named by its code unless
    ``name`` is given)."""
    return OpenApiExample(
        name or str(code),
        value=problem(code, detail, path, errors, **members),
        response_only=True,
        status_codes=[str(declared(code).status)],
        media_type=PROBLEM_CONTENT_TYPE,
    )
