"""Data exports: asked for, built by a worker, downloaded once by their owner.

An account has at most one export being built (``EXPORT_PENDING``), and asks for at most
one per ``DATA_EXPORT_INTERVAL_MINUTES`` (``EXPORT_THROTTLED``, with ``Retry-After``;
failed ones do not count). The worker builds the archive (``archive.archive_of``) and
keeps it in the export's row, then tells its owner (``export_ready``: in-app, push, the
event stream, as every notice). It may be downloaded once, until ``DATA_EXPORT_HOURS``
after it was ready; the download and the expiry both drop the archive from the row.

The archive is kept in the database, gzipped (an archive is about a tenth of its JSON that
way: docs/decisions/0502), and not sealed: it holds nothing the database does not already
hold in the clear, the web servers and workers share the database (not a disk), and it is
dropped once downloaded or expired.
"""

from __future__ import annotations

import gzip
import json
import logging
import math
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from notifications.services import notification_send
from privacy.archive import archive_of
from privacy.models import DataExport, ExportStatus
from ttr_service.http.codes import Code
from ttr_service.http.problems import ServiceError
from ttr_service.tasks.sending import TRANSIENT_ERRORS, send_task, send_task_on_commit

logger = logging.getLogger(__name__)

BUILD = "privacy.tasks.build_export"
# gzip's default: a tenth of the size in about a tenth of the time the archive takes to build.
GZIP_LEVEL = 6
# A pending export older than this is queued again by the sweep (its message was lost).
STUCK = timedelta(minutes=5)


def status_of(export: DataExport, now: datetime | None = None) -> str:
    """The export's status now: a ready one past its time is expired, swept or not."""
    now = now or timezone.now()
    if export.status == ExportStatus.READY and export.expires_at and export.expires_at <= now:
        return ExportStatus.EXPIRED
    return export.status


def _throttled(wait: float) -> ServiceError:
    seconds = max(1, math.ceil(wait))
    error = ServiceError(
        Code.EXPORT_THROTTLED,
        ngettext(
            "An export was asked for less than %(minutes)d minute ago.",
            "An export was asked for less than %(minutes)d minutes ago.",
            settings.DATA_EXPORT_INTERVAL_MINUTES,
        )
        % {"minutes": settings.DATA_EXPORT_INTERVAL_MINUTES}
        + " "
        + ngettext("Try again in %(seconds)d second.", "Try again in %(seconds)d seconds.", seconds)
        % {"seconds": seconds},
    )
    error.wait = seconds
    return error


def _pending() -> ServiceError:
    return ServiceError(
        Code.EXPORT_PENDING, _("An export of your account is being built; wait for it.")
    )


def export_request(user: User, now: datetime | None = None) -> DataExport:
    """A new export of ``user``'s data, built by a worker once this commits."""
    now = now or timezone.now()
    interval = timedelta(minutes=settings.DATA_EXPORT_INTERVAL_MINUTES)
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        mine = DataExport.objects.filter(user=user)
        if mine.filter(status=ExportStatus.PENDING).exists():
            raise _pending()
        last = mine.exclude(status=ExportStatus.FAILED).order_by("-created_at").first()
        if last is not None and last.created_at + interval > now:
            raise _throttled((last.created_at + interval - now).total_seconds())
        try:
            with transaction.atomic():
                export = DataExport.objects.create(user=user, created_at=now)
        except IntegrityError:  # SQLite has no row lock: the unique pending row decides
            raise _pending() from None
        send_task_on_commit(BUILD, export.pk)
    return export


def exports_of(user: User) -> QuerySet[DataExport]:
    return DataExport.objects.filter(user=user).defer("archive")


def export_of(user: User, export_id: int) -> DataExport:
    """One of the user's exports; someone else's is as unknown as a missing one."""
    export = exports_of(user).filter(pk=export_id).first()
    if export is None:
        raise ServiceError(Code.NOT_FOUND, _("You have no export with this id."))
    return export


def export_build(export_id: int, now: datetime | None = None) -> str:
    """Build a pending export's archive and tell its owner (the worker's part); safe to
    run again: an export no longer pending is left as it is. Returns its status."""
    export = DataExport.objects.filter(pk=export_id).select_related("user").first()
    if export is None or export.status != ExportStatus.PENDING:
        return export.status if export is not None else "missing"
    now = now or timezone.now()
    try:
        text = json.dumps(archive_of(export.user, now), separators=(",", ":")).encode()
    except TRANSIENT_ERRORS:
        raise  # the task runs again
    except Exception:
        logger.exception("Could not build export %s", export_id)
        DataExport.objects.filter(pk=export_id, status=ExportStatus.PENDING).update(
            status=ExportStatus.FAILED
        )
        return ExportStatus.FAILED
    expires_at = now + timedelta(hours=settings.DATA_EXPORT_HOURS)
    with transaction.atomic():
        done = DataExport.objects.filter(pk=export_id, status=ExportStatus.PENDING).update(
            status=ExportStatus.READY,
            archive=gzip.compress(text, compresslevel=GZIP_LEVEL),
            ready_at=now,
            expires_at=expires_at,
        )
        if done:
            notification_send(
                export.user,
                "export_ready",
                data={"export_id": export_id, "expires_at": expires_at.isoformat()},
                dedupe_key=f"export:{export_id}",
            )
    return ExportStatus.READY


def export_download(user: User, export_id: int, now: datetime | None = None) -> bytes:
    """The archive (its JSON) of one of the user's ready exports, given once: the row is
    marked downloaded and the archive dropped in the same compare-and-swap that gives it."""
    now = now or timezone.now()
    export = DataExport.objects.filter(user=user, pk=export_id).first()
    if export is None:
        raise ServiceError(Code.NOT_FOUND, _("You have no export with this id."))
    status = status_of(export, now)
    if status in (ExportStatus.PENDING, ExportStatus.FAILED):
        raise ServiceError(
            Code.EXPORT_NOT_READY,
            _("The export is still being built.")
            if status == ExportStatus.PENDING
            else _("The export could not be built; ask for a new one."),
        )
    taken = DataExport.objects.filter(
        pk=export_id, status=ExportStatus.READY, expires_at__gt=now
    ).update(status=ExportStatus.DOWNLOADED, downloaded_at=now, archive=None)
    if not taken:
        raise ServiceError(
            Code.EXPORT_GONE,
            _("This export was downloaded already, or has expired; ask for a new one."),
        )
    assert export.archive is not None
    return gzip.decompress(bytes(export.archive))


def exports_sweep(now: datetime | None = None) -> dict[str, int]:
    """Expire the exports past their time (their archives dropped), and queue again the
    ones whose build was lost (the beat's sweep)."""
    now = now or timezone.now()
    expired = DataExport.objects.filter(status=ExportStatus.READY, expires_at__lte=now).update(
        status=ExportStatus.EXPIRED, archive=None
    )
    stuck = DataExport.objects.filter(status=ExportStatus.PENDING, created_at__lte=now - STUCK)
    requeued = sum(1 for pk in stuck.values_list("pk", flat=True) if send_task(BUILD, pk))
    return {"expired": expired, "requeued": requeued}


def account_erase(user: User) -> None:
    """An erased account's exports go with it (one of the erasers of ``privacy.erasure``)."""
    DataExport.objects.filter(user=user).delete()
