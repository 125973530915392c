"""``ttr_notification_outbox_backlog``: the outbox rows not yet delivered or given up, by
channel and status (``pending``: waiting to be sent; ``sending``: claimed by a worker),
counted at each scrape of ``GET /metrics``."""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models import Count
from prometheus_client.core import GaugeMetricFamily, Metric

from .models import Channel, Delivery, DeliveryStatus

WAITING = (DeliveryStatus.PENDING, DeliveryStatus.SENDING)


class OutboxBacklog:
    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily(
            "ttr_notification_outbox_backlog",
            "Outbox rows waiting to be delivered, by channel and status (pending, sending).",
            labels=["channel", "status"],
        )
        counts = {
            (row["channel"], row["status"]): row["n"]
            for row in Delivery.objects.filter(status__in=WAITING)
            .order_by()
            .values("channel", "status")
            .annotate(n=Count("id"))
        }
        for channel in Channel.values:
            for status in WAITING:
                family.add_metric([channel, status.value], float(counts.get((channel, status), 0)))
        yield family
