# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Pure helpers for the native pieces Hadoop loads, per CPU architecture.

Plain functions over plain values: no Ansible imports, no file or network access. The module
bigdata.spark.native_facts reads the jars and runs `hadoop checknative`, then calls these.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

ARCHITECTURES = ('x86_64', 'aarch64')
# Names the kernel (uname -m), Debian (dpkg) and Java (os.arch) use for the same CPU.
ARCH_ALIASES = {'x86_64': 'x86_64', 'amd64': 'x86_64', 'x64': 'x86_64',
                'aarch64': 'aarch64', 'arm64': 'aarch64'}
JAVA_OS_ARCH = {'x86_64': 'amd64', 'aarch64': 'aarch64'}
# ELF e_machine values.
ELF_MACHINES = {0x3E: 'x86_64', 0xB7: 'aarch64', 0x03: 'i386', 0x28: 'arm', 0x15: 'ppc64', 0x16: 's390x',
                0xF3: 'riscv'}

# Where each JNI library's loader looks inside its jar, most specific first ({java} is Java's os.arch,
# {uname} the kernel's name). HawtJNI (leveldbjni) tries META-INF/native/linux64/<os.arch>/ before
# META-INF/native/linux64/; snappy-java uses the kernel's names, lz4-java Java's.
JNI_LIBRARIES = {
    'leveldbjni': ('META-INF/native/linux64/{java}/libleveldbjni.so', 'META-INF/native/linux64/libleveldbjni.so'),
    'snappy': ('org/xerial/snappy/native/Linux/{uname}/libsnappyjava.so',),
    'lz4': ('net/jpountz/util/linux/{java}/liblz4-java.so',),
}
JAR_PATTERNS = {
    'leveldbjni': r'^leveldbjni-all-.*\.jar$',
    'snappy': r'^snappy-java-.*\.jar$',
    'lz4': r'^lz4-java-.*\.jar$',
}

# Seed 000 measured these gains of a 64 KB page kernel on Arm servers.
PAGE_SIZE_GAINS = 'about 40% faster HiBench TeraSort and 9% faster TPC-DS (seed 000, 64 KB vs 4 KB pages)'
PAGE_SIZE_HOWTO = {
    'Ubuntu': 'install linux-generic-64k (22.04 and later), put GRUB_FLAVOUR_ORDER=generic-64k in '
              '/etc/default/grub.d/, run update-grub and reboot',
    'RedHat': 'install kernel-64k (RHEL 9 and rebuilds), make it the default with grubby --set-default and reboot',
    'Suse': 'install kernel-64kb (SLES 15 SP2 and later), make it the default in GRUB and reboot',
    'Debian': 'Debian 12 packages no 64 KB page arm64 kernel: build one with CONFIG_ARM64_64K_PAGES=y '
              '(or move the hosts to a distribution that ships one) and reboot',
}


class NativeError(Exception):
    """Bad input to the native helpers; the message names the field and what is allowed."""


def normalise_arch(value, field='architecture'):
    """Map uname/dpkg/Java names to x86_64 or aarch64; other architectures are kept as given."""
    if not isinstance(value, str) or not value.strip():
        raise NativeError('%s: expected a CPU architecture such as x86_64 or aarch64, got %r' % (field, value))
    return ARCH_ALIASES.get(value.strip().lower(), value.strip().lower())


def elf_machine(header):
    """The CPU an ELF shared object is built for, from its first 20 bytes; None when not ELF."""
    if not isinstance(header, (bytes, bytearray)) or len(header) < 20 or header[:4] != b'\x7fELF':
        return None
    little = header[5] == 1
    raw = header[18:20]
    code = raw[0] | (raw[1] << 8) if little else (raw[0] << 8) | raw[1]
    return ELF_MACHINES.get(code, 'unknown-0x%x' % code)


def jni_status(library, architecture, members):
    """Whether a jar carries `library`'s JNI code for `architecture`.

    members: {path inside the jar: first bytes of that entry} for the jar's .so entries.
    Returns {available, path, architectures (what the jar carries for Linux), detail}.
    """
    if library not in JNI_LIBRARIES:
        raise NativeError('library: unknown %r; allowed: %s' % (library, ', '.join(sorted(JNI_LIBRARIES))))
    arch = normalise_arch(architecture)
    java_arch = JAVA_OS_ARCH.get(arch, arch)
    carried = sorted(set(m for m in (elf_machine(h) for p, h in members.items() if p.endswith('.so')) if m))
    for pattern in JNI_LIBRARIES[library]:
        path = pattern.format(java=java_arch, uname=arch)
        if path in members and elf_machine(members[path]) == arch:
            return {'available': True, 'path': path, 'architectures': carried,
                    'detail': '%s: %s library in %s' % (library, arch, path)}
    return {'available': False, 'path': None, 'architectures': carried,
            'detail': '%s: the jar has no %s Linux library (it carries: %s)'
                      % (library, arch, ', '.join(carried) or 'none')}


def parse_checknative(text):
    """`hadoop checknative` output -> {library: {'available': bool, 'detail': str}}."""
    result = {}
    for line in (text or '').splitlines():
        m = re.match(r'^\s*([A-Za-z0-9_-]+)\s*:\s+(true|false)\b\s*(.*)$', line)
        if m:
            result[m.group(1).lower()] = {'available': m.group(2) == 'true', 'detail': m.group(3).strip()}
    return result


def checknative_error(table, stderr):
    """Why `hadoop checknative` gave no answer about libhadoop: its standard error; '' when the table has a hadoop row."""
    if 'hadoop' in table:
        return ''
    return (stderr or '').rstrip('\r\n')


def codec_report(checknative, jni):
    """Which compression codecs work, and how: {codec: {'available': bool, 'how': str}}.

    Hadoop 3.3.6 reads Snappy through snappy-java and LZ4 through lz4-java (each with its own JNI
    library and, for LZ4, a pure-Java fallback); zlib, zstd and bzip2 natively need libhadoop.
    """
    hadoop = checknative.get('hadoop', {}).get('available', False)
    out = {}
    snappy = jni.get('snappy') or {}
    out['snappy'] = {'available': bool(snappy.get('available')),
                     'how': 'snappy-java JNI' if snappy.get('available') else (snappy.get('detail') or 'no snappy-java jar')}
    lz4 = jni.get('lz4') or {}
    if lz4.get('jar'):
        out['lz4'] = {'available': True,
                      'how': 'lz4-java JNI' if lz4.get('available') else 'lz4-java pure Java fallback (slower)'}
    else:
        # hadoop-common declares lz4-java as provided: without the jar the Lz4Codec cannot load.
        out['lz4'] = {'available': False, 'how': 'lz4-java is not on the classpath'}
    for codec in ('zstd', 'zlib', 'bzip2'):
        native = checknative.get(codec, {}).get('available', False)
        if codec == 'zstd':
            out[codec] = {'available': hadoop and native,
                          'how': 'libhadoop + libzstd' if hadoop and native else 'needs libhadoop built with zstd'}
        else:
            out[codec] = {'available': True,
                          'how': 'native (libhadoop)' if hadoop and native else 'Java implementation'}
    return out


def page_size_advice(architecture, page_size, distribution=None, os_family=None):
    """Seed 000's 64 KB page advice for an aarch64 host with smaller pages; None when it does not apply."""
    arch = normalise_arch(architecture)
    if isinstance(page_size, bool) or not isinstance(page_size, int) or page_size <= 0:
        raise NativeError('page_size: %r; use the byte count that getconf PAGESIZE prints' % (page_size,))
    if arch != 'aarch64' or page_size >= 65536:
        return None
    howto = PAGE_SIZE_HOWTO.get(distribution or '') or PAGE_SIZE_HOWTO.get(os_family or '')
    if howto is None and (distribution or os_family):
        howto = 'boot a kernel built with CONFIG_ARM64_64K_PAGES=y'
    elif howto is None:
        howto = '; '.join('%s: %s' % (k, v) for k, v in sorted(PAGE_SIZE_HOWTO.items()))
    return ('aarch64 with %d KB pages: a 64 KB page kernel gave %s. To switch on %s: %s. Check afterwards with '
            'getconf PAGESIZE (65536). The os_tuning role does this only with os_tuning_arm64_64k_kernel and '
            'reboots only with os_tuning_reboot_ok.'
            % (page_size // 1024, PAGE_SIZE_GAINS, distribution or os_family or 'this OS', howto))
