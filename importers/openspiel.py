"""OpenSpiel's ``oh_hell`` game: docs/importers.md "openspiel".

Both forms hold the game's parameters and its history of actions, from which the deal is
replayed as OpenSpiel plays it:

- ``SerializeGameAndState`` text: a ``[Game]`` section, ``oh_hell(players=4,…)``, and a
  ``[State]`` section, one action a line;
- a playthrough transcript: ``game: oh_hell``, ``GetParameters() = {…}``, and for each state
  ``History() = […]`` and ``Returns() = […]``; the last state is read.

The actions: the number of tricks, the dealer, the cards dealt (the ``i``-th to player
``i mod N``), the trump card, one bid per player from the dealer's left (``52 + bid``),
then the cards played. A card is ``rank × 4 + suit`` (suits clubs, diamonds, spades,
hearts; ranks 2 … A). One game is one deal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from replay import Code, Finding

from .base import Imported, Json, SourceError, failed, utf8_text, with_findings

RANKS = "23456789TJQKA"
SUITS = "CDSH"
DEFAULTS: dict[str, int | bool] = {
    "players": 3,
    "num_suits": 4,
    "num_cards_per_suit": 13,
    "num_tricks_fixed": -1,
    "off_bid_penalty": False,
    "points_per_trick": 1,
}


@dataclass(frozen=True, slots=True)
class Source:
    """What either form says: the game's parameters, the actions with the line each was
    read from, and the returns when the transcript reached the end."""

    game: str
    parameters: dict[str, int | bool]
    actions: list[tuple[int, int]]  #: (action, line)
    returns: list[float] | None


def convert(data: bytes, name: str) -> list[Imported]:
    try:
        text = utf8_text(data, name)
        source = _serialized(text, name) if "[State]" in text else _transcript(text, name)
        return [_game(source, name)]
    except SourceError as error:
        return [failed(name, error)]


def _serialized(text: str, name: str) -> Source:
    section, game, actions = "", "", []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line in ("[Meta]", "[Game]", "[State]"):
            section = line
        elif section == "[Game]":
            game = line
        elif section == "[State]":
            if line.startswith("starting_state="):
                raise SourceError(
                    Code.IMPORT_UNMAPPED, f"line {number}: a state that starts elsewhere"
                )
            actions.append((_int(line, number), number))
    match = re.fullmatch(r"(\w+)(?:\((.*)\))?", game)
    if match is None:
        raise SourceError(Code.IMPORT_SOURCE, f"{name}: no [Game] section naming a game")
    return Source(match[1], _parameters(match[2] or "", name), actions, None)


def _transcript(text: str, name: str) -> Source:
    game = re.search(r"^game: (\w+)", text, re.M)
    if game is None:
        raise SourceError(
            Code.IMPORT_SOURCE, f"{name}: neither a serialized state nor a playthrough"
        )
    parameters = re.search(r"^GetParameters\(\) = \{(.*)\}$", text, re.M)
    lines = text.splitlines()
    history = [n for n, line in enumerate(lines, 1) if line.startswith("History() = [")]
    if not history:
        raise SourceError(Code.IMPORT_SOURCE, f"{name}: the playthrough has no History() line")
    last = history[-1]
    inside = lines[last - 1].removeprefix("History() = [").removesuffix("]")
    actions = [(_int(a, last), last) for a in inside.split(",") if a.strip()]
    block = lines[max(n for n, line in enumerate(lines) if line.startswith("# State") or n == 0) :]
    returns = None
    if "IsTerminal() = True" in block:
        found = [line for line in block if line.startswith("Returns() = [")]
        if found:
            inner = found[-1].removeprefix("Returns() = [").removesuffix("]")
            try:
                returns = [float(v) for v in inner.split(",")]
            except ValueError as exc:
                raise SourceError(Code.IMPORT_VALUE, f"{name}: Returns() {inner!r}") from exc
    return Source(game[1], _parameters(parameters[1] if parameters else "", name), actions, returns)


def _int(text: str, line: int) -> int:
    try:
        return int(text.strip())
    except ValueError as exc:
        raise SourceError(Code.IMPORT_VALUE, f"line {line}: {text.strip()!r} is no action") from exc


def _parameters(text: str, name: str) -> dict[str, int | bool]:
    parameters = dict(DEFAULTS)
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, value = part.partition("=")
        if key not in DEFAULTS:
            raise SourceError(Code.IMPORT_UNMAPPED, f"{name}: unknown parameter {key!r}")
        if value in ("True", "true", "False", "false"):
            parameters[key] = value.lower() == "true"
        else:
            try:
                parameters[key] = int(value)
            except ValueError as exc:
                raise SourceError(Code.IMPORT_VALUE, f"{name}: parameter {part!r}") from exc
    return parameters


def _game(source: Source, name: str) -> Imported:
    if source.game != "oh_hell":
        raise SourceError(Code.IMPORT_SOURCE, f"{name}: the game is {source.game}, not oh_hell")
    p = source.parameters
    if (p["num_suits"], p["num_cards_per_suit"]) != (4, 13):
        raise SourceError(
            Code.IMPORT_UNMAPPED,
            f"{name}: a deck of {p['num_suits']} suits of {p['num_cards_per_suit']} ranks from"
            " the two: no ruleset's deck",
        )
    players = int(p["players"])
    actions = source.actions
    if len(actions) < 2:
        raise SourceError(Code.IMPORT_UNMAPPED, f"{name}: no deal yet (the tricks and the dealer)")
    (tricks, line), (dealer, dealer_line) = actions[0], actions[1]
    if not 1 <= tricks <= (52 - 1) // max(players, 1):
        raise SourceError(Code.IMPORT_VALUE, f"line {line}: {tricks} tricks for {players} players")
    fixed = int(p["num_tricks_fixed"])
    if fixed > 0 and tricks != fixed:
        raise SourceError(
            Code.IMPORT_VALUE, f"line {line}: {tricks} tricks, but num_tricks_fixed={fixed}"
        )
    line = dealer_line
    if not 0 <= dealer < players:
        raise SourceError(Code.IMPORT_VALUE, f"line {line}: dealer {dealer}")
    dealt = actions[2 : 2 + players * tricks]
    findings: list[Finding] = []
    hands: list[list[str]] = [[] for _ in range(players)]
    for i, (card, line) in enumerate(dealt):
        hands[i % players].append(_card(card, line))
    if len(dealt) < players * tricks or len(actions) < 3 + players * tricks:
        raise SourceError(Code.IMPORT_UNMAPPED, f"{name}: the cards are not all dealt yet")
    trump, line = actions[2 + players * tricks]
    rest = actions[3 + players * tricks :]
    bids: list[int | None] = [None] * players
    for k, (action, line) in enumerate(rest[:players]):
        if not 52 <= action <= 52 + tricks:
            raise SourceError(Code.IMPORT_VALUE, f"line {line}: {action} is no bid")
        bids[(dealer + 1 + k) % players] = action - 52
    plays = [_card(card, line) for card, line in rest[players:]]
    complete = len(plays) // players * players
    if complete < players * tricks:
        findings.append(
            Finding(
                Code.IMPORT_UNMAPPED,
                f"{name}: the game is not over: {len(plays)} of {players * tricks} cards played;"
                " the complete tricks are kept",
            )
        )
    deal: Json = {
        "cards": tricks,
        "hands": hands,
        "trump_card": _card(trump, line),
        "bids": bids,
        "tricks": [plays[i : i + players] for i in range(0, complete, players)],
    }
    if source.returns is not None and complete == players * tricks:
        deal["scores"] = [int(r) if r.is_integer() else r for r in source.returns]
    options: Json = {
        "points_per_trick": p["points_per_trick"],
        "off_bid_penalty": p["off_bid_penalty"],
    }
    record: Json = {
        "format": "raspis/1",
        "ruleset": {"preset": "oh_hell", "options": options},
        "players": [f"Player {i}" for i in range(players)],
        "first_dealer": dealer,
        "meta": {"source": "OpenSpiel", "game": _game_string(p)},
        "deals": [deal],
    }
    return Imported(name, with_findings(record, "openspiel", findings), tuple(findings))


def _game_string(parameters: dict[str, int | bool]) -> str:
    changed = [f"{k}={v}" for k, v in parameters.items() if DEFAULTS[k] != v]
    return f"oh_hell({','.join(changed)})"


def _card(action: int, line: int) -> str:
    if not 0 <= action < 52:
        raise SourceError(Code.IMPORT_VALUE, f"line {line}: {action} is no card")
    return RANKS[action // 4] + SUITS[action % 4]
