# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The data-survival tests' helpers: run a playbook of the collection or of plays/ against the lab, read a
check's report, keep the table of files checked and lost (a TSV file, one row per check).

The pure parts (extra vars, the command line, which files were lost, the table) are unit-tested in
tests/unit/lab/test_survival_lib.py; Lab runs ansible-playbook.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

import yaml

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE.parent))
import lab_run  # noqa: E402  (tests/lab/lab_run.py: the inventory's groups)
PLAYS = HERE / "plays"
PLAYBOOKS = ROOT / "playbooks"
SITE = PLAYBOOKS / "site.yml"

# The order the actions run in, whichever of them are named: files first, molecule's idempotence run before any
# other change, an upgrade before its rollback or finalize.
# scaleout right after rolling: it runs while rolling's job still runs (the job is waited for after the new node
# joined), and before stopstart, whose NameNode restarts forget the removed node.
ORDER = ("write", "idempotence", "rerun", "rolling", "scaleout", "jobsurvive", "stopstart", "killdn", "interrupt",
         "upgrade", "rollback", "finalize")

# Extra vars replace the inventory's hdfs_site_overrides whole: the lab's own (inventories/lab/group_vars/all.yml: a
# killed DataNode declared dead in about 50 s, a restarted NameNode out of safe mode 3 s after its blocks are in) are
# kept in them. (Before they were read from the file, the safe-mode value was dropped: every NameNode restart of the
# rolling step and after it waited Hadoop's 30 s.)
LAB_HDFS_SITE = yaml.safe_load((ROOT / "inventories/lab/group_vars/all.yml").read_text())["hdfs_site_overrides"]
# The daemon whose /conf page shows each tuning property: the DataNode and the NodeManager (plays/live_conf.yml asks
# the daemon table for its web address: https with TLS).
CONF_DAEMONS = {"dfs.datanode.handler.count": "datanode", "yarn.nodemanager.delete.debug-delay-sec": "nodemanager"}
MD5_LINE = re.compile(r"^[0-9a-f]{32}  ")
COLUMNS = ("step", "files checked", "files lost")


def tuning(handlers, delete_delay):
    """Extra vars that change one tuning value of hdfs-site.xml and one of yarn-site.xml."""
    return {"hdfs_site_overrides": dict(LAB_HDFS_SITE, **{"dfs.datanode.handler.count": handlers}),
            "yarn_site_overrides": {"yarn.nodemanager.delete.debug-delay-sec": delete_delay}}


def live_conf(extra):
    """plays/live_conf.yml's extra vars: every tuning value of `extra` that a worker daemon's /conf page shows."""
    overrides = dict(extra.get("hdfs_site_overrides", {}), **extra.get("yarn_site_overrides", {}))
    return {"survival_live_conf": [{"daemon": CONF_DAEMONS[name], "property": name, "value": value}
                                   for name, value in overrides.items() if name in CONF_DAEMONS]}


def argv(inventory, playbook, extra=None, args=(), extra_vars_file=None):
    """ansible-playbook's command line; the scenario's vars file first, so this run's extra vars win."""
    cmd = [shutil.which("ansible-playbook") or "ansible-playbook", "-i", str(inventory)]
    if extra_vars_file:
        cmd += ["-e", "@" + str(extra_vars_file)]
    cmd.append(str(playbook))
    if extra:
        cmd += ["-e", json.dumps(extra, sort_keys=True)]
    return cmd + list(args)


def next_worker(groups):
    """(the lab's name, the next worker's name) from an inventory's groups: NAME-master, NAME-worker1..N."""
    hosts = sorted(groups.get("all", {}))
    master = next((h for h in hosts if h.endswith("-master")), None)
    if master is None:
        raise ValueError("no NAME-master host in the inventory (a lab made by lab/lab.sh): %s" % hosts)
    name = master[:-len("-master")]
    numbers = [int(h.rsplit("worker", 1)[1]) for h in hosts if re.match(re.escape(name) + r"-worker\d+$", h)]
    return name, "%s-worker%d" % (name, max(numbers, default=0) + 1)


# The groups a worker of the lab is in that every worker is in: the workers' daemons, and the settings of the lab's
# shape (lab_prod: inventories/lab/group_vars/lab_prod.yml, TLS, tiers, secure mode...) and of the test command's nodes
# (lab_test: its JVMs' flags, inventories/lab/group_vars/lab_test.yml). Not the quorums and masters
# (zookeeper, journalnodes, kms...) the last worker may also hold.
WORKER_GROUPS = ("hadoop", "workers", "datanodes", "nodemanagers", "lab_prod", "lab_test")


def scaleout_inventory(groups, new, address):
    """The inventory file that adds `new` (at `address`) to the groups of WORKER_GROUPS the lab's last worker is in,
    with that worker's connection variables. (make lab-prod's inventory makes lab_prod of the workers' group;
    molecule's lists its hosts, so a worker added there must be put in it, or it would run without the shape's
    settings: plain HTTP and simple authentication beside TLS and Kerberos.)"""
    worker = sorted(h for h in groups.get("workers", {}) if "-worker" in h)[-1]
    variables = dict(groups["workers"][worker])
    variables["ansible_host"] = address
    if "bigdata_lab_ip" in variables:
        variables["bigdata_lab_ip"] = address
    names = [g for g in WORKER_GROUPS if worker in groups.get(g, {})]
    children = dict((g, {"hosts": {new: dict(variables) if g == "workers" else None}}) for g in names)
    return {"all": {"children": children}}


def lost_files(expected, hdfs, spark):
    """Names of the files that HDFS or the Spark job did not read back with their MD5.

    expected: expected.md5's text ("<md5>  <name>" lines); hdfs: "ok NAME" / "lost NAME" lines; spark: the job's
    stdout, whose "<md5>  <name>" lines count (other lines are Spark's own)."""
    read_by_spark = {line for line in spark if MD5_LINE.match(line)}
    names = {line.split()[-1] for line in hdfs if line.startswith("lost ")}
    names |= {line.split()[-1] for line in expected.strip().splitlines() if line not in read_by_spark}
    return sorted(names)


@dataclasses.dataclass(repr=False)
class Found:
    """What one check read: the files it should find, those it checked and lost, whether the marker is there."""
    step: str
    files: int
    checked: int
    lost: list
    marker: bool
    spark: list = dataclasses.field(default_factory=list)

    @classmethod
    def from_report(cls, step, report):
        """From plays/check.yml's JSON report (a dict)."""
        expected = report["expected"].strip().splitlines()
        return cls(step, int(report["files"]), len(expected), lost_files(report["expected"], report["hdfs"], report["spark"]),
                   bool(report["marker"]), report["spark"])

    @property
    def intact(self):
        return self.checked == self.files and not self.lost

    def row(self):
        return (self.step, self.checked, len(self.lost))

    def __str__(self):
        if self.intact:
            return "step %s: %d files checked through HDFS and Spark, 0 lost" % (self.step, self.checked)
        return "step %s: %d of %d files checked, lost %s; Spark said %s" % (self.step, self.checked, self.files, self.lost, self.spark)

    # pytest shows an assertion's message object by its repr.
    __repr__ = __str__


def table(rows):
    """The results as a Markdown table."""
    lines = ["| %s |" % " | ".join(COLUMNS), "| %s |" % " | ".join(["---"] * len(COLUMNS))]
    return lines + ["| %s |" % " | ".join(str(cell) for cell in row) for row in rows]


def read_rows(path):
    """The TSV file's rows (step, files checked, files lost)."""
    try:
        text = pathlib.Path(path).read_text()
    except FileNotFoundError:
        return []
    return [tuple(line.split("\t")) for line in text.splitlines() if line]


class PlayFailed(AssertionError):
    """A playbook run failed: its log's end in the message."""

    def __init__(self, what, log, lines=40):
        tail = "\n".join(pathlib.Path(log).read_text(errors="replace").splitlines()[-lines:])
        super().__init__("survival: %s (log %s):\n%s" % (what, log, tail))


class Lab:
    """Runs playbooks against one inventory; each run's output goes to LOG_DIR/NAME.log."""

    def __init__(self, inventory, results, log_dir, extra_vars_file=None):
        self.inventory = inventory
        self.results = pathlib.Path(results)
        self.log_dir = pathlib.Path(log_dir)
        self.extra_vars_file = extra_vars_file
        self.times = []
        # The actions of this run (conftest.py), and whether a job started by one waits for a later one to end.
        self.actions = []
        self.pending_job = False
        # Extra vars every later run gets (under its own): the release an upgrade moved the lab to, which the inventory
        # does not name.
        self.pinned = {}
        self.env = dict(os.environ, ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0", PYTHONUNBUFFERED="1")
        self.env.setdefault("ANSIBLE_CONFIG", str(ROOT / "ansible.cfg"))

    def start(self):
        """One run, one table."""
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.results.parent.mkdir(parents=True, exist_ok=True)
        self.results.write_text("")

    def _argv(self, playbook, extra, args, inventory=None):
        if self.pinned:
            extra = dict(self.pinned, **(extra or {}))
        return argv(inventory or self.inventory, playbook, extra, args, self.extra_vars_file)

    def play(self, name, playbook, extra=None, *args, inventory=None):
        """Run a playbook to its end (against `inventory` when given); its output, or PlayFailed with the log's end."""
        log = self.log_dir / (name + ".log")
        start = time.monotonic()
        with open(log, "w") as out:
            rc = subprocess.run(self._argv(playbook, extra, args, inventory), stdout=out, stderr=subprocess.STDOUT, cwd=ROOT,
                                env=self.env, check=False).returncode
        self.times.append((name, round(time.monotonic() - start)))
        if rc != 0:
            raise PlayFailed("%s failed (exit %d)" % (name, rc), log)
        return log.read_text(errors="replace")

    def play_killed(self, name, playbook, at_task, extra=None, timeout=1800):
        """Start a run, SIGKILL it 3 s after it reached the task `at_task`; the last task it started."""
        log = self.log_dir / (name + ".log")
        marker = "TASK [%s]" % at_task
        waited = 0
        with open(log, "w") as out:
            proc = subprocess.Popen(self._argv(playbook, extra, ()), stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, env=self.env)
            while marker not in log.read_text(errors="replace"):
                if proc.poll() is not None:
                    raise PlayFailed("%s: the run ended before it could be interrupted" % name, log)
                if waited >= timeout:
                    proc.kill()
                    proc.wait()
                    raise PlayFailed("%s: no %s after %d s" % (name, marker, waited), log)
                time.sleep(2)
                waited += 2
            time.sleep(3)
            proc.kill()
            proc.wait()
        tasks = [line for line in log.read_text(errors="replace").splitlines() if line.startswith("TASK [")]
        self.times.append((name, waited + 3))
        return tasks[-1]

    def add_worker(self):
        """Start one more worker container beside the lab's (lab/lab.sh up --workers N+1); (its name, an inventory
        directory: the lab's inventory with the new worker in the workers' groups)."""
        groups = lab_run.inventory_groups(self.inventory)
        name, new = next_worker(groups)
        workers = int(new.rsplit("worker", 1)[1])
        lab_sh = str(ROOT / "lab" / "lab.sh")
        subprocess.run([lab_sh, "up", "--name", name, "--workers", str(workers)], cwd=ROOT, env=self.env, check=True,
                       capture_output=True, text=True)
        hosts = subprocess.run([lab_sh, "hosts", "--name", name, "--workers", str(workers)], cwd=ROOT, env=self.env,
                               check=True, capture_output=True, text=True).stdout
        address = dict(line.split() for line in hosts.splitlines() if line.strip())[new]
        inventory = self.log_dir / "scaleout-inventory"
        if inventory.exists():
            shutil.rmtree(inventory)
        source = pathlib.Path(self.inventory)
        if source.is_dir():
            shutil.copytree(source, inventory, symlinks=False)
        else:
            inventory.mkdir(parents=True)
            shutil.copy(source, inventory / source.name)
        (inventory / "zz-scaleout.yml").write_text(yaml.safe_dump(scaleout_inventory(groups, new, address)))
        return new, str(inventory)

    def remove_worker(self, new):
        """Remove the added worker's container (its data with it)."""
        subprocess.run(["podman", "rm", "-f", "-t", "5", new], cwd=ROOT, env=self.env, check=True, capture_output=True)

    def check(self, step):
        """Read every file back (plays/check.yml); the row goes to the table before the test judges it."""
        report = self.log_dir / ("check-%s.json" % step)
        if report.exists():
            report.unlink()
        self.play("check-" + step, PLAYS / "check.yml", {"survival_report": str(report)})
        found = Found.from_report(step, json.loads(report.read_text()))
        with open(self.results, "a") as out:
            out.write("%s\t%d\t%d\n" % found.row())
        return found

    def summary(self):
        """The time of every run, then the table."""
        lines = ["survival: %s done in %d s" % took for took in self.times]
        return lines + [""] + table(read_rows(self.results))
