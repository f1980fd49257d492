"""The generated tables of the profile pages: each rule set beside the default, component
by component, and the toggles of the registry.

A profile page's hand-written prose explains its choices; the table beside it is drawn
from the engine's rule components (:mod:`fivehundred.engine.rules`), so a rule that
changes in the engine changes on the page.  The toggles table of the profiles index is
drawn from the ``VARIANTS`` registry: each toggle, the profiles it applies to, the rule
points it changes (found by comparing the profile with and without it), the toggles it
cannot go with, and the disputes whose answers name it.  Words come from
:mod:`.labels`, so the Russian pages get the same tables in Russian.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType

from ..engine import DEFAULT_PROFILE, JOKER, SUITS, Profile, get_profile, rule_points, rule_value
from ..engine.bids import Bid, Misere
from ..engine.cards import is_numeral, make_card
from ..engine.profile import VARIANTS, Variant
from ..scenarios.loading.disputes import Dispute, load_disputes
from .labels import label

RULE_SET_MARKER = "<!-- fivehundred:rule-set-table -->"
"""Replaced on a profile page (``profiles/<name>.md``) by its table beside the default."""
TOGGLES_MARKER = "<!-- fivehundred:toggles-table -->"
"""Replaced on the profiles index by the table of the toggles."""

_PROFILES_DIR = "profiles/"
_SEATS = ("N", "E", "S", "W", "P5", "P6")
_RANKS = {14: "A", 13: "K", 12: "Q", 11: "J"}
_MISERE_KEYS = {
    Misere.CLOSED: "rules.bid.misere",
    Misere.OPEN: "rules.bid.open-misere",
    Misere.BLIND: "rules.bid.blind-misere",
}

Words = Callable[[object, str], str]
"""How a rule point's value is said: (value, language) → words."""


def _yes_no(value: object, language: str) -> str:
    return label("rules.yes" if value else "rules.no", language)


def _number(none_key: str) -> Words:
    """A number, or the words of ``none_key`` for none (``None`` or 0)."""

    def say(value: object, language: str) -> str:
        return str(value) if value else label(none_key, language)

    return say


def _score(none_key: str) -> Words:
    """A score (negative ones too), or the words of ``none_key`` for ``None``."""

    def say(value: object, language: str) -> str:
        return str(value).replace("-", "−") if value is not None else label(none_key, language)

    return say


def _choice(prefix: str) -> Words:
    """A named choice, said by the label ``prefix.<value>``."""

    def say(value: object, language: str) -> str:
        return label(f"{prefix}.{value}", language)

    return say


def _bid_name(bid: Bid, language: str) -> str:
    if bid.is_misere:
        return label(_MISERE_KEYS[bid.misere], language)
    return bid.display


def _deck(value: object, language: str) -> str:
    """The pack: its size, each group of suits with its lowest card, numerals, joker."""
    assert isinstance(value, tuple)
    deck = set(value)
    lowest: dict[int, list[str]] = {}
    for suit in SUITS:
        low = min((r for r in range(2, 15) if make_card(suit, r) in deck), default=None)
        if low is not None:
            lowest.setdefault(low, []).append(suit.symbol)
    parts = [
        label("rules.deck.down-to", language, suits="".join(s), rank=_RANKS.get(low, str(low)))
        for low, s in lowest.items()
    ]
    if any(is_numeral(card) for card in deck):
        parts.append(label("rules.deck.numerals", language))
    if JOKER in deck:
        parts.append(label("rules.deck.joker", language))
    return label("rules.deck", language, count=str(len(deck)), parts=", ".join(parts))


def _packets(value: object, language: str) -> str:
    assert isinstance(value, tuple)
    hands = ", ".join(str(each) for each, _ in value)
    kitty = ", ".join(str(to_kitty) for _, to_kitty in value)
    return label("rules.packets", language, hands=hands, kitty=kitty)


def _sides(value: object, language: str) -> str:
    """The sides by their seats' names (every table names its seats N, E, S, W, P5, P6)."""
    assert isinstance(value, tuple)
    if all(len(side) == 1 for side in value):
        return label("rules.single", language)
    return " · ".join("–".join(_SEATS[seat] for seat in side) for side in value)


def _order(value: object, language: str) -> str:
    """The ladder: how many bids, and where each misère stands."""
    assert isinstance(value, tuple)
    places = [
        label(
            "rules.ladder.place",
            language,
            bid=_bid_name(bid, language),
            below=_bid_name(value[index - 1], language),
        )
        for index, bid in enumerate(value)
        if bid.is_misere and index
    ]
    misere = "; " + "; ".join(places) if places else ""
    return label("rules.ladder", language, count=str(len(value)), misere=misere)


def _values(value: object, language: str) -> str:
    assert isinstance(value, Mapping)
    suits = [bid for bid in value if not bid.is_misere]
    low, high = min(suits, key=value.__getitem__), max(suits, key=value.__getitem__)
    said = [
        label(
            "rules.values",
            language,
            low=f"{low.display} {value[low]}",
            high=f"{high.display} {value[high]}",
        )
    ]
    said += [f"{_bid_name(bid, language)} {value[bid]}" for bid in value if bid.is_misere]
    return "; ".join(said)


def _misere_needs(value: object, language: str) -> str:
    if value is None:
        return label("rules.misere-needs.none", language)
    assert isinstance(value, Bid)
    return label("rules.misere-needs", language, bid=value.display)


def _ties(value: object, language: str) -> str:
    assert isinstance(value, tuple)
    if not value:
        return label("rules.none", language)
    return "; ".join(f"{_bid_name(a, language)} = {_bid_name(b, language)}" for a, b in value)


WORDS: Mapping[str, Words] = MappingProxyType(
    {
        "table.seats": lambda value, _: str(value),
        "table.sides": _sides,
        "table.rests": _choice("rules.rests"),
        "pack.deck": _deck,
        "pack.hand_size": lambda value, _: str(value),
        "pack.kitty_size": lambda value, _: str(value),
        "pack.packets": _packets,
        "pack.dead_hands": _number("rules.none"),
        "pack.undealt": _number("rules.none"),
        "ladder.order": _order,
        "ladder.values": _values,
        "ladder.misere_needs": _misere_needs,
        "ladder.ties": _ties,
        "ladder.outranks_by": _choice("rules.outranks"),
        "auction.procedure": _choice("rules.procedure"),
        "auction.raise_after_all_pass": _yes_no,
        "auction.inkles": _yes_no,
        "auction.all_pass": _choice("rules.all-pass"),
        "misere.ends_on_declarer_trick": _yes_no,
        "misere.defender_points": lambda value, _: str(value),
        "misere.double_nullo": _yes_no,
        "misere.open_shown": _choice("rules.shown"),
        "joker.nomination": _yes_no,
        "joker.lead_unled_suit": _yes_no,
        "joker.must_play_in_misere": _yes_no,
        "joker.lead_last_trick_only": _yes_no,
        "play.opening_lead": _choice("rules.lead"),
        "play.sans_kitty": _yes_no,
        "scoring.slam_value": _number("rules.slam.none"),
        "scoring.defender_trick_points": lambda value, _: str(value),
        "scoring.defender_cap": _number("rules.cap.none"),
        "end.win_score": lambda value, _: str(value),
        "end.lose_score": _score("rules.lose.none"),
        "end.rule": _choice("rules.end"),
        "end.barred_at": _score("rules.bar.none"),
    }
)
"""How each rule point is said (a test checks there is one for every point)."""


def said(profile: Profile, point: str, language: str) -> str:
    """The value of ``point`` in ``profile``, in words."""
    return WORDS[point](rule_value(profile, point), language)


def _cell(text: str) -> str:
    """Text safe in a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def rule_set_table(profile: Profile, language: str) -> list[str]:
    """The profile's rules, component by component and point by point, in words; beside
    the default profile's, with *same* or *differs*, for any other profile."""
    default = DEFAULT_PROFILE
    alone = profile is default
    head = [label("rules.head.component", language), label("rules.head.rule", language)]
    if alone:
        head.append(label("rules.head.value", language))
    else:
        head += [
            f"`{profile.name}`",
            label("rules.head.default", language, name=f"`{default.name}`"),
            label("rules.head.compared", language),
        ]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    shown = ""
    for point in rule_points():
        component = point.split(".")[0]
        part = label(f"rules.component.{component}", language) if component != shown else ""
        shown = component
        cells = [part, label(f"rules.point.{point}", language), said(profile, point, language)]
        if not alone:
            same = rule_value(profile, point) == rule_value(default, point)
            cells += [
                said(default, point, language),
                label("rules.same" if same else "rules.differs", language),
            ]
            if not same:
                cells[-1] = f"**{cells[-1]}**"
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return lines


def toggle_changes(variant: Variant) -> list[str]:
    """The rule points a toggle changes, on the first profile it applies to."""
    plain = get_profile(variant.applies_to[0])
    toggled = get_profile(variant.applies_to[0], [variant.name])
    return [p for p in rule_points() if rule_value(plain, p) != rule_value(toggled, p)]


def _toggle_disputes(name: str, disputes: Iterable[Dispute]) -> list[str]:
    """The disputes with an answer taken by a rule set with the toggle ``name``."""
    return [
        d.id
        for d in sorted(disputes, key=lambda d: d.id)
        if any(name in p.split("+")[1:] for a in d.answers for p in a.profiles)
    ]


def toggles_table(disputes: Iterable[Dispute], page_uri: str, language: str) -> list[str]:
    """Every toggle of the registry: the profiles it applies to, the rule points it
    changes with their new value in words, the toggles it cannot go with, its disputes."""
    records = list(disputes)
    to_disputes = _relative("disputes.md", page_uri)
    head = ["toggle", "on", "changes", "conflicts", "disputes"]
    lines = [
        "| " + " | ".join(label(f"rules.head.{h}", language) for h in head) + " |",
        "|" + "---|" * len(head),
    ]
    for name, variant in VARIANTS.items():
        toggled = get_profile(variant.applies_to[0], [name])
        changes = "; ".join(
            f"{label(f'rules.point.{p}', language)}: {said(toggled, p, language)}"
            for p in toggle_changes(variant)
        )
        cells = [
            f"`{name}`",
            ", ".join(f"`{p}`" for p in variant.applies_to),
            changes,
            ", ".join(f"`{c}`" for c in variant.conflicts) or "—",
            ", ".join(f"[{d}]({to_disputes}#{d})" for d in _toggle_disputes(name, records)) or "—",
        ]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return lines


def _relative(target: str, page_uri: str) -> str:
    """A link from ``page_uri`` to the site-root page ``target``."""
    return "../" * page_uri.count("/") + target


def profile_of_page(page_uri: str) -> Profile | None:
    """The profile a page ``profiles/<name>.md`` describes, ``None`` for another page."""
    if not page_uri.startswith(_PROFILES_DIR):
        return None
    name = page_uri[len(_PROFILES_DIR) :].removesuffix(".md")
    try:
        return get_profile(name)
    except KeyError:
        return None


def fill_rule_set_markers(markdown: str, page_uri: str, language: str) -> str:
    """Replace the rule-set and toggles markers of a page (see the module docstring); the
    disputes are read only for a page with the toggles marker."""
    if RULE_SET_MARKER in markdown:
        profile = profile_of_page(page_uri)
        if profile is None:
            raise ValueError(f"{page_uri}: the rule-set table belongs on a profile page")
        markdown = markdown.replace(RULE_SET_MARKER, "\n".join(rule_set_table(profile, language)))
    if TOGGLES_MARKER in markdown:
        disputes = load_disputes().records
        table = "\n".join(toggles_table(disputes, page_uri, language))
        markdown = markdown.replace(TOGGLES_MARKER, table)
    return markdown
