"""Native-library helpers: ELF headers, JNI lookup per architecture, checknative, page-size advice."""

import struct

import pytest

from ansible_collections.bigdata.spark.plugins.module_utils import native as N


def elf(machine, little=True):
    """The first 20 bytes of a 64-bit ELF shared object for an e_machine code."""
    ident = b'\x7fELF' + bytes([2, 1 if little else 2, 1]) + b'\x00' * 9
    return ident + struct.pack('<HH' if little else '>HH', 3, machine)


X86, ARM = elf(0x3E), elf(0xB7)

# Hadoop 3.3.6's leveldbjni-all 1.8 (fusesource) and the aarch64 build (openlabtesting).
FUSESOURCE = {'META-INF/native/linux32/libleveldbjni.so': elf(0x03), 'META-INF/native/linux64/libleveldbjni.so': X86}
OPENLAB = dict(FUSESOURCE, **{'META-INF/native/linux64/aarch64/libleveldbjni.so': ARM})


@pytest.mark.parametrize('header,machine', [
    (X86, 'x86_64'), (ARM, 'aarch64'), (elf(0xB7, little=False), 'aarch64'), (elf(0x99), 'unknown-0x99'),
    (b'PK\x03\x04' + b'\x00' * 16, None), (b'\x7fELF', None), (None, None)])
def test_elf_machine(header, machine):
    assert N.elf_machine(header) == machine


@pytest.mark.parametrize('jar,arch,available,path', [
    (FUSESOURCE, 'x86_64', True, 'META-INF/native/linux64/libleveldbjni.so'),
    (FUSESOURCE, 'aarch64', False, None),
    (FUSESOURCE, 'arm64', False, None),
    (OPENLAB, 'aarch64', True, 'META-INF/native/linux64/aarch64/libleveldbjni.so'),
    (OPENLAB, 'amd64', True, 'META-INF/native/linux64/libleveldbjni.so'),
    # A jar whose linux64 library is an aarch64 build does not serve x86_64.
    ({'META-INF/native/linux64/libleveldbjni.so': ARM}, 'x86_64', False, None),
])
def test_leveldbjni_per_architecture(jar, arch, available, path):
    status = N.jni_status('leveldbjni', arch, jar)
    assert (status['available'], status['path']) == (available, path)
    if not available:
        assert 'has no %s Linux library' % N.normalise_arch(arch) in status['detail']


def test_jni_lists_the_architectures_carried():
    assert N.jni_status('leveldbjni', 'aarch64', FUSESOURCE)['architectures'] == ['i386', 'x86_64']
    assert N.jni_status('leveldbjni', 'aarch64', FUSESOURCE)['detail'].endswith('(it carries: i386, x86_64)')


def test_snappy_uses_kernel_names_lz4_java_names():
    snappy = {'org/xerial/snappy/native/Linux/x86_64/libsnappyjava.so': X86,
              'org/xerial/snappy/native/Linux/aarch64/libsnappyjava.so': ARM}
    assert N.jni_status('snappy', 'x86_64', snappy)['available']
    assert N.jni_status('snappy', 'aarch64', snappy)['available']
    lz4 = {'net/jpountz/util/linux/amd64/liblz4-java.so': X86}
    assert N.jni_status('lz4', 'x86_64', lz4)['available']
    assert not N.jni_status('lz4', 'aarch64', lz4)['available']


def test_jni_status_rejects():
    with pytest.raises(N.NativeError, match='library: unknown .*allowed: leveldbjni, lz4, snappy'):
        N.jni_status('rocksdb', 'x86_64', {})
    with pytest.raises(N.NativeError, match='architecture: expected a CPU architecture'):
        N.jni_status('leveldbjni', '', {})


CHECKNATIVE = """2026-12-01 03:40:00,000 WARN util.NativeCodeLoader: Unable to load native-hadoop library
Native library checking:
hadoop:  true /opt/hadoop/lib/native/libhadoop.so.1.0.0
zlib:    true /lib/aarch64-linux-gnu/libz.so.1
zstd  :  false
bzip2:   false
openssl: false Cannot load libcrypto.so (libcrypto.so: cannot open shared object file)!
ISA-L:   false libhadoop was built without ISA-L support
PMDK:    false The native code was built without PMDK support.
"""


def test_parse_checknative():
    table = N.parse_checknative(CHECKNATIVE)
    assert sorted(table) == ['bzip2', 'hadoop', 'isa-l', 'openssl', 'pmdk', 'zlib', 'zstd']
    assert table['hadoop'] == {'available': True, 'detail': '/opt/hadoop/lib/native/libhadoop.so.1.0.0'}
    assert table['zstd'] == {'available': False, 'detail': ''}
    assert table['openssl']['detail'].startswith('Cannot load libcrypto.so')
    assert N.parse_checknative('') == {}
    assert N.parse_checknative(None) == {}


def test_codec_report():
    jni = {'snappy': {'available': True, 'jar': 's.jar'}, 'lz4': {'available': False, 'jar': None}}
    codecs = N.codec_report(N.parse_checknative(CHECKNATIVE), jni)
    assert codecs['snappy'] == {'available': True, 'how': 'snappy-java JNI'}
    assert codecs['lz4'] == {'available': False, 'how': 'lz4-java is not on the classpath'}
    assert codecs['zstd'] == {'available': False, 'how': 'needs libhadoop built with zstd'}
    assert codecs['zlib'] == {'available': True, 'how': 'native (libhadoop)'}
    assert codecs['bzip2'] == {'available': True, 'how': 'Java implementation'}
    without = N.codec_report({}, {'lz4': {'available': False, 'jar': 'lz4.jar'}})
    assert without['lz4'] == {'available': True, 'how': 'lz4-java pure Java fallback (slower)'}
    assert without['snappy']['available'] is False


@pytest.mark.parametrize('arch,size,distro,family,expect', [
    ('aarch64', 4096, 'Ubuntu', 'Debian', 'linux-generic-64k'),
    ('arm64', 16384, 'RedHat', 'RedHat', 'kernel-64k'),
    ('aarch64', 4096, 'Rocky', 'RedHat', 'kernel-64k'),
    ('aarch64', 4096, 'Debian', 'Debian', 'CONFIG_ARM64_64K_PAGES=y'),
    ('aarch64', 4096, 'Gentoo', 'Gentoo', 'CONFIG_ARM64_64K_PAGES=y'),
    ('aarch64', 65536, 'Ubuntu', 'Debian', None),
    ('x86_64', 4096, 'Ubuntu', 'Debian', None),
])
def test_page_size_advice(arch, size, distro, family, expect):
    text = N.page_size_advice(arch, size, distro, family)
    if expect is None:
        assert text is None
    else:
        assert expect in text
        assert '40% faster HiBench TeraSort and 9% faster TPC-DS' in text
        assert 'os_tuning_reboot_ok' in text
        assert '%d KB pages' % (size // 1024) in text


@pytest.mark.parametrize('size', [0, -4096, '4096', None, True])
def test_page_size_advice_rejects(size):
    with pytest.raises(N.NativeError, match='page_size: .*getconf PAGESIZE'):
        N.page_size_advice('aarch64', size)
