# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The plan's fit check: does the live ResourceManager grant what the plan promises?

Usage: plan_fit.py SPEC.json   (prints one JSON object; exit 0 when every probe got what was planned)

SPEC.json: {"rm": "http://master:8088", "rm_hosts": ["master", ...], "spark_home": ..., "hadoop_home": ..., "timeout_s": 180,
            "spark": {"deploy_mode": "cluster", "planned": 2, "conf": {"spark.executor.instances": "2", ...}},
            "mapreduce": {"planned": 4, "conf": {"mapreduce.map.memory.mb": "512", ...}}}

Each probe is a real application that holds its containers without using them: a Spark application whose
driver sleeps (its executors are requested at start, static allocation), and a MapReduce sleep job with as
many maps as planned. The probe polls the ResourceManager's REST API for the application's running
containers until they reach the plan (AM or driver + the planned executors or maps) or the time is up, then
kills the application. Granted = running containers - 1 (the ApplicationMaster). With ResourceManager HA the
probes ask the active one (rm_hosts: every ResourceManager, on rm's scheme and port): a standby answers the REST
calls on applications with a redirect (307).
"""

import getpass
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.parse

PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plan_fit_probe.py")


def _curl(method, url, data=None):
    """(HTTP status, body) of a request to the cluster's own ResourceManager with curl: --negotiate answers SPNEGO
    with the caller's Kerberos ticket in secure mode (and does nothing without it); HTTPS with the system trust, which
    holds the cluster's CA."""
    argv = ["curl", "-sS", "--negotiate", "-u", ":", "--max-time", "20", "-X", method, "-w", "\n%{http_code}", url]
    if data is not None:
        argv[1:1] = ["-H", "Content-Type: application/json", "-d", data]
    # A slow answer (curl's exit 28) is asked again, twice: on a loaded machine the ResourceManager once took more than
    # 10 s to answer, which failed the whole check (the test command's single scenario, 2026-12-07).
    for _attempt in range(3):
        proc = subprocess.run(argv, capture_output=True, text=True, check=False)
        if proc.returncode != 28:
            break
    body, _sep, code = proc.stdout.rpartition("\n")
    if proc.returncode != 0:
        raise OSError("curl %s %s: exit %d: %s" % (method, url, proc.returncode, proc.stderr.strip()))
    return int(code or 0), body


def rm_get(rm, path):
    """The ResourceManager's JSON answer to a GET; None when it answers 404."""
    code, body = _curl("GET", rm + path)
    if code == 404:
        return None
    if code != 200:
        raise OSError("GET %s%s: HTTP %d" % (rm, path, code))
    return json.loads(body)


def rm_urls(spec):
    """Every ResourceManager's web address: rm's scheme and port on each of rm_hosts (rm alone without them)."""
    url = urllib.parse.urlsplit(spec["rm"])
    return [url._replace(netloc="%s:%d" % (host, url.port)).geturl() for host in spec.get("rm_hosts") or []] \
        or [spec["rm"]]


def active_rm(rms, wait_s=60):
    """The URL of the active ResourceManager: each answers /ws/v1/cluster/info itself (no redirect), with its
    haState (a ResourceManager without HA is ACTIVE too). Waits up to wait_s for an election to end."""
    deadline = time.time() + wait_s
    while True:
        states = {}
        for rm in rms:
            try:
                states[rm] = ((rm_get(rm, "/ws/v1/cluster/info") or {}).get("clusterInfo") or {}).get("haState")
            except (OSError, ValueError) as exc:
                states[rm] = str(exc)
            if states[rm] == "ACTIVE":
                return rm
        if time.time() >= deadline:
            raise OSError("no ResourceManager is active: %s" % json.dumps(states, sort_keys=True))
        time.sleep(3)


def app_info(rm, app_id):
    """The application's record, or None while the ResourceManager does not know it yet (the submitter prints
    the id, in its staging paths, before the submission completes)."""
    answer = rm_get(rm, "/ws/v1/cluster/apps/%s" % app_id)
    return answer["app"] if answer else None


def find_app(rm, name, since_ms):
    """The newest application with this name started after since_ms, or None."""
    apps = ((rm_get(rm, "/ws/v1/cluster/apps?startedTimeBegin=%d" % since_ms) or {}).get("apps") or {}).get("app") or []
    apps = [a for a in apps if a.get("name") == name]
    return max(apps, key=lambda a: a["startedTime"]) if apps else None


def kill(rm, app_id):
    try:
        code, _body = _curl("PUT", rm + "/ws/v1/cluster/apps/%s/state" % app_id, json.dumps({"state": "KILLED"}))
    except OSError:
        code = 0
    if code not in (200, 202):
        # A ResourceManager that refuses the REST call (its ACLs): the command line authenticates as the caller.
        subprocess.run([os.path.join(SPEC["hadoop_home"], "bin", "yarn"), "application", "-kill", app_id],
                       capture_output=True, check=False)


def collect(proc):
    """Read the submitter's output in the background: the lines so far, and the application id it printed."""
    seen = {"lines": [], "app_id": None}

    def read():
        for line in proc.stdout:
            seen["lines"].append(line)
            found = re.search(r"application_\d+_\d+", line)
            if found and seen["app_id"] is None:
                seen["app_id"] = found.group(0)
    threading.Thread(target=read, daemon=True).start()
    return seen


def watch(rm, name, since_ms, planned, timeout_s, proc):
    """Poll until the application holds planned + 1 containers or the time is up; return what it held.
    The application is killed whatever happens: a probe left running would hold the cluster."""
    app, info, best, started = None, None, 0, None
    seen = collect(proc)
    try:
        deadline = time.time() + timeout_s
        while time.time() < deadline:
            if app is None and seen["app_id"]:
                app = {"id": seen["app_id"]}
            if app is None:
                app = find_app(rm, name, since_ms)
            info = app_info(rm, app["id"]) if app is not None else None
            if info is not None:
                running = int(info.get("runningContainers") or 0)
                best = max(best, running)
                if info.get("state") == "RUNNING" and started is None:
                    started = time.time()
                if running >= planned + 1 or info.get("state") in ("FINISHED", "FAILED", "KILLED"):
                    break
            elif app is None and proc.poll() is not None:
                break  # the submitter ended without an application
            time.sleep(2)
        info = app_info(rm, app["id"]) if app is not None else None
    finally:
        if app is not None:
            kill(rm, app["id"])
        if proc.poll() is None:
            proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    # YARN may hand out a surplus container for a moment (the application releases it): granted counts up to
    # the plan, peak_containers says what was seen.
    result = {"app_id": app and app["id"], "granted": min(max(0, best - 1), planned), "planned": planned,
              "peak_containers": best, "seconds_to_grant": round(time.time() - started, 1) if started else None}
    if info is None:
        result["error"] = "the application never reached the ResourceManager: " + "".join(seen["lines"])[-1500:]
        return result
    result.update(state=info.get("state"), allocated_mb=info.get("allocatedMB"),
                  diagnostics=(info.get("diagnostics") or "")[:300])
    if info.get("state") == "FAILED" and best - 1 < planned:
        result["error"] = "the application failed: " + result["diagnostics"]
    return result


def spark_probe(spec, tag):
    s = spec["spark"]
    name = "bigdata-plan-fit-spark-" + tag
    argv = [os.path.join(spec["spark_home"], "bin", "spark-submit"), "--master", "yarn",
            "--deploy-mode", s["deploy_mode"], "--name", name,
            "--conf", "spark.yarn.submit.waitAppCompletion=false",
            "--conf", "spark.dynamicAllocation.enabled=false",
            # killed on purpose: no event log left "in progress" for the history server to list
            "--conf", "spark.eventLog.enabled=false"]
    for key, value in sorted(s["conf"].items()):
        argv += ["--conf", "%s=%s" % (key, value)]
    argv += [PROBE, str(spec["timeout_s"] + 60)]
    since = int(time.time() * 1000) - 5000
    rm = active_rm(rm_urls(spec))
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return dict(watch(rm, name, since, int(s["planned"]), spec["timeout_s"], proc),
                deploy_mode=s["deploy_mode"], conf=s["conf"])


def mapreduce_probe(spec, tag):
    m = spec["mapreduce"]
    name = "bigdata-plan-fit-mr-" + tag
    home = spec["hadoop_home"]
    jars = os.path.join(home, "share", "hadoop", "mapreduce")
    tests = sorted(f for f in os.listdir(jars) if re.match(r"hadoop-mapreduce-client-jobclient-.*-tests\.jar$", f))
    if not tests:
        return {"error": "no hadoop-mapreduce-client-jobclient tests jar (the sleep job) in %s" % jars}
    argv = [os.path.join(home, "bin", "hadoop"), "jar", os.path.join(jars, tests[-1]), "sleep",
            "-Dmapreduce.job.name=" + name, "-Dmapreduce.map.speculative=false"]
    for key, value in sorted(m["conf"].items()):
        argv.append("-D%s=%s" % (key, value))
    argv += ["-m", str(m["planned"]), "-r", "0", "-mt", str((spec["timeout_s"] + 60) * 1000)]
    since = int(time.time() * 1000) - 5000
    rm = active_rm(rm_urls(spec))
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    result = watch(rm, name, since, int(m["planned"]), spec["timeout_s"], proc)
    if result.get("app_id"):
        remove_staging(home, result["app_id"])
    return dict(result, conf=m["conf"])


def remove_staging(home, app_id):
    """A MapReduce job killed from outside leaves its staging files (job.jar, job.split: 10 replicas asked for,
    mapreduce.client.submit.file.replication) behind as under-replicated blocks on a small cluster: remove them."""
    hdfs = os.path.join(home, "bin", "hdfs")
    root = subprocess.run([hdfs, "getconf", "-confKey", "yarn.app.mapreduce.am.staging-dir"], capture_output=True,
                          text=True, check=False).stdout.strip() or "/tmp/hadoop-yarn/staging"
    path = "%s/%s/.staging/%s" % (root, getpass.getuser(), app_id.replace("application_", "job_", 1))
    subprocess.run([hdfs, "dfs", "-rm", "-r", "-f", "-skipTrash", path], capture_output=True, check=False)


SPEC = {}


def main():
    global SPEC
    with open(sys.argv[1]) as fh:
        SPEC = json.load(fh)
    tag = str(int(time.time()))
    report = {}
    if SPEC.get("spark"):
        report["spark"] = spark_probe(SPEC, tag)
    if SPEC.get("mapreduce"):
        report["mapreduce"] = mapreduce_probe(SPEC, tag)
    if not report:
        print(json.dumps({"passed": False, "error": "no probe asked for (spark, mapreduce)"}))
        return 1
    ok = all(not r.get("error") and r["granted"] >= r["planned"] for r in report.values())
    report["passed"] = ok
    print(json.dumps(report, sort_keys=True))
    return 0 if ok else 1


def guarded():
    """main(), with any failure reported as JSON (the playbook reads one JSON object)."""
    try:
        return main()
    except Exception as exc:  # pylint: disable=broad-except
        print(json.dumps({"passed": False, "error": "%s: %s" % (type(exc).__name__, exc)}))
        return 1


if __name__ == "__main__":
    sys.exit(guarded())
