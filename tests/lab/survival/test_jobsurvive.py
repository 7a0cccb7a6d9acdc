# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""jobsurvive: every worker's daemons restart rolling (rolling_restart.yml, rolling_restart_all, the workers alone)
while a MapReduce job runs; the job must outlive the restarts and succeed with one ApplicationMaster and one
attempt per task, and no file be lost."""

from survival_lib import PLAYBOOKS, PLAYS


def test_jobsurvive(lab):
    lab.play("job-start", PLAYS / "job_start.yml", {"survival_job_ms": 240000})
    lab.play("jobsurvive", PLAYBOOKS / "rolling_restart.yml", {"rolling_restart_all": True},
             "--limit", "datanodes:nodemanagers:!namenode")
    lab.play("job-alive", PLAYS / "job_alive.yml")
    lab.play("job-wait", PLAYS / "job_wait.yml")
    found = lab.check("jobsurvive")
    assert found.intact, found
