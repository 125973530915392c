"""Notifications for players of asynchronous games: in-app, webhooks, email and push.

The receivers of the games' signals (``game_notices``) call
:func:`notifications.services.notification_send`; everything else here is delivery (an
outbox drained by Celery tasks) and the endpoints that manage it.
"""
