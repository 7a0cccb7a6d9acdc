"""The ZooKeeper ensemble, zoo.cfg and the srvr answer (plugins/module_utils/zookeeper.py, plugins/filter/zookeeper.py)."""

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.filter.zookeeper import FilterModule
from ansible_collections.bigdata.spark.plugins.module_utils import zookeeper as zk

PORTS = {"zookeeper_client_port": 2181, "zookeeper_quorum_port": 2888, "zookeeper_election_port": 3888}
FILTERS = FilterModule().filters()


def escape(text):
    return text.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[").replace("]", r"\]")


@pytest.mark.parametrize("hosts", [["zk1"], ["zk1", "zk2", "zk3"], ["a", "b", "c", "d", "e"]])
def test_odd_ensembles_take_their_place_in_the_group_as_id(hosts):
    servers = zk.ensemble(hosts, settings=PORTS)
    assert servers == [{"id": i, "host": h, "address": h} for i, h in enumerate(hosts, start=1)]


@pytest.mark.parametrize("count", [2, 4, 6])
def test_an_even_number_of_servers_is_refused(count):
    hosts = ["zk%d" % i for i in range(1, count + 1)]
    with pytest.raises(zk.ZooKeeperError, match=r"groups\['zookeeper'\]: an odd number of servers is required "
                                                r"\(1 for a lab, 3 or 5 recommended\); got %d" % count):
        zk.ensemble(hosts, settings=PORTS)


def test_no_host_or_a_host_twice_is_refused():
    with pytest.raises(zk.ZooKeeperError, match=r"groups\['zookeeper'\]: at least one host is required"):
        zk.ensemble([], settings=PORTS)
    with pytest.raises(zk.ZooKeeperError, match="a host is listed twice"):
        zk.ensemble(["a", "b", "a"], settings=PORTS)
    with pytest.raises(zk.ZooKeeperError, match="a list of hosts is required"):
        zk.ensemble("a,b,c", settings=PORTS)


def test_an_implicit_id_that_a_given_one_takes_is_named():
    with pytest.raises(zk.ZooKeeperError, match=escape("zookeeper_id: 3 is the id of m and of w2")):
        zk.ensemble(["m", "w1", "w2"], {"m": 3}, None, PORTS)


def test_host_ids_and_addresses_win_and_order_the_servers():
    servers = zk.ensemble(["a", "b", "c"], {"a": 30, "b": "7", "c": None}, {"a": "10.0.0.1", "c": ""}, PORTS)
    assert servers == [{"id": 3, "host": "c", "address": "c"}, {"id": 7, "host": "b", "address": "b"},
                       {"id": 30, "host": "a", "address": "10.0.0.1"}]


@pytest.mark.parametrize("ids,message", [
    ({"a": 2}, "zookeeper_id: 2 is the id of a and of b; each server needs its own id (1-255)"),
    ({"c": 1}, "zookeeper_id: 1 is the id of a and of c"),
    ({"a": 0}, "zookeeper_id (host a): a whole number 1-255 is required; got 0"),
    ({"b": 256}, "zookeeper_id (host b): a whole number 1-255 is required; got 256"),
    ({"b": "two"}, "zookeeper_id (host b): a whole number 1-255 is required; got 'two'"),
    ({"b": True}, "zookeeper_id (host b): a whole number 1-255 is required; got True"),
    ({"b": -1}, "zookeeper_id (host b): a whole number 1-255 is required; got -1"),
])
def test_bad_or_repeated_ids_are_named(ids, message):
    with pytest.raises(zk.ZooKeeperError, match=escape(message)):
        zk.ensemble(["a", "b", "c"], ids, None, PORTS)


@pytest.mark.parametrize("changes,message", [
    ({"zookeeper_client_port": 0}, "zookeeper_client_port: a whole number 1-65535 is required; got 0"),
    ({"zookeeper_quorum_port": 70000}, "zookeeper_quorum_port: a whole number 1-65535 is required; got 70000"),
    ({"zookeeper_election_port": "x"}, "zookeeper_election_port: a whole number 1-65535 is required; got 'x'"),
    ({"zookeeper_election_port": None}, "zookeeper_election_port: a whole number 1-65535 is required; got None"),
    ({"zookeeper_election_port": 2888}, "zookeeper_election_port: port 2888 is zookeeper_quorum_port's too"),
    ({"zookeeper_admin_server_enabled": True, "zookeeper_admin_server_port": 2181},
     "zookeeper_admin_server_port: port 2181 is zookeeper_client_port's too"),
    ({"zookeeper_admin_server_enabled": True, "zookeeper_admin_server_port": None},
     "zookeeper_admin_server_port: a whole number 1-65535 is required; got None"),
])
def test_bad_ports_are_named(changes, message):
    with pytest.raises(zk.ZooKeeperError, match=escape(message)):
        zk.ensemble(["a"], settings=dict(PORTS, **changes))


def test_the_admin_port_is_only_checked_when_the_admin_server_is_on():
    assert zk.ports(dict(PORTS, zookeeper_admin_server_port=2181)) == PORTS
    assert zk.ports(dict(PORTS, zookeeper_admin_server_enabled=True, zookeeper_admin_server_port="8080")) == dict(
        PORTS, zookeeper_admin_server_port=8080)


def test_bad_address_is_named():
    with pytest.raises(zk.ZooKeeperError, match=r"zookeeper_address \(host a\): a host name or IP address is required"):
        zk.ensemble(["a"], None, {"a": "zk one"}, PORTS)


def test_zoo_cfg_is_sorted_then_the_servers_in_id_order():
    servers = zk.ensemble(["m", "w1", "w2"], {"m": 9}, None, PORTS)
    text = zk.zoo_cfg({"tickTime": 2000, "dataDir": "/var/lib/zookeeper/data", "admin.enableServer": False,
                       "4lw.commands.whitelist": "ruok,srvr", "admin.serverPort": None}, servers, 2888, "3888",
                      header="# managed")
    assert text == ("# managed\n4lw.commands.whitelist=ruok,srvr\nadmin.enableServer=false\n"
                    "dataDir=/var/lib/zookeeper/data\ntickTime=2000\n"
                    "server.2=w1:2888:3888\nserver.3=w2:2888:3888\nserver.9=m:2888:3888\n")


@pytest.mark.parametrize("settings,message", [
    ({"server.4": "x:1:2"}, "zookeeper_extra_config: server.4 comes from the inventory group zookeeper"),
    ({"weight.1": 1}, "zookeeper_extra_config: weight.1 comes from the inventory group zookeeper"),
    ({"bad key": 1}, "zookeeper_extra_config: 'bad key' is not a zoo.cfg key"),
    ({"tickTime": "2000\nserver.9=evil:1:2"}, "zookeeper_extra_config: tickTime: a one-line value is required"),
    (["tickTime=2000"], "zookeeper_extra_config: a mapping of zoo.cfg keys to values is required"),
])
def test_zoo_cfg_refuses_what_is_not_a_setting(settings, message):
    with pytest.raises(zk.ZooKeeperError, match=escape(message)):
        zk.zoo_cfg(settings, [], 2888, 3888)


def test_mode_from_srvr():
    answer = "Zookeeper version: 3.9.3-c26634f, built on 2024-10-17 23:21 UTC\nLatency min/avg/max: 0/0.0/0\n" \
             "Zxid: 0x0\nMode: follower\nNode count: 5\n"
    assert zk.four_letter_mode(answer) == "follower"
    assert zk.four_letter_mode(answer.replace("follower", "leader")) == "leader"
    assert zk.four_letter_mode("This ZooKeeper instance is not currently serving requests\n") is None
    assert zk.four_letter_mode("") is None and zk.four_letter_mode(None) is None


def test_filters_name_the_filter_and_the_variable():
    class HostVars(dict):
        pass
    hostvars = HostVars(a={"zookeeper_id": 2}, b={"zookeeper_id": 2}, c={})
    with pytest.raises(AnsibleFilterError, match=escape("zookeeper_ensemble: zookeeper_id: 2 is the id of a and of b")):
        FILTERS["zookeeper_ensemble"](["a", "b", "c"], hostvars, PORTS)
    with pytest.raises(AnsibleFilterError, match=escape("zookeeper_ensemble: groups['zookeeper']: an odd number")):
        FILTERS["zookeeper_ensemble"](["a", "b"], hostvars, PORTS)
    with pytest.raises(AnsibleFilterError, match="zookeeper_ensemble: hostvars"):
        FILTERS["zookeeper_ensemble"](["a"], None, PORTS)
    assert FILTERS["zookeeper_ensemble"](["a", "c", "b"], HostVars(a={"zookeeper_address": "10.1.1.1"}), PORTS) == [
        {"id": 1, "host": "a", "address": "10.1.1.1"}, {"id": 2, "host": "c", "address": "c"},
        {"id": 3, "host": "b", "address": "b"}]
    with pytest.raises(AnsibleFilterError, match="zookeeper_cfg: zookeeper_extra_config: server.1 comes from"):
        FILTERS["zookeeper_cfg"]({"server.1": "a:1:2"}, [], 2888, 3888)
    assert FILTERS["zookeeper_mode"]("Mode: standalone\n") == "standalone"
