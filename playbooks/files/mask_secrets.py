# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Copies configuration files with their secrets masked, for playbooks/collect_logs.yml.

Usage: python3 mask_secrets.py DEST FILE... (each FILE is copied to DEST/<its absolute path>)

A value is masked when its name says it is a secret (password, secret, credential, token, a key): the <value> of such a
<property> in Hadoop's XML files, the value of such a key in key=value or `key value` files (spark-defaults.conf,
zoo.cfg, *.properties), and of such a variable in shell files (export NAME=...). Keystores, truststores, keytabs and
PEM files holding a private key are not copied at all. Prints one line per file: copied, masked N, or left out.
"""

import os
import re
import sys

MASK = "********"
SECRET_NAME = re.compile(r"pass(word|wd|phrase)?|secret|credential|token|(^|[._-])key($|[._-])|signature", re.I)
# Values that only switch or time a secret (dfs.block.access.token.enable=true) stay readable.
PLAIN_VALUE = re.compile(r"^\s*(true|false|\d{1,9})\s*$", re.I)
LEFT_OUT = re.compile(r"\.(jks|p12|pfx|keytab|bcfks|jceks)$", re.I)
PROPERTY = re.compile(r"(<property>.*?</property>)", re.S)
NAME = re.compile(r"<name>\s*(.*?)\s*</name>", re.S)
VALUE = re.compile(r"(<value>)(.*?)(</value>)", re.S)
KEY_VALUE = re.compile(r"^(\s*(?:export\s+)?)([A-Za-z0-9_.\-]+)(\s*[=:]\s*|\s+)(.*)$")


def secret(name, value):
    """Whether a named value is to be masked."""
    return bool(SECRET_NAME.search(name)) and not PLAIN_VALUE.match(value or "")


def mask_xml(text):
    """(text, how many values masked) for a Hadoop configuration file."""
    count = [0]

    def one(match):
        block = match.group(1)
        name, value = NAME.search(block), VALUE.search(block)
        if name and value and secret(name.group(1), value.group(2)):
            count[0] += 1
            return VALUE.sub(lambda m: m.group(1) + MASK + m.group(3), block, count=1)
        return block
    return PROPERTY.sub(one, text), count[0]


def mask_lines(text):
    """(text, how many values masked) for key=value, `key value` and shell files; comments stay as they are."""
    out, count = [], 0
    for line in text.splitlines(True):
        match = KEY_VALUE.match(line.rstrip("\n"))
        if match and not line.lstrip().startswith("#") and secret(match.group(2), match.group(4)):
            count += 1
            line = match.group(1) + match.group(2) + match.group(3) + MASK + ("\n" if line.endswith("\n") else "")
        out.append(line)
    return "".join(out), count


def mask_file(path, text):
    """(masked text, count), or (None, reason) for a file that is not copied."""
    if LEFT_OUT.search(path):
        return None, "a keystore or keytab"
    if "PRIVATE KEY-----" in text:
        return None, "holds a private key"
    if path.endswith(".xml"):
        return mask_xml(text)
    return mask_lines(text)


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: mask_secrets.py DEST FILE...\n")
        return 2
    dest = argv[0]
    for path in argv[1:]:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError as exc:
            print("%s: not read (%s)" % (path, exc.strerror))
            continue
        masked, count = mask_file(path, text)
        if masked is None:
            print("%s: left out (%s)" % (path, count))
            continue
        target = os.path.join(dest, path.lstrip("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as f:
            f.write(masked)
        print("%s: %s" % (path, "masked %d value(s)" % count if count else "copied"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
