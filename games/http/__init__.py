"""The games API's views, one module per resource: each parses its request, calls one
command or query, and writes the answer."""
