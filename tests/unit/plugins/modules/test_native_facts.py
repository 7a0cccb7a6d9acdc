"""native_facts against a fake Hadoop release holding real zip jars."""

import os
import re
import struct
import zipfile

import pytest

from ansible_collections.bigdata.spark.plugins.modules import native_facts as M


def elf(machine):
    return b'\x7fELF' + bytes([2, 1, 1]) + b'\x00' * 9 + struct.pack('<HH', 3, machine) + b'\x00' * 44


def jar(path, members):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with zipfile.ZipFile(path, 'w') as z:
        for name, data in members.items():
            z.writestr(name, data)


def release(root, leveldb_members, extra_copy=None):
    home = str(root)
    jar(os.path.join(home, 'share/hadoop/hdfs/lib/leveldbjni-all-1.8.jar'), leveldb_members)
    if extra_copy is not None:
        jar(os.path.join(home, 'share/hadoop/yarn/lib/leveldbjni-all-1.8.jar'), extra_copy)
    jar(os.path.join(home, 'share/hadoop/common/lib/snappy-java-1.1.8.2.jar'),
        {'org/xerial/snappy/native/Linux/x86_64/libsnappyjava.so': elf(0x3E),
         'org/xerial/snappy/native/Linux/aarch64/libsnappyjava.so': elf(0xB7)})
    return home


X86_ONLY = {'META-INF/native/linux64/libleveldbjni.so': elf(0x3E), 'META-INF/MANIFEST.MF': b''}
BOTH = dict(X86_ONLY, **{'META-INF/native/linux64/aarch64/libleveldbjni.so': elf(0xB7)})


def test_x86_release_on_aarch64(tmp_path):
    facts = M.gather(release(tmp_path, X86_ONLY), 'aarch64')
    lev = facts['jni']['leveldbjni']
    assert facts['architecture'] == 'aarch64'
    assert lev['available'] is False and lev['architectures'] == ['x86_64']
    assert lev['jar'].endswith('share/hadoop/hdfs/lib/leveldbjni-all-1.8.jar')
    assert facts['codecs']['snappy']['available'] is True
    assert facts['codecs']['lz4'] == {'available': False, 'how': 'lz4-java is not on the classpath'}
    assert facts['checknative'] == {} and facts['checknative_rc'] is None


def test_aarch64_release(tmp_path):
    facts = M.gather(release(tmp_path, BOTH), 'arm64')
    assert facts['jni']['leveldbjni']['available'] is True
    assert facts['jni']['leveldbjni']['path'] == 'META-INF/native/linux64/aarch64/libleveldbjni.so'
    assert M.gather(release(tmp_path, BOTH), 'x86_64')['jni']['leveldbjni']['available'] is True


def test_every_copy_must_carry_the_library(tmp_path):
    facts = M.gather(release(tmp_path, BOTH, extra_copy=X86_ONLY), 'aarch64')
    assert facts['jni']['leveldbjni']['available'] is False
    assert facts['jni']['leveldbjni']['jar'].endswith('share/hadoop/yarn/lib/leveldbjni-all-1.8.jar')


def test_missing_jar_and_checknative(tmp_path):
    home = str(tmp_path)
    os.makedirs(os.path.join(home, 'share/hadoop/common'))
    facts = M.gather(home, 'x86_64', lambda: (1, 'hadoop:  false\nzstd  :  false\n', ''))
    assert facts['jni']['leveldbjni']['available'] is False
    assert 'no jar matching' in facts['jni']['leveldbjni']['detail']
    assert facts['checknative_rc'] == 1
    assert facts['checknative']['hadoop'] == {'available': False, 'detail': ''}
    assert facts['codecs']['zstd']['available'] is False
    assert facts['checknative_error'] == ''


def test_unreadable_jar(tmp_path):
    home = str(tmp_path)
    path = os.path.join(home, 'share/hadoop/hdfs/lib/leveldbjni-all-1.8.jar')
    os.makedirs(os.path.dirname(path))
    with open(path, 'wb') as f:
        f.write(b'not a zip')
    lev = M.gather(home, 'x86_64')['jni']['leveldbjni']
    assert lev['available'] is False and 'cannot read' in lev['detail']


# What `hadoop checknative` prints (Hadoop 3.3.6) with and without libhadoop, and when it cannot start.
WITH_LIBHADOOP = (0, """Native library checking:
hadoop:  true /opt/hadoop/hadoop-3.3.6/lib/native/libhadoop.so.1.0.0
zlib:    true /lib/x86_64-linux-gnu/libz.so.1
zstd  :  true /lib/x86_64-linux-gnu/libzstd.so.1
bzip2:   true /lib/x86_64-linux-gnu/libbz2.so.1
openssl: false EVP_CIPHER_CTX_block_size
ISA-L:   false libhadoop was built without ISA-L support
PMDK:    false The native code was built without PMDK support.
""", "2024-05-01 10:00:00,000 INFO bzip2.Bzip2Factory: Successfully loaded & initialized native-bzip2 library system-native\n")
WITHOUT_LIBHADOOP = (1, """Native library checking:
hadoop:  false
zlib:    false
zstd  :  false
bzip2:   false
openssl: false
ISA-L:   false
PMDK:    false
""", ("2024-05-01 10:00:00,000 WARN util.NativeCodeLoader: Unable to load native-hadoop library for your platform... "
      "using builtin-java classes where applicable\n"))
NO_JAVA = (1, "", "ERROR: JAVA_HOME is not set and could not be found.\n")


@pytest.mark.parametrize("run, available, error", [
    (WITH_LIBHADOOP, True, ""),
    (WITHOUT_LIBHADOOP, False, ""),
    (NO_JAVA, None, "ERROR: JAVA_HOME is not set and could not be found."),
])
def test_checknative_outputs(tmp_path, run, available, error):
    home = str(tmp_path)
    os.makedirs(os.path.join(home, 'share/hadoop/common'))
    facts = M.gather(home, 'x86_64', lambda: run)
    assert facts['checknative_rc'] == run[0]
    assert facts['checknative'].get('hadoop', {}).get('available') is available
    assert facts['checknative_error'] == error
    # roles/hdfs decides short-circuit reads from this row, as its regex over stdout used to.
    assert bool(facts['checknative'].get('hadoop', {}).get('available')) == bool(
        re.search(r'(?m)^\s*hadoop:\s+true', run[1]))
    if available:
        assert facts['checknative']['isa-l'] == {'available': False, 'detail': 'libhadoop was built without ISA-L support'}
        assert facts['codecs']['zstd'] == {'available': True, 'how': 'libhadoop + libzstd'}


def test_checknative_not_run_has_no_error(tmp_path):
    home = str(tmp_path)
    os.makedirs(os.path.join(home, 'share/hadoop/common'))
    facts = M.gather(home, 'x86_64')
    assert facts['checknative_error'] == '' and facts['checknative_rc'] is None
