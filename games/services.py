"""Writes to players, stored rulesets, disputes, and who stands behind a game (clubs, links
of accounts to players, confirmations: docs/trust.md); storing a record is ``replay``'s.

Every function is keyword-only and runs in one transaction: a refused operation raises
``core.errors.Rejected`` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from core.errors import Rejected, finding_dict
from games.models import (
    Club,
    Dispute,
    DisputeStatus,
    Game,
    GameConfirmation,
    GameSeat,
    GameStatus,
    Player,
    PlayerAlias,
    PlayerLink,
    StoredRuleset,
    player_key,
)
from games.selectors import game_record_text
from games.signals import game_changed, send_for_games
from replay import (
    MAX_PLAYS,
    PLACES,
    PRESETS,
    Family,
    Verdict,
    preset_ruleset,
    record_json,
    resolve_ruleset,
    standings,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.auth.models import User as Account

    User = Account | AnonymousUser


def status_for(verdict: str) -> str:
    """The status a game gets from its verdict alone: anything but verified waits for review."""
    return GameStatus.VERIFIED if verdict == Verdict.VERIFIED else GameStatus.FLAGGED


def players_resolve(*, names: Iterable[str]) -> dict[str, int]:
    """Player ids by name key, creating players for new names; aliases lead to their target.

    Safe against a concurrent upload creating the same player: the insert ignores conflicts
    and the ids are read back.
    """
    wanted = {player_key(name): name for name in names}
    found = players_find(keys=wanted)
    new = [Player(name=wanted[k].strip()[:200], key=k[:200]) for k in wanted if k not in found]
    if new:
        Player.objects.bulk_create(new, ignore_conflicts=True)
        found.update(_players_by_key([p.key for p in new]))
    return found


def players_find(*, keys: Iterable[str]) -> dict[str, int]:
    """Player ids of the ``player_key``s that name a player already, aliases leading to their
    target; the others are left out (``players_resolve`` creates them)."""
    keys = set(keys)
    found = dict(PlayerAlias.objects.filter(key__in=keys).values_list("key", "player_id"))
    missing = [key for key in keys if key not in found]
    if missing:
        found.update(_players_by_key(missing))
    return found


def _players_by_key(keys: Sequence[str]) -> dict[str, int]:
    return dict(Player.objects.filter(key__in=keys).values_list("key", "id"))


@transaction.atomic
def player_merge(*, source: Player, target: Player, by: User | None) -> Player:
    """Merge ``source`` into ``target``: two names of one person, decided by a reviewer.

    Every seat of ``source`` moves to ``target`` (its seat-deals name the seat, not the
    player, so they follow), its name (and its aliases) become aliases of ``target`` so that
    later records with that name resolve to it, and ``source`` stays, marked
    ``merged_into``, as the trace of the decision.
    """
    if source.pk == target.pk:
        raise Rejected.one("a player cannot be merged into itself", path="/target")
    source, target = (Player.objects.select_for_update().get(pk=p.pk) for p in (source, target))
    if source.merged_into_id is not None:
        raise Rejected.one(f"{source.name} is already merged", path="/source")
    if target.merged_into_id is not None:
        raise Rejected.one(f"{target.name} is merged into another player", path="/target")
    games = set(GameSeat.objects.filter(player=source).values_list("game_id", flat=True))
    shared = games & set(GameSeat.objects.filter(player=target).values_list("game_id", flat=True))
    if shared:
        raise Rejected.one(
            f"{source.name} and {target.name} sat at one table in game {min(shared)}",
            path="/source",
            actual=sorted(shared),
        )
    GameSeat.objects.filter(player=source).update(player=target)
    PlayerAlias.objects.filter(player=source).update(player=target)
    PlayerAlias.objects.create(
        key=source.key, name=source.name, player=target, created_by=_user(by)
    )
    Player.objects.filter(merged_into=source).update(merged_into=target)
    source.merged_into = target
    source.save(update_fields=["merged_into"])
    send_for_games(game_changed, sender=__name__, game_ids=games)
    return target


@transaction.atomic
def dispute_open(
    *, game: Game, by: Account, reason: str, deal: int | None = None, trick: int | None = None
) -> Dispute:
    """Open a dispute; the game is ``disputed`` until every open dispute is decided."""
    first, second, _ = PLACES[Family(game.family)]
    if deal is not None and not 1 <= deal <= game.deals_count:
        raise Rejected.one(
            f"{first} {deal} does not exist", path="/deal", expected=game.deals_count, actual=deal
        )
    if trick is not None:
        if deal is None:
            raise Rejected.one(f"a {second} needs its {first}", path="/trick")
        # A number past what the deal holds names nothing, and one past the column's range
        # made PostgreSQL refuse the row (a 500).
        most = _deal_places(game, deal)
        if trick > most:
            raise Rejected.one(
                f"{first} {deal} has no {second} {trick}",
                path="/trick",
                expected=most,
                actual=trick,
            )
    dispute = Dispute.objects.create(
        game=game, opened_by=by, reason=reason.strip(), deal=deal, trick=trick
    )
    Game.objects.filter(pk=game.pk).update(status=GameStatus.DISPUTED, updated_at=timezone.now())
    send_for_games(game_changed, sender=__name__, game_ids=[game.pk])
    return dispute


def _deal_places(game: Game, deal: int) -> int:
    """How many tricks deal ``deal`` of the game's current record holds (the cards of a hand,
    as it states them), or turns of a rummy deal, or stages of a poker hand; where the record
    does not say, the most any game can hold (``MAX_PLAYS``)."""
    record = record_json(game_record_text(game=game))
    family = Family(game.family)
    listed = record.get("hands" if family is Family.POKER else "deals")
    entry = listed[deal - 1] if isinstance(listed, list) and len(listed) >= deal else None
    if not isinstance(entry, dict):
        return MAX_PLAYS
    if family is Family.TRICKS:
        count = entry.get("cards")
    else:
        moves = entry.get("stages" if family is Family.POKER else "turns")
        count = len(moves) if isinstance(moves, list) else None
    if isinstance(count, int) and not isinstance(count, bool) and 0 <= count <= MAX_PLAYS:
        return count
    return MAX_PLAYS


@transaction.atomic
def dispute_resolve(
    *,
    dispute: Dispute,
    decision: str,
    note: str,
    corrected_scores: Sequence[Any] | None = None,
    by: User,
) -> Dispute:
    """Decide an open dispute, recording who decided and when, and set the game's status.

    - ``upheld``: the record is wrong as the dispute says; the game is ``flagged`` and stays
      out of statistics until a corrected record replaces it.
    - ``rejected``: the record stands; the game's status follows its verdict again.
    - ``corrected``: the reviewer gives the final totals per seat (``corrected_scores``); the
      seats' totals, places and winners take them and the game is ``resolved``. The record
      itself is never modified.

    While another dispute of the game is open, the game stays ``disputed``.
    """
    dispute = Dispute.objects.select_for_update().select_related("game").get(pk=dispute.pk)
    if dispute.status != DisputeStatus.OPEN:
        raise Rejected.one(
            f"the dispute is already decided ({dispute.status})",
            path="/decision",
            status=409,
            actual=dispute.status,
        )
    decided = {DisputeStatus.UPHELD, DisputeStatus.REJECTED, DisputeStatus.CORRECTED}
    if decision not in decided:
        raise Rejected.one(
            f"unknown decision {decision!r}",
            path="/decision",
            expected=sorted(decided),
            actual=decision,
        )
    game = dispute.game
    totals = None
    if decision == DisputeStatus.CORRECTED:
        totals = _corrected_totals(corrected_scores, game.players_count)
    elif corrected_scores is not None:
        raise Rejected.one("corrected_scores go with the decision corrected", path="/decision")
    dispute.status = decision
    dispute.note = note
    dispute.corrected_scores = None if totals is None else [str(t) for t in totals]
    dispute.decided_by = _user(by)
    dispute.decided_at = timezone.now()
    dispute.save()
    if totals is not None:
        _seats_correct(game, totals)
    status: str
    if Dispute.objects.filter(game=game, status=DisputeStatus.OPEN).exists():
        status = GameStatus.DISPUTED
    elif decision == DisputeStatus.UPHELD:
        status = GameStatus.FLAGGED
    elif decision == DisputeStatus.CORRECTED:
        status = GameStatus.RESOLVED
    else:
        status = status_for(game.verdict)
    Game.objects.filter(pk=game.pk).update(status=status, updated_at=timezone.now())
    send_for_games(game_changed, sender=__name__, game_ids=[game.pk])
    return dispute


def _corrected_totals(scores: Sequence[Any] | None, players: int) -> list[Decimal]:
    if not isinstance(scores, list | tuple) or len(scores) != players:
        raise Rejected.one(
            f"corrected_scores must list {players} final totals, one per seat",
            path="/corrected_scores",
            expected=players,
            actual=scores,
        )
    totals = []
    for i, score in enumerate(scores):
        try:
            if isinstance(score, bool):
                raise InvalidOperation
            total = Decimal(str(score))
            if not total.is_finite() or abs(total) >= Decimal(10) ** 10:
                raise InvalidOperation
        except InvalidOperation:
            raise Rejected.one(
                f"corrected_scores[{i}] is not a number",
                path=f"/corrected_scores/{i}",
                actual=score,
            ) from None
        totals.append(total)
    return totals


def _seats_correct(game: Game, totals: list[Decimal]) -> None:
    places, winners = standings(game.family, totals)
    seats = list(GameSeat.objects.filter(game=game).order_by("seat"))
    for seat in seats:
        seat.total = totals[seat.seat]
        seat.place = places[seat.seat]
        seat.winner = seat.seat in winners
    GameSeat.objects.bulk_update(seats, ["total", "place", "winner"])


def _user(user: User | None) -> Any:
    return user if user is not None and user.is_authenticated else None


def ruleset_presets() -> list[dict[str, Any]]:
    """Every preset with all its options resolved (docs/rules.md, "Presets")."""
    return [{"name": name, **preset_ruleset(name).to_dict()} for name in PRESETS]


def ruleset_findings(*, preset: Any, options: Any) -> list[dict[str, Any]]:
    """What the engine refuses in a ruleset to store, located in it; [] when it is good."""
    _, findings = resolve_ruleset({"preset": preset, "options": options})
    rows = [finding_dict(f) for f in findings]
    for row in rows:
        # The engine locates the problem inside a record's "ruleset"; here the ruleset is
        # the whole object.
        if row["path"] and row["path"].startswith("/ruleset"):
            row["path"] = row["path"][len("/ruleset") :]
    return rows


@transaction.atomic
def ruleset_create(
    *, name: str, preset: str, options: dict[str, Any], by: Account
) -> StoredRuleset:
    """Save a named ruleset after the engine accepts it; its findings say what is wrong."""
    name = name.strip()
    if name in PRESETS:
        raise Rejected.one(f"{name!r} is the name of a preset", path="/name", actual=name)
    if StoredRuleset.objects.filter(name=name).exists():
        raise Rejected.one(f"a ruleset named {name!r} exists already", path="/name", actual=name)
    findings = ruleset_findings(preset=preset, options=options)
    if findings:
        raise Rejected(findings)
    try:
        with transaction.atomic():
            return StoredRuleset.objects.create(
                name=name, preset=preset, options=options, created_by=by
            )
    except IntegrityError:
        raise Rejected.one(
            f"a ruleset named {name!r} exists already", path="/name", actual=name
        ) from None


def account_token(*, user: Account) -> str:
    """The account's API token for scripts (DRF's ``Token``), made on first asking."""
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


@transaction.atomic
def account_token_renew(*, user: Account) -> str:
    """A new API token for the account; the old one stops working at once (a leaked token
    is revoked by making a new one)."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user).key


# -- who stands behind a game (docs/trust.md) -------------------------------------------------


def vouches(user: User) -> bool:
    """Whether ``user`` may approve links of accounts to players: staff, or an organiser of a
    club staff trust."""
    if not user.is_authenticated:
        return False
    return (
        bool(getattr(user, "is_staff", False))
        or Club.objects.filter(organisers=user, trusted_by__isnull=False).exists()
    )


@transaction.atomic
def player_link_request(*, user: Account, player: Player) -> PlayerLink:
    """``user`` claims to be ``player``; the claim counts once approved
    (``player_link_approve``). Asking again for the same player is harmless."""
    link = PlayerLink.objects.filter(user=user).first()
    if link is not None and link.player_id == player.pk:
        return link
    if link is not None:
        raise Rejected.one(
            f"your account is linked to player {link.player_id} already",
            code="request.invalid",
            status=409,
        )
    if PlayerLink.objects.filter(player=player).exists():
        raise Rejected.one(
            f"player {player.pk} is linked to another account", code="request.invalid", status=409
        )
    return PlayerLink.objects.create(user=user, player=player)


@transaction.atomic
def player_link_approve(*, link: PlayerLink, by: Account) -> PlayerLink:
    """Approve a link, by staff or a trusted club's organiser other than the account linked;
    the games the account confirmed may count from now on."""
    if not vouches(by) or by.pk == link.user_id:
        raise Rejected.one(
            "only staff or an organiser of a trusted club may approve another account's link",
            code="request.forbidden",
            status=403,
        )
    if link.approved_by_id is None:
        link.approved_by, link.approved_at = by, timezone.now()
        link.save(update_fields=["approved_by", "approved_at"])
        confirmed = GameConfirmation.objects.filter(user_id=link.user_id)
        send_for_games(
            game_changed, sender=__name__, game_ids=confirmed.values_list("game_id", flat=True)
        )
    return link


@transaction.atomic
def game_confirm(*, game: Game, user: Account) -> GameConfirmation:
    """``user``, linked to a player seated in ``game`` and not its uploader, stands behind it
    (the link may be approved later: the confirmation counts from then). Idempotent."""
    if game.uploaded_by_id == user.pk:
        raise Rejected.one(
            "a game's uploader cannot confirm it: someone else at the table must",
            code="request.forbidden",
            status=403,
        )
    link = PlayerLink.objects.filter(user=user).first()
    if link is None or not GameSeat.objects.filter(game=game, player_id=link.player_id).exists():
        raise Rejected.one(
            "only an account linked to a player seated in the game may confirm it",
            code="request.forbidden",
            status=403,
        )
    confirmation, created = GameConfirmation.objects.get_or_create(game=game, user=user)
    if created:
        send_for_games(game_changed, sender=__name__, game_ids=[game.pk])
    return confirmation


@transaction.atomic
def club_trust(*, club: Club, by: Account, trusted: bool = True) -> Club:
    """Staff trust a club, or withdraw the trust: the games its organisers uploaded are rated
    from now on, or no longer (unless someone else stands behind them)."""
    if not getattr(by, "is_staff", False):
        raise Rejected.one("only staff may trust a club", code="request.forbidden", status=403)
    if (club.trusted_by_id is not None) != trusted:
        club.trusted_by, club.trusted_at = (by, timezone.now()) if trusted else (None, None)
        club.save(update_fields=["trusted_by", "trusted_at"])
        games = Game.objects.filter(uploaded_by__in=club.organisers.all())
        send_for_games(game_changed, sender=__name__, game_ids=games.values_list("pk", flat=True))
    return club
