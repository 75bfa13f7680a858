"""Top-level URLs: the admin, the OpenAPI schema and its browsable docs, each app's API, the
language switch (``set_language``) and the site's pages (``web``)."""

from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from core.exceptions import unknown_api_url

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="docs"),
    path("api/", include("games.urls")),
    path("api/", include("uploads.urls")),
    path("api/", include("stats.urls")),
    # [\s\S], not ".": a path may hold a newline (%0A), which "." does not match.
    re_path(r"^api/(?:[\s\S]*/)?$", unknown_api_url),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("web.urls")),
]

handler400 = "core.exceptions.bad_request"
handler404 = "core.exceptions.not_found"
handler500 = "core.exceptions.server_error"
