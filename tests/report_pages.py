"""Pages for the report tests: a hostile page, a small news site with shared chrome, and a
site of generated reports (also read by ``test_denoiser.py``).

Shared by ``test_report.py`` and ``test_report_browser.py`` (the topics by
``test_learning.py`` too); every URL points at port 9 of 127.0.0.1 (discard), so a load
that slipped through would fail fast and show in a test.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

from scrapy_denoise.methods.linestats import line_hash
from scrapy_denoise.store import (
    ArticleRecord,
    PageVisit,
    SiteDelta,
    Store,
    TemplateText,
    VerdictCount,
)

EVIL = "http://127.0.0.1:9"
SITE = "https://news.example"

#: What the hostile page tries; none of it may survive into a report. (``<embed>`` comes
#: last: libxml2 does not know it is a void element and nests what follows inside it.)
HOSTILE = f"""<!DOCTYPE html>
<html><head><title>Hostile page</title>
<meta http-equiv="refresh" content="0;url={EVIL}/refresh">
<base href="{EVIL}/">
<link rel="stylesheet" href="{EVIL}/style.css">
<script>document.title = 'PWNED'; try {{ parent.document.title = 'PWNED'; }} catch (e) {{}}
document.documentElement.setAttribute('data-pwned', 'head');</script>
<style>body {{ background: url({EVIL}/bg.png); }} @import url({EVIL}/more.css);
.x {{ background: \\75 rl({EVIL}/escaped.png) }}</style>
</head>
<body onload="document.title='PWNED'">
<nav><ul><li><a href="/">Home</a></li><li><a href="/world/">World</a></li>
<li><a href="javascript:document.title='PWNED'">Click me</a></li></ul></nav>
<article>
<h1 onmouseover="document.title='PWNED'">A "quoted" headline &lt;/iframe&gt; with tags</h1>
<p>The council met on Tuesday to discuss the new tram line, and residents said the
&lt;/iframe&gt;&lt;script&gt;alert(1)&lt;/script&gt; plan was "too expensive" &amp; too slow.
Officials promised a second consultation before the summer break.</p>
<p>Opponents argue that the route cuts through the old market square, which has been a
meeting place for the town since the fourteenth century; supporters point to the traffic.</p>
<img src="{EVIL}/photo.jpg" onerror="document.title='PWNED'" alt="photo">
<p style="color: #333; background-image: url({EVIL}/p.png)">A third paragraph with an inline
style keeps the story going, because the council's decision is expected next month.</p>
<div data-denoise-fate="kept" data-denoise-id="0">A fake annotation the page made itself.</div>
</article>
<iframe src="{EVIL}/frame" srcdoc="<script>parent.document.title='PWNED'</script>"></iframe>
<object data="{EVIL}/object"></object>
<svg><script>document.title='PWNED'</script><a xlink:href="javascript:alert(1)">s</a></svg>
<noframes><p title="</noframes><img src=x onerror=document.title='PWNED'>">nf</p></noframes>
<form action="{EVIL}/submit"><button formaction="javascript:alert(1)">Send</button></form>
<script>document.body.appendChild(document.createElement('div')).id = 'pwned';</script>
<footer><p>Copyright News Example</p></footer>
<embed src="{EVIL}/embed">
</body></html>
"""

NAV = (
    '<nav class="site-nav"><ul><li><a href="/">Home</a></li><li><a href="/world/">World</a>'
    '</li><li><a href="/sport/">Sport</a></li><li><a href="/culture/">Culture</a></li></ul>'
    "</nav>"
)
FOOTER = "<footer><p>Copyright 2024 News Example Ltd. All rights reserved.</p></footer>"
TOPICS = [
    "tram line extension",
    "harbour festival",
    "hospital funding",
    "river clean-up",
    "school meals",
    "city budget",
    "airport noise",
    "library hours",
    "bus strike",
    "market reopening",
    "stadium roof",
    "flood defences",
    "bike lanes",
    "tax reform",
]
#: Loose text between the article's paragraphs: a line but never a template unit (its
#: parent has block children), so only line statistics can catch it.
FOLLOW = "Follow News Example for more stories from the city"


_WORDS = [
    "council",
    "residents",
    "budget",
    "tram",
    "harbour",
    "river",
    "school",
    "market",
    "station",
    "bridge",
    "museum",
    "mayor",
    "funding",
    "plans",
    "summer",
    "winter",
    "vote",
    "report",
    "study",
    "traffic",
    "housing",
    "park",
    "noise",
    "teachers",
    "nurses",
    "drivers",
    "shops",
    "families",
    "visitors",
    "weather",
    "costs",
    "delays",
    "repairs",
]


def _sentence(rng: random.Random, words: int) -> str:
    picked = [rng.choice(_WORDS) for _ in range(words)]
    return " ".join(picked).capitalize() + "."


def site_page(i: int) -> tuple[str, str]:
    """(url, html) of article ``i`` of the small site: shared nav and footer, own story.

    The story's paragraphs are drawn at random per page: pages that differ only in a topic
    word are near-duplicates the template library rightly learns as templates.
    """
    topic = TOPICS[i % len(TOPICS)]
    rng = random.Random(i)
    url = f"{SITE}/2024/05/{topic.replace(' ', '-')}-{i}.html"
    paragraphs = [" ".join(_sentence(rng, 12) for _ in range(3)) for _ in range(3)]
    # Links that change from page to page: no template, and the method drops them.
    related = "".join(
        f'<li><a href="/story/{i}-{k}.html">{_sentence(rng, 5)}</a></li>' for k in range(3)
    )
    page = f"""<html><head><title>{topic.title()} - News Example</title></head><body>
{NAV}
<div class="story"><h1>All about the {topic}</h1>
<p>Reporters spent the week looking into the {topic}. {paragraphs[0]}</p>
{FOLLOW}
<p>{paragraphs[1]}</p>
<p>{paragraphs[2]}</p>
</div>
<aside class="related"><ul>{related}</ul></aside>
{FOOTER}
</body></html>"""
    return url, page


#: The page filter's verdicts on site a (site b has none, like a store from before they
#: were recorded): (is_noise, reason, score bucket, pages).
VERDICTS_A = (
    (False, "model", 0, 70),
    (False, "model", 8, 7),
    (True, "model", 12, 3),
    (True, "url_pattern", 19, 38),
    (True, "little_text", 19, 2),
)


def fill_store(store: Store) -> None:
    """Two sites with line counts, templates, fingerprints, (for one) dated articles and
    (for one) page filter verdicts."""
    now = datetime(2024, 6, 1, 12, tzinfo=UTC)
    for site, pages, lines in (
        ("https://a.example", 120, {"Home": 118, "Subscribe now": 60, "<script>x</script>": 9}),
        ("https://b.example", 7, {"Contact": 7}),
    ):
        store.apply(
            SiteDelta(
                site=site,
                pages=pages,
                line_counts={line_hash(t): n for t, n in lines.items()},
                line_texts={line_hash(t): t for t in lines},
                templates=(TemplateText("li", "Home", 5), TemplateText("p", "Copyright", 4)),
            )
        )
        store.record_fingerprints(
            [PageVisit(f"{site}/p{i}.html", site, f"h{i}", now) for i in range(pages // 10 + 1)],
            [VerdictCount(site, *v) for v in VERDICTS_A] if site == "https://a.example" else (),
        )
    store.upsert_articles(
        [
            ArticleRecord(
                url=f"https://a.example/p{i}.html",
                site="https://a.example",
                text=f"story {i}",
                title=f"Story {i}",
                published=datetime(2023, 1 + i % 12, 1, tzinfo=UTC),
                lang="en",
                fetched_at=now,
            )
            for i in range(30)
        ]
        + [
            ArticleRecord(
                url="https://a.example/undated.html",
                site="https://a.example",
                text="undated",
                fetched_at=now,
            )
        ]
    )


def quake_report(i: int) -> str:
    """One of a series of generated reports: the same sentences, other numbers and places."""
    places = ("Anza", "Parkfield", "Hollister", "Petrolia", "Bodega", "Ridgecrest")
    mag, km, depth, place = 2.5 + (i * 7) % 40 / 10, 3 + i * 13 % 87, 1 + i * 3 % 19, places[i % 6]
    return (
        f"<html><head><title>Magnitude {mag:.1f} quake near {place}</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/quakes/'>Quakes</a> <a href='/about/'>About</a></nav>"
        f"<article><h1>Magnitude {mag:.1f} quake strikes near {place}</h1>"
        f"<p>Updated at {i % 24:02d}:{i * 7 % 60:02d} UTC on March {i % 28 + 1}, 2024 by the"
        " Quake News automated desk</p>"
        f"<p>A magnitude {mag:.1f} earthquake struck {km} kilometres north-east of {place},"
        f" California, at {i % 24:02d}:{i * 7 % 60:02d} local time on Tuesday, according to"
        " the US Geological Survey.</p>"
        f"<p>The quake had a depth of {depth}.{i % 10} kilometres. The agency said there were"
        " no immediate reports of damage or injuries, and that aftershocks are possible.</p>"
        "<p>This story was generated automatically from data published by the survey.</p>"
        "</article><footer><p>Copyright 2024 Quake News Ltd. All rights reserved.</p>"
        "</footer></body></html>"
    )
