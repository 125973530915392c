"""The JSON of the games API, declared once: each request body is read by the serializer
that declares it, each response written by the one that declares it, and the schema is
generated from the same classes."""
