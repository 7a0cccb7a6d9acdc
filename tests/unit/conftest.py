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


# Hypothesis runs the same way everywhere: with its own "ci" profile (fixed examples, no database, no too_slow health
# check, no deadline), whether or not the environment has CI set. Hypothesis loads that profile by itself only when
# CI is set; without it a run drew new random examples and failed the too_slow health check when examples took
# long to make, which they do in the test command, where the unit layer runs at nice 10 beside the labs
# (tests/run-all.sh). To look for new counterexamples by hand: pytest --hypothesis-profile=explore tests/unit
# (the same settings with random examples; --hypothesis-seed=N repeats one run).
from hypothesis import settings  # noqa: E402

settings.register_profile('explore', settings.get_profile('ci'), derandomize=False)


def pytest_configure(config):
    if not config.getoption('hypothesis_profile', default=None):
        settings.load_profile('ci')
