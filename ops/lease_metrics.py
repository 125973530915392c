"""``ttr_beat_lease_holder``: which beat holds the lease (ops/beat_lock.py), read from its
row at each scrape of ``GET /metrics``."""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models.functions import Now
from prometheus_client.core import GaugeMetricFamily, Metric

from .beat_lock import LEASE_NAME
from .models import BeatLease


class BeatLeaseHolder:
    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily(
            "ttr_beat_lease_holder",
            "1 for the beat holding the lease (host:pid:random), 0 when its lease has "
            "expired; no sample when no beat has taken it.",
            labels=["holder"],
        )
        row = (
            BeatLease.objects.filter(name=LEASE_NAME)
            .annotate(now=Now())
            .values_list("holder", "expires_at", "now")
            .first()
        )
        if row is not None:
            holder, expires_at, now = row
            family.add_metric([holder], 1.0 if expires_at > now else 0.0)
        yield family
