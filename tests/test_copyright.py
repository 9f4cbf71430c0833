"""Copyright lines are dropped from the output; prose about copyright is not."""

from __future__ import annotations

import pytest

from scrapy_denoise import Denoiser
from scrapy_denoise.methods.copyright import is_copyright_line


@pytest.mark.parametrize(
    "line",
    [
        "© 2012 CBS Interactive Inc. All Rights Reserved.",
        "(c) 2019 Example Media",
        "Copyright 2024 Daily News",
        "Copyright © 2008 The Associated Press",
        "XML Sitemap / Site Terms of Service / Powered by MediaTemple. All rights reserved.",
        "版权所有 © 新闻网",
        "© Verlag GmbH – Alle Rechte vorbehalten",
        # without the sign, in the other languages of the language vote and Russian
        "Все права защищены",
        "Wszelkie prawa zastrzeżone.",
        "Alle rechten voorbehouden",
        "Todos os direitos reservados.",
        "Tüm hakları saklıdır",
        "Hak cipta dilindungi undang-undang",
        # and of other languages' news sites; Korean and Lithuanian reprint bans
        "© 2026 Rozhľad.sk. Všetky práva vyhradené.",
        "Sva prava pridržana.",
        "Всички права запазени.",
        "‹저작권자 ⓒ 한빛일보, 무단 전재 및 재배포 금지>",
        "Griežtai draudžiama Balsas24.lt paskelbtą informaciją panaudoti kitose interneto "
        "svetainėse, žiniasklaidos priemonėse ar kitur arba platinti be sutikimo.",
        # Chinese reprint bans and disclaimers
        "澎湃新闻报料：4009-20-4009 澎湃新闻，未经授权不得转载",
        "转载请注明出处：快科技",
        "免责声明：本文来自腾讯新闻客户端自媒体，不代表腾讯网的观点和立场。",
        # a publisher's whole legal footer after the sign, longer than MAX_CHARS
        "©News Group Newspapers Limited in England No. 679215 Registered office: 1 London "
        "Bridge Street, London, SE1 9GF. " + "The Sun is a registered trademark. " * 12,
    ],
)
def test_notices_are_copyright_lines(line: str) -> None:
    assert is_copyright_line(line)


@pytest.mark.parametrize(
    "line",
    [
        "Copyright law protects the expression of an idea, not the idea itself.",
        "The court said the (c) clause of the contract did not apply.",
        "Storm hits the coast; thousands of homes were left without power.",
        # a long paragraph that quotes a notice is prose
        "He read the small print aloud: all rights reserved. " + "Then he laughed. " * 30,
        "法院认为，该网站转载文章前已经取得作者授权。",
        # the word opens prose (a book listing) where the sign does not
        "Copyright 1962, second edition, hard cover binding, ex-library book. " * 7,
        # past the sign's limit, a line is prose again
        "© " + "A long paragraph that happens to open with the sign. " * 20,
    ],
)
def test_prose_is_not(line: str) -> None:
    assert not is_copyright_line(line)


def test_the_denoiser_drops_a_notice_inside_the_article_container() -> None:
    paragraph = (
        "The council voted on Monday to extend the tram line to the harbour, a project that "
        "residents have asked for since the old ferry stopped running ten years ago. "
    )
    page = (
        "<html><body><article><h1>Tram line extended</h1>"
        + f"<p>{paragraph * 3}</p><p>{paragraph * 2}</p>"
        + "<p>© 2024 Harbour Gazette Ltd. All rights reserved.</p></article></body></html>"
    )
    with Denoiser(store=False) as denoiser:
        text = denoiser.extract(page, "https://gazette.example/2024/tram.html").text
    assert "The council voted on Monday" in text
    assert "All rights reserved" not in text
