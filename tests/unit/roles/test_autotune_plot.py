# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The autotune role's plot of ratios with their intervals."""

import importlib.util
import json
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
SPEC = importlib.util.spec_from_file_location("autotune_plot", ROOT / "roles/autotune/files/autotune_plot.py")
P = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(P)

DATA = {"margin": 1.03, "points": [
    {"label": "coarse compression_codec=zstd", "ratio": 1.2, "low": 1.1, "high": 1.3, "verdict": "wins"},
    {"label": "coarse adaptive=false", "ratio": 0.98, "low": 0.9, "high": 1.05, "verdict": "baseline stays"},
    {"label": "coarse executor_cores=1", "ratio": None, "low": None, "high": None, "verdict": "failed"}]}


def test_rows():
    assert P.rows(DATA) == [("coarse compression_codec=zstd", 1.2, 1.1, 1.3, "#2e7d32"),
                            ("coarse adaptive=false", 0.98, 0.9, 1.05, "#3b6ea5"),
                            ("coarse executor_cores=1 (failed)", 1.0, 1.0, 1.0, "#9e9e9e")]


def test_plot_writes_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    src = tmp_path / "plot.json"
    src.write_text(json.dumps(DATA))
    assert P.main(["autotune_plot.py", str(src), str(tmp_path / "ratios.png")]) == 0
    assert (tmp_path / "ratios.png").read_bytes()[:4] == b"\x89PNG"
    assert P.main(["autotune_plot.py"]) == 2
