"""Make a crawled page safe to show inside a report, and find its blocks in that copy.

The page report shows the page "as a reader sees it" in a sandboxed ``<iframe srcdoc>``.
The sandbox (no ``allow-scripts``) and the framed document's Content-Security-Policy already
stop scripts and network loads; this module removes them from the markup too, so that the
report stays harmless in a viewer that ignores one of those layers (an old browser, a mail
client, a file preview) and so that opening a report never contacts the page's servers.

What goes, and why:

* elements that run code, load documents or are invisible to a reader: scripts, frames,
  plug-ins, ``<link>``, ``<meta>`` (refresh, CSP overrides), ``<base>``, ``<template>``;
* SVG and MathML whole: their content is parsed by different rules (foreign content) in a
  browser than by libxml2, the classic source of "mutation" escapes, and they can carry
  script and links of their own;
* raw-text elements whose content libxml2 and a browser split differently (``<xmp>``,
  ``<noframes>``, ``<noembed>``, ``<plaintext>``): an attribute value holding
  ``</noframes><img onerror=...>`` would otherwise become live markup when re-parsed;
* every ``on*`` attribute and every URL attribute except ``data:`` images; link targets
  are kept in ``data-denoise-href`` (shown in the report) and ``href`` becomes ``#``, so
  links still look like links but go nowhere;
* in CSS (``<style>`` and ``style=``): ``url(...)``, ``image-set(...)``, ``@import`` and the
  old script hooks (``expression``, ``behavior``, ``-moz-binding``); CSS hiding them behind
  escapes is dropped whole.

The page's own ``data-denoise-*`` attributes are removed as well: the report uses that
prefix for its annotations, and a page must not be able to fake them. Nor may its CSS
recolour them (``html body [data-denoise-fate]{outline:... green !important}`` beat the
report's own rules on specificity, so a removed block looked kept): the report's CSS sits
in a cascade layer declared before any of the page's, whose ``!important`` rules win over
every unlayered one whatever their specificity, and ``!important`` is taken out of the
page's ``style=`` attributes, which would otherwise still win.
"""

from __future__ import annotations

import re
from copy import deepcopy

import lxml.etree as etree

from ..document import DROPPED_TAGS, Document, load_display_tree

__all__ = [
    "ALLOWED_IMAGE",
    "align_nodes",
    "display_tree",
    "fallback_tree",
    "sanitize_css",
    "sanitize_tree",
    "serialize_document",
]

#: Removed with their content (their tail text stays).
_REMOVED = frozenset(
    {
        "script",
        "noscript",
        "iframe",
        "frame",
        "frameset",
        "noframes",
        "noembed",
        "object",
        "embed",
        "applet",
        "param",
        "link",
        "meta",
        "base",
        "template",
        "slot",
        "portal",
        "fencedframe",
        "svg",
        "math",
        "canvas",
        "source",
        "track",
        "xml",
    }
)
#: Raw-text elements a browser reads differently from libxml2; shown as preformatted text.
_RENAMED = {"xmp": "pre", "plaintext": "pre", "listing": "pre"}
#: Allowed in ``<head>``: the title and inline CSS. Everything else there goes.
_HEAD_KEEP = frozenset({"title", "style"})

#: Attributes that hold a URL or make the browser fetch or navigate.
_URL_ATTRS = frozenset(
    {
        "href",
        "src",
        "srcset",
        "imagesrcset",
        "lowsrc",
        "dynsrc",
        "action",
        "formaction",
        "background",
        "poster",
        "data",
        "codebase",
        "classid",
        "archive",
        "cite",
        "longdesc",
        "usemap",
        "manifest",
        "ping",
        "profile",
        "xlink:href",
        "xml:base",
        "srcdoc",
        "attributionsrc",
    }
)
#: Other attributes with an effect outside the framed page.
_DROPPED_ATTRS = frozenset(
    {"target", "download", "http-equiv", "nonce", "autofocus", "integrity", "is"}
)
#: ``data:`` images a browser decodes as pictures only (never as documents).
ALLOWED_IMAGE = re.compile(r"^data:image/(?:png|gif|jpe?g|webp|bmp|avif|x-icon)[;,]", re.I)
_SCHEME_NOISE = re.compile(r"[\x00-\x20\x7f-\x9f]+")
_DANGEROUS_SCHEME = re.compile(r"^(?:javascript|vbscript|livescript|data|blob|filesystem):", re.I)

_CSS_COMMENT = re.compile(r"/\*.*?(?:\*/|$)", re.S)
# The closing parenthesis (and quote) may be missing: CSS closes what is open at the end
# of a style sheet or attribute, so ``url(http://x/y`` at the end still loads.
_CSS_URL = re.compile(r"""url\(\s*(?:"[^"]*(?:"|\Z)|'[^']*(?:'|\Z)|[^)]*)\s*(?:\)|\Z)""", re.I)
_CSS_IMAGE_SET = re.compile(r"(?:-webkit-)?image-set\((?:[^()]|\([^()]*\))*\)", re.I)
_CSS_IMPORT = re.compile(r"@import\b[^;]*;?", re.I)
_CSS_HOOKS = re.compile(r"expression\s*\(|behavior\s*:|-moz-binding|javascript:", re.I)
_IMPORTANT = re.compile(r"!\s*important", re.I)
_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6}\s?|.)", re.S)


# -- the page's full tree and its blocks ----------------------------------------------------


def display_tree(
    body: bytes | str,
    headers: dict[str, str] | None,
    doc: Document,
    *,
    max_bytes: int,
) -> etree._Element | None:
    """The page's tree as :func:`~scrapy_denoise.document.load_document` builds it, but
    keeping what the cleaner drops for the text's sake (the head and ``<style>``
    elements, inline CSS above all), so it can be shown.

    ``None`` when the document had nothing to show (binary, empty, JSON, unparsable).
    """
    if {"binary", "empty", "not_html"} & set(doc.warnings):
        return None
    return load_display_tree(body, headers, max_bytes=max_bytes)


def fallback_tree(doc: Document) -> etree._Element:
    """A copy of the cleaned tree, for when :func:`display_tree` cannot be aligned."""
    return deepcopy(doc.root)


def align_nodes(root: etree._Element, doc: Document) -> list[etree._Element] | None:
    """Elements of ``root`` standing for ``doc.nodes``, index for index.

    ``doc.nodes`` is the ``<body>`` in pre-order after the cleaner stripped
    :data:`~scrapy_denoise.document.DROPPED_TAGS`; the same walk over ``root`` skipping those
    subtrees must give the same tags. ``None`` if it does not (the trees differ).
    """
    body = root.find("body")
    if body is None:
        return None
    seq: list[etree._Element] = []
    stack: list[etree._Element] = [body]
    while stack:
        el = stack.pop()
        if not isinstance(el.tag, str) or el.tag in DROPPED_TAGS:
            continue
        seq.append(el)
        stack.extend(reversed(el))
    if len(seq) != len(doc.nodes):
        return None
    for mine, theirs in zip(seq, doc.nodes, strict=True):
        if mine.tag != theirs.tag:
            return None
    return seq


# -- sanitising ----------------------------------------------------------------------------


def sanitize_css(css: str) -> str:
    """CSS without anything that loads or runs (see the module docstring)."""
    css = _neutralise_css(_CSS_COMMENT.sub("", css))
    if "\\" in css:
        # Escapes can spell "url(" or "expression" in ways the patterns miss; such CSS is
        # dropped whole rather than decoded and re-encoded. The test is whether the
        # decoded text still has anything to neutralise once the plain text had it
        # neutralised (a style sheet that also has a plain ``url(data:image/...)`` or a
        # class named ``.expression`` must not let an escaped ``u\72l(`` through).
        unescaped = _CSS_ESCAPE.sub(_unescape_css, css)
        if _neutralise_css(unescaped) != unescaped:
            return ""
    # Style text is serialised raw: "</style" in it would close the element early.
    return css.replace("<", "\\3c ")


def _neutralise_css(css: str) -> str:
    css = _CSS_IMPORT.sub("", css)
    css = _CSS_URL.sub(_css_url, css)
    css = _CSS_IMAGE_SET.sub("none", css)
    return _CSS_HOOKS.sub("removed:", css)


def _unescape_css(match: re.Match[str]) -> str:
    value = match.group(1)
    hex_digits = value.strip()
    if hex_digits and all(c in "0123456789abcdefABCDEF" for c in hex_digits):
        code = int(hex_digits, 16)
        return chr(code) if 0 < code < 0x110000 else "\ufffd"
    return value


def _css_url(match: re.Match[str]) -> str:
    inner = match.group(0)[4:-1].strip().strip("\"'")
    if ALLOWED_IMAGE.match(_SCHEME_NOISE.sub("", inner)):
        return match.group(0)
    return "none"


def sanitize_tree(root: etree._Element) -> None:
    """Remove everything executable or loading from ``root`` in place (module docstring)."""
    doomed: list[etree._Element] = []
    for el in list(root.iter()):
        if not isinstance(el.tag, str):
            doomed.append(el)
            continue
        tag = el.tag.lower()
        if tag in _REMOVED:
            doomed.append(el)
            continue
        parent = el.getparent()
        if parent is not None and parent.tag == "head" and tag not in _HEAD_KEEP:
            doomed.append(el)
            continue
        if tag in _RENAMED:
            el.tag = _RENAMED[tag]
            tag = el.tag
        if tag in ("title", "textarea"):
            # Text only: libxml2 may have built elements inside what a browser reads as text.
            text = "".join(el.itertext())
            for child in list(el):
                el.remove(child)
            el.text = text
        elif tag == "style":
            for child in list(el):
                el.remove(child)
            el.text = sanitize_css(el.text or "")
        _sanitize_attributes(el, tag)
    for el in doomed:
        _remove_keep_tail(el)


def _sanitize_attributes(el: etree._Element, tag: str) -> None:
    for name in list(el.attrib):
        key = name.lower()
        value = el.attrib[name]
        if (
            key.startswith("on")
            or key.startswith("data-denoise-")
            or key in _DROPPED_ATTRS
            or (":" in key and key != "xml:lang")
        ):
            del el.attrib[name]
            continue
        if key == "style":
            cleaned = _IMPORTANT.sub("", sanitize_css(value))
            if cleaned.strip():
                el.attrib[name] = cleaned
            else:
                del el.attrib[name]
            continue
        compact = _SCHEME_NOISE.sub("", value)
        if key in _URL_ATTRS:
            del el.attrib[name]
            if key == "href" and tag in ("a", "area"):
                if not _DANGEROUS_SCHEME.match(compact):
                    el.set("data-denoise-href", value[:2000])
                el.set("href", "#")
            elif key == "src" and tag in ("img", "input") and ALLOWED_IMAGE.match(compact):
                el.set("src", value)
            continue
        if _DANGEROUS_SCHEME.match(compact) and not ALLOWED_IMAGE.match(compact):
            del el.attrib[name]


def _remove_keep_tail(el: etree._Element) -> None:
    parent = el.getparent()
    if parent is None:
        return
    tail = el.tail
    if tail:
        previous = el.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(el)


# -- the framed document --------------------------------------------------------------------

#: The framed page may show inline CSS and ``data:`` images, nothing else.
FRAME_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
#: the cascade layer of the report's CSS in the framed page (module docstring)
REPORT_LAYER = "denoise"


def serialize_document(root: etree._Element, extra_css: str) -> str:
    """The sanitised tree as a complete HTML document, CSP first, ``extra_css`` last in head.

    The policy ``<meta>`` must come before anything it governs, so it is the first child of
    ``<head>``; the report's own CSS comes after the page's so that it wins ties, inside
    the cascade layer declared before the page's style sheets (module docstring).
    """
    head = root.find("head")
    if head is None:
        head = etree.Element("head")
        root.insert(0, head)
    csp = etree.Element("meta")
    csp.set("http-equiv", "Content-Security-Policy")
    csp.set("content", FRAME_CSP)
    head.insert(0, csp)
    # before the page's own style sheets: the first layer declared wins among !important
    # rules, over the page's unlayered ones too (module docstring)
    layer = etree.Element("style")
    layer.text = f"@layer {REPORT_LAYER};"
    head.insert(1, layer)
    charset = etree.Element("meta")
    charset.set("charset", "utf-8")
    head.insert(0, charset)
    referrer = etree.SubElement(head, "meta")
    referrer.set("name", "referrer")
    referrer.set("content", "no-referrer")
    style = etree.SubElement(head, "style")
    style.text = f"@layer {REPORT_LAYER}{{{extra_css}}}"
    html = etree.tostring(root, method="html", encoding="unicode")
    return "<!DOCTYPE html>\n" + html
