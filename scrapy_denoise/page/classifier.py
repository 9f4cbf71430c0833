"""Rules first, then (when a model is given) the page SVM: the paper's two-stage filter;
in a crawl, then the site's links (``navigation_page``)."""

from __future__ import annotations

from typing import Any, Protocol

from ..document import Document
from ..metadata import extract_metadata, names_site
from ..metadata._page import is_article, ld_types, page_json_ld
from .features import PageFeatures, page_features
from .links import LinkCount
from .rules import PageHistory, PageRules, declaration_rule, feature_rules, url_rules
from .verdict import PageVerdict

__all__ = [
    "PageClassifier",
    "PageModel",
    "declares_article",
    "declares_collection",
    "model_verdict",
]

#: schema.org types of a page that lists other pages: an archive, category or tag page
#: (``CollectionPage``), a search (``SearchResultsPage``), an author's page
#: (``ProfilePage``). Not ``ItemList``: articles carry one for a list inside the story
#: (17 wcxb article pages, "10 best ..." posts), and not ``WebPage``, which every page is.
_COLLECTION_TYPES = frozenset({"CollectionPage", "SearchResultsPage", "ProfilePage"})
#: posts a ``Blog`` lists on a page of its list (:func:`_lists_posts`)
_MIN_LISTED_POSTS = 2
#: ``<body>`` classes that name a view of other pages by themselves (:func:`_body_declares`):
#: WordPress's ``body_class()`` on a search and a soft 404, and on a media file's own page
#: (an "attachment page": the file and its caption, linked from the post that shows it);
#: Ghost's tag and author templates; Drupal's taxonomy term pages
_LIST_BODY_CLASSES = frozenset(
    {
        "search-results",
        "search-no-results",
        "error404",
        "single-attachment",
        "tag-template",
        "author-template",
        "path-taxonomy",
    }
)
#: the kinds of WordPress archive beside its ``archive`` class; not ``tax-*`` (a custom
#: taxonomy's archive: one wcxb article page, a course's materials, carries one)
_WORDPRESS_ARCHIVES = frozenset({"category", "tag", "author", "date"})


def declares_article(doc: Document) -> bool:
    """Does the page declare itself an article with a publication time (Open Graph's
    ``article:published_time``)?

    The page SVM judges layout, and a news article under columns of links to other stories
    (Daily Mail) looks like a list page to it. Publishing platforms write this tag on posts
    rather than on their lists, so it overrules the SVM's noise verdict, not the rules'. Of
    the labelled pages the shipped SVM marked noise (30 articles, 102 noise pages), 6
    articles and 1 noise page (a wcxb service page) carry it; on development pages, 3
    articles and that page (2026-11-24). Open Graph's ``og:type`` alone says nothing here:
    26 of those noise pages are ``article`` by it too.
    """
    value = doc.head.meta.get("article:published_time")
    return bool(value and value.strip())


def declares_collection(doc: Document) -> bool:
    """Does the page say it is a list of other pages (and nothing an article), in its
    JSON-LD or in the classes its CMS writes on ``<body>`` (:func:`_body_declares`)?

    SEO plugins write the page's own type into its JSON-LD (Yoast's and Rank Math's
    ``@graph`` on every WordPress archive, category, tag, author and search page), and a
    type a publisher declares is firmer evidence than layout: on the shared data, 13 pages
    declare one of :data:`_COLLECTION_TYPES` with no article beside it, all of them wcxb
    collection and listing pages, none an article (2026-11-28); four of them had passed the
    rules and the SVM. Only top-level objects and ``@graph`` members count: a
    ``NewsArticle`` that is ``isPartOf`` a ``CollectionPage`` (two google-trends stories)
    names its section, not itself. A verdict of noise needs all of the page's JSON-LD read:
    a blob that does not parse, or more objects than are read, may hold the article.
    """
    if _body_declares(doc):
        return True
    if not doc.head.json_ld:
        return False
    ld = page_json_ld(doc)
    if not ld.complete:
        return False
    found = False
    for obj in ld.objects:
        if is_article(obj):
            return False
        found = found or any(k in _COLLECTION_TYPES for k in ld_types(obj)) or _lists_posts(obj)
    return found


def _body_declares(doc: Document) -> bool:
    """Do the ``<body>`` classes name a list view (:data:`_LIST_BODY_CLASSES`, or
    WordPress's ``archive`` with its kind: ``archive date`` on ``/2019/05/``)?

    Themes print ``body_class()`` (WordPress), ``{{body_class}}`` (Ghost) or the page's
    path classes (Drupal) on every page they render, whatever the layout; a generated
    WordPress news site's month archives of two posts' teasers and its photos' attachment
    pages, which no URL pattern names and the SVM took for articles, were stored by its
    crawl (80 of 165 rows, 2026-11-29). Of the shared data's 6,613 pages the classes
    name 5, all wcxb listing pages (WordPress categories, Drupal taxonomy terms).
    """
    body = doc.root.find("body")
    classes = body.get("class") if body is not None else None
    if not classes:
        return False
    tokens = set(classes.lower().split())
    if tokens & _LIST_BODY_CLASSES:
        return True
    return "archive" in tokens and bool(tokens & _WORDPRESS_ARCHIVES)


def _lists_posts(obj: dict[str, Any]) -> bool:
    """Is ``obj`` a ``Blog`` that lists several of its posts (``blogPost``)?

    Docusaurus writes one on every page of a blog's list (``BlogListPageStructuredData``),
    each post a ``BlogPosting`` inside it, and a generated Docusaurus site's ``/blog/``,
    whose URL no pattern names, was stored as an article of its posts' excerpts. A ``Blog``
    naming one post is that post's page: the only top-level ``Blog`` of the shared data
    (a wcxb article, 2026-11-29), whose ``blogPost`` holds itself.
    """
    if "Blog" not in ld_types(obj):
        return False
    posts = obj.get("blogPost") or obj.get("blogPosts")
    return isinstance(posts, list) and len(posts) >= _MIN_LISTED_POSTS


def model_verdict(score: float, declared_article: bool) -> PageVerdict:
    """The page SVM's verdict from its noise probability: noise from one half on, unless the
    page declares an article (:func:`declares_article`). One function for the crawl and
    the held-out report (``models.train_pages``), which scores cached features."""
    if score >= 0.5 and declared_article:
        return PageVerdict(False, score, "declared_article")
    return PageVerdict(score >= 0.5, score, "model")


class PageModel(Protocol):
    """The seam for the second stage: anything that scores a feature vector."""

    def noise_probability(self, features: PageFeatures) -> float: ...


class PageClassifier:
    def __init__(self, rules: PageRules, model: PageModel | None = None) -> None:
        self.rules = rules
        self.model = model
        self._pattern = rules.compiled_patterns()
        self._navigation_min = rules.navigation_min_links

    def classify(
        self,
        doc: Document,
        history: PageHistory | None = None,
        links: LinkCount | None = None,
    ) -> PageVerdict:
        """``history`` and ``links`` are what the crawl knows of the page's URL (its earlier
        visits, the pages linking to it); without them the rules that read them stay off.

        ``navigation_page`` is judged last, on pages the rules and the SVM let through: it
        reads the page's date and author, which cost more than every other feature, and
        the extraction of an article page reuses them (:func:`~..metadata.extract_metadata`
        keeps them with the document).
        """
        if "not_html" in doc.warnings:  # data, not a page: no rule or model reads it
            return PageVerdict(True, 1.0, "not_html")
        # apply_rules in two steps: a URL verdict needs no page features
        verdict = url_rules(doc.url, self.rules, pattern=self._pattern)
        if verdict is None and self.rules.declared_collection:
            verdict = declaration_rule(declares_collection(doc), self.rules)
        if verdict is None:
            features = page_features(doc)
            verdict = feature_rules(features, self.rules, history)
            if verdict is None:
                if self.model is None:
                    verdict = PageVerdict(False, 0.0, "article")
                else:
                    score = self.model.noise_probability(features)
                    verdict = model_verdict(score, declares_article(doc))
        if verdict.is_noise or not self.linked_as_site_page(links):
            return verdict
        meta = extract_metadata(doc)
        if meta.published is None and (meta.author is None or names_site(doc, meta.author)):
            return PageVerdict(True, 1.0, "navigation_page")
        return verdict

    def linked_as_site_page(self, links: LinkCount | None, *, crawled: bool = False) -> bool:
        """Do ``links`` link to a page the way a site links to its own pages: from
        navigation on :attr:`~.rules.PageRules.navigation_min_links` pages or more, and
        from no page's content? (``navigation_page`` also needs the page to carry neither
        date nor author.)

        ``crawled``: the links are the whole crawl's, and then a home page's content links
        count as navigation (:meth:`~.links.LinkIndex.add`). Not before: a crawl fetches
        the stories its home page leads to before the section pages that list them too.
        """
        return (
            links is not None
            and self._navigation_min is not None
            and not links.content
            and (crawled or not links.home)
            and links.navigation >= self._navigation_min
        )
