"""Kerberos principals, keytabs, settings checks and klist -kt parsing (plugins/module_utils/kerberos.py, plugins/filter/kerberos.py)."""

import re

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.filter.kerberos import FilterModule
from ansible_collections.bigdata.spark.plugins.module_utils import kerberos as krb

FILTERS = FilterModule().filters()
NN = {"principal": "nn/_HOST", "keytab": "/etc/security/keytabs/nn.service.keytab", "owner": "hdfs", "group": "hadoop"}
HTTP_NN = dict(NN, principal="HTTP/_HOST")
GOOD = {"kerberos_realm": "BIGDATA.LAB", "kerberos_keytab_source": "kadmin", "kerberos_kdc_host": "master",
        "kerberos_kdc_enabled": True, "kerberos_kdc_master_password": "x", "kerberos_principals": [NN, HTTP_NN]}
# klist -kt as MIT krb5 1.20 prints it (one line per key: two enctypes per principal).
KLIST = """Keytab name: FILE:/etc/security/keytabs/nn.service.keytab
KVNO Timestamp         Principal
---- ----------------- --------------------------------------------------------
   1 12/03/26 20:08:34 HTTP/krb-worker1@BIGDATA.LAB
   1 12/03/26 20:08:34 HTTP/krb-worker1@BIGDATA.LAB
   1 12/03/26 20:08:34 nn/krb-worker1@BIGDATA.LAB
   1 12/03/26 20:08:34 nn/krb-worker1@BIGDATA.LAB
"""


@pytest.mark.parametrize("pattern, host, expected", [
    ("nn/_HOST", "worker1.example.com", "nn/worker1.example.com@BIGDATA.LAB"),
    ("HTTP/_HOST", "Worker1.Example.COM", "HTTP/worker1.example.com@BIGDATA.LAB"),
    ("spark", "w1", "spark@BIGDATA.LAB"),
    ("dn/fixed.host", "w1", "dn/fixed.host@BIGDATA.LAB"),
    ("jhs/_HOST@OTHER.REALM", "w1", "jhs/w1@OTHER.REALM"),
])
def test_principal_expansion(pattern, host, expected):
    assert krb.principal(pattern, host, "BIGDATA.LAB") == expected
    assert FILTERS["kerberos_principal"](pattern, host, "BIGDATA.LAB") == expected


@pytest.mark.parametrize("pattern", ["", "/_HOST", "_HOST", "@BIGDATA.LAB", "nn/", "n n/_HOST", None])
def test_a_pattern_without_a_service_part_is_refused(pattern):
    with pytest.raises(krb.KerberosError, match=r"^kerberos_principals: "):
        krb.principal(pattern, "w1", "BIGDATA.LAB")
    with pytest.raises(AnsibleFilterError, match=r"kerberos_principal: kerberos_principals: "):
        FILTERS["kerberos_principal"](pattern, "w1", "BIGDATA.LAB")


@pytest.mark.parametrize("realm, words", [
    ("", "a realm name is required"),
    (None, "a realm name is required"),
    ("bigdata.lab", "must be uppercase .* use 'BIGDATA.LAB'"),
    ("BIGDATA LAB", "only A-Z, 0-9"),
])
def test_bad_realms_are_named(realm, words):
    assert krb.realm_problem(realm).startswith("kerberos_realm: ")
    with pytest.raises(krb.KerberosError, match="kerberos_realm: .*" + words):
        krb.principal("nn/_HOST", "w1", realm)


def test_keytabs_group_principals_by_file_sorted():
    spnego = dict(HTTP_NN, keytab="/etc/security/keytabs/spnego.service.keytab")
    assert krb.keytabs([NN, HTTP_NN, spnego], "w1", "R.LAB") == [
        {"path": "/etc/security/keytabs/nn.service.keytab", "owner": "hdfs", "group": "hadoop",
         "principals": ["HTTP/w1@R.LAB", "nn/w1@R.LAB"], "src": "", "mode": ""},
        {"path": "/etc/security/keytabs/spnego.service.keytab", "owner": "hdfs", "group": "hadoop",
         "principals": ["HTTP/w1@R.LAB"], "src": "", "mode": ""},
    ]


def test_keytabs_supplied_sources_and_group_default():
    entry = {"principal": "rm/_HOST", "keytab": "/etc/k/rm.keytab", "owner": "yarn"}
    own = dict(entry, keytab="/etc/k/own.keytab", src="/ctl/own.keytab")
    tabs = FILTERS["kerberos_keytabs"]([entry, own], "w1", "R.LAB", "/ctl/tabs")
    expected = [("/etc/k/own.keytab", "yarn", "/ctl/own.keytab"), ("/etc/k/rm.keytab", "yarn", "/ctl/tabs/w1/rm.keytab")]
    assert [(t["path"], t["group"], t["src"]) for t in tabs] == expected


@pytest.mark.parametrize("entries, words", [
    ([dict(NN, keytab="nn.keytab")], r"kerberos_principals\[0\].keytab: an absolute file path"),
    ([dict(NN, owner="")], r"kerberos_principals\[0\].owner: a user or group name"),
    ([NN, dict(HTTP_NN, owner="yarn")], r"kerberos_principals\[1\]: keytab .* already owned by hdfs:hadoop"),
    (["nn/_HOST"], r"kerberos_principals\[0\]: a mapping"),
    ([dict(NN, mode="0644")], r"kerberos_principals\[0\].mode: a keytab's mode .* got '0644'"),
    ([dict(NN, mode="0460")], r"kerberos_principals\[0\].mode: a keytab's mode .* got '0460'"),
    ("nn/_HOST", r"kerberos_principals: a list"),
])
def test_bad_keytab_entries_are_named(entries, words):
    with pytest.raises(krb.KerberosError, match=words):
        krb.keytabs(entries, "w1", "R.LAB")
    with pytest.raises(AnsibleFilterError, match="kerberos_keytabs: " + words):
        FILTERS["kerberos_keytabs"](entries, "w1", "R.LAB")


def test_good_settings_have_no_problems():
    assert krb.problems(GOOD, "w1") == []
    assert krb.problems(dict(GOOD, kerberos_principals=[]), "w1") == []


@pytest.mark.parametrize("change, words", [
    ({"kerberos_realm": ""}, "kerberos_realm: a realm name is required"),
    ({"kerberos_realm": "bigdata.lab"}, "kerberos_realm: the realm must be uppercase"),
    ({"kerberos_keytab_source": "ad"}, "kerberos_keytab_source: one of kadmin, supplied is required; got 'ad'"),
    ({"kerberos_kdc_host": ""}, "kerberos_kdc_host: the KDC's host name is required"),
    ({"kerberos_kdc_master_password": ""}, "kerberos_kdc_master_password: required when kerberos_kdc_enabled"),
    ({"kerberos_kdc_enabled": False}, "kerberos_admin_principal, kerberos_admin_password or kerberos_admin_keytab: "),
    ({"kerberos_kdc_enabled": False, "kerberos_admin_principal": "admin/admin"}, "kerberos_admin_principal, "),
    ({"kerberos_principals": [dict(NN, principal="/_HOST")]}, r"kerberos_principals\[0\]: '/_HOST' has no service part"),
    ({"kerberos_keytab_source": "supplied"}, "kerberos_supplied_keytab_dir: keytab /etc/security/keytabs/nn.service.keytab of w1 has no"),
])
def test_bad_settings_are_named(change, words):
    found = krb.problems(dict(GOOD, **change), "w1")
    assert any(words in p or re.search(words, p) for p in found), found


def test_external_kdc_with_credentials_passes():
    settings = dict(GOOD, kerberos_kdc_enabled=False, kerberos_admin_principal="admin/admin")
    assert krb.problems(dict(settings, kerberos_admin_password="pw"), "w1") == []
    assert krb.problems(dict(settings, kerberos_admin_keytab="/ctl/admin.keytab"), "w1") == []


def test_supplied_keytab_missing_on_the_controller(tmp_path):
    (tmp_path / "w1").mkdir()
    (tmp_path / "w1" / "nn.service.keytab").write_bytes(b"\x05\x02")
    settings = dict(GOOD, kerberos_keytab_source="supplied", kerberos_supplied_keytab_dir=str(tmp_path))
    assert FILTERS["kerberos_problems"](settings, "w1") == []
    assert FILTERS["kerberos_problems"](settings, "w2") == [
        "kerberos_supplied_keytab_dir: the supplied keytab %s/w2/nn.service.keytab for /etc/security/keytabs/nn.service.keytab "
        "on w2 is missing on the controller" % tmp_path]


def test_no_message_quotes_a_password():
    settings = dict(GOOD, kerberos_realm="low", kerberos_kdc_enabled=False, kerberos_admin_password="Pw-1234",
                    kerberos_kdc_master_password="Mk-5678", kerberos_keytab_source="x")
    assert not [p for p in krb.problems(settings, "w1") if "Pw-1234" in p or "Mk-5678" in p]


def test_klist_parsing():
    assert krb.klist_principals(KLIST) == ["HTTP/krb-worker1@BIGDATA.LAB", "nn/krb-worker1@BIGDATA.LAB"]
    assert krb.klist_principals("") == []
    assert krb.klist_principals("klist: Key table file '/x' not found while starting keytab scan") == []


def test_keytab_todo_lists_only_keytabs_that_lack_principals():
    full = {"path": "/k/nn", "principals": ["HTTP/krb-worker1@BIGDATA.LAB", "nn/krb-worker1@BIGDATA.LAB"]}
    more = dict(full, path="/k/more", principals=full["principals"] + ["dn/krb-worker1@BIGDATA.LAB"])
    new = dict(full, path="/k/new")
    results = [{"item": full, "stdout": KLIST}, {"item": more, "stdout": KLIST}, {"item": new, "stdout": ""}]
    expected = [dict(more, missing=["dn/krb-worker1@BIGDATA.LAB"]), dict(new, missing=new["principals"])]
    assert FILTERS["kerberos_keytab_todo"](results) == expected
    with pytest.raises(AnsibleFilterError, match="kerberos_keytab_todo: the results of a loop"):
        FILTERS["kerberos_keytab_todo"]("nope")
