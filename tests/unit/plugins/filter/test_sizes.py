"""Tables for the size filters used by playbooks/resource_plan.yml."""

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.filter.sizes import FilterModule, size_mb, xmx_mb


@pytest.mark.parametrize("value, expected", [
    ("18g", 18432),
    ("640m", 640),
    ("2048", 2048),
    (2048, 2048),
    ("1G", 1024),
    ("1t", 1048576),
])
def test_size_mb(value, expected):
    assert size_mb(value) == expected


@pytest.mark.parametrize("value, expected", [
    ("-Xmx512m", 512),
    ("-Xms1g -Xmx12g -XX:+UseG1GC", 12288),
    ("-Djava.net.preferIPv4Stack=true -Xmx2g", 2048),
])
def test_xmx_mb(value, expected):
    assert xmx_mb(value) == expected


@pytest.mark.parametrize("func, value, words", [
    (size_mb, "lots", "size_mb: expected a size"),
    (size_mb, True, "size_mb: expected a size"),
    (xmx_mb, "-Xms1g", "xmx_mb: expected JVM options containing -Xmx"),
])
def test_bad_sizes_name_the_filter(func, value, words):
    with pytest.raises(AnsibleFilterError, match=words):
        func(value)


def test_filters_are_registered():
    assert set(FilterModule().filters()) == {"size_mb", "xmx_mb"}
