"""A bad ``DENOISE_*`` setting fails the crawl at start (exit status 1) naming the setting,
instead of closing the spider later (``denoise_setup_failed``, exit status 0) or being
ignored; and the warnings a crawler's settings get once."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler

from scrapy_denoise.integration import PageFilterMiddleware
from scrapy_denoise.integration.settings import DEFAULT_FIELDS, DenoiseConfig, item_fields

BLOCK_MODEL = Path(__file__).resolve().parent.parent / "scrapy_denoise" / "models" / "blocks.json"


def _config(**settings: Any) -> DenoiseConfig:
    return DenoiseConfig.from_settings(Settings(settings))


@pytest.mark.parametrize(
    ("setting", "value", "says"),
    [
        ("DENOISE_RULE_URL_PATTERNS", "(unclosed", "'(unclosed' is not a valid regex"),
        ("DENOISE_FLUSH_EVERY", 0, "at least 1"),
        ("DENOISE_MAX_BYTES", 0, "at least 1"),
        ("DENOISE_STORE_BATCH", 0, "at least 1"),
        ("DENOISE_WORKER_TIMEOUT", -5, "at least 1"),
        ("DENOISE_MIN_TEXT_CHARS", -1, "at least 0"),
        ("DENOISE_OWNER", "", "must not be empty"),
        ("DENOISE_METHOD_PARAMS", {"block_ensemble": {"nope": 1}}, "'nope'"),
        ("DENOISE_METHOD_PARAMS", {"default": {"svm_weight": "half"}}, "svm_weight"),
        ("DENOISE_FLUSH_EVERY", 1.7, "1.7 is not a whole number"),
        ("DENOISE_RULE_MAX_LINKS", 1.5, "1.5 is not a whole number"),
        ("DENOISE_RULE_MIN_TEXT_CHARS", -1, "min_text_chars must be at least 0"),
        ("DENOISE_RULE_SHALLOW_URL_DEPTH", -1, "shallow_url_depth must be at least 0"),
        ("DENOISE_RULE_SHORT_URL_CHARS", -1, "short_url_chars must be at least 0"),
        ("DENOISE_RULE_MAX_LINKS", -1, "max_links must be at least 0"),
        ("DENOISE_RULE_MAX_LINK_TEXT_RATIO", "nan", "finite number above 0"),
        ("DENOISE_RULE_MAX_LINK_TEXT_RATIO", -2.0, "finite number above 0"),
        ("DENOISE_RULE_CHANGING_MIN_VISITS", 1, "every revisited page would be noise"),
        ("DENOISE_RULE_NAVIGATION_MIN_LINKS", 0, "navigation_min_links must be at least 1"),
        ("DENOISE_SITE_PREFIXES", "example.org/blog/", "not an absolute http(s) URL"),
        ("DENOISE_SITE_PREFIXES", "ftp://example.org/", "not an absolute http(s) URL"),
        ("DENOISE_FIELDS", {"title": "text"}, "'title' and 'text' are both in"),
        ("DENOISE_PAGE_MODEL", str(BLOCK_MODEL), "a block model?"),
    ],
)
def test_bad_value_fails_at_start_naming_the_setting(setting: str, value: Any, says: str) -> None:
    with pytest.raises(ValueError, match="invalid " + setting + " setting: ") as caught:
        _config(**{setting: value})
    assert says in str(caught.value)


def test_a_page_model_file_that_is_not_json_fails_at_start(tmp_path: Path) -> None:
    model = tmp_path / "pages.json"
    model.write_text("<html>not a model</html>", encoding="utf-8")
    with pytest.raises(ValueError, match=r"invalid DENOISE_PAGE_MODEL setting: .*not JSON"):
        _config(DENOISE_PAGE_MODEL=str(model))


def test_a_wrong_parameter_type_of_the_running_method_fails_at_start() -> None:
    with pytest.raises(ValueError, match=r"invalid DENOISE_METHOD_PARAMS setting: .*'alpha'"):
        _config(DENOISE_METHOD="cevc", DENOISE_METHOD_PARAMS={"cevc": {"alpha": "high"}})


def test_a_component_fails_to_build_on_a_bad_setting() -> None:
    # Scrapy builds the components as the crawl starts: this is the exit status 1
    crawler = get_crawler(settings_dict={"DENOISE_DATABASE_URL": "", "DENOISE_FLUSH_EVERY": 0})
    with pytest.raises(ValueError, match="invalid DENOISE_FLUSH_EVERY setting"):
        PageFilterMiddleware.from_crawler(crawler)


def test_whole_floats_and_switched_off_rules_are_valid() -> None:
    config = _config(
        DENOISE_STORE_BATCH=20.0,
        DENOISE_RULE_CHANGING_MIN_VISITS=None,
        DENOISE_RULE_MAX_LINK_TEXT_RATIO="none",
    )
    assert config.store_batch == 20
    assert config.rules().changing_min_visits is None
    assert config.rules().max_link_text_ratio is None
    assert _config(DENOISE_RULE_CHANGING_MIN_VISITS=2).rule_changing_min_visits == 2


def test_owner_none_is_the_default_owner_not_the_string_none() -> None:
    assert _config(DENOISE_OWNER=None).owner == DenoiseConfig().owner


def test_a_list_setting_given_as_json_keeps_commas_in_its_entries() -> None:
    # what `-s 'DENOISE_RULE_URL_PATTERNS=["page/\\d{1,3}", "liste"]'` gives
    config = _config(DENOISE_RULE_URL_PATTERNS='["page/\\\\d{1,3}", "liste"]')
    assert config.rule_url_patterns == ("page/\\d{1,3}", "liste")
    assert config.rules().compiled_patterns() is not None
    prefixes = _config(DENOISE_SITE_PREFIXES=' ["https://a.example/x/"]').site_prefixes
    assert prefixes == ("https://a.example/x/",)


def test_a_list_setting_without_a_bracket_is_split_on_commas_as_scrapy_does() -> None:
    assert _config(DENOISE_RULE_QUERY_KEYS="s,q").rule_query_keys == ("s", "q")


def test_a_list_setting_that_is_not_json_names_the_setting() -> None:
    with pytest.raises(ValueError, match="invalid DENOISE_RULE_QUERY_KEYS setting"):
        _config(DENOISE_RULE_QUERY_KEYS='["s", ')


def test_unknown_denoise_setting_is_logged_once_with_a_suggestion(
    caplog: pytest.LogCaptureFixture,
) -> None:
    settings = Settings({"DENOISE_FLUSH_EVRY": 10, "DENOISE_ZZZ": 1, "OTHER_SETTING": 1})
    with caplog.at_level(logging.WARNING, logger="scrapy_denoise.integration.settings"):
        DenoiseConfig.from_settings(settings)
        DenoiseConfig.from_settings(settings)  # the distributed scheduler parses them too
    messages = [r.getMessage() for r in caplog.records]
    assert messages == [
        "unknown setting DENOISE_FLUSH_EVRY is ignored (did you mean DENOISE_FLUSH_EVERY?)",
        "unknown setting DENOISE_ZZZ is ignored",
    ]


def test_known_settings_are_not_logged_as_unknown(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="scrapy_denoise.integration.settings"):
        _config(DENOISE_FLUSH_EVERY=10, DENOISE_RULE_MAX_LINKS=None)
    assert not caplog.records


def test_extraction_off_with_the_store_on_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="scrapy_denoise.integration.settings"):
        _config(DENOISE_EXTRACT_ENABLED=False)
        warned = caplog.text
        caplog.clear()
        _config(DENOISE_EXTRACT_ENABLED=False, DENOISE_STORE_ENABLED=False)
        _config(DENOISE_EXTRACT_ENABLED=False, DENOISE_DATABASE_URL="")
    assert "DENOISE_EXTRACT_ENABLED is False" in warned
    assert "DENOISE_STORE_ENABLED = False" in warned
    assert not caplog.records


@pytest.mark.parametrize(
    "source",
    [
        Settings({"DENOISE_FIELDS": {"url": "link", "headers": None}}),
        Settings({"DENOISE_FIELDS": '{"url": "link", "headers": null}'}),
        {"url": "link", "headers": None},
        '{"url": "link", "headers": null}',
    ],
    ids=["settings", "settings-json", "dict", "json"],
)
def test_item_fields_reads_the_setting_as_users_have_it(source: Any) -> None:
    fields = item_fields(source)
    assert fields["url"] == "link"
    assert "headers" not in fields
    assert fields["body"] == DEFAULT_FIELDS["body"]


def test_item_fields_defaults_and_errors_name_the_setting() -> None:
    assert item_fields() == DEFAULT_FIELDS
    assert item_fields(Settings()) == DEFAULT_FIELDS
    with pytest.raises(ValueError, match="invalid DENOISE_FIELDS setting: 'body' cannot"):
        item_fields({"body": None})


@pytest.mark.parametrize("missing", ["scrapy_redis", "redis"])
def test_the_distributed_scheduler_without_its_extra_says_what_to_install(missing: str) -> None:
    """``SCHEDULER = ...RedisScheduler`` without the ``distributed`` extra:
    the import error names the extra, not only the module it lacks."""
    import subprocess
    import sys

    code = (
        f"import sys; sys.modules[{missing!r}] = None\n"
        "from scrapy.utils.misc import load_object\n"
        "load_object('scrapy_denoise.integration.distributed.RedisScheduler')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: ") and missing in last
    assert 'pip install -e "' in last and '[distributed]"' in last


def test_the_distributed_cli_without_its_extra_prints_one_line() -> None:
    """``python -m scrapy_denoise.integration.distributed status`` without the extra: the
    same hint as the scheduler's, as one line on stderr and exit status 1, no traceback."""
    import subprocess
    import sys

    code = (
        "import runpy, sys\n"
        "sys.modules['scrapy_redis'] = None\n"
        "sys.argv = ['distributed', 'status']\n"
        "runpy.run_module('scrapy_denoise.integration.distributed', run_name='__main__')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 1
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert run.stderr.startswith("error: ") and "[distributed]" in run.stderr


def test_the_crawl_leaves_the_headline_to_the_title_field(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # the row has a title column: the text leaves the headline out, unlike the core's
    # single-page default
    assert _config().keep_headline is False
    assert _config().options().keep_headline is False
    assert _config(DENOISE_KEEP_HEADLINE=True).options().keep_headline is True
    with caplog.at_level(logging.WARNING, logger="scrapy_denoise.integration.settings"):
        _config(DENOISE_FIELDS={"title": None})
        _config(DENOISE_FIELDS={"title": None}, DENOISE_KEEP_HEADLINE=True)
    assert [r.getMessage() for r in caplog.records] == [
        "DENOISE_FIELDS switches the title off and DENOISE_KEEP_HEADLINE is False: the "
        "headline is in neither the title nor the text; set DENOISE_KEEP_HEADLINE = True "
        "to keep it in the text"
    ]
