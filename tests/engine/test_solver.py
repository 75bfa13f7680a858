"""The double-dummy solver (``replay.tricks.solver``): positions worked out by hand,
and, over simulated deals, that every line it gives replays without a finding and beats the
claim it refutes."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from replay import parse_record, replay, resolve_ruleset, verify
from replay.cards import CARD_CODES, play_name
from replay.simulate import simulate_game
from replay.tricks.solver import Position, takes_all


def mask(*cards: str) -> int:
    return sum(1 << CARD_CODES[c] for c in cards)


def position(
    ruleset: Any, hands: list[list[str]], trump: str | None, leader: int, trick: int = 3
) -> Position:
    resolved, findings = resolve_ruleset(ruleset)
    assert resolved is not None, findings
    singles, doubles = [], []
    for hand in hands:
        once = mask(*set(hand))
        twice = mask(*{c for c in hand if hand.count(c) == 2})
        singles.append(once)
        doubles.append(twice)
    suit = -1 if trump is None else "SCDH".index(trump)
    return Position(resolved, tuple(singles), tuple(doubles), suit, leader, trick)


def line(answer: Any) -> list[str]:
    return [play_name(code) for code in answer.line]


def test_top_cards_take_every_trick() -> None:
    answer = takes_all(position("classic", [["AH", "KH"], ["6H", "7H"], ["8H", "9H"]], "D", 0), 0)
    assert (answer.takes_all, answer.line) == (True, ())


def test_a_king_behind_the_queen_beats_the_claim_and_the_line_shows_how() -> None:
    # Anna leads AH (her first try, the highest), Vera keeps KH and takes the queen.
    hands = [["AH", "QH"], ["6H", "7H"], ["KH", "9H"]]
    answer = takes_all(position("classic", hands, "D", 0), 0)
    assert answer.takes_all is False
    assert line(answer) == ["AH", "7H", "9H", "QH", "6H", "KH"]  # 6H, 7H: equivalent


def test_a_demand_draws_the_king_and_makes_the_claim() -> None:
    """Classic (7♠ joker, suit demands, won by the joker). Anna holds the joker and QH;
    Boris KH and 6C. Led high the joker leaves Boris his king; led as the queen it loses to
    it; «по старшим червям» (7S+H) forces KH out under the joker, and QH is then master."""
    hands = [["7S", "QH"], ["KH", "6C"], ["8C", "9C"]]
    answer = takes_all(position("classic", hands, "D", 0), 0)
    assert answer.takes_all is True
    # Without suit demands (detsky allows only trumps: «по старшим козырям») it fails.
    detsky = takes_all(position("detsky", hands, "D", 0), 0)
    assert detsky.takes_all is False


def test_under_a_demand_a_void_defender_must_trump_and_the_option_decides_the_trick() -> None:
    """7S+H: Vera must give her highest heart (KH), Boris, void in hearts, must trump (6D,
    RULES §10.15). Classic gives the trick to the joker, and QH is then master; with
    ``joker_highest_suit_winner: highest_trump`` Boris' trump takes it, and every other try
    leaves Vera's king over the queen."""
    hands = [["7S", "QH"], ["6D", "6C"], ["KH", "9C"]]
    assert takes_all(position("classic", hands, "D", 0), 0).takes_all is True
    trump_wins = {"preset": "classic", "options": {"joker_highest_suit_winner": "highest_trump"}}
    answer = takes_all(position(trump_wins, hands, "D", 0), 0)
    assert answer.takes_all is False


def test_a_defenders_joker_takes_a_trick() -> None:
    hands = [["AH", "KH"], ["7S", "6H"], ["8H", "9H"]]
    answer = takes_all(position("classic", hands, "D", 0), 0)
    assert answer.takes_all is False
    assert "7S+" in line(answer)


def test_a_void_defender_must_trump_and_ruffs() -> None:
    # Boris has no heart and one trump: he must trump the ace (RULES §4).
    hands = [["AH", "KH"], ["6D", "6C"], ["8H", "9H"]]
    answer = takes_all(position("classic", hands, "D", 0), 0)
    assert answer.takes_all is False
    assert line(answer) == ["AH", "6D", "9H"]


def test_under_rotating_trumps_the_next_suit_ruffs() -> None:
    # Spades led: clubs are trumps (RULES §4). Boris, void in spades, ruffs with 6C.
    hands = [["AS"], ["6C"], ["8S"]]
    answer = takes_all(position("rotating", hands, None, 0), 0)
    assert (answer.takes_all, line(answer)) == (False, ["AS", "6C", "8S"])
    # Clubs led: diamonds are trumps, and Boris' club must follow.
    answer = takes_all(position("rotating", [["AC"], ["6C"], ["8S"]], None, 0), 0)
    assert answer.takes_all is True


TWO_DECKS = {"preset": "oh_hell", "options": {"deck": "104"}}


def test_of_two_identical_cards_the_first_played_wins() -> None:
    hands = [["AH"], ["AH"], ["2H"]]
    assert takes_all(position(TWO_DECKS, hands, None, 0), 0).takes_all is True
    beaten = takes_all(position(TWO_DECKS, hands, None, 1), 0)
    assert (beaten.takes_all, line(beaten)) == (False, ["AH", "2H", "AH"])


def test_identical_cards_decides_who_of_two_twins_takes_the_trick() -> None:
    last = {"preset": "oh_hell", "options": {"deck": "104", "identical_cards": "last_wins"}}
    cancel = {"preset": "oh_hell", "options": {"deck": "104", "identical_cards": "cancel"}}
    hands = [["AH"], ["AH"], ["2H"]]
    assert takes_all(position(last, hands, None, 1), 0).takes_all is True
    assert takes_all(position(last, hands, None, 0), 0).takes_all is False
    beaten = takes_all(position(cancel, hands, None, 0), 0)
    assert (beaten.takes_all, line(beaten)) == (False, ["AH", "AH", "2H"])


def test_a_hand_holding_both_twins_plays_one_then_the_other() -> None:
    hands = [["AH", "AH"], ["KH", "QH"], ["2H", "3H"]]
    answer = takes_all(position(TWO_DECKS, hands, None, 0), 0)
    assert answer.takes_all is True


def test_past_its_budget_the_solver_says_it_does_not_know() -> None:
    hands = [["AH", "QH", "TH"], ["KH", "JH", "9H"], ["8H", "7H", "6H"]]
    open_ = takes_all(position("classic", hands, "D", 0), 0, budget=3)
    assert (open_.takes_all, open_.line, open_.nodes) == (None, (), 4)
    assert takes_all(position("classic", hands, "D", 0), 0).takes_all is False


def _cut(record: dict[str, Any], index: int, t: int, plays: list[str]) -> dict[str, Any]:
    """The record with deal ``index`` played to trick ``t``, then along ``plays``."""
    n = len(record["players"])
    out = copy.deepcopy(record)
    deal = out["deals"][index]
    tricks = deal["tricks"][:t]
    tricks += [plays[i : i + n] for i in range(0, len(plays), n)]
    deal["tricks"] = tricks
    for key in ("taken", "scores", "running"):
        deal.pop(key, None)
    out.pop("totals", None)
    out["deals"] = out["deals"][: index + 1]
    return out


@settings(max_examples=8, deadline=None)
@given(
    st.sampled_from(["classic", "joker54", "detsky", "rotating", "two_jacks"]),
    st.integers(0, 2**32),
)
def test_every_line_replays_without_a_finding_and_beats_the_claim(preset: str, seed: int) -> None:
    record = simulate_game(preset, 4, seed)
    parsed, _ = parse_record(record)
    assert parsed is not None
    report = replay(parsed)
    n = 4
    for index, (deal, result) in enumerate(zip(parsed.deals, report.deals, strict=True)):
        if deal.cards < 2 or deal.written_hands is None or deal.tricks is None:
            continue
        t = max(0, deal.cards - 3)
        first = result.dealer if parsed.ruleset.first_leader_is_dealer else (result.dealer + 1) % n
        leaders = [first, *result.trick_winners]
        hands = [list(h) for h in deal.hands or []]
        for trick, leader in zip(deal.tricks[:t], leaders, strict=False):
            for k, code in enumerate(trick):
                hands[(leader + k) % n].remove(code & 63)
        singles = tuple(sum(1 << c for c in set(h)) for h in hands)
        doubles = tuple(sum(1 << c for c in set(h) if h.count(c) == 2) for h in hands)
        trump = -1 if result.trump is None else result.trump
        for seat in range(n):
            answer = takes_all(
                Position(parsed.ruleset, singles, doubles, trump, leaders[t], t), seat
            )
            if answer.takes_all is not False:
                continue
            plays = [play_name(code) for code in answer.line]
            assert len(plays) % n == 0
            cut = _cut(record, index, t, plays)
            out = verify(cut).to_dict()
            found = [f["code"] for f in out["findings"] if f["deal"] == index + 1]
            assert set(found) <= {"play.count"}, (plays, found)
            replayed, _ = parse_record(cut)
            assert replayed is not None
            winners = replay(replayed).deals[-1].trick_winners
            lost = winners[t:]
            assert lost[-1] != seat and all(w == seat for w in lost[:-1])


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(
        [
            "classic",
            "joker54",
            "detsky",
            "rotating",
            "two_jacks",
            TWO_DECKS,
            {"preset": "oh_hell", "options": {"deck": "104", "identical_cards": "last_wins"}},
            {"preset": "oh_hell", "options": {"deck": "104", "identical_cards": "cancel"}},
        ]
    ),
    st.integers(0, 2**32),
)
def test_the_solver_agrees_with_a_search_of_every_play(ruleset: Any, seed: int) -> None:
    """Random positions of two or three tricks, the claimer often dealt the strongest
    cards: the solver and the simulator's own search (every legal play of every seat tried,
    ``simulate.oracle.Rules._takes_all``) give the same answer."""
    import random

    from replay.simulate.corruptions import Plan
    from replay.simulate.game import Game
    from replay.simulate.oracle import deck_of

    rng = random.Random(seed)
    resolved, _ = resolve_ruleset(ruleset)
    assert resolved is not None
    n = rng.choice([3, 4])
    tricks = rng.choice([1, 2, 3])
    deck = deck_of(resolved.deck_for(n))
    cards = rng.sample(deck, n * tricks)
    trump = -1 if resolved.trump.value == "rotating" else rng.choice([-1, 0, 1, 2, 3])
    claimer = rng.randrange(n)
    if rng.random() < 0.6:  # the claimer gets the strongest cards: claims that hold, or nearly
        cards.sort(
            key=lambda c: (c >= 52 or resolved.joker_mask >> c & 1, c // 13 == trump, c % 13)
        )
        strong = cards[-tricks:]
        rest = cards[:-tricks]
        rng.shuffle(rest)
        hands = [rest[i * tricks : (i + 1) * tricks] for i in range(n - 1)]
        hands.insert(claimer, strong)
    else:
        hands = [cards[i * tricks : (i + 1) * tricks] for i in range(n)]
    leader = rng.randrange(n)
    first = rng.choice([0, 1, 4])
    game = Game(resolved, ruleset, n, seed, [f"P{s}" for s in range(n)], Plan())
    game.trump = trump
    expected = game._takes_all([list(h) for h in hands], claimer, leader, first)
    singles = tuple(sum(1 << c for c in set(h)) for h in hands)
    doubles = tuple(sum(1 << c for c in set(h) if h.count(c) == 2) for h in hands)
    answer = takes_all(Position(resolved, singles, doubles, trump, leader, first), claimer)
    assert answer.takes_all is expected, [[play_name(c) for c in h] for h in hands]
