"""What one delivery attempt came to, whatever the channel."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DeliveryResult:
    delivered: bool
    response_code: int | None = None
    error: str = ""
    # False for failures that no retry can fix (no address, endpoint switched off).
    retry: bool = True
    # The destination itself is dead (a push token its service no longer knows).
    gone: bool = False

    @classmethod
    def ok(cls, response_code: int | None = None) -> DeliveryResult:
        return cls(True, response_code)

    @classmethod
    def failed(
        cls, error: str, response_code: int | None = None, *, retry: bool = True
    ) -> DeliveryResult:
        return cls(False, response_code, error[:1000], retry)

    @classmethod
    def gone_for_good(cls, error: str, response_code: int | None = None) -> DeliveryResult:
        return cls(False, response_code, error[:1000], retry=False, gone=True)
