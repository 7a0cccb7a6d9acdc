"""When a Hadoop release needs the ResourceManager's token tracker fix, and how it is built
(plugins/module_utils/yarn_fixes.py; tools/build_dist.py calls it), and the module yarn_token_tracker_fix over it with
javac faked. The compile against a real release with a real javac runs in the lab: tests/lab/test_kerberos.py."""

import io
import json
import os
import zipfile

import pytest
from ansible.module_utils import basic
from ansible.module_utils.common.text.converters import to_bytes

from ansible_collections.bigdata.spark.plugins.module_utils import daemons
from ansible_collections.bigdata.spark.plugins.module_utils import yarn_fixes as y
from ansible_collections.bigdata.spark.plugins.modules import yarn_token_tracker_fix as M

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


def _module(monkeypatch, args, compiled=b"...Thread...sleep...", rc=0):
    """yarn_token_tracker_fix's main() with run_command standing in for javac (it writes `compiled` as the class)."""
    calls = []

    def fake_run_command(self, argv, **kwargs):
        calls.append(argv)
        if rc == 0:
            out = os.path.join(argv[argv.index("-d") + 1], y.TOKEN_TRACKER_CLASS)
            os.makedirs(os.path.dirname(out))
            with open(out, "wb") as f:
                f.write(compiled)
        return rc, "", "" if rc == 0 else "error: cannot find symbol"

    def exit_json(self, **kwargs):
        raise SystemExit(dict(kwargs, failed=False))

    def fail_json(self, **kwargs):
        raise SystemExit(dict(kwargs, failed=True))

    monkeypatch.setattr(basic, "_ANSIBLE_ARGS", to_bytes(json.dumps({"ANSIBLE_MODULE_ARGS": args})))
    monkeypatch.setattr(basic, "_ANSIBLE_PROFILE", "legacy", raising=False)
    monkeypatch.setattr(basic.AnsibleModule, "run_command", fake_run_command)
    monkeypatch.setattr(basic.AnsibleModule, "exit_json", exit_json)
    monkeypatch.setattr(basic.AnsibleModule, "fail_json", fail_json)
    with pytest.raises(SystemExit) as exc:
        M.main()
    return exc.value.args[0], calls


def _javac(tmp_path):
    javac = tmp_path / "jdk" / "bin" / "javac"
    javac.parent.mkdir(parents=True)
    javac.write_text("#!/bin/sh\n")
    javac.chmod(0o755)
    return str(javac)


def test_the_module_compiles_the_jar_into_a_release_that_needs_it_and_then_finds_it_in_place(tmp_path, monkeypatch):
    rel = _release(tmp_path, SPINS)
    os.makedirs(os.path.join(rel, os.path.dirname(y.FIXES_JAR)))
    args = {"release_dir": rel, "src": SRC, "javac": _javac(tmp_path)}
    result, calls = _module(monkeypatch, args)
    assert result["changed"] and result["state"] == "needed" and not result["failed"]
    assert calls[0][0] == args["javac"] and "hadoop-yarn-server-resourcemanager-3.3.6.jar" not in calls[0][6]
    jar = os.path.join(rel, y.FIXES_JAR)
    assert result["jar"] == jar and oct(os.stat(jar).st_mode & 0o777) == "0o644"
    assert y.zip_member(jar, y.TOKEN_TRACKER_CLASS) == b"...Thread...sleep..."
    result, calls = _module(monkeypatch, args)
    assert not result["changed"] and result["state"] == "in-place" and calls == []


def test_the_module_in_check_mode_writes_nothing(tmp_path, monkeypatch):
    rel = _release(tmp_path, SPINS)
    result, calls = _module(monkeypatch, {"release_dir": rel, "src": SRC, "_ansible_check_mode": True})
    assert result["changed"] and result["state"] == "needed" and calls == []
    assert not os.path.exists(os.path.join(rel, y.FIXES_JAR))
    # A fresh host: no release yet, nothing to say but that.
    result, calls = _module(monkeypatch, {"release_dir": str(tmp_path / "none"), "src": SRC, "_ansible_check_mode": True})
    assert not result["changed"] and result["state"] == "unknown" and not result["failed"]


def test_the_module_names_what_is_wrong(tmp_path, monkeypatch):
    result = _module(monkeypatch, {"release_dir": str(tmp_path / "none"), "src": SRC})[0]
    assert result["failed"] and result["msg"].startswith("release_dir: a Hadoop release directory (with share/hadoop) is required")
    rel = _release(tmp_path, SPINS)
    result, calls = _module(monkeypatch, {"release_dir": rel, "src": SRC, "javac": str(tmp_path / "no" / "javac")})
    assert result["failed"] and calls == [] and not os.path.exists(os.path.join(rel, y.FIXES_JAR))
    assert "is not there" in result["msg"] and "set yarn_token_tracker_fix: false" in result["msg"]
    result = _module(monkeypatch, {"release_dir": rel, "src": SRC, "javac": _javac(tmp_path)}, rc=1)[0]
    assert result["failed"] and result["msg"].startswith("yarn_token_tracker_fix: javac failed on ")
    assert "error: cannot find symbol" in result["msg"] and not os.path.exists(os.path.join(rel, y.FIXES_JAR))
