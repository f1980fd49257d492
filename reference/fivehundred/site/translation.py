"""The site in more than one language: which languages, and the generator's words in each.

The site is one ``mkdocs build`` in two languages (``mkdocs-static-i18n``, suffix
structure): a hand-written page ``rules/the-deal.md`` has its Russian text beside it in
``rules/the-deal.ru.md``, and the Russian site lives under ``ru/``.  The pages the hook
*generates* (the scenario pages, the scenarios index, the rulebook's opening, the worked
examples and markers under each clause) come in two parts.  The words of the game the
generator draws (cards, calls, observation values, step sentences, the drawn table and
its stepper, the steps tables, seats' roles) are written in the page's language from the
start, from :mod:`.labels`; they are most of a page's bytes, and rewriting them after the
fact cost more than the rest of the Russian build.  The page's own fixed phrases
(headings, the setup's summary, the examples' titles, the disputes' labels) are written
in English and passed through :func:`localise`, which replaces those phrases, and only
those, by the language's words, and passes over the drawn tables.  Scenario titles,
assertions, explanations and notes are the suite's English text and are left as they are
(each scenario page says so); ids, card codes, seat letters (``N E S W``, the notation of
the scenario files) and rejection codes are notation, the same in every language.

Each phrase is matched where the generator writes it (a heading, a summary's label, an
example's title), so an English word inside a scenario's own text is never touched.
``GENERATED_LABELS`` is the table of those phrases by language: a new language adds its
column here and in :mod:`.labels`, and its ``*.xx.md`` pages under ``site/``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .table_drawing import STEPPER_CLASS

DEFAULT_LANGUAGE = "en"
LANGUAGES: tuple[str, ...] = ("en", "ru")
"""Every language the site is built in, the default first (the ``i18n`` plugin's list)."""

STEPPER_MARK = f'<div class="{STEPPER_CLASS}'
"""What a drawn table's line holds: such a line is already in the page's language."""

_SUFFIX = re.compile(r"\.([a-z]{2})\.md$")


def page_language(src_uri: str) -> str:
    """The language of a page source by its suffix: ``the-deal.ru.md`` → ``ru``."""
    match = _SUFFIX.search(src_uri)
    if match and match.group(1) in LANGUAGES:
        return match.group(1)
    return DEFAULT_LANGUAGE


def base_uri(src_uri: str) -> str:
    """The page a translated source stands for: ``rules/the-deal.ru.md`` → ``rules/the-deal.md``."""
    match = _SUFFIX.search(src_uri)
    if match and match.group(1) in LANGUAGES:
        return src_uri[: match.start()] + ".md"
    return src_uri


def translated_uri(src_uri: str, language: str) -> str:
    """The source of a page in a language: ``rules/x.md``, ``ru`` → ``rules/x.ru.md``."""
    base = base_uri(src_uri)
    if language == DEFAULT_LANGUAGE:
        return base
    return base[: -len(".md")] + f".{language}.md"


Replacement = str | Callable[[re.Match[str]], str]


@dataclass(frozen=True)
class Label:
    """One phrase the generator writes, found by ``pattern``, and its translation.

    ``needle`` is text every match contains (the longest run of plain characters the
    pattern requires), so a page without it is not searched: most phrases are absent
    from most pages, and ``in`` is much cheaper than a regular expression."""

    pattern: re.Pattern[str]
    replacement: Replacement
    needle: str = ""
    line: bool = False
    """The pattern is a whole line of fixed text (``^text$``): replaced as text, which
    is many times faster than a regular expression over a long page."""
    fixed: bool = False
    """The pattern is fixed text anywhere: replaced as text."""


_PARSER: Any = importlib.import_module("re._parser")
"""Python's own parser of regular expressions, read for the literal text a pattern needs."""


def _needle(pattern: str, flags: int) -> str:
    """The longest run of literal characters at the top level of ``pattern`` (every match
    contains it), or "" when there is none or the pattern ignores case."""
    if flags & re.IGNORECASE:
        return ""
    best, run = "", ""
    for op, argument in _PARSER.parse(pattern, flags):
        if op is _PARSER.LITERAL:
            run += chr(argument)
            continue
        best, run = max(best, run, key=len), ""
    return max(best, run, key=len)


def _shape(pattern: str, flags: int) -> tuple[bool, bool]:
    """Whether ``pattern`` is nothing but fixed text (``fixed``), or a whole line of it
    under MULTILINE (``line``)."""
    if flags & ~re.MULTILINE:
        return False, False
    parsed = list(_PARSER.parse(pattern, flags))
    literal = _PARSER.LITERAL
    if parsed and all(op is literal for op, _ in parsed):
        return False, True
    begins = (_PARSER.AT, _PARSER.AT_BEGINNING)
    ends = (_PARSER.AT, _PARSER.AT_END)
    line = (
        bool(flags & re.MULTILINE)
        and len(parsed) > 2
        and parsed[0] == begins
        and parsed[-1] == ends
        and all(op is literal for op, _ in parsed[1:-1])
    )
    return line, False


def _label(
    pattern: str, replacement: Replacement, flags: int = 0, *, needle: str | None = None
) -> Label:
    """A phrase; ``needle`` when the pattern's own literal text is too short to tell."""
    found = _needle(pattern, flags) if needle is None else needle
    line, fixed = (False, False)
    if isinstance(replacement, str) and "\\" not in replacement:
        line, fixed = _shape(pattern, flags)
    return Label(re.compile(pattern, flags), replacement, found, line, fixed)


# ---- Russian ---------------------------------------------------------------------------

_RU_AREAS = {
    "Deck and ranks": "Колода и старшинство карт",
    "The deal": "Сдача",
    "The auction": "Торговля",
    "The kitty and the start of play": "Прикуп и начало розыгрыша",
    "Following suit and winning tricks": "Ход в масть и взятки",
    "The joker without trumps": "Джокер без козырей",
    "Misère and open misère": "Мизер и открытый мизер",
    "Scoring": "Подсчёт очков",
    "End of the game": "Конец партии",
    "Whole deals": "Целые сдачи",
    "Other": "Прочее",
}

_RU_STARTS = {
    "before the deal": "до сдачи",
    "the auction, at the first call": "торговля, с первого слова",
    "in play, after the discard": "розыгрыш, после сноса",
    "between deals": "между сдачами",
}

_RU_SOURCES = {
    "the Australian rules": "австралийские правила",
    "the American rules with Nullo": "американские правила с нулло",
    "the three-handed game": "игра втроём",
    "the Polish variations": "польские варианты",
}


def _more_ru(match: re.Match[str]) -> str:
    more, count, first, touching = match.group(2), match.group(1), match.group(3), match.group(4)
    head = "Ещё примеры" if more else "Примеры"
    return f'"{head}: {count} (написаны для этого пункта: {first}, затрагивают его: {touching})"'


def _disputes_ru(match: re.Match[str]) -> str:
    count = match.group(1)
    return 'title="споров об этом пункте: ' + ("1" if count == "a dispute" else count.split()[0])


_RU_LABELS: list[Label] = [
    # the scenario page
    _label(r'^!!! abstract "Asserts"$', '!!! abstract "Утверждение"', re.MULTILINE),
    _label(
        r"^\*\*Area\*\* \[([^\]]+)\]",
        lambda m: f"**Раздел** [{_RU_AREAS.get(m.group(1), m.group(1))}]",
        re.MULTILINE,
    ),
    _label(r" · \*\*Profile\*\* ", " · **Свод правил** "),
    _label(r" · \*\*Tags\*\* ", " · **Метки** "),
    _label(r"^## Rules it illustrates$", "## Какие пункты правил он показывает", re.MULTILINE),
    _label(r"\) \(primary\)$", ") (основной)", re.MULTILINE),
    _label(r"^## Why$", "## Почему так", re.MULTILINE),
    _label(r"^## Setup$", "## Начальная позиция", re.MULTILINE),
    _label(r"^## Steps and expected results$", "## Ходы и ожидаемый результат", re.MULTILINE),
    _label(
        r"Each action is accepted unless it says \*refused\*, with the rejection code an\n"
        r"implementation must give; a \*check\* compares only the observations listed\.",
        "Каждое действие принимается, если не сказано *отказ* с кодом отказа, который должна\n"
        "выдать реализация; *проверка* сравнивает только перечисленные наблюдения.",
    ),
    _label(r"^## Run it$", "## Как запустить", re.MULTILINE),
    _label(r"   # against the reference", "   # на эталонной реализации"),
    _label(r"          # read it at the terminal", "          # прочитать в терминале"),
    _label(r"<summary>The scenario file: ", "<summary>Файл сценария: "),
    # the setup
    _label(
        r"\*\*Starts\*\* ([a-z ,]+?)(?= · |$)",
        lambda m: f"**Начало:** {_RU_STARTS.get(m.group(1), m.group(1))}",
        re.MULTILINE,
    ),
    _label(r"(?<= · )dealer \*\*", "сдаёт **"),
    _label(r"(?<= · )contract (.*?) by \*\*", r"контракт \1, заказчик **"),
    _label(r"(?<= · )\*\*([^*]+)\*\* to lead", r"первый ход: **\1**"),
    _label(r"(?<= · )tricks so far ", "взятки к этому моменту: "),
    _label(r"(?<= · )suits already led ", "масти, в которые уже ходили: "),
    _label(r"(?<= · )joker nominated as ", "джокеру назначена масть "),
    _label(r"(?<= · )scores ", "счёт: "),
    _label(
        r"\*\*([^*]+)\*\* deals the ordered deck of (`[^`]+`): each suit from the ace down in "
        r"the order spades, clubs, diamonds, hearts,\s+then the joker if the deck has one, "
        r"top card first\.",
        r"**\1** сдаёт упорядоченную колоду \2: каждая масть от туза вниз в порядке пики, "
        r"трефы, бубны, червы, затем джокер, если он есть в колоде; верхняя карта первой.",
    ),
    _label(
        r"\*\*([^*]+)\*\* deals the ordered deck: spades A to 5, clubs A to 5, diamonds A to 4, "
        r"hearts A to 4, then the joker, top card first\.",
        r"**\1** сдаёт упорядоченную колоду: пики от туза до пятёрки, "
        r"трефы от туза до пятёрки, бубны от туза до четвёрки, червы от туза до четвёрки, "
        r"затем джокер; верхняя карта первой.",
    ),
    _label(
        r"\*\*([^*]+)\*\* deals this deck, top card first:",
        r"**\1** сдаёт эту колоду, верхняя карта первой:",
    ),
    _label(
        r"^(\s*)The hands and the kitty as dealt:$", r"\1Руки и прикуп после сдачи:", re.MULTILINE
    ),
    # the worked examples under a clause
    _label(r'^(\s*\?\?\?\+? example fh-example )"Example ', r'\1"Пример ', re.MULTILINE),
    _label(r"^(\s*)\*\*Asserts:\*\* ", r"\1**Утверждение:** ", re.MULTILINE),
    _label(r"\[Scenario page\]\(", "[Страница сценария]("),
    _label(r" · also illustrates ", " · также показывает "),
    _label(r"^(\s*)- \*\*Example \[", r"\1- **Пример [", re.MULTILINE),
    _label(r"<small>Also illustrates ", "<small>Также показывает "),
    _label(
        r'"(\d+) (more )?worked examples? \((\d+) written for this clause, (\d+) touching it\)"',
        _more_ru,
    ),
    _label(
        r"\*No scenario illustrates this clause yet\.\*",
        "*Этот пункт пока не показан ни одним сценарием.*",
    ),
    # the markers under a clause heading
    _label(r'title="(a dispute|\d+ disputes) about this clause', _disputes_ru),
    _label(r">disputed</span>", ">спорный</span>"),
    _label(
        r'title="the rule sets named here answer differently">differs per profile</span>',
        'title="названные своды правил отвечают иначе">различается по сводам</span>',
    ),
    _label(r'"another answer in: ', '"иной ответ в: '),
    # the disputes page and the profile pages (fivehundred.site.dispute_page)
    _label(r"^\*\*Question\.\*\* ", "**Вопрос.** ", re.MULTILINE),
    _label(r"\*\*Status:\*\* open\b", "**Статус:** открыт"),
    _label(r"\*\*Status:\*\* settled\b", "**Статус:** решён"),
    _label(r" · \*\*rulings:\*\* ", " · **пункты:** "),
    _label(r" · \*\*paired scenarios:\*\* none yet", " · **парные сценарии:** пока нет"),
    _label(r" · \*\*paired scenarios:\*\* ", " · **парные сценарии:** "),
    _label(r'^(\s*=== "[^"]+?) \(default\)"', r'\1 (основной)"', re.MULTILINE),
    _label(r"^(\s*)\*Profiles:\* ", r"\1*Своды правил:* ", re.MULTILINE),
    _label(r"\*no profile of the suite\*", "*ни один свод набора*"),
    _label(r"^(\s*)\*Sources:\* ", r"\1*Источники:* ", re.MULTILINE),
    _label(r"(?<=[:;] )seed (\d{3}), ", r"источник \1, "),
    _label(
        r"^(\s*)\*Paired scenarios?\* \(run under ", r"\1*Парные сценарии* (свод ", re.MULTILINE
    ),
    _label(
        r"\*No paired scenario shows this answer yet\.\*",
        "*Этот ответ пока не показан ни одним парным сценарием.*",
    ),
    _label(
        r'^(\s*)\?\?\? note "Notes"$', r'\1??? note "Примечания (английский текст)"', re.MULTILINE
    ),
    _label(
        r"^(\d+) disputes: (\d+) open, (\d+) settled; (\d+) shown by paired scenarios\.$",
        r"Споров: \1; открытых — \2, решённых — \3; показаны парными сценариями — \4.",
        re.MULTILINE,
    ),
    _label(
        r"^\| dispute \| question \| status \| paired scenarios \|$",
        "| спор | вопрос | статус | парные сценарии |",
        re.MULTILINE,
    ),
    _label(r"(?<= \| )open(?= \| \d+ \|$)", "открыт", re.MULTILINE),
    _label(r"(?<= \| )settled(?= \| \d+ \|$)", "решён", re.MULTILINE),
    _label(r"^## Other disputes$", "## Другие споры", re.MULTILINE),
    _label(
        r"^## Scenarios of this profile \{#([a-z-]+)\}$",
        r"## Сценарии этого свода {#\1}",
        re.MULTILINE,
    ),
    _label(
        r"^## Scenarios of the toggles \{#([a-z-]+)\}$",
        r"## Сценарии переключателей {#\1}",
        re.MULTILINE,
    ),
    _label(
        r"^The (\d+) scenarios of the default profile are the worked examples of the "
        r"\[rules\]\(([^)]+)\); those with toggles are listed on "
        r"\[the variant toggles' page\]\(([^)]+)\)\.$",
        r"Сценарии основного свода (их \1) — это примеры на [страницах правил](\2); сценарии с "
        r"переключателями перечислены на [странице переключателей](\3).",
        re.MULTILINE,
    ),
    _label(r"\*No scenario of this rule set yet\.\*", "*Сценариев этого свода пока нет.*"),
    _label(
        r"^(\d+) scenarios run under this rule set\. They are not examples of the rules "
        r"pages, which describe the default profile\.$",
        r"Сценариев этого свода: \1. Это не примеры к страницам правил: те описывают "
        r"основной свод. Названия сценариев — английский текст набора.",
        re.MULTILINE,
    ),
    _label(
        r"^\| id \| title \| toggles \| disputes \|$",
        "| id | название | переключатели | споры |",
        re.MULTILINE,
    ),
    _label(r"<small>Taken by:</small> ", "<small>Принимают:</small> "),
    _label(r"\*none of the suite's rule sets\*", "*ни один свод набора*"),
    _label(
        r'^(\s*\?\?\?\+? fh-dispute-more )"Sources and worked examples"$',
        r'\1"Источники и примеры"',
        re.MULTILINE,
    ),
    _label(r'^(\s*\?\?\?\+? fh-dispute-more )"Sources"$', r'\1"Источники"', re.MULTILINE),
    _label(r"^(\s*)\*\*Notes\.\*\*$", r"\1**Примечания (английский текст).**", re.MULTILINE),
    _label(
        r"\[(the Australian rules|the American rules with Nullo|the three-handed game|"
        r"the Polish variations)\]\(",
        lambda m: f"[{_RU_SOURCES[m.group(1)]}](",
    ),
    # the scenarios index
    _label(r"^# Scenarios$", "# Сценарии", re.MULTILINE),
    _label(
        r"^The suite has \*\*(\d+) scenarios\*\* in (\d+) areas\. Each is a\n"
        r"small, exact ruling that runs as a test: a starting position, a few actions, and what\n"
        r"must be observed\. Every scenario also appears as a worked example under each rule\n"
        r"clause it cites, and has its own page under a permanent id\.\n"
        r"The format is described in \[The scenario format\]\(([^)]+)\)\.",
        r"В наборе **\1** сценариев в \2 разделах. Каждый — маленькое точное решение, которое\n"
        r"выполняется как тест: начальная позиция, несколько действий и что должно получиться.\n"
        r"Каждый сценарий показан как пример под каждым пунктом правил, на который он ссылается,\n"
        r"и у каждого есть своя страница под постоянным идентификатором. Названия и утверждения\n"
        r"сценариев — английский текст набора. Формат описан на странице\n"
        r"[Формат сценариев](\3).",
        re.MULTILINE,
    ),
    _label(
        r"^## ([^{\n]+?) \{#(area-[a-z-]+)\}$",
        lambda m: f"## {_RU_AREAS.get(m.group(1), m.group(1))} {{#{m.group(2)}}}",
        re.MULTILINE,
    ),
    _label(r"^(\d+) scenarios in (`scenarios/[^`]+`)\.$", r"Сценариев в \2: \1.", re.MULTILINE),
    _label(
        r"^\| id \| title \| rules it illustrates \|$",
        "| id | название | какие пункты показывает |",
        re.MULTILINE,
    ),
    _label(
        r"^## Scenarios per rule clause \{#per-clause\}$",
        "## Сценарии по пунктам правил {#per-clause}",
        re.MULTILINE,
    ),
    _label(
        r"^\| # \| clause \| scenarios citing it first \| in all \|$",
        "| № | пункт | сценарии, где он первый | всего |",
        re.MULTILINE,
    ),
    _label(r"every scenario against the reference", "все сценарии на эталонной реализации"),
    # the rulebook's opening
    _label(r"^# The rulebook \{#rulebook\}$", "# Правила целиком {#rulebook}", re.MULTILINE),
    _label(
        r"^Every clause of the rules on one page, without the worked examples and the background\n"
        r"boxes, for reading straight through or printing\. The clause numbers and anchors are\n"
        r"those of the \[rules pages\]\(([^)]+)\), and this page is generated from them\. For a\n"
        r"single sheet, see the \[quick reference\]\(([^)]+)\)\.",
        r"Все пункты правил на одной странице, без примеров и справочных врезок, — чтобы\n"
        r"прочитать подряд или распечатать. Номера пунктов и якоря те же, что на\n"
        r"[страницах правил](\1); эта страница собрана из них. Правила на одном листе —\n"
        r"в [памятке](\2).",
        re.MULTILINE,
    ),
]

GENERATED_LABELS: dict[str, list[Label]] = {"en": [], "ru": _RU_LABELS}
"""The generator's phrases and their translation, by language (none for English)."""

ENGLISH_TEXT_NOTE: dict[str, str] = {
    "en": "",
    "ru": (
        "Название, утверждение, пояснение и примечания к ходам — английский текст набора "
        "сценариев; его пункты правил, начальная позиция и ходы даны по-русски."
    ),
}
"""What a scenario page in another language says about the English it keeps."""


TOOLTIPS: dict[str, dict[str, str]] = {
    "ru": {
        "NT": "Без козырей: контракт без козырной масти",
        "NS": "Сторона севера и юга, партнёры",
        "EW": "Сторона востока и запада, партнёры",
        "kitty": "Прикуп: три карты рубашкой вверх, их берёт заказчик после торговли",
        "widow": "Американское название прикупа",
        "right bower": "Правый валет: валет козырной масти, второй по старшинству козырь",
        "left bower": "Левый валет: другой валет цвета козырей; козырь, третий по старшинству",
        "bower": "Валет, ставший старшим козырем (правый или левый)",
        "bowers": "Валеты, ставшие старшими козырями (правый и левый)",
        "misère": "Мизер: контракт не взять ни одной взятки, заказчик играет один",
        "open misère": "Открытый мизер: карты заказчика открыты с конца первой взятки",
        "slam": "Шлем: все десять взяток; стороне заказчика не меньше 250",
        "throw-in": "Сдача без игры: все четверо спасовали, очков нет",
        "thrown in": "Все четверо спасовали: сдачу не играют, очков нет",
        "Avondale": "Таблица Эйвондейла (1906): от 40 за 6♠ до 520 за 10NT",
        "pagat.com": "Сайт Джона Маклауда о правилах карточных игр, источник австралийских правил",
    },
}
"""The glossary's hover definitions (``abbr`` in mkdocs.yml, which holds the English ones
for every language) by language, keyed by the word they explain."""

_ABBR = re.compile(r'<abbr title="[^"]*">([^<]+)</abbr>')


def localise_tooltips(html: str, language: str) -> str:
    """A page's hover definitions in ``language``, where the language has them."""
    tips = TOOLTIPS.get(language)
    if not tips or "<abbr" not in html:
        return html

    def tip(match: re.Match[str]) -> str:
        text = tips.get(match.group(1))
        if text is None:
            return match.group(0)
        return f'<abbr title="{text}">{match.group(1)}</abbr>'

    return _ABBR.sub(tip, html)


def localise(markdown: str, language: str) -> str:
    """The generator's Markdown with its own phrases in ``language`` (unchanged for English).

    The drawn tables (a stepper block, one line each) are written in the page's language
    from the start and are most of a scenario page's bytes: they are passed over."""
    labels = GENERATED_LABELS.get(language, [])
    if not labels:
        return markdown
    if STEPPER_MARK not in markdown:
        return _localised(markdown, labels)
    lines = markdown.split("\n")
    out: list[str] = []
    start = 0
    for index, line in enumerate(lines):
        if STEPPER_MARK in line:
            if index > start:
                out.append(_localised("\n".join(lines[start:index]), labels))
            out.append(line)
            start = index + 1
    if start < len(lines):
        out.append(_localised("\n".join(lines[start:]), labels))
    return "\n".join(out)


def _localised(markdown: str, labels: list[Label]) -> str:
    for label in labels:
        if label.needle not in markdown:
            continue
        if label.fixed and isinstance(label.replacement, str):
            markdown = markdown.replace(label.needle, label.replacement)
        elif label.line and isinstance(label.replacement, str):
            padded = f"\n{markdown}\n".replace(f"\n{label.needle}\n", f"\n{label.replacement}\n")
            markdown = padded[1:-1]
        else:
            markdown = label.pattern.sub(label.replacement, markdown)
    return markdown


def localise_scenario_page(markdown: str, language: str) -> str:
    """A scenario page in ``language``, with a note under its title saying which of its
    text is the suite's English."""
    note = ENGLISH_TEXT_NOTE.get(language, "")
    if not note:
        return markdown
    lines = localise(markdown, language).split("\n")
    for index, line in enumerate(lines):
        if line.startswith("# "):
            lines[index + 1 : index + 1] = ["", f"*{note}*", "{: .fh-english-note }"]
            break
    return "\n".join(lines)
