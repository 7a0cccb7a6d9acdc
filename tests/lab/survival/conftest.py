# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The data-survival actions, one file each, as one pytest run against a converged lab:

    BIGDATA_LAB_INVENTORY=inventories/lab pytest -x -p no:cacheprovider \\
        tests/lab/survival/test_write.py tests/lab/survival/test_rolling.py tests/lab/survival/test_killdn.py

Whatever order they are named in, the actions run in survival_lib.ORDER (write first, an upgrade before its
rollback). After the run: each playbook run's time and the table of files checked and lost.
    SURVIVAL_EXTRA_VARS     a vars file given to every playbook run (-e @FILE), for a scenario's install settings
    SURVIVAL_RESULTS        the table, a TSV file (default /tmp/bigdata-survival-results.tsv), emptied by each run
    SURVIVAL_LOG_DIR        each playbook run's output (default /tmp/bigdata-survival-logs)
    SURVIVAL_UPGRADE_FROM, SURVIVAL_UPGRADE_TO   the releases of upgrade, rollback and finalize
"""

import os

import pytest

import survival_lib

_RUNS = []
_ACTIONS = []


@pytest.fixture(scope="session")
def lab():
    inventory = os.environ.get("BIGDATA_LAB_INVENTORY", "")
    if not inventory:
        pytest.skip("set BIGDATA_LAB_INVENTORY to a converged lab's inventory")
    run = survival_lib.Lab(inventory, os.environ.get("SURVIVAL_RESULTS") or "/tmp/bigdata-survival-results.tsv",
                           os.environ.get("SURVIVAL_LOG_DIR") or "/tmp/bigdata-survival-logs",
                           os.environ.get("SURVIVAL_EXTRA_VARS") or None)
    run.actions = list(_ACTIONS)
    run.start()
    _RUNS.append(run)
    return run


@pytest.fixture(scope="session")
def releases():
    """(the release running before the upgrade, the release upgraded to)."""
    old, new = os.environ.get("SURVIVAL_UPGRADE_FROM", ""), os.environ.get("SURVIVAL_UPGRADE_TO", "")
    if not (old and new):
        pytest.skip("set SURVIVAL_UPGRADE_FROM and SURVIVAL_UPGRADE_TO")
    return old, new


def pytest_collection_modifyitems(items):
    """Actions in ORDER; any other test keeps its place before them."""
    def rank(item):
        action = item.path.stem[len("test_"):]
        return survival_lib.ORDER.index(action) if item.path.parent == survival_lib.HERE and action in survival_lib.ORDER else -1
    items.sort(key=rank)
    _ACTIONS[:] = [item.path.stem[len("test_"):] for item in items if rank(item) >= 0]


def pytest_terminal_summary(terminalreporter):
    for run in _RUNS:
        terminalreporter.write_line("")
        for line in run.summary():
            terminalreporter.write_line(line)
