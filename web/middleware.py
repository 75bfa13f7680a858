"""The reader's language for the pages; the API keeps to English.

Django's ``LocaleMiddleware`` picks the language from the ``set_language`` cookie or the
browser. The API's findings are written by the engine in English, and a client script
reads them by their codes and fields: the framework's own messages in them (a form's
"Select a valid choice") would otherwise turn Russian for a Russian browser, half a
sentence in each language. So under ``/api/`` the default language holds.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


class PagesLocaleMiddleware(LocaleMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        if request.path_info.startswith("/api/"):
            translation.activate(settings.LANGUAGE_CODE)
            request.LANGUAGE_CODE = translation.get_language()
            return
        super().process_request(request)
