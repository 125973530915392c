"""What an operator watches: the request id and the context of each log line (``context``),
JSON log lines (``logs``), the request's middleware (``requests``), Celery's signals that
carry the context into tasks (``tasks``), and the Prometheus metrics (``metrics``), served
by ``GET /metrics`` and by each worker's exporter (``exporter``). docs/operations.md,
"Metrics and logs", lists every metric and log field."""
