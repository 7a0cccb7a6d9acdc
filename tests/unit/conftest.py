"""Make `ansible_collections.bigdata.spark` importable from a plain checkout.

The repository root is the collection root. When it does not already sit at a path ending in
ansible_collections/bigdata/spark, build a small symlink tree in a temporary directory and put it
first on sys.path, so tests import the code exactly as Ansible does.
"""

import os
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))


def _collection_parent():
    parts = ROOT.split(os.sep)
    if parts[-3:] == ['ansible_collections', 'bigdata', 'spark']:
        return os.sep.join(parts[:-3])
    base = tempfile.mkdtemp(prefix='bigdata-spark-tests-')
    namespace = os.path.join(base, 'ansible_collections', 'bigdata')
    os.makedirs(namespace)
    os.symlink(ROOT, os.path.join(namespace, 'spark'))
    return base


_PARENT = _collection_parent()
if _PARENT not in sys.path:
    sys.path.insert(0, _PARENT)
