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


def _with_tuning(tuning):
    p = params()
    p['hosts']['w1']['tuning'] = tuning
    return p


def test_page_size_advice_in_report_and_markdown():
    report = R.build(_with_tuning({'architecture': 'aarch64', 'page_size': '4096', 'distribution': 'Ubuntu',
                                   'os_family': 'Debian'}))
    advice = report['hosts']['w1']['advice']
    assert len(advice) == 1 and 'linux-generic-64k' in advice[0] and '40% faster HiBench TeraSort' in advice[0]
    markdown = R.render_markdown(report, [])
    assert '## Advice' in markdown and '- w1: aarch64 with 4 KB pages' in markdown


def test_no_page_size_advice_on_64k_or_x86():
    for tuning in ({'architecture': 'aarch64', 'page_size': 65536}, {'architecture': 'x86_64', 'page_size': 4096}, {}):
        report = R.build(_with_tuning(tuning))
        assert report['hosts']['w1']['advice'] == []
        assert '## Advice' not in R.render_markdown(report, [])


def test_bad_page_size_is_named():
    import pytest
    with pytest.raises(R.PreflightError, match='tuning.page_size'):
        R.build(_with_tuning({'architecture': 'aarch64', 'page_size': 'lots'}))


def test_rdma_and_nic_sections():
    out = '\n'.join([' #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]',
                     ' 65536      50000            0.00               23.10              0.044060'])
    path = {'ready': True, 'device': 'mlx5_0', 'port': 1, 'transport': 'RoCE', 'rate_gbps': 25.0, 'netdevs': ['ens1f0np0']}
    p = params(rdma_links=[{'client': 'w1', 'server': 'w2', 'output': out, 'error': ''}])
    p['hosts']['w1'].update(
        rdma=path,
        nic={'ens1f0np0': {'present': True, 'mtu': 9000, 'driver': 'mlx5_core', 'rings': 'rx 1024/8192, tx 1024/8192',
                           'queues': 'combined 63/63', 'irqs_on_node': '10/65 on node 0'},
             'veth0': {'present': True, 'mtu': 1500, 'driver': None, 'rings': 'not supported: a virtual interface',
                       'queues': 'ethtool is not installed', 'irqs_on_node': 'no IRQs found'}},
        nic_tuning={'before': {'ens1f0np0': {'rings': 'rx 1024/8192, tx 1024/8192'}},
                    'after': {'ens1f0np0': {'rings': 'rx 8192/8192, tx 8192/8192'}}, 'check_mode': False})
    p['hosts']['w2'] = {'probe': {}, 'fio': [], 'rdma': {'ready': False, 'reason': 'perftest is not installed (no ib_write_bw in PATH)'}}
    report = R.build(p)
    assert report['rdma']['links'][0]['average_gbps'] == 23.1 and report['rdma']['links'][0]['percent_of_rate'] == 92.4
    assert report['rdma']['hosts']['w2']['ready'] is False
    markdown = R.render_markdown(report, [])
    assert '| w1 | w2 | mlx5_0/1 | RoCE | 23.1 | 0.0 | 25.0 | 92.4 |  |' in markdown
    assert 'Not tested: w2: perftest is not installed (no ib_write_bw in PATH).' in markdown
    assert '| w1 | ens1f0np0 | mlx5_core | 9000 | rx 1024/8192, tx 1024/8192 | combined 63/63 | 10/65 on node 0 | - |' in markdown
    assert '| w1 | ens1f0np0 | rings | rx 1024/8192, tx 1024/8192 | rx 8192/8192, tx 8192/8192 |' in markdown
