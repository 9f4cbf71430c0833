"""The public entry point: one page in, one :class:`Article` or :class:`PageVerdict` out.

``Denoiser.extract`` is exactly the work the Scrapy pipeline does on a page and
``Denoiser.classify`` exactly the middleware's, so the benchmark measures what the crawl runs.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Iterable, Mapping
from dataclasses import replace
from types import TracebackType
from typing import TYPE_CHECKING, Any

from .article import Article
from .article_lines import ArticleLines
from .dates import url_date
from .document import Document, load_document, text_chars
from .first_pages import FirstPage, FirstPages
from .language import detect_language
from .metadata import extract_metadata, names_site
from .metadata.canonical import names_itself
from .methods import Method, create_method
from .methods.header_lines import without_header
from .methods.line_rules import without_rule_lines
from .methods.linestats import keyed_lines
from .methods.template import Unit, extracted_units, page_units, template_lines
from .options import DenoiseOptions
from .page.classifier import PageClassifier, PageModel, declares_article
from .page.features import page_features
from .page.links import MIN_DATED, is_site_map, outgoing_links
from .page.rules import is_home_page
from .page.verdict import PageVerdict

if TYPE_CHECKING:
    from .learning import SiteLearner
    from .store import Store

__all__ = ["Denoiser"]

logger = logging.getLogger(__name__)

#: non-blank characters of extracted text below which a page is never a duplicate
DUPLICATE_MIN_CHARS = 100
#: the two bases of a page fingerprint (:func:`_fingerprint`), FINGERPRINT_BASIS_CHARS long
_MAIN_BASIS = "main:"
_PAGE_BASIS = "page:"


class Denoiser:
    """Extracts articles and classifies pages, learning each site's boilerplate as it goes.

    ``store`` is where learned site state lives: ``None`` keeps it in memory for this
    object's lifetime, a database URL (``sqlite:///file.db``, ``postgresql+psycopg://...``)
    or a path to a SQLite file (a :class:`~pathlib.Path`) shares it between runs and
    processes, ``False`` disables site learning entirely (single page methods only). A
    Denoiser with a store cannot be used after :meth:`close`: what it learned then would
    be lost without a word.

    Only a page whose URL has a scheme and a host belongs to a site: without one
    (``None``, a relative path, ``file:///...``) it is read as a single page, and teaches
    no site anything.
    """

    def __init__(
        self,
        method: str | None = None,
        *,
        store: str | os.PathLike[str] | Store | bool | None = None,
        options: DenoiseOptions | None = None,
        **overrides: Any,
    ) -> None:
        opts = options or DenoiseOptions()
        if method is not None:
            overrides["method"] = method
        if overrides:
            opts = replace(opts, **overrides)
        self.options = opts
        self._method: Method = create_method(opts.method, opts.method_params)
        self._classifier = PageClassifier(opts.rules, _page_model(opts.page_model))
        self._learner: SiteLearner | None = None
        self._owns_store = False
        self._closed = False
        if store is not False and (opts.templates or opts.line_stats):
            self._learner = self._open_learner(store)
        self._first_pages = (
            FirstPages(opts.revisit_first)
            if opts.revisit_first and self._learner is not None and opts.line_stats
            else None
        )
        self._article_lines = (
            ArticleLines()
            if opts.refilter_lines and self._learner is not None and opts.line_stats
            else None
        )

    def _open_learner(self, store: str | os.PathLike[str] | Store | bool | None) -> SiteLearner:
        from .learning import SiteLearner
        from .store import Store

        if isinstance(store, Store):
            store_obj = store
        elif store == "":
            # what an unset environment variable gives: an in-memory store would lose the
            # learning without a word
            raise ValueError("store is an empty URL: give None for a store in memory")
        elif store is None or store is True or isinstance(store, str | os.PathLike):
            store_obj = Store.open(None if store is None or store is True else store)
            self._owns_store = True
        else:
            # an int or a list used to give an in-memory store, and a crawl's learning
            # was lost at exit
            raise TypeError(
                "store must be a database URL, a path to a SQLite file, a Store, None "
                f"(in memory) or False (no site learning), not {type(store).__name__}"
            )
        return SiteLearner(
            store_obj,
            owner=self.options.owner,
            flush_every=self.options.flush_every,
            site_prefixes=self.options.site_prefixes,
        )

    def preload(self) -> None:
        """Load the page and block models now instead of on the first page that needs them.

        A crawl calls this when it opens, so a wrong model path or a model file from an
        incompatible version stops it at once with the reason, instead of failing on every
        page; a script that wants the same can call it too.
        """
        doc = load_document(_PRELOAD_PAGE, "")
        model = self._classifier.model
        if model is not None:
            model.noise_probability(page_features(doc))
        self._method.extract(doc)

    def __repr__(self) -> str:
        # What a log line or a debugger needs to tell two Denoisers apart: the method, where
        # the learning goes (the store's URL without its password) and whether it is open.
        if self._closed:
            return f"Denoiser(method={self.method!r}, closed)"
        store = "False" if self._learner is None else repr(self._learner.store)
        return f"Denoiser(method={self.method!r}, store={store})"

    @property
    def method(self) -> str:
        return self._method.name

    @property
    def learner(self) -> SiteLearner | None:
        return self._learner

    # -- page filter ------------------------------------------------------------------

    def classify(
        self, body: bytes | str, url: str | None = "", headers: Mapping[str, str] | None = None
    ) -> PageVerdict:
        """Is this page an article or a noise page (index, list, tag, search, form, ...)?"""
        return self.classify_document(self.load(body, url, headers))

    def classify_document(
        self, doc: Document, *, record: bool = False, count: bool = True
    ) -> PageVerdict:
        """The page filter's verdict; ``record=True`` (the crawl) also fingerprints noise
        pages, so "content changes on every visit" can fire on index pages, which never
        reach extraction (article pages are fingerprinted when extracted).

        Each page classified with a learner also counts where it links to, which the
        ``navigation_page`` rule reads for the pages fetched after it (:mod:`.page.links`).

        With a store, every verdict is counted per site (``count=False`` for a page whose
        verdict is already counted): noise pages are never stored otherwise, and the crawl
        summary's "noise pages by reason" and score chart are read from these counts. Core
        and crawl count the same way because both come through here; a caller who
        classifies a page and then extracts it should pass the verdict to
        :meth:`extract_document` so it is counted once.
        """
        self._check_open()
        learner = self._learner
        history = learner.page_history(doc.url) if learner and doc.url else None
        by_links = self.options.rules.navigation_min_links is not None
        links = None
        site = learner.site_key(doc.url) if learner is not None else ""
        # Only where the site has shown that its articles carry dates we can find: on a site
        # whose dates we miss, every article would look like a site page. Its pages that
        # passed the filter with a date show it, and so do links from content to URLs that
        # carry a date (the home page's list of /2022/05/11/... posts), which are there
        # from the first page on, when a crawl fetches the site pages its menus link to.
        if learner is not None and site and by_links and learner.dated(site) >= MIN_DATED:
            links = learner.links_to(doc.url)
        verdict = self._classifier.classify(doc, history, links)
        if learner is not None and site and (count or record):
            if by_links:
                navigation, content = outgoing_links(doc)
                meta = None if verdict.is_noise else extract_metadata(doc)
                unsigned = (
                    meta is not None
                    and meta.published is None
                    and (meta.author is None or names_site(doc, meta.author))
                )
                if verdict.reason == "navigation_page" or unsigned or is_site_map(doc.url):
                    # A site page's links are the site's structure too: the links in its
                    # prose to the next page of the documentation are no article's. So are
                    # those of a page that passed with neither date nor author, which is
                    # how site pages pass before the rule can judge them: crawled
                    # breadth-first, flink-blog's docs pages passed one after the other,
                    # each "linked from content" by the one before (precision 0.894 and
                    # 0.915 -> 0.963 and 0.963; depth-first 0.967 either way). And so are
                    # those of a site map, which lists the about and policy pages.
                    navigation |= content
                    content = set()
                if unsigned:
                    learner.note_unsigned(doc.url, site)
                learner.record_links(navigation, content, home=is_home_page(doc.url))
                # counted until the site has the evidence it needs: a URL date is a regex
                # and a date parse per link, a hundred and more links per page
                if learner.dated(site) < MIN_DATED:
                    dated = sum(1 for url in content if url_date(url) is not None)
                    if meta is not None and meta.published is not None:
                        dated += 1
                    if dated:
                        learner.count_dated(site, dated)
            if count:
                learner.count_verdict(site, verdict)
            if record and verdict.is_noise:
                # A page the rule judged by its changes was fingerprinted on its extracted
                # text on the visits before: hashed whole now, it would change basis and
                # never count another change (see _fingerprint).
                judged_by_changes = verdict.reason == "changing_content"
                lines = self._method.extract(doc).lines if judged_by_changes else []
                learner.record_fingerprint(doc.url, site, _fingerprint(doc, lines))
        return verdict

    # -- extraction -------------------------------------------------------------------

    def load(
        self, body: bytes | str, url: str | None = "", headers: Mapping[str, str] | None = None
    ) -> Document:
        # None is what a dataset or a caller without a URL passes; the page then has no site.
        # Wrong types are the caller's bug, said here: deep inside they were "object of type
        # 'int' has no len()" or "'list' object has no attribute 'items'".
        if not isinstance(body, (bytes, str)):
            raise TypeError(f"body must be bytes or str, not {type(body).__name__}")
        if url is not None and not isinstance(url, str):
            raise TypeError(f"url must be a str or None, not {type(url).__name__}")
        if headers is not None:
            if not isinstance(headers, Mapping):
                raise TypeError(f"headers must be a mapping, not {type(headers).__name__}")
            headers = {_header_text(k): _header_text(v) for k, v in headers.items()}
        return load_document(body, url or "", headers, max_bytes=self.options.max_bytes)

    def extract(
        self,
        body: bytes | str,
        url: str | None = "",
        headers: Mapping[str, str] | None = None,
        *,
        learn: bool = True,
    ) -> Article:
        """Main text and metadata of one page.

        With ``learn=True`` the page also updates its site's templates, line statistics and
        fingerprint, unless the page filter judges it a noise page: list and tag pages
        repeat article text, and learning from them would turn real content into "common
        noise" (see BENCHMARKS.md, "learning from article pages only"). With
        ``learn=False`` the store is only read: the verdict is not counted either, so
        looking at a page (``scrapy-denoise extract`` or ``report`` on a crawl's store)
        leaves the crawl's numbers as they were.
        """
        return self.extract_document(
            self.load(body, url, headers), learn=learn, body=body, headers=headers
        )

    def extract_document(
        self,
        doc: Document,
        *,
        learn: bool = True,
        verdict: PageVerdict | None = None,
        body: bytes | str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Article:
        """:meth:`extract` on a page already loaded (:meth:`load`). ``body`` and
        ``headers``, what ``doc`` was loaded from, are kept for :meth:`revisit` with
        ``DenoiseOptions.revisit_first``."""
        self._check_open()
        opts = self.options
        learner = self._learner
        if verdict is None:
            verdict = self.classify_document(doc, count=learn)
        learn = learn and not (opts.skip_noise_pages and verdict.is_noise)
        site = learner.site_key(doc.url) if learner else ""
        meta = extract_metadata(doc)
        extraction = self._method.extract(doc)
        identity = _identity(doc, extraction.lines, verdict)
        duplicate_of, replaces = self._duplicate_of(doc, site, identity)
        teach = learn and duplicate_of is None and replaces is None
        units = self._template_units(
            doc, site, teach and self._first_visit(doc.url), extraction.kept
        )
        lines = _without_templates(extraction.lines, units)
        removed_templates = len(extraction.lines) - len(lines)
        lines = without_rule_lines(lines)
        counted = None
        removed_lines = 0
        if learner is not None and opts.line_stats and site:
            counted = lines
            kept = learner.filter_lines(site, lines, learn=teach, url=doc.url)
            removed_lines = len(lines) - len(kept)
            lines = kept
        if not opts.keep_headline:
            # after learning, which counts the same lines whichever way this is set
            lines = without_header(lines, meta.title, meta.published, meta.author)
        text = "\n".join(lines)
        if learner is not None and learn and site:
            fingerprint = _fingerprint(doc, extraction.lines)
            learner.record_fingerprint(doc.url, site, fingerprint, counted)
            if not verdict.is_noise and duplicate_of is None:
                # a page that declares itself an article with its publication time is not
                # a list of others, whatever it quotes: a year in review lists the year's
                # stories under their titles (page/listing.py)
                learner.note_passed(
                    doc.url, site, meta.title, lines, judge=not declares_article(doc)
                )
                if body is not None and self._first_pages is not None:
                    self._first_pages.keep(
                        FirstPage(doc.url, body, headers, verdict, hash(text)),
                        learner.pages_learned(site),
                    )
                if self._article_lines is not None:
                    keyed = keyed_lines(lines, learner.line_params)
                    self._article_lines.keep(
                        doc.url, site, (pair[0] for pair in keyed if pair is not None)
                    )
        return Article(
            url=doc.url,
            text=text,
            title=meta.title,
            published=meta.published,
            author=meta.author,
            lang=detect_language(doc),
            site=site,
            method=self._method.name,
            verdict=verdict,
            warnings=doc.warnings,
            removed_templates=removed_templates,
            removed_lines=removed_lines,
            duplicate_of=duplicate_of,
            replaces=replaces,
            identity=identity,
        )

    def revisit(self) -> list[Article]:
        """The articles of the first pages of each site (``DenoiseOptions.revisit_first``),
        extracted again with what their sites learned since, where that changed their
        text; the pages are forgotten. Nothing is learned from them a second time.

        A crawl calls this at its end and rewrites those rows (:mod:`.first_pages` has
        why), before it asks :meth:`noise_pages_passed`: the listing rule judges a changed
        page by its new text. A page that fails now is logged and left out: its first
        extraction stands.
        """
        self._check_open()
        pages = self._first_pages.take() if self._first_pages is not None else []
        changed = []
        for page in pages:
            try:
                doc = self.load(page.body, page.url, page.headers)
                article = self.extract_document(doc, learn=False, verdict=page.verdict)
            except Exception:
                logger.exception("extracting %s again failed; its first text stands", page.url)
                continue
            if self._article_lines is not None:
                self._article_lines.forget(page.url)  # its new text has what was learned
            if hash(article.text) != page.text_hash:
                changed.append(article)
                if self._learner is not None and article.site:
                    # the listing rule judges the page by the text it is stored with
                    lines = article.text.split("\n") if article.text else []
                    self._learner.revise_passed(article.url, article.site, lines)
        return changed

    def outdated(self) -> list[str]:
        """The URLs of the articles this denoiser extracted (and learned from) whose text
        holds lines that their site's line statistics judge noise by now, in the order met
        (``DenoiseOptions.refilter_lines``; :mod:`.article_lines` has why). Give each one's
        text to :meth:`refilter`. Empty without ``refilter_lines`` or a learner.

        A crawl asks this at its end, after :meth:`revisit` (whose articles are not among
        them) and before :meth:`noise_pages_passed`, and rewrites the stored rows.
        """
        self._check_open()
        learner, memory = self._learner, self._article_lines
        if learner is None or memory is None:
            return []
        return memory.holding(learner.noise_line_keys)

    def refilter(self, url: str, text: str) -> str:
        """``text``, the article extracted from ``url``, without the lines its site's line
        statistics judge noise now. Nothing is learned; the listing rule judges the page by
        the new text, and :meth:`outdated` no longer names it."""
        self._check_open()
        learner = self._learner
        if learner is None or not self.options.line_stats:
            return text
        site = learner.site_key(url)
        if not site or not text:
            return text
        lines = text.split("\n")
        kept = learner.filter_lines(site, lines, learn=False)
        if self._article_lines is not None:
            self._article_lines.forget(url)
        if len(kept) == len(lines):
            return text
        learner.revise_passed(url, site, kept)
        return "\n".join(kept)

    def noise_pages_passed(self) -> list[tuple[str, str]]:
        """(URL, reason) of the pages this denoiser let through that the evidence of every
        page since judges noise pages: site pages by ``navigation_page``, and listings
        (``listing``), pages whose lines are the titles of the site's other articles
        (:mod:`.page.listing`).

        Both judge a page by pages that come after it. ``navigation_page`` judges only
        once its site has shown three signs that it dates its articles, and by the links of
        the pages classified before it. A crawl fetches a site's menus and footer first, so
        its about, policy and documentation pages pass before those signs are in, and the
        next crawl found and deleted them: a generated Docusaurus site's first crawl stored
        38 of its 40 docs pages in two runs of three, 16 in the third. A list page is
        fetched before the articles it lists, whose titles tell it. The crawl asks this at
        its end and deletes their rows (``denoise/store/withdrawn``).

        The site pages are those that passed with neither date nor author (or only the
        site's own name as author), the listings those that were extracted; both are
        remembered in this process's memory as its links are
        (:class:`~.learning.SiteLearner`): a core process restarted in mid-crawl judges
        only what it classified itself, each process of a distributed crawl by its own
        pages. What was learned from the pages (templates, line counts) stays, as when a
        later crawl deletes a row. Empty without a learner (``store=False``).
        """
        self._check_open()
        learner = self._learner
        if learner is None:
            return []
        found: dict[str, str] = {}
        if self.options.rules.navigation_min_links is not None:
            classifier = self._classifier
            for url, site in learner.unsigned_pages():
                if learner.dated(site) >= MIN_DATED and classifier.linked_as_site_page(
                    learner.links_to(url), crawled=True
                ):
                    found[url] = "navigation_page"
        for url, _site in learner.listings():
            found.setdefault(url, "listing")
        return list(found.items())

    def learn(
        self, body: bytes | str, url: str | None, headers: Mapping[str, str] | None = None
    ) -> PageVerdict:
        """Update the site's learned state from a page without extracting it."""
        doc = self.load(body, url, headers)
        verdict = self.classify_document(doc)
        learner = self._learner
        if learner is None or (self.options.skip_noise_pages and verdict.is_noise):
            return verdict
        # the loaded URL: an invalid one is dropped there, as extract and classify read it
        url = doc.url
        site = learner.site_key(url)
        if not site:
            return verdict
        extraction = self._method.extract(doc)
        extracted = extraction.lines
        identity = _identity(doc, extracted, verdict)
        teach = self._duplicate_of(doc, site, identity) == (None, None)
        units = self._template_units(doc, site, teach and self._first_visit(url), extraction.kept)
        counted = None
        if self.options.line_stats:
            counted = without_rule_lines(_without_templates(extracted, units))
            learner.filter_lines(site, counted, learn=teach, url=url)
        learner.record_fingerprint(url, site, _fingerprint(doc, extracted), counted)
        return verdict

    def _template_units(
        self, doc: Document, site: str, count: bool, kept: Iterable[int]
    ) -> list[Unit]:
        """The page's units that are its site's common noise and that the extraction that
        kept the nodes ``kept`` can hold (:func:`~.methods.template.extracted_units`), after
        counting the page in the template batch when ``count``; none without a learner, URL
        or templates."""
        learner = self._learner
        if learner is None or not self.options.templates or not site:
            return []
        units = page_units(doc, learner.template_params)
        if count:
            learner.learn_templates(site, units)
        return extracted_units(doc, learner.match_templates(site, units), kept)

    def _duplicate_of(
        self, doc: Document, site: str, identity: str | None
    ) -> tuple[str | None, str | None]:
        """The URL under which this process met the article with this ``identity`` first
        (see :func:`_identity`), on the same site, under another URL; and the one this
        page takes the article over from instead (then the first is None).

        Sites serve one article under many addresses (WordPress's ``?replytocom=`` link
        under every comment, tracking parameters, ``/post/`` beside
        ``/post/index.html``). Learned from twice, its lines would count as recurring on
        the site, and line statistics would cut them from the copy; stored twice, it
        would be two rows (the store checks identities too, for copies another process
        or an earlier crawl met).

        The first copy met is the article's, unless a later one names itself its
        canonical URL (``<link rel="canonical">``) and the first did not: a crawl met
        Drupal's ``/node/173`` before the story's own ``/news/2022/08/slug``, and SPIP's
        ``spip.php?article14`` before ``/Fermeture-de-classe``, and stored the article
        under the address its page says is not its own. The later copy then takes over:
        the crawl moves the stored row to its URL (``Article.replaces``).
        """
        learner = self._learner
        if learner is None or identity is None or not site:
            return None, None
        canonical = names_itself(doc)
        first = learner.first_url(site, identity, doc.url, canonical=canonical)
        if first is not None and canonical and learner.take_over(site, identity, doc.url):
            return None, first
        return first, None

    def _first_visit(self, url: str) -> bool:
        """Does this visit of ``url`` count towards its site's templates?

        Only the first does: a page learned twice (``learn`` then ``extract``, a re-crawl
        into a persistent store, a request redelivered after a crash) would count its own
        tags again. Line statistics judge the same from the fingerprint, and count the
        lines a later visit gained (:meth:`.SiteLearner.filter_lines`): counting a page's
        lines on every visit would bring its article's lines one page closer to the bound
        each time, and with the paper's bound on a small site (a line is noise once it is
        seen twice) the second visit removed the whole text. Later visits still update the
        fingerprint, which is what "content changes between visits" reads.
        """
        return self._learner is not None and self._learner.page_history(url) is None

    # -- lifecycle --------------------------------------------------------------------

    def flush(self) -> None:
        self._check_open()
        if self._learner is not None:
            self._learner.flush()

    def close(self) -> None:
        """Write pending learned state; the store is closed when this object opened it.
        Closing twice is harmless."""
        if self._learner is not None:
            self._learner.close()
            if self._owns_store:
                self._learner.store.close()
            self._learner = None
            self._closed = True

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(
                "this Denoiser is closed: what it learns now would never be stored "
                "(make a new one on the same store to go on)"
            )

    def __enter__(self) -> Denoiser:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


#: a page with one paragraph: enough text for every method to score a block
_PRELOAD_PAGE = (
    "<html><body><h1>Preload</h1><p>A first paragraph of a story, long enough to be read, "
    "with a sentence or two in it. It loads the models.</p></body></html>"
)


def _without_templates(lines: list[str], units: list[Unit]) -> list[str]:
    """``lines`` without the text of template ``units`` (see :mod:`.methods.template` for
    why templates are dropped from the output rather than deleted from the tree)."""
    if not units:
        return lines
    drop = template_lines(lines, units)
    return [line for line, dropped in zip(lines, drop, strict=True) if not dropped]


def _page_model(spec: str | None) -> PageModel | None:
    if not spec:
        return None
    from .page.model import PageSvm

    return PageSvm(None if spec == "default" else spec)


def _identity(doc: Document, lines: list[str], verdict: PageVerdict) -> str | None:
    """The article's identity: a hash of the page's ``<title>`` and of the text the
    method extracted, before site learning (which would change it between a page and its
    copy met later). Noise pages, pages without a URL, and pages with less than
    :data:`DUPLICATE_MIN_CHARS` characters of text have none: an empty extraction is no
    identity."""
    if not doc.url or verdict.is_noise:
        return None
    text = "\n".join(lines)
    if text_chars(text) < DUPLICATE_MIN_CHARS:
        return None
    return _content_hash(f"{doc.head.title or ''}\n{text}")


def _header_text(value: object) -> str:
    """A header name or value as text: bytes as HTTP sends them (Latin-1), and of a list
    (Scrapy's ``Headers`` keeps one per header line) the last, as Scrapy reads it."""
    if isinstance(value, list | tuple):
        value = value[-1] if value else ""
    return value.decode("latin-1") if isinstance(value, bytes) else str(value)


def _fingerprint(doc: Document, lines: list[str]) -> str:
    """What the "changing content" rule compares between visits: a hash of the text the
    method extracted (``lines``), or of all the page's text when there is none (noise
    pages, never extracted; index pages, whose changing link lists are exactly what the
    rule needs), prefixed with which of the two it is (``FINGERPRINT_BASIS_CHARS``).

    The text is taken before site learning: what the site has learned changes between
    visits (a re-crawl of an unchanged site counted pages learned early as changed), the
    page need not. And a change of basis is no change: hashed whole as a noise page on one
    visit and on its extracted text as an article on the next, a page counted a change on
    each flip, and a page judged noise once by the rule stayed noise for good.
    """
    if lines:
        return _MAIN_BASIS + _content_hash("\n".join(lines))
    return _PAGE_BASIS + _content_hash("".join(piece for _, piece in doc.iter_text()))


def _content_hash(text: str) -> str:
    return hashlib.md5(text.encode("utf-8"), usedforsecurity=False).hexdigest()
