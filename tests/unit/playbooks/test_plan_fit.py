"""playbooks/files/plan_fit.py: which ResourceManager the fit check's probes ask."""

import importlib.util
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
_SPEC = importlib.util.spec_from_file_location("plan_fit", ROOT / "playbooks" / "files" / "plan_fit.py")
M = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(M)


def test_rm_urls_put_each_host_on_the_first_ones_scheme_and_port():
    spec = {"rm": "https://rm1.lab:8090", "rm_hosts": ["rm1.lab", "rm2.lab"]}
    assert M.rm_urls(spec) == ["https://rm1.lab:8090", "https://rm2.lab:8090"]
    assert M.rm_urls({"rm": "http://master:8088"}) == ["http://master:8088"]


def _cluster(monkeypatch, answers):
    """rm_get answering /ws/v1/cluster/info per URL: a state, or an exception to raise."""
    asked = []

    def rm_get(rm, path):
        asked.append((rm, path))
        answer = answers[rm]
        if isinstance(answer, Exception):
            raise answer
        return {"clusterInfo": {"haState": answer}}
    monkeypatch.setattr(M, "rm_get", rm_get)
    return asked


def test_active_rm_skips_the_standby(monkeypatch):
    asked = _cluster(monkeypatch, {"https://rm1:8090": "STANDBY", "https://rm2:8090": "ACTIVE"})
    assert M.active_rm(["https://rm1:8090", "https://rm2:8090"], wait_s=0) == "https://rm2:8090"
    assert asked == [("https://rm1:8090", "/ws/v1/cluster/info"), ("https://rm2:8090", "/ws/v1/cluster/info")]


def test_active_rm_passes_a_stopped_one(monkeypatch):
    _cluster(monkeypatch, {"http://rm1:8088": OSError("curl GET: exit 7"), "http://rm2:8088": "ACTIVE"})
    assert M.active_rm(["http://rm1:8088", "http://rm2:8088"], wait_s=0) == "http://rm2:8088"


def test_no_active_rm_names_each_state(monkeypatch):
    _cluster(monkeypatch, {"http://rm1:8088": "STANDBY", "http://rm2:8088": OSError("curl GET: exit 7")})
    with pytest.raises(OSError) as err:
        M.active_rm(["http://rm1:8088", "http://rm2:8088"], wait_s=0)
    assert "no ResourceManager is active" in str(err.value)
    assert '"http://rm1:8088": "STANDBY"' in str(err.value) and "exit 7" in str(err.value)


def _curl_runs(monkeypatch, exits):
    """subprocess.run answering curl with these exit codes in turn (0: HTTP 200 and a JSON body); the calls made."""
    calls = []

    class Done:
        def __init__(self, rc):
            self.returncode = rc
            self.stdout = '{"ok": true}\n200' if rc == 0 else ""
            self.stderr = "" if rc == 0 else "curl: (%d) failed" % rc

    def run(argv, **_kwargs):
        calls.append(argv)
        return Done(exits[len(calls) - 1])
    monkeypatch.setattr(M.subprocess, "run", run)
    return calls


def test_a_slow_answer_is_asked_again(monkeypatch):
    calls = _curl_runs(monkeypatch, [28, 28, 0])
    assert M.rm_get("http://rm1:8088", "/ws/v1/cluster/info") == {"ok": True}
    assert len(calls) == 3


def test_a_refusal_or_three_slow_answers_fail_at_once(monkeypatch):
    calls = _curl_runs(monkeypatch, [7])
    with pytest.raises(OSError, match="exit 7"):
        M.rm_get("http://rm1:8088", "/ws/v1/cluster/info")
    assert len(calls) == 1
    calls = _curl_runs(monkeypatch, [28, 28, 28, 0])
    with pytest.raises(OSError, match="exit 28"):
        M.rm_get("http://rm1:8088", "/ws/v1/cluster/info")
    assert len(calls) == 3
