"""Who is asking: selectors decide what a user may see, and staff may see everything."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.auth.models import User as Account

    User = Account | AnonymousUser


def is_staff(user: User) -> bool:
    return bool(user.is_authenticated and getattr(user, "is_staff", False))
