"""Accounts: sign up, sign in and out (Django's own views and forms, in the reader's
language), and the account page with the API token that scripts send
(``Authorization: Token <key>``), which the owner can replace with a new one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.selectors import player_find
from games.services import account_token, account_token_renew


def _next(request: HttpRequest) -> str:
    """Where to go after signing up: ``next`` when it is an address of this site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return reverse("account")


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form: UserCreationForm[User]
    if request.method == "POST":
        form = UserCreationForm(request.POST)
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome, %(name)s.") % {"name": user.get_username()})
            return redirect(_next(request))
        status = 400
    else:
        form = UserCreationForm()
        status = 200
    context = {"form": form, "next": request.GET.get("next", request.POST.get("next", ""))}
    return render(request, "web/signup.html", context, status=status)


@login_required
def account(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert user.is_authenticated
    player = player_find(name=user.get_username())
    context = {
        "token": account_token(user=user),
        "player_id": None if player is None else (player.merged_into_id or player.pk),
    }
    return render(request, "web/account.html", context)


@login_required
@require_POST
def token_renew(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert user.is_authenticated
    account_token_renew(user=user)
    messages.success(request, _("A new token is made; the old one no longer works."))
    return redirect("account")
