"""Celery tasks of the privacy app: building an export, and the sweep of due deletions
and old exports. Both are safe to run twice, on any number of workers."""

from __future__ import annotations

from celery import shared_task

from privacy import deletion, exports
from ttr_service.tasks.sending import TRANSIENT_ERRORS


@shared_task(
    name=exports.BUILD,
    acks_late=True,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=True,
    max_retries=5,
)
def build_export(export_id: int) -> str:
    """Build one export's archive and tell its owner."""
    return exports.export_build(export_id)


@shared_task(name="privacy.tasks.sweep", acks_late=True)
def sweep() -> dict[str, int]:
    """Erase the accounts whose grace has ended; expire old exports, queue lost ones."""
    return {"erased": deletion.deletions_sweep(), **exports.exports_sweep()}
