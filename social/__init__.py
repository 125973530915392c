"""Friends and blocks over HTTP: friend requests, friends (and whether each is playing
now), blocks, and the preference to be invited by friends only.

The facts and their changes live in ``accounts`` (``relations``, ``friends``, ``blocks``),
where the games app and others consult them; this app is their endpoints, and reads the
games to tell which friends are in a game now.
"""
