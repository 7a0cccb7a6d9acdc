# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Plot autotune's candidates: each ratio to its baseline with its interval, the margin and 1.0 as lines.

Usage: autotune_plot.py PLOT.json OUT.png   (PLOT.json: the autotune module's plot_data)
Without matplotlib on the controller it says so and exits 0 (the table holds the same numbers).
"""
import json
import sys

COLOURS = {"wins": "#2e7d32", "baseline stays": "#3b6ea5", "failed": "#9e9e9e"}


def rows(data):
    """(label, ratio, low, high, colour) per candidate; a failed one is drawn at 1.0 without an interval."""
    out = []
    for p in data["points"]:
        if p["ratio"] is None:
            out.append((p["label"] + " (failed)", 1.0, 1.0, 1.0, COLOURS["failed"]))
        else:
            out.append((p["label"], p["ratio"], p["low"], p["high"], COLOURS.get(p["verdict"], "#000000")))
    return out


def plot(data, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        sys.stdout.write("autotune_plot: no plot, matplotlib is not installed on the controller: %s\n" % exc)
        return False
    found = rows(data)
    fig, ax = plt.subplots(figsize=(8, max(2.5, 0.45 * len(found) + 1.2)))
    for i, (label, ratio, low, high, colour) in enumerate(found):
        ax.errorbar([ratio], [i], xerr=[[ratio - low], [high - ratio]], fmt="o", color=colour, capsize=4)
    ax.margins(x=0.15, y=0.2)
    ax.axvline(1.0, color="#555555", linewidth=1)
    ax.axvline(data["margin"], color="#c62828", linestyle="--", linewidth=1, label="margin %.2f" % data["margin"])
    ax.set_yticks(range(len(found)))
    ax.set_yticklabels([r[0] for r in found], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("throughput ratio to the baseline (median; bars: bootstrap interval)")
    ax.set_title("Autotune candidates (green: wins)")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1]) as fh:
        plot(json.load(fh), argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
