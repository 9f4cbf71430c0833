from __future__ import annotations

import pytest

from scrapy_denoise.document import load_document
from scrapy_denoise.language import (
    ZH_FUNCTION_CHARS,
    detect_language,
    normalise_language,
    stopword_matcher,
    stopwords,
)

EN = "The committee said that it would publish the report after the vote in the spring."
DE = "Der Ausschuss sagte, dass er den Bericht nach der Abstimmung im Frühjahr veröffentlicht."
FR = "Le comité a dit qu'il publierait le rapport après le vote du printemps dans la ville."
ES = "El comité dijo que publicaría el informe después de la votación en la primavera."
ZH = "委员会表示，将在春季投票之后发布这份报告，并且会听取各方的意见。"


def _page(body: str, html_attrs: str = "", head: str = "") -> bytes:
    return f"<html {html_attrs}><head>{head}</head><body><p>{body}</p></body></html>".encode()


@pytest.mark.parametrize(
    ("tag", "code"),
    [
        ("en-US", "en"),
        ("zh_CN", "zh"),
        ("zh-Hans-CN", "zh"),
        ("PT-br", "pt"),
        ("iw", "he"),
        ("x-default", None),
        ("{{ lang }}", None),
        ("", None),
        (None, None),
    ],
)
def test_language_tags_reduce_to_their_primary_subtag(tag: str | None, code: str | None) -> None:
    assert normalise_language(tag) == code


def test_declared_languages_in_order_html_lang_meta_og_locale() -> None:
    assert detect_language(load_document(_page(DE, 'lang="de-DE"'))) == "de"
    meta = '<meta http-equiv="Content-Language" content="fr">'
    assert detect_language(load_document(_page(FR, head=meta))) == "fr"
    og = '<meta property="og:locale" content="es_ES">'
    assert detect_language(load_document(_page(ES, head=og))) == "es"


def test_declared_language_contradicted_by_the_script_is_ignored() -> None:
    # Templates ship lang="en" on Chinese pages; the text decides.
    assert detect_language(load_document(_page(ZH, 'lang="en"'))) == "zh"


def test_declared_latin_language_overruled_by_a_clear_stop_word_majority() -> None:
    assert detect_language(load_document(_page(EN * 3, 'lang="de"'))) == "en"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (EN, "en"),
        (DE, "de"),
        (FR, "fr"),
        (ES, "es"),
        (ZH, "zh"),
        ("これは日本語の文章です。委員会は報告書を発表しました。", "ja"),
        ("위원회는 봄 투표 후에 보고서를 발표할 것이라고 말했다.", "ko"),
        ("Комитет заявил, что опубликует доклад после голосования весной.", "ru"),
        ("وقالت اللجنة إنها ستنشر التقرير بعد التصويت في الربيع المقبل.", "ar"),
        # alef maksura (ى) is Arabic too, not only Uyghur's (this read as "ug")
        ("وافق المجلس على الخطة وأحالها إلى اللجنة حتى الربيع المقبل.", "ar"),
        ("کمیته گفت که گزارش را پس از رأی‌گیری منتشر خواهد کرد.", "fa"),
        ("كومىتېت دوكلاتنى ئەتىيازدىكى بېلەت تاشلاشتىن كېيىن ئېلان قىلىدۇ.", "ug"),
    ],
)
def test_undeclared_language_from_script_and_stop_word_vote(text: str, code: str) -> None:
    assert detect_language(load_document(_page(text))) == code


@pytest.mark.parametrize(
    ("code", "text"),
    [
        (
            "ru",
            "Москва — столица России. Это крупнейший город страны, который расположен "
            "на реке Москве. Его население составляет около тринадцати миллионов человек.",
        ),
        ("ru", "Он объявил о своём решении в понедельник вечером."),  # a hard sign, short
        (
            "uk",
            "Київ — столиця України. Це найбільше місто країни, що розташоване на річці Дніпро.",
        ),
        (
            "bg",
            "София е столицата на България. Това е най-големият град в страната, който "
            "се намира в подножието на планината Витоша. Населението му е около един милион.",
        ),
        (
            "sr",
            "Београд је главни град Србије. То је највећи град у земљи, који се налази на "
            "ушћу Саве у Дунав.",
        ),
        (
            "mk",
            "Скопје е главен град на Македонија. Тоа е најголемиот град во земјата, кој "
            "се наоѓа на реката Вардар.",
        ),
        (
            "be",
            "Мінск — сталіца Беларусі. Гэта найбуйнейшы горад краіны, які знаходзіцца на "
            "рацэ Свіслач.",
        ),
        ("kk", "Астана — Қазақстанның астанасы. Бұл елдегі ең ірі қалалардың бірі."),
    ],
)
def test_undeclared_cyrillic_languages_by_their_letters(code: str, text: str) -> None:
    assert detect_language(load_document(_page(text))) == code


#: An undeclared page in one of the ten Latin-script languages added to the vote was read as
#: English (Indonesian as Spanish, Hungarian as Portuguese).
_MORE_LATIN = {
    "tr": (
        "Belediye meclisi salı günü nehir kenarında üç yüz uygun fiyatlı konut inşa etme "
        "planını onayladı. Yetkililer, gece geç saatlere kadar süren tartışmanın ardından"
        " projenin gelecek yıl başlayacağını ve bu evlerin özellikle genç aileler için "
        "olduğunu açıkladı."
    ),
    "pl": (
        "Rada miejska we wtorek zatwierdziła plan budowy trzystu tanich mieszkań nad "
        "rzeką. Urzędnicy powiedzieli po debacie, która trwała do późnej nocy, że projekt"
        " rozpocznie się w przyszłym roku i że domy są przeznaczone przede wszystkim dla "
        "młodych rodzin."
    ),
    "sv": (
        "Kommunfullmäktige godkände på tisdagen en plan för att bygga trehundra bostäder "
        "med rimliga hyror vid floden. Tjänstemän sade efter en debatt som pågick till "
        "sent på natten att projektet ska börja nästa år och att bostäderna främst är "
        "avsedda för unga familjer."
    ),
    "id": (
        "Dewan kota pada hari Selasa menyetujui rencana untuk membangun tiga ratus rumah "
        "terjangkau di dekat sungai. Para pejabat mengatakan setelah perdebatan yang "
        "berlangsung hingga larut malam bahwa proyek itu akan dimulai tahun depan dan "
        "rumah-rumah tersebut terutama ditujukan untuk keluarga muda."
    ),
    "vi": (
        "Hội đồng thành phố hôm thứ Ba đã thông qua kế hoạch xây dựng ba trăm ngôi nhà "
        "giá rẻ gần sông. Các quan chức cho biết sau cuộc tranh luận kéo dài đến khuya "
        "rằng dự án sẽ bắt đầu vào năm tới và những ngôi nhà này chủ yếu dành cho các gia"
        " đình trẻ."
    ),
    "cs": (
        "Městská rada v úterý schválila plán na výstavbu tří set dostupných domů u řeky. "
        "Úředníci po debatě, která trvala až do pozdních nočních hodin, řekli, že projekt"
        " začne příští rok a že domy jsou určeny především pro mladé rodiny."
    ),
    "hu": (
        "A városi tanács kedden jóváhagyta a folyó közelében épülő háromszáz megfizethető"
        " lakás tervét. A tisztviselők a késő éjszakáig tartó vita után közölték, hogy a "
        "projekt jövőre kezdődik, és a lakásokat elsősorban fiatal családoknak szánják."
    ),
    "da": (
        "Byrådet godkendte tirsdag en plan om at bygge tre hundrede billige boliger ved "
        "floden. Embedsmænd sagde efter en debat, der varede til sent på natten, at "
        "projektet vil begynde næste år, og at boligerne især er tiltænkt unge familier."
    ),
    "fi": (
        "Kaupunginvaltuusto hyväksyi tiistaina suunnitelman rakentaa kolmesataa "
        "kohtuuhintaista asuntoa joen lähelle. Virkamiehet kertoivat myöhään yöhön "
        "jatkuneen keskustelun jälkeen, että hanke alkaa ensi vuonna ja että asunnot on "
        "tarkoitettu erityisesti nuorille perheille."
    ),
    "no": (
        "Bystyret godkjente tirsdag en plan om å bygge tre hundre rimelige boliger ved "
        "elva. Tjenestemenn sa etter en debatt som varte til langt på natt at prosjektet "
        "skal starte neste år, og at boligene først og fremst er ment for unge familier."
    ),
}


@pytest.mark.parametrize(("code", "text"), list(_MORE_LATIN.items()))
def test_undeclared_latin_languages_beyond_the_briefs_list(code: str, text: str) -> None:
    assert detect_language(load_document(_page(text))) == code


def test_page_without_text_has_no_language() -> None:
    assert detect_language(load_document(b"<html><body><div> </div></body></html>")) is None


@pytest.mark.parametrize("code", ["en", "zh", "de", "fr", "es", "pt", "ru"])
def test_required_lists_exist_and_hold_words_only(code: str) -> None:
    words = stopwords(code)
    assert len(words) > 100
    assert all(any(ch.isalpha() for ch in w) for w in words)
    assert stopwords(code.upper()) == words


def test_chinese_list_has_the_single_character_function_words() -> None:
    assert set("的了是在和也就都而及与着或等") <= stopwords("zh")
    assert stopwords("zh-CN") >= ZH_FUNCTION_CHARS
    assert "。" not in stopwords("zh")


def test_chinese_stop_words_match_inside_unsegmented_text() -> None:
    has = stopword_matcher("zh")
    assert has("我们今天去公园了")
    assert has("春季投票之后发布报告及其附件")
    assert not has("首页")
    assert not has("体育 科技 娱乐")


def test_spaced_languages_match_whole_tokens_only() -> None:
    has = stopword_matcher("en")
    assert has("see the show")
    assert not has("theatre tickets")
    assert stopword_matcher("de")("der Hund")


def test_unknown_language_falls_back_to_latin_lists_or_sentence_marks() -> None:
    has = stopword_matcher(None)
    assert has("the show")
    assert has("Ein Satz, der endet.")
    assert has("ئۇيغۇرچە تېكىست، جۈملە.")
    assert not has("Tickets Kontakt")
    assert stopword_matcher("ug") is not None and stopword_matcher("ug")("تېكىست، جۈملە")


def test_chinese_function_characters_are_added_when_the_package_lacks_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import stopwordsiso

    monkeypatch.setattr(stopwordsiso, "stopwords", lambda code: {"我们", "。"})
    stopwords.cache_clear()
    try:
        assert stopwords("zh") == ZH_FUNCTION_CHARS | {"我们"}
    finally:
        stopwords.cache_clear()
