"""When a Hadoop release needs the ResourceManager's token tracker fix, and how it is built
(plugins/module_utils/yarn_fixes.py; the module yarn_token_tracker_fix and tools/build_dist.py call it). The compile
against a real release runs in the lab: tests/lab/test_kerberos.py."""

import io
import os
import zipfile

import pytest

from ansible_collections.bigdata.spark.plugins.module_utils import daemons
from ansible_collections.bigdata.spark.plugins.module_utils import yarn_fixes as y

SRC = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "roles", "yarn", "files", "token_tracker_fix"))


def _jar(path, members):
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
        for name, data in members.items():
            z.writestr(name, data)


def _release(tmp_path, tracker=None, fixes=False):
    """A release directory whose ResourceManager jar holds the tracker bytes given (None: no tracker class)."""
    rel = tmp_path / "hadoop-3.3.6"
    _jar(rel / "share/hadoop/common/hadoop-common-3.3.6.jar", {})
    _jar(rel / "share/hadoop/common/lib/guava-27.0-jre.jar", {})
    _jar(rel / "share/hadoop/yarn/hadoop-yarn-server-resourcemanager-3.3.6-tests.jar", {})
    _jar(rel / "share/hadoop/yarn/hadoop-yarn-server-resourcemanager-3.3.6.jar",
         {} if tracker is None else {y.TOKEN_TRACKER_CLASS: tracker})
    if fixes:
        _jar(rel / y.FIXES_JAR, {y.TOKEN_TRACKER_CLASS: b"...Thread...sleep..."})
    return str(rel)


SPINS = b"\xca\xfe\xba\xbe...java/util/concurrent/Future...isDone"


def test_a_release_whose_tracker_spins_needs_the_fix_until_the_jar_is_there(tmp_path):
    state, why = y.release_state(_release(tmp_path, SPINS))
    assert state == "needed" and "hadoop-yarn-server-resourcemanager-3.3.6.jar loops without a pause" in why
    state, why = y.release_state(_release(tmp_path / "b", SPINS, fixes=True))
    assert (state, why) == ("in-place", "share/hadoop/yarn/lib/bigdata-spark-yarn-fixes.jar holds the tracker that pauses")


def test_releases_that_need_no_fix(tmp_path):
    # 3.4's tracker pauses; a release before the tracker has none; a directory without YARN has no jar.
    assert y.release_state(_release(tmp_path / "a", b"...Thread...sleep..."))[0] == "not-needed"
    assert y.release_state(_release(tmp_path / "b", None)) == (
        "not-needed", "hadoop-yarn-server-resourcemanager-3.3.6.jar has no token tracker class")
    state, why = y.release_state(str(tmp_path / "empty"))
    assert state == "not-needed" and why.startswith("no ResourceManager jar under ")


def test_a_fixes_jar_without_the_tracker_does_not_count(tmp_path):
    rel = _release(tmp_path, SPINS)
    _jar(tmp_path / "hadoop-3.3.6" / y.FIXES_JAR, {"other/Class.class": b"x"})
    assert y.release_state(rel)[0] == "needed"


def test_the_classpath_leaves_out_the_resourcemanager_and_our_jar(tmp_path):
    rel = _release(tmp_path, SPINS, fixes=True)
    names = [os.path.basename(j) for j in y.release_classpath(rel)]
    assert names == ["hadoop-common-3.3.6.jar", "guava-27.0-jre.jar"]


def test_the_jar_holds_the_tracker_alone_and_is_the_same_for_the_same_class():
    data = y.fixes_jar(b"class-bytes")
    assert data == y.fixes_jar(b"class-bytes")
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert z.namelist() == [y.TOKEN_TRACKER_CLASS]
        assert z.read(y.TOKEN_TRACKER_CLASS) == b"class-bytes"


def test_compile_runs_javac_on_the_tracker_and_its_stand_in(tmp_path):
    seen = []

    def run(argv):
        seen.append(argv)
        out = tmp_path / "classes" / y.TOKEN_TRACKER_CLASS
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(b"compiled")
        return 0, "", ""

    assert y.compile_tracker(run, ["/r/a.jar", "/r/b.jar"], SRC, str(tmp_path / "classes"), "/jdk/bin/javac") == b"compiled"
    argv = seen[0]
    assert argv[:8] == ["/jdk/bin/javac", "--release", "8", "-Xlint:all,-path", "-Werror", "-cp", "/r/a.jar:/r/b.jar", "-d"]
    assert [os.path.basename(f) for f in argv[9:]] == ["DelegationTokenRenewer$DelegationTokenRenewerPoolTracker.java",
                                                       "DelegationTokenRenewer.java"]


def test_compile_errors_carry_javac_output(tmp_path):
    with pytest.raises(y.FixError, match=r"(?s)javac failed on .*rc 1.*error: cannot find symbol"):
        y.compile_tracker(lambda argv: (1, "", "error: cannot find symbol"), [], SRC, str(tmp_path / "c"))
    with pytest.raises(y.FixError, match="the tracker's source is missing"):
        y.compile_tracker(lambda argv: (0, "", ""), [], str(tmp_path), str(tmp_path / "c"))


def test_the_daemon_table_restarts_the_resourcemanager_onto_a_new_fixes_jar():
    rm = [d for d in daemons.DAEMONS if d["name"] == "resourcemanager"][0]
    assert rm["release_files"] == (y.FIXES_JAR,)
    assert [d["name"] for d in daemons.DAEMONS if d.get("release_files")] == ["resourcemanager"]
