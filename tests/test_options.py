"""``DenoiseOptions`` refuses a wrong value where it is given, naming the option."""

from __future__ import annotations

import pytest
from scrapy.settings import Settings

from scrapy_denoise import DenoiseOptions, Denoiser
from scrapy_denoise.integration.settings import DenoiseConfig
from scrapy_denoise.methods import UnknownMethodError


@pytest.mark.parametrize(
    ("values", "error", "says"),
    [
        ({"method": "nope"}, UnknownMethodError, "unknown extraction method 'nope'"),
        ({"max_bytes": -1}, ValueError, "DenoiseOptions.max_bytes must be at least 1, got -1"),
        ({"max_bytes": "10"}, TypeError, "DenoiseOptions.max_bytes must be an int, got str"),
        ({"max_bytes": True}, TypeError, "DenoiseOptions.max_bytes must be an int, got bool"),
        ({"flush_every": "5"}, TypeError, "DenoiseOptions.flush_every must be an int, got str"),
        ({"flush_every": 0}, ValueError, "DenoiseOptions.flush_every must be at least 1"),
        ({"owner": ""}, ValueError, "DenoiseOptions.owner must not be empty"),
        ({"owner": None}, TypeError, "DenoiseOptions.owner must be a str"),
        ({"templates": "no"}, TypeError, "DenoiseOptions.templates must be True or False"),
        ({"keep_headline": 0}, TypeError, "DenoiseOptions.keep_headline must be True or False"),
        ({"site_prefixes": "https://x.org/blog/"}, TypeError, "site_prefixes must be a tuple"),
        ({"site_prefixes": (1,)}, TypeError, "site_prefixes must be a tuple"),
        ({"rules": None}, TypeError, "DenoiseOptions.rules must be a PageRules, got NoneType"),
        ({"page_model": 1}, TypeError, "DenoiseOptions.page_model must be a str, a path or None"),
        ({"method_params": [("cevc", {})]}, TypeError, "method_params must map method names"),
        ({"method_params": {"nosuch": {}}}, UnknownMethodError, "unknown extraction method"),
        ({"method_params": {"cevc": 1}}, TypeError, r"method_params\['cevc'\] must be a dict"),
        # the flat shape: "alpha" is read as a method's name, and the message shows the right one
        (
            {"method": "cevc", "method_params": {"alpha": -5.0}},
            UnknownMethodError,
            r"'alpha'.*e\.g\. \{'cevc': \{'alpha': 0\.6\}\}",
        ),
    ],
)
def test_a_wrong_option_is_refused_naming_it(
    values: dict[str, object], error: type[Exception], says: str
) -> None:
    with pytest.raises(error, match=says):
        DenoiseOptions(**values)  # type: ignore[arg-type]


def test_denoiser_keyword_overrides_are_checked_too() -> None:
    # Denoiser(..., **overrides) builds its options with dataclasses.replace
    with pytest.raises(TypeError, match=r"DenoiseOptions\.max_bytes"):
        Denoiser(store=False, max_bytes="10")


def test_valid_options_are_kept_and_a_list_of_prefixes_becomes_a_tuple() -> None:
    options = DenoiseOptions(
        method="cevc",
        site_prefixes=["https://x.org/blog/"],  # type: ignore[arg-type]
        page_model=None,
        method_params={"default": {}, "cevc": {"alpha": 0.6}},
    )
    assert options.site_prefixes == ("https://x.org/blog/",)
    assert options.method_params == {"default": {}, "cevc": {"alpha": 0.6}}
    assert DenoiseOptions() == DenoiseOptions()


def test_method_params_setting_builds_options_and_refuses_an_unknown_method() -> None:
    """DENOISE_METHOD_PARAMS reaches DenoiseOptions through DenoiseConfig.options()."""
    settings = Settings({"DENOISE_METHOD_PARAMS": '{"cevc": {"alpha": 0.6}, "default": {}}'})
    assert DenoiseConfig.from_settings(settings).options().method_params["cevc"] == {"alpha": 0.6}
    with pytest.raises(ValueError, match="unknown extraction method 'nosuch'"):
        DenoiseConfig.from_settings(Settings({"DENOISE_METHOD_PARAMS": {"nosuch": {}}})).options()


def test_a_site_prefix_must_be_an_absolute_http_url() -> None:
    """A prefix like "example.org/blog" matched no page, in the core as in a crawl."""
    with pytest.raises(ValueError, match="not an absolute http"):
        DenoiseOptions(site_prefixes=("example.org/blog/",))
    # a list, as settings give it, is taken and kept as a tuple
    listed = DenoiseOptions(site_prefixes=["https://example.org/blog/"])  # type: ignore[arg-type]
    assert listed.site_prefixes == ("https://example.org/blog/",)


def test_a_page_model_path_and_numpy_ints_are_accepted() -> None:
    from pathlib import Path

    import numpy as np

    options = DenoiseOptions(page_model=Path("models/pages.json"), max_bytes=np.int64(1000))  # type: ignore[arg-type]
    assert options.page_model == "models/pages.json" and options.max_bytes == 1000
