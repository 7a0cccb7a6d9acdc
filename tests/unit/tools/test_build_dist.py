"""Tests of the pure parts of tools/build_dist.py."""

import hashlib
import importlib.util
import json
import os
import xml.etree.ElementTree as ET

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
_spec = importlib.util.spec_from_file_location("build_dist", os.path.join(REPO, "tools", "build_dist.py"))
bd = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bd)

NS = "{http://maven.apache.org/POM/4.0.0}"

DEP_LIST = """
The following files have been resolved:
   org.apache.hadoop:hadoop-common:jar:3.3.6:compile:/m2/hadoop-common-3.3.6.jar
   org.apache.hadoop:hadoop-mapreduce-client-jobclient:jar:tests:3.3.6:compile:/m2/jc-tests.jar
   com.google.guava:guava:jar:27.0-jre:compile:/m2/guava.jar -- module com.google.common
   io.netty:netty-transport-native-epoll:jar:linux-x86_64:4.1.89.Final:compile:/m2/epoll.jar -- module x [auto]
   org.apache.hadoop:hadoop-project:pom:3.3.6:import:/m2/p.pom
garbage line
"""


def art(group, artifact, version="1", classifier="", typ="jar"):
    return bd.Artifact(group, artifact, typ, classifier, version, "compile", "/m2/%s.jar" % artifact)


@pytest.mark.parametrize("arch,name", [("x86_64", "hadoop-3.3.6.tar.gz"), ("aarch64", "hadoop-3.3.6-aarch64.tar.gz")])
def test_hadoop_tarball_name(arch, name):
    assert bd.hadoop_tarball_name("3.3.6", arch) == name


def test_hadoop_tarball_name_bad_arch():
    with pytest.raises(bd.BuildError, match="unknown --arch 'ppc'"):
        bd.hadoop_tarball_name("3.3.6", "ppc")


def test_spark_tarball_name():
    assert bd.spark_tarball_name("3.5.7") == "spark-3.5.7-bin-hadoop3.tgz"


def test_parse_dependency_list():
    arts = bd.parse_dependency_list(DEP_LIST)
    assert [(a.artifact, a.classifier, a.version, a.path) for a in arts] == [
        ("hadoop-common", "", "3.3.6", "/m2/hadoop-common-3.3.6.jar"),
        ("hadoop-mapreduce-client-jobclient", "tests", "3.3.6", "/m2/jc-tests.jar"),
        ("guava", "", "27.0-jre", "/m2/guava.jar"),
        ("netty-transport-native-epoll", "linux-x86_64", "4.1.89.Final", "/m2/epoll.jar"),
        ("hadoop-project", "", "3.3.6", "/m2/p.pom"),
    ]
    assert arts[4].type == "pom"


@pytest.mark.parametrize("group,artifact,component", [
    ("org.apache.hadoop", "hadoop-common", "common"),
    ("org.apache.hadoop", "hadoop-registry", "common"),
    ("org.apache.hadoop", "hadoop-hdfs-client", "hdfs"),
    ("org.apache.hadoop", "hadoop-yarn-server-nodemanager", "yarn"),
    ("org.apache.hadoop", "hadoop-mapreduce-examples", "mapreduce"),
    ("org.apache.hadoop", "hadoop-distcp", "tools/lib"),
    ("org.apache.hadoop", "hadoop-auth", None),
    ("org.apache.hadoop", "hadoop-shaded-guava", None),
    ("com.google.guava", "guava", None),
])
def test_hadoop_component(group, artifact, component):
    assert bd.hadoop_component(art(group, artifact)) == component


def test_jar_file_name():
    assert bd.jar_file_name(art("g", "a", "3.3.6", "tests")) == "a-3.3.6-tests.jar"
    assert bd.jar_file_name(art("g", "a", "2.0")) == "a-2.0.jar"


def test_assign_hadoop_layout():
    common = [art("org.apache.hadoop", "hadoop-common", "3.3.6"), art("org.apache.hadoop", "hadoop-auth", "3.3.6"),
              art("com.google.guava", "guava", "27.0")]
    hdfs = common + [art("org.apache.hadoop", "hadoop-hdfs", "3.3.6"), art("io.netty", "netty-all", "4.1")]
    yarn = hdfs + [art("org.apache.hadoop", "hadoop-yarn-api", "3.3.6"), art("com.google.inject", "guice", "4.0"),
                   art("x", "pom-only", typ="pom")]
    # The last layer resolved guava to a newer version: that one is shipped, in common/lib.
    tools = [a if a.artifact != "guava" else art("com.google.guava", "guava", "28.0") for a in yarn]
    tools += [art("org.apache.hadoop", "hadoop-distcp", "3.3.6"), art("z", "tool-dep", "1")]
    layout = bd.assign_hadoop_layout([("common", common), ("hdfs", hdfs), ("yarn", yarn), ("tools", tools)])
    names = {d: [bd.jar_file_name(a) for a in arts] for d, arts in layout.items()}
    assert names == {
        "share/hadoop/common": ["hadoop-common-3.3.6.jar"],
        "share/hadoop/common/lib": ["guava-28.0.jar", "hadoop-auth-3.3.6.jar"],
        "share/hadoop/hdfs": ["hadoop-hdfs-3.3.6.jar"],
        "share/hadoop/hdfs/lib": ["netty-all-4.1.jar"],
        "share/hadoop/yarn": ["hadoop-yarn-api-3.3.6.jar"],
        "share/hadoop/yarn/lib": ["guice-4.0.jar"],
        "share/hadoop/tools/lib": ["hadoop-distcp-3.3.6.jar", "tool-dep-1.jar"],
    }
    assert bd.layout_problems(layout) == []


def test_layout_problems():
    layout = {
        "share/hadoop/common/lib": [art("log4j", "log4j", "1.2.17"), art("org.slf4j", "slf4j-reload4j", "1.7.36"),
                                    art("com.google.guava", "guava", "27")],
        "share/hadoop/yarn/lib": [art("ch.qos.logback", "logback-classic", "1.2"),
                                  art("com.google.guava", "guava", "28")],
    }
    problems = bd.layout_problems(layout)
    assert "forbidden jar log4j-1.2.17.jar in share/hadoop/common/lib" in problems
    assert "forbidden jar logback-classic-1.2.jar in share/hadoop/yarn/lib" in problems
    assert "com.google.guava:guava twice (share/hadoop/common/lib and share/hadoop/yarn/lib)" in problems
    assert "several slf4j bindings: logback-classic-1.2.jar, slf4j-reload4j-1.7.36.jar" in problems


def test_hadoop_layer_poms_are_cumulative_and_import_hadoop_project():
    poms = bd.hadoop_layer_poms("3.3.6")
    assert set(poms) == {".", "build-only"} | {"layer-%s" % layer[0] for layer in bd.HADOOP_LAYERS}
    root = ET.fromstring(poms["."])
    assert [m.text for m in root.iter(NS + "module")][-1] == "build-only"
    previous = set()
    for name, _artifacts in bd.HADOOP_LAYERS:
        pom = ET.fromstring(poms["layer-%s" % name])
        managed = pom.find("%sdependencyManagement/%sdependencies/%sdependency" % (NS, NS, NS))
        assert managed.find(NS + "artifactId").text == "hadoop-project"
        assert managed.find(NS + "scope").text == "import"
        deps = {(d.find(NS + "artifactId").text, getattr(d.find(NS + "classifier"), "text", ""))
                for d in pom.findall("%sdependencies/%sdependency" % (NS, NS))}
        assert previous < deps
        previous = deps
    assert ("hadoop-mapreduce-client-jobclient", "tests") in previous
    build_only = ET.fromstring(poms["build-only"])
    dep = build_only.find("%sdependencies/%sdependency" % (NS, NS))
    assert dep.find(NS + "classifier").text == "tests"
    assert dep.find("%sexclusions/%sexclusion/%sgroupId" % (NS, NS, NS)).text == "*"


def test_shuffle_pom():
    pom = ET.fromstring(bd.shuffle_pom("3.5.7", "3.5.5", "2.12"))
    deps = [(d.find(NS + "artifactId").text, d.find(NS + "version").text)
            for d in pom.findall("%sdependencies/%sdependency" % (NS, NS))]
    assert deps == [("spark-network-yarn_2.12", "3.5.5"), ("spark-network-shuffle_2.12", "3.5.7")]
    patterns = {r.find(NS + "pattern").text: r.find(NS + "shadedPattern").text for r in pom.iter(NS + "relocation")}
    assert patterns["io.netty"] == "org.sparkproject.io.netty"
    assert patterns["com.fasterxml.jackson"] == "org.sparkproject.com.fasterxml.jackson"
    excludes = [e.text for e in pom.iter(NS + "exclude")]
    assert "org.scala-lang:*" in excludes and "org.apache.hadoop:*" in excludes


def test_maven_settings_mirror():
    root = ET.fromstring(bd.maven_settings("https://proxy.example/repo?a=1&b=2"))
    ns = "{http://maven.apache.org/SETTINGS/1.0.0}"
    mirror = root.find("%smirrors/%smirror" % (ns, ns))
    assert mirror.find(ns + "mirrorOf").text == "*"
    assert mirror.find(ns + "url").text == "https://proxy.example/repo?a=1&b=2"


def test_sha512_line_and_parse():
    digest = hashlib.sha512(b"x").hexdigest()
    line = bd.sha512_line(digest, "hadoop-3.3.6.tar.gz")
    assert line == "%s  hadoop-3.3.6.tar.gz\n" % digest
    assert bd.parse_sha512_file(line) == digest


def test_parse_apache_gpg_style_sha512():
    digest = hashlib.sha512(b"y").hexdigest().upper()
    groups = " ".join(digest[i:i + 8] for i in range(0, 128, 8))
    text = "hadoop-3.3.6.tar.gz: %s\n %s\n" % (groups[:100], groups[100:])
    assert bd.parse_sha512_file(text) == digest.lower()


def test_parse_sha512_rejects_garbage():
    with pytest.raises(bd.BuildError, match="cannot read a SHA-512 digest"):
        bd.parse_sha512_file("not a checksum")


def test_inputs_fingerprint_is_order_independent():
    assert bd.inputs_fingerprint({"a": 1, "b": 2}) == bd.inputs_fingerprint({"b": 2, "a": 1})
    assert bd.inputs_fingerprint({"a": 1}) != bd.inputs_fingerprint({"a": 2})


@pytest.mark.parametrize("name,renamed", [
    ("META-INF/native/libnetty_transport_native_epoll_x86_64.so",
     "META-INF/native/liborg_sparkproject_netty_transport_native_epoll_x86_64.so"),
    ("META-INF/native/netty_transport_native_kqueue.dll", "META-INF/native/org_sparkproject_netty_transport_native_kqueue.dll"),
    ("META-INF/native/linux64/libleveldbjni.so", "META-INF/native/linux64/libleveldbjni.so"),
    ("org/apache/spark/X.class", "org/apache/spark/X.class"),
])
def test_netty_native_rename(name, renamed):
    assert bd.netty_native_rename(name) == renamed


def test_spark_release_text():
    text = bd.spark_release_text("3.5.7", "3.3.4", "3.5.5")
    assert text.startswith("Spark 3.5.7 built for Hadoop 3.3.4\n")


def test_up_to_date(tmp_path):
    tarball = tmp_path / "hadoop-3.3.6.tar.gz"
    tarball.write_bytes(b"payload")
    assert not bd.up_to_date(str(tarball), "f1")
    bd.write_checksum(str(tarball))
    bd.write_stamp(str(tarball), {"k": "v"}, "f1")
    assert json.loads((tmp_path / ".hadoop-3.3.6.tar.gz.inputs.json").read_text())["fingerprint"] == "f1"
    assert bd.up_to_date(str(tarball), "f1")
    assert not bd.up_to_date(str(tarball), "f2")
    tarball.write_bytes(b"changed")
    assert not bd.up_to_date(str(tarball), "f1")


def test_parse_args_defaults():
    args = bd.parse_args([])
    assert (args.hadoop_version, args.spark_version, args.scala, args.arch) == ("3.3.6", "3.5.7", "2.12", "x86_64")
    assert args.out.endswith("artifacts") and args.only is None
    assert bd.parse_args(["--only", "spark", "--arch", "aarch64"]).only == "spark"


def _layout_with_leveldb():
    lev = bd.Artifact("org.fusesource.leveldbjni", "leveldbjni-all", "jar", "", "1.8", "compile", "/m2/lev.jar")
    other = art("org.xerial.snappy", "snappy-java", version="1.1.8.2")
    return {"share/hadoop/hdfs/lib": [lev, other], "share/hadoop/common/lib": [art("com.google.guava", "guava")]}


def test_substitute_artifacts_aarch64_swaps_leveldbjni():
    repl = ("org.openlabtesting.leveldbjni", "leveldbjni-all", "1.8")
    layout, swaps = bd.substitute_artifacts(_layout_with_leveldb(), "aarch64", {repl: "/m2/openlab.jar"})
    hdfs = layout["share/hadoop/hdfs/lib"]
    assert [(a.group, a.path) for a in hdfs if a.artifact == "leveldbjni-all"] == [
        ("org.openlabtesting.leveldbjni", "/m2/openlab.jar")]
    assert bd.jar_file_name(hdfs[0]) == "leveldbjni-all-1.8.jar"
    assert swaps == ["org.fusesource.leveldbjni:leveldbjni-all:1.8 -> org.openlabtesting.leveldbjni:leveldbjni-all:1.8 "
                     "(share/hadoop/hdfs/lib)"]
    assert layout["share/hadoop/common/lib"] == _layout_with_leveldb()["share/hadoop/common/lib"]
    assert bd.layout_problems(layout) == []


def test_substitute_artifacts_x86_64_keeps_everything():
    layout, swaps = bd.substitute_artifacts(_layout_with_leveldb(), "x86_64", {})
    assert layout == _layout_with_leveldb() and swaps == []


def test_substitute_artifacts_errors():
    with pytest.raises(bd.BuildError, match="replacement org.openlabtesting.leveldbjni:leveldbjni-all:1.8 .* was not fetched"):
        bd.substitute_artifacts(_layout_with_leveldb(), "aarch64", {})
    with pytest.raises(bd.BuildError, match="unknown --arch 'ppc64le'"):
        bd.substitute_artifacts(_layout_with_leveldb(), "ppc64le", {})


@pytest.mark.parametrize("version, arch, member", [
    ("3.3.6", "x86_64", "nativelib/Linux-amd64/libhadoop.so"),
    ("3.3.5", "aarch64", "nativelib/Linux-aarch64/libhadoop.so"),
])
def test_native_hadoop_source_per_line_and_cpu(version, arch, member):
    coordinates, got = bd.native_hadoop_source(version, arch)
    assert coordinates == ("io.trino.hadoop", "hadoop-apache", "3.3.5-3")
    assert got == member


def test_native_hadoop_source_none_for_other_lines_or_when_refused():
    assert bd.native_hadoop_source("3.4.2", "x86_64") is None
    assert bd.native_hadoop_source("3.3.6", "x86_64", wanted=False) is None


def _rm_layout(tmp_path, tracker_bytes):
    """A layout whose ResourceManager jar holds the token tracker class given (None: no such class)."""
    import zipfile
    jar = tmp_path / "hadoop-yarn-server-resourcemanager-3.3.6.jar"
    with zipfile.ZipFile(jar, "w") as z:
        z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
        if tracker_bytes is not None:
            z.writestr(bd.TOKEN_TRACKER_CLASS, tracker_bytes)
    rm = bd.Artifact(bd.HADOOP_GROUP, "hadoop-yarn-server-resourcemanager", "jar", "", "3.3.6", "compile", str(jar))
    return {"share/hadoop/yarn": [rm]}


def test_token_tracker_spins_without_a_sleep():
    # 3.3's class calls no sleep at all; 3.4.0's pauses with Thread.sleep (YARN-11178).
    assert bd.token_tracker_spins(b"\xca\xfe\xba\xbe...java/util/concurrent/Future...get")
    assert not bd.token_tracker_spins(b"\xca\xfe\xba\xbe...java/lang/Thread...sleep...waitOneMillisecond")


def test_yarn_fixes_only_for_a_tracker_that_spins(tmp_path):
    # A release whose tracker pauses, or that has none, gets no fixes jar (and needs no javac).
    assert bd.build_yarn_fixes(_rm_layout(tmp_path, b"...Thread...sleep..."), str(tmp_path)) is None
    assert bd.build_yarn_fixes(_rm_layout(tmp_path, None), str(tmp_path)) is None
    with pytest.raises(bd.BuildError, match="hadoop-yarn-server-resourcemanager did not resolve"):
        bd.build_yarn_fixes({"share/hadoop/yarn": []}, str(tmp_path))


def test_yarn_fixes_source_is_the_tracker_under_its_binary_name():
    # The JVM loads the replacement by the nested class's binary name: the file declares that name, in that package.
    src = os.path.join(bd.FIXES_SRC, "DelegationTokenRenewer$DelegationTokenRenewerPoolTracker.java")
    text = open(src).read()
    package = os.path.dirname(bd.TOKEN_TRACKER_CLASS).replace("/", ".")
    assert "package %s;" % package in text
    assert "final class DelegationTokenRenewer$DelegationTokenRenewerPoolTracker implements Runnable" in text
    assert "DelegationTokenRenewer$DelegationTokenRenewerPoolTracker(DelegationTokenRenewer renewer)" in text
