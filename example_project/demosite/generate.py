"""Generate "Demo Daily", a static bilingual news site with page-level ground truth.

The site exists to make denoising visible offline: every article sits inside the chrome real
CMSs emit (mega-menus, breadcrumbs, sidebars with "most read" lists, in-article ads, related
teasers, comment threads, newsletter forms, cookie banners, copyright footers), and list, tag,
archive and author pages repeat article titles and leads so that a naive extractor stores them
as articles. Three page layouts ("classic", "magazine", "blog") share one site, as happens when
sections are run by different teams, so template detection has to cope with more than one
template per site.

Text is composed from a small built-in pool of English and Chinese sentences with slots
(cities, people, numbers) so that paragraphs differ between articles: a pool reused verbatim
would make article text itself look like a cross-page template.

Everything comes from one ``random.Random(seed)`` and no clock, so a seed gives the same bytes
on every run; ``manifest.json`` records, for every HTML page, what it is and, for articles,
the exact main text. Its records use the key names of the shared real-site snapshots
(``pages.jsonl``: path, file, kind, noise_type) so one evaluation path can read both.

Run ``python -m demosite.generate OUT_DIR [--seed N]`` from ``example_project/``.
"""

from __future__ import annotations

import argparse
import html
import itertools
import json
import random
import re
import unicodedata
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from urllib.parse import quote

__all__ = ["SITE_NAME", "Manifest", "PageRecord", "generate", "main"]

SITE_NAME = "Demo Daily"
MANIFEST_NAME = "manifest.json"
#: where the site pretends to live publicly; only used in share links and JSON-LD, which real
#: sites also write with their public origin whatever host serves the copy
_PUBLIC_ORIGIN = "https://www.demo-daily.example"
_N_EN_ARTICLES = 40
_N_ZH_ARTICLES = 20
_SECTION_PAGE_SIZE = 5
_TAG_PAGE_SIZE = 8


def _lines(block: str) -> tuple[str, ...]:
    """One sentence per line keeps the pools readable and diffable.

    Long sentences continue on the next source line after a trailing backslash; Python drops
    that newline, and collapsing whitespace here removes the indentation it leaves behind.
    """
    return tuple(" ".join(line.split()) for line in block.strip().splitlines() if line.strip())


# --------------------------------------------------------------------------------------------
# Text pools. Slots: {city} {country} {person} {org} {company} are fixed per article so an
# article stays about one place and one person; {num} {count} {pct} {big} {year} {month}
# {weekday} {small} {months} are drawn per sentence.
# --------------------------------------------------------------------------------------------

_EN_SENTENCES: dict[str, tuple[str, ...]] = {
    "world": _lines(
        """
        The proposal passed by a narrow margin after a debate that ran late into the night in \
            {city}.
        Officials in {country} said the measures would remain in place at least until the end \
            of {month}.
        Opposition leaders accused the government of rushing the bill through without proper \
            scrutiny.
        {person}, who has led the negotiations since {year}, described the talks as difficult \
            but productive.
        Aid groups warned that {num} families were still without clean water in the \
            worst-affected districts.
        The agreement, if ratified, would cut tariffs on farm goods by roughly {pct} percent \
            over five years.
        Turnout was the highest recorded in {country} since {year}, according to the electoral \
            commission.
        Residents of {city} queued for hours outside polling stations, some with folding \
            chairs and flasks of tea.
        Diplomats said a second round of talks could take place in {city} as early as next \
            {weekday}.
        The ministry declined to comment on reports that the plan had been drafted by outside \
            consultants.
        Regional governors have pushed back, arguing that the capital is shifting costs onto \
            local budgets.
        Emergency crews worked through the weekend to reopen the main road linking {city} to \
            the coast.
        Critics say the new rules will make it harder for smaller parties to get on the ballot.
        The census shows the population of {city} grew by {pct} percent in a decade, driven \
            largely by migration.
        Several embassies advised their citizens to avoid non-essential travel to the border region.
        Local radio reported that schools in the area would stay closed until at least {weekday}.
        """
    ),
    "business": _lines(
        """
        Shares in {company} rose {pct} percent in early trading before paring some of their gains.
        The company said revenue for the quarter reached {big}, slightly ahead of analysts' \
            expectations.
        Economists at {org} expect growth to slow in the second half of the year as higher \
            borrowing costs bite.
        Retail sales in {country} fell for a third consecutive month, according to figures \
            released on {weekday}.
        {person}, the chief executive, told investors the business was well placed to weather \
            a downturn.
        Energy prices have fallen from last year's peak but remain well above their long-term \
            average.
        The central bank kept its benchmark rate unchanged, saying it needed more evidence \
            that inflation was under control.
        Small firms in {city} say the cost of renting a shop has almost doubled since {year}.
        The deal still requires approval from competition regulators, a process that could \
            take up to a year.
        Unions said they would ballot members on strike action if the pay offer was not improved.
        Exports of machinery and chemicals accounted for most of the increase in the trade surplus.
        Analysts said the results showed that the cost-cutting programme launched in {year} \
            was beginning to pay off.
        Mortgage approvals rose to {num} thousand in {month}, the highest level in almost two years.
        The port handled a record volume of containers, helped by new shipping routes to Asia.
        Consumer confidence improved slightly, although households remain cautious about large \
            purchases.
        {company} said it would open {count} new stores this year, mostly in suburban retail parks.
        """
    ),
    "technology": _lines(
        """
        The new chip is built on a smaller manufacturing process, which the company says cuts \
            power use by {pct} percent.
        Security researchers at {org} disclosed the flaw to the manufacturer several months \
            before going public.
        {person}, an engineer who worked on the project, said the hardest part was keeping the \
            software simple.
        The pilot will connect {num} public buildings in {city} to a shared high-speed fibre \
            network.
        Regulators have asked app makers to explain how long they keep location data and who \
            can access it.
        Battery costs have fallen steeply over the past decade, but supplies of some raw \
            materials remain tight.
        The update, which rolls out next {weekday}, also fixes a bug that drained batteries on \
            older phones.
        Hospitals in {city} have started using software that flags scans for a second opinion \
            from a radiologist.
        Developers said the open-source release would let smaller companies build on the \
            technology without licence fees.
        {company} did not say how many units it expected to sell, but suppliers have \
            reportedly been told to prepare.
        Critics argue that automated hiring tools can quietly repeat the biases found in old \
            recruitment data.
        The satellite network now covers most of {country}, including remote valleys that \
            never had a fixed line.
        Engineers had to redesign the cooling system after early prototypes overheated during \
            long tests.
        The company said no customer passwords were exposed, although email addresses may have \
            been copied.
        Lawmakers in {country} are expected to vote on the data protection bill before the \
            summer recess.
        Startups in {city} raised {big} last year, a record driven largely by climate and \
            health technology.
        """
    ),
    "science": _lines(
        """
        The study followed {num} volunteers for {count} years and tracked their sleep with \
            wrist-worn sensors.
        Researchers at {org} said the results needed to be confirmed in a larger trial before \
            drawing firm conclusions.
        Water temperatures around the reef were {pct} percent lower this summer than during \
            the bleaching event of {year}.
        {person}, a marine biologist who led the survey, said the young corals were a hopeful sign.
        The signal repeated at regular intervals, which ruled out most common sources of \
            interference.
        Farmers near {city} planted the new wheat variety on test plots that received half the \
            usual rainfall.
        The findings were published on {weekday} in a peer-reviewed journal after two rounds \
            of review.
        Satellite images show the ice sheet losing mass faster at its edges than in the interior.
        Participants who walked for at least thirty minutes a day reported fewer episodes of \
            poor sleep.
        Ground-penetrating radar revealed the outline of an old riverbed about ten metres \
            below the streets of {city}.
        The team now plans to repeat the experiment with a larger sample and a control group.
        Birdwatchers first reported the species in the marshes outside {city} in early {month}.
        Scientists cautioned that a single season of data was not enough to identify a long- \
            term trend.
        The vaccine produced a strong immune response in {pct} percent of participants, with \
            mostly mild side effects.
        Funding for the project came from a mix of public grants and a private foundation in \
            {country}.
        Sediment cores taken from the lake bed record more than ten thousand years of changes \
            in climate.
        """
    ),
    "culture": _lines(
        """
        The festival opened with a sold-out screening, followed by a question-and-answer \
            session with the director.
        {person} spent almost {count} years writing the novel, much of it in a rented room \
            above a bakery in {city}.
        Curators said the objects had been acquired under circumstances that would not be \
            accepted today.
        More than {num} runners crossed the finish line, many of them raising money for local \
            charities.
        The bookshop has survived two recessions and a flood, and its owner says it will \
            survive the internet too.
        Critics praised the production for its sparse staging and a remarkable central performance.
        The team's victory sparked celebrations that lasted well into the night in the old \
            town square.
        Tickets for the final concert sold out within minutes, and resale prices climbed to \
            several times face value.
        The exhibition brings together paintings that have not been shown in the same room for \
            more than a century.
        Vendors in {city} had campaigned for two years for licences that would let them trade \
            without fear of fines.
        The novel moves between two summers, decades apart, and two sisters who barely speak \
            to each other.
        Organisers said attendance rose by {pct} percent compared with last year, helped by \
            warm weather.
        The album was recorded in just eleven days in a converted church on the outskirts of {city}.
        {person} said the farewell tour would visit the small venues where the band first played.
        The museum will be free to visit on the first {weekday} of every month from {month}.
        Local historians have collected hundreds of photographs documenting how the \
            neighbourhood has changed.
        """
    ),
    "opinion": _lines(
        """
        It is tempting to treat every rise in rents as a natural disaster, but housing markets \
            are shaped by choices.
        I have lived in {city} for most of my adult life, and I have never seen the mood so \
            uncertain.
        Nobody seriously argues that the old system worked well; the question is what should \
            replace it.
        We tend to overestimate what can change in a year and underestimate what can change in \
            a decade.
        The evidence from pilot schemes is encouraging, even if the samples are still small.
        Politicians of every party praise libraries in speeches and then cut their budgets in \
            quiet meetings.
        If we want people to walk, we have to give them pavements that are wide, safe and well lit.
        There is no single fix, and anyone who promises one should be treated with suspicion.
        My own experience is limited, but the parents I spoke to described the same pattern \
            again and again.
        Trust is slow to build and quick to lose, and institutions forget this at their peril.
        The cost of doing nothing is rarely counted, yet it is often the highest cost of all.
        Rural clinics are closing not because they are unwanted but because nobody can staff them.
        A shorter working week sounds radical until you remember that the weekend once sounded \
            radical too.
        None of this means the problem is easy, only that it is not hopeless.
        """
    ),
    "general": _lines(
        """
        "We are doing everything we can to keep people informed," {person} told reporters on \
            {weekday}.
        The figures have not been independently verified.
        A spokesperson for {org} said the organisation would study the details before \
            commenting further.
        Similar measures were introduced in {country} in {year}, with mixed results.
        It is not yet clear how the changes will be funded.
        Further details are expected to be announced later this month.
        Some residents welcomed the decision, while others said it came too late.
        The announcement came after weeks of speculation in local media.
        {person} said the next few months would be decisive.
        Independent experts said the plan was ambitious but achievable if funding was secured.
        A public consultation will run until the end of {month}.
        The report recommends a review of the policy within {count} years.
        Earlier this year, a similar proposal was rejected by a wide margin.
        Officials said more information would be published on the council's website.
        """
    ),
}

_ZH_SENTENCES: dict[str, tuple[str, ...]] = {
    "guonei": _lines(
        """
        {city}市住房和城乡建设局表示，今年将完成{num}个老旧小区的改造任务。
        改造内容包括加装电梯、更新供水管网和完善社区养老设施等。
        据了解，新线路全长约{small}公里，共设车站{count}座，连接城市东西两个主要片区。
        不少市民一大早就来到车站体验，有人专门拍照留念。
        {city}市商务局负责人介绍，此次措施重点支持餐饮、文旅和家居消费。
        今年全国高校毕业生人数预计再创新高，就业形势依然复杂。
        多地人社部门推出线上招聘服务，毕业生足不出户就能投递简历。
        根据规划，{city}将新建和改扩建中小学{count}所，缓解部分片区入学压力。
        社区工作人员挨家挨户发放宣传资料，向居民讲解垃圾分类的具体要求。
        气象部门预计，未来三天{city}仍将出现强降雨，局部地区有大暴雨。
        应急管理部门已提前转移低洼地区群众{num}余人，并储备了充足的防汛物资。
        截至目前，{city}已建成社区养老服务中心{count}家，覆盖大部分街道。
        家住{city}的{person}告诉记者，以前买菜要走二十分钟，现在楼下就有便民市场。
        相关负责人表示，下一步将继续加强督查，确保各项措施落到实处。
        这项工程总投资约{big}元，预计明年年底前全部完工。
        活动现场，志愿者耐心为老年人讲解如何使用手机预约挂号。
        据统计，今年一季度全市城镇新增就业{num}人，同比增长{pct}%。
        不少家长表示，新学校建成后，孩子上学的路程将大大缩短。
        """
    ),
    "keji": _lines(
        """
        {company}在发布会上表示，新一代模型在理解长文本方面有明显提升。
        业内人士认为，人工智能正在从实验室走向千行百业。
        测试区内部署了{count}个智能路口，可以实时采集车辆和行人数据。
        近年来，国产芯片企业在设计和制造环节不断取得突破，但与国际先进水平仍有差距。
        新款手机采用了更轻薄的铰链设计，重量比上一代减轻了约{small}克。
        数据显示，今年前{months}个月，{city}新能源汽车产量同比增长{pct}%。
        新规明确，处理个人信息应当具有明确、合理的目的，并遵循最小必要原则。
        产业园已吸引{num}余家企业入驻，涵盖云计算、大数据和工业软件等领域。
        研究团队负责人{person}表示，这项成果为实现实用化量子计算奠定了基础。
        专家提醒，消费者在使用智能设备时应及时更新系统，防范安全风险。
        {city}市科技局相关负责人介绍，今年将安排{big}元专项资金支持企业研发。
        随着充电基础设施不断完善，新能源汽车在二三线城市的销量明显增长。
        据介绍，该项目从立项到投产仅用了不到两年时间。
        不少企业表示，大模型在客服、写作和编程等场景中已经能够明显提高效率。
        {company}相关负责人透露，公司研发投入已连续三年占营业收入的{pct}%以上。
        该技术目前仍处于试验阶段，距离大规模商用还需要一段时间。
        物流企业借助无人仓和智能分拣系统，把包裹处理速度提高了一倍。
        分析人士指出，核心技术的自主可控将成为未来产业竞争的关键。
        """
    ),
    "guandian": _lines(
        """
        城市的活力，从来不只取决于楼有多高、路有多宽。
        我在{city}生活了十几年，见证了这座城市的许多变化。
        年轻人愿不愿意留下来，归根结底要看这里能否给他们稳定的预期。
        读书不是为了追赶什么，而是为了在喧嚣中给自己留一点安静。
        乡村需要的不只是资金和项目，更需要愿意扎根的人。
        短视频满足了人们碎片化的需求，却很难替代深入的思考。
        一座对行人友好的城市，往往也是一座更有温度的城市。
        教育焦虑的背后，是家长对未来不确定性的担忧。
        与其一味指责，不如坐下来认真听听当事人的想法。
        任何改革都不可能一蹴而就，需要耐心，也需要勇气。
        在我看来，真正的问题不在于技术本身，而在于我们如何使用它。
        很多看似微小的改变，积累起来就会产生意想不到的效果。
        我们常常高估一年能做成的事，却低估十年能带来的变化。
        希望有一天，孩子们的童年能多一些奔跑，少一些补习班。
        """
    ),
    "general": _lines(
        """
        {person}在接受记者采访时说：“我们会继续听取群众的意见和建议。”
        记者从{org}获悉，相关方案目前正在征求意见。
        业内专家表示，这一做法在其他城市已有成功经验。
        据悉，相关细则将于近期公布。
        对此，不少网友表示支持，也有人提出了不同看法。
        下一步，有关部门将加强跟踪评估，及时总结经验。
        这一数字较去年同期有所上升。
        {org}发布的报告显示，相关指标已连续{months}个月保持增长。
        专家建议，应进一步完善配套政策，形成长效机制。
        截至发稿时，相关工作仍在有序推进中。
        此前，{city}已在部分区域开展试点，取得了良好效果。
        业内人士分析，这将为行业发展注入新的动力。
        """
    ),
}

#: (headline, slug stem or "", lead sentence): the lead opens the article so that the text is
#: about what the headline says; the rest of the body comes from the sentence pools
_Headline = tuple[str, str, str]

_EN_TITLES: dict[str, tuple[_Headline, ...]] = {
    "world": (
        ("{city} votes to overhaul public transport after months of debate", "",
         "Councillors in {city} voted on {weekday} to overhaul the city's bus and tram network, "
         "ending months of often bitter debate."),
        ("Floods displace thousands in {country} as rivers keep rising", "",
         "Thousands of people have been forced from their homes in {country} after days of heavy "
         "rain pushed rivers over their banks."),
        ("{country} and its neighbours agree on new border trade rules", "",
         "{country} and its neighbours have agreed on new rules meant to cut the queues of lorries "
         "at their shared borders."),
        ("Election in {country}: what the early results tell us", "",
         "Early results from the election in {country} point to a closer contest than most polls "
         "had predicted."),
        ("{city} mayor {person} unveils plan to cap rents", "",
         "The mayor of {city}, {person}, has unveiled a plan to cap rent increases for the next "
         "three years."),
        ("Talks resume in {city} as ceasefire holds for a second week", "",
         "Negotiators returned to {city} on {weekday} as a fragile ceasefire held for a second "
         "week."),
        ("Heatwave strains power grid across {country}", "",
         "A heatwave has pushed electricity demand across {country} to record levels, forcing "
         "operators to ask factories to cut their use."),
        ("{country} expands visa scheme for skilled workers", "",
         "{country} will expand its visa scheme for skilled workers, adding nurses, electricians "
         "and software developers to the list."),
    ),
    "business": (
        ("{company} shares jump after surprise profit", "",
         "Shares in {company} jumped on {weekday} after the company reported a profit that few "
         "analysts had expected."),
        ("Inflation in {country} eases for the {ordinal} month running", "",
         "Inflation in {country} eased again last month, official figures released on {weekday} "
         "showed."),
        ("{company} to cut {num} jobs as demand slows", "",
         "{company} said it would cut jobs over the next year as orders from its biggest "
         "customers slow."),
        ("Small businesses in {city} struggle with rising energy bills", "",
         "Café owners, bakers and dry cleaners in {city} say rising energy bills are threatening "
         "to put them out of business."),
        ("Central bank in {country} holds rates steady amid mixed signals", "",
         "The central bank of {country} left interest rates unchanged on {weekday}, citing mixed "
         "signals from the economy."),
        ("{company} agrees to buy a rival in {big} deal", "",
         "{company} has agreed to buy a smaller rival, creating one of the largest groups in its "
         "industry."),
        ("Port of {city} reports record container volumes", "",
         "The port of {city} handled more containers last quarter than at any time in its "
         "history."),
        ("Why fewer people in {country} are buying new cars", "",
         "Sales of new cars in {country} have fallen for most of the past two years, and high "
         "prices are only part of the story."),
    ),
    "technology": (
        ("{company} unveils a chip it says halves power use", "",
         "{company} has unveiled a processor that it says uses half the power of its current "
         "models."),
        ("{city} launches city-wide free Wi-Fi pilot", "",
         "{city} has switched on free public Wi-Fi in parks, libraries and along its main "
         "shopping streets as part of a year-long pilot."),
        ("Researchers in {city} warn of flaw in popular smart-home devices", "",
         "Researchers in {city} have found a flaw that could let attackers take control of "
         "several popular smart-home devices."),
        ("How hospitals in {city} are using AI to cut waiting lists", "",
         "Hospitals in {city} are using artificial intelligence to sort referrals, and waiting "
         "lists are starting to shrink."),
        ("Regulators in {country} move to curb data brokers", "",
         "Regulators in {country} have proposed rules that would sharply limit what data brokers "
         "can collect and sell."),
        ("{company} delays launch of its first electric truck", "",
         "{company} has pushed back the launch of its first electric truck, citing problems with "
         "its battery supplier."),
        ("Inside the race to build cheaper batteries in {country}", "",
         "In laboratories and factories across {country}, engineers are racing to make batteries "
         "that cost less and last longer."),
        ("{company} opens its software to outside developers", "",
         "{company} will let outside developers build on its software for the first time, "
         "reversing a long-standing policy."),
    ),
    "science": (
        ("Scientists map an ancient riverbed beneath {city}", "",
         "Scientists have mapped the course of an ancient river that once flowed beneath what is "
         "now the centre of {city}."),
        ("Study of {num} adults links sleep and memory", "",
         "A large study of adults has found that people who sleep poorly for years are more "
         "likely to report problems with memory."),
        ("Coral reefs off {country} show signs of recovery", "",
         "Coral reefs off the coast of {country} are showing signs of recovery after years of "
         "damage from warm water."),
        ("Astronomers in {country} spot unusual signal from nearby star", "",
         "Astronomers in {country} have detected an unusual radio signal coming from a star a few "
         "dozen light years away."),
        ("Vaccine trial in {country} reports strong early results", "",
         "A vaccine being tested in {country} has produced strong early results, according to "
         "the researchers running the trial."),
        ("Drought-resistant wheat tested on farms near {city}", "",
         "A new variety of wheat bred to survive long dry spells is being tested on farms near "
         "{city}."),
        ("Why the Arctic is warming faster than {person} expected", "",
         "The Arctic is warming several times faster than the rest of the planet, and even "
         "researchers who study it, such as {person}, have been surprised."),
        ("Rare bird returns to wetlands outside {city}", "",
         "A rare wading bird has returned to breed in the wetlands outside {city} for the first "
         "time in decades."),
    ),
    "culture": (
        ("{city} film festival opens with a debut from {person}", "",
         "The {city} film festival opened on {weekday} night with the first feature by the "
         "director {person}."),
        ("Museum in {city} agrees to return looted artefacts", "",
         "A museum in {city} has agreed to hand back dozens of objects that were taken from "
         "their countries of origin more than a century ago."),
        ("Review: {person} writes a quiet, brilliant novel about leaving home", "",
         "The new novel by {person} is a quiet, patient book about leaving home and the people "
         "who stay behind."),
        ("{city} marathon draws record field of runners", "",
         "A record number of runners took part in the {city} marathon on Sunday, cheered on by "
         "crowds along the route."),
        ("The bookshops keeping the old quarter of {city} alive", "",
         "In the narrow streets of the old quarter of {city}, a handful of independent bookshops "
         "are doing better than anyone expected."),
        ("Jazz singer {person} announces farewell tour", "",
         "The jazz singer {person} has announced a farewell tour, saying it is time to step away "
         "from the stage."),
        ("{city} wins its first football title in {count} years", "",
         "Fans in {city} celebrated late into the night after the local club won the league for "
         "the first time in a generation."),
        ("Street food vendors in {city} win fight over licences", "",
         "Street food vendors in {city} have won their long campaign for permanent trading "
         "licences."),
    ),
    "opinion": (
        ("We need to talk honestly about housing in {city}", "",
         "Every few months someone announces a plan to fix housing in {city}, and every few "
         "months rents rise again."),
        ("The four-day week is not a luxury, says {person}", "",
         "{person} has spent a decade studying working hours, and the conclusion is simple: a "
         "four-day week is not a luxury."),
        ("Why I stopped worrying about screen time", "",
         "For years I counted the minutes my children spent in front of screens, and then I "
         "stopped."),
        ("Our cities should be built for walking, not parking", "",
         "Walk through almost any city centre and count how much of the space is given over to "
         "parked cars."),
        ("Letter from {city}: the year everything changed", "",
         "A year ago I would not have believed how much {city} could change in twelve months."),
        ("Public libraries in {country} deserve more than praise", "",
         "Everyone in {country} claims to love public libraries, yet fewer of them open their "
         "doors each year."),
        ("The quiet crisis in rural healthcare", "",
         "In many rural areas the nearest doctor is now an hour's drive away, and almost nobody "
         "is talking about it."),
        ("What the last decade in {country} taught us about trust", "",
         "Ten years ago most people in {country} said they trusted their institutions; today "
         "only a minority do."),
    ),
}  # fmt: skip

#: Chinese headlines carry a pinyin slug stem, as Chinese CMSs emit pinyin-ish URLs
_ZH_TITLES: dict[str, tuple[_Headline, ...]] = {
    "guonei": (
        ("{city}启动老旧小区改造工程", "laojiu-xiaoqu-gaizao",
         "近日，{city}正式启动今年的老旧小区改造工程，一批建成年代较早的小区将迎来“焕新”。"),
        ("{city}地铁新线路正式开通运营", "ditie-xinxianlu-kaitong",
         "{city}地铁新线路于本周正式开通运营，沿线居民出行将更加便捷。"),
        ("{city}发布促进消费十条措施", "cujin-xiaofei-cuoshi",
         "为进一步激发消费活力，{city}日前发布促进消费的十条措施。"),
        ("多地出台政策支持高校毕业生就业", "biyesheng-jiuye",
         "随着毕业季临近，多地陆续出台政策措施，支持高校毕业生就业创业。"),
        ("{city}今年将新增中小学学位{num}个", "xinzeng-xuewei",
         "记者从{city}市教育局获悉，今年全市将新增一批中小学学位，进一步缓解入学压力。"),
        ("{city}持续开展垃圾分类专项行动", "laji-fenlei",
         "{city}近期持续开展垃圾分类专项行动，推动居民养成分类投放的好习惯。"),
        ("暴雨天气持续 {city}启动防汛应急响应", "fangxun-yingji",
         "受持续强降雨影响，{city}于昨日启动防汛应急响应。"),
        ("{city}推进养老服务体系建设", "yanglao-fuwu",
         "{city}正加快推进养老服务体系建设，让老年人在家门口就能享受便利服务。"),
    ),
    "keji": (
        ("{company}发布新一代人工智能大模型", "rengong-zhineng-damoxing",
         "{company}日前发布新一代人工智能大模型，并宣布将向开发者开放接口。"),
        ("{city}建成首个智能网联汽车测试区", "zhineng-wanglian-qiche",
         "{city}首个智能网联汽车测试区近日建成，并开始接受企业测试申请。"),
        ("国产芯片企业加快关键技术攻关", "guochan-xinpian",
         "在市场需求和政策支持的双重推动下，国产芯片企业正加快关键技术攻关。"),
        ("{company}推出新款折叠屏手机", "zhediepin-shouji",
         "{company}日前推出新款折叠屏手机，主打轻薄和长续航。"),
        ("{city}新能源汽车产量同比增长{pct}%", "xinnengyuan-qiche",
         "今年以来，{city}新能源汽车产业保持快速增长势头。"),
        ("数据安全新规将于下月起施行", "shuju-anquan-xingui",
         "一项关于数据安全的新规将于下月起正式施行，对企业处理个人信息提出了更高要求。"),
        ("{city}打造数字经济产业园", "shuzi-jingji",
         "{city}正在规划建设一座数字经济产业园，吸引相关企业集聚发展。"),
        ("科研团队在量子计算领域取得新进展", "liangzi-jisuan",
         "一支国内科研团队近日在量子计算领域取得新进展，相关成果已在国际期刊发表。"),
    ),
    "guandian": (
        ("城市更新不能只看高楼", "chengshi-gengxin",
         "这些年，许多城市都在谈城市更新，但更新的目的究竟是什么，值得认真想一想。"),
        ("如何让年轻人愿意留在{city}", "nianqingren-liuxia",
         "每到毕业季，总有不少年轻人在“留下”还是“离开”{city}之间犹豫。"),
        ("阅读的意义在于慢下来", "yuedu-de-yiyi",
         "在一个什么都追求快的时代，读一本书似乎成了一件奢侈的事。"),
        ("乡村振兴需要更多人才回流", "xiangcun-zhenxing",
         "走进不少村庄，最明显的感受是年轻人少了。"),
        ("短视频时代，我们还需要长文章吗", "duanshipin-changwenzhang",
         "刷短视频已经成为很多人打发时间的主要方式。"),
        ("给城市留一点慢行空间", "manxing-kongjian",
         "在不少城市，走路和骑车的人常常要给汽车让路。"),
        ("教育焦虑从何而来", "jiaoyu-jiaolv",
         "从幼儿园到高中，家长的焦虑似乎从未停止。"),
    ),
}  # fmt: skip

_EN_SUBHEADS = _lines(
    """
    What happens next
    A long road
    The numbers behind it
    Why it matters
    Reaction
    Background
    Looking ahead
    On the ground
    """
)
_ZH_SUBHEADS = _lines(
    """
    背景
    专家观点
    下一步
    现场直击
    数据解读
    市民声音
    """
)

_EN_COMMENTS = _lines(
    """
    This is the clearest explanation of the issue I have read so far.
    I live in the area and can confirm things have been chaotic for weeks.
    Interesting piece, but it leaves out the cost to ordinary taxpayers.
    Does anyone know whether the consultation is open to non-residents?
    Great reporting, thank you for actually talking to the people affected.
    I'm not convinced. We heard the same promises five years ago.
    My parents went through exactly this, and nobody helped them.
    Finally some good news for a change!
    The headline is a bit misleading if you read the whole article.
    Would love a follow-up on how this turns out.
    Shared this with my book club, we had a long discussion about it.
    The numbers in the third paragraph don't add up for me.
    As a teacher I see the effects of this every single day.
    Well written and balanced. More of this please.
    Who is going to pay for all of this in the end?
    I was at the event and the atmosphere was incredible.
    Can you publish the full report? I'd like to read it myself.
    This has been a long time coming.
    People keep forgetting how much worse it was ten years ago.
    Small correction: the new line opened on Tuesday, not Monday.
    I disagree with almost everything here, but it is a fair argument.
    The photos don't do it justice, you have to see it in person.
    Thank you for covering this, the national papers ignored it.
    Same thing is happening in my town and nobody talks about it.
    I'd be curious to hear what the scientists themselves think of the coverage.
    Subscribed just so I could say: excellent article.
    """
)
_ZH_COMMENTS = _lines(
    """
    写得很好，希望能多报道这方面的内容。
    我家就住在附近，确实方便了很多。
    政策是好政策，关键还是要落实到位。
    请问具体什么时候开始实施？
    支持！早就应该这样做了。
    希望不要只是一阵风，要长期坚持下去。
    文章说得有道理，但现实情况要复杂得多。
    转发给家里人看看。
    我们小区去年就改造了，效果还不错。
    数据来源能不能再详细一点？
    作为一名老师，我深有同感。
    年轻人压力确实太大了。
    点赞，期待后续报道。
    这个问题讨论了很多年，终于有进展了。
    希望其他城市也能借鉴一下。
    价格能不能再降一点？
    看完很受启发，谢谢作者。
    现场去看过，人非常多。
    有没有人知道怎么报名？
    说得太好了，句句说到心坎里。
    """
)
_EN_COMMENTERS = (
    "mark_t", "Priya K.", "oldtownreader", "J. Alvarez", "greenfields", "Tom from Leeds",
    "harbourwatcher", "Nina", "ex_engineer", "Dave W.", "quietobserver", "Maya L.",
)  # fmt: skip
_ZH_COMMENTERS = (
    "网友小王", "杭州老李", "热心市民", "一只猫", "阳光少年", "老陈说事", "匿名用户", "星星点灯",
    "路人甲", "白开水",
)  # fmt: skip

_EN_CAPTIONS = (
    "Commuters in {city} during the morning rush.",
    "A view over the centre of {city}.",
    "{person} speaking to reporters earlier this year.",
    "Volunteers at work near {city}.",
    "The site as it looked last {month}.",
)
_ZH_CAPTIONS = (
    "{city}街头的市民（资料图）",
    "图为{city}城市一景。",
    "{person}接受记者采访。",
    "活动现场。",
)

_EN_PLACES = (
    ("Lisbon", "Portugal"), ("Nairobi", "Kenya"), ("Osaka", "Japan"), ("Toronto", "Canada"),
    ("Melbourne", "Australia"), ("Valparaíso", "Chile"), ("Rotterdam", "the Netherlands"),
    ("Krakow", "Poland"), ("Accra", "Ghana"), ("Hanoi", "Vietnam"), ("Seville", "Spain"),
    ("Glasgow", "Scotland"), ("Montreal", "Canada"), ("Auckland", "New Zealand"),
    ("Bergen", "Norway"), ("Porto Alegre", "Brazil"),
)  # fmt: skip
_EN_FIRST = (
    "Anna", "Marco", "Yusuf", "Elena", "Kofi", "Ingrid", "Rafael", "Mei", "Oliver", "Fatima",
    "Jonas", "Lucia", "Samuel", "Nadia", "Hiroshi", "Clara",
)  # fmt: skip
_EN_LAST = (
    "Kowalski", "Haddad", "Brennan", "Mwangi", "Sato", "Lindgren", "Moreau", "Costa", "Varga",
    "Nair", "Okonkwo", "Becker", "Alvarez", "Duarte",
)  # fmt: skip
_EN_ORGS = (
    "the Northbridge Institute", "the Harbor Policy Center", "Meridian Analytics",
    "the National Statistics Office", "the Coastal Research Trust", "the Lowland University",
)  # fmt: skip
_EN_COMPANIES = (
    "Kestrel Energy", "Blue Heron Foods", "Altamira Systems", "Norvik Shipping", "Quillon Pharma",
    "Tessaract Labs", "Brightwater Motors",
)  # fmt: skip
_ZH_PLACES = (
    ("杭州", "hangzhou"), ("成都", "chengdu"), ("武汉", "wuhan"), ("西安", "xian"),
    ("苏州", "suzhou"), ("青岛", "qingdao"), ("长沙", "changsha"), ("厦门", "xiamen"),
    ("昆明", "kunming"), ("合肥", "hefei"), ("南京", "nanjing"), ("重庆", "chongqing"),
)  # fmt: skip
_ZH_SURNAMES = "王李张刘陈杨黄赵周吴徐孙马胡"
_ZH_GIVEN = (
    "建国", "晓燕", "志强", "丽华", "海涛", "雪梅", "俊杰", "文静", "国庆", "思远", "佳怡", "明辉",
)  # fmt: skip
_ZH_ORGS = ("市发展改革委", "华东经济研究院", "省统计局", "中科智能研究所", "市消费者协会")
_ZH_COMPANIES = ("星河科技", "远航物流", "绿源新能源", "华信数据", "云帆智能")
_EN_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
_EN_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_ORDINALS = ("second", "third", "fourth", "fifth", "sixth")

#: (display name, slug, short bio); bios appear in blog-layout author boxes, which are noise
_EN_AUTHORS = (
    ("Helen Marsh", "helen-marsh", "covers cities, housing and local government"),
    ("Daniel Okafor", "daniel-okafor", "reports on markets, trade and the economy"),
    ("Priya Raman", "priya-raman", "writes about technology, privacy and software"),
    ("Tomás Ferreira", "tomas-ferreira", "is our science correspondent and a former ecologist"),
    ("Sarah Lindqvist", "sarah-lindqvist", "covers arts, books and film"),
    ("James Whitfield", "james-whitfield", "is a foreign correspondent based in Europe"),
    ("Amara Mensah", "amara-mensah", "writes about health, education and work"),
    ("Grace O'Neill", "grace-oneill", "is a columnist and former editor of the weekend magazine"),
)  # fmt: skip
_ZH_AUTHORS = (
    ("张伟", "zhangwei", "本报记者，长期关注城市建设与民生话题"),
    ("王芳", "wangfang", "本报科技记者，关注人工智能与新能源产业"),
    ("李娜", "lina", "专栏作者，关注教育与阅读"),
    ("刘洋", "liuyang", "本报记者，负责社会新闻报道"),
    ("陈静", "chenjing", "本报评论员"),
)  # fmt: skip
_ZH_EDITORS = ("赵磊", "黄敏", "周杰", "吴婷")


@dataclass(frozen=True, slots=True)
class _Section:
    slug: str
    name: str
    lang: str
    layout: str
    #: one-line description shown under the heading of the section page
    blurb: str

    @property
    def path(self) -> str:
        return f"/section/{self.slug}/" if self.lang == "en" else f"/zh/section/{self.slug}/"


_SECTIONS = (
    _Section("world", "World", "en", "classic", "News and analysis from around the world."),
    _Section("business", "Business", "en", "classic", "Markets, companies and the economy."),
    _Section("technology", "Technology", "en", "magazine", "Gadgets, software and the internet."),
    _Section("science", "Science", "en", "magazine", "Research, health and the environment."),
    _Section("culture", "Culture", "en", "magazine", "Film, books, music, art and sport."),
    _Section("opinion", "Opinion", "en", "blog", "Columns and comment from our writers."),
    _Section("guonei", "国内", "zh", "classic", "国内要闻、民生热点。"),
    _Section("keji", "科技", "zh", "magazine", "科技前沿、产业动态。"),
    _Section("guandian", "观点", "zh", "blog", "评论与专栏。"),
)

#: tags per section as (slug, display name); tags with the same slug are shared across sections
_TAGS: dict[str, tuple[tuple[str, str], ...]] = {
    "world": (("elections", "Elections"), ("diplomacy", "Diplomacy"), ("climate", "Climate"),
              ("migration", "Migration"), ("transport", "Transport")),
    "business": (("economy", "Economy"), ("markets", "Markets"), ("jobs", "Jobs"),
                 ("energy", "Energy"), ("trade", "Trade")),
    "technology": (("ai", "AI"), ("cybersecurity", "Cybersecurity"), ("gadgets", "Gadgets"),
                   ("startups", "Startups"), ("privacy", "Privacy"), ("energy", "Energy")),
    "science": (("health", "Health"), ("space", "Space"), ("environment", "Environment"),
                ("research", "Research"), ("climate", "Climate")),
    "culture": (("film", "Film"), ("books", "Books"), ("music", "Music"), ("sport", "Sport"),
                ("museums", "Museums")),
    "opinion": (("housing", "Housing"), ("cities", "Cities"), ("education", "Education"),
                ("work", "Work"), ("health", "Health")),
    "guonei": (("minsheng", "民生"), ("jiaoyu", "教育"), ("jiaotong", "交通"), ("jiuye", "就业"),
               ("chengshi", "城市")),
    "keji": (("rengongzhineng", "人工智能"), ("xinnengyuan", "新能源"), ("xinpian", "芯片"),
             ("shujuanquan", "数据安全"), ("chengshi", "城市")),
    "guandian": (("chengshi", "城市"), ("jiaoyu", "教育"), ("yuedu", "阅读"), ("xiangcun", "乡村")),
}  # fmt: skip

_LABELS: dict[str, dict[str, str]] = {
    "en": {
        "home": "Home", "tagline": "Independent news since 1998", "skip": "Skip to content",
        "search": "Search", "search_placeholder": "Search Demo Daily", "login": "Sign in",
        "subscribe_btn": "Subscribe", "edition": "中文版", "edition_href": "/zh/",
        "breaking": "Breaking", "related": "Related articles", "you_may_like": "You may also like",
        "more_from": "More from {name}", "comments": "{n} Comments",
        "no_comments": "No comments yet. Be the first to share your thoughts.",
        "says": "says:", "reply": "Reply", "leave_comment": "Leave a comment",
        "comment_notes": "Your email address will not be published. Required fields are marked *",
        "comment": "Comment", "name": "Name *", "email": "Email *", "post_comment": "Post comment",
        "share": "Share this article", "tags": "Tags:", "topics": "Topics", "filed": "Filed under",
        "most_read": "Most read", "tag_cloud": "Popular topics", "archives": "Archives",
        "newsletter_title": "The Morning Briefing",
        "newsletter_text": "Sign up for our free newsletter and get the day's top stories "
        "delivered to your inbox every morning at 7am.",
        "email_placeholder": "Your email address",
        "newsletter_fine": "You can unsubscribe at any time. See our privacy policy.",
        "advertisement": "Advertisement", "sponsored": "Sponsored",
        "newer": "« Newer stories", "older": "Older stories »", "page_n": "Page {n}",
        "read_more": "Read more", "by": "By", "words_by": "Words by", "posted_on": "Posted on",
        "posted_by": "by", "in": "in", "min_read": "{n} min read", "read_also": "Read also:",
        "about_author": "About the author", "prev_post": "← Previous post",
        "next_post": "Next post →", "photo": "Photo:", "latest": "Latest news",
        "top_stories": "Top stories", "more_section": "More {name} »",
        "tag_title": "Tag: {name}", "tag_desc": "All stories tagged “{name}”.",
        "archive_title": "Archive: {month}", "author_title": "Articles by {name}",
        "cookie": "We use cookies and similar technologies to personalise content and ads, to "
        "provide social media features and to analyse our traffic. By continuing to browse this "
        "site you agree to our use of cookies.",
        "accept": "Accept", "manage": "Manage preferences", "privacy": "Privacy policy",
        "about": "About us", "sitemap": "Sitemap", "contact": "Contact", "rss": "RSS",
        "follow": "Follow us", "sections": "Sections", "about_blurb": "Demo Daily is an "
        "independent news organisation funded by its readers. Our journalism is free of "
        "political and commercial influence.",
        "copyright": "© 2024 Demo Daily Media Ltd. All rights reserved. Reproduction in whole "
        "or in part without written permission is prohibited.",
        "powered": "Registered in England and Wales No. 01234567. Powered by NewsPress.",
        "trending": "Trending now", "editor": "", "source": "",
    },
    "zh": {
        "home": "首页", "tagline": "有温度的新闻", "skip": "跳到正文", "search": "搜索",
        "search_placeholder": "搜索新闻", "login": "登录", "subscribe_btn": "订阅",
        "edition": "English", "edition_href": "/", "breaking": "快讯", "related": "相关阅读",
        "you_may_like": "猜你喜欢", "more_from": "更多{name}新闻", "comments": "网友评论（{n}）",
        "no_comments": "暂无评论，快来抢沙发吧。", "says": "说：", "reply": "回复",
        "leave_comment": "发表评论", "comment_notes": "文明上网，理性发言。", "comment": "评论内容",
        "name": "昵称", "email": "邮箱", "post_comment": "发表", "share": "分享到：",
        "tags": "标签：", "topics": "话题", "filed": "分类", "most_read": "热门排行",
        "tag_cloud": "热门标签", "archives": "文章归档", "newsletter_title": "每日早报",
        "newsletter_text": "订阅我们的每日早报，每天早上七点把最重要的新闻送到您的邮箱。",
        "email_placeholder": "请输入邮箱地址", "newsletter_fine": "您可以随时取消订阅。",
        "advertisement": "广告", "sponsored": "推广", "newer": "« 上一页", "older": "下一页 »",
        "page_n": "第{n}页", "read_more": "阅读全文", "by": "作者：", "words_by": "作者：",
        "posted_on": "发布于", "posted_by": "作者：", "in": "栏目：", "min_read": "阅读约{n}分钟",
        "read_also": "延伸阅读：", "about_author": "关于作者", "prev_post": "← 上一篇",
        "next_post": "下一篇 →", "photo": "摄影：", "latest": "最新新闻", "top_stories": "要闻",
        "more_section": "更多{name} »", "tag_title": "标签：{name}",
        "tag_desc": "所有标记为“{name}”的文章。", "archive_title": "归档：{month}",
        "author_title": "{name}的文章",
        "cookie": "本网站使用Cookie以改善您的浏览体验。继续浏览即表示您同意我们使用Cookie。",
        "accept": "同意", "manage": "设置", "privacy": "隐私政策", "about": "关于我们",
        "sitemap": "网站地图", "contact": "联系我们", "rss": "RSS订阅", "follow": "关注我们",
        "sections": "栏目", "about_blurb": "Demo Daily中文版，提供国内要闻、科技动态与评论。",
        "copyright": "© 2024 Demo Daily 版权所有 未经书面授权禁止转载",
        "powered": "京ICP备00000000号-1 京公网安备00000000000000号",
        "trending": "24小时热榜", "editor": "责任编辑：", "source": "来源：",
    },
}  # fmt: skip

_EN_ADS = (
    "Save 30% on your first year of Demo Daily Premium. Unlimited articles. Subscribe today.",
    "Spring getaways to the coast from just $99 per night. Book direct with SeaView Hotels.",
    "Upgrade your home office with ergonomic chairs from ComfortWorks. Free delivery this week.",
    "Switch to GreenSpark Energy and get your first month free. Terms apply.",
)  # fmt: skip
_ZH_ADS = (
    "【推广】春季家装节，全场满3000减300，点击了解详情。",
    "【广告】新用户注册即送100元优惠券，限时领取。",
    "【推广】名师在线辅导，首节课免费试听。",
)

_ABOUT_EN = _lines(
    """
    Demo Daily was founded in 1998 by a group of reporters who believed that a city deserves a \
        newspaper that answers to its readers rather than to advertisers.
    Today our newsroom of around sixty journalists publishes news, analysis and opinion in \
        English and Chinese, seven days a week.
    We are funded mainly by reader subscriptions and donations. Advertising helps, but \
        advertisers have no say over what we cover or how we cover it.
    Our editorial code commits us to accuracy, fairness and the correction of errors as \
        quickly as possible. To report an error, write to corrections@demo-daily.example.
    If you have a story you think we should investigate, our secure tip line is open around \
        the clock.
    """
)
_PRIVACY_EN = _lines(
    """
    This privacy policy explains what personal data Demo Daily Media Ltd collects when you use \
        our website, newsletters and apps, and how we use it.
    We collect information you give us directly, such as your email address when you sign up \
        for a newsletter, and information collected automatically, such as cookies and device \
        identifiers.
    We use this information to deliver the services you ask for, to measure how our journalism \
        is read and to show advertising that helps fund our newsroom.
    You can ask us at any time for a copy of the data we hold about you, or ask us to delete \
        it, by writing to our data protection officer.
    We keep personal data only for as long as we need it for the purposes described in this \
        policy, or as required by law.
    """
)


# --------------------------------------------------------------------------------------------
# Manifest
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PageRecord:
    """Ground truth for one HTML page; key names follow the shared sites' ``pages.jsonl``."""

    #: URL path, percent-decoded (compare with ``unquote(urlsplit(url).path)``)
    path: str
    #: file under the site root
    file: str
    #: ``article`` or ``noise``
    kind: str
    #: ``index|list|tag|archive|other`` for noise pages, None for articles
    noise_type: str | None
    #: finer page kind: article, home, section, author, tag, archive, search, about, ...
    subtype: str
    #: ``classic``, ``magazine`` or ``blog``: which template produced the page
    layout: str
    #: ISO 639-1 code of the page
    lang: str
    #: article headline (articles only)
    title: str | None = None
    #: publication date ``YYYY-MM-DD`` in the site's local time (articles only)
    date: str | None = None
    author: str | None = None
    #: exact main text, paragraphs and subheadings joined by "\n" (articles only)
    text: str | None = None
    #: anything a scorer should know, e.g. that an article is linked only from tag pages
    note: str | None = None


@dataclass(slots=True)
class Manifest:
    """Every HTML page of one generated site, with its label and, for articles, the truth."""

    seed: int
    site: str
    pages: list[PageRecord] = field(default_factory=list)

    @property
    def articles(self) -> list[PageRecord]:
        return [page for page in self.pages if page.kind == "article"]

    @property
    def noise(self) -> list[PageRecord]:
        return [page for page in self.pages if page.kind == "noise"]

    def by_path(self) -> dict[str, PageRecord]:
        return {page.path: page for page in self.pages}

    def to_json(self) -> str:
        """Stable text: the determinism promise covers the manifest too."""
        payload = {"site": self.site, "seed": self.seed, "pages": [asdict(p) for p in self.pages]}
        return json.dumps(payload, ensure_ascii=False, indent=1) + "\n"

    @classmethod
    def load(cls, path: str | Path) -> Manifest:
        """Read a ``manifest.json`` (or the directory holding one)."""
        path = Path(path)
        if path.is_dir():
            path = path / MANIFEST_NAME
        payload = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            seed=int(payload["seed"]),
            site=str(payload["site"]),
            pages=[PageRecord(**row) for row in payload["pages"]],
        )


# --------------------------------------------------------------------------------------------
# Site model
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Author:
    name: str
    slug: str
    bio: str
    lang: str

    @property
    def path(self) -> str:
        return f"/author/{self.slug}/" if self.lang == "en" else f"/zh/author/{self.slug}/"


@dataclass(frozen=True, slots=True)
class _Tag:
    slug: str
    name: str
    lang: str

    @property
    def path(self) -> str:
        return f"/tag/{self.slug}/" if self.lang == "en" else f"/zh/tag/{self.slug}/"


@dataclass(slots=True)
class _Block:
    """One block of article text: ``tag`` is p or h2, ``text`` its plain text (the truth)."""

    tag: str
    text: str
    inner_html: str


@dataclass(slots=True)
class _Comment:
    name: str
    when: datetime
    text: str


@dataclass(slots=True)
class _Article:
    idx: int
    lang: str
    section: _Section
    title: str
    slug: str
    published: datetime
    author: _Author
    tags: list[_Tag]
    blocks: list[_Block]
    #: False for the few articles reachable only through tag pages
    listed: bool
    has_jsonld: bool
    comments: list[_Comment]
    ad_after: int | None
    aside_after: int | None
    caption: str | None
    editor: str
    related: list[_Article] = field(default_factory=list)
    prev: _Article | None = None
    next: _Article | None = None

    @property
    def path(self) -> str:
        return f"/{self.published:%Y/%m/%d}/{self.slug}.html"

    @property
    def layout(self) -> str:
        return self.section.layout

    @property
    def text(self) -> str:
        return "\n".join(block.text for block in self.blocks)

    @property
    def excerpt(self) -> str:
        """List pages show a cut lead, as WordPress-style excerpts do."""
        first = next(b.text for b in self.blocks if b.tag == "p")
        if self.lang == "zh":
            return first if len(first) <= 60 else first[:60] + "……"
        words = first.split()
        return first if len(words) <= 28 else " ".join(words[:28]) + " […]"


@dataclass(slots=True)
class _Site:
    articles: list[_Article]
    tags: dict[str, list[_Tag]]
    authors: dict[str, list[_Author]]
    most_read: dict[str, list[_Article]]
    snapshot: datetime

    def listed(self, lang: str) -> list[_Article]:
        """Newest first, as every list page shows them."""
        return sorted(
            (a for a in self.articles if a.lang == lang and a.listed),
            key=lambda a: a.published,
            reverse=True,
        )

    def in_section(self, section: _Section) -> list[_Article]:
        return [a for a in self.listed(section.lang) if a.section == section]

    def sections(self, lang: str) -> list[_Section]:
        return [s for s in _SECTIONS if s.lang == lang]

    def months(self, lang: str) -> list[tuple[int, int]]:
        return sorted({(a.published.year, a.published.month) for a in self.listed(lang)})


# --------------------------------------------------------------------------------------------
# Composition
# --------------------------------------------------------------------------------------------


def _numbers(rng: random.Random, lang: str) -> dict[str, str]:
    """Per-sentence numbers: the same sentence then differs between articles."""
    if lang == "zh":
        big = f"{rng.randint(12, 95) / 10:.1f}亿"
    else:
        unit = rng.choice(("million", "billion"))
        big = f"{rng.choice(('$', '€', '£'))}{rng.randint(12, 980) / 10:.1f} {unit}"
    return {
        "num": str(rng.randint(12, 950)),
        "count": str(rng.randint(3, 40)),
        "pct": f"{rng.randint(12, 385) / 10:.1f}",
        "big": big,
        "year": str(rng.randint(2015, 2023)),
        "month": rng.choice(_EN_MONTHS),
        "weekday": rng.choice(_EN_WEEKDAYS),
        "small": str(rng.randint(6, 48)),
        "months": str(rng.randint(2, 5)),
        "ordinal": rng.choice(_ORDINALS),
    }


def _article_context(rng: random.Random, lang: str) -> dict[str, str]:
    if lang == "zh":
        city, pinyin = rng.choice(_ZH_PLACES)
        person = rng.choice(_ZH_SURNAMES) + rng.choice(_ZH_GIVEN)
        return {
            "city": city,
            "city_pinyin": pinyin,
            "person": person,
            "org": rng.choice(_ZH_ORGS),
            "company": rng.choice(_ZH_COMPANIES),
            "country": "中国",
        }
    city, country = rng.choice(_EN_PLACES)
    return {
        "city": city,
        "country": country,
        "person": f"{rng.choice(_EN_FIRST)} {rng.choice(_EN_LAST)}",
        "org": rng.choice(_EN_ORGS),
        "company": rng.choice(_EN_COMPANIES),
    }


def _fill(template: str, rng: random.Random, ctx: dict[str, str], lang: str) -> str:
    text = template.format_map(ctx | _numbers(rng, lang))
    # a sentence may open with a slot whose value starts lower case ("the Northbridge ...")
    return text[0].upper() + text[1:] if text[:1].islower() else text


def _draw_sentences(
    rng: random.Random, pools: dict[str, tuple[str, ...]], topic: str, count: int
) -> list[str]:
    """Mostly the article's topic, some general reporting lines, never a sentence twice."""
    own = list(pools[topic])
    general = list(pools["general"])
    rng.shuffle(own)
    rng.shuffle(general)
    others = [s for name, pool in pools.items() if name not in (topic, "general") for s in pool]
    rng.shuffle(others)
    chosen: list[str] = []
    while len(chosen) < count:
        if own and (not general or rng.random() < 0.72):
            chosen.append(own.pop())
        elif general:
            chosen.append(general.pop())
        else:
            chosen.append(others.pop())
    return chosen


def _paragraph_html(text: str, ctx: dict[str, str], link: _Tag | None) -> str:
    """Escape, and sometimes turn the article's place name into an auto-link, as tag plugins do."""
    escaped = html.escape(text, quote=False)
    if link is None:
        return escaped
    needle = html.escape(ctx["city"], quote=False)
    if needle not in escaped:
        return escaped
    anchor = f'<a href="{_href(link.path)}" class="auto-link">{needle}</a>'
    return escaped.replace(needle, anchor, 1)


def _compose_blocks(
    rng: random.Random,
    lang: str,
    topic: str,
    ctx: dict[str, str],
    tags: list[_Tag],
    lead: str,
) -> list[_Block]:
    pools = _ZH_SENTENCES if lang == "zh" else _EN_SENTENCES
    n_paragraphs = rng.randint(4, 12)
    sizes = [rng.choice((1, 2, 2, 2, 3, 3)) for _ in range(n_paragraphs)]
    sizes[0] = max(sizes[0], 2)
    # the headline's own lead opens the article; pool sentences follow it
    drawn = _draw_sentences(rng, pools, topic, sum(sizes) - 1)
    sentences = [lead, *(_fill(sentence, rng, ctx, lang) for sentence in drawn)]
    joiner = "" if lang == "zh" else " "
    blocks: list[_Block] = []
    cursor = 0
    for size in sizes:
        text = joiner.join(sentences[cursor : cursor + size])
        cursor += size
        link = tags[0] if rng.random() < 0.25 else None
        blocks.append(_Block("p", text, _paragraph_html(text, ctx, link)))
    if n_paragraphs >= 7:
        subheads = list(_ZH_SUBHEADS if lang == "zh" else _EN_SUBHEADS)
        rng.shuffle(subheads)
        first = rng.randint(2, n_paragraphs - 4)
        positions = (
            [first] if rng.random() < 0.5 else [first, rng.randint(first + 2, n_paragraphs - 2)]
        )
        positions.reverse()
        for position, head in zip(positions, subheads, strict=False):
            blocks.insert(position, _Block("h2", head, html.escape(head, quote=False)))
    return blocks


def _after_paragraph(blocks: list[_Block], index: int) -> int:
    """Inserts go after a paragraph, never between a subheading and its paragraph."""
    while blocks[index].tag != "p":
        index += 1
    return index


def _slugify(text: str, max_words: int = 10) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[a-z0-9]+", ascii_text.lower().replace("'", ""))
    return "-".join(words[:max_words])


def _zh_slug(idx: int, title: str, template: str, stem: str, pinyin: str) -> str:
    """Pinyin stems mostly; every fourth uses the Chinese title, as Hexo-style blogs do."""
    if idx % 4 == 3 and "%" not in title and "/" not in title:
        return title.replace(" ", "-")
    return f"{pinyin}-{stem}" if "{city}" in template else stem


def _next_headline(
    rng: random.Random, decks: dict[str, list[_Headline]], section: _Section
) -> _Headline:
    """Deal headlines like cards, so a section repeats a headline only after using them all."""
    deck = decks.setdefault(section.slug, [])
    if not deck:
        pool = _ZH_TITLES if section.lang == "zh" else _EN_TITLES
        deck.extend(pool[section.slug])
        rng.shuffle(deck)
    return deck.pop()


def _comments(
    rng: random.Random, lang: str, layout: str, published: datetime, snapshot: datetime
) -> list[_Comment]:
    high = {"classic": 5, "magazine": 4, "blog": 6}[layout]
    count = rng.randint(2 if layout == "blog" else 0, high)
    pool = _ZH_COMMENTS if lang == "zh" else _EN_COMMENTS
    names = _ZH_COMMENTERS if lang == "zh" else _EN_COMMENTERS
    comments = []
    when = published
    for _ in range(count):
        when = when + timedelta(minutes=rng.randint(20, 900))
        if when > snapshot:
            break
        sentences = rng.sample(pool, rng.choice((1, 1, 2)))
        text = ("" if lang == "zh" else " ").join(sentences)
        comments.append(_Comment(rng.choice(names), when, text))
    return comments


def _build_site(rng: random.Random) -> _Site:
    """All random choices happen here, in one fixed order, so rendering is pure."""
    tags: dict[str, list[_Tag]] = {"en": [], "zh": []}
    tag_by_key: dict[tuple[str, str], _Tag] = {}
    for section in _SECTIONS:
        for slug, name in _TAGS[section.slug]:
            if (section.lang, slug) not in tag_by_key:
                tag = _Tag(slug, name, section.lang)
                tag_by_key[(section.lang, slug)] = tag
                tags[section.lang].append(tag)
    authors = {
        "en": [_Author(n, s, b, "en") for n, s, b in _EN_AUTHORS],
        "zh": [_Author(n, s, b, "zh") for n, s, b in _ZH_AUTHORS],
    }

    # sections get near-equal shares so every section needs a second list page
    plan: list[_Section] = []
    for lang, total in (("en", _N_EN_ARTICLES), ("zh", _N_ZH_ARTICLES)):
        sections = [s for s in _SECTIONS if s.lang == lang]
        plan += [sections[i % len(sections)] for i in range(total)]
    rng.shuffle(plan)

    start = datetime(2024, 1, 8, tzinfo=UTC)
    offsets = sorted(rng.randint(0, 170) for _ in plan)
    snapshot = start + timedelta(days=172)
    # the few articles linked only from tag pages (and related/inline links of other articles
    # are not allowed to point at them), so a crawler must go through tag pages to find them
    unlisted = set(rng.sample(range(len(plan)), 4))

    used_slugs: set[str] = set()
    used_titles: set[str] = set()
    decks: dict[str, list[_Headline]] = {}
    articles: list[_Article] = []
    for idx, (section, offset) in enumerate(zip(plan, offsets, strict=True)):
        lang = section.lang
        tz = timezone(timedelta(hours=8)) if lang == "zh" else UTC
        published = (
            (start + timedelta(days=offset))
            .astimezone(tz)
            .replace(hour=rng.randint(6, 21), minute=rng.randint(0, 59), second=0)
        )
        ctx = _article_context(rng, lang)
        while True:
            template, stem, lead_template = _next_headline(rng, decks, section)
            title = _fill(template, rng, ctx, lang)
            if title not in used_titles:
                break
            ctx = _article_context(rng, lang)
        lead = _fill(lead_template, rng, ctx, lang)
        if lang == "zh":
            base = _zh_slug(idx, title, template, stem, ctx["city_pinyin"])
        else:
            base = _slugify(title)
        slug, suffix = base, 2
        while slug in used_slugs:
            slug, suffix = f"{base}-{suffix}", suffix + 1
        used_titles.add(title)
        used_slugs.add(slug)
        section_tags = [tag_by_key[(lang, s)] for s, _ in _TAGS[section.slug]]
        article_tags = rng.sample(section_tags, rng.randint(2, 3))
        blocks = _compose_blocks(rng, lang, section.slug, ctx, article_tags, lead)
        n_blocks = len(blocks)
        captions = _ZH_CAPTIONS if lang == "zh" else _EN_CAPTIONS
        articles.append(
            _Article(
                idx=idx,
                lang=lang,
                section=section,
                title=title,
                slug=slug,
                published=published,
                author=rng.choice(authors[lang]),
                tags=article_tags,
                blocks=blocks,
                listed=idx not in unlisted,
                has_jsonld=section.layout == "magazine" or rng.random() < 0.4,
                comments=_comments(rng, lang, section.layout, published, snapshot),
                ad_after=_after_paragraph(blocks, rng.randint(1, 3))
                if n_blocks >= 5 and rng.random() < 0.6
                else None,
                aside_after=_after_paragraph(blocks, rng.randint(2, n_blocks - 2))
                if n_blocks >= 6 and rng.random() < 0.4
                else None,
                caption=_fill(rng.choice(captions), rng, ctx, lang) if rng.random() < 0.5 else None,
                editor=rng.choice(_ZH_EDITORS),
            )
        )

    site = _Site(articles, tags, authors, {}, snapshot)
    for lang in ("en", "zh"):
        listed = site.listed(lang)
        site.most_read[lang] = rng.sample(listed, 5)
        for article in (a for a in articles if a.lang == lang):
            same = [a for a in site.in_section(article.section) if a is not article]
            others = [a for a in listed if a is not article and a not in same]
            picks = rng.sample(same, min(3, len(same)))
            picks += rng.sample(others, 4 - len(picks))
            article.related = picks
        for section in site.sections(lang):
            chain = site.in_section(section)
            for newer, older in itertools.pairwise(chain):
                older.next, newer.prev = newer, older
    return site


# --------------------------------------------------------------------------------------------
# Rendering helpers
# --------------------------------------------------------------------------------------------


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _href(path: str) -> str:
    """Hrefs carry percent-encoded paths, as CMSs write them for non-ASCII slugs."""
    return quote(path, safe="/#?=&")


def _a(path: str, text: str, cls: str | None = None, rel: str | None = None) -> str:
    attrs = f' class="{cls}"' if cls else ""
    attrs += f' rel="{rel}"' if rel else ""
    return f'<a href="{_href(path)}"{attrs}>{_e(text)}</a>'


def _display_date(moment: datetime, lang: str, style: str) -> str:
    if lang == "zh":
        return f"{moment:%Y年%m月%d日 %H:%M}"
    if style == "magazine":
        return f"{moment.day} {moment:%b %Y, %H:%M} GMT"
    return f"{_EN_MONTHS[moment.month - 1]} {moment.day}, {moment.year}"


def _comment_date(moment: datetime, lang: str) -> str:
    if lang == "zh":
        return f"{moment:%Y-%m-%d %H:%M}"
    hour = moment.hour % 12 or 12
    ampm = "am" if moment.hour < 12 else "pm"
    return (
        f"{_EN_MONTHS[moment.month - 1]} {moment.day}, {moment.year} at {hour}:{moment:%M} {ampm}"
    )


def _month_label(year: int, month: int, lang: str) -> str:
    return f"{year}年{month}月" if lang == "zh" else f"{_EN_MONTHS[month - 1]} {year}"


def _archive_path(year: int, month: int, lang: str) -> str:
    prefix = "" if lang == "en" else "/zh"
    return f"{prefix}/archive/{year}/{month:02d}/"


def _home_path(lang: str) -> str:
    return "/" if lang == "en" else "/zh/"


def _search_path(lang: str) -> str:
    return "/search/" if lang == "en" else "/zh/search/"


def _bio(author: _Author) -> str:
    return (
        f"{author.name}，{author.bio}。" if author.lang == "zh" else f"{author.name} {author.bio}."
    )


def _reading_minutes(article: _Article) -> int:
    if article.lang == "zh":
        return max(1, round(len(article.text) / 400))
    return max(1, round(len(article.text.split()) / 200))


def _labels(lang: str) -> dict[str, str]:
    return _LABELS[lang]


# --------------------------------------------------------------------------------------------
# Chrome: header, navigation, sidebar, footer
# --------------------------------------------------------------------------------------------


def _nav_items(site: _Site, lang: str) -> list[tuple[str, str]]:
    lab = _labels(lang)
    items = [(lab["home"], _home_path(lang))]
    items += [(s.name, s.path) for s in site.sections(lang)]
    items.append((lab["edition"], lab["edition_href"]))
    return items


def _search_form(lang: str, cls: str, field_id: str) -> str:
    lab = _labels(lang)
    return (
        f'<form role="search" method="get" class="{cls}" action="{_search_path(lang)}">'
        f'<label class="screen-reader-text" for="{field_id}">{_e(lab["search"])}</label>'
        f'<input type="search" id="{field_id}" class="search-field" name="q" '
        f'placeholder="{_e(lab["search_placeholder"])}">'
        f'<button type="submit" class="search-submit">{_e(lab["search"])}</button></form>'
    )


def _header_classic(site: _Site, lang: str, current: str) -> str:
    lab = _labels(lang)
    search = _search_form(lang, "search-form header-search-form", "header-search-field")
    today = (
        f"{site.snapshot:%Y年%m月%d日}"
        if lang == "zh"
        else f"{site.snapshot:%A}, {site.snapshot.day} {site.snapshot:%B %Y}"
    )
    nav = "\n".join(
        f'        <li class="menu-item{" current-menu-item" if path == current else ""}">'
        f"{_a(path, name)}</li>"
        for name, path in _nav_items(site, lang)
    )
    return f"""<div class="top-bar">
  <div class="container">
    <span class="top-bar-date">{_e(today)}</span>
    <ul class="top-bar-links">
      <li><a href="#login" class="login-link">{_e(lab["login"])}</a></li>
      <li><a href="#subscribe" class="btn btn-subscribe">{_e(lab["subscribe_btn"])}</a></li>
    </ul>
  </div>
</div>
<header id="masthead" class="site-header" role="banner">
  <div class="container header-inner">
    <div class="site-branding">
      <p class="site-title logo"><a href="{_home_path(lang)}" rel="home">{SITE_NAME}</a></p>
      <p class="site-description">{_e(lab["tagline"])}</p>
    </div>
    <div class="header-search">{search}</div>
  </div>
  <nav id="site-navigation" class="nav main-navigation" role="navigation" aria-label="Primary">
    <div class="container">
      <ul id="primary-menu" class="menu nav-menu">
{nav}
      </ul>
    </div>
  </nav>
</header>"""


def _header_magazine(site: _Site, lang: str, current: str) -> str:
    lab = _labels(lang)
    items = []
    for section in site.sections(lang):
        latest = site.in_section(section)[:3]
        links = "".join(f"<li>{_a(a.path, a.title)}</li>" for a in latest)
        active = " active" if section.path == current else ""
        more = _a(section.path, lab["more_section"].format(name=section.name))
        items.append(
            f'      <li class="menu-item has-mega{active}">'
            f"{_a(section.path, section.name, 'menu-link')}\n"
            f'        <div class="mega-panel"><div class="mega-col"><ul class="mega-list">{links}'
            f'</ul></div><div class="mega-col mega-more">{more}</div></div>\n      </li>'
        )
    items.append(
        f'      <li class="menu-item edition-switch">{_a(lab["edition_href"], lab["edition"])}</li>'
    )
    ticker = "".join(
        f'<li class="ticker-item">{_a(a.path, a.title)}</li>' for a in site.listed(lang)[:4]
    )
    return f"""<header class="site-header mag-header" role="banner">
  <div class="mag-header-top">
    <button class="hamburger" aria-label="Menu"><span></span><span></span><span></span></button>
    <a class="logo logo--mag" href="{_home_path(lang)}">
      <span class="logo-word">{SITE_NAME}</span></a>
    <div class="mag-header-actions">
      <a href="{_search_path(lang)}" class="icon-search">{_e(lab["search"])}</a>
      <a href="#subscribe" class="btn btn-subscribe">{_e(lab["subscribe_btn"])}</a></div>
  </div>
  <nav class="nav mega-menu" aria-label="Sections">
    <ul class="mega-menu-list">
      <li class="menu-item">{_a(_home_path(lang), lab["home"], "menu-link")}</li>
{chr(10).join(items)}
    </ul>
  </nav>
  <div class="breaking-ticker"><span class="ticker-label">{_e(lab["breaking"])}</span>
    <ul class="ticker">{ticker}</ul></div>
</header>"""


def _header_blog(site: _Site, lang: str, current: str) -> str:
    lab = _labels(lang)
    links = " ".join(
        _a(path, name, "nav-link active" if path == current else "nav-link")
        for name, path in _nav_items(site, lang)
    )
    return f"""<header class="site-header blog-header">
  <div class="wrap">
    <a class="logo blog-logo" href="{_home_path(lang)}">{SITE_NAME}
      <small>{_e(lab["tagline"])}</small></a>
    <nav class="nav blog-nav">{links}</nav>
  </div>
</header>"""


def _breadcrumb(trail: Sequence[tuple[str, str | None]], lang: str, layout: str) -> str:
    if not trail:
        return ""
    sep = "&gt;" if lang == "zh" else ("/" if layout == "blog" else "›")
    items = []
    for n, (label, path) in enumerate(trail):
        inner = _a(path, label) if path else f'<span aria-current="page">{_e(label)}</span>'
        divider = f' <span class="sep">{sep}</span>' if n < len(trail) - 1 else ""
        items.append(f'<li class="breadcrumb-item">{inner}{divider}</li>')
    return (
        '<nav class="breadcrumb breadcrumbs" aria-label="breadcrumb"><ol class="breadcrumb-list">'
        + "".join(items)
        + "</ol></nav>"
    )


def _ad(lang: str, slot: str, variant: int) -> str:
    lab = _labels(lang)
    ads = _ZH_ADS if lang == "zh" else _EN_ADS
    text = ads[variant % len(ads)]
    return (
        f'<div class="ad ad-{slot}" data-ad-slot="{slot}" aria-label="{_e(lab["advertisement"])}">'
        f'<span class="ad-label">{_e(lab["advertisement"])}</span>'
        f'<a class="ad-link" href="#ad-{slot}" rel="sponsored nofollow">{_e(text)}</a></div>'
    )


def _newsletter(lang: str, cls: str) -> str:
    lab = _labels(lang)
    return f"""<div class="widget newsletter {cls}">
  <h3 class="widget-title">{_e(lab["newsletter_title"])}</h3>
  <p class="newsletter-text">{_e(lab["newsletter_text"])}</p>
  <form class="newsletter-form" action="/newsletter/subscribe" method="post">
    <input type="email" name="email" required placeholder="{_e(lab["email_placeholder"])}">
    <button type="submit">{_e(lab["subscribe_btn"])}</button>
  </form>
  <p class="newsletter-fine">{_e(lab["newsletter_fine"])}</p>
</div>"""


def _most_read(site: _Site, lang: str, cls: str = "widget most-read") -> str:
    lab = _labels(lang)
    items = "\n".join(
        f'    <li><span class="rank">{n}</span>{_a(a.path, a.title)}</li>'
        for n, a in enumerate(site.most_read[lang], start=1)
    )
    return f"""<div class="{cls}">
  <h3 class="widget-title">{_e(lab["most_read"])}</h3>
  <ol class="most-read-list">
{items}
  </ol>
</div>"""


def _tag_cloud(site: _Site, lang: str) -> str:
    lab = _labels(lang)
    links = " ".join(_a(t.path, t.name, "tag-cloud-link") for t in site.tags[lang])
    return f"""<div class="widget widget_tag_cloud">
  <h3 class="widget-title">{_e(lab["tag_cloud"])}</h3>
  <div class="tagcloud">{links}</div>
</div>"""


def _archives_widget(site: _Site, lang: str) -> str:
    lab = _labels(lang)
    items = "".join(
        f"<li>{_a(_archive_path(y, m, lang), _month_label(y, m, lang))}</li>"
        for y, m in reversed(site.months(lang))
    )
    return f"""<div class="widget widget_archive">
  <h3 class="widget-title">{_e(lab["archives"])}</h3>
  <ul>{items}</ul>
</div>"""


def _sidebar(site: _Site, lang: str) -> str:
    return f"""<aside id="secondary" class="sidebar widget-area" role="complementary">
{_ad(lang, "sidebar-top", 0)}
{_most_read(site, lang)}
{_newsletter(lang, "widget-newsletter")}
{_tag_cloud(site, lang)}
{_ad(lang, "sidebar-bottom", 1)}
{_archives_widget(site, lang)}
</aside>"""


def _footer(site: _Site, lang: str, layout: str) -> str:
    lab = _labels(lang)
    section_links = "".join(f"<li>{_a(s.path, s.name)}</li>" for s in site.sections(lang))
    info_links = "".join(
        f"<li>{_a(path, lab[key])}</li>"
        for key, path in (
            ("about", "/about/"),
            ("contact", "/about/#contact"),
            ("privacy", "/privacy/"),
            ("sitemap", "/sitemap/"),
            ("rss", "/feed.xml" if lang == "en" else "/zh/feed.xml"),
        )
    )
    social = (
        '<a class="social-twitter" href="https://twitter.com/demodaily">X</a> '
        '<a class="social-facebook" href="https://www.facebook.com/demodaily">Facebook</a> '
        '<a class="social-instagram" href="https://www.instagram.com/demodaily">Instagram</a>'
    )
    extra = f"\n  {_newsletter(lang, 'footer-newsletter')}" if layout == "blog" else ""
    return f"""<footer id="colophon" class="site-footer footer" role="contentinfo">{extra}
  <div class="footer-widgets container">
    <div class="footer-col footer-about"><h4>{SITE_NAME}</h4><p>{_e(lab["about_blurb"])}</p></div>
    <div class="footer-col"><h4>{_e(lab["sections"])}</h4>
      <ul class="footer-menu">{section_links}</ul></div>
    <div class="footer-col"><h4>{_e(lab["follow"])}</h4>
      <div class="social-links">{social}</div></div>
  </div>
  <div class="footer-bottom">
    <div class="container">
      <ul class="footer-links">{info_links}</ul>
      <p class="copyright">{_e(lab["copyright"])}</p>
      <p class="legal">{_e(lab["powered"])}</p>
    </div>
  </div>
</footer>"""


def _cookie_notice(lang: str) -> str:
    lab = _labels(lang)
    return (
        '<div id="cookie-notice" class="cookie-notice cookie-banner" role="dialog" '
        'aria-live="polite"><div class="cookie-notice-container">'
        f'<span class="cookie-notice-text">{_e(lab["cookie"])}</span> '
        f'<a href="/privacy/" class="cookie-more">{_e(lab["privacy"])}</a> '
        f'<button class="cookie-accept" data-cookie-set="accept">{_e(lab["accept"])}</button> '
        f'<button class="cookie-manage">{_e(lab["manage"])}</button></div></div>'
    )


def _share_buttons(article: _Article, cls: str) -> str:
    lab = _labels(article.lang)
    url = quote(_PUBLIC_ORIGIN + _href(article.path), safe="")
    targets: tuple[tuple[str, str, str], ...]
    if article.lang == "zh":
        targets = (
            ("share-weibo", f"https://service.weibo.com/share/share.php?url={url}", "微博"),
            ("share-wechat", "#wechat-qr", "微信"),
            ("share-qzone", f"https://sns.qzone.qq.com/cgi-bin/qzshare/onekey?url={url}", "QQ空间"),
        )
    else:
        targets = (
            ("share-facebook", f"https://www.facebook.com/sharer/sharer.php?u={url}", "Facebook"),
            ("share-twitter", f"https://twitter.com/intent/tweet?url={url}", "X"),
            ("share-linkedin", f"https://www.linkedin.com/shareArticle?url={url}", "LinkedIn"),
            ("share-email", f"mailto:?subject={quote(article.title)}&body={url}", "Email"),
        )
    links = "".join(
        f'<a class="{c}" href="{_e(href)}">{_e(label)}</a>' for c, href, label in targets
    )
    return (
        f'<div class="share-buttons social-share {cls}">'
        f'<span class="share-label">{_e(lab["share"])}</span>{links}</div>'
    )


# --------------------------------------------------------------------------------------------
# Page shell
# --------------------------------------------------------------------------------------------

_INLINE_CSS = (
    ".screen-reader-text{position:absolute;left:-9999px}"
    ".cookie-notice{position:fixed;bottom:0;left:0;right:0;z-index:99}"
    ".ad{min-height:90px;background:#f4f4f4}"
)
_ANALYTICS = (
    "window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}"
    "gtag('js',new Date());gtag('config','DD-0000000');"
)
_FOOT_SCRIPT = (
    "document.querySelectorAll('.cookie-accept').forEach(function(b){b.addEventListener('click',"
    "function(){document.cookie='dd_consent=1;path=/;max-age=31536000';"
    "document.getElementById('cookie-notice').remove();});});"
)


@dataclass(slots=True)
class _Shell:
    """What a page needs besides its main column; layouts decide how to arrange it."""

    lang: str
    layout: str
    title: str
    description: str
    path: str
    body_class: str
    main: str
    breadcrumb: list[tuple[str, str | None]] = field(default_factory=list)
    head_extra: str = ""
    after_main: str = ""


def _render_shell(site: _Site, shell: _Shell) -> str:
    lab = _labels(shell.lang)
    layout = shell.layout
    current = shell.breadcrumb[1][1] if len(shell.breadcrumb) > 1 else _home_path(shell.lang)
    header = {"classic": _header_classic, "magazine": _header_magazine, "blog": _header_blog}[
        layout
    ](site, shell.lang, current or "")
    crumbs = _breadcrumb(shell.breadcrumb, shell.lang, layout)
    if layout == "classic":
        content = f"""<div id="content" class="site-content">
  <div class="container">
    {crumbs}
    {_ad(shell.lang, "leaderboard", 2)}
    <div class="row content-area">
      <main id="main" class="site-main main col-main" role="main">
{shell.main}
      </main><!-- #main -->
{_sidebar(site, shell.lang)}
    </div>
{shell.after_main}
  </div>
</div><!-- #content -->"""
    elif layout == "magazine":
        content = f"""<div class="mag-wrapper">
  {_ad(shell.lang, "billboard", 3)}
  {crumbs}
  <main id="main" class="main mag-main" role="main">
{shell.main}
  </main>
{shell.after_main}
  <section class="trending-rail">
{_most_read(site, shell.lang, "rail most-read")}
    {_ad(shell.lang, "rail", 0)}
  </section>
</div>"""
    else:
        content = f"""<div class="blog-container wrap">
  {crumbs}
  <main id="main" class="main blog-main" role="main">
{shell.main}
  </main>
{shell.after_main}
</div>"""
    feed = "/feed.xml" if shell.lang == "en" else "/zh/feed.xml"
    return f"""<!DOCTYPE html>
<html lang="{shell.lang}" class="no-js">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(shell.title)} - {SITE_NAME}</title>
<meta name="description" content="{_e(shell.description)}">
<link rel="canonical" href="{_href(shell.path)}">
<link rel="alternate" type="application/rss+xml" title="{SITE_NAME}" href="{feed}">
<link rel="stylesheet" href="/static/css/site.css?ver=5.2.1" media="all">
<style id="critical-css">{_INLINE_CSS}</style>
<meta property="og:site_name" content="{SITE_NAME}">
{shell.head_extra}<script>{_ANALYTICS}</script>
<script async src="/static/js/ads.js"></script>
</head>
<body class="{shell.body_class} layout-{layout} lang-{shell.lang}">
<a class="skip-link screen-reader-text" href="#main">{_e(lab["skip"])}</a>
{_cookie_notice(shell.lang)}
<div id="page" class="site">
{header}
{content}
{_footer(site, shell.lang, layout)}
</div><!-- #page -->
<script src="/static/js/site.js?ver=5.2.1"></script>
<script>{_FOOT_SCRIPT}</script>
</body>
</html>
"""


# --------------------------------------------------------------------------------------------
# Articles
# --------------------------------------------------------------------------------------------


def _article_head(article: _Article) -> str:
    tags = "".join(f'<meta property="article:tag" content="{_e(t.name)}">\n' for t in article.tags)
    head = (
        f'<meta property="og:type" content="article">\n'
        f'<meta property="og:title" content="{_e(article.title)}">\n'
        f'<meta property="og:description" content="{_e(article.excerpt)}">\n'
        f'<meta property="og:image" content="{_PUBLIC_ORIGIN}/static/img/placeholder.svg">\n'
        f'<meta property="article:published_time" content="{article.published.isoformat()}">\n'
        f'<meta property="article:section" content="{_e(article.section.name)}">\n'
        f"{tags}"
        f'<meta name="author" content="{_e(article.author.name)}">\n'
    )
    if article.has_jsonld:
        data = {
            "@context": "https://schema.org",
            "@type": "NewsArticle",
            "headline": article.title,
            "datePublished": article.published.isoformat(),
            "dateModified": article.published.isoformat(),
            "author": {"@type": "Person", "name": article.author.name},
            "publisher": {
                "@type": "Organization",
                "name": SITE_NAME,
                "logo": {"@type": "ImageObject", "url": f"{_PUBLIC_ORIGIN}/static/img/logo.svg"},
            },
            "inLanguage": article.lang,
            "articleSection": article.section.name,
            "keywords": [t.name for t in article.tags],
            "mainEntityOfPage": _PUBLIC_ORIGIN + _href(article.path),
        }
        payload = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
        head += f'<script type="application/ld+json">{payload}</script>\n'
    return head


def _body_html(article: _Article, cls: str) -> str:
    """The article text plus the in-body noise CMSs insert between paragraphs."""
    lab = _labels(article.lang)
    lines = [f'<div class="{cls}" itemprop="articleBody">']
    for i, block in enumerate(article.blocks):
        lines.append(f"<{block.tag}>{block.inner_html}</{block.tag}>")
        if i == article.ad_after:
            lines.append(_ad(article.lang, "inarticle", article.idx))
        if i == article.aside_after and article.related:
            target = article.related[0]
            lines.append(
                f'<aside class="inline-related"><strong>{_e(lab["read_also"])}</strong> '
                f"{_a(target.path, target.title)}</aside>"
            )
    lines.append("</div><!-- .article-body -->")
    return "\n".join(lines)


def _figure(article: _Article) -> str:
    if article.caption is None:
        return ""
    lab = _labels(article.lang)
    credit = f"{lab['photo']} {SITE_NAME}/{article.author.name}"
    return (
        '<figure class="wp-caption lead-image">'
        f'<img src="/static/img/placeholder.svg" alt="{_e(article.caption)}" width="800" '
        'height="450" loading="lazy">'
        f'<figcaption>{_e(article.caption)} <span class="credit">{_e(credit)}</span></figcaption>'
        "</figure>"
    )


def _tags_links(article: _Article, cls: str, label: str) -> str:
    links = ", ".join(_a(t.path, t.name, rel="tag") for t in article.tags)
    return f'<div class="{cls}"><span class="tags-title">{_e(label)}</span> {links}</div>'


def _time(article: _Article, style: str, cls: str) -> str:
    return (
        f'<time class="{cls}" datetime="{article.published.isoformat()}" itemprop="datePublished">'
        f"{_e(_display_date(article.published, article.lang, style))}</time>"
    )


def _comments_html(article: _Article) -> str:
    lab = _labels(article.lang)
    items = []
    for n, comment in enumerate(article.comments, start=1):
        parity = "even" if n % 2 == 0 else "odd"
        items.append(
            f"""  <li id="comment-{article.idx * 100 + n}" class="comment {parity} depth-1">
    <article class="comment-body">
      <footer class="comment-meta">
        <div class="comment-author vcard">
          <img class="avatar" src="/static/img/avatar.svg" alt="" width="40" height="40">
          <b class="fn">{_e(comment.name)}</b> <span class="says">{_e(lab["says"])}</span>
        </div>
        <div class="comment-metadata"><time datetime="{comment.when.isoformat()}">
          {_e(_comment_date(comment.when, article.lang))}</time></div>
      </footer>
      <div class="comment-content"><p>{_e(comment.text)}</p></div>
      <div class="reply"><a class="comment-reply-link" href="#respond">{_e(lab["reply"])}</a></div>
    </article>
  </li>"""
        )
    listing = (
        '<ol class="comment-list">\n' + "\n".join(items) + "\n</ol>"
        if items
        else f'<p class="no-comments">{_e(lab["no_comments"])}</p>'
    )
    return f"""<section id="comments" class="comments-area">
<h2 class="comments-title">{_e(lab["comments"].format(n=len(article.comments)))}</h2>
{listing}
<div id="respond" class="comment-respond">
  <h3 class="comment-reply-title">{_e(lab["leave_comment"])}</h3>
  <form action="/comments/post" method="post" id="commentform" class="comment-form">
    <p class="comment-notes">{_e(lab["comment_notes"])}</p>
    <p class="comment-form-comment"><label for="comment">{_e(lab["comment"])}</label>
      <textarea id="comment" name="comment" rows="6"></textarea></p>
    <p class="comment-form-author"><label for="author">{_e(lab["name"])}</label>
      <input id="author" name="author" type="text"></p>
    <p class="comment-form-email"><label for="email">{_e(lab["email"])}</label>
      <input id="email" name="email" type="email"></p>
    <p class="form-submit">
      <input name="submit" type="submit" class="submit" value="{_e(lab["post_comment"])}">
      <input type="hidden" name="comment_post_ID" value="{article.idx}"></p>
  </form>
</div>
</section>"""


def _teaser_card(article: _Article, cls: str, with_excerpt: bool = True) -> str:
    excerpt = f'<p class="teaser-excerpt">{_e(article.excerpt)}</p>' if with_excerpt else ""
    return (
        f'<div class="{cls}"><span class="teaser-section">{_e(article.section.name)}</span>'
        f'<h3 class="teaser-title">{_a(article.path, article.title)}</h3>{excerpt}</div>'
    )


def _related_html(article: _Article) -> str:
    lab = _labels(article.lang)
    if article.layout == "magazine":
        cards = "\n".join(_teaser_card(a, "card") for a in article.related)
        title = lab["more_from"].format(name=article.section.name)
        return f"""<section class="more-from cards related-articles">
<h2 class="section-heading">{_e(title)}</h2>
<div class="card-grid">
{cards}
</div>
</section>"""
    if article.layout == "blog":
        items = "".join(f"<li>{_a(a.path, a.title)}</li>" for a in article.related[:3])
        return f"""<section class="related-posts">
<h3>{_e(lab["you_may_like"])}</h3>
<ul class="related-list">{items}</ul>
</section>"""
    items = "\n".join(
        f'  <li class="related-item">{_a(a.path, a.title)}'
        f'<p class="related-teaser">{_e(a.excerpt)}</p></li>'
        for a in article.related
    )
    return f"""<section class="related-articles">
<h2 class="related-title">{_e(lab["related"])}</h2>
<ul class="related-list">
{items}
</ul>
</section>"""


def _byline(article: _Article) -> str:
    lab = _labels(article.lang)
    author = (
        f'<a class="author-link url fn" rel="author" href="{_href(article.author.path)}" '
        f'itemprop="author">{_e(article.author.name)}</a>'
    )
    minutes = _e(lab["min_read"].format(n=_reading_minutes(article)))
    if article.lang == "zh":
        return (
            '<div class="article-info entry-meta">'
            f'<span class="source">{_e(lab["source"])}{SITE_NAME}</span> '
            f'<span class="author">{_e(lab["by"])}{author}</span> '
            f"{_time(article, 'classic', 'entry-date published')} "
            f'<span class="reading-time">{minutes}</span></div>'
        )
    if article.layout == "magazine":
        return (
            f'<div class="story-byline">{_e(lab["words_by"])} {author} '
            f'<span class="dot">·</span> {_time(article, "magazine", "story-date")} '
            f'<span class="dot">·</span> <span class="reading-time">{minutes}</span></div>'
        )
    return (
        f'<div class="entry-meta byline"><span class="author vcard">{_e(lab["by"])} {author}</span>'
        f' <span class="sep">|</span> {_time(article, "classic", "entry-date published")}'
        f' <span class="sep">|</span> <span class="reading-time">{minutes}</span></div>'
    )


def _editor_line(article: _Article) -> str:
    if article.lang != "zh":
        return ""
    lab = _labels(article.lang)
    return f'<div class="article-editor">（{_e(lab["editor"])}{_e(article.editor)}）</div>'


def _article_main(article: _Article) -> tuple[str, str]:
    """The main column and what goes below it, per layout."""
    lab = _labels(article.lang)
    section_link = _a(article.section.path, article.section.name)
    category = f"category-{article.section.slug}"
    if article.layout == "classic":
        classes = f"post type-post status-publish format-standard hentry {category}"
        main = f"""<article id="post-{article.idx}" class="{classes}"
  itemscope itemtype="https://schema.org/NewsArticle">
<header class="entry-header">
  <div class="entry-category">{section_link}</div>
  <h1 class="entry-title" itemprop="headline">{_e(article.title)}</h1>
  {_byline(article)}
  {_share_buttons(article, "share-top")}
</header>
{_figure(article)}
{_body_html(article, "entry-content article-body")}
{_editor_line(article)}
<footer class="entry-footer">
  {_tags_links(article, "tags-links", lab["tags"])}
  {_share_buttons(article, "share-bottom")}
</footer>
</article>
{_newsletter(article.lang, "inline-newsletter")}
{_related_html(article)}
{_comments_html(article)}"""
        return main, ""
    if article.layout == "magazine":
        main = f"""<article class="story story--feature" itemscope itemtype="https://schema.org/NewsArticle">
<div class="story-hero">
  <div class="kicker">{section_link}</div>
  <h1 class="story-title headline" itemprop="headline">{_e(article.title)}</h1>
  {_byline(article)}
</div>
{_figure(article)}
<div class="story-layout">
  <div class="story-share sticky">{_share_buttons(article, "share-vertical")}</div>
  <div class="story-content">
{_body_html(article, "story-body article-body")}
{_editor_line(article)}
  </div>
</div>
<div class="story-tags">{_tags_links(article, "topics", lab["topics"])}</div>
</article>
{_ad(article.lang, "after-story", article.idx + 1)}"""
        after = f"{_related_html(article)}\n{_comments_html(article)}"
        return main, after
    author = article.author
    author_link = _a(author.path, author.name, "p-author h-card", rel="author")
    nav_links = []
    if article.prev is not None:
        link = _a(article.prev.path, article.prev.title)
        nav_links.append(f'<div class="nav-previous">{_e(lab["prev_post"])} {link}</div>')
    if article.next is not None:
        link = _a(article.next.path, article.next.title)
        nav_links.append(f'<div class="nav-next">{_e(lab["next_post"])} {link}</div>')
    main = f"""<article class="blog-post h-entry">
<header class="post-header">
  <h1 class="post-title p-name">{_e(article.title)}</h1>
  <p class="post-meta">{_e(lab["posted_on"])} {_time(article, "blog", "dt-published")}
    {_e(lab["posted_by"])} {author_link} {_e(lab["in"])} {section_link}</p>
</header>
{_figure(article)}
{_body_html(article, "post-content e-content article-body")}
{_editor_line(article)}
{_tags_links(article, "post-tags", lab["filed"])}
{_share_buttons(article, "share-inline")}
<div class="author-box">
  <img class="avatar" src="/static/img/avatar.svg" alt="" width="64" height="64">
  <div class="author-box-text"><h4>{_e(lab["about_author"])}</h4>
    <p>{_e(_bio(author))}</p></div>
</div>
<nav class="post-navigation">{"".join(nav_links)}</nav>
</article>"""
    return main, f"{_related_html(article)}\n{_comments_html(article)}"


def _render_article(site: _Site, article: _Article) -> str:
    lab = _labels(article.lang)
    main, after = _article_main(article)
    crumb_last = "正文" if article.lang == "zh" else article.title
    shell = _Shell(
        lang=article.lang,
        layout=article.layout,
        title=article.title,
        description=article.excerpt,
        path=article.path,
        body_class=f"single single-post postid-{article.idx} section-{article.section.slug}",
        main=main,
        breadcrumb=[
            (lab["home"], _home_path(article.lang)),
            (article.section.name, article.section.path),
            (crumb_last, None),
        ],
        head_extra=_article_head(article),
        after_main=after,
    )
    return _render_shell(site, shell)


# --------------------------------------------------------------------------------------------
# Noise pages
# --------------------------------------------------------------------------------------------


def _teaser(article: _Article, with_image: bool) -> str:
    lab = _labels(article.lang)
    image = (
        f'<a class="teaser-image" href="{_href(article.path)}">'
        '<img src="/static/img/placeholder.svg" alt="" width="320" height="180" loading="lazy"></a>'
        if with_image
        else ""
    )
    return f"""<article class="teaser post-{article.idx}">
  {image}
  <div class="teaser-body">
    <span class="teaser-section">{_a(article.section.path, article.section.name)}</span>
    <h2 class="teaser-title">{_a(article.path, article.title)}</h2>
    <p class="teaser-meta"><span class="author">{_e(lab["by"])} {_e(article.author.name)}</span>
      · {_time(article, "classic", "teaser-date")}</p>
    <p class="teaser-excerpt">{_e(article.excerpt)}</p>
    <a class="read-more" href="{_href(article.path)}">{_e(lab["read_more"])}</a>
  </div>
</article>"""


def _pager(base: str, page: int, pages: int, lang: str) -> str:
    if pages <= 1:
        return ""
    lab = _labels(lang)

    def url(n: int) -> str:
        return base if n == 1 else f"{base}page/{n}/"

    parts = []
    if page > 1:
        parts.append(_a(url(page - 1), lab["newer"], "prev page-numbers"))
    for n in range(1, pages + 1):
        parts.append(
            f'<span aria-current="page" class="page-numbers current">{n}</span>'
            if n == page
            else _a(url(n), str(n), "page-numbers")
        )
    if page < pages:
        parts.append(_a(url(page + 1), lab["older"], "next page-numbers"))
    return f'<nav class="pagination navigation" aria-label="Posts">{" ".join(parts)}</nav>'


def _list_main(title: str, description: str, items: Iterable[_Article], pager: str) -> str:
    teasers = "\n".join(_teaser(a, with_image=i % 3 == 0) for i, a in enumerate(items))
    return f"""<header class="page-header">
  <h1 class="page-title">{_e(title)}</h1>
  <div class="archive-description"><p>{_e(description)}</p></div>
</header>
<div class="post-list">
{teasers}
</div>
{pager}"""


@dataclass(slots=True)
class _Out:
    """Collects files and manifest records while pages are rendered."""

    root: Path
    records: list[PageRecord] = field(default_factory=list)

    def write(self, rel: str, content: str) -> None:
        target = self.root.joinpath(*rel.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.encode("utf-8"))

    def page(self, path: str, content: str, record: dict[str, Any]) -> None:
        rel = path.lstrip("/") + "index.html" if path.endswith("/") else path.lstrip("/")
        self.write(rel, content)
        self.records.append(PageRecord(path=path, file=rel, **record))


def _noise(noise_type: str, subtype: str, layout: str, lang: str) -> dict[str, Any]:
    return {
        "kind": "noise",
        "noise_type": noise_type,
        "subtype": subtype,
        "layout": layout,
        "lang": lang,
    }


def _paged(
    site: _Site,
    out: _Out,
    base: str,
    items: list[_Article],
    size: int,
    shell: _Shell,
    title: str,
    description: str,
    record: dict[str, Any],
) -> None:
    """Write a paginated listing: page 1 at ``base``, then ``base/page/N/``."""
    pages = max(1, -(-len(items) // size))
    for page in range(1, pages + 1):
        path = base if page == 1 else f"{base}page/{page}/"
        chunk = items[(page - 1) * size : page * size]
        page_title = (
            title if page == 1 else f"{title} - {_labels(shell.lang)['page_n'].format(n=page)}"
        )
        shell.title = page_title
        shell.path = path
        shell.main = _list_main(
            page_title, description, chunk, _pager(base, page, pages, shell.lang)
        )
        out.page(path, _render_shell(site, shell), record)


def _render_home(site: _Site, lang: str) -> str:
    lab = _labels(lang)
    latest = site.listed(lang)
    hero, top = latest[0], latest[1:9]
    blocks = []
    for section in site.sections(lang):
        heads = "".join(f"<li>{_a(a.path, a.title)}</li>" for a in site.in_section(section)[:3])
        more = lab["more_section"].format(name=section.name)
        blocks.append(
            f'<section class="section-block section-block--{section.slug}">'
            f'<h2 class="section-block-title">{_a(section.path, section.name)}</h2>'
            f'<ul class="headline-list">{heads}</ul>'
            f"{_a(section.path, more, 'more-link')}</section>"
        )
    cards = "\n".join(_teaser_card(a, "card top-story") for a in top)
    main = f"""<section class="hero">
  <article class="hero-story">
    <a class="hero-image" href="{_href(hero.path)}">
      <img src="/static/img/placeholder.svg" alt="" width="1200" height="600"></a>
    <span class="kicker">{_a(hero.section.path, hero.section.name)}</span>
    <h2 class="hero-title">{_a(hero.path, hero.title)}</h2>
    <p class="hero-excerpt">{_e(hero.excerpt)}</p>
  </article>
</section>
<section class="top-stories">
  <h2 class="section-heading">{_e(lab["top_stories"])}</h2>
  <div class="card-grid">
{cards}
  </div>
</section>
{_ad(lang, "home-mid", 1)}
<div class="section-blocks">
{chr(10).join(blocks)}
</div>"""
    shell = _Shell(
        lang=lang,
        layout="classic",
        title=lab["latest"],
        description=lab["tagline"],
        path=_home_path(lang),
        body_class="home blog",
        main=main,
    )
    return _render_shell(site, shell)


def _render_search(site: _Site, lang: str) -> str:
    lab = _labels(lang)
    options = "".join(
        f'<option value="{s.slug}">{_e(s.name)}</option>' for s in site.sections(lang)
    )
    popular = "".join(f"<li>{_a(t.path, t.name)}</li>" for t in site.tags[lang][:8])
    tip = (
        "提示：可以使用空格分隔多个关键词。"
        if lang == "zh"
        else 'Tip: put a phrase in quotes, e.g. "public transport", to search for it exactly.'
    )
    main = f"""<header class="page-header"><h1 class="page-title">{_e(lab["search"])}</h1></header>
<form role="search" method="get" class="search-form search-page-form" action="{_search_path(lang)}">
  <input type="search" name="q" class="search-field" placeholder="{_e(lab["search_placeholder"])}">
  <select name="section"><option value="">{_e(lab["sections"])}</option>{options}</select>
  <button type="submit" class="search-submit">{_e(lab["search"])}</button>
</form>
<p class="search-help">{_e(tip)}</p>
<div class="search-popular"><h2>{_e(lab["tag_cloud"])}</h2><ul>{popular}</ul></div>"""
    shell = _Shell(
        lang=lang,
        layout="classic",
        title=lab["search"],
        description=lab["search_placeholder"],
        path=_search_path(lang),
        body_class="search search-no-results",
        main=main,
        breadcrumb=[(lab["home"], _home_path(lang)), (lab["search"], None)],
    )
    return _render_shell(site, shell)


def _render_text_page(
    site: _Site, path: str, title: str, paragraphs: Sequence[str], extra: str = ""
) -> str:
    body = "\n".join(f"<p>{_e(p)}</p>" for p in paragraphs)
    main = f"""<article class="page type-page">
<header class="entry-header"><h1 class="entry-title">{_e(title)}</h1></header>
<div class="entry-content">
{body}
{extra}
</div>
</article>"""
    shell = _Shell(
        lang="en",
        layout="classic",
        title=title,
        description=paragraphs[0],
        path=path,
        body_class="page",
        main=main,
        breadcrumb=[("Home", "/"), (title, None)],
    )
    return _render_shell(site, shell)


def _render_sitemap(site: _Site) -> str:
    groups = []
    for lang in ("en", "zh"):
        lab = _labels(lang)
        sections = "".join(f"<li>{_a(s.path, s.name)}</li>" for s in site.sections(lang))
        tags = "".join(f"<li>{_a(t.path, t.name)}</li>" for t in site.tags[lang])
        months = "".join(
            f"<li>{_a(_archive_path(y, m, lang), _month_label(y, m, lang))}</li>"
            for y, m in site.months(lang)
        )
        authors = "".join(f"<li>{_a(a.path, a.name)}</li>" for a in site.authors[lang])
        groups.append(
            f'<div class="sitemap-group sitemap-{lang}">'
            f"<h2>{_a(_home_path(lang), lab['home'])}</h2>"
            f"<h3>{_e(lab['sections'])}</h3><ul>{sections}</ul>"
            f"<h3>{_e(lab['tag_cloud'])}</h3><ul>{tags}</ul>"
            f"<h3>{_e(lab['archives'])}</h3><ul>{months}</ul>"
            f"<h3>{'作者' if lang == 'zh' else 'Authors'}</h3><ul>{authors}</ul></div>"
        )
    pages = (
        '<div class="sitemap-group"><h2>Pages</h2><ul>'
        f"<li>{_a('/about/', 'About us')}</li><li>{_a('/privacy/', 'Privacy policy')}</li>"
        f"<li>{_a('/search/', 'Search')}</li></ul></div>"
    )
    return _render_text_page(
        site,
        "/sitemap/",
        "Sitemap",
        ["An overview of every section and topic on Demo Daily."],
        "\n".join(groups) + pages,
    )


def _rss(site: _Site, lang: str) -> str:
    items = []
    for article in site.listed(lang)[:20]:
        link = _PUBLIC_ORIGIN + _href(article.path)
        items.append(
            f"<item><title>{_e(article.title)}</title><link>{link}</link>"
            f"<guid>{link}</guid><pubDate>{article.published:%a, %d %b %Y %H:%M:%S %z}</pubDate>"
            f"<description>{_e(article.excerpt)}</description></item>"
        )
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel>'
        f"<title>{SITE_NAME}</title><link>{_PUBLIC_ORIGIN}{_home_path(lang)}</link>"
        f"<description>{_e(_labels(lang)['tagline'])}</description>"
        + "".join(items)
        + "</channel></rss>\n"
    )


_STATIC: dict[str, str] = {
    "robots.txt": "User-agent: *\nDisallow: /comments/\n",
    "static/css/site.css": (
        "body{font-family:Georgia,serif;margin:0;color:#222}\n"
        ".container,.wrap{max-width:1140px;margin:0 auto;padding:0 16px}\n"
        ".row{display:flex;gap:32px}.col-main{flex:1 1 auto}.sidebar{flex:0 0 300px}\n"
        ".site-header{border-bottom:1px solid #ddd}.logo a,.logo{font-size:2rem;"
        "font-weight:700;color:#111;text-decoration:none}\n"
        ".menu,.mega-menu-list{list-style:none;display:flex;gap:16px;padding:0}\n"
        ".mega-panel{display:none}.has-mega:hover .mega-panel{display:block}\n"
        ".article-body p{font-size:1.1rem;line-height:1.6}\n"
        ".ad{border:1px dashed #bbb;padding:8px;text-align:center}\n"
        ".site-footer{background:#111;color:#eee;margin-top:48px;padding:32px 0}\n"
    ),
    "static/js/site.js": "/* Demo Daily front-end */\n(function(){'use strict';})();\n",
    "static/js/ads.js": "/* ad loader placeholder */\nwindow.ddAds=window.ddAds||[];\n",
    "static/img/placeholder.svg": (
        '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450">'
        '<rect width="100%" height="100%" fill="#ccc"/></svg>\n'
    ),
    "static/img/avatar.svg": (
        '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">'
        '<circle cx="32" cy="32" r="32" fill="#999"/></svg>\n'
    ),
    "static/img/logo.svg": (
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40">'
        '<text x="0" y="30" font-size="28">Demo Daily</text></svg>\n'
    ),
}


def _write_site(site: _Site, out: _Out) -> None:
    for rel, content in _STATIC.items():
        out.write(rel, content)
    for lang in ("en", "zh"):
        out.write("feed.xml" if lang == "en" else "zh/feed.xml", _rss(site, lang))

    for article in sorted(site.articles, key=lambda a: a.path):
        note = None if article.listed else "linked only from tag pages"
        out.page(
            article.path,
            _render_article(site, article),
            {
                "kind": "article",
                "noise_type": None,
                "subtype": "article",
                "layout": article.layout,
                "lang": article.lang,
                "title": article.title,
                "date": f"{article.published:%Y-%m-%d}",
                "author": article.author.name,
                "text": article.text,
                "note": note,
            },
        )

    for lang in ("en", "zh"):
        lab = _labels(lang)
        home = (lab["home"], _home_path(lang))
        out.page(
            _home_path(lang), _render_home(site, lang), _noise("index", "home", "classic", lang)
        )
        for section in site.sections(lang):
            shell = _Shell(
                lang, section.layout, "", section.blurb, section.path,
                f"archive category category-{section.slug}", "",
                breadcrumb=[home, (section.name, section.path)],
            )  # fmt: skip
            _paged(
                site, out, section.path, site.in_section(section), _SECTION_PAGE_SIZE, shell,
                section.name, section.blurb, _noise("list", "section", section.layout, lang),
            )  # fmt: skip
        for tag in site.tags[lang]:
            # every article with the tag, unlisted ones included: tag pages are their way in
            tagged = sorted(
                (a for a in site.articles if tag in a.tags), key=lambda a: a.published, reverse=True
            )
            title = lab["tag_title"].format(name=tag.name)
            shell = _Shell(
                lang, "classic", "", title, tag.path, f"archive tag tag-{tag.slug}", "",
                breadcrumb=[home, (title, None)],
            )  # fmt: skip
            _paged(
                site, out, tag.path, tagged, _TAG_PAGE_SIZE, shell, title,
                lab["tag_desc"].format(name=tag.name), _noise("tag", "tag", "classic", lang),
            )  # fmt: skip
        for year, month in site.months(lang):
            label = _month_label(year, month, lang)
            title = lab["archive_title"].format(month=label)
            path = _archive_path(year, month, lang)
            items = [
                a
                for a in site.listed(lang)
                if (a.published.year, a.published.month) == (year, month)
            ]
            shell = _Shell(
                lang, "classic", "", title, path, "archive date", "",
                breadcrumb=[home, (lab["archives"], None), (label, None)],
            )  # fmt: skip
            _paged(
                site, out, path, items, 50, shell, title, label,
                _noise("archive", "archive", "classic", lang),
            )  # fmt: skip
        for author in site.authors[lang]:
            items = [a for a in site.listed(lang) if a.author == author]
            if not items:
                continue
            title = lab["author_title"].format(name=author.name)
            shell = _Shell(
                lang, "blog", "", title, author.path, "archive author", "",
                breadcrumb=[home, (author.name, None)],
            )  # fmt: skip
            _paged(
                site, out, author.path, items, 10, shell, title, _bio(author),
                _noise("list", "author", "blog", lang),
            )  # fmt: skip
        out.page(
            _search_path(lang),
            _render_search(site, lang),
            _noise("other", "search", "classic", lang),
        )

    out.page(
        "/about/",
        _render_text_page(
            site, "/about/", "About us", _ABOUT_EN,
            '<h2 id="contact">Contact</h2><p>Demo Daily Media Ltd, 1 Example Street, '
            "London. Newsroom: newsroom@demo-daily.example</p>",
        ),
        _noise("other", "about", "classic", "en"),
    )  # fmt: skip
    out.page(
        "/privacy/",
        _render_text_page(site, "/privacy/", "Privacy policy", _PRIVACY_EN),
        _noise("other", "privacy", "classic", "en"),
    )
    out.page("/sitemap/", _render_sitemap(site), _noise("other", "sitemap", "classic", "en"))


def generate(out_dir: Path, seed: int = 7) -> Manifest:
    """Write the site under ``out_dir`` plus ``out_dir/manifest.json``; return the manifest.

    Files already in ``out_dir`` are overwritten, not removed: point it at a fresh or
    dedicated directory. ``manifest.json`` sits next to the pages but nothing links to it.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    site = _build_site(random.Random(seed))
    out = _Out(out_dir)
    _write_site(site, out)
    manifest = Manifest(seed=seed, site=SITE_NAME, pages=sorted(out.records, key=lambda r: r.path))
    (out_dir / MANIFEST_NAME).write_bytes(manifest.to_json().encode("utf-8"))
    return manifest


def write_site_zip(site_dir: Path, manifest: Manifest, zip_path: Path) -> Path:
    """Pack a generated site in the shared real-site format (``www/``, ``pages.jsonl``,
    ``truth/``), so ``scrapy-denoise bench sites --zip`` scores it like the shared sites."""
    site_dir = Path(site_dir)
    rows: list[str] = []
    truths: list[str] = []
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(site_dir.rglob("*")):
            if path.is_file() and path.name != MANIFEST_NAME:
                archive.write(path, "www/" + path.relative_to(site_dir).as_posix())
        for n, page in enumerate(manifest.pages):
            truth_path = f"truth/{n:05d}.txt" if page.kind == "article" else None
            if truth_path is not None:
                archive.writestr(truth_path, page.text or "")
                meta = {"truth_path": truth_path, "title": page.title, "date": page.date}
                truths.append(json.dumps(meta, ensure_ascii=False))
            row = {
                "path": page.path,
                "file": page.file,
                "kind": page.kind,
                "noise_type": page.noise_type,
                "truth_path": truth_path,
            }
            rows.append(json.dumps(row, ensure_ascii=False))
        archive.writestr("pages.jsonl", "\n".join(rows) + "\n")
        archive.writestr("truth/index.jsonl", "\n".join(truths) + "\n")
    return Path(zip_path)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m demosite.generate", description="Write the Demo Daily static site."
    )
    parser.add_argument("out_dir", type=Path, help="directory to write the site into")
    parser.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
    parser.add_argument(
        "--zip", type=Path, help="also pack the site in the shared site format into this file"
    )
    args = parser.parse_args(argv)
    manifest = generate(args.out_dir, seed=args.seed)
    if args.zip:
        print(f"packed the site into {write_site_zip(args.out_dir, manifest, args.zip)}")
    n_zh = sum(1 for p in manifest.articles if p.lang == "zh")
    print(
        f"wrote {len(manifest.pages)} pages ({len(manifest.articles)} articles, {n_zh} Chinese; "
        f"{len(manifest.noise)} noise) to {args.out_dir}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
