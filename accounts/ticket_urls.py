"""Routes under /api/v1/: stream tickets."""

from django.urls import path

from accounts import ticket_views

urlpatterns = [
    path("stream-tickets", ticket_views.StreamTicketView.as_view(), name="stream-tickets"),
]
