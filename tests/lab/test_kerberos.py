# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Kerberos secure mode (hadoop_kerberos_enabled, docs/security.md) on a converged lab whose hosts are in the group
lab_prod: inventories/lab/group_vars/lab_prod.yml turns it on with the lab's KDC on the host of the group kdc.

    BIGDATA_LAB_INVENTORY=inventories/lab-prod pytest -q -p no:cacheprovider tests/lab/test_kerberos.py

An intruder is refused: a client without a ticket by HDFS RPC, WebHDFS, the YARN command line and the
ResourceManager's REST API (the same calls pass with a ticket, so the refusals are Kerberos', not a broken cluster);
a principal of the realm that is no service's and no user's (intruder/<host>) by the NameNode; an authenticated user
who is not the HDFS administrator by service-level authorization (HA admin protocol). The Spark history server asks
for a ticket too, and its ACLs keep another user from spark's applications. Each keytab is 0400 and its
service account's (the SPNEGO keytab 0440 root:hadoop), and each service account keeps a ticket from its keytab. The
smoke jobs (MapReduce and Spark, client and cluster mode, in the lab's verify step) run as spark with its ticket.
"""

from __future__ import annotations

import base64
import json
import os
import pathlib
import re

import pytest
import yaml

import lab_run

INVENTORY = os.environ.get("BIGDATA_LAB_INVENTORY", "")
GROUPS = lab_run.inventory_groups(INVENTORY) if INVENTORY else {}
pytestmark = pytest.mark.skipif(not INVENTORY or not GROUPS.get("kdc"),
                                reason="set BIGDATA_LAB_INVENTORY to a converged lab with a host in the group kdc")
HADOOP = "/opt/hadoop/current/bin"
KEYTABS = "/etc/security/keytabs"
# A credential cache that holds nothing: the client has no ticket.
NO_TICKET = "KRB5CCNAME=FILE:/tmp/bigdata-no-ticket"
# The secure-mode settings the inventory may leave to the hadoop role.
DEFAULTS = yaml.safe_load((pathlib.Path(__file__).resolve().parents[2] / "roles/hadoop/defaults/main.yml").read_text())


def _settings():
    hv = lab_run.host_vars(INVENTORY, _master())
    if not hv.get("hadoop_kerberos_enabled"):
        pytest.skip("hadoop_kerberos_enabled is off in this inventory")
    return hv


def _master():
    return sorted(GROUPS["namenode"])[0]


def _script(host, script):
    """Run a bash script on a node as root (base64 on the command line: ansible's argument splitting leaves it whole)."""
    return lab_run.shell(INVENTORY, host, "echo %s | base64 -d > /tmp/bigdata-krb-test.sh && bash /tmp/bigdata-krb-test.sh"
                         % base64.b64encode(script.encode()).decode())


def _sections(text):
    """The output of a script that echoes '@@@ name' before each step, by name."""
    out = {}
    for part in text.split("@@@ ")[1:]:
        name, _nl, body = part.partition("\n")
        out[name.strip()] = body
    return out


def test_a_client_without_a_ticket_is_refused_and_one_with_a_ticket_is_served():
    _settings()
    master = _master()
    nn = lab_run.web_url(INVENTORY, master, "namenode", master)
    nns = " ".join(lab_run.web_url(INVENTORY, h, "namenode", h) for h in sorted(GROUPS["namenode"]))
    rm = lab_run.web_url(INVENTORY, master, "resourcemanager", master)
    hdfs = "env HADOOP_CONF_DIR=/etc/hadoop/conf %s/hdfs" % HADOOP
    yarn = "env HADOOP_CONF_DIR=/etc/hadoop/conf %s/yarn" % HADOOP
    text = _script(master, "\n".join([
        "rm -f /tmp/bigdata-no-ticket",
        "echo '@@@ rpc-none'; %s %s dfs -ls / 2>&1; echo rc=$?" % (NO_TICKET, hdfs),
        "echo '@@@ rpc-ticket'; %s dfs -ls / 2>&1; echo rc=$?" % hdfs,
        "echo '@@@ yarn-none'; %s timeout 120 %s application -list 2>&1 | tail -5; echo rc=${PIPESTATUS[0]}" % (NO_TICKET, yarn),
        "echo '@@@ yarn-ticket'; timeout 120 %s application -list -appStates FINISHED 2>&1 | tail -3; echo rc=${PIPESTATUS[0]}" % yarn,
        # WebHDFS and the REST API: the user name a client claims counts for nothing without SPNEGO. Every NameNode
        # asks for it; with a ticket the active one lists (a standby answers 403, StandbyException).
        "echo '@@@ webhdfs-none'; for u in %s; do curl -s -o /dev/null -w 'code=%%{http_code} ' "
        "\"$u/webhdfs/v1/?op=LISTSTATUS&user.name=hdfs\"; done" % nns,
        "echo; echo '@@@ webhdfs-ticket'; for u in %s; do curl -s --negotiate -u : -o /dev/null -w 'code=%%{http_code} ' "
        "\"$u/webhdfs/v1/?op=LISTSTATUS\"; done" % nns,
        "echo; echo '@@@ rest-none'; for u in %s; do curl -s -o /dev/null -w 'code=%%{http_code} ' \"$u/ws/v1/cluster/apps?user.name=yarn\"; done"
        % " ".join(lab_run.web_url(INVENTORY, h, "resourcemanager", h) for h in sorted(GROUPS["resourcemanager"])),
        "echo; echo '@@@ ui-none'; curl -s -o /dev/null -w 'code=%%{http_code}' '%s/dfshealth.html'" % nn,
        "echo; echo '@@@ jmx-none'; curl -s -o /dev/null -w 'code=%%{http_code}' '%s/jmx?qry=java.lang:type=Runtime'" % rm,
        "echo",
    ]))
    got = _sections(text)
    assert "rc=0" not in got["rpc-none"] and re.search(r"GSS initiate failed|Client cannot authenticate|"
                                                       r"No valid credentials", got["rpc-none"]), got["rpc-none"][-1500:]
    assert "rc=0" in got["rpc-ticket"] and "/user" in got["rpc-ticket"], got["rpc-ticket"][-1500:]
    assert "rc=0" not in got["yarn-none"], got["yarn-none"][-1500:]
    assert "rc=0" in got["yarn-ticket"], got["yarn-ticket"][-1500:]
    assert re.findall(r"code=(\d+)", got["webhdfs-none"]) == ["401"] * len(GROUPS["namenode"]), got["webhdfs-none"]
    assert re.findall(r"code=(\d+)", got["webhdfs-ticket"]).count("200") == 1, got["webhdfs-ticket"]
    # Every ResourceManager refuses (a standby too: its filter asks before it redirects).
    assert re.findall(r"code=(\d+)", got["rest-none"]) == ["401"] * len(GROUPS["resourcemanager"]), got["rest-none"]
    assert "code=401" in got["ui-none"], got["ui-none"]
    # The health checks' JMX stays open (read-only metrics).
    assert "code=200" in got["jmx-none"], got["jmx-none"]


def test_a_principal_that_is_no_one_and_a_user_who_is_no_admin_are_refused():
    hv = _settings()
    master = _master()
    kdc = sorted(GROUPS["kdc"])[0]
    realm = hv.get("hadoop_kerberos_realm") or DEFAULTS["hadoop_kerberos_realm"]
    # An intruder with a real ticket of the realm: intruder/<host> maps to no account (auth_to_local).
    intruder = "intruder/%s@%s" % (master, realm)
    made = _script(kdc, "kadmin.local -q 'addprinc -randkey %s' >/dev/null 2>&1; rm -f /tmp/intruder.keytab; "
                        "kadmin.local -q 'ktadd -norandkey -k /tmp/intruder.keytab %s' >/dev/null && base64 -w0 /tmp/intruder.keytab; "
                        "rm -f /tmp/intruder.keytab" % (intruder, intruder))
    keytab = made.strip().split()[-1]
    nn_ids = sorted(GROUPS["namenode"])
    text = _script(master, "\n".join([
        "echo %s | base64 -d > /tmp/intruder.keytab" % keytab,
        "export KRB5CCNAME=FILE:/tmp/bigdata-intruder",
        "echo '@@@ kinit'; kinit -kt /tmp/intruder.keytab %s 2>&1; echo rc=$?; klist 2>&1 | grep -c krbtgt" % intruder,
        "echo '@@@ intruder'; env HADOOP_CONF_DIR=/etc/hadoop/conf %s/hdfs dfs -ls / 2>&1 | tail -5; echo rc=${PIPESTATUS[0]}" % HADOOP,
        "kdestroy; rm -f /tmp/intruder.keytab /tmp/bigdata-intruder; unset KRB5CCNAME",
        # spark holds a ticket of its own (its keytab): authenticated, but not an HDFS administrator.
        "echo '@@@ spark-ls'; runuser -u spark -- env HADOOP_CONF_DIR=/etc/hadoop/conf %s/hdfs dfs -ls / 2>&1 | tail -3; "
        "echo rc=${PIPESTATUS[0]}" % HADOOP,
        "echo '@@@ spark-haadmin'; runuser -u spark -- env HADOOP_CONF_DIR=/etc/hadoop/conf %s/hdfs haadmin "
        "-getAllServiceState 2>&1 | tail -5" % HADOOP,
        "echo '@@@ hdfs-haadmin'; runuser -u hdfs -- env HADOOP_CONF_DIR=/etc/hadoop/conf %s/hdfs haadmin "
        "-getAllServiceState 2>&1 | tail -5" % HADOOP,
    ]))
    _script(kdc, "kadmin.local -q 'delprinc -force %s' >/dev/null 2>&1; true" % intruder)
    got = _sections(text)
    assert "rc=0" in got["kinit"] and got["kinit"].strip().endswith("1"), got["kinit"]
    assert "rc=0" not in got["intruder"] and re.search(r"No rules applied to %s|Illegal principal name"
                                                       % re.escape(intruder), got["intruder"]), got["intruder"][-1500:]
    assert "rc=0" in got["spark-ls"], got["spark-ls"][-1500:]
    if len(nn_ids) > 1:
        # HA: the HA admin protocol is the HDFS administrator's alone (security.ha.service.protocol.acl).
        assert "is not authorized for protocol" in got["spark-haadmin"], got["spark-haadmin"][-1500:]
        assert re.search(r"\bactive\b", got["hdfs-haadmin"]) and "not authorized" not in got["hdfs-haadmin"], \
            got["hdfs-haadmin"][-1500:]


def test_keytabs_are_their_services_alone_and_the_accounts_keep_tickets():
    _settings()
    for host in sorted(GROUPS["lab_prod"]):
        text = _script(host, "\n".join([
            "echo '@@@ stat'; stat -c '%%a %%U %%G %%n' %s/*.keytab" % KEYTABS,
            "echo '@@@ tickets'; for u in $(ls /etc/bigdata-kinit.d); do echo \"$u $(runuser -u $u -- klist 2>/dev/null "
            "| sed -n 's/^Default principal: //p')\"; done",
            "echo '@@@ timer'; systemctl is-active bigdata-kinit.timer",
        ]))
        got = _sections(text)
        modes = [line.split() for line in got["stat"].splitlines() if line.strip()]
        assert modes, (host, text)
        for mode, owner, group, path in modes:
            if path.endswith("/spnego.service.keytab"):
                assert (mode, owner, group) == ("440", "root", "hadoop"), (host, path, mode, owner, group)
            else:
                assert mode == "400" and owner != "root" and group == "hadoop", (host, path, mode, owner, group)
        tickets = dict(line.split(None, 1) for line in got["tickets"].splitlines() if " " in line.strip())
        assert {"hdfs", "spark", "root"} <= set(tickets), (host, got["tickets"])
        assert all(re.match(r"^\S+/\S+@\S+$", p) for p in tickets.values()), (host, tickets)
        assert got["timer"].strip() == "active", (host, got["timer"])


# CPU ticks of a ResourceManager's delegation token renewer threads (comm "DelegationToken", the pool of "DelegationTokenRenewer
# #N": one runs the tracker of renewals for as long as the ResourceManager is active), 10 s apart; fields 14 and 15 of
# the thread's stat (utime, stime) are the 12th and 13th after the ") " that ends its name.
RENEWER_TICKS = r"""p=$(systemctl show -p MainPID --value hadoop-yarn-resourcemanager)
ticks() {
  n=0 t=0
  for d in /proc/$p/task/*; do
    [ "$(cat $d/comm 2>/dev/null)" = DelegationToken ] || continue
    n=$((n + 1)); t=$((t + $(sed 's/.*) //' $d/stat | awk '{print $12 + $13}')))
  done
  echo "$n $t"
}
set -- $(ticks); sleep 10; a=$2; set -- $(ticks)
echo "threads=$1 ticks=$(($2 - a)) hz=$(getconf CLK_TCK)"
"""


def test_the_active_resourcemanager_is_not_kept_busy_by_its_token_renewals():
    """Hadoop 3.3's tracker of token renewals loops without a pause (YARN-11178): a secure active ResourceManager used
    a whole core, idle or not (95 % of one on the lab-prod master, 2026-12-07). The collection's build of Hadoop ships a
    tracker that pauses (roles/yarn/files/token_tracker_fix): its threads must use under 5 % of a core."""
    _settings()
    seen = {}
    for host in sorted(GROUPS["resourcemanager"]):
        text = _script(host, RENEWER_TICKS)
        found = re.search(r"threads=(\d+) ticks=(-?\d+) hz=(\d+)", text)
        assert found, (host, text)
        threads, ticks, hz = (int(g) for g in found.groups())
        seen[host] = (threads, ticks / hz / 10)
    # The active ResourceManager runs the tracker: one of them has the threads at least.
    assert any(threads for threads, _share in seen.values()), seen
    assert all(share < 0.05 for _threads, share in seen.values()), "token renewer threads' share of a core: %s" % seen


# A release without the fix (Apache's tarball): the lab's own release with its share/hadoop as links, the fixes jar
# left out. (The lab runs the collection's build, which has the jar: the yarn role's module found it in place.)
FIX_SCRATCH = "/tmp/bigdata-tracker-fix-test"
FIX_JAR = "share/hadoop/yarn/lib/bigdata-spark-yarn-fixes.jar"
TRACKER_CLASS = "org/apache/hadoop/yarn/server/resourcemanager/security/DelegationTokenRenewer$DelegationTokenRenewerPoolTracker.class"


def _fix_module(host, *flags):
    return lab_run.adhoc(INVENTORY, host, "bigdata.spark.yarn_token_tracker_fix",
                         "release_dir=%s src=/opt/hadoop/fixes/token_tracker_fix" % FIX_SCRATCH,
                         flags=flags)


def test_a_release_without_the_tracker_fix_gets_it_compiled_on_the_resourcemanager_host():
    """yarn_token_tracker_fix on a release that lacks our tracker: check mode says it would add the jar and adds
    nothing; the run compiles it with the host's javac against the release's jars (the jar's tracker pauses); a rerun
    finds it in place and changes nothing."""
    _settings()
    host = sorted(GROUPS["resourcemanager"])[0]
    _script(host, "rm -rf {s} && mkdir -p {s}/share && cp -rs \"$(readlink -f /opt/hadoop/current)/share/hadoop\" {s}/share/ && "
                  "rm {s}/{jar}".format(s=FIX_SCRATCH, jar=FIX_JAR))
    try:
        check = _fix_module(host, "--check")
        assert check.returncode == 0 and "state: needed" in check.stdout and "CHANGED" in check.stdout, check.stdout[-2000:]
        assert "absent" in _script(host, "test -e {s}/{jar} && echo present || echo absent".format(s=FIX_SCRATCH, jar=FIX_JAR))
        run = _fix_module(host)
        assert run.returncode == 0 and "state: needed" in run.stdout and "CHANGED" in run.stdout, run.stdout[-2000:]
        # The new jar's tracker pauses (Thread.sleep), as the release's own does not.
        # (bash reads the script: the class name's $ escaped)
        held = _script(host, "python3 -c \"import zipfile; b = zipfile.ZipFile('{s}/{jar}').read('{cls}'); "
                             "print('tracker=' + ('pauses' if b'sleep' in b else 'spins'))\"".format(
                                 s=FIX_SCRATCH, jar=FIX_JAR, cls=TRACKER_CLASS.replace("$", "\\$")))
        assert "tracker=pauses" in held, held
        again = _fix_module(host)
        assert again.returncode == 0 and "state: in-place" in again.stdout and "CHANGED" not in again.stdout, again.stdout[-2000:]
    finally:
        _script(host, "rm -rf %s" % FIX_SCRATCH)


# The application of the renewal tests: an HDFS write, a stage whose tasks sleep past the first token renewal, then
# the executors read the files back and the driver writes the sum (new connections to the NameNode and the DataNodes,
# authenticated by the renewed tokens). The driver prints its line on stdout: the client's in client mode, the
# ApplicationMaster container's in cluster mode.
RENEW_JOB = """import os
import sys
import time
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
sc = spark.sparkContext
path, n, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
start = time.time()
sc.parallelize(range(1, n + 1), 4).saveAsTextFile(path + "/in")
sc.parallelize(range(2), 2).map(lambda i: time.sleep(seconds) or i).count()
total = sc.textFile(path + "/in").map(int).sum()
sc.parallelize([total], 1).saveAsTextFile(path + "/out")
os.write(1, (chr(10) + "renew_job total=%d seconds=%d" % (total, time.time() - start) + chr(10)).encode())
spark.stop()
"""
MODES = ("client", "cluster")


def _am_logs(app):
    """The ApplicationMaster container's stdout and stderr of a YARN application (the driver's, in cluster mode), from
    the NodeManager that ran it: secure mode keeps container logs on the nodes (no log aggregation without
    container-executor, docs/security.md), under yarn.nodemanager.log-dirs."""
    script = ("dirs=$(python3 -c \"import xml.etree.ElementTree as E; "
              "print(' '.join(p.findtext('value').replace(',', ' ') for p in E.parse('/etc/hadoop/conf/yarn-site.xml').iter('property') "
              "if p.findtext('name') == 'yarn.nodemanager.log-dirs'))\"); "
              "for d in $dirs; do for f in $d/%s/container_*_01_000001/stdout $d/%s/container_*_01_000001/stderr; do "
              "[ -f \"$f\" ] && echo \"@@@ $(basename $f)\" && cat \"$f\"; done; done; true" % (app, app))
    found = {}
    for host in sorted(GROUPS.get("nodemanagers", {})):
        found.update(_sections(_script(host, script)))
    return found


def test_spark_jobs_with_a_keytab_run_past_their_ticket_and_renew_their_tokens_in_client_and_cluster_mode():
    """Submission with a keytab (spark-submit --principal/--keytab) for applications that outlive their tickets and
    tokens, in both deploy modes at once: in client mode the driver on the submitting host logs in from the keytab; in
    cluster mode spark-submit ships the keytab through the application's staging directory and the driver in the
    ApplicationMaster logs in from it. The principal gets 60-second tickets (set for the test), the NameNode's tokens
    live hadoop_delegation_token_renew_interval (lab_prod.yml: a few minutes), and Spark logs in again from the keytab
    and gets new tokens at 75 % of that: each job runs past both its first ticket and its first tokens' renewal, and
    its executors read HDFS after it."""
    hv = _settings()
    interval = int(hv.get("hadoop_delegation_token_renew_interval") or DEFAULTS["hadoop_delegation_token_renew_interval"])
    if interval > 300:
        pytest.skip("hadoop_delegation_token_renew_interval is %d s: a renewal inside the test needs 300 s or less" % interval)
    master, kdc = _master(), sorted(GROUPS["kdc"])[0]
    realm = hv.get("hadoop_kerberos_realm") or DEFAULTS["hadoop_kerberos_realm"]
    # A one-part principal maps to its own name (auth_to_local): spark, whose HDFS home the staging directory uses.
    user = "spark@%s" % realm
    keytab = "/tmp/bigdata-renew.keytab"
    made = _script(kdc, "kadmin.local -q 'delprinc -force %s' >/dev/null 2>&1; "
                        "kadmin.local -q 'addprinc -randkey -maxlife \"60 seconds\" -maxrenewlife \"60 seconds\" %s' >/dev/null 2>&1; "
                        "rm -f /tmp/r.keytab; kadmin.local -q 'ktadd -norandkey -k /tmp/r.keytab %s' >/dev/null "
                        "&& base64 -w0 /tmp/r.keytab; rm -f /tmp/r.keytab" % (user, user, user))
    hdfs = "runuser -u spark -- env HADOOP_CONF_DIR=/etc/hadoop/conf %s/hdfs" % HADOOP
    path = "/user/spark/bigdata-renew"
    n = 1000
    # No credential cache: the keytab alone. Both jobs at once (their tasks sleep side by side).
    submit = ("cd /tmp && timeout 900 runuser -u spark -- env KRB5CCNAME=FILE:/tmp/bigdata-renew-none "
              "HADOOP_CONF_DIR=/etc/hadoop/conf SPARK_CONF_DIR=/etc/spark/conf /opt/spark/current/bin/spark-submit "
              "--master yarn --deploy-mode {mode} --name bigdata-renew-{mode} --principal %s --keytab %s "
              "--conf spark.executor.instances=2 --conf spark.dynamicAllocation.enabled=false "
              "--conf spark.executor.memory=768m --conf spark.executor.cores=1 --conf spark.driver.memory=768m "
              "/tmp/bigdata-renew-job.py %s-{mode} %d %d > /tmp/bigdata-renew-{mode}.out 2>&1; "
              "echo job_rc=$? >> /tmp/bigdata-renew-{mode}.out" % (user, keytab, path, n, int(interval * 0.75) + 30))
    try:
        text = _script(master, "\n".join([
            "echo %s | base64 -d > %s && chown spark %s && chmod 0400 %s" % (made.strip().split()[-1], keytab, keytab, keytab),
            "cat > /tmp/bigdata-renew-job.py <<'EOF'\n%sEOF" % RENEW_JOB,
            "chmod 0644 /tmp/bigdata-renew-job.py",
            "%s dfs -rm -r -f -skipTrash %s-client %s-cluster >/dev/null 2>&1" % (hdfs, path, path),
            # The ticket the principal gets: its lifetime, in seconds.
            "echo '@@@ ticket'; runuser -u spark -- env KRB5CCNAME=FILE:/tmp/bigdata-renew-cc sh -c 'kinit -kt %s %s && "
            "klist' 2>&1; rm -f /tmp/bigdata-renew-cc" % (keytab, user),
            "(%s) & %s; wait" % (submit.format(mode="cluster"), submit.format(mode="client"))]
            + ["echo '@@@ %s'; cat /tmp/bigdata-renew-%s.out; echo '@@@ %s-out'; %s dfs -cat %s-%s/out/part-* 2>&1"
               % (mode, mode, mode, hdfs, path, mode) for mode in MODES]))
    finally:
        _script(master, "rm -f %s /tmp/bigdata-renew-job.py /tmp/bigdata-renew-*.out; %s dfs -rm -r -f -skipTrash %s-client %s-cluster "
                        ">/dev/null 2>&1; true" % (keytab, hdfs, path, path))
        _script(kdc, "kadmin.local -q 'delprinc -force %s' >/dev/null 2>&1; true" % user)
    got = _sections(text)
    # The ticket lives 60 s: "MM/DD/YY HH:MM:SS  MM/DD/YY HH:MM:SS  krbtgt/..." (valid from, expires).
    times = re.search(r"(\d\d:\d\d:\d\d)\s+\S+\s+(\d\d:\d\d:\d\d)\s+krbtgt/", got["ticket"])
    assert times, got["ticket"]
    seconds = [int(h) * 3600 + int(m) * 60 + int(s) for h, m, s in (t.split(":") for t in times.groups())]
    assert 0 < (seconds[1] - seconds[0]) % 86400 <= 60, got["ticket"]
    for mode in MODES:
        client = got[mode]
        assert "job_rc=0" in client, (mode, client[-4000:])
        if mode == "client":
            driver = client
        else:
            app = re.search(r"application_\d+_\d+", client)
            assert app, client[-4000:]
            logs = _am_logs(app.group(0))
            assert "stdout" in logs and "stderr" in logs, (app.group(0), sorted(logs))
            driver = logs["stdout"] + logs["stderr"]
        found = re.search(r"^renew_job total=(\d+) seconds=(\d+)$", driver, re.M)
        assert found, (mode, driver[-4000:])
        assert int(found.group(1)) == n * (n + 1) // 2 and int(found.group(2)) > max(60, interval * 0.75), (mode, found.group(0))
        assert got[mode + "-out"].split() == [str(n * (n + 1) // 2)], (mode, got[mode + "-out"])
        # The driver logged in from the keytab at the start and again at the renewal, and sent the new tokens out.
        assert driver.count("Successfully logged into KDC") >= 2, (mode, driver[-4000:])
        assert driver.count("Scheduling renewal in") >= 2 and "Updating delegation tokens" in driver, (mode, driver[-4000:])


def test_the_history_servers_and_yarn_show_an_application_to_its_owner_and_admins_alone():
    """The history server's UI and REST API behind SPNEGO, with its ACLs (roles/spark): without a ticket 401 and a
    Negotiate challenge (what the health checks count as its answer in secure mode); spark (an admin) lists the
    applications and reads one's jobs; a user of the realm (a one-part principal, its own name) is let in and lists
    them, but may not read an application of spark's (403); a principal that maps to no account is refused (500).
    YARN's application ACLs (yarn.acl.enable, roles/yarn): the same user may not list the attempts of spark's
    application at the ResourceManager, spark may. MapReduce's job ACLs (mapreduce.cluster.acls.enabled): at the
    JobHistory server that user lists the jobs but may not read a job of spark's (the smoke's word count); spark may."""
    hv = _settings()
    host = sorted(GROUPS["spark_history"])[0]
    kdc = sorted(GROUPS["kdc"])[0]
    realm = hv.get("hadoop_kerberos_realm") or DEFAULTS["hadoop_kerberos_realm"]
    url = lab_run.web_url(INVENTORY, host, "spark_history", host)
    jhs_host = sorted(GROUPS["jobhistory"])[0]
    jhs = lab_run.web_url(INVENTORY, jhs_host, "jobhistory", jhs_host) + "/ws/v1/history/mapreduce/jobs"
    user, intruder = "bigdata-viewer@%s" % realm, "intruder/%s@%s" % (host, realm)
    made = _script(kdc, "".join("kadmin.local -q 'addprinc -randkey %s' >/dev/null 2>&1; rm -f /tmp/p.keytab; "
                                "kadmin.local -q 'ktadd -norandkey -k /tmp/p.keytab %s' >/dev/null && echo @@@ %s && "
                                "base64 -w0 /tmp/p.keytab && echo; rm -f /tmp/p.keytab; " % (p, p, p) for p in (user, intruder)))
    keytabs = dict((name, body.strip()) for name, body in _sections(made).items())
    code = "-o /tmp/bigdata-history.out -w 'code=%{http_code}'"
    # (The body too, then the status.)
    shown = "-w ' code=%{http_code}'"
    steps = ["rm -f /tmp/bigdata-no-ticket",
             "echo '@@@ none'; %s curl -s -D - %s '%s/api/v1/applications'" % (NO_TICKET, code, url),
             "echo; echo '@@@ ui-none'; %s curl -s %s '%s/'" % (NO_TICKET, code, url),
             # spark's own ticket (bigdata-kinit keeps it): the completed applications (the smoke jobs' in the lab's
             # verify, the keytab jobs' above when run alone; the server lists a new event log within its 10-s scan).
             "echo; echo '@@@ spark-list'; for i in $(seq 12); do runuser -u spark -- curl -s --negotiate -u : "
             "'%s/api/v1/applications?status=completed' > /tmp/bigdata-history.json; grep -q '\"sparkUser\" : \"spark\"' "
             "/tmp/bigdata-history.json && break; sleep 5; done; cat /tmp/bigdata-history.json" % url,
             "echo; echo '@@@ spark-mr-list'; runuser -u spark -- curl -s --negotiate -u : '%s'" % jhs]
    text = _sections(_script(host, "\n".join(steps + ["echo"])))
    assert "code=401" in text["none"] and re.search(r"(?im)^WWW-Authenticate: Negotiate", text["none"]), text["none"]
    assert "code=401" in text["ui-none"], text["ui-none"]
    apps = json.loads(text["spark-list"])
    # An application's API path: its id, and its attempt's id when it has one (a cluster-mode run's ApplicationMaster).
    mine = ["/".join([a["id"]] + ([t["attemptId"]] if t.get("attemptId") else []))
            for a in apps for t in a.get("attempts", [])[:1] if t.get("sparkUser") == "spark"]
    assert mine, "no application of spark's in the history server: %s" % text["spark-list"][:1500]
    jobs = "%s/api/v1/applications/%s/jobs" % (url, mine[0])
    mr_jobs = [j["id"] for j in (json.loads(text["spark-mr-list"]).get("jobs") or {}).get("job", []) if j.get("user") == "spark"]
    assert mr_jobs, "no MapReduce job of spark's at the JobHistory server: %s" % text["spark-mr-list"][:1500]
    mr_job = "%s/%s" % (jhs, mr_jobs[0])
    # (The refusal's message heads a stack trace: the lines that matter, not the last ones.)
    attempts = ("{as_user}env HADOOP_CONF_DIR=/etc/hadoop/conf %s/yarn applicationattempt -list %s > /tmp/bigdata-attempts.out 2>&1; "
                "rc=$?; grep -E 'privilege|appattempt_|Exception' /tmp/bigdata-attempts.out | head -4; echo rc=$rc"
                % (HADOOP, mine[0].split("/")[0]))
    steps = ["echo '@@@ spark-jobs'; runuser -u spark -- curl -s --negotiate -u : %s '%s'" % (code, jobs),
             "echo; echo '@@@ spark-mr-job'; runuser -u spark -- curl -s --negotiate -u : %s '%s'" % (shown, mr_job),
             "echo; echo '@@@ spark-attempts'; %s" % attempts.format(as_user="runuser -u spark -- ")]
    for name, principal in (("viewer", user), ("intruder", intruder)):
        steps += ["echo %s | base64 -d > /tmp/bigdata-history.keytab" % keytabs[principal],
                  "export KRB5CCNAME=FILE:/tmp/bigdata-history-cc; kinit -kt /tmp/bigdata-history.keytab %s" % principal,
                  "echo; echo '@@@ %s-list'; curl -s --negotiate -u : %s '%s/api/v1/applications'" % (name, code, url)]
        # (The intruder is refused at the door: its list alone is asked.)
        if name == "viewer":
            steps += ["echo; echo '@@@ viewer-jobs'; curl -s --negotiate -u : %s '%s'" % (code, jobs),
                      "echo; echo '@@@ viewer-mr-list'; curl -s --negotiate -u : %s '%s'" % (code, jhs),
                      "echo; echo '@@@ viewer-mr-job'; curl -s --negotiate -u : %s '%s'" % (shown, mr_job),
                      "echo; echo '@@@ viewer-attempts'; %s" % attempts.format(as_user="")]
        steps += ["kdestroy; unset KRB5CCNAME; rm -f /tmp/bigdata-history.keytab"]
    text = _sections(_script(host, "\n".join(steps + ["echo"])))
    _script(kdc, "".join("kadmin.local -q 'delprinc -force %s' >/dev/null 2>&1; " % p for p in (user, intruder)) + "true")
    assert "code=200" in text["spark-jobs"], text["spark-jobs"]
    assert "code=200" in text["viewer-list"], text["viewer-list"]
    # The ACLs: another user may not read an application of spark's (the API answers 403, Forbidden).
    assert "code=403" in text["viewer-jobs"], text["viewer-jobs"]
    # The ResourceManager: spark sees its application's attempts; the other user is refused them (without
    # yarn.acl.enable anyone authenticated may, and may kill the application too).
    assert "rc=0" in text["spark-attempts"] and "appattempt_" in text["spark-attempts"], text["spark-attempts"]
    assert "rc=0" not in text["viewer-attempts"] and "does not have privilege to see this application" in text["viewer-attempts"], \
        text["viewer-attempts"]
    # The JobHistory server: the user is let in and lists the jobs, but is refused spark's job, which spark, the owner,
    # reads at the same address. Hadoop 3.3's web services throw the ACL refusal as a bare WebApplicationException,
    # which reaches the client as a RemoteException with 500 (measured 2026-12-07), no job in it.
    assert "code=200" in text["spark-mr-job"] and mr_jobs[0] in text["spark-mr-job"], text["spark-mr-job"]
    assert "code=200" in text["viewer-mr-list"], text["viewer-mr-list"]
    assert re.search(r"code=(401|403|500)\b", text["viewer-mr-job"]) and '"user"' not in text["viewer-mr-job"] \
        and mr_jobs[0] not in text["viewer-mr-job"], text["viewer-mr-job"]
    # No rule maps intruder/<host> to an account: the filter refuses it before Spark's ACLs. Hadoop 3.3's filter lets
    # the rule's exception out as a server error: 500 (measured 2026-12-06), no listing.
    assert re.search(r"code=(401|403|500)\b", text["intruder-list"]), text["intruder-list"]
