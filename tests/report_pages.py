"""Pages for the report tests: a hostile page, and a small news site with shared chrome.

Shared by ``test_report.py`` and ``test_report_browser.py``; every URL points at port 9 of
127.0.0.1 (discard), so a load that slipped through would fail fast and show in a test.
"""

from __future__ import annotations

EVIL = "http://127.0.0.1:9"
SITE = "https://news.example"

#: What the hostile page tries; none of it may survive into a report.
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
<object data="{EVIL}/object"></object><embed src="{EVIL}/embed">
<svg><script>document.title='PWNED'</script><a xlink:href="javascript:alert(1)">s</a></svg>
<noframes><p title="</noframes><img src=x onerror=document.title='PWNED'>">nf</p></noframes>
<form action="{EVIL}/submit"><button formaction="javascript:alert(1)">Send</button></form>
<script>document.body.appendChild(document.createElement('div')).id = 'pwned';</script>
<footer><p>Copyright News Example</p></footer>
</body></html>
"""

NAV = (
    '<nav class="site-nav"><ul><li><a href="/">Home</a></li><li><a href="/world/">World</a>'
    '</li><li><a href="/sport/">Sport</a></li><li><a href="/culture/">Culture</a></li></ul>'
    "</nav>"
)
FOOTER = '<footer><p>Copyright 2024 News Example Ltd. All rights reserved.</p></footer>'
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


def site_page(i: int) -> tuple[str, str]:
    """(url, html) of article ``i`` of the small site: shared nav and footer, own story."""
    topic = TOPICS[i % len(TOPICS)]
    url = f"{SITE}/2024/05/{topic.replace(' ', '-')}-{i}.html"
    page = f"""<html><head><title>{topic.title()} - News Example</title></head><body>
{NAV}
<div class="story"><h1>All about the {topic}</h1>
<p>Reporters spent the week looking into the {topic}, talking to residents, officials and
experts about what it means for the city and its budget in the coming years ({i}).</p>
{FOLLOW}
<p>Most people we met had an opinion on the {topic}; some were worried about the cost,
others welcomed the change and hoped the work would start before the end of the year.</p>
<p>The council will publish its decision on the {topic} next month, after a final vote.</p>
</div>
{FOOTER}
</body></html>"""
    return url, page
