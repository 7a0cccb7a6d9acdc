# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Remote shuffle services (docs/shuffle.md): Apache Uniffle (coordinators + shuffle servers) and Apache Celeborn
(masters + workers). Spark's executors push their shuffle blocks to the service, which keeps them in memory and
on its disks; reducers read each partition from one place instead of from every map.

Here: the checks of their settings (bad input, before any change), the memory their servers take out of YARN on a
shared node (the planner's other_services), their configuration files, and Spark's client settings.

Plain functions over plain values: no Ansible imports, no file or network access. Every invalid input raises
RssError (or is returned as a finding) with a message naming the variable and what is allowed.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math

from ansible_collections.bigdata.spark.plugins.module_utils.plan_inputs import PlanError, parse_size_mb

KINDS = ('uniffle', 'celeborn')
# Uniffle's storage types (rss.storage.type): where a shuffle server keeps the blocks it received. MEMORY_* buffer
# them in memory and flush to local disks (LOCALFILE) and/or HDFS.
UNIFFLE_STORAGE_TYPES = ('MEMORY_LOCALFILE', 'MEMORY_HDFS', 'MEMORY_LOCALFILE_HDFS', 'LOCALFILE', 'HDFS')
# Celeborn's worker disk types (celeborn.worker.storage.dirs ...:disktype=).
CELEBORN_DISK_TYPES = ('HDD', 'SSD')
# A Uniffle shuffle server keeps its write buffer (rss.server.buffer.capacity) and its read buffer
# (rss.server.read.buffer.capacity) on its heap; Uniffle's own examples give the JVM a third more than the two
# (XMX_SIZE 80g for 40g + 20g): the rest is the server's own objects and the garbage collector's room.
UNIFFLE_HEAP_PER_BUFFER = 4.0 / 3.0
# The group of each service's servers and of its masters (the inventory groups), and the shuffle managers.
GROUPS = {'uniffle': ('uniffle_coordinators', 'uniffle_servers'), 'celeborn': ('celeborn_masters', 'celeborn_workers')}
MANAGERS = {
    'uniffle': 'org.apache.spark.shuffle.RssShuffleManager',
    'uniffle_fallback': 'org.apache.spark.shuffle.DelegationRssShuffleManager',
    'celeborn': 'org.apache.spark.shuffle.celeborn.SparkShuffleManager',
}
# The Spark client jars on Maven Central ({version}, {scala}): the shaded clients carry their dependencies.
CLIENT_JARS = {
    'uniffle': ('org.apache.uniffle', 'rss-client-spark3-shaded', 'rss-client-spark3-shaded-{version}.jar'),
    'celeborn': ('org.apache.celeborn', 'celeborn-client-spark-3-shaded_{scala}',
                 'celeborn-client-spark-3-shaded_{scala}-{version}.jar'),
}
KRYO = 'org.apache.spark.serializer.KryoSerializer'
# The services' ShuffleDataIO (spark.shuffle.sort.io.plugin.class), in their client jars.
DATA_IO = {'uniffle': 'org.apache.spark.shuffle.RssShuffleDataIo',
           'celeborn': 'org.apache.spark.shuffle.celeborn.CelebornShuffleDataIO'}
# How long a Uniffle client keeps asking the coordinators for servers: Uniffle's own 3 tries 65 s apart hold a job
# 2 min 10 s before it fails when no coordinator answers (measured on the lab); 3 tries 5 s apart fail it in 10 s,
# and still ride out a coordinator's restart behind another one of the quorum.
UNIFFLE_ASSIGNMENT_RETRY = (3, 5000)


class RssError(ValueError):
    """A remote shuffle setting is invalid; the message names the variable and what is allowed."""


def _true(value):
    return value is True or str(value).strip().lower() in ('true', 'yes', '1')


def size_mb(value, field):
    """A size ("50g", "512m", MiB as a number) in MiB, at least 1."""
    try:
        mb = parse_size_mb(value, field)
    except PlanError as exc:
        raise RssError(str(exc))
    if mb < 1:
        raise RssError('%s: expected a size of at least 1m such as "512m" or "50g", got %r' % (field, value))
    return mb


def _endpoints(hosts, port):
    return ','.join('%s:%d' % (h, int(port)) for h in hosts)


def client_jar(kind, version, scala='2.12'):
    """The Maven coordinates and the file name of a service's Spark client: {group, artifact, version, file}."""
    group, artifact, name = CLIENT_JARS[kind]
    return {'group': group, 'artifact': artifact.format(scala=scala), 'version': version,
            'file': name.format(version=version, scala=scala)}


def settings_problems(value, groups):
    """Findings for the remote shuffle settings of a host (value(name) reads a variable; groups: group -> count)."""
    errors = []
    kind = value('spark_remote_shuffle') or ''
    if kind not in ('',) + KINDS:
        errors.append("spark_remote_shuffle: %r. Allowed: '' (Spark's own shuffle), uniffle or celeborn" % (kind,))
        kind = ''
    clients = value('spark_rss_clients') or []
    if not isinstance(clients, list) or any(c not in KINDS for c in clients):
        errors.append('spark_rss_clients: %r. Allowed: a list of uniffle and celeborn (the client jars to install)'
                      % (clients,))
    # (A value that is neither set nor a role's default, such as in a check without the roles' defaults, is not
    # checked here: the roles' argument specs and their own checks see every value.)
    storage = value('uniffle_storage_type')
    if storage is not None and storage not in UNIFFLE_STORAGE_TYPES:
        errors.append('uniffle_storage_type: %r. Allowed: %s' % (storage, ', '.join(UNIFFLE_STORAGE_TYPES)))
    disk_type = value('celeborn_worker_disk_type')
    if disk_type is not None and disk_type not in CELEBORN_DISK_TYPES:
        errors.append('celeborn_worker_disk_type: %r. Allowed: %s' % (disk_type, ', '.join(CELEBORN_DISK_TYPES)))
    for name in ('uniffle_server_buffer_capacity', 'uniffle_server_read_buffer_capacity'):
        if value(name) is None:
            continue
        try:
            size_mb(value(name), name)
        except RssError as exc:
            errors.append(str(exc))
    for name in ('uniffle_coordinator_heap_mb', 'uniffle_server_heap_mb', 'celeborn_master_heap_mb',
                 'celeborn_worker_heap_mb', 'celeborn_worker_offheap_mb'):
        if value(name) is not None and _mb(value(name)) is None:
            errors.append('%s: %r. Allowed: a whole number of MiB, at least 1' % (name, value(name)))
    try:
        need = _uniffle_buffers_mb(value) if value('uniffle_server_buffer_capacity') is not None else 0
        heap = _mb(value('uniffle_server_heap_mb')) or 0
        if heap and heap < int(math.ceil(need * UNIFFLE_HEAP_PER_BUFFER)):
            errors.append('uniffle_server_heap_mb: %d MiB cannot hold the buffers (uniffle_server_buffer_capacity + '
                          'uniffle_server_read_buffer_capacity = %d MiB) and the server\'s own objects. Allowed: at '
                          'least %d (the buffers and a third more), or smaller buffers'
                          % (heap, need, int(math.ceil(need * UNIFFLE_HEAP_PER_BUFFER))))
    except RssError:
        pass
    # The client must speak the server's protocol: one version for both ends.
    for service in KINDS:
        client, server = value('spark_%s_client_version' % service), value('%s_version' % service)
        in_use = service == kind or service in (clients if isinstance(clients, list) else [])
        if in_use and client is not None and server is not None and str(client) != str(server):
            errors.append('spark_%s_client_version: %r does not match %s_version %r (the servers\' release). '
                          'Allowed: the same version for the client and the servers' % (service, client, service, server))
    if kind:
        masters, servers = GROUPS[kind]
        given = value('uniffle_coordinator_quorum' if kind == 'uniffle' else 'celeborn_master_endpoints') or ''
        if not groups.get(masters) and not given:
            errors.append("spark_remote_shuffle: %s needs its %s: hosts in the inventory group '%s', or %s given "
                          "(host:port,...; a service outside the inventory). Allowed: either, or "
                          "spark_remote_shuffle ''" % (kind, 'coordinators' if kind == 'uniffle' else 'masters',
                                                       masters, 'uniffle_coordinator_quorum' if kind == 'uniffle'
                                                       else 'celeborn_master_endpoints'))
        if not groups.get(servers) and not given:
            errors.append("spark_remote_shuffle: %s needs shuffle servers: hosts in the inventory group '%s'"
                          % (kind, servers))
        if _true(value('spark_push_shuffle_enabled')):
            errors.append('spark_push_shuffle_enabled: true merges on the NodeManagers\' shuffle service, which a '
                          'remote shuffle service replaces (spark_remote_shuffle %s). Allowed: one of the two' % kind)
    masters = groups.get('celeborn_masters', 0)
    if masters and masters % 2 == 0:
        errors.append("inventory group 'celeborn_masters': %d hosts. Allowed: an odd number (Raft needs a majority: "
                      "%d masters survive no more failures than %d)" % (masters, masters, masters - 1))
    return errors


def _mb(value):
    if isinstance(value, bool):
        return None
    try:
        mb = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return mb if mb >= 1 else None


def _uniffle_buffers_mb(value):
    return (size_mb(value('uniffle_server_buffer_capacity'), 'uniffle_server_buffer_capacity')
            + size_mb(value('uniffle_server_read_buffer_capacity'), 'uniffle_server_read_buffer_capacity'))


def server_memory_mb(kind, value):
    """What one server of a service takes from its node, in MiB, with the reason: a Uniffle server's heap (which
    holds its buffers), a Celeborn worker's heap and off-heap memory (where it keeps the pushed blocks)."""
    if kind == 'uniffle':
        heap = _mb(value('uniffle_server_heap_mb')) or 0
        return heap, 'uniffle_server_heap_mb %d: its buffers live on the heap' % heap
    heap, off = _mb(value('celeborn_worker_heap_mb')) or 0, _mb(value('celeborn_worker_offheap_mb')) or 0
    return heap + off, 'celeborn_worker_heap_mb %d + celeborn_worker_offheap_mb %d' % (heap, off)


def services(hosts):
    """The planner's other_services for the shuffle servers on shared nodes: hosts is [{name, kind, value,
    memory_bytes}] (value reads the host's variables). A server larger than its node is an error naming the host."""
    problems, out = [], {}
    for host in hosts:
        mb, why = server_memory_mb(host['kind'], host['value'])
        memory = host.get('memory_bytes')
        total = memory // 1048576 if memory else None
        if total and host['kind'] == 'uniffle' and _uniffle_buffers_mb(host['value']) >= total:
            problems.append('uniffle_server_buffer_capacity: the buffers of the Uniffle shuffle server on %s (%d MiB '
                            'with uniffle_server_read_buffer_capacity) are bigger than the node\'s memory, %d MiB. '
                            'Allowed: buffers well below the node\'s memory'
                            % (host['name'], _uniffle_buffers_mb(host['value']), total))
        elif total and mb >= total:
            var = 'uniffle_server_heap_mb' if host['kind'] == 'uniffle' else 'celeborn_worker_offheap_mb'
            problems.append('%s: the %s shuffle server on %s needs %d MiB (%s), the node has %d MiB. Allowed: a '
                            'server smaller than its node (leave room for the OS and the other daemons)'
                            % (var, host['kind'], host['name'], mb, why, total))
        out.setdefault((host['kind'], mb, why), []).append(host['name'])
    if problems:
        raise RssError('; '.join(problems))
    return [{'name': 'the %s shuffle server (%s)' % (kind, why), 'memory_mb': mb, 'vcores': 0, 'hosts': names}
            for (kind, mb, why), names in sorted(out.items())]


def _lines(header, pairs):
    return header + ''.join('%s %s\n' % (k, v) for k, v in pairs if v not in (None, ''))


def uniffle_files(value, coordinators, quorum, data_dirs, java_home, hadoop_home, hadoop_conf_dir, header):
    """coordinator.conf, server.conf and rss-env.sh of Uniffle; value reads the host's variables, coordinators are
    the inventory's (quorum: host:port,... given instead), data_dirs the node's data disks."""
    extra = value('uniffle_extra_config') or {}
    quorum = quorum or _endpoints(coordinators, value('uniffle_coordinator_rpc_port'))
    storage = value('uniffle_storage_type')
    base_paths = ','.join('%s/%s' % (d.rstrip('/'), value('uniffle_data_subdir')) for d in data_dirs)
    coordinator = [
        ('rss.rpc.server.port', int(value('uniffle_coordinator_rpc_port'))),
        ('rss.jetty.http.port', int(value('uniffle_coordinator_http_port'))),
        # A server that sent no heartbeat for this long gets no new shuffles.
        ('rss.coordinator.server.heartbeat.timeout', 30000),
        ('rss.coordinator.app.expired', 60000),
        # Decommission: a server listed in this file gets no new shuffles.
        ('rss.coordinator.exclude.nodes.file.path', '%s/exclude_nodes' % value('uniffle_conf_dir')),
    ]
    server = [
        ('rss.rpc.server.port', int(value('uniffle_server_rpc_port'))),
        ('rss.jetty.http.port', int(value('uniffle_server_http_port'))),
        ('rss.coordinator.quorum', quorum),
        ('rss.storage.type', storage),
        ('rss.storage.basePath', base_paths if 'LOCALFILE' in storage else ''),
        ('rss.server.buffer.capacity', '%dm' % size_mb(value('uniffle_server_buffer_capacity'),
                                                       'uniffle_server_buffer_capacity')),
        ('rss.server.read.buffer.capacity', '%dm' % size_mb(value('uniffle_server_read_buffer_capacity'),
                                                            'uniffle_server_read_buffer_capacity')),
        ('rss.server.heartbeat.interval', 10000),
        # One flush thread per data disk keeps every disk busy.
        ('rss.server.flush.localfile.threadPool.size', max(1, len(data_dirs)) * 2),
    ]
    env = [
        ('JAVA_HOME', java_home), ('HADOOP_HOME', hadoop_home), ('HADOOP_CONF_DIR', hadoop_conf_dir),
        ('RSS_CONF_DIR', value('uniffle_conf_dir')), ('RSS_LOG_DIR', value('uniffle_log_dir')),
        ('COORDINATOR_XMX_SIZE', '%dm' % (_mb(value('uniffle_coordinator_heap_mb')) or 0)),
        ('SHUFFLE_SERVER_XMX_SIZE', '%dm' % (_mb(value('uniffle_server_heap_mb')) or 0)),
    ]
    coord = _merge(coordinator, extra.get('coordinator.conf'))
    serv = _merge(server, extra.get('server.conf'))
    return {
        'coordinator.conf': _lines(header, coord),
        'server.conf': _lines(header, serv),
        'rss-env.sh': header + ''.join('export %s="%s"\n' % (k, v) for k, v in env),
    }


def _merge(pairs, extra):
    """The role's pairs, then the user's (which win; a null value leaves the key out)."""
    out = dict(pairs)
    for key, val in (extra or {}).items():
        if val is None:
            out.pop(key, None)
        else:
            out[key] = val
    return sorted(out.items())


def celeborn_files(value, masters, endpoints, data_dirs, header):
    """celeborn-defaults.conf and celeborn-env.sh of Celeborn; masters are the inventory's (endpoints:
    host:port,... given instead). More than one master: Raft HA, each master's host and ports listed."""
    extra = value('celeborn_extra_config') or {}
    port, ratis = int(value('celeborn_master_port')), int(value('celeborn_master_ratis_port'))
    conf = [
        ('celeborn.master.endpoints', endpoints or _endpoints(masters, port)),
        ('celeborn.master.port', port),
        ('celeborn.master.http.port', int(value('celeborn_master_http_port'))),
        ('celeborn.worker.http.port', int(value('celeborn_worker_http_port'))),
        # Fixed worker ports (Celeborn's default 0 picks free ones at random): a firewall can name them.
        ('celeborn.worker.rpc.port', int(value('celeborn_worker_rpc_port'))),
        ('celeborn.worker.push.port', int(value('celeborn_worker_push_port'))),
        ('celeborn.worker.fetch.port', int(value('celeborn_worker_fetch_port'))),
        ('celeborn.worker.replicate.port', int(value('celeborn_worker_replicate_port'))),
        ('celeborn.worker.storage.dirs', ','.join(
            '%s/%s:disktype=%s' % (d.rstrip('/'), value('celeborn_data_subdir'), value('celeborn_worker_disk_type'))
            for d in data_dirs)),
        ('celeborn.metrics.enabled', 'true'),
    ]
    if len(masters) > 1:
        conf += [('celeborn.master.ha.enabled', 'true'),
                 ('celeborn.master.ha.ratis.raft.server.storage.dir', value('celeborn_ratis_dir'))]
        for index, host in enumerate(masters, 1):
            conf += [('celeborn.master.ha.node.%d.host' % index, host),
                     ('celeborn.master.ha.node.%d.port' % index, port),
                     ('celeborn.master.ha.node.%d.ratis.port' % index, ratis)]
    env = [
        ('CELEBORN_MASTER_MEMORY', '%dm' % (_mb(value('celeborn_master_heap_mb')) or 0)),
        ('CELEBORN_WORKER_MEMORY', '%dm' % (_mb(value('celeborn_worker_heap_mb')) or 0)),
        ('CELEBORN_WORKER_OFFHEAP_MEMORY', '%dm' % (_mb(value('celeborn_worker_offheap_mb')) or 0)),
        ('CELEBORN_LOG_DIR', value('celeborn_log_dir')), ('CELEBORN_CONF_DIR', value('celeborn_conf_dir')),
    ]
    return {
        'celeborn-defaults.conf': _lines(header, _merge(conf, extra)),
        'celeborn-env.sh': header + ''.join('export %s="%s"\n' % (k, v) for k, v in env),
    }


def client_settings(kind, value, masters, jar_dir, dynamic_allocation):
    """Spark's settings for a remote shuffle service (kind: uniffle or celeborn; '' gives none): the shuffle
    manager, where the service is, the client jar on the driver's and executors' classpath, and what the service
    needs of Spark. Each value with the reason, {key: (value, why)}."""
    if not kind:
        return {}
    jar = '%s/%s' % (jar_dir.rstrip('/'), client_jar(kind, value('spark_%s_client_version' % kind))['file'])
    out = {
        'spark.driver.extraClassPath': (jar, 'the %s client jar, installed on every Spark host' % kind),
        'spark.executor.extraClassPath': (jar, 'the %s client jar, installed on every NodeManager' % kind),
        # The service holds the shuffle files: executors need not outlive their blocks on the NodeManagers'.
        'spark.shuffle.service.enabled': ('false', 'the remote shuffle service serves the blocks, not the '
                                                   'NodeManagers\' shuffle service'),
        'spark.serializer': (KRYO, 'both services relocate serialized records, which Java\'s serializer cannot'),
    }
    if _true(dynamic_allocation):
        # Spark 3.5's plugin point: the service's driver components report that shuffle data lives outside the
        # executors, so dynamic allocation releases idle executors without tracking their shuffle files.
        out['spark.shuffle.sort.io.plugin.class'] = (
            DATA_IO[kind], 'dynamic allocation with the shuffle data on the service (its ShuffleDataIO)')
        out['spark.dynamicAllocation.shuffleTracking.enabled'] = (
            'false', 'the service keeps the shuffle data: executors need not stay for it')
    fallback = _true(value('spark_rss_fallback'))
    if kind == 'uniffle':
        quorum = value('uniffle_coordinator_quorum') or _endpoints(masters, value('uniffle_coordinator_rpc_port'))
        out['spark.shuffle.manager'] = (
            MANAGERS['uniffle_fallback' if fallback else 'uniffle'],
            'spark_rss_fallback %s: %s' % (str(fallback).lower(), 'the driver asks a coordinator first and falls back '
                                           'to Spark\'s sort shuffle when none lets it in' if fallback else
                                           'a job fails when no coordinator answers'))
        out['spark.rss.coordinator.quorum'] = (quorum, 'the coordinators (uniffle_coordinators)')
        out['spark.rss.storage.type'] = (value('uniffle_storage_type'), 'the shuffle servers\' uniffle_storage_type')
        out['spark.rss.client.assignment.retry.times'] = (
            str(UNIFFLE_ASSIGNMENT_RETRY[0]), 'tries for shuffle servers before a job fails (Uniffle\'s default)')
        out['spark.rss.client.assignment.retry.interval'] = (
            str(UNIFFLE_ASSIGNMENT_RETRY[1]), 'ms between them: a job without coordinators fails in about 10 s, not '
                                              'the 2 min of Uniffle\'s 65 s')
        if fallback:
            # DelegationRssShuffleManager asks for access only with an access id; without one it always falls back.
            out['spark.rss.access.id'] = (value('spark_rss_access_id'), 'the id the coordinators\' access checks see')
    else:
        endpoints = value('celeborn_master_endpoints') or _endpoints(masters, value('celeborn_master_port'))
        out['spark.shuffle.manager'] = (MANAGERS['celeborn'], 'Celeborn\'s shuffle manager')
        out['spark.celeborn.master.endpoints'] = (endpoints, 'the masters (celeborn_masters)')
        out['spark.celeborn.client.spark.shuffle.fallback.policy'] = (
            'AUTO' if fallback else 'NEVER', 'spark_rss_fallback %s' % str(fallback).lower())
        # Celeborn's reducers read whole partitions; AQE's local shuffle reader would ask for map ranges.
        out['spark.sql.adaptive.localShuffleReader.enabled'] = ('false', 'Celeborn serves whole partitions')
        out['spark.celeborn.client.push.replicate.enabled'] = (
            'true' if value('celeborn_replicate') else 'false', 'celeborn_replicate: each pushed block on two workers')
    return out
