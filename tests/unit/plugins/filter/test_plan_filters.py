"""The plan filters wrap module_utils (plan_playbook.py, jvm.py); their errors name the filter."""

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.filter.plan import FilterModule, jvm_options, plan_hosts, plan_inputs


def test_filters_are_registered():
    assert sorted(FilterModule().filters()) == ['jvm_options', 'plan_hosts', 'plan_inputs']


def test_the_filters_call_module_utils():
    hosts = plan_hosts({'hadoop': ['w'], 'nodemanagers': ['w']}, {'w': {'bigdata_hardware': {'cores': 2}}})
    assert hosts == [{'name': 'w', 'roles': ['nodemanager'], 'facts': {'cores': 2}}]
    assert plan_inputs(hosts, profile='seed', lab_inventory=True)['lab'] == {'nodes_per_machine': 1}
    assert jvm_options('-Xmx1g', ['a=b'], 17) == '-Xmx1g --add-opens=a=b'
    assert jvm_options('', heap_mb=512, initial_heap_mb=512) == '-Xms512m -Xmx512m'


@pytest.mark.parametrize('call, words', [
    (lambda: jvm_options('', heap_mb='lots'), 'jvm_options: heap_mb: expected a whole number'),
    (lambda: plan_inputs([], nope=1), r'plan_inputs: unknown argument\(s\) nope'),
    (lambda: plan_hosts(None, {}), 'plan_hosts: groups: expected'),
])
def test_errors_name_the_filter(call, words):
    with pytest.raises(AnsibleFilterError, match=words):
        call()
