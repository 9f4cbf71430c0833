"""Lines dropped by rule from every method's output: :mod:`scrapy_denoise.methods.line_rules`."""

from __future__ import annotations

import pytest

from scrapy_denoise import Denoiser
from scrapy_denoise.methods.header_lines import without_header
from scrapy_denoise.methods.line_rules import (
    HEADLINE_LINES,
    dangling_labels,
    is_stock_line,
    line_rule,
    without_rule_lines,
)


@pytest.mark.parametrize(
    "line",
    [
        "Advertisement",
        "Advertisement - Continue Reading Below",
        "  Share on  Facebook ",
        "Read more",
        "Related posts:",
        "About The Author",
        "Continue reading the main story",
        "A post shared by Kylie (@kyliejenner) on Sep 21, 2018 at 8:30pm PDT",
        "Sign up for our daily newsletter",
        "Enlarge this image",
        "Click here to enlarge image",
        "3 of 12",  # a gallery's counter
        "Show Caption",
        "Resume your video",
        "Back to top",
        "Top of Page",
        # links on to the rest of a story, with arrows
        "> Read more",
        "Read on >>",
        "Continue reading »",
        # comment threads' and shops' buttons, a dialog's close button
        "Reply",
        "Report this comment",
        "[Reply] [Top]",
        "Quote:",
        "Add to cart",
        "QuickView",
        "Book now",
        "Close",
        # blog and news furniture around a story
        "Advertisements",
        "Post a comment",
        "Leave a Reply",
        "TrackBack URL for this entry:",
        "Remember me? Yes No",
        "Remember personal info?",
        "Tags:",
        "Related Topics",
        "Printer-friendly version",
        "Sign up!",
        "Article controls",
        "Copy link to paste in your message",
        "Copy code",  # a code block's copy button, and its state after a click
        "Copied!",
        "ts Copy",
        "bash Copy",
        # a form's status messages (Webflow's defaults)
        "Thank you! Your submission has been received!",
        "Oops! Something went wrong while submitting the form.",
        # newsletter platforms' paywall, sponsor and footer lines (beehiiv, Substack, Ghost)
        "Already a paying subscriber? Sign In.",
        "Already have an account? Sign in",
        "This post is for paid subscribers",
        "Presented by Ledgerly",
        "Login or Subscribe to participate in polls.",
        "Update your email preferences or unsubscribe here",
        # Chinese news furniture: editors' credits, QR codes, print, home page, link lists
        "责任编辑：张迪",
        "（责任编辑：系统管理员）",
        "[责任编辑：韩保林 PK155]",
        "本文来源：新京报 责任编辑：杜硕_NB12556",
        "作者：未知 责任编辑：棒棒不是糖",
        "编辑 刘晓阳 校对 李铭",
        "扫一扫在手机打开当前页面",
        "复制代码",
        "武汉航拍画面。图片来源：网络截图",  # a photo's caption with its credit
        "（图片来源：新华社）",
        "打印 关闭",
        "返回腾讯网首页>>",
        "相关稿件",
        # Chinese reading controls, paging links, an empty comment box's prompt
        "调整字体",
        "字号: [大] [中] [小] [打印]",
        "扫码阅读全文",
        "相关内容",
        "上一页",
        "评论（191）",
        "评论(0)",
        "请先说点什么",
        "字号",
        "我要跟帖",
        "已输入0字",
        "发表",
        "扫描上方二维码关注微信公众号",
        # Chinese follow-us and get-the-app lines, an end-of-story marker, a tag list
        "新浪财经公众号",
        "证券时报官方新闻客户端",
        "扫一扫 关注我",
        "关注",
        "用微信扫描二维码",
        "扫描下方二维码解锁更多技能",
        "安装新浪财经客户端第一时间接收最全面的市场资讯→【下载地址】",
        "安装新华社客户端，随时随地看新闻",
        "用微信扫描二维码，分享至好友和朋友圈",
        "扫描下方二维码，关注我们",
        "扫描二维码,向CSDN吐槽",
        "关注我们的微信公众号",
        "正文已结束，您可以按alt+4进行评论",
        "特别声明",
        "关键词 >> 共享充电宝",
        "点击进入“文艺星青年”>>",
        "您的浏览器暂时无法播放此视频.",
        # Chinese publication lines: a date with publication labels, no sentence
        "发布时间：2019-05-18 来源：中国地理学会",
        "2019-09-26 12:11来源：证券时报网作者：李在山",
        "发表于2014-08-24 21:30| 1164次阅读| 来源CSDN| 0 条评论| 作者魏星",
        "发布于：2012-03-01 admin / 学术会议 / 报告 / 访问：",
        "2023-7-4 22:53| 发布者: 数码老周| 查看: 10675| 评论: 2 |来自: 云溪发布",  # Discuz!
        # an institution's CMS: breadcrumb, previous and next notice, attachment counter
        "学院新闻 当前位置：首页>>新闻中心>>学院新闻>>正文",
        "您的位置：首页 > 通知公告",
        "上一条：学院党委开展“不忘初心、牢记使命”主题党日活动",
        "下一篇：没有了",
        "附件【2023年招生简章.pdf】已下载次",
        "附件【报名表.doc】已下载 12 次",
        # a blog post's statistics
        "|字数总计:46|阅读时长:1分钟|阅读量:|评论数:",
        "本文字数： 2.4k 阅读时长 ≈ 5 分钟",
        # a story's reading time, alone or after its date and byline
        "6 min read",
        "3 MIN. READ",
        "Reading Time: 11 minutes",
        "Read time: 14 min",
        "23.07.2025 · 6 min read",
        "Jonas Eklund · Feb 13, 2024 · 3 min read",
    ],
)
def test_stock_phrases_are_stock_lines(line: str) -> None:
    assert is_stock_line(line)


@pytest.mark.parametrize(
    "line",
    [
        "Read more about the council's decision in our earlier report.",
        "The advertisement ran for three weeks before it was pulled.",
        "Share prices fell on Monday.",
        "Copy link to paste in your message and send it to a friend.",
        "Three of the 12 rescued miners were taken to hospital.",
        "The top of the page is where readers look first.",
        "Oops! Something went wrong with the launch, the agency said on Friday.",
        "Presented by the city's youth orchestra, the concert raised $12,000 for the shelter.",
        "Read on to find out why the vote was delayed.",
        "Reply cards were mailed to every household.",
        "Close to 3,000 people attended the rally.",
        "Add to that the cost of the new bridge.",
        "Tags were found on 40 of the birds.",
        "Sign up numbers doubled this year.",
        "Post a comment below and the author will answer on Friday.",
        "It took me 5 minutes to read the whole report, and it was worth it.",
        "Done. A 5 min read",
        "编辑部昨天表示，将在下月推出新版。",
        "他担任责任编辑多年，参与了三本书的出版。",
        "推荐的三个方案都被否决了。",
        "相关部门正在调查此事。",
        "相关内容已经删除。",
        "评论（191）条，网友大多表示支持。",
        "上一页的数据有误。",
        "发表评论的网友大多表示支持。",
        "字号较小的版本已经停印。",
        "微信公众号文章显示，该公司已于上月停业。",
        "他关注这件事已经很久了。",
        "关注朋朋",
        # sentences about QR codes, apps and accounts
        "扫描二维码即可查询全市停车位信息。",
        "扫码支付后，系统会自动开具电子发票。",
        "安装该客户端的用户需尽快更新到最新版本。",
        "国家卫健委开通官方微信公众号",
        "该公司推出官方客户端",
        # an event's time, which the story announces, and a dated sentence
        "时间：2014 年 11 月 28 日上午 10 点 30 分",
        "2019年9月26日，记者从证券时报网获悉，该公司已发布公告。",
        # sentences about positions, earlier notices and attachments
        "新校区的位置：位于城市东部，交通便利。",
        "上一条新闻中提到的讲座改期举行。",
        "附件中的表格已下载的同学请尽快填写。",
        "本文字数较多，阅读时长约十分钟。",
        "据新华社报道，图片来源：新华社的照片显示当地已经恢复供电。",
        "Copy code reviews before merging.",
        "Copy editors read it twice.",
    ],
)
def test_prose_containing_a_stock_phrase_is_not_one(line: str) -> None:
    assert not is_stock_line(line)


@pytest.mark.parametrize(
    "line",
    [
        "Anzeige",
        "Lesen Sie auch:",
        "Mehr zum Thema",
        "À lire aussi",
        "Publicité",
        "Lee también",
        "Leia também",
        "Leggi anche",
        "Lees ook",
        "Czytaj także",
        "Читайте также:",
        "Реклама",
        "Artikel teilen",
        "Nach oben",
        "Schließen",
        # related-list headings other scripts' sites leave as a story's last line
        "İlgili Haberler",
        "Baca juga:",
        "Tin liên quan",
        "関連記事",
        "관련기사",
        "ये भी पढ़ें",
        "اقرأ أيضاً:",
    ],
)
def test_stock_phrases_of_other_languages_are_stock_lines(line: str) -> None:
    assert is_stock_line(line)


@pytest.mark.parametrize(
    "line",
    [
        "Lesen Sie auch den Kommentar unseres Korrespondenten.",
        "Anzeigenmarkt",
        "La publicité en ligne recule pour la première fois.",
        "Читайте также интервью с министром.",
        "関連記事によると、港の工事は来月始まる。",
        "Baca juga laporan lengkap dari Jakarta.",
    ],
)
def test_prose_of_other_languages_with_a_stock_phrase_is_not_one(line: str) -> None:
    assert not is_stock_line(line)


def test_line_rule_names_the_rule_and_the_filter_keeps_order() -> None:
    assert line_rule("© 2024 Daily. All rights reserved.") == "copyright"
    assert line_rule("Advertisement") == "stock"
    assert line_rule("Body text.") is None
    lines = ["Headline", "Advertisement", "Body.", "© 2024 Daily. All rights reserved.", "More."]
    assert without_rule_lines(lines) == ["Headline", "Body.", "More."]


def test_the_denoiser_drops_a_stock_line_inside_the_article_container() -> None:
    paragraph = (
        "The council voted on Monday to extend the tram line to the harbour, a project that "
        "residents have asked for since the old ferry stopped running ten years ago. "
    )
    html = f"""<html><body><article><h1>Tram line to reach the harbour</h1>
    <p>{paragraph * 2}</p><div class="ad-label">Advertisement</div><p>{paragraph * 2}</p>
    </article></body></html>"""
    with Denoiser(store=False) as denoiser:
        text = denoiser.extract(html, "https://news.example/tram").text
    assert "council voted" in text
    assert "Advertisement" not in text.split("\n")


def test_labels_left_dangling_at_the_end_are_dropped() -> None:
    body = ["Headline", "Key points:", "The story goes on after a label with its content."]
    assert without_rule_lines([*body, "Bookmark with:", "On the Net:"]) == body
    assert without_rule_lines(["Story.", "点击进入专题："]) == ["Story."]
    # only at the end, only short: a colon-ended sentence that introduces a quote stays
    assert dangling_labels(body) == 0
    said = "The minister, speaking to reporters after the vote on Tuesday, said:"
    assert dangling_labels(["Story.", said]) == 0
    assert dangling_labels(["Bookmark with:"]) == 1
    assert dangling_labels([]) == 0


def test_the_headline_goes_once_from_the_top_of_the_text_whitespace_and_case_aside() -> None:
    title = "Tram line to reach the harbour"
    lines = ["Local news", "TRAM line  to reach the harbour ", "The council voted.", title]
    # the first equal line within the first HEADLINE_LINES; the story's later quote stays
    assert without_header(lines, title, None, None) == ["Local news", "The council voted.", title]


@pytest.mark.parametrize(
    ("lines", "title"),
    [
        (["Tram line to reach the harbour", "The council voted."], None),
        (["Tram line to reach the harbour", "The council voted."], ""),
        # a headline that is not the title (a subtitle run into it) is not certainly it
        (
            ["Tram line to reach the harbour: what it costs", "Story."],
            "Tram line to reach the harbour",
        ),
        # too far down to be the headline
        ([*(f"Line {i}." for i in range(HEADLINE_LINES)), "Tram line"], "Tram line"),
        ([], "Tram line"),
    ],
)
def test_text_without_its_title_near_the_top_is_kept_whole(
    lines: list[str], title: str | None
) -> None:
    assert without_header(lines, title, None, None) == lines


def test_the_denoiser_drops_the_headline_only_when_asked() -> None:
    paragraph = (
        "The council voted on Monday to extend the tram line to the harbour, a project that "
        "residents have asked for since the old ferry stopped running ten years ago. "
    )
    html = f"""<html><head><title>Tram line to reach the harbour - Daily</title></head>
    <body><article><h1>Tram line to reach the harbour</h1><p>{paragraph * 2}</p>
    <p>Work starts in May. {paragraph * 2}</p></article></body></html>"""
    url = "https://news.example/tram"
    with Denoiser(store=False) as keeping, Denoiser(store=False, keep_headline=False) as dropping:
        kept, dropped = keeping.extract(html, url), dropping.extract(html, url)
    assert kept.text.split("\n")[0] == "Tram line to reach the harbour"
    assert dropped.text.split("\n") == kept.text.split("\n")[1:]
    assert dropped.title == kept.title == "Tram line to reach the harbour"
    assert dropped.identity == kept.identity  # one row per article whichever way it is set


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        # Docsy's page-meta-lastmod under every docs page and blog post
        (
            "Last modified January 10, 2024: Update Hugo to 0.128.2 and fix deprecations "
            "(#913) (e4c16f1)",
            "stock",
        ),
        ("Last updated on 2024-01-10: docs: fix typo (e4c16f1a9b)", "stock"),
        # without a commit a stamp may be a story's own: three datasets' truth keeps them
        ("Last updated: May 5, 2024", None),
        ("Last modified January 10, 2024: see the note (below)", None),
    ],
)
def test_a_change_stamp_with_its_commit_is_a_stock_line(line: str, rule: str | None) -> None:
    assert line_rule(line) == rule


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        # Minimal Mistakes' and Joomla's furniture under a short post
        ("Tags: announcements, misc, til", "stock"),
        ("Categories: notes", "stock"),
        ("Filed under: Sports", "stock"),
        ("Hits: 1662", "stock"),
        (
            "Previous article: All Stars cricket 2023 Next article: Under-8s enjoy the festival",
            "stock",
        ),
        # vuepress-theme-hope's last edit, Typecho's taxonomy lines
        ("上次编辑于: 2021/12/19 20:33:17", "stock"),
        # an old post's notice and a post's length and reading time alone (Halo's Joe theme)
        (
            "本文最后更新于 2022-10-24，已超过 757 天没有更新，若内容或图片失效，请留言反馈。",
            "stock",
        ),
        ("全文共 160 字，预计阅读 1 分钟", "stock"),
        ("推荐阅读", None),  # a post's own reading list's heading (zjuvai-blog's truth)
        ("分类: 生活随笔", "stock"),
        ("标签: 心理学, 散文, 读书", "stock"),
        ("标签: none", "stock"),
        # the same labels in other languages (1C-Bitrix, TYPO3, SPIP, WordPress themes)
        ("Теги: пожар, МЧС", "stock"),
        ("Количество просмотров: 1814", "stock"),
        ("Schlagwörter: Verkehr, Baustelle", "stock"),
        ("Mots-clés : Festival, Culture", "stock"),
        ("Etiquetas: viajes, Madrid", "stock"),
        ("Visualizações: 1.234", "stock"),
        ("Тема: пожар на улице Гагарина", None),
        ("Oznake: promet, Ljubljana", "stock"),  # Slovenian and Estonian tags
        ("Märksõnad: eelarve, valitsus", "stock"),
        ("دسته‌بندی: علمی و دانشگاهی", "stock"),  # Persian and Arabic
        ("کد خبر: ۱۴۰۳۰۱۲۰۸۰۴۱۷", "stock"),
        ("بازدید: ۴۲۳۱۶", "stock"),
        ("الوسوم: الانتخابات، البرلمان", "stock"),
        ("عدد المشاهدات: 1,204", "stock"),
        ("دسته‌بندی: این یک جمله کامل است. و جمله دوم", None),
        # a "read also" link with its headline, and an Indonesian story's initials
        ("Baca juga: Selisih Data Sirekap di Yogyakarta, KPU Pastikan Rekap Manual", "stock"),
        ("Leia também: Prefeitura prorroga prazo do IPTU", "stock"),
        ("Baca juga: Op Selamat: 1.9 juta kenderaan dijangka guna lebuh raya", "stock"),
        ("Lue myös: Hallitus esittää muutoksia työttömyysturvaan", "stock"),
        ("ये भी पढ़ें: इस हफ्ते ओटीटी पर रिलीज होंगी ये 8 फिल्में और वेब सीरीज", "stock"),
        ("Zobacz też: Rada w Ostrzeszowie przyjęła uchwałę w sprawie opłat", "stock"),
        ("Læs også: Familie mistede alt i brand: Nu samler naboer ind", "stock"),
        ("LES OGSÅ: Slik blir været i helgen", "stock"),
        ("Прочетете още: Ботев (Пловдив) победи Арда с 0:2 в дербито", "stock"),
        ("Pročitajte još: Banke podižu kamate na štednju", "stock"),
        ("Skaitykite daugiau: Seime – karštos diskusijos dėl kitų metų biudžeto", "stock"),
        ("Le puede interesar: Subte: cuánto cuesta el boleto desde diciembre", "stock"),
        ("Soma zaidi: Bunge lapitisha bajeti ya mwaka 2027", "stock"),
        ("延伸阅读：高标准农田建设提速，黑龙江今年新建453万亩", "stock"),
        ("Lees ook: Boeremusiek lewe! Honderde dans in Parys", "stock"),  # "!" inside
        ("###", "stock"),  # a press release's end marks
        ("- 30 -", "stock"),
        ("Lexo edhe: Rafael Ortega në Tiranë: Progres i dukshëm, por ende punë", "stock"),
        ("▶ [함께 읽기] KTX 타고 떠나는 겨울 바다… 강릉 당일치기 코스", "stock"),
        # a dash after the label, and an abbreviation's dots in the headline (Punjabi,
        # Burmese, Azerbaijani, Telugu, Hausa)
        ("ਇਹ ਵੀ ਪੜ੍ਹੋ- ਵਿਰੋਧੀ ਧਿਰ ਦਾ ਸਰਕਾਰ 'ਤੇ ਹਮਲਾ, ਕਿਹਾ- ਅਮਨ-ਕਾਨੂੰਨ ਦੀ ਸਥਿਤੀ ਵਿਗੜੀ", "stock"),
        ("ਇਹ ਵੀ ਪੜ੍ਹੋ : ਕਣਕ ਦੀ ਬਿਜਾਈ ਤੋਂ ਪਹਿਲਾਂ ਡੀ.ਏ.ਪੀ. ਖਾਦ ਦੀ ਘਾਟ, ਲੰਮੀਆਂ ਕਤਾਰਾਂ", "stock"),
        ("ဆက်စပ်ဖတ်ရှုရန် – စားသုံးဆီ ဈေးနှုန်း ထပ်မံ မြင့်တက်၍ ဝယ်သူ နည်း", "stock"),
        ("Oxu: Konfrans Liqası: “Zirə” növbəti mərhələyə yüksəlib", "stock"),
        ("Daha ətraflı: Güləşçilərimiz reytinq turnirində 8 medal qazanıb", "stock"),
        ("ఇది కూడా చదవండి: హైదరాబాద్ మెట్రో రెండో దశకు పచ్చజెండా", "stock"),
        ("Karanta kuma: Tsadar Rayuwa: Talaka Na Cikin Tsaka Mai Wuya", "stock"),
        # Somali's, Lao's, Kyrgyz's and Galician's
        ("Akhri sidoo kale: Miino lagu aasay waddada Afgooye iyo Muqdisho oo qarxday", "stock"),
        ("ອ່ານຕື່ມ: ລົດໄຟລາວ-ຈີນ ຂົນສົ່ງຜູ້ໂດຍສານໄດ້ 1 ລ້ານເທື່ອຄົນ", "stock"),
        ("Дагы окуңуз: Бишкекте жаңы мектеп ачылды", "stock"),
        ("Хонед ҳамчунин: Рубл арзон шуд, хонаводаҳои муҳоҷирон дар танголанҷӣ", "stock"),
        ("Хонед ҳамчунин", "stock"),
        ("LÉIGH FREISIN: Laoise Nic an Iomaire ag seoladh albam nua sean-nóis", "stock"),
        ("Liest och: Streik bei der Bunn: Pendler mussen op de Bus ausweichen", "stock"),
        ("Ẹ TÚN KA: Ìjọba ìpínlẹ̀ Ọ̀yọ́ ṣí ọ̀nà tuntun", "stock"),
        ("LER MÁIS: Os estaleiros de Vigo teñen carga de traballo asegurada ata 2027", "stock"),
        ("Baca juga: U.S. troops leave. Then a second sentence follows here.", None),
        # many dots that fail at the end: judged at once, not by trying every split
        ("Baca juga: " + "ab.cd." * 40 + " x. Y", None),
        ("Pročitajte još: Bh. atletičari osvojili pet medalja", "stock"),  # lower case next
        ("Pročitajte još: Tuzlanski džez festival slavi 20. rođendan", "stock"),
        ("Pročitajte još: Prva rečenica. Druga rečenica ovdje.", None),
        ("អានបន្ថែម៖ អង្គការ WHO ព្រមានពីការរីករាលដាលនៃជំងឺគ្រុនឈាមនៅថៃ", "stock"),  # Khmer
        ("BASAHIN: MAGSASAKA SA PAMPANGA, UMARAY SA MABABANG PRESYO NG PALAY", "stock"),
        ("Basahin din: Bangka tumaob sa karagatan ng Leyte; 13 pasahero nailigtas", "stock"),
        ("ಇದನ್ನೂ ಓದಿ: ಲೋಕಸಭೆಯಲ್ಲಿ ಅಂಚೆ ಸೇವೆಗಳ ಮಸೂದೆ ಅಂಗೀಕಾರ", "stock"),  # Kannada
        ("- Advertisement -", "stock"),  # an ad's label between dashes
        ("- ពាណិជ្ជកម្ម -", "stock"),
        ("- The Kosovo Kontradiction -", None),
        ("【延伸阅读】这是第一句话。这是第二句话", None),
        # a reposted story's original headline; a Korean story's sign-off
        ("原标题：洛阳马拉松男子组赛会纪录被打破", "stock"),
        ("서하나 기자 seo@hanbit.co.kr 이서연 기자 lee@hanbit.co.kr", "stock"),
        ("문지원 기자", "stock"),
        ("김민수 기자는 이날 현장을 찾았다.", None),
        ("Читайте також: Міністр закордонних справ Чехії прибув до Києва", "stock"),
        ("Διαβάστε επίσης: Νέα μέτρα για τη στεγαστική κρίση", "stock"),
        ("Související: Češi zvládli přátelské utkání s Itálií, debutoval Karel Vávra", "stock"),
        ("Citește și: Tricolorii au câștigat cu 4-0 și urcă pe primul loc în grupă", "stock"),
        (
            "یہ بھی پڑھیں: پی ایس ایل: لاہور قلندرز نے اسلام آباد یونائیٹڈ کو 4 وکٹوں سے ہرا دیا",
            "stock",
        ),
        ("อ่านเพิ่มเติม : บุรีรัมย์ถล่มท่าเรือ 3-0 รั้งจ่าฝูงไทยลีกห่าง 5 แต้ม", "stock"),
        ("ये भी पढ़ें: यह पहला वाक्य है। और यह दूसरा वाक्य है जो लंबा है", None),
        ("(anr/idn)", "stock"),
        ("(AP/Reuters)", None),
        ("Read more: The best cleaning apps to run your business", None),
        ("Baca juga: ini kalimat biasa. Dan ada kalimat kedua yang panjang.", None),
        # a post's info line of labelled parts without a date (Z-BlogPHP's themes)
        ("作者：小鹿 | 分类：照片墙 | 标签：黑白 随手拍 | 浏览：662 | 评论：4", "stock"),
        ("作者：张三 | 这篇文章写得很好", None),
        # an author's line may be content: zjuvai-blog's paper reviews name the authors so
        ("作者：Cody Dunne, Ben Shneiderman", None),
        # a listing's labels are content: a film's category beside its director
        ("Category: Drama Director: Michael Caton-Jones", None),
        ("Topic: Why we moved. A story of two cities", None),
        ("Previous posts in the series", None),
    ],
)
def test_a_posts_labelled_furniture_is_a_stock_line(line: str, rule: str | None) -> None:
    assert line_rule(line) == rule
