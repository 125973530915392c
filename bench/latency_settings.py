"""Settings of bench/action_latency.py: the service's own, with the embedded broker moved.

``ttr_service/settings.py`` keeps the folders of kombu's filesystem transport under
``VAR_DIR``'s ``celery/`` (the checkout's ``var/celery/`` by default): a benchmark worker
there would take the tasks of any other embedded service of the checkout (and drop them,
their games being in another database), and theirs would take the benchmark's. With
``BENCH_CELERY_DIR`` set and no ``REDIS_URL``, the transport uses that folder instead and
only it moves (``VAR_DIR`` would move the service's other files too); every other setting
is ``ttr_service.settings`` unchanged.
"""

from __future__ import annotations

import os
from pathlib import Path

from ttr_service.settings import *  # noqa: F403
from ttr_service.settings import CELERY_BROKER_TRANSPORT_OPTIONS, REDIS_URL

_folder = os.environ.get("BENCH_CELERY_DIR")
if REDIS_URL is None and _folder:
    _options = dict(CELERY_BROKER_TRANSPORT_OPTIONS)
    for _key, _name in (
        ("data_folder_in", "messages"),
        ("data_folder_out", "messages"),
        ("processed_folder", "processed"),
        ("control_folder", "control"),
    ):
        _path = Path(_folder) / _name
        _path.mkdir(parents=True, exist_ok=True)
        _options[_key] = str(_path)
    CELERY_BROKER_TRANSPORT_OPTIONS = _options
