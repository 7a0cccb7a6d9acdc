# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Spark's authentication and encryption switches (spark_authenticate, spark_network_encryption, spark_io_encryption):
the settings check refuses, naming the variable, what Spark could not do or would undo without a word."""

import pytest

from ansible_collections.bigdata.spark.plugins.module_utils import validate

DEFAULTS = {"spark_authenticate": False, "spark_network_encryption": False, "spark_io_encryption": False,
            "spark_push_shuffle_enabled": False, "spark_standalone_enabled": False}


def errors_for(settings):
    errors = []
    validate._spark_security(settings, DEFAULTS, errors)
    return errors


@pytest.mark.parametrize("settings", [
    {},
    {"spark_authenticate": True},
    {"spark_authenticate": True, "spark_network_encryption": True},
    {"spark_authenticate": "yes", "spark_network_encryption": "true", "spark_io_encryption": True},
    # Push-based shuffle with authentication and network encryption: Spark pushes over the authenticated channel.
    {"spark_authenticate": True, "spark_network_encryption": True, "spark_push_shuffle_enabled": True},
])
def test_consistent_settings_pass(settings):
    assert errors_for(settings) == []


@pytest.mark.parametrize("name", ["spark_network_encryption", "spark_io_encryption"])
def test_encryption_needs_authentication(name):
    assert errors_for({name: True}) == [
        "%s: true needs spark_authenticate: true (Spark encrypts with the application's secret). Allowed: "
        "spark_authenticate true, or %s false" % (name, name)]
    # The inventory's explicit false counts as off.
    assert len(errors_for({name: "true", "spark_authenticate": "false"})) == 1


def test_io_encryption_and_push_shuffle_are_refused_together():
    errors = errors_for({"spark_authenticate": True, "spark_io_encryption": True, "spark_push_shuffle_enabled": True})
    assert errors == ["spark_io_encryption: true turns push-based shuffle off in every application (Spark pushes no "
                      "encrypted blocks), and spark_push_shuffle_enabled is true. Allowed: one of the two"]


def test_authentication_is_for_yarn_applications_only():
    errors = errors_for({"spark_authenticate": True, "spark_standalone_enabled": True})
    assert len(errors) == 1 and errors[0].startswith("spark_authenticate: true needs a secret YARN makes per application")
    assert "spark_standalone_enabled false" in errors[0]


def test_the_check_runs_with_the_others():
    errors = validate.settings_errors({"spark_io_encryption": True}, {"groups": {}}, defaults=DEFAULTS)
    assert any(e.startswith("spark_io_encryption: true needs spark_authenticate") for e in errors)
