"""preflight_report: building the report from raw outputs."""

import json

from ansible_collections.bigdata.spark.plugins.modules import preflight_report as R

FIO = json.dumps({'jobs': [{'jobname': 'seqread', 'read': {'io_bytes': 1, 'bw_bytes': 500e6, 'iops': 476.8}}]})


def params(**changes):
    p = {'hosts': {'w1': {'probe': {'space': {'/data/disk1': {'free_gb': 100.0}}, 'ports_in_use': [], 'dns': {},
                                    'java': '17.0.19'},
                          'fio': [{'path': '/data/disk1', 'dirs': ['/data/disk1'], 'output': FIO, 'error': ''},
                                  {'path': '/data/disk2', 'output': '', 'error': 'fio: engine libaio not loadable'}]}},
         'links': [{'client': 'm', 'server': 'w1', 'output': json.dumps({'end': {'sum_received': {'bits_per_second': 9.41e9}}}),
                    'error': ''},
                   {'client': 'w1', 'server': 'm', 'output': '', 'error': 'iperf3: error - unable to connect to server'}],
         'mtu_paths': [{'client': 'm', 'server': 'w1', 'mtu': 1500, 'rc': 0, 'output': '2 received'}],
         'clock_samples': {'w1': {'host_time': '10.5', 'before': 10.0, 'after': 11.0}},
         'thresholds': {'min_disk_read_mbps': 600.0}, 'generated': 't'}
    p.update(changes)
    return p


def test_preflight_report_build_and_failures():
    report = R.build(params())
    disks = report['hosts']['w1']['disks']
    assert disks[0]['fio']['seqread']['mbps'] == 500.0
    assert disks[1]['error'] == 'fio: engine libaio not loadable'
    assert report['links'][0]['gbps'] == 9.41
    assert report['links'][1]['error'] == 'iperf3: error - unable to connect to server'
    assert report['mtu_paths'][0]['ok'] is True
    assert report['clock']['hosts']['w1'] == {'offset_ms': 0.0, 'uncertainty_ms': 500.0}
    failed = R.failures(report, params()['thresholds'])
    assert 'w1: disk /data/disk1 seqread 500.0 MB/s, below min_disk_read_mbps=600.0' in failed
    assert 'w1 -> m: iperf3 failed: iperf3: error - unable to connect to server' in failed
