"""Tests of tools/step_times.py: the molecule step and slow-task times of a time-stamped log."""

import importlib.util
import os

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
_spec = importlib.util.spec_from_file_location("step_times", os.path.join(REPO, "tools", "step_times.py"))
st = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(st)

LOG = """23:50:00 INFO     [lab > create] Executing
23:50:08 INFO     [lab > create] Executed: Successful
23:50:08 INFO     [lab > verify] Executing
23:50:09 TASK [Run the shared checks] ***************************************
23:50:10 some output
23:51:40 TASK [Run the data-survival steps] *********************************
23:59:59 ok: [localhost]
00:10:40 TASK [Show the data-survival table] ********************************
00:10:41 INFO     [lab > verify] Executed: Successful
00:10:41 INFO     [lab > destroy] Executing
not stamped, ignored
"""


def test_steps_tasks_and_midnight():
    steps = st.parse(LOG.splitlines(True))
    assert [(s['step'], s['seconds']) for s in steps] == [('create', 8), ('verify', 1233), ('destroy', None)]
    verify = steps[1]['tasks']
    assert verify == [('Run the shared checks', 91), ('Run the data-survival steps', 1140),
                      ('Show the data-survival table', 1)]


def test_report_lists_only_slow_tasks():
    lines = st.report(st.parse(LOG.splitlines(True)), min_task_seconds=60)
    assert lines == ['lab create       8 s', 'lab verify       1233 s', '       91 s  Run the shared checks',
                     '     1140 s  Run the data-survival steps', 'lab destroy      unfinished']


def test_unstamped_log_is_an_error(tmp_path, capsys):
    log = tmp_path / "plain.log"
    log.write_text("INFO     [lab > create] Executing\n")
    assert st.main([str(log)]) == 1
    assert 'no time-stamped molecule steps' in capsys.readouterr().err
