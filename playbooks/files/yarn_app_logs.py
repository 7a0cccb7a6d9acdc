# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Copies one YARN application's container logs kept on this node, for playbooks/collect_logs.yml.

Usage: python3 yarn_app_logs.py YARN_SITE APPLICATION_ID DEST MAX_BYTES

The NodeManager writes each container's logs to <a dir of yarn.nodemanager.log-dirs>/<application>/<container>/.
With log aggregation on they move to HDFS when the application ends (`yarn logs` reads them there); with it off
(secure mode without container-executor, docs/security.md) they stay on the nodes until
yarn.nodemanager.log.retain-seconds, and this is how they are collected. Each file is copied to
DEST/<application>/<container>/<file> (its last MAX_BYTES bytes). Prints `aggregation: on|off` (yarn-site.xml's
yarn.log-aggregation-enable) and `container files: N`; `aggregation: none` when the host has no yarn-site.xml.
"""

import os
import shutil
import sys
import xml.etree.ElementTree as ET


def site_values(path):
    """A Hadoop *-site.xml file's {name: value}."""
    root = ET.parse(path).getroot()
    return {p.findtext("name", "").strip(): (p.findtext("value") or "").strip() for p in root.iter("property")}


def copy_tail(src, dest, max_bytes):
    with open(src, "rb") as f:
        f.seek(0, os.SEEK_END)
        f.seek(max(0, f.tell() - max_bytes))
        with open(dest, "wb") as out:
            shutil.copyfileobj(f, out)


def main(yarn_site, app, dest, max_bytes):
    if not os.path.isfile(yarn_site):
        print("aggregation: none")
        return 0
    conf = site_values(yarn_site)
    aggregation = conf.get("yarn.log-aggregation-enable", "false").lower() == "true"
    print("aggregation: %s" % ("on" if aggregation else "off"))
    count = 0
    for log_dir in filter(None, (d.strip() for d in conf.get("yarn.nodemanager.log-dirs", "").split(","))):
        app_dir = os.path.join(log_dir.replace("file://", ""), app)
        if not os.path.isdir(app_dir):
            continue
        for container in sorted(os.listdir(app_dir)):
            container_dir = os.path.join(app_dir, container)
            if not os.path.isdir(container_dir):
                continue
            for name in sorted(os.listdir(container_dir)):
                src = os.path.join(container_dir, name)
                if not os.path.isfile(src):
                    continue
                os.makedirs(os.path.join(dest, app, container), exist_ok=True)
                copy_tail(src, os.path.join(dest, app, container, name), max_bytes)
                count += 1
    print("container files: %d" % count)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.stderr.write(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])))
