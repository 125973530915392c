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

    @classmethod
    def ok(cls, response_code: int | None = None) -> DeliveryResult:
        return cls(True, response_code)

    @classmethod
    def failed(
        cls, error: str, response_code: int | None = None, *, retry: bool = True
    ) -> DeliveryResult:
        return cls(False, response_code, error[:1000], retry)
