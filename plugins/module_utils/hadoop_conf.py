# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Pure helpers that render Hadoop XML and spark-defaults.conf, read them back, and read `hdfs dfs -ls -d` output.

No Ansible imports, no I/O: the filter plugins and the tests call these directly.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

XML_HEADER = '<?xml version="1.0" encoding="UTF-8"?>'
MANAGED_COMMENT = "Managed by Ansible (bigdata.spark). Local changes are overwritten."

_NAME_RE = re.compile(r"^[A-Za-z0-9_.\-\[\]:/$]+$")
_SPARK_KEY_RE = re.compile(r"^[A-Za-z0-9_.\-\[\]]+$")


# Hadoop reads these properties as one entry per line (NodeFencer splits the fencing methods on line breaks).
LINE_LIST_KEYS = frozenset(("dfs.ha.fencing.methods",))


class HadoopConfError(ValueError):
    """Invalid configuration input, with a message a user can act on."""


def to_conf_value(value, key="?"):
    """Turn a Python value into the string Hadoop and Spark expect (booleans lower case, lists comma-joined)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        text = value
    elif isinstance(value, (list, tuple)):
        text = ",".join(to_conf_value(item, key) for item in value)
    elif value is None:
        raise HadoopConfError("property '%s' has no value (None); set a value or remove the key" % key)
    else:
        raise HadoopConfError(
            "property '%s' has a value of type %s; use a string, number, boolean or list" % (key, type(value).__name__)
        )
    if key in LINE_LIST_KEYS and "\r" not in text:
        return text
    if "\n" in text or "\r" in text:
        raise HadoopConfError("property '%s' has a line break in its value; configuration values are one line" % key)
    return text


def merge_conf(computed, overrides):
    """Combine the computed dict with the user's overrides: the user wins; an override of None removes the key."""
    for label, data in (("computed", computed), ("overrides", overrides)):
        if data is not None and not isinstance(data, dict):
            raise HadoopConfError("%s must be a dict of property -> value, got %s" % (label, type(data).__name__))
    merged = dict(computed or {})
    for key, value in (overrides or {}).items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged


def xml_escape(text):
    """Escape a string for XML element content."""
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&apos;")
    )


def render_hadoop_xml(properties, comment=MANAGED_COMMENT):
    """Render a dict as a Hadoop *-site.xml, keys sorted, so the same dict always gives the same bytes."""
    if not isinstance(properties, dict):
        raise HadoopConfError("hadoop_xml expects a dict of property -> value, got %s" % type(properties).__name__)
    lines = [XML_HEADER]
    if comment:
        if "--" in comment:
            raise HadoopConfError("the XML comment must not contain '--'")
        lines.append("<!-- %s -->" % comment)
    lines.append("<configuration>")
    for key in sorted(properties, key=str):
        name = str(key)
        if not _NAME_RE.match(name):
            raise HadoopConfError("'%s' is not a valid Hadoop property name" % name)
        if properties[key] is None:
            continue
        value = to_conf_value(properties[key], name)
        lines.append("  <property>")
        lines.append("    <name>%s</name>" % xml_escape(name))
        lines.append("    <value>%s</value>" % xml_escape(value))
        lines.append("  </property>")
    lines.append("</configuration>")
    return "\n".join(lines) + "\n"


def render_spark_conf(properties, comment=MANAGED_COMMENT):
    """Render a dict as spark-defaults.conf: `key value` lines, keys sorted."""
    if not isinstance(properties, dict):
        raise HadoopConfError("spark_conf expects a dict of property -> value, got %s" % type(properties).__name__)
    lines = ["# %s" % comment] if comment else []
    for key in sorted(properties, key=str):
        name = str(key)
        if not _SPARK_KEY_RE.match(name):
            raise HadoopConfError("'%s' is not a valid Spark property name (no spaces, '=' or '#')" % name)
        if properties[key] is None:
            continue
        value = to_conf_value(properties[key], name)
        lines.append(("%s %s" % (name, value)).rstrip())
    return "\n".join(lines) + "\n"


_PERM_RE = re.compile(r"^[dl-]([r-][w-][xsS-])([r-][w-][xsS-])([r-][w-][xtT-])\+?$")


def parse_spark_conf(text):
    """{key: value} of a spark-defaults.conf (`key value` lines; blank lines and comments skipped)."""
    out = {}
    for line in (text or "").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _sep, value = line.partition(" ")
            out[key] = value.strip()
    return out


def parse_hadoop_xml(text):
    """{name: value} of a *-site.xml as written (a property without a value gives None).
    Raises xml.etree.ElementTree.ParseError on text that is not XML (empty text included)."""
    return dict((p.findtext("name"), p.findtext("value")) for p in ET.fromstring(text).iter("property"))


def symbolic_to_octal(perm):
    """'drwxrwxrwt' -> '1777' (as `hdfs dfs -ls` prints them)."""
    match = _PERM_RE.match(perm)
    if not match:
        raise HadoopConfError("'%s' is not a permission string like drwxr-xr-x" % perm)
    special = 0
    digits = []
    for index, triple in enumerate(match.groups()):
        value = (4 if triple[0] == "r" else 0) + (2 if triple[1] == "w" else 0)
        if triple[2] in ("x", "s", "t"):
            value += 1
        if triple[2] in ("s", "S", "t", "T"):
            special |= (4, 2, 1)[index]
        digits.append(str(value))
    return "%d%s" % (special, "".join(digits))


def unit_names(lines):
    """The unit names (without `.service`) in the first column of `systemctl list-units --plain --no-legend`
    or `list-unit-files` output lines (or of `unit<TAB>detail` lines); blank lines are skipped."""
    names = []
    for line in lines or []:
        fields = str(line).split()
        if not fields:
            continue
        name = fields[0]
        names.append(name[:-len(".service")] if name.endswith(".service") else name)
    return names


def parse_hdfs_ls(text):
    """Read `hdfs dfs -ls -d PATH...` output into {path: {owner, group, mode}}; other lines are ignored."""
    result = {}
    for line in (text or "").splitlines():
        fields = line.split(None, 7)
        if len(fields) < 8 or not _PERM_RE.match(fields[0]):
            continue
        result[fields[7]] = {
            "owner": fields[2],
            "group": fields[3],
            "mode": symbolic_to_octal(fields[0]),
            "dir": fields[0].startswith("d"),
        }
    return result


def normalize_mode(mode):
    """'01777', '1777', 0o1777 or '755' -> four-digit string ('1777', '0755')."""
    if isinstance(mode, int):
        text = "%o" % mode
    else:
        text = str(mode).strip()
        if text.startswith("0o"):
            text = text[2:]
    if not re.match(r"^[0-7]{3,5}$", text):
        raise HadoopConfError("'%s' is not an octal mode like 0755 or 1777" % mode)
    text = text.lstrip("0") or "0"
    if len(text) > 4:
        raise HadoopConfError("'%s' is not an octal mode like 0755 or 1777" % mode)
    return text.rjust(4, "0")


def hdfs_dir_actions(wanted, current):
    """Compare wanted HDFS directories (list of {path, owner, group, mode}) with parse_hdfs_ls output.

    Returns {'mkdir': [paths], 'chown': [{path, owner, group}], 'chmod': [{path, mode}]} and the same changes as
    batches, one `hdfs dfs` call each (a client JVM costs seconds): 'chown_batches': [{owner, paths}] with owner
    "user" or "user:group", 'chmod_batches': [{mode, paths}], in the order their first path was wanted.
    """
    actions = {"mkdir": [], "chown": [], "chmod": []}
    for item in wanted or []:
        if not isinstance(item, dict) or "path" not in item:
            raise HadoopConfError("each HDFS directory needs at least a 'path' (got %r)" % (item,))
        path = item["path"]
        owner = item.get("owner")
        group = item.get("group")
        mode = normalize_mode(item["mode"]) if item.get("mode") is not None else None
        now = (current or {}).get(path)
        if now is None:
            actions["mkdir"].append(path)
        if owner and (now is None or now["owner"] != owner or (group and now["group"] != group)):
            actions["chown"].append({"path": path, "owner": owner, "group": group or ""})
        if mode and (now is None or normalize_mode(now["mode"]) != mode):
            actions["chmod"].append({"path": path, "mode": mode})
    actions["chown_batches"] = _batches(actions["chown"], "owner",
                                        lambda a: a["owner"] + (":" + a["group"] if a["group"] else ""))
    actions["chmod_batches"] = _batches(actions["chmod"], "mode", lambda a: a["mode"])
    return actions


def _batches(changes, name, key):
    """[{name: key(change), 'paths': [...]}] grouping changes by key, first-seen order."""
    batches = {}
    for change in changes:
        batches.setdefault(key(change), []).append(change["path"])
    return [{name: k, "paths": paths} for k, paths in batches.items()]


def home_dir_entries(names, group, mode="0755"):
    """['spark', 'alice'] -> [{path: /user/spark, owner: spark, group, mode}, ...] for hdfs_dir_actions."""
    if isinstance(names, str) or not isinstance(names, (list, tuple)):
        raise HadoopConfError("the HDFS home directory names must be a list of user names, got %r" % (names,))
    entries = []
    for name in names:
        if not isinstance(name, str) or not re.match(r"^[A-Za-z_][A-Za-z0-9_.-]*$", name):
            raise HadoopConfError("'%s' is not a valid user name for an HDFS home directory" % (name,))
        entries.append({"path": "/user/" + name, "owner": name, "group": group, "mode": normalize_mode(mode)})
    return entries
