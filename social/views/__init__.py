"""Thin views: parse input, call one command or query, shape the answer."""
