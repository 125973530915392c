"""Thin views: parse input, call one service, shape the answer."""
