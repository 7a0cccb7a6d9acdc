"""jvm_options: the one place JVM options strings are made; the strings pinned here are those deployed files
held before it existed (a rerun must change no file)."""

import pathlib

import pytest
import yaml

from ansible_collections.bigdata.spark.plugins.module_utils.jvm import add_opens, jvm_options
from ansible_collections.bigdata.spark.plugins.module_utils.plan_inputs import PlanError

ROOT = pathlib.Path(__file__).resolve().parents[4]
OPENINGS = yaml.safe_load((ROOT / 'roles' / 'hadoop' / 'defaults' / 'main.yml').read_text())['hadoop_java17_add_opens']
# hadoop_java17_add_opens's default, as the files carry it.
OPENS = ' '.join([
    '--add-opens=java.base/java.lang=ALL-UNNAMED',
    '--add-opens=java.base/java.util=ALL-UNNAMED',
    '--add-opens=java.base/java.util.concurrent=ALL-UNNAMED',
    '--add-opens=java.base/java.lang.reflect=ALL-UNNAMED',
    '--add-opens=java.base/java.io=ALL-UNNAMED',
    '--add-opens=java.base/java.net=ALL-UNNAMED',
    '--add-opens=java.base/java.nio=ALL-UNNAMED',
    '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
    '--add-opens=java.base/java.util.regex=ALL-UNNAMED',
    '--add-opens=java.base/java.lang.invoke=ALL-UNNAMED',
    '--add-opens=java.base/sun.security.action=ALL-UNNAMED',
    '--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED',
    '--add-opens=java.base/java.util.zip=ALL-UNNAMED',
    '--add-opens=java.base/sun.security.util=ALL-UNNAMED',
    '--add-opens=java.base/sun.security.x509=ALL-UNNAMED',
    '--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED',
])


def test_the_default_openings_render_as_deployed():
    assert add_opens(OPENINGS, 17) == OPENS


@pytest.mark.parametrize('options, openings, java, expected', [
    # mapreduce.*.java.opts and the AM's command-opts in mapred-site.xml
    ('-Xmx409m', OPENINGS, 17, '-Xmx409m ' + OPENS),
    ('-Xmx1638m', OPENINGS, 21, '-Xmx1638m ' + OPENS),
    ('-Xmx1000m -XX:+UseG1GC', OPENINGS, 17, '-Xmx1000m -XX:+UseG1GC ' + OPENS),
    ('', OPENINGS, 17, OPENS),  # no computed options: the openings alone
    ('-Xmx409m', [], 17, '-Xmx409m'),  # no openings: no trailing space
    (' -Xmx409m  ', ['a=b'], 17, '-Xmx409m   --add-opens=a=b'),  # trimmed at the ends only
    ('-Xmx409m', OPENINGS, 11, '-Xmx409m'),  # below 17 the options as given
    (' -Xmx409m ', OPENINGS, 11, ' -Xmx409m '),
    ('-Xmx409m', OPENINGS, '17', '-Xmx409m ' + OPENS),  # java_major_version may be a string
    # hadoop-env.sh's HADOOP_OPTS takes the openings alone after its own options
    ('', OPENINGS, 11, ''),
    ('', ['java.base/java.lang=ALL-UNNAMED'], 17, '--add-opens=java.base/java.lang=ALL-UNNAMED'),
])
def test_options_and_openings(options, openings, java, expected):
    assert jvm_options(options, openings, java) == expected


@pytest.mark.parametrize('kwargs, expected', [
    # hadoop-env.sh's daemon lines
    ({'heap_mb': 512, 'initial_heap_mb': 512}, '-Xms512m -Xmx512m'),
    ({'heap_mb': 384}, '-Xmx384m'),
    ({'heap_mb': '12288'}, '-Xmx12288m'),
    ({'options': '-XX:+UseG1GC', 'heap_mb': 2048}, '-Xmx2048m -XX:+UseG1GC'),
    ({'options': '-Dx=1', 'openings': ['a=b'], 'java_major': 17, 'heap_mb': 256}, '-Xmx256m -Dx=1 --add-opens=a=b'),
])
def test_heaps_go_first(kwargs, expected):
    assert jvm_options(**kwargs) == expected


@pytest.mark.parametrize('kwargs, words', [
    ({'heap_mb': 'big'}, 'heap_mb: expected a whole number of 1 or more'),
    ({'heap_mb': 0}, 'heap_mb: expected a whole number of 1 or more'),
    ({'heap_mb': True}, 'heap_mb: expected a whole number'),
    ({'initial_heap_mb': 1.5}, 'initial_heap_mb: expected a whole number'),
    ({'java_major': 'seventeen'}, 'java_major: expected a whole number'),
    ({'options': ['-Xmx1g']}, 'options: expected JVM options as a string'),
    ({'openings': 'java.base/java.lang=ALL-UNNAMED'}, 'add_opens: expected a list of openings'),
])
def test_bad_input_says_what_is_allowed(kwargs, words):
    with pytest.raises(PlanError, match=words):
        jvm_options(**kwargs)
