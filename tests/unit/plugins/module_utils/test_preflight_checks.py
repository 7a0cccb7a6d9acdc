"""preflight_checks: fio, iperf3, ping, /proc/net/tcp and java parsers, clocks, thresholds and the Markdown."""

import json

import pytest

from ansible_collections.bigdata.spark.plugins.module_utils import preflight_checks as P

FIO = json.dumps({'fio version': 'fio-3.33', 'jobs': [
    {'jobname': 'seqwrite', 'error': 0, 'read': {'io_bytes': 0, 'bw_bytes': 0, 'iops': 0.0},
     'write': {'io_bytes': 67108864, 'bw_bytes': 441500000, 'iops': 421.1}},
    {'jobname': 'seqread', 'error': 0, 'read': {'io_bytes': 67108864, 'bw_bytes': 394800000, 'iops': 376.5},
     'write': {'io_bytes': 0}},
    {'jobname': 'randread', 'error': 0, 'read': {'io_bytes': 67108864, 'bw_bytes': 106500000, 'iops': 26006.3},
     'write': {'io_bytes': 0}},
]})
IPERF = json.dumps({'end': {'sum_sent': {'bits_per_second': 13.9e9, 'retransmits': 750},
                            'sum_received': {'bits_per_second': 13.82e9, 'seconds': 3.0}}})


def test_parse_fio_exact():
    assert P.parse_fio('note: both iodepth >= 1 and synchronous I/O engine\n' + FIO) == {
        'seqwrite': {'direction': 'write', 'mbps': 441.5, 'iops': 421.1},
        'seqread': {'direction': 'read', 'mbps': 394.8, 'iops': 376.5},
        'randread': {'direction': 'read', 'mbps': 106.5, 'iops': 26006.3},
    }


@pytest.mark.parametrize('text,match', [
    ('', 'expected JSON'),
    ('{"jobs": []}', 'no jobs'),
    ('{"jobs": [{"jobname": "seqread", "error": 2}]}', 'seqread failed with error 2'),
    ('{"jobs": [{"jobname": "x", "read": {"io_bytes": 0}}]}', 'no job moved any data'),
    ('{not json', 'not valid JSON'),
])
def test_parse_fio_rejects(text, match):
    with pytest.raises(P.PreflightError, match=match):
        P.parse_fio(text)


def test_parse_iperf3():
    assert P.parse_iperf3(IPERF) == {'gbps': 13.82, 'retransmits': 750, 'seconds': 3.0}
    with pytest.raises(P.PreflightError, match='unable to connect'):
        P.parse_iperf3('{"error": "unable to connect to server: Connection refused"}')
    with pytest.raises(P.PreflightError, match='bits_per_second'):
        P.parse_iperf3('{"end": {}}')


@pytest.mark.parametrize('rc,out,ok,error', [
    (0, '2 packets transmitted, 2 received, 0% packet loss', True, None),
    (1, 'ping: local error: message too long, mtu=1500', False, 'message too long, mtu=1500'),
    (1, '2 packets transmitted, 0 received, 100% packet loss', False, '100% packet loss'),
    # A reply and no summary (ci42, load 26): the full-size packet came back, the path passes.
    (1, 'PING t-lab-worker2 (10.213.186.12) 1472(1500) bytes of data.\n'
        '1480 bytes from t-lab-worker2 (10.213.186.12): icmp_seq=1 ttl=64 time=0.043 ms\n', True, None),
    # A router's "Frag needed" is no reply.
    (1, 'From 10.0.0.1 icmp_seq=1 Frag needed and DF set (mtu = 1400)\n', False, 'Frag needed and DF set (mtu = 1400)'),
])
def test_parse_ping(rc, out, ok, error):
    assert P.parse_ping(rc, out) == {'ok': ok, 'error': error}


def test_listening_ports():
    tcp = ('  sl  local_address rem_address   st\n'
           '   0: 00000000:2328 00000000:0000 0A 00000000:00000000\n'
           '   1: 0100007F:1F90 0100007F:C350 01 00000000:00000000\n')
    tcp6 = ('  sl  local_address rem_address st\n'
            '   0: 00000000000000000000000000000000:46A0 00000000000000000000000000000000:0000 0A\n')
    assert P.listening_ports([tcp, tcp6, None]) == {9000, 18080}


@pytest.mark.parametrize('text,out', [
    ('openjdk version "17.0.19" 2025-04-15\nOpenJDK Runtime Environment', ('17.0.19', 17)),
    ('java version "1.8.0_412"', ('1.8.0_412', 8)),
    ('openjdk version "21-ea" 2023-09-19', ('21-ea', 21)),
    ('bash: java: command not found', (None, None)),
])
def test_parse_java_version(text, out):
    assert P.parse_java_version(text) == out


def test_clock_offsets():
    out = P.clock_offsets({'a': {'host_time': 100.3, 'before': 100.0, 'after': 100.2},
                           'b': {'host_time': 99.9, 'before': 100.0, 'after': 100.4}})
    assert out['hosts']['a'] == {'offset_ms': 200.0, 'uncertainty_ms': 100.0}
    assert out['hosts']['b'] == {'offset_ms': -300.0, 'uncertainty_ms': 200.0}
    assert out['skew_ms'] == 500.0 and out['uncertainty_ms'] == 400.0
    with pytest.raises(P.PreflightError, match='is before the time before'):
        P.clock_offsets({'a': {'host_time': 1, 'before': 2, 'after': 1}})


@pytest.mark.parametrize('thresholds,match', [
    ({'min_speed': 1}, 'use one of'),
    ({'min_network_gbps': -1}, 'at least 0'),
    ({'min_network_gbps': '10'}, 'at least 0'),
    ({'max_clock_skew_ms': True}, 'at least 0'),
])
def test_check_thresholds_rejects(thresholds, match):
    with pytest.raises(P.PreflightError, match=match):
        P.check_thresholds(thresholds)


def report():
    return {
        'generated': 'now',
        'hosts': {'w1': {'disks': [{'path': '/data/disk1', 'dirs': ['/data/disk1'], 'fio': P.parse_fio(FIO)},
                                   {'path': '/data/disk2', 'error': 'fio job seqread failed with error 5'}],
                         'space': {'/data/disk1': {'free_gb': 5.0}}, 'ports_in_use': [9864],
                         'dns': {'w1': {'agree': False, 'problem': 'w1 -> 10.0.0.1 -> other'}}, 'java': '17.0.19'}},
        'links': [{'client': 'm', 'server': 'w1', 'gbps': 9.4}, {'client': 'w1', 'server': 'w2', 'error': 'refused'}],
        'mtu_paths': [{'client': 'm', 'server': 'w1', 'mtu': 9000, 'ok': False, 'error': 'message too long, mtu=1500'}],
        'clock': {'skew_ms': 2500.0, 'uncertainty_ms': 400.0, 'hosts': {}},
    }


def test_failures_name_host_item_and_figure():
    out = P.failures(report(), {'min_disk_read_mbps': 500, 'min_network_gbps': 10, 'max_clock_skew_ms': 1000,
                                'min_free_gb': 10, 'min_disk_write_mbps': 0})
    assert out == [
        'w1: disk /data/disk1 seqread 394.8 MB/s, below min_disk_read_mbps=500',
        'w1: fio on /data/disk2 failed: fio job seqread failed with error 5',
        'w1: /data/disk1 has 5.0 GB free, below min_free_gb=10',
        'w1: port 9864 that a daemon needs is already in use',
        'w1: DNS for w1 does not agree: w1 -> 10.0.0.1 -> other',
        'm -> w1: 9.4 Gbit/s, below min_network_gbps=10',
        'w1 -> w2: iperf3 failed: refused',
        'm -> w1: MTU 9000 does not pass end to end (message too long, mtu=1500)',
        'clock skew between hosts 2500.0 ms (+/- 400.0 ms), above max_clock_skew_ms=1000',
    ]


def test_failures_zero_turns_checks_off():
    out = P.failures(report(), {'min_disk_read_mbps': 0, 'min_network_gbps': 0, 'max_clock_skew_ms': 0, 'min_free_gb': 0})
    assert not any('below' in line or 'clock skew' in line for line in out)


def test_render_markdown_holds_the_figures():
    text = P.render_markdown(report(), ['x failed'])
    assert '| w1 | /data/disk1 | /data/disk1 | 394.8 | 441.5 | 26006.3 |' in text
    assert '| m | w1 | 9.4 |' in text
    assert '| m | w1 | 9000 | no: message too long, mtu=1500 |' in text
    assert '- FAIL: x failed' in text
    assert P.render_markdown({'hosts': {}}, []).endswith('All thresholds met.\n')
