from datetime import timedelta
from typing import Any, Final

from rest_framework.settings import APISettings

class KnoxSettings(APISettings):
    # The settings this service reads, with their types; APISettings answers the others.
    AUTH_HEADER_PREFIX: str
    TOKEN_TTL: timedelta | None
    TOKEN_PREFIX: str
    AUTO_REFRESH: bool
    @property
    def user_settings(self) -> dict[str, Any]: ...

knox_settings: KnoxSettings

class _Constants:
    TOKEN_KEY_LENGTH: Final[int]
    DIGEST_LENGTH: Final[int]
    MAXIMUM_TOKEN_PREFIX_LENGTH: Final[int]

CONSTANTS: _Constants
