# The service's image. By default it runs the web server: gunicorn with uvicorn workers on
# the ASGI application, listening on 0.0.0.0:$PORT. compose.yaml runs the migrations, the
# Celery workers and the one beat from the same image with other commands. Everything is
# configured through environment variables (docs/operations.md, "Configuration").
#
#   docker build -t ttr-service .
#   docker compose up --build          # PostgreSQL, Redis, web, workers, beat
# The translation catalogues (<app>/locale/<lang>/LC_MESSAGES/*.po) are compiled here, with
# GNU gettext's msgfmt, which the service's image does not need: only the .mo files are
# taken from this stage (the .po files come with the code).
FROM python:3.11-slim-bookworm AS catalogues
RUN apt-get update \
    && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN find . -path ./.venv -prune -o -path '*/locale/*/LC_MESSAGES/*.po' -print | while read -r po; do \
        mkdir -p "/compiled/$(dirname "$po")" \
        && msgfmt --check --output-file="/compiled/${po%.po}.mo" "$po" || exit 1; \
    done

FROM python:3.11-slim-bookworm

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1

WORKDIR /app

# The dependencies first, read from pyproject.toml alone, so that a change to the code
# reuses this layer. Every one has a wheel (psycopg's binary package brings libpq).
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install --no-cache-dir --disable-pip-version-check -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# The code (.dockerignore lets in only what the service runs), then the static files that
# WhiteNoise serves from var/static. The key given here is for collectstatic only; none is
# kept in the image, and DEBUG off makes a running container require its own SECRET_KEY.
COPY . .
COPY --from=catalogues /compiled/ ./
RUN groupadd --system --gid 10001 ttr \
    && useradd --system --uid 10001 --gid ttr --home-dir /app/var --no-create-home ttr \
    && DEBUG=false SECRET_KEY=collectstatic-only-not-a-secret \
        python manage.py collectstatic --noinput --verbosity 0 \
    && test ! -e var/secret_key \
    && chown -R ttr:ttr var

# Not root: the processes may write only var/, their home (the beat's schedule file, gunicorn's
# control socket).
USER ttr:ttr

# Each web process runs its synchronous views on WEB_THREADS long-lived threads, each
# keeping its database connection between requests (DATABASE_CONN_MAX_AGE, 60 s), and its
# event streams on its event loop: at most WEB_THREADS + STREAM_DB_THREADS connections a
# process (ttr_service/http/threads.py, docs/decisions/0202).
ENV DEBUG=false \
    PORT=8000 \
    WEB_CONCURRENCY=4
EXPOSE 8000

# gunicorn reads PORT (it binds 0.0.0.0:$PORT) and WEB_CONCURRENCY (its worker processes)
# itself: about two uvicorn workers a core. Each request is logged by the service itself, a
# JSON line with its request id (LOG_FORMAT), so gunicorn writes no access log of its own.
CMD ["gunicorn", "ttr_service.asgi:application", "--config", "python:ttr_service.gunicorn_conf", "--worker-class", "uvicorn_worker.UvicornWorker", "--graceful-timeout", "5"]
