"""The site's pages. ``/``, ``/games/`` and ``/games/<id>/`` are addresses people share."""

from django.urls import path

from web import views

urlpatterns = [
    path("", views.home, name="home"),
    path("verify/", views.verify, name="verify-page"),
    path("games/", views.game_list_page, name="game-list-page"),
    path("games/<int:game_id>/", views.game_page, name="game-page"),
]
