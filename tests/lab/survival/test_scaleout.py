# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""scaleout: a worker joins the running lab and leaves it again, the way docs/day2.md says.

A new container starts beside the lab's (lab/lab.sh up --workers N+1) and goes into the workers' groups; `site.yml
--limit NEW` installs it alone (the plan reads the whole inventory) while rolling's MapReduce job still runs; its
DataNode and NodeManager join (plays/scaleout.yml `joined`); a second run changes nothing. A second job's containers run
on the new worker (`busy`) while playbooks/decommission.yml retires it: the job finishes with every task in its first
attempt, the node is Decommissioned with no block short of copies (`decommissioned`); recommissioned, it serves
again, and is decommissioned once more (a NodeManager stopped while RUNNING would stay RUNNING for the
ResourceManager until its liveness expires). playbooks/reset.yml on it removes the installation and keeps its blocks
(`reset`); the node leaves the exclude files (`forget`) and its container goes. Then rolling's job must end with one
ApplicationMaster and one attempt per task (all of this disturbed nothing), and no file is lost (the check's row is
`rolling+scaleout` when rolling ran first).
"""

import re

from survival_lib import PLAYBOOKS, PLAYS, SITE


def _changed(log, host):
    found = re.search(r"^%s\s+:\s+ok=\d+\s+changed=(\d+)" % re.escape(host), log, re.M)
    assert found, "no recap line for %s" % host
    return int(found.group(1))


def test_scaleout(lab):
    new, inventory = lab.add_worker()
    try:
        step = {"survival_new_node": new}
        log = lab.play("scaleout-site", SITE, None, "--limit", new, inventory=inventory)
        assert re.findall(r"^(\S+)\s+:\s+ok=", log, re.M) == [new], "site.yml --limit touched other hosts"
        # site.yml offers the balancer for the new, empty DataNode; the rerun (it ran before) does not.
        assert "DataNodes joined: %s." % new in log, log[-3000:]
        lab.play("scaleout-joined", PLAYS / "scaleout.yml", dict(step, survival_scaleout_step="joined"), inventory=inventory)
        rerun = lab.play("scaleout-rerun", SITE, None, "--limit", new, inventory=inventory)
        assert _changed(rerun, new) == 0, "the second site.yml --limit %s changed something" % new
        assert "DataNodes joined: " not in rerun

        # 12 maps of 40 s on four workers: some land on the new one. Files of their own: rolling's job still runs.
        job = {"survival_job_ms": 40000, "survival_job_maps": 12, "survival_job_name": "decommission-job"}
        lab.play("decommission-job", PLAYS / "job_start.yml", job, inventory=inventory)
        lab.play("scaleout-busy", PLAYS / "scaleout.yml", dict(step, survival_scaleout_step="busy"), inventory=inventory)
        out = lab.play("decommission", PLAYBOOKS / "decommission.yml", {"decommission_nodes": new}, inventory=inventory)
        assert re.search(r"every node decommissioned after \d+ s", out), out[-2000:]
        lab.play("decommission-job-wait", PLAYS / "job_wait.yml", job, inventory=inventory)
        lab.play("scaleout-decommissioned", PLAYS / "scaleout.yml", dict(step, survival_scaleout_step="decommissioned"),
                 inventory=inventory)
        # Recommission undoes it: the exclude files lose the name, the daemons start, the DataNode is in service and the
        # NodeManager RUNNING again (decommission.yml waits for both).
        back = lab.play("recommission", PLAYBOOKS / "decommission.yml", {"decommission_nodes": new,
                                                                         "decommission_action": "recommission"},
                        inventory=inventory)
        assert re.search(r"every node in service after \d+ s", back), back[-2000:]
        # Out again before the reset: a NodeManager that stops while RUNNING stays RUNNING for the ResourceManager until
        # its liveness expires (recovery keeps its containers), and jobs would wait on it.
        again = lab.play("decommission-again", PLAYBOOKS / "decommission.yml", {"decommission_nodes": new}, inventory=inventory)
        assert re.search(r"every node decommissioned after \d+ s", again), again[-2000:]

        lab.play("reset", PLAYBOOKS / "reset.yml", None, "--limit", new, inventory=inventory)
        lab.play("scaleout-reset", PLAYS / "scaleout.yml", dict(step, survival_scaleout_step="reset"), inventory=inventory)
        lab.play("scaleout-forget", PLAYS / "scaleout.yml", dict(step, survival_scaleout_step="forget"), inventory=inventory)
    finally:
        lab.remove_worker(new)
    # Rolling's job ran beside all of it (its long maps' idle minutes served the scale-out); its reduce may have run on
    # the new worker before the decommission, which lets running containers finish.
    step = "scaleout"
    if lab.pending_job:
        lab.play("job-wait", PLAYS / "job_wait.yml")
        lab.pending_job = False
        step = "rolling+scaleout"
    found = lab.check(step)
    assert found.intact, found
