# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""rolling: a tuning value of hdfs-site and yarn-site changes; site.yml limited to the install and configure tags
rewrites the files and restarts the changed daemons rolling (playbooks/restart.yml), masters and workers, while a
MapReduce job runs. The daemons must run with the new values, the job outlive the restarts and succeed with one
ApplicationMaster and one attempt per task (plays/job_wait.yml), and no file be lost. When scaleout runs next, the job
is waited for there, after a worker joined and left beside it (its maps' idle minutes serve the scale-out), and the
files are read back there."""

import lab_run
from survival_lib import PLAYS, SITE, live_conf, tuning

TAGS = "hadoop_common_configure,hdfs_install,hdfs_configure,yarn_install,yarn_configure"


def test_rolling(lab):
    new = tuning(7, 30)
    # Maps of 12 minutes, 16 in secure mode: the rolling step took 306-551 s in CI runs under simple authentication and
    # 557-703 s in secure mode; a job that ends before the restarts do proves nothing (job_alive.yml fails then). With
    # scaleout next the job ends during it (rolling and scale-out take over 1000 s together), so no minute is lost.
    master = sorted(lab_run.inventory_groups(lab.inventory)["namenode"])[0]
    secure = lab_run.host_vars(lab.inventory, master).get("hadoop_kerberos_enabled") is True
    lab.play("job-start", PLAYS / "job_start.yml", {"survival_job_ms": 960000 if secure else 720000})
    lab.play("rolling", SITE, new, "--tags", TAGS)
    # The restarted daemons run with the new values (their /conf pages), not only the files.
    lab.play("live-conf", PLAYS / "live_conf.yml", live_conf(new))
    lab.play("job-alive", PLAYS / "job_alive.yml")
    if "scaleout" in lab.actions:
        # scaleout runs in the job's idle minutes, then waits for it and reads the files back (a Spark check beside
        # the job can find no free cores on the lab's two-core nodes).
        lab.pending_job = True
        return
    lab.play("job-wait", PLAYS / "job_wait.yml")
    found = lab.check("rolling")
    assert found.intact, found
