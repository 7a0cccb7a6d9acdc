"""preflight_checks' RDMA helpers: the path a host's ib_write_bw runs on (or why none), the parsing of ib_write_bw's
result table, and the report's rows and failures.

The fixture follows the layout perftest's ib_write_bw client prints: a banner of settings between dashed lines, the
local and remote addresses, then the "#bytes #iterations BW peak[Gb/sec] BW average[Gb/sec] MsgRate[Mpps]" table
(--report_gbits; without it the columns say MB/sec).
"""

import pytest

from ansible_collections.bigdata.spark.plugins.filter.preflight import FilterModule, preflight_rdma_path
from ansible_collections.bigdata.spark.plugins.module_utils import preflight_checks as P

DASH = '-' * 87
IB_WRITE_BW = '\n'.join([
    DASH,
    '                    RDMA_Write BW Test',
    ' Dual-port       : OFF\t\tDevice         : mlx5_0',
    ' Number of qps   : 1\t\tTransport type : IB',
    ' Connection type : RC\t\tUsing SRQ      : OFF',
    ' TX depth        : 128',
    ' CQ Moderation   : 1',
    ' Mtu             : 4096[B]',
    ' Link type       : IB',
    ' Max inline data : 0[B]',
    ' rdma_cm QPs\t : OFF',
    ' Data ex. method : Ethernet',
    DASH,
    ' local address: LID 0x01 QPN 0x0117 PSN 0x5a2f6b RKey 0x1fffbd VAddr 0x007f1e2c5a0000',
    ' remote address: LID 0x02 QPN 0x0118 PSN 0x9c4a1e RKey 0x1fffbe VAddr 0x007fa3e1e50000',
    DASH,
    ' #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]',
    ' 65536      1104000          0.00               96.43  \t\t   0.183924',
    DASH,
    ''])
PORT = {'port': 1, 'link_layer': 'InfiniBand', 'transport': 'IB', 'rate': '100 Gb/sec (4X EDR)', 'rate_gbps': 100.0,
        'state': 'ACTIVE', 'phys_state': 'LinkUp', 'netdevs': []}
DEVICES = [{'device': 'mlx5_0', 'netdevs': ['ib0'], 'ports': [PORT]}]


def test_parse_ib_write_bw():
    assert P.parse_ib_write_bw(IB_WRITE_BW) == {'bytes': 65536, 'iterations': 1104000, 'peak_gbps': 0.0,
                                                'average_gbps': 96.43, 'msg_rate_mpps': 0.183924}


@pytest.mark.parametrize('text, match', [
    (IB_WRITE_BW.replace('Gb/sec', 'MB/sec'), r'expected "BW average\[Gb/sec\]" \(run it with --report_gbits\)'),
    ('Couldn\'t connect to 10.0.0.2:18515', 'no "#bytes" result table'),
    (IB_WRITE_BW.split(' 65536', maxsplit=1)[0], 'no result line under'),
])
def test_parse_ib_write_bw_refuses(text, match):
    with pytest.raises(P.PreflightError, match=match):
        P.parse_ib_write_bw(text)


def test_rdma_path_picks_the_first_active_port():
    down = dict(PORT, state='DOWN', phys_state='Polling')
    devices = [{'device': 'mlx5_0', 'netdevs': [], 'ports': [down]},
               {'device': 'mlx5_1', 'netdevs': ['ens2f1np1'], 'ports': [dict(PORT, link_layer='Ethernet', transport='RoCE',
                                                                             rate_gbps=25.0)]}]
    assert P.rdma_path(devices, True) == {'ready': True, 'device': 'mlx5_1', 'port': 1, 'transport': 'RoCE',
                                          'rate_gbps': 25.0, 'netdevs': ['ens2f1np1']}


@pytest.mark.parametrize('devices, tool, reason', [
    ([], True, 'no RDMA device (/sys/class/infiniband is empty or absent)'),
    (DEVICES, False, 'perftest is not installed (no ib_write_bw in PATH)'),
    ([{'device': 'mlx5_0', 'ports': [dict(PORT, state='DOWN')]}, {'device': 'mlx5_1', 'ports': [dict(PORT, state='INIT')]}],
     True, 'no ACTIVE RDMA port (mlx5_0 port 1 DOWN, mlx5_1 port 1 INIT)'),
    ([{'device': 'rxe0', 'ports': []}], True, 'no ACTIVE RDMA port (no ports)'),
])
def test_rdma_path_says_why_not(devices, tool, reason):
    assert P.rdma_path(devices, tool) == {'ready': False, 'reason': reason}


def test_rdma_link_against_the_port_rate_and_failures():
    path = P.rdma_path(DEVICES, True)
    row = P.rdma_link('w1', 'w2', path, IB_WRITE_BW)
    assert row == {'client': 'w1', 'server': 'w2', 'device': 'mlx5_0', 'port': 1, 'transport': 'IB', 'rate_gbps': 100.0,
                   'bytes': 65536, 'iterations': 1104000, 'peak_gbps': 0.0, 'average_gbps': 96.43,
                   'msg_rate_mpps': 0.183924, 'percent_of_rate': 96.4}
    bad = P.rdma_link('w2', 'w1', path, '', " Couldn't connect to w1:18515\n Unable to init the socket connection\n")
    assert bad['error'] == "Couldn't connect to w1:18515 Unable to init the socket connection"
    report = {'hosts': {}, 'rdma': {'hosts': {'w1': path, 'w3': {'ready': False, 'reason': 'no RDMA device'}},
                                    'links': [row, bad]}}
    assert P.failures(report, {}) == ["w2 -> w1: ib_write_bw on mlx5_0 failed: Couldn't connect to w1:18515 Unable to "
                                      "init the socket connection"]
    markdown = P.render_markdown(report, [])
    assert '| w1 | w2 | mlx5_0/1 | IB | 96.43 | 0.0 | 100.0 | 96.4 |  |' in markdown
    assert 'Not tested: w3: no RDMA device.' in markdown


def test_filter():
    assert FilterModule().filters() == {'preflight_rdma_path': preflight_rdma_path}
    assert preflight_rdma_path(None, True)['reason'].startswith('no RDMA device')
    assert preflight_rdma_path(DEVICES, 'yes')['ready'] is True
    from ansible.errors import AnsibleFilterError
    with pytest.raises(AnsibleFilterError, match="devices must be hardware_facts' rdma list"):
        preflight_rdma_path({'device': 'mlx5_0'}, True)
