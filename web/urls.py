"""The site's pages. ``/``, ``/games/``, ``/games/<id>/``, ``/uploads/<id>/``,
``/players/<id>/``, ``/players/<a>/vs/<b>/`` and ``/leaderboards/<ruleset>/`` are addresses
people share."""

from django.contrib.auth import views as auth_views
from django.urls import path

from core.logins import GuardedAuthenticationForm
from web import accounts, players, uploads, views

urlpatterns = [
    path("", views.home, name="home"),
    path("verify/", views.verify, name="verify-page"),
    path("games/", views.game_list_page, name="game-list-page"),
    path("games/<int:game_id>/", views.game_page, name="game-page"),
    path("uploads/new/", uploads.upload_new, name="upload-new"),
    path("uploads/<int:upload_id>/", uploads.upload_page, name="upload-page"),
    path("uploads/<int:upload_id>/status/", uploads.upload_status, name="upload-status-page"),
    path("players/", players.player_list_page, name="player-list-page"),
    path("players/<int:player_id>/", players.player_page, name="player-page"),
    path("players/<int:player_id>/vs/<int:opponent_id>/", players.versus_page, name="versus-page"),
    path("leaderboards/", players.leaderboard_list_page, name="leaderboard-list-page"),
    path("leaderboards/<str:ruleset>/", players.leaderboard_page, name="leaderboard-page"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(
            template_name="web/login.html",
            authentication_form=GuardedAuthenticationForm,
            redirect_authenticated_user=True,
        ),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/", accounts.account, name="account"),
    path("accounts/token/", accounts.token_renew, name="token-renew"),
]
