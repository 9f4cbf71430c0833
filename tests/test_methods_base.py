from __future__ import annotations

from dataclasses import dataclass

import pytest

from scrapy_denoise.document import load_document
from scrapy_denoise.methods import DEFAULT_METHOD, create_method
from scrapy_denoise.methods.base import (
    Extraction,
    Method,
    override_params,
    render_pieces,
    text_pieces,
)
from scrapy_denoise.methods.cevc import CevcMethod
from scrapy_denoise.methods.correlativity import CorrelativityMethod
from scrapy_denoise.methods.punctuation import PunctuationMethod

PAGES = [
    b"<body><div>Hello <b>bold</b> tail<p>Para <a href='/x'>link</a> after</p>end</div>"
    b"<ul><li>one<li>two</ul>outside</body>",
    b"<body>a<br>b<table><tr><td>c</td><td>d <i>e</i></td></tr></table>f &amp; g</body>",
    b"<body><h1> Title </h1>\n\n<p>  spaced   out  </p><span>x</span><span>y</span></body>",
]


@pytest.mark.parametrize("page", PAGES)
def test_rendering_all_pieces_equals_document_lines(page: bytes) -> None:
    doc = load_document(page)
    assert render_pieces(text_pieces(doc)) == doc.lines()
    for i in range(len(doc.nodes)):
        assert render_pieces(text_pieces(doc, i)) == doc.lines(i)


def test_tails_belong_to_the_parent_and_leave_the_link() -> None:
    doc = load_document(b"<body><p>a <a href='/'>b</a> c</p></body>")
    p = doc.index[doc.root.find(".//p")]
    a = p + 1
    pieces = [(x.owner, x.text, x.in_link) for x in text_pieces(doc, p)]
    assert pieces == [(p, "a ", False), (a, "b", True), (p, " c", False)]


def test_segments_split_at_the_given_tags_lines_at_block_tags() -> None:
    doc = load_document(b"<body><div>a<b>b</b>c<p>d</p></div></body>")
    pieces = text_pieces(doc, breaks={"b"})
    assert [x.text for x in pieces] == ["a", "b", "c", "d"]
    segments = [x.segment for x in pieces]
    assert segments[0] != segments[1] != segments[2] and segments[2] == segments[3]
    lines = [x.line for x in pieces]
    assert lines[0] == lines[1] == lines[2] != lines[3]


def test_excluded_elements_keep_only_their_tail() -> None:
    doc = load_document(b"<body><p>a<select><option>no</option></select>b</p></body>")
    assert render_pieces(text_pieces(doc, exclude={"select"})) == ["a", "b"]


def test_extraction_text_joins_lines() -> None:
    assert Extraction(lines=["a", "b"]).text == "a\nb"
    assert Extraction().text == ""


def test_unknown_override_names_the_valid_parameters() -> None:
    @dataclass(frozen=True, slots=True)
    class Params:
        alpha: float = 0.5

    assert override_params(Params(), {"alpha": 0.3}) == Params(alpha=0.3)
    with pytest.raises(TypeError, match=r"alhpa.*valid: alpha"):
        override_params(Params(), {"alhpa": 0.3})


def test_the_three_methods_satisfy_the_protocol_and_are_registered() -> None:
    methods: list[Method] = [CevcMethod(), CorrelativityMethod(), PunctuationMethod()]
    assert [m.name for m in methods] == ["cevc", "correlativity", "punctuation"]
    for method in methods:
        assert type(create_method(method.name)) is type(method)
        assert isinstance(method.extract(load_document(PAGES[0])), Extraction)


@pytest.mark.parametrize("key", ["default", DEFAULT_METHOD])
def test_default_method_takes_overrides_under_either_name(key: str) -> None:
    """{"default": {...}} in DENOISE_METHOD_PARAMS used to be ignored without a word."""
    method = create_method("default", {key: {"svm_weight": 0.25}})
    assert type(method).__name__ == "BlockEnsembleMethod"
    assert method.svm_weight == 0.25  # type: ignore[attr-defined]


def test_params_of_a_method_that_is_not_running_are_logged_as_ignored(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Settings keep parameters for several methods; those not used are named, not lost."""
    with caplog.at_level("WARNING", logger="scrapy_denoise.methods"):
        create_method("default", {"cevc": {"alpha": 0.6}, "punctuation": {}})
    assert [r.getMessage() for r in caplog.records] == [
        f"method_params for cevc ignored: the extraction method is default ({DEFAULT_METHOD})"
    ]
    caplog.clear()
    with caplog.at_level("WARNING", logger="scrapy_denoise.methods"):
        method = create_method("cevc", {"cevc": {"alpha": 0.6}})
    assert not caplog.records
    assert isinstance(method, CevcMethod) and method.params.alpha == 0.6


@pytest.mark.parametrize(
    ("name", "params", "says"),
    [
        ("cevc", {"alpha": "x"}, "method 'cevc': parameter 'alpha' must be a number, got str 'x'"),
        ("punctuation", {"require_punctuation": 1}, "'require_punctuation' must be true or false"),
        ("block_svm", {"region_margin": "x"}, "method 'block_svm': parameter 'region_margin'"),
        ("default", {"fallback": "no"}, f"method '{DEFAULT_METHOD}': parameter 'fallback'"),
        ("cevc", {"alhpa": 0.6}, "method 'cevc': unknown parameter"),
    ],
)
def test_a_parameter_of_the_wrong_type_is_refused_naming_method_and_parameter(
    name: str, params: dict[str, object], says: str
) -> None:
    with pytest.raises(TypeError, match=says):
        create_method(name, {name: params})


def test_parameter_types_follow_the_defaults_only_where_they_tell() -> None:
    from scrapy_denoise.methods.base import check_param_type

    check_param_type("alpha", 0.5, 1)  # JSON writes 1.0 as 1
    check_param_type("model_path", None, "blocks.json")  # a None default tells nothing
    check_param_type("unwrap_tags", frozenset({"p"}), ["b"])  # collections come as lists
    with pytest.raises(TypeError, match="'alpha' must be a number, got bool True"):
        check_param_type("alpha", 0.5, True)
    with pytest.raises(TypeError, match=r"'count' must be an integer, got float 2\.5"):
        check_param_type("count", 2, 2.5)
    with pytest.raises(TypeError, match="'output' must be a string"):
        check_param_type("output", "lines", 1)
