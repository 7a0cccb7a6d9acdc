"""Tests of the Hadoop launchers in tools/dist/hadoop with a fake `java` that prints its arguments."""

import os
import shutil
import stat
import subprocess

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
DIST = os.path.join(REPO, "tools", "dist", "hadoop")

FAKE_JAVA = """#!/bin/sh
if [ "$1" = -version ]; then
  echo 'openjdk version "17.0.9" 2023-10-17' >&2
  exit 0
fi
for a in "$@"; do printf '%s\\n' "$a"; done
"""

DISPATCH = [
    ("hdfs", "namenode", "org.apache.hadoop.hdfs.server.namenode.NameNode", True),
    ("hdfs", "datanode", "org.apache.hadoop.hdfs.server.datanode.DataNode", True),
    ("hdfs", "secondarynamenode", "org.apache.hadoop.hdfs.server.namenode.SecondaryNameNode", True),
    ("hdfs", "journalnode", "org.apache.hadoop.hdfs.qjournal.server.JournalNode", True),
    ("hdfs", "zkfc", "org.apache.hadoop.hdfs.tools.DFSZKFailoverController", True),
    ("hdfs", "dfs", "org.apache.hadoop.fs.FsShell", False),
    ("hdfs", "dfsadmin", "org.apache.hadoop.hdfs.tools.DFSAdmin", False),
    ("hdfs", "fsck", "org.apache.hadoop.hdfs.tools.DFSck", False),
    ("hdfs", "haadmin", "org.apache.hadoop.hdfs.tools.DFSHAAdmin", False),
    ("hdfs", "getconf", "org.apache.hadoop.hdfs.tools.GetConf", False),
    ("hdfs", "balancer", "org.apache.hadoop.hdfs.server.balancer.Balancer", False),
    ("hdfs", "groups", "org.apache.hadoop.hdfs.tools.GetGroups", False),
    ("hdfs", "version", "org.apache.hadoop.util.VersionInfo", False),
    ("yarn", "resourcemanager", "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager", True),
    ("yarn", "nodemanager", "org.apache.hadoop.yarn.server.nodemanager.NodeManager", True),
    ("yarn", "proxyserver", "org.apache.hadoop.yarn.server.webproxy.WebAppProxyServer", True),
    ("yarn", "timelineserver",
     "org.apache.hadoop.yarn.server.applicationhistoryservice.ApplicationHistoryServer", True),
    ("yarn", "node", "org.apache.hadoop.yarn.client.cli.NodeCLI", False),
    ("yarn", "application", "org.apache.hadoop.yarn.client.cli.ApplicationCLI", False),
    ("yarn", "applicationattempt", "org.apache.hadoop.yarn.client.cli.ApplicationCLI", False),
    ("yarn", "container", "org.apache.hadoop.yarn.client.cli.ApplicationCLI", False),
    ("yarn", "logs", "org.apache.hadoop.yarn.client.cli.LogsCLI", False),
    ("yarn", "rmadmin", "org.apache.hadoop.yarn.client.cli.RMAdminCLI", False),
    ("yarn", "queue", "org.apache.hadoop.yarn.client.cli.QueueCLI", False),
    ("yarn", "jar", "org.apache.hadoop.util.RunJar", False),
    ("yarn", "version", "org.apache.hadoop.util.VersionInfo", False),
    ("mapred", "historyserver", "org.apache.hadoop.mapreduce.v2.hs.JobHistoryServer", True),
    ("mapred", "job", "org.apache.hadoop.mapred.JobClient", False),
    ("mapred", "queue", "org.apache.hadoop.mapred.JobQueueClient", False),
    ("mapred", "hsadmin", "org.apache.hadoop.mapreduce.v2.hs.client.HSAdmin", False),
    ("hadoop", "fs", "org.apache.hadoop.fs.FsShell", False),
    ("hadoop", "dfs", "org.apache.hadoop.fs.FsShell", False),
    ("hadoop", "jar", "org.apache.hadoop.util.RunJar", False),
    ("hadoop", "checknative", "org.apache.hadoop.util.NativeLibraryChecker", False),
    ("hadoop", "version", "org.apache.hadoop.util.VersionInfo", False),
    ("hadoop", "distcp", "org.apache.hadoop.tools.DistCp", False),
    ("hadoop", "org.example.Tool", "org.example.Tool", False),
]


@pytest.fixture
def env(tmp_path):
    """A copy of the distribution skeleton, a fake JDK 17, and a clean environment."""
    home = tmp_path / "hadoop"
    shutil.copytree(DIST, str(home))
    for sub in ("common/lib", "common", "hdfs/lib", "hdfs", "yarn/lib", "yarn", "mapreduce", "tools/lib"):
        (home / "share" / "hadoop" / sub).mkdir(parents=True, exist_ok=True)
    (home / "share" / "hadoop" / "common" / "hadoop-common-3.3.6.jar").write_bytes(b"")
    (home / "share" / "hadoop" / "common" / "lib" / "guava.jar").write_bytes(b"")
    jdk = tmp_path / "jdk"
    (jdk / "bin").mkdir(parents=True)
    java = jdk / "bin" / "java"
    java.write_text(FAKE_JAVA)
    java.chmod(java.stat().st_mode | stat.S_IEXEC)
    (jdk / "release").write_text('JAVA_VERSION="17.0.9"\n')
    environ = {
        "PATH": "%s:/usr/bin:/bin" % (jdk / "bin"),
        "JAVA_HOME": str(jdk),
        "HOME": str(tmp_path),
        "USER": "tester",
        "HADOOP_LOG_DIR": str(tmp_path / "logs"),
    }
    return {"home": home, "jdk": jdk, "env": environ, "tmp": tmp_path}


def run(env, prog, *args, extra=None):
    environ = dict(env["env"])
    environ.update(extra or {})
    return subprocess.run([str(env["home"] / "bin" / prog)] + list(args), env=environ,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60, check=False)


def java_args(result):
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


@pytest.mark.parametrize("prog,sub,cls,daemon", DISPATCH)
def test_dispatch_table(env, prog, sub, cls, daemon):
    args = java_args(run(env, prog, sub))
    assert cls in args
    assert "-Dproc_%s" % sub in args
    if daemon:
        assert "-Dhadoop.root.logger=INFO,RFA" in args
        assert any(a.startswith("-Dhadoop.log.file=hadoop-tester-%s-" % sub) for a in args)
    else:
        assert "-Dhadoop.root.logger=INFO,console" in args


def test_arguments_follow_the_class(env):
    args = java_args(run(env, "hdfs", "dfs", "-put", "a b", "/x"))
    i = args.index("org.apache.hadoop.fs.FsShell")
    assert args[i + 1:] == ["-put", "a b", "/x"]


@pytest.mark.parametrize("sub", ["application", "applicationattempt", "container"])
def test_application_cli_gets_its_kind_first(env, sub):
    args = java_args(run(env, "yarn", sub, "-list"))
    i = args.index("org.apache.hadoop.yarn.client.cli.ApplicationCLI")
    assert args[i + 1:] == [sub, "-list"]


def test_namenode_format_passes_args_and_logs_to_console(env):
    args = java_args(run(env, "hdfs", "namenode", "-format", "-nonInteractive"))
    i = args.index("org.apache.hadoop.hdfs.server.namenode.NameNode")
    assert args[i + 1:] == ["-format", "-nonInteractive"]
    assert "-Dhadoop.root.logger=INFO,console" in args


def test_unknown_subcommand(env):
    result = run(env, "hdfs", "frobnicate")
    assert result.returncode == 1
    assert "ERROR: hdfs: unknown subcommand 'frobnicate'" in result.stderr
    assert "Usage: hdfs" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("prog", ["hadoop", "hdfs", "yarn", "mapred"])
def test_no_subcommand_prints_usage_and_fails(env, prog):
    result = run(env, prog)
    assert result.returncode == 1
    assert "Usage: %s" % prog in result.stderr


def test_help_exits_zero(env):
    result = run(env, "yarn", "--help")
    assert result.returncode == 0
    assert "resourcemanager" in result.stdout


def test_unsupported_daemon_option(env):
    result = run(env, "hdfs", "--daemon", "start", "namenode")
    assert result.returncode == 1
    assert "foreground" in result.stderr


def test_hadoop_conf_dir_and_env_file(env):
    conf = env["tmp"] / "conf"
    conf.mkdir()
    (conf / "hadoop-env.sh").write_text('export HADOOP_OPTS="-Dfrom.env=yes"\n')
    args = java_args(run(env, "hdfs", "dfs", extra={"HADOOP_CONF_DIR": str(conf)}))
    assert "-Dfrom.env=yes" in args
    assert args[args.index("-classpath") + 1].split(":")[0] == str(conf)


def test_config_option_wins_over_environment(env):
    conf = env["tmp"] / "other"
    conf.mkdir()
    (conf / "hadoop-env.sh").write_text('export HADOOP_OPTS="-Dfrom.option=yes"\n')
    args = java_args(run(env, "hdfs", "--config", str(conf), "dfs",
                         extra={"HADOOP_CONF_DIR": str(env["home"] / "etc" / "hadoop")}))
    assert "-Dfrom.option=yes" in args


def test_missing_conf_dir(env):
    result = run(env, "hdfs", "dfs", extra={"HADOOP_CONF_DIR": str(env["tmp"] / "nope")})
    assert result.returncode == 1
    assert "configuration directory" in result.stderr


def test_yarn_env_only_for_yarn(env):
    conf = env["tmp"] / "conf"
    conf.mkdir()
    (conf / "yarn-env.sh").write_text('export YARN_OPTS="-Dfrom.yarn.env=yes"\n')
    extra = {"HADOOP_CONF_DIR": str(conf)}
    assert "-Dfrom.yarn.env=yes" in java_args(run(env, "yarn", "node", extra=extra))
    assert "-Dfrom.yarn.env=yes" not in java_args(run(env, "hdfs", "dfs", extra=extra))


def test_envvars(env):
    result = run(env, "hdfs", "envvars")
    assert result.returncode == 0
    lines = dict(line.split("=", 1) for line in result.stdout.splitlines())
    assert lines["JAVA_HOME"] == "'%s'" % env["jdk"]
    assert lines["HADOOP_HDFS_HOME"] == "'%s'" % env["home"]
    assert lines["HDFS_DIR"] == "'share/hadoop/hdfs'"
    assert lines["HADOOP_CONF_DIR"] == "'%s'" % (env["home"] / "etc" / "hadoop")
    yarn = run(env, "yarn", "envvars").stdout
    assert "HADOOP_YARN_HOME='%s'" % env["home"] in yarn
    assert "HADOOP_COMMON_HOME=" in run(env, "hadoop", "envvars").stdout


@pytest.mark.parametrize("value,expected", [("512", "-Xmx512m"), ("2g", "-Xmx2g"), ("1024m", "-Xmx1024m")])
def test_heap_max(env, value, expected):
    args = java_args(run(env, "hdfs", "namenode", extra={"HADOOP_HEAPSIZE_MAX": value}))
    assert expected in args


def test_heap_min(env):
    args = java_args(run(env, "hdfs", "datanode", extra={"HADOOP_HEAPSIZE_MIN": "256"}))
    assert "-Xms256m" in args


def test_daemon_xmx_wins_over_heapsize(env):
    args = java_args(run(env, "hdfs", "namenode",
                         extra={"HADOOP_HEAPSIZE_MAX": "512", "HDFS_NAMENODE_OPTS": "-Xmx3g -XX:+UseG1GC"}))
    assert [a for a in args if a.startswith("-Xmx")] == ["-Xmx3g"]
    assert "-XX:+UseG1GC" in args


def test_deprecated_heapsize(env):
    result = run(env, "hdfs", "datanode", extra={"HADOOP_HEAPSIZE": "300"})
    assert "-Xmx300m" in java_args(result)
    assert "HADOOP_HEAPSIZE is deprecated" in result.stderr


def test_yarn_daemon_heapsize(env):
    args = java_args(run(env, "yarn", "resourcemanager", extra={"YARN_RESOURCEMANAGER_HEAPSIZE": "700"}))
    assert "-Xmx700m" in args


@pytest.mark.parametrize("prog,sub,var", [
    ("hdfs", "namenode", "HDFS_NAMENODE_OPTS"),
    ("hdfs", "datanode", "HDFS_DATANODE_OPTS"),
    ("yarn", "resourcemanager", "YARN_RESOURCEMANAGER_OPTS"),
    ("yarn", "nodemanager", "YARN_NODEMANAGER_OPTS"),
    ("mapred", "historyserver", "MAPRED_HISTORYSERVER_OPTS"),
    ("hdfs", "dfsadmin", "HDFS_DFSADMIN_OPTS"),
])
def test_per_subcommand_opts(env, prog, sub, var):
    args = java_args(run(env, prog, sub, extra={var: "-Dmarker=%s" % var}))
    assert "-Dmarker=%s" % var in args


def test_deprecated_daemon_opts(env):
    result = run(env, "hdfs", "namenode", extra={"HADOOP_NAMENODE_OPTS": "-Dold=1"})
    assert "-Dold=1" in java_args(result)
    assert "deprecated" in result.stderr


def test_client_opts_only_for_clients(env):
    extra = {"HADOOP_CLIENT_OPTS": "-Dclient=1"}
    assert "-Dclient=1" in java_args(run(env, "hdfs", "dfs", extra=extra))
    assert "-Dclient=1" not in java_args(run(env, "hdfs", "namenode", extra=extra))


def test_java_home_missing(env):
    environ = {k: v for k, v in env["env"].items() if k != "JAVA_HOME"}
    result = subprocess.run([str(env["home"] / "bin" / "hdfs"), "dfs"], env=environ,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=False)
    assert result.returncode == 1
    assert "JAVA_HOME is not set" in result.stderr


def test_add_opens_on_java_17(env):
    args = java_args(run(env, "yarn", "resourcemanager"))
    assert "--add-opens=java.base/java.lang=ALL-UNNAMED" in args
    assert args.index("--add-opens=java.base/java.lang=ALL-UNNAMED") < args.index("-classpath")


def test_no_add_opens_on_java_8(env):
    (env["jdk"] / "release").write_text('JAVA_VERSION="1.8.0_392"\n')
    args = java_args(run(env, "yarn", "resourcemanager"))
    assert not any(a.startswith("--add-opens") for a in args)


def test_java_version_from_java_when_no_release_file(env):
    (env["jdk"] / "release").unlink()
    args = java_args(run(env, "hdfs", "namenode"))
    assert "--add-opens=java.base/java.lang=ALL-UNNAMED" in args


def test_jpms_opts_can_be_replaced_or_emptied(env):
    args = java_args(run(env, "hdfs", "namenode", extra={"HADOOP_JPMS_OPTS": ""}))
    assert not any(a.startswith("--add-opens") for a in args)
    args = java_args(run(env, "hdfs", "namenode", extra={"HADOOP_JPMS_OPTS": "--add-opens=x/y=ALL-UNNAMED"}))
    assert [a for a in args if a.startswith("--add-opens")] == ["--add-opens=x/y=ALL-UNNAMED"]


def test_system_properties(env):
    args = java_args(run(env, "yarn", "nodemanager", extra={"HADOOP_IDENT_STRING": "yarn"}))
    logs = env["env"]["HADOOP_LOG_DIR"]
    for prop in ("-Dhadoop.log.dir=%s" % logs, "-Dyarn.log.dir=%s" % logs,
                 "-Dhadoop.home.dir=%s" % env["home"], "-Dyarn.home.dir=%s" % env["home"],
                 "-Dhadoop.id.str=yarn", "-Dyarn.root.logger=INFO,RFA", "-Djava.net.preferIPv4Stack=true"):
        assert prop in args
    assert os.path.isdir(logs)


def test_root_logger_variables_and_loglevel(env):
    extra = {"HADOOP_ROOT_LOGGER": "WARN,console", "HADOOP_DAEMON_ROOT_LOGGER": "INFO,RFA,console"}
    assert "-Dhadoop.root.logger=WARN,console" in java_args(run(env, "hdfs", "dfs", extra=extra))
    assert "-Dhadoop.root.logger=INFO,RFA,console" in java_args(run(env, "hdfs", "namenode", extra=extra))
    assert "-Dhadoop.root.logger=DEBUG,console" in java_args(run(env, "hdfs", "--loglevel", "DEBUG", "dfs"))


def test_classpath_order_and_hdfs_scope(env):
    share = env["home"] / "share" / "hadoop"
    conf = env["home"] / "etc" / "hadoop"
    out = run(env, "hadoop", "classpath").stdout.strip().split(":")
    assert out == [str(conf), "%s/common/lib/*" % share, "%s/common/*" % share, "%s/hdfs" % share,
                   "%s/hdfs/lib/*" % share, "%s/hdfs/*" % share, "%s/mapreduce/*" % share,
                   "%s/yarn" % share, "%s/yarn/lib/*" % share, "%s/yarn/*" % share]
    hdfs = run(env, "hdfs", "classpath").stdout
    assert "/yarn" not in hdfs and "/mapreduce" not in hdfs


def test_classpath_glob(env):
    out = run(env, "hadoop", "classpath", "--glob").stdout.strip().split(":")
    share = env["home"] / "share" / "hadoop"
    assert "%s/common/lib/guava.jar" % share in out
    assert "%s/common/hadoop-common-3.3.6.jar" % share in out
    assert not any(p.endswith("*") for p in out)


def test_user_classpath(env):
    last = java_args(run(env, "hdfs", "dfs", extra={"HADOOP_CLASSPATH": "/extra/x.jar"}))
    cp = last[last.index("-classpath") + 1].split(":")
    assert cp[-1] == "/extra/x.jar"
    extra = {"HADOOP_CLASSPATH": "/extra/x.jar", "HADOOP_USER_CLASSPATH_FIRST": "true"}
    first = java_args(run(env, "hdfs", "dfs", extra=extra))
    cp = first[first.index("-classpath") + 1].split(":")
    assert cp[0] == "/extra/x.jar"


def test_tools_lib_only_for_tools(env):
    cp = java_args(run(env, "hadoop", "distcp"))
    assert any(p.endswith("tools/lib/*") for p in cp[cp.index("-classpath") + 1].split(":"))
    cp = java_args(run(env, "hadoop", "fs"))
    assert not any(p.endswith("tools/lib/*") for p in cp[cp.index("-classpath") + 1].split(":"))


def test_hadoop_hands_old_hdfs_commands_to_hdfs(env):
    result = run(env, "hadoop", "dfsadmin", "-report")
    args = java_args(result)
    assert args[-2:] == ["org.apache.hadoop.hdfs.tools.DFSAdmin", "-report"]
    assert "deprecated" in result.stderr


def test_exports_homes_for_containers(env):
    # The NodeManager passes these to containers (yarn.nodemanager.env-whitelist).
    java = env["jdk"] / "bin" / "java"
    java.write_text("#!/bin/sh\nenv\n")
    out = run(env, "yarn", "nodemanager").stdout
    for var in ("HADOOP_HOME", "HADOOP_COMMON_HOME", "HADOOP_HDFS_HOME", "HADOOP_YARN_HOME",
                "HADOOP_MAPRED_HOME", "HADOOP_CONF_DIR"):
        assert "%s=" % var in out


def test_symlinked_launcher(env):
    link = env["tmp"] / "hdfs-link"
    link.symlink_to(env["home"] / "bin" / "hdfs")
    result = subprocess.run([str(link), "version"], env=env["env"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, check=False)
    assert "-Dhadoop.home.dir=%s" % env["home"] in java_args(result)
