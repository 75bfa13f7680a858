"""The site's pages. ``/``, ``/games/``, ``/games/<id>/`` and ``/uploads/<id>/`` are
addresses people share."""

from django.urls import path

from web import uploads, views

urlpatterns = [
    path("", views.home, name="home"),
    path("verify/", views.verify, name="verify-page"),
    path("games/", views.game_list_page, name="game-list-page"),
    path("games/<int:game_id>/", views.game_page, name="game-page"),
    path("uploads/new/", uploads.upload_new, name="upload-new"),
    path("uploads/<int:upload_id>/", uploads.upload_page, name="upload-page"),
    path("uploads/<int:upload_id>/status/", uploads.upload_status, name="upload-status-page"),
]
