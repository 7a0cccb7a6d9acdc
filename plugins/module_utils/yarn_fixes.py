# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Our replacement for one class of Hadoop 3.3's ResourceManager, and when a release needs it.

Hadoop 3.3's tracker of delegation token renewals (DelegationTokenRenewer$DelegationTokenRenewerPoolTracker) loops
over its futures without a pause (YARN-11178, fixed in 3.4.0 with a sleep), so a secure ResourceManager keeps a CPU
core busy. Ours (roles/yarn/files/token_tracker_fix/, the same timeouts and retries, a pause between passes) goes into
a jar of its own in the release's share/hadoop/yarn/lib, ahead of the release's jars on YARN's classpath.

Two callers compile it: tools/build_dist.py into the collection's Hadoop build, and the yarn role's module
yarn_token_tracker_fix on a ResourceManager host whose release (Apache's tarball, say) lacks it. Both compile with
`javac --release 8` against the release's own jars, the ResourceManager's jar left out for a stand-in
(token_tracker_fix/stubs/): javac would take the tracker's file for the nested class the real jar declares under the
same binary name.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import glob
import io
import os
import zipfile

TOKEN_TRACKER_CLASS = ("org/apache/hadoop/yarn/server/resourcemanager/security/"
                       "DelegationTokenRenewer$DelegationTokenRenewerPoolTracker.class")
# Relative to the release directory.
FIXES_JAR = "share/hadoop/yarn/lib/bigdata-spark-yarn-fixes.jar"
RM_JAR_GLOB = "share/hadoop/yarn/hadoop-yarn-server-resourcemanager-*.jar"


class FixError(Exception):
    """The fix cannot be built: javac missing or failing."""


def token_tracker_spins(class_bytes):
    """True for the release's tracker class when it never pauses: 3.4.0's calls Thread.sleep, 3.3's nothing of the kind."""
    return b"sleep" not in class_bytes


def zip_member(path, member):
    """The bytes of member in the zip file at path, or None when the file or the member is missing."""
    try:
        with zipfile.ZipFile(path) as z:
            return z.read(member)
    except (KeyError, IOError, OSError, zipfile.BadZipfile):
        return None


def rm_jar(release_dir):
    """The ResourceManager's jar in a release directory (not its tests jar), or None."""
    jars = sorted(j for j in glob.glob(os.path.join(release_dir, RM_JAR_GLOB)) if not j.endswith("-tests.jar"))
    return jars[0] if jars else None


def release_state(release_dir):
    """What a release directory needs: ('needed', why) when its tracker spins and our jar is missing, else
    ('in-place' or 'not-needed', why)."""
    jar = rm_jar(release_dir)
    if jar is None:
        return "not-needed", "no ResourceManager jar under %s" % os.path.join(release_dir, "share/hadoop/yarn")
    tracker = zip_member(jar, TOKEN_TRACKER_CLASS)
    if tracker is None:
        return "not-needed", "%s has no token tracker class" % os.path.basename(jar)
    if not token_tracker_spins(tracker):
        return "not-needed", "the token tracker of %s pauses between its passes" % os.path.basename(jar)
    if zip_member(os.path.join(release_dir, FIXES_JAR), TOKEN_TRACKER_CLASS) is not None:
        return "in-place", "%s holds the tracker that pauses" % FIXES_JAR
    return "needed", "the token tracker of %s loops without a pause (YARN-11178)" % os.path.basename(jar)


def compile_classpath(jars):
    """The jars javac sees: the ResourceManager's left out (the stand-in is then the only DelegationTokenRenewer), and
    our fixes jar."""
    return [j for j in jars if "hadoop-yarn-server-resourcemanager" not in os.path.basename(j)
            and os.path.basename(j) != os.path.basename(FIXES_JAR)]


def release_classpath(release_dir):
    """Every jar of the release's share/hadoop that javac sees (compile_classpath)."""
    return compile_classpath(sorted(glob.glob(os.path.join(release_dir, "share", "hadoop", "*", "*.jar"))
                                    + glob.glob(os.path.join(release_dir, "share", "hadoop", "*", "lib", "*.jar"))))


def sources(src_dir):
    """The .java files to compile: the tracker and the stand-in of stubs/."""
    found = []
    for d in (src_dir, os.path.join(src_dir, "stubs")):
        if os.path.isdir(d):
            found += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".java"))
    return found


def compile_tracker(run, classpath, src_dir, classes_dir, javac="javac"):
    """Compile the tracker into classes_dir and return its class file's bytes; FixError with javac's output.
    run(argv) returns (rc, stdout, stderr): the module's run_command, or a subprocess call in tools/build_dist.py."""
    files = sources(src_dir)
    if not any(os.path.basename(f) == os.path.basename(TOKEN_TRACKER_CLASS).replace(".class", ".java") for f in files):
        raise FixError("the tracker's source is missing from %s" % src_dir)
    if not os.path.isdir(classes_dir):
        os.makedirs(classes_dir)
    rc, out, err = run([javac, "--release", "8", "-Xlint:all,-path", "-Werror", "-cp", os.pathsep.join(classpath),
                        "-d", classes_dir] + files)
    if rc != 0:
        raise FixError("javac failed on %s (rc %s):\n%s%s" % (src_dir, rc, out, err))
    with open(os.path.join(classes_dir, TOKEN_TRACKER_CLASS), "rb") as f:
        return f.read()


def fixes_jar(class_bytes):
    """The fixes jar's bytes: the tracker's class alone, with a fixed timestamp (the same class, the same jar)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo(TOKEN_TRACKER_CLASS, date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, class_bytes)
    return buf.getvalue()
