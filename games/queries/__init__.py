"""Reads of games: they never write (a read that finds a passed deadline queues its
settling). Named for what they return."""
