# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""TLS on the web UIs (hadoop_tls_enabled, docs/security.md) on a converged lab whose hosts are in the group lab_prod:
inventories/lab/group_vars/lab_prod.yml turns it on with the lab CA.

    BIGDATA_LAB_INVENTORY=inventories/lab-prod pytest -q -p no:cacheprovider tests/lab/test_tls.py

Every Hadoop UI of every host answers HTTPS on its HTTPS port, with a certificate that another node verifies against
the cluster CA (openssl s_client, curl with the system trust) and that names the host; its plain HTTP port is closed.
WebHDFS works over TLS (swebhdfs://) for a client that only has ssl-client.xml; the controller reaches the
ResourceManager's JMX trusting the lab CA alone. The stores' modes and owners are checked, and no file of the
configuration directories that others can read holds the keystore password.
"""

from __future__ import annotations

import json
import os
import re
import ssl
import urllib.request

import pytest

import lab_run

INVENTORY = os.environ.get("BIGDATA_LAB_INVENTORY", "")
GROUPS = lab_run.inventory_groups(INVENTORY) if INVENTORY else {}
pytestmark = pytest.mark.skipif(not INVENTORY or not GROUPS.get("lab_prod"),
                                reason="set BIGDATA_LAB_INVENTORY to a converged lab with hosts in the group lab_prod")
# The daemons whose UI turns HTTPS, their groups, and the HTTP port each had (Hadoop's defaults, which the lab keeps).
UIS = (("namenode", "namenode", 9870), ("datanode", "datanodes", 9864), ("journalnode", "journalnodes", 8480),
       ("resourcemanager", "resourcemanager", 8088), ("nodemanager", "nodemanagers", 8042),
       ("jobhistory", "jobhistory", 19888), ("spark_history", "spark_history", 18080))
# Spark's history server keeps its HTTP port open, and only redirects it to HTTPS.
REDIRECTS = {"spark_history"}
# The JMX-style path each answers with JSON on.
PATHS = {"spark_history": "/api/v1/version"}
TLS_DIR = "/etc/security/tls"


def _tls():
    hv = lab_run.host_vars(INVENTORY, sorted(GROUPS["lab_prod"])[0])
    if not hv.get("hadoop_tls_enabled"):
        pytest.skip("hadoop_tls_enabled is off in this inventory")
    return hv


def _checks():
    """(host, daemon, https URL by name, old HTTP port) of every UI of the lab."""
    out = []
    for daemon, group, http_port in UIS:
        for host in sorted(GROUPS.get(group, {})):
            out.append((host, daemon, lab_run.web_url(INVENTORY, host, daemon, host), http_port))
    return out


def _other(host):
    """A node other than host, to connect from (the name checked is the one connected to)."""
    return next(h for h in sorted(GROUPS["lab_prod"]) if h != host)


def _from_others(commands):
    """Run each (host, command) on a node other than its host, one shell per node that connects (every command of a
    node in one ansible call); the output of each, in order."""
    by_source = {}
    for i, (host, command) in enumerate(commands):
        by_source.setdefault(_other(host), []).append((i, command))
    out = [None] * len(commands)
    for source, items in sorted(by_source.items()):
        script = "; ".join("echo '@@@ %d'; %s" % (i, command) for i, command in items)
        text = lab_run.shell(INVENTORY, source, script)
        for part in text.split("@@@ ")[1:]:
            index, _nl, body = part.partition("\n")
            out[int(index)] = body
    assert None not in out, out
    return out


def test_every_ui_answers_https_with_a_certificate_of_the_cluster_ca():
    _tls()
    checks = _checks()
    assert len(checks) >= 10, checks
    commands = []
    for host, daemon, url, _port in checks:
        assert url.startswith("https://%s:" % host), (daemon, url)
        port = url.rsplit(":", 1)[1]
        # openssl checks the chain against the CA and the name against the certificate (-verify_hostname).
        commands.append((host, "echo | openssl s_client -connect %s:%s -servername %s -verify_hostname %s -CAfile %s/ca.crt "
                               "2>&1 | grep -E 'Verify return code|^issuer|subject='" % (host, port, host, host, TLS_DIR)))
        # curl with the node's system trust (the tls role added the CA): the daemon's JMX (or REST API) answers JSON. In
        # secure mode the Spark history server's API asks for SPNEGO (JMX is open): root's ticket answers it.
        commands.append((host, "curl -sf --negotiate -u : '%s%s'; rc=$?; echo; echo curl_rc=$rc" % (url, PATHS.get(daemon, "/jmx?qry=java.lang:type=Runtime"))))
    answers = _from_others(commands)
    for n, (host, daemon, _url, _port) in enumerate(checks):
        handshake, body = answers[2 * n], answers[2 * n + 1]
        assert "Verify return code: 0 (ok)" in handshake, (host, daemon, handshake)
        assert "bigdata.spark lab CA" in handshake, (host, daemon, handshake)
        assert "curl_rc=0" in body and json.loads(body[body.index("{"):body.rindex("}") + 1]), (host, daemon, body[-300:])


def test_plain_http_is_refused():
    _tls()
    checks = _checks()
    # curl exits 7 when nothing listens on the port (connection refused); the history server's answer is a redirect to
    # its HTTPS address, with no page.
    answers = _from_others([(host, "curl -s -o /dev/null -w 'code=%%{http_code} to=%%{redirect_url} ' --max-time 10 "
                                   "http://%s:%d/; echo rc=$?" % (host, http_port)) for host, _d, _u, http_port in checks])
    for (host, daemon, url, http_port), out in zip(checks, answers):
        if daemon in REDIRECTS:
            assert re.search(r"code=30[1278] to=%s/ " % re.escape(url), out), (host, daemon, out[-500:])
        else:
            assert "rc=7" in out, (host, daemon, http_port, out[-500:])


def test_webhdfs_over_tls_and_the_controller_trusts_the_lab_ca():
    hv = _tls()
    master = sorted(GROUPS["namenode"])[0]
    # A client with only ssl-client.xml (the truststore, no password): swebhdfs lists the root through the NameNode.
    if len(GROUPS["namenode"]) > 1:
        # With HA the nameservice (its NameNodes' HTTPS addresses are in hdfs-site.xml).
        fs = "swebhdfs://%s" % (hv.get("hdfs_nameservice") or lab_run.role_default("hdfs_nameservice"))
    else:
        fs = "swebhdfs://%s" % lab_run.web_url(INVENTORY, master, "namenode", master).split("://", 1)[1]
    out = lab_run.shell(INVENTORY, master, "runuser -u hdfs -- env HADOOP_CONF_DIR=/etc/hadoop/conf "
                        "/opt/hadoop/current/bin/hdfs dfs -ls %s/ 2>&1" % fs)
    assert "/user" in out and "/tmp" in out, out[-2000:]
    # The controller: the lab CA alone (no system trust) verifies the ResourceManagers' certificates, by address.
    answered = 0
    for host in sorted(GROUPS["resourcemanager"]):
        address = lab_run.host_vars(INVENTORY, host).get("ansible_host", host)
        # Its JMX RMInfo bean: open without a ticket in secure mode, like every daemon's /jmx.
        url = lab_run.web_url(INVENTORY, host, "resourcemanager", address) + "/jmx?qry=Hadoop:service=ResourceManager,name=RMInfo"
        context = lab_run.ssl_context(INVENTORY, host)
        assert isinstance(context, ssl.SSLContext) and context.verify_mode == ssl.CERT_REQUIRED
        with urllib.request.urlopen(url, timeout=10, context=context) as answer:
            answered += json.load(answer)["beans"][0]["State"] in ("active", "standby")
    assert answered == len(GROUPS["resourcemanager"])


def test_stores_modes_and_no_password_readable_by_others():
    hv = _tls()
    password = hv["hadoop_tls_keystore_password"]
    for host in sorted(GROUPS["lab_prod"]):
        out = lab_run.shell(INVENTORY, host, "stat -c '%%n %%a %%U %%G' %s/keystore.p12 %s/truststore.p12 %s/ca.crt "
                            "/etc/hadoop/conf/ssl-server.xml /etc/hadoop/conf/ssl-client.xml" % ((TLS_DIR,) * 3))
        modes = dict((line.split()[0], line.split()[1:]) for line in out.strip().splitlines() if line.startswith("/"))
        assert modes["%s/keystore.p12" % TLS_DIR] == ["440", "root", "hadoop"], (host, modes)
        assert modes["%s/truststore.p12" % TLS_DIR][0] == "444", (host, modes)
        assert modes["/etc/hadoop/conf/ssl-server.xml"] == ["440", "root", "hadoop"], (host, modes)
        assert modes["/etc/hadoop/conf/ssl-client.xml"][0] == "644", (host, modes)
        # The password is in ssl-server.xml (the daemons need it) and in no file others can read.
        found = lab_run.shell(INVENTORY, host, "grep -rlF -e %s /etc/hadoop /etc/spark /etc/security /etc/zookeeper "
                              "/opt/spark/conf 2>/dev/null | xargs -r stat -c '%%n %%a'; true" % _quote(password))
        readable = [line for line in found.strip().splitlines()
                    if line.startswith("/") and int(line.split()[-1][-1]) & 4]
        assert readable == [], (host, readable)
        assert "/etc/hadoop/conf/ssl-server.xml 440" in found, (host, found)


def _quote(text):
    return "'%s'" % text.replace("'", "'\\''")
