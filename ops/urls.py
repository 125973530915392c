from django.urls import path

from .health import HealthView
from .liveness import LivenessView

urlpatterns = [
    path("health", HealthView.as_view(), name="health"),
    path("health/live", LivenessView.as_view(), name="health-live"),
]
