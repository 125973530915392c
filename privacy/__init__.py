"""Deleting an account and exporting its data: ``POST /account/deletion`` and
``/account/exports`` (GDPR articles 17 and 20)."""
