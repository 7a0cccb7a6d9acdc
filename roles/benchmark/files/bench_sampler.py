# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Samples CPU, memory, disk and network counters from /proc (and power where the host exposes it) every
INTERVAL seconds until STOPFILE exists. One JSON object per line; the controller turns counters into rates.

Usage: bench_sampler.py OUTFILE STOPFILE INTERVAL
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time


def cpu():
    with open("/proc/stat") as fh:
        fields = [int(x) for x in fh.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return {"cpu_total": sum(fields[:8]), "cpu_idle": idle}


def memory():
    info = {}
    with open("/proc/meminfo") as fh:
        for line in fh:
            name, value = line.split(":", 1)
            info[name] = int(value.split()[0]) * 1024
    return {"mem_total": info.get("MemTotal", 0), "mem_available": info.get("MemAvailable", 0)}


def whole_disks():
    names = set()
    for path in glob.glob("/sys/block/*"):
        name = os.path.basename(path)
        if not name.startswith(("loop", "ram", "zram", "dm-", "md", "sr")):
            names.add(name)
    return names


def disks(names):
    read = written = 0
    with open("/proc/diskstats") as fh:
        for line in fh:
            f = line.split()
            if len(f) > 9 and f[2] in names:
                read += int(f[5]) * 512
                written += int(f[9]) * 512
    return {"disk_read": read, "disk_write": written}


def network():
    rx = tx = 0
    with open("/proc/net/dev") as fh:
        for line in fh.readlines()[2:]:
            name, data = line.split(":", 1)
            if name.strip() == "lo":
                continue
            f = data.split()
            rx += int(f[0])
            tx += int(f[8])
    return {"net_rx": rx, "net_tx": tx}


def rapl_paths():
    """Package-level RAPL energy counters that this process can read."""
    found = []
    for path in sorted(glob.glob("/sys/class/powercap/intel-rapl:*/energy_uj")):
        if path.count(":") == 1 and os.access(path, os.R_OK):
            found.append(path)
    return found


def energy(paths):
    total = 0
    for path in paths:
        with open(path) as fh:
            total += int(fh.read().strip())
    return {"energy_uj": total}


def ipmi_watts():
    """The BMC's instantaneous power reading (IPMI DCMI), or None."""
    try:
        out = subprocess.run(["ipmitool", "dcmi", "power", "reading"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, universal_newlines=True, timeout=10, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"Instantaneous power reading:\s*(\d+)\s*Watts", out)
    return int(found.group(1)) if found else None


def power_source():
    """Which power source this host has, and if none, why not."""
    reasons = []
    if shutil.which("ipmitool") and glob.glob("/dev/ipmi*"):
        if ipmi_watts() is not None:
            return "ipmi", None
        reasons.append("ipmitool dcmi power reading gave no reading")
    else:
        reasons.append("no IPMI (ipmitool or /dev/ipmi* missing)")
    if rapl_paths():
        return "rapl", None
    if glob.glob("/sys/class/powercap/intel-rapl:*"):
        reasons.append("RAPL energy counters exist but are not readable")
    else:
        reasons.append("no RAPL counters in /sys/class/powercap")
    return None, "; ".join(reasons)


def main():
    out, stop, interval = sys.argv[1], sys.argv[2], float(sys.argv[3])
    names = whole_disks()
    source, reason = power_source()
    rapl = rapl_paths() if source == "rapl" else []
    with open(out, "a") as fh:
        fh.write(json.dumps({"power_source": source, "power_reason": reason, "disks": sorted(names)}) + "\n")
        while not os.path.exists(stop):
            sample = {"t": round(time.time(), 3)}
            for part in (cpu(), memory(), disks(names), network(), energy(rapl) if rapl else {}):
                sample.update(part)
            if source == "ipmi":
                sample["watts"] = ipmi_watts()
            fh.write(json.dumps(sample, sort_keys=True) + "\n")
            fh.flush()
            time.sleep(interval)


if __name__ == "__main__":
    main()
