"""Routes under /api/v1/: notifications, webhooks, devices."""

from django.urls import path

from .views import devices, inbox, preferences, stream, webhooks

urlpatterns = [
    path("stream", stream.UserStreamView.as_view(), name="stream"),
    path("notifications", inbox.NotificationListView.as_view(), name="notifications"),
    path(
        "notifications/read-all",
        inbox.NotificationReadAllView.as_view(),
        name="notifications-read-all",
    ),
    path(
        "notifications/preferences",
        preferences.PreferencesView.as_view(),
        name="notifications-preferences",
    ),
    path(
        "notifications/<int:notification_id>/read",
        inbox.NotificationReadView.as_view(),
        name="notification-read",
    ),
    path("webhooks", webhooks.WebhookListView.as_view(), name="webhooks"),
    path("webhooks/<int:webhook_id>", webhooks.WebhookDetailView.as_view(), name="webhook"),
    path(
        "webhooks/<int:webhook_id>/rotate-secret",
        webhooks.WebhookRotateSecretView.as_view(),
        name="webhook-rotate-secret",
    ),
    path(
        "webhooks/<int:webhook_id>/deliveries",
        webhooks.DeliveryListView.as_view(),
        name="webhook-deliveries",
    ),
    path(
        "webhooks/<int:webhook_id>/deliveries/<int:delivery_id>/redeliver",
        webhooks.DeliveryRedeliverView.as_view(),
        name="webhook-delivery-redeliver",
    ),
    path("devices", devices.DeviceListView.as_view(), name="devices"),
    path("devices/<int:device_id>", devices.DeviceDetailView.as_view(), name="device"),
]
