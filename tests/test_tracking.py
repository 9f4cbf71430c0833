"""Tracking parameters: one list for the page filter's home pages and the stored URLs."""

from __future__ import annotations

import pytest

from scrapy_denoise.page.features import names_a_page
from scrapy_denoise.tracking import is_tracking_key, without_tracking


@pytest.mark.parametrize("key", ["utm_source", "UTM_Medium", "gclid", "fbclid", "_hsenc"])
def test_tracking_keys(key: str) -> None:
    assert is_tracking_key(key)
    assert not names_a_page(f"{key}=x")


@pytest.mark.parametrize("key", ["p", "id", "ref", "notutm_source", "x_fbclid", "utm"])
def test_other_keys_name_a_page(key: str) -> None:
    assert not is_tracking_key(key)
    assert names_a_page(f"{key}=1&utm_source=x")


def test_without_tracking_keeps_the_rest_as_written() -> None:
    assert without_tracking("a=1&utm_source=x&a=2&b=%20c&flag") == "a=1&a=2&b=%20c&flag"
    assert without_tracking("fbclid=Iw&gclid") == ""
    assert without_tracking("q=utm_source") == "q=utm_source"  # a value, not a key


@pytest.mark.parametrize("key", ["replytocom", "replyTo", "reply_to"])
def test_a_reply_link_picks_the_page_it_is_on(key: str) -> None:
    assert not is_tracking_key(key)  # the store keeps such a copy's URL as it is
    assert not names_a_page(f"{key}=7")
    assert names_a_page(f"{key}=7&p=12")
