"""A player's vacations as the API writes them, with the days left this year."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.models import Vacation
from games.serializers.times import when
from ttr_service.http.writers import Writer


class VacationSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()


class VacationListSerializer(serializers.Serializer[Any]):
    days_per_year = serializers.IntegerField()
    days_left = serializers.FloatField(help_text="Days left this calendar year (UTC).")
    vacations = VacationSerializer(many=True)


_LIST = Writer(VacationListSerializer())


def vacation_list(
    days_per_year: int, days_left: float, vacations: list[Vacation]
) -> dict[str, Any]:
    return _LIST(
        {
            "days_per_year": days_per_year,
            "days_left": round(days_left, 2),
            "vacations": [
                {"id": v.pk, "starts_at": when(v.starts_at), "ends_at": when(v.ends_at)}
                for v in vacations
            ],
        }
    )
