"""The games' words in three languages (config/game_words.py): card names, lists, and the
engines' refusals, which keep their English str() and are translated when shown."""

import ast
import pathlib
import re

import polib
import pytest
from django.utils import translation

from config.game_words import card_name, cards_names, join_list, refusal_text
from games.engines import IllegalMove, get_engine
from games.engines.errors import Card, Cards, gettext_noop

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "language, names",
    [
        (
            "en-gb",
            ["queen of hearts", "ace of spades", "ten of diamonds", "jack of clubs", "joker"],
        ),
        ("ru", ["дама червей", "туз пик", "десятка бубен", "валет треф", "джокер"]),
        ("fi", ["herttarouva", "pataässä", "ruutukymppi", "ristisotamies", "jokeri"]),
    ],
)
def test_a_card_is_named_in_each_language(language, names):
    with translation.override(language):
        assert [card_name(code) for code in ("QH", "AS", "TD", "JC", "X")] == names
        assert card_name(55) == "55"  # a Корова card is its number


def test_lists_are_joined_in_each_language():
    with translation.override("ru"):
        assert join_list(["A", "B", "C"]) == "A, B и C"
        assert cards_names(["AS", "7H"]) == "туз пик и семёрка червей"
    with translation.override("fi"):
        assert join_list(["A", "B", "C"]) == "A, B ja C"
    with translation.override("en-gb"):
        assert join_list(["A"]) == "A" and join_list(["A", "B"]) == "A and B"


def convoy_refusal() -> IllegalMove:
    eng = get_engine("convoy")
    state = eng.new_game(players=2, seed=3)
    (seat,) = eng.to_act(state)
    missing = next(c for c in ("2C", "3C", "4C", "5C") if c not in state["hands"][seat])
    with pytest.raises(IllegalMove) as refused:
        eng.apply(state, seat, {"card": missing, "square": [1, 1]})
    return refused.value


def test_the_english_sentence_is_unchanged_and_translated_on_demand():
    refusal = convoy_refusal()
    code = refusal.parts["card"].code
    english = str(refusal)
    assert english.endswith("is not in your hand") and english.startswith("the ")
    with translation.override("ru"):
        assert refusal_text(refusal) == f"{card_name(code)} — такой карты у вас на руке нет"
    with translation.override("fi"):
        assert refusal_text(refusal) == f"{card_name(code)} ei ole kädessäsi"
    with translation.override("en-gb"):
        assert refusal_text(refusal) == english


def test_a_full_sentence_starts_with_a_capital_in_every_language():
    refusal = IllegalMove(
        gettext_noop("{card} and {cards} do not make one meld: choose only the cards of its meld."),
        card=Card("KC"),
        cards=Cards(("AS", "2S")),
    )
    assert str(refusal) == (
        "The king of clubs and the ace of spades and the two of spades do not make one meld: "
        "choose only the cards of its meld."
    )
    with translation.override("fi"):
        assert refusal_text(refusal).startswith("Keskikortti (ristikuningas) ja käsikortit "
                                                "(pataässä ja patakakkonen)")  # fmt: skip
    refusal = IllegalMove(gettext_noop("{card} is listed twice."), card=Card("QS"))
    with translation.override("ru"):
        assert refusal_text(refusal) == "Дама пик — эта карта указана дважды."


def test_a_plain_sentence_and_an_unknown_one_still_work():
    assert str(IllegalMove("the two of clubs is not in your hand")) == (
        "the two of clubs is not in your hand"
    )
    with translation.override("ru"):
        assert refusal_text(IllegalMove("no such sentence {x}", x=3)) == "no such sentence 3"
        assert refusal_text(IllegalMove(gettext_noop("it is not your turn"))) == (
            "сейчас не ваш ход"
        )


def engine_sentences() -> set[str]:
    """Every sentence the engines mark with gettext_noop, read from their source."""
    found = set()
    for path in (ROOT / "games" / "engines").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "gettext_noop"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.add(node.args[0].value)
    return found


@pytest.mark.parametrize("language", ["ru", "fi"])
def test_every_engine_sentence_is_in_the_catalogue_and_translated(language):
    sentences = engine_sentences()
    assert len(sentences) > 60
    catalogue = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
    translated = {e.msgid: e.msgstr for e in catalogue if e.msgctxt is None and e.translated()}
    missing = sorted(sentences - set(translated))
    assert not missing
    for sentence in sentences:  # the same slots, so every part finds its place
        assert sorted(_slots(translated[sentence])) == sorted(_slots(sentence)), sentence


def _slots(text: str) -> list[str]:
    return re.findall(r"\{([A-Za-z_]\w*)\}", text)
