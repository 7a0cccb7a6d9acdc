"""Tests of tools/failure_digest.py: the failed task of a time-stamped molecule log and why it failed."""

import importlib.util
import os

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
_spec = importlib.util.spec_from_file_location("failure_digest", os.path.join(REPO, "tools", "failure_digest.py"))
fd = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fd)

# A fatal that a rescue took (its play's recap is clean), then a pytest task that failed, then molecule's destroy.
LOG = """10:00:00 TASK [Test the NameNode format guard] ******************************************
10:00:01 fatal: [t-lab-master]: FAILED! =>
10:00:01     msg: the name directory holds an image (expected)
10:00:02 TASK [Check the guard's message] ***************************************************
10:00:02 ok: [t-lab-master]
10:00:02 PLAY RECAP *********************************************************************
10:00:02 t-lab-master               : ok=5    changed=0    unreachable=0    failed=0    skipped=0    rescued=1    ignored=0
10:00:03 TASK [Run the day-2 tests] *********************************************************
10:09:00 fatal: [localhost]: FAILED! =>
10:09:00     msg: non-zero return code
10:09:00     stdout: |-
10:09:00         ..F
10:09:00         E           AssertionError: 2 files lost
10:09:00         =========================== short test summary info ============================
10:09:00         FAILED tests/lab/test_storage.py::test_policy_change - AssertionError: 2 files lost
10:09:00         1 failed, 20 passed in 574.11s (0:09:34)
10:09:00
10:09:00 PLAY RECAP *********************************************************************
10:09:00 localhost                  : ok=14   changed=0    unreachable=0    failed=1    skipped=0    rescued=0    ignored=0
10:09:01 INFO     [lab > destroy] Executing
10:09:20 PLAY RECAP *********************************************************************
10:09:20 localhost                  : ok=3    changed=1    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0
"""


def test_the_failed_task_and_why_not_the_rescued_one():
    lines = fd.digest(LOG.splitlines())
    assert lines[0] == "failed task: Run the day-2 tests (fatal: [localhost]: FAILED! =>)"
    # pytest's short summary first, then the reasons; nothing of the rescued fatal.
    assert lines[1] == "FAILED tests/lab/test_storage.py::test_policy_change - AssertionError: 2 files lost"
    assert "E           AssertionError: 2 files lost" in lines and "msg: non-zero return code" in lines
    assert not any("expected" in line for line in lines)


def test_a_clean_log_says_nothing():
    clean = "\n".join(line for line in LOG.splitlines() if "failed=1" not in line)
    assert fd.digest(clean.splitlines()) == []


def test_at_most_max_lines():
    many = LOG.replace("10:09:00         1 failed", "\n".join("10:09:00         E   ValueError: %d" % i for i in range(50))
                       + "\n10:09:00         1 failed")
    lines = fd.digest(many.splitlines(), max_lines=10)
    assert len(lines) == 10 and lines[-1].endswith("ValueError: 49")
