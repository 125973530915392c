"""Notifications for players of asynchronous games: in-app, webhooks, email and push.

The games app calls :func:`notifications.services.notify`; everything else here is
delivery (an outbox drained by Celery tasks) and the endpoints that manage it.
"""
