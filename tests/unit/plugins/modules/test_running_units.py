"""running_units: the systemctl call and its parsing, with run_command faked."""

import json

import pytest
from ansible.module_utils import basic
from ansible.module_utils.common.text.converters import to_bytes

from ansible_collections.bigdata.spark.plugins.modules import running_units as M

LISTING = ('hadoop-hdfs-datanode.service   loaded active running HDFS DataNode\n'
           'hadoop-yarn-nodemanager.service loaded active running YARN NodeManager\n\n')


def run(monkeypatch, args, rc=0, out=LISTING, err=''):
    calls = []

    def fake_run_command(self, argv, **kwargs):
        calls.append(argv)
        return rc, out, err

    def exit_json(self, **kwargs):
        raise SystemExit(dict(kwargs, failed=False))

    def fail_json(self, **kwargs):
        raise SystemExit(dict(kwargs, failed=True))

    monkeypatch.setattr(basic, '_ANSIBLE_ARGS', to_bytes(json.dumps({'ANSIBLE_MODULE_ARGS': args})))
    monkeypatch.setattr(basic, '_ANSIBLE_PROFILE', 'legacy', raising=False)
    monkeypatch.setattr(basic.AnsibleModule, 'run_command', fake_run_command)
    monkeypatch.setattr(basic.AnsibleModule, 'exit_json', exit_json)
    monkeypatch.setattr(basic.AnsibleModule, 'fail_json', fail_json)
    with pytest.raises(SystemExit) as exc:
        M.main()
    return exc.value.args[0], calls


def test_lists_running_units_without_suffix(monkeypatch):
    result, calls = run(monkeypatch, {})
    assert result['units'] == ['hadoop-hdfs-datanode', 'hadoop-yarn-nodemanager']
    assert result['changed'] is False and result['failed'] is False
    assert calls == [['systemctl', 'list-units', '--type=service', '--state=running', '--no-legend', '--plain',
                      'hadoop-*', 'spark-*']]


def test_runs_in_check_mode(monkeypatch):
    result, calls = run(monkeypatch, {'_ansible_check_mode': True, 'patterns': ['zookeeper*']})
    assert result['units'] == ['hadoop-hdfs-datanode', 'hadoop-yarn-nodemanager'] and calls[0][-1] == 'zookeeper*'


def test_nothing_running(monkeypatch):
    result = run(monkeypatch, {}, out='')[0]
    assert result['units'] == []


def test_systemctl_failure_is_named(monkeypatch):
    result = run(monkeypatch, {}, rc=1, out='', err='Failed to connect to bus')[0]
    assert result['failed'] and result['msg'] == 'systemctl list-units failed (rc 1): Failed to connect to bus'


def test_empty_pattern_is_refused(monkeypatch):
    result, calls = run(monkeypatch, {'patterns': ['']})
    assert result['failed'] and result['msg'].startswith('patterns: a list of unit name patterns') and calls == []
