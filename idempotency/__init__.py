"""Idempotency-Key for every write: a retried request gets its first answer again.

``keys`` holds what every keyed request shares (the header's form, its schema, the refusals
a key can get, how long a key is kept); ``answers`` the ``idempotent`` decorator that gives a
view's write method its once-per-key answer, kept encrypted under the key the client sent.
A person's move keeps its outcome with the move instead (``games.commands.play``).
"""
