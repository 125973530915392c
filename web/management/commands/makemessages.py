"""Django's makemessages, which also finds the web client's t("…") and tn("…", "…", n)
(web/static/web/i18n.js) when it makes the djangojs catalogues."""

from __future__ import annotations

from typing import Any

from django.core.management.commands import makemessages

# xgettext's keywords for the client's functions: t(msgid, values), tn(singular, plural, n),
# tp(context, msgid, values) and tnp(context, singular, plural, n).
CLIENT_KEYWORDS = ["--keyword=t", "--keyword=tn:1,2", "--keyword=tp:1c,2", "--keyword=tnp:1c,2,3"]


class Command(makemessages.Command):
    def process_locale_dir(self, locale_dir: Any, files: Any) -> None:
        if self.domain != "djangojs":
            super().process_locale_dir(locale_dir, files)
            return
        saved = self.xgettext_options
        self.xgettext_options = [*saved, *CLIENT_KEYWORDS]
        try:
            super().process_locale_dir(locale_dir, files)
        finally:
            self.xgettext_options = saved
