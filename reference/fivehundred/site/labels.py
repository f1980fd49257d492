"""Every word of the game a generated page shows, in one table per language: the drawn
table and its stepper, cards and calls, observation values, step sentences, the steps
tables.

The drawings (:mod:`.table_drawing`), the scenario parts (:mod:`.scenario_parts`) and
the stepper's controls never spell a word themselves: they ask :func:`label` for it, in
the page's language, and the stepper's script reads its words from the page.  An edition
in another language adds one mapping to :data:`LABELS` with the same keys (a test checks
that every language has every key), and nothing else changes.  Keys are plain English
identifiers; values may hold ``{name}`` placeholders filled by :func:`label`.
"""

from __future__ import annotations

from collections.abc import Mapping

DEFAULT_LANGUAGE = "en"

_ENGLISH: dict[str, str] = {
    "card.joker": "Joker",
    # the seats, as a player names them
    "seat.N": "North",
    "seat.E": "East",
    "seat.S": "South",
    "seat.W": "West",
    "seat.P5": "Fifth player",
    "seat.P6": "Sixth player",
    # what a seat is doing
    "role.dealer": "dealer",
    "role.declarer": "declarer",
    "role.sits-out": "sits out",
    "role.calls-first": "calls first",
    "role.to-act": "to act",
    "role.passed": "passed",
    "role.bid": "bid {call}",
    "role.high-bid": "highest bid {call}",
    # the middle of the table
    "table.label": "The table",
    "table.kitty": "kitty",
    "table.widow": "widow",
    "table.kitty-face-down": "{name} (face down)",
    "table.discards": "discarded",
    "table.exposed": "face up",
    "table.contract": "contract {call} by {seat}",
    "table.no-contract": "auction under way",
    "table.thrown-in": "thrown in: nobody bid",
    "table.trick": "the trick",
    "table.trick-empty": "no card played to this trick",
    "table.led": "led",
    "table.won": "wins",
    "table.won-by": "won by {seat}",
    "table.tricks": "tricks taken",
    "table.scores": "scores",
    "table.nominated": "joker named as {suit}",
    "table.between-deals": "no deal on the table",
    "table.game-over": "game over",
    "table.no-cards": "no cards",
    "table.card-count": "{count} cards",
    "table.card-count-one": "{count} card",
    # calls and values, wherever a page shows one
    "call.pass": "pass",
    "call.misere": "misère",
    "call.open-misere": "open misère",
    "value.none": "none",
    "value.nothing": "nothing",
    "value.yes": "yes",
    "value.no": "no",
    "phase.auction": "auction",
    "phase.kitty": "kitty",
    "phase.play": "play",
    "phase.over": "over",
    "phase.none": "none",
    "trick.led-by": "led by {seat}",
    "trick.suit-led": "suit led {suit}",
    "trick.won-by": "won by **{seat}**",
    "action.discard": "discard {cards}",
    "action.nominate": "nominate {suit}",
    "action.joker-naming": "{card} naming {suit}",
    # a step told as a sentence: the words of scenarios.narration.step_parts, which
    # ``fivehundred show`` prints (a test keeps the English here equal to them)
    "say.deal-ordered": "A new deal is dealt from the ordered deck",
    "say.deal-given": "A new deal is dealt from the given deck",
    "say.thrown-in": "A deal is thrown in (everybody passed)",
    "say.result-tricks": "{seat} plays {call} and the declarers take {tricks} tricks",
    "say.result-split": "{seat} plays {call} and the tricks go {split}",
    "say.pass": "{seat} passes",
    "say.bid": "{seat} bids {call}",
    "say.discard": "{seat} discards {cards}",
    "say.nominate": "{seat} nominates {suit} for the joker",
    "say.sans-kitty": "{seat} plays sans kitty, leaving the kitty face down",
    "say.lead-naming": "{seat} leads {card} naming {suit}",
    "say.play": "{seat} plays {card}",
    # the steps table
    "steps.step": "step",
    "steps.what": "what happens",
    "steps.expected": "expected",
    # the stepper
    "step.start": "The position at the start",
    "step.status": "Step {number} of {total}",
    "step.start-status": "Start · {total} steps",
    "step.start-status-one": "Start · {total} step",
    "step.previous": "Previous",
    "step.next": "Next",
    "step.help": "Step through with the buttons or the arrow keys.",
    "step.accepted": "accepted",
    "step.refused": "refused",
    "step.reason": "why: {reason}",
    "step.check": "check",
    "step.checks": "what is checked here",
    # the four sources, as a player knows them (by the suite's seed number)
    "source.000": "the Australian rules",
    "source.002": "the American rules with Nullo",
    "source.003": "the three-handed game",
    "source.004": "the Polish variations",
    # why an action is refused, in a player's words (keyed by the rejection code)
    "reason.game-over": "the game is already over",
    "reason.deal-over": "the deal is already over",
    "reason.wrong-phase": "that is not something to do at this point of the deal",
    "reason.not-your-turn": "another player is to act",
    "reason.already-passed": "this player has passed and may not call again",
    "reason.bid-not-available": "this rule set has no such bid",
    "reason.bid-not-higher": "a bid must be higher than the highest bid so far",
    "reason.misere-needs-seven": "misère may be called only when the highest bid is a seven",
    "reason.discard-needs-three": "the discard must be as many cards as the kitty held",
    "reason.card-not-held": "the player does not hold that card",
    "reason.nomination-not-allowed": "the joker's suit may not be named here",
    "reason.must-follow-suit": "the player must follow suit",
    "reason.joker-only-when-void": "the joker may be played only when void in the suit led",
    "reason.joker-must-be-played": "in misère the joker must be played when void in the suit led",
    "reason.joker-lead-needs-suit": "leading the joker in no trumps needs a suit named",
    "reason.joker-suit-already-led": "the joker may not be named as a suit already led",
    "reason.joker-lead-all-suits-led": "every suit has been led: the joker may not lead yet",
    "reason.unexpected-suit-name": "a suit may be named only when leading the joker",
    "reason.blind-misere-first-call": "blind misère must be the player's first call",
    "reason.joker-lead-last-trick-only": "the joker may lead only the last trick",
    "reason.six-bid-first-call": "a six bid must be the player's first call",
    "reason.sans-kitty-not-allowed": "playing without the kitty is not allowed here",
}

_RUSSIAN: dict[str, str] = {
    "card.joker": "Джокер",
    "seat.N": "Север",
    "seat.E": "Восток",
    "seat.S": "Юг",
    "seat.W": "Запад",
    "seat.P5": "Пятый игрок",
    "seat.P6": "Шестой игрок",
    "role.dealer": "сдающий",
    "role.declarer": "заказчик",
    "role.sits-out": "не играет",
    "role.calls-first": "говорит первым",
    "role.to-act": "его ход",
    "role.passed": "пас",
    "role.bid": "заказ {call}",
    "role.high-bid": "высший заказ {call}",
    "table.label": "Стол",
    "table.kitty": "прикуп",
    "table.widow": "прикуп",
    "table.kitty-face-down": "{name} (рубашкой вверх)",
    "table.discards": "снос",
    "table.exposed": "карты открыты",
    "table.contract": "контракт {call}, заказчик {seat}",
    "table.no-contract": "идёт торговля",
    "table.thrown-in": "сдача без игры: никто не заказал",
    "table.trick": "взятка",
    "table.trick-empty": "в эту взятку ещё не положено ни одной карты",
    "table.led": "ход",
    "table.won": "берёт",
    "table.won-by": "взял {seat}",
    "table.tricks": "взятки",
    "table.scores": "счёт",
    "table.nominated": "джокеру назначена масть {suit}",
    "table.between-deals": "между сдачами",
    "table.game-over": "партия окончена",
    "table.no-cards": "нет карт",
    "table.card-count": "карт: {count}",
    "table.card-count-one": "карт: {count}",
    "call.pass": "пас",
    "call.misere": "мизер",
    "call.open-misere": "открытый мизер",
    "value.none": "нет",
    "value.nothing": "ничего",
    "value.yes": "да",
    "value.no": "нет",
    "phase.auction": "торговля",
    "phase.kitty": "прикуп",
    "phase.play": "розыгрыш",
    "phase.over": "сдача окончена",
    "phase.none": "нет сдачи",
    "trick.led-by": "первым ходил {seat}",
    "trick.suit-led": "масть хода {suit}",
    "trick.won-by": "взял **{seat}**",
    "action.discard": "снос {cards}",
    "action.nominate": "назначить {suit}",
    "action.joker-naming": "{card} с назначением масти {suit}",
    "say.deal-ordered": "Новая сдача из упорядоченной колоды",
    "say.deal-given": "Новая сдача из заданной колоды",
    "say.thrown-in": "Сдача без игры (все сказали «пас»)",
    "say.result-tricks": "{seat} играет {call}, заказчики берут взяток: {tricks}",
    "say.result-split": "{seat} играет {call}, взятки: {split}",
    "say.pass": "{seat} говорит «пас»",
    "say.bid": "{seat} заказывает {call}",
    "say.discard": "{seat} сносит {cards}",
    "say.nominate": "{seat} назначает джокеру масть {suit}",
    "say.sans-kitty": "{seat} играет без прикупа, прикуп остаётся закрытым",
    "say.lead-naming": "{seat} ходит {card} с назначением масти {suit}",
    "say.play": "{seat} кладёт {card}",
    "steps.step": "ход",
    "steps.what": "что происходит",
    "steps.expected": "ожидается",
    "step.start": "Начальная позиция",
    "step.status": "Ход {number} из {total}",
    "step.start-status": "Начало · ходов: {total}",
    "step.start-status-one": "Начало · ходов: {total}",
    "step.previous": "Назад",
    "step.next": "Вперёд",
    "step.help": "Листайте кнопками или клавишами со стрелками.",
    "step.accepted": "принято",
    "step.refused": "отказ",
    "step.reason": "почему: {reason}",
    "step.check": "проверка",
    "step.checks": "что здесь проверяется",
    "source.000": "австралийские правила",
    "source.002": "американские правила с нулло",
    "source.003": "игра втроём",
    "source.004": "польские варианты",
    "reason.game-over": "партия уже окончена",
    "reason.deal-over": "сдача уже окончена",
    "reason.wrong-phase": "в этот момент сдачи так сделать нельзя",
    "reason.not-your-turn": "очередь другого игрока",
    "reason.already-passed": "этот игрок сказал «пас» и больше не говорит",
    "reason.bid-not-available": "в этом своде такого заказа нет",
    "reason.bid-not-higher": "заказ должен быть старше высшего заказа до сих пор",
    "reason.misere-needs-seven": "мизер можно заказать, только когда высший заказ — семь",
    "reason.discard-needs-three": "снести нужно столько карт, сколько было в прикупе",
    "reason.card-not-held": "у игрока нет этой карты",
    "reason.nomination-not-allowed": "здесь назначить масть джокеру нельзя",
    "reason.must-follow-suit": "игрок обязан отвечать в масть",
    "reason.joker-only-when-void": "джокер можно положить, только когда нет масти хода",
    "reason.joker-must-be-played": "на мизере джокер обязательно кладут, когда нет масти хода",
    "reason.joker-lead-needs-suit": "ходя джокером без козырей, нужно назвать масть",
    "reason.joker-suit-already-led": "джокеру нельзя назвать масть, в которую уже ходили",
    "reason.joker-lead-all-suits-led": "во все масти уже ходили: ходить джокером пока нельзя",
    "reason.unexpected-suit-name": "масть называют, только ходя джокером",
    "reason.blind-misere-first-call": "мизер втёмную можно заказать только первым словом",
    "reason.joker-lead-last-trick-only": "джокером можно ходить только в последнюю взятку",
    "reason.six-bid-first-call": "шестёрку можно заказать только первым словом",
    "reason.sans-kitty-not-allowed": "играть без прикупа здесь нельзя",
}
"""The Russian edition's words, in the glossary's terms (site/glossary.ru.md)."""

LABELS: dict[str, Mapping[str, str]] = {"en": _ENGLISH, "ru": _RUSSIAN}
"""Language code → key → text.  English is complete; another language adds a mapping."""


def label(key: str, language: str = DEFAULT_LANGUAGE, **values: str) -> str:
    """The text of ``key`` in ``language`` (English where that language lacks it), with
    its ``{placeholders}`` filled from ``values``.  An unknown key is a programming error
    and raises ``KeyError``."""
    table = LABELS.get(language, _ENGLISH)
    text = table.get(key) or _ENGLISH[key]
    return text.format(**values) if values else text


def seat_name(seat: str, language: str = DEFAULT_LANGUAGE) -> str:
    """A seat as a player names it (``North``); an unknown seat keeps its code."""
    key = f"seat.{seat}"
    return label(key, language) if key in _ENGLISH else seat


def reason(code: str, language: str = DEFAULT_LANGUAGE) -> str:
    """Why an action was refused, from its rejection code; the code itself when unknown."""
    key = f"reason.{code}"
    return label(key, language) if key in _ENGLISH else code
