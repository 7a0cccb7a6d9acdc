#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# GNU General Public License v3.0+ (see LICENSES/GPL-3.0-or-later.txt or https://www.gnu.org/licenses/gpl-3.0.txt)
# Modules run inside ansible-core's GPLv3 AnsibleModule, so they carry its licence; the rest of the
# collection is Apache-2.0 (see LICENSE).

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: resource_plan
short_description: Compute YARN, MapReduce, Spark and daemon-heap settings from hardware facts
version_added: "0.1.0"
description:
  - Wraps the pure planner in C(plugins/module_utils/plan.py) (and its C(plan_*.py) parts). Runs on the controller or any host, reads
    nothing and changes nothing; C(changed) is always C(false) and check mode gives the same result.
  - Every value comes with an explanation (the rule and the inputs) in RV(explain). The rules are in
    C(docs/sizing.md) of the collection.
  - Values are strings exactly as written into the files, for example C("737280") or C("18g").
author:
  - bigdata.spark developers (!UNKNOWN)
options:
  hosts:
    description:
      - The cluster's hosts. Each has C(name), C(roles) and either C(facts) (the C(bigdata_hardware) dict
        returned by M(bigdata.spark.hardware_facts), or a hand-written subset) or C(cores), C(memory_mb)
        and C(disks) given directly.
      - Roles are C(namenode), C(secondarynamenode), C(journalnode), C(zkfc), C(datanode), C(nodemanager),
        C(resourcemanager), C(jobhistory), C(spark_history), C(zookeeper), C(client).
      - The heaps of high availability's daemons (C(journalnode), C(zkfc), C(zookeeper)) are planned only when a host
        has the role; on a host that also has C(nodemanager) they are kept back from YARN on top of the rule's
        reservation.
    type: list
    elements: dict
    required: true
    suboptions:
      name:
        description: Host name, as in the inventory.
        type: str
        required: true
      roles:
        description: The daemons this host runs; at least one.
        type: list
        elements: str
        required: true
      facts:
        description:
          - Hardware facts. Read keys are C(cpu.logical), C(memory.installed_bytes) (preferred),
            C(memory.total_bytes), C(memory.cgroup_limit_bytes), C(disks) (a list), or the short forms
            C(cores), C(memory_gib), C(memory_mb), C(disk_count), C(memory_limit_mb).
        type: dict
      cores:
        description: Logical CPUs, when no O(hosts[].facts) are given.
        type: int
      memory_mb:
        description: Memory in MiB, when no O(hosts[].facts) are given.
        type: int
      disks:
        description: Number of data disks, when no O(hosts[].facts) are given.
        type: int
      memory_limit_mb:
        description: Memory limit of the container the node runs in, in MiB.
        type: int
      reservations:
        description: Per-host memory (C(memory_mb)) and cores (C(vcores)) kept back from YARN; overrides the rule.
        type: dict
  profile:
    description:
      - C(default) is this collection's rule. C(seed) reproduces seed 000's appendix (the reference
        architecture on 3 x 192-core / 768 GB servers) as rules. The others reproduce another tool's published
        rule. C(seed) and the others are for comparison and benchmarks; their broken invariants are warnings,
        not errors. See C(docs/sizing.md) for their sources.
    type: str
    default: default
    choices: [default, seed, ambari, hdp, emr, cloudera, dataproc, stock]
  executor_cores:
    description:
      - Cores per Spark executor. Without it the planner prefers 5 and tries sizes down to half of that (and a
        smaller NodeManager's vcores), keeping another size only when it keeps the cluster more than 10% busier.
        An explicit value above the largest NodeManager's vcores is an error.
    type: int
  workload:
    description: C(sql_heavy) doubles the driver memory.
    type: str
    default: default
    choices: [default, sql_heavy]
  shuffle_data_bytes:
    description: Expected shuffle volume in bytes; gives C(spark.sql.shuffle.partitions) at 250 MB per partition.
    type: int
  reserve_am_slot:
    description:
      - Deprecated and ignored (a warning says so when it is C(true)). The plan now sizes the driver and the
        client-mode ApplicationMaster and asks only for executors YARN can grant beside them (RV(capacity)).
        Still accepted so older inventories run.
    type: bool
    default: false
  driver_deploy_mode:
    description:
      - C(cluster) makes the driver a YARN container; C(client) leaves a small ApplicationMaster container in YARN.
        C(spark.executor.instances) never exceeds what YARN can grant beside that first container.
    type: str
    default: cluster
    choices: [cluster, client]
  reservations:
    description: Memory (C(memory_mb)) and cores (C(vcores)) kept back from YARN on every NodeManager.
    type: dict
  other_services:
    description:
      - Other services sharing the nodes, each C({name, memory_mb, vcores, hosts}); their memory and cores
        are taken from YARN on the listed hosts (all NodeManagers when C(hosts) is omitted).
    type: list
    elements: dict
  lab:
    description:
      - Lab mode, for several nodes sharing one machine. Each node counts its share of the machine's CPUs
        (C(machine_cores) // C(nodes_per_machine), at least 1; vcores never exceed it) and memory
        (C(machine_memory_mb) / C(nodes_per_machine), capped by the container memory limit in the facts);
        memory moves in 256 MB steps and daemon heaps are small. Then the default rules apply as on any small
        cluster.
    type: dict
  push_shuffle:
    description:
      - Spark's push-based shuffle (C(spark_push_shuffle_enabled)) - C(spark.shuffle.push.enabled) and the merger
        threshold planned from the number of NodeManagers (at most Spark's 5, at least 1).
    type: bool
    default: false
  overrides:
    description:
      - Property name to value; the user wins. An unknown name, a value of the wrong type or sign (sizes,
        counts, booleans, C(-Xmx) options), or a value that breaks an invariant, is an error.
    type: dict
  constants:
    description:
      - Changes to the default profile's constants (see C(DEFAULT_CONSTANTS) and C(CONSTANT_RULES), their type
        and range, in C(plugins/module_utils/plan_inputs.py)). A value outside its range is an error.
    type: dict
attributes:
  check_mode:
    support: full
    description: The module computes only; check mode gives the same result.
  diff_mode:
    support: none
    description: Nothing changes, so there is no diff.
seealso:
  - module: bigdata.spark.hardware_facts
"""

EXAMPLES = r"""
- name: Plan the seed's 3-node cluster from facts given by hand
  bigdata.spark.resource_plan:
    workload: sql_heavy
    shuffle_data_bytes: 3000000000000
    hosts:
      - name: node1
        roles: [namenode, resourcemanager, datanode, nodemanager]
        facts: {cpu: {logical: 192}, memory_gib: 768, disk_count: 4}
      - name: node2
        roles: [datanode, nodemanager]
        facts: {cpu: {logical: 192}, memory_gib: 768, disk_count: 4}
      - name: node3
        roles: [datanode, nodemanager]
        facts: {cpu: {logical: 192}, memory_gib: 768, disk_count: 4}
  register: plan

- name: Show where the executor memory comes from
  ansible.builtin.debug:
    msg: "{{ plan.spark_defaults['spark.executor.memory'] }}: {{ plan.explain['spark.executor.memory'] }}"

- name: Plan the local lab, three containers on one machine
  bigdata.spark.resource_plan:
    lab:
      nodes_per_machine: 3
    hosts:
      - name: bd-worker1
        roles: [datanode, nodemanager]
        facts: "{{ hostvars['bd-worker1'].bigdata_hardware }}"
      - name: bd-worker2
        roles: [datanode, nodemanager]
        facts: "{{ hostvars['bd-worker2'].bigdata_hardware }}"

- name: Compare with what Ambari's stack advisor would choose
  bigdata.spark.resource_plan:
    profile: ambari
    hosts:
      - {name: w1, roles: [nodemanager, datanode], cores: 16, memory_mb: 65536, disks: 4}
"""

RETURN = r"""
profile:
  description: The profile used.
  returned: always
  type: str
  sample: default
yarn_site:
  description: yarn-site.xml properties.
  returned: always
  type: dict
  sample: {"yarn.nodemanager.resource.memory-mb": "737280", "yarn.nodemanager.resource.cpu-vcores": "186",
           "yarn.scheduler.minimum-allocation-mb": "1024", "yarn.scheduler.maximum-allocation-mb": "81920",
           "yarn.scheduler.minimum-allocation-vcores": "1", "yarn.scheduler.maximum-allocation-vcores": "186"}
mapred_site:
  description: mapred-site.xml properties.
  returned: always
  type: dict
  sample: {"mapreduce.map.memory.mb": "2048", "mapreduce.map.java.opts": "-Xmx1638m",
           "mapreduce.reduce.memory.mb": "4096", "mapreduce.reduce.java.opts": "-Xmx3276m"}
spark_defaults:
  description: spark-defaults.conf properties.
  returned: always
  type: dict
  sample: {"spark.executor.cores": "5", "spark.executor.instances": "111", "spark.executor.memory": "16g",
           "spark.executor.memoryOverhead": "2g", "spark.driver.memory": "64g", "spark.yarn.am.memory": "1g",
           "spark.sql.shuffle.partitions": "12000"}
hadoop_env:
  description:
    - Daemon heaps for hadoop-env.sh. C(HADOOP_HEAPSIZE_MAX) is a size for client commands; the
      C(*_OPTS) values are JVM options holding C(-Xmx) for C(HDFS_NAMENODE_OPTS),
      C(HDFS_SECONDARYNAMENODE_OPTS), C(HDFS_DATANODE_OPTS), C(YARN_RESOURCEMANAGER_OPTS),
      C(YARN_NODEMANAGER_OPTS) and C(MAPRED_HISTORYSERVER_OPTS), and C(HDFS_JOURNALNODE_OPTS) and
      C(HDFS_ZKFC_OPTS) when a host runs a JournalNode or a failover controller. Empty for the C(stock) profile.
  returned: always
  type: dict
  sample: {"HADOOP_HEAPSIZE_MAX": "1g", "HDFS_NAMENODE_OPTS": "-Xmx12g", "HDFS_DATANODE_OPTS": "-Xmx3g"}
heaps_mb:
  description:
    - The daemon heaps as numbers in MB, for the roles' variables (so nothing parses C(-Xmx) back);
      C(hadoop) (C(hadoop_heap_mb)'s keys C(namenode), C(datanode), C(resourcemanager), C(nodemanager),
      C(historyserver); C(journalnode) and C(zkfc) when a host runs them) and C(spark_history)
      (C(spark_daemon_heap_mb)), read from C(hadoop_env) and C(spark_env) after the overrides; C(zookeeper)
      (C(zookeeper_heap_mb)) from RV(zookeeper_env) when a host runs ZooKeeper. Empty for the C(stock) profile.
  returned: always
  type: dict
  sample: {"hadoop": {"namenode": 12288, "datanode": 3072, "resourcemanager": 8192, "nodemanager": 3072,
                      "historyserver": 2048}, "spark_history": 2048}
spark_env:
  description: spark-env.sh values; C(SPARK_DAEMON_MEMORY) is the history server heap.
  returned: always
  type: dict
  sample: {"SPARK_DAEMON_MEMORY": "2g"}
zookeeper_env:
  description:
    - The ZooKeeper server's heap, C(ZK_SERVER_HEAP), a number of MB (as ZooKeeper's C(zkEnv.sh) reads it); an
      override of C(ZK_SERVER_HEAP) changes it. The role gets it as C(zookeeper_heap_mb) through RV(heaps_mb).
  returned: when a host has the C(zookeeper) role, except for the C(stock) profile
  type: dict
  sample: {"ZK_SERVER_HEAP": "1024"}
nodemanagers:
  description: Per-host NodeManager memory and vcores, for heterogeneous clusters (also in RV(hosts)' C(yarn_site)).
  returned: always
  type: dict
  sample: {"node1": {"yarn.nodemanager.resource.memory-mb": "737280", "yarn.nodemanager.resource.cpu-vcores": "186"}}
explain:
  description: For every value, the rule and the inputs that produced it.
  returned: always
  type: dict
  sample: {"spark.executor.cores": "Cores per executor: the default 5 unless a smaller size ... keeps the cluster more than 10% busier; 5 chosen."}
page_size_advice:
  description:
    - Host -> seed 000's advice (64 KB pages gave about 40% faster TeraSort and 9% faster TPC-DS) and how to
      switch on the host's distribution, for aarch64 hosts whose facts report smaller pages. Also in C(plan_warnings).
  returned: always
  type: dict
  sample: {"worker1": "aarch64 with 4 KB pages: a 64 KB page kernel gave about 40% faster HiBench TeraSort ..."}
capacity:
  description:
    - What YARN can grant, counted as the ResourceManager does with the DefaultResourceCalculator (memory only,
      every request rounded up to the minimum allocation, the first container on the node where it costs the
      most). C(cluster) is the number of executors beside the driver's container, C(client) beside the
      client-mode ApplicationMaster's, C(mapreduce) the map containers beside a MapReduce ApplicationMaster;
      C(executor_mb), C(driver_mb), C(am_mb) are the container sizes YARN grants.
  returned: always
  type: dict
  sample: {"cluster": 116, "client": 119, "executor_mb": 18432, "driver_mb": 72704, "am_mb": 2048,
           "mapreduce": {"am_mb": 4096, "map_mb": 2048, "maps": 1078}}
hosts:
  description:
    - Per host, what the roles get and the host's numbers, so nothing is merged or parsed back in a playbook.
    - C(yarn_site) is the cluster's yarn-site values with the host's own NodeManager memory and vcores (for
      C(yarn_site_computed)); C(mapred_site) and C(spark_defaults) are the files' values (for
      C(mapred_site_computed), C(spark_defaults_computed)); C(heaps_mb) is RV(heaps_mb) (for C(hadoop_heap_mb) and
      C(spark_daemon_heap_mb); hadoop-env.sh lists every daemon's heap on every host).
    - Numbers are in MB. C(cores) and C(memory_mb) for every host; for NodeManagers C(nm_mb), C(vcores), the
      C(executors) and the map containers (C(maps)) that fit; C(daemon_heaps_mb) holds the heaps of the daemons the
      host runs, by their hadoop-env.sh or spark-env.sh name (ZooKeeper's C(ZK_SERVER_HEAP)).
  returned: always
  type: dict
  sample: {"node2": {"cores": 192, "memory_mb": 786432, "nm_mb": 737280, "vcores": 186, "executors": 37, "maps": 186,
                     "yarn_site": {"yarn.nodemanager.resource.memory-mb": "737280",
                                   "yarn.nodemanager.resource.cpu-vcores": "186"},
                     "mapred_site": {"mapreduce.map.memory.mb": "2048", "mapreduce.map.java.opts": "-Xmx1638m"},
                     "spark_defaults": {"spark.executor.cores": "5", "spark.executor.memory": "16g"},
                     "heaps_mb": {"hadoop": {"namenode": 12288, "datanode": 3072}, "spark_history": 2048},
                     "daemon_heaps_mb": {"HDFS_DATANODE_OPTS": 3072, "YARN_NODEMANAGER_OPTS": 3072}}}
driver_deploy_mode:
  description: The deploy mode the plan was made for.
  returned: always
  type: str
  sample: cluster
plan_warnings:
  description:
    - The planner's C(warnings), things the user should know about the plan. Named C(plan_warnings)
      because Ansible reserves C(warnings); each one is also emitted as an Ansible warning.
  returned: always
  type: list
  elements: str
  sample: []
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.bigdata.spark.plugins.module_utils.plan import DEPLOY_MODES, PROFILES, WORKLOADS, PlanError, plan


def main():
    module = AnsibleModule(
        argument_spec=dict(
            hosts=dict(type='list', elements='dict', required=True, options=dict(
                name=dict(type='str', required=True),
                roles=dict(type='list', elements='str', required=True),
                facts=dict(type='dict'),
                cores=dict(type='int'),
                memory_mb=dict(type='int'),
                disks=dict(type='int'),
                memory_limit_mb=dict(type='int'),
                reservations=dict(type='dict'),
            )),
            profile=dict(type='str', default='default', choices=list(PROFILES)),
            executor_cores=dict(type='int'),
            workload=dict(type='str', default='default', choices=list(WORKLOADS)),
            shuffle_data_bytes=dict(type='int'),
            reserve_am_slot=dict(type='bool', default=False),
            driver_deploy_mode=dict(type='str', default='cluster', choices=list(DEPLOY_MODES)),
            reservations=dict(type='dict'),
            other_services=dict(type='list', elements='dict'),
            lab=dict(type='dict'),
            overrides=dict(type='dict'),
            constants=dict(type='dict'),
            push_shuffle=dict(type='bool', default=False),
        ),
        supports_check_mode=True,
    )
    p = module.params
    hosts = []
    for host in p['hosts']:
        hosts.append(dict((key, value) for key, value in host.items() if value is not None))
    try:
        result = plan(hosts, profile=p['profile'], executor_cores=p['executor_cores'], workload=p['workload'],
                      shuffle_data_bytes=p['shuffle_data_bytes'], reserve_am_slot=p['reserve_am_slot'],
                      driver_deploy_mode=p['driver_deploy_mode'], reservations=p['reservations'],
                      other_services=p['other_services'], lab=p['lab'], overrides=p['overrides'],
                      constants=p['constants'], push_shuffle=p['push_shuffle'])
    except PlanError as exc:
        module.fail_json(msg=str(exc))
    # exit_json reserves `warnings` for Ansible's own; the plan's go out as plan_warnings and as warnings.
    plan_warnings = result.pop('warnings')
    for warning in plan_warnings:
        module.warn(warning)
    module.exit_json(changed=False, plan_warnings=plan_warnings, **result)


if __name__ == '__main__':
    main()
