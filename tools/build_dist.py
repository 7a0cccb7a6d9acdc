"""Build hadoop-X.tar.gz, spark-Y-bin-hadoop3.tgz and apache-zookeeper-Z-bin.tar.gz (+ .sha512) from Maven
and the pyspark sdist.

The jars are the real Apache jars: Hadoop's from a Maven repository (Central by default, or an
internal proxy given with --maven-repo), Spark's from the pyspark sdist on PyPI. The launcher
scripts in the Hadoop tarball's bin/ and libexec/ come from tools/dist/hadoop/ in this repository.
See tools/dist/README.md.
"""

import argparse
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections import namedtuple
from xml.sax.saxutils import escape

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(HERE)
DIST_SRC = os.path.join(HERE, "dist")
# The ResourceManager's token tracker fix is shared with the yarn role (its module compiles it on a host whose release
# lacks it): plugins/module_utils/yarn_fixes.py, standard library only.
sys.path.insert(0, os.path.join(REPO_ROOT, "plugins", "module_utils"))
import yarn_fixes  # noqa: E402  pylint: disable=wrong-import-position

HADOOP_GROUP = "org.apache.hadoop"
SPARK_GROUP = "org.apache.spark"
ZOOKEEPER_GROUP = "org.apache.zookeeper"
DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.6.1"
SHADE_PLUGIN_VERSION = "3.5.1"

# Cumulative layers of the Hadoop distribution: each layer's third-party jars that no earlier
# layer needs go to share/hadoop/<layer>/lib. (artifactId, classifier) pairs.
HADOOP_LAYERS = (
    # The tests jars of common and hdfs sit where Apache's tarball has them: MapReduce's test drivers
    # (testmapredsort's SortValidator, via TestSequenceFile) load classes from them.
    # hadoop-kms: the key management server of HDFS transparent encryption (`hadoop kms`, docs/security.md); its
    # jar carries its web app, its one extra dependency is jul-to-slf4j.
    ("common", (("hadoop-common", ""), ("hadoop-common", "tests"), ("hadoop-auth", ""), ("hadoop-kms", ""))),
    ("hdfs", (("hadoop-hdfs", ""), ("hadoop-hdfs", "tests"), ("hadoop-hdfs-client", ""))),
    ("yarn", (
        ("hadoop-yarn-api", ""),
        ("hadoop-yarn-common", ""),
        ("hadoop-yarn-client", ""),
        ("hadoop-yarn-server-common", ""),
        ("hadoop-yarn-server-nodemanager", ""),
        ("hadoop-yarn-server-resourcemanager", ""),
        ("hadoop-yarn-server-web-proxy", ""),
        ("hadoop-yarn-server-applicationhistoryservice", ""),
        # The ResourceManager's web app binds classes of the timeline service v2 collector.
        ("hadoop-yarn-server-timelineservice", ""),
    )),
    ("mapreduce", (
        ("hadoop-mapreduce-client-core", ""),
        ("hadoop-mapreduce-client-common", ""),
        ("hadoop-mapreduce-client-app", ""),
        ("hadoop-mapreduce-client-jobclient", ""),
        ("hadoop-mapreduce-client-jobclient", "tests"),
        ("hadoop-mapreduce-client-shuffle", ""),
        ("hadoop-mapreduce-client-hs", ""),
        ("hadoop-mapreduce-examples", ""),
    )),
    ("tools", (("hadoop-distcp", ""), ("hadoop-archives", ""))),
)

# Artifacts used only while building: hadoop-hdfs's tests jar carries the HDFS web apps
# (webapps/hdfs, datanode, secondary, journal, static) that the main jar lacks.
HADOOP_BUILD_ONLY = (("hadoop-hdfs", "tests"),)

# Third-party jars never shipped: slf4j bindings other than Hadoop 3.3's slf4j-reload4j, and the
# log4j 1.2.17 that reload4j replaces.
FORBIDDEN_JARS = (
    ("log4j", "log4j"),
    ("org.slf4j", "slf4j-log4j12"),
    ("org.slf4j", "slf4j-simple"),
    ("org.slf4j", "slf4j-jdk14"),
    ("ch.qos.logback", "logback-classic"),
    ("org.apache.logging.log4j", "log4j-slf4j-impl"),
    ("org.apache.logging.log4j", "log4j-slf4j2-impl"),
)
SLF4J_BINDINGS = {"slf4j-reload4j", "slf4j-log4j12", "slf4j-simple", "slf4j-jdk14",
                  "logback-classic", "log4j-slf4j-impl", "log4j-slf4j2-impl"}

# What goes into the shaded YARN shuffle jar besides Spark's network modules, and what gets
# relocated under org.sparkproject so it cannot clash with the NodeManager's own copies
# (Hadoop 3.3.6 ships older netty, jackson, protobuf, gson and metrics-core).
SHUFFLE_EXCLUDES = (
    "org.scala-lang:*", "org.slf4j:*", "org.apache.logging.log4j:*", "com.google.code.findbugs:*",
    "com.thoughtworks.paranamer:*", "com.fasterxml.jackson.module:*", "org.apache.commons:commons-text",
    "org.apache.spark:spark-tags_*", "org.apache.hadoop:*",
    "com.google.guava:*",
)
SHUFFLE_RELOCATIONS = (
    "io.netty", "com.fasterxml.jackson", "com.google.protobuf", "com.google.gson",
    "com.google.crypto.tink", "org.joda.time", "com.codahale.metrics", "org.apache.commons.lang3",
)
SHUFFLE_SERVICE_CLASS = "org/apache/spark/network/yarn/YarnShuffleService.class"

ARCHES = ("x86_64", "aarch64")

# Jars whose native code differs per CPU: (group, artifact) in Hadoop's layout -> the replacement
# for that architecture. Apache's leveldbjni-all 1.8 has no linux aarch64 library, so NodeManager
# recovery and the timeline store cannot open LevelDB there; Hadoop's own aarch64 build uses the
# OpenLab rebuild, which keeps the org.fusesource classes and adds META-INF/native/linux64/aarch64/.
ARCH_SUBSTITUTES = {
    "aarch64": {
        ("org.fusesource.leveldbjni", "leveldbjni-all"): ("org.openlabtesting.leveldbjni", "leveldbjni-all", "1.8"),
    },
}

# libhadoop (lib/native/libhadoop.so): Apache publishes it only inside its binary tarball, which this build cannot
# reach. The Trino project's io.trino.hadoop:hadoop-apache jar carries libhadoop built from Apache Hadoop's own native
# sources (hadoop-common's NativeIO, CRC32, the codecs' JNI glue; it links only libc and dlopens zlib, zstd, OpenSSL),
# under nativelib/<OS>-<CPU>/, with Hadoop's JNI symbol names. Per Hadoop release line: (group, artifact, version) and
# the member per --arch. Hadoop's Java side looks the functions up by name, so a library of the same line serves
# every patch release of it; a line without an entry gets no lib/native (the pure-Java code paths, `hadoop checknative`
# says so, and the roles keep short-circuit reads, locked memory and Kerberos secure mode on YARN off).
NATIVE_HADOOP = {
    "3.3": (("io.trino.hadoop", "hadoop-apache", "3.3.5-3"),
            {"x86_64": "nativelib/Linux-amd64/libhadoop.so", "aarch64": "nativelib/Linux-aarch64/libhadoop.so"}),
}

# Fixed modification time of every entry (2024-01-01T00:00:00Z), so rebuilds are byte-identical.
# Not 0: zip, which Spark's spark.yarn.archive needs, cannot store times before 1980.
ENTRY_MTIME = 1704067200

Artifact = namedtuple("Artifact", "group artifact type classifier version scope path")


class BuildError(Exception):
    """A build step failed with a message the user can act on."""


# ---------------------------------------------------------------------------------------------
# Pure helpers (unit-tested in tests/unit/tools/test_build_dist.py)
# ---------------------------------------------------------------------------------------------

def hadoop_tarball_name(version, arch):
    """Apache's names: hadoop-V.tar.gz for x86_64, hadoop-V-aarch64.tar.gz for aarch64."""
    if arch not in ARCHES:
        raise BuildError("unknown --arch %r (choose from %s)" % (arch, ", ".join(ARCHES)))
    return "hadoop-%s.tar.gz" % version if arch == "x86_64" else "hadoop-%s-aarch64.tar.gz" % version


def substitute_artifacts(layout, arch, fetched):
    """Swap the jars listed in ARCH_SUBSTITUTES[arch] in a layout {dir: [Artifact]}.

    fetched: {(group, artifact, version): local path} of the replacements. Returns a new layout and
    the list of "old -> new" swaps; a replacement that was not fetched is an error.
    """
    if arch not in ARCHES:
        raise BuildError("unknown --arch %r (choose from %s)" % (arch, ", ".join(ARCHES)))
    subs = ARCH_SUBSTITUTES.get(arch, {})
    out, swaps = {}, []
    for target, arts in layout.items():
        new = []
        for art in arts:
            repl = subs.get((art.group, art.artifact))
            if repl is None:
                new.append(art)
                continue
            if repl not in fetched:
                raise BuildError("%s: replacement %s for %s:%s was not fetched" % (arch, ":".join(repl), art.group, art.artifact))
            new.append(Artifact(repl[0], repl[1], "jar", "", repl[2], art.scope, fetched[repl]))
            swaps.append("%s:%s:%s -> %s (%s)" % (art.group, art.artifact, art.version, ":".join(repl), target))
        out[target] = sorted(new, key=jar_file_name)
    return out, sorted(swaps)


def native_hadoop_source(version, arch, wanted=True):
    """(group, artifact, version) and the member holding libhadoop for a Hadoop release and CPU; None when the
    build leaves lib/native out (not wanted, or no source for that release line)."""
    line = ".".join(version.split(".")[:2])
    if not wanted or line not in NATIVE_HADOOP:
        return None
    coordinates, members = NATIVE_HADOOP[line]
    return coordinates, members[arch]


def spark_tarball_name(version):
    return "spark-%s-bin-hadoop3.tgz" % version


def dependency_xml(group, artifact, version, classifier="", exclude_all=False, indent="    "):
    parts = ["<dependency>",
             "<groupId>%s</groupId>" % escape(group),
             "<artifactId>%s</artifactId>" % escape(artifact),
             "<version>%s</version>" % escape(version)]
    if classifier:
        parts.append("<classifier>%s</classifier>" % escape(classifier))
    if exclude_all:
        parts.append("<exclusions><exclusion><groupId>*</groupId><artifactId>*</artifactId>"
                     "</exclusion></exclusions>")
    parts.append("</dependency>")
    return indent + "".join(parts)


def _pom(artifact_id, body, packaging="pom"):
    return "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<!-- generated by tools/build_dist.py -->",
        '<project xmlns="http://maven.apache.org/POM/4.0.0">',
        "  <modelVersion>4.0.0</modelVersion>",
        "  <groupId>bigdata.spark.build</groupId>",
        "  <artifactId>%s</artifactId>" % artifact_id,
        "  <version>1</version>",
        "  <packaging>%s</packaging>" % packaging,
        # A fixed outputTimestamp makes maven-jar and maven-shade write reproducible jars.
        "  <properties><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>"
        "<project.build.outputTimestamp>2024-01-01T00:00:00Z</project.build.outputTimestamp></properties>",
        body,
        "</project>",
        "",
    ])


def hadoop_layer_poms(version, layers=HADOOP_LAYERS, build_only=HADOOP_BUILD_ONLY):
    """Return {module_dir: pom_text} for a reactor with one module per cumulative layer.

    Every module imports hadoop-project's dependencyManagement, so the third-party versions are
    the ones Apache built Hadoop with (and the official tarball ships).
    """
    bom = ("  <dependencyManagement><dependencies>\n%s\n  </dependencies></dependencyManagement>"
           % dependency_xml(HADOOP_GROUP, "hadoop-project", version).replace(
               "</version>", "</version><type>pom</type><scope>import</scope>"))
    poms = {}
    modules = []
    cumulative = []
    for name, artifacts in layers:
        cumulative.extend(artifacts)
        deps = "\n".join(dependency_xml(HADOOP_GROUP, a, version, c) for a, c in cumulative)
        poms["layer-%s" % name] = _pom("layer-%s" % name,
                                       bom + "\n  <dependencies>\n%s\n  </dependencies>" % deps)
        modules.append("layer-%s" % name)
    deps = "\n".join(dependency_xml(HADOOP_GROUP, a, version, c, exclude_all=True) for a, c in build_only)
    poms["build-only"] = _pom("build-only", "  <dependencies>\n%s\n  </dependencies>" % deps)
    modules.append("build-only")
    poms["."] = _pom("hadoop-dist-reactor", "  <modules>\n%s\n  </modules>" % "\n".join(
        "    <module>%s</module>" % m for m in modules))
    return poms


def shuffle_pom(spark_version, yarn_classes_version, scala):
    """A pom whose `package` builds the shaded YARN shuffle jar like Spark's common/network-yarn."""
    deps = "\n".join([
        dependency_xml(SPARK_GROUP, "spark-network-yarn_%s" % scala, yarn_classes_version, exclude_all=True),
        dependency_xml(SPARK_GROUP, "spark-network-shuffle_%s" % scala, spark_version),
    ])
    excludes = "\n".join("              <exclude>%s</exclude>" % e for e in SHUFFLE_EXCLUDES)
    relocations = "\n".join(
        "              <relocation><pattern>%s</pattern><shadedPattern>org.sparkproject.%s</shadedPattern>"
        "</relocation>" % (p, p) for p in SHUFFLE_RELOCATIONS)
    build = """  <dependencies>
%s
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-shade-plugin</artifactId>
        <version>%s</version>
        <executions>
          <execution>
            <phase>package</phase>
            <goals><goal>shade</goal></goals>
            <configuration>
              <createDependencyReducedPom>false</createDependencyReducedPom>
              <outputFile>${project.build.directory}/yarn-shuffle.jar</outputFile>
              <artifactSet><excludes>
%s
              </excludes></artifactSet>
              <filters><filter><artifact>*:*</artifact><excludes>
                <exclude>META-INF/*.SF</exclude><exclude>META-INF/*.DSA</exclude>
                <exclude>META-INF/*.RSA</exclude><exclude>module-info.class</exclude>
                <exclude>META-INF/versions/*/module-info.class</exclude>
              </excludes></filter></filters>
              <relocations>
%s
              </relocations>
              <transformers>
                <transformer implementation="org.apache.maven.plugins.shade.resource.ServicesResourceTransformer"/>
              </transformers>
            </configuration>
          </execution>
        </executions>
      </plugin>
    </plugins>
  </build>""" % (deps, SHADE_PLUGIN_VERSION, excludes, relocations)
    return _pom("spark-yarn-shuffle", build, packaging="jar")


def maven_settings(repo_url):
    """settings.xml that sends every repository request to repo_url (an internal proxy)."""
    return "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<!-- generated by tools/build_dist.py for its maven-repo option -->",
        '<settings xmlns="http://maven.apache.org/SETTINGS/1.0.0">',
        "  <mirrors>",
        "    <mirror>",
        "      <id>build-dist-mirror</id>",
        "      <mirrorOf>*</mirrorOf>",
        "      <url>%s</url>" % escape(repo_url),
        "    </mirror>",
        "  </mirrors>",
        "</settings>",
        "",
    ])


def parse_dependency_list(text):
    """Parse `mvn dependency:list -DoutputAbsoluteArtifactFilename=true` output into Artifacts."""
    result = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("The following") or ":" not in line:
            continue
        line = line.split(" -- ", 1)[0].strip()
        parts = line.split(":")
        if len(parts) == 7:
            group, artifact, typ, classifier, version, scope, path = parts
        elif len(parts) == 6:
            group, artifact, typ, version, scope, path = parts
            classifier = ""
        else:
            continue
        result.append(Artifact(group, artifact, typ, classifier, version, scope, path))
    return result


def hadoop_component(artifact):
    """The share/hadoop dir of one of Hadoop's own jars, or None for a third-party/lib jar."""
    if artifact.group != HADOOP_GROUP:
        return None
    name = artifact.artifact
    if name in ("hadoop-common", "hadoop-registry", "hadoop-nfs", "hadoop-kms"):
        return "common"
    if name.startswith("hadoop-hdfs"):
        return "hdfs"
    if name.startswith("hadoop-yarn"):
        return "yarn"
    if name.startswith("hadoop-mapreduce"):
        return "mapreduce"
    if name in ("hadoop-distcp", "hadoop-archives"):
        return "tools/lib"
    return None


def jar_file_name(artifact):
    base = "%s-%s" % (artifact.artifact, artifact.version)
    if artifact.classifier:
        base += "-" + artifact.classifier
    return base + ".jar"


def assign_hadoop_layout(layer_lists):
    """Place jars: [(layer, [Artifact])] cumulative lists -> {relative dir: [Artifact]}.

    Hadoop's own jars go to their component dir; a third-party jar goes to the lib dir of the first
    layer that needs it. The version is always the one the largest (last) layer resolved, so one
    classpath never holds two versions of a jar.
    """
    final = {}
    for art in layer_lists[-1][1]:
        final[(art.group, art.artifact, art.classifier)] = art
    placed = {}
    layout = {}
    for layer, arts in layer_lists:
        for art in arts:
            key = (art.group, art.artifact, art.classifier)
            if key in placed or art.type != "jar":
                continue
            chosen = final.get(key, art)
            component = hadoop_component(chosen)
            if component is not None:
                target = "share/hadoop/%s" % component
            elif layer == "tools":
                target = "share/hadoop/tools/lib"
            else:
                target = "share/hadoop/%s/lib" % layer
            placed[key] = target
            layout.setdefault(target, []).append(chosen)
    for target in layout:
        layout[target].sort(key=jar_file_name)
    return layout


def layout_problems(layout):
    """Return a list of readable problems: forbidden jars, several slf4j bindings, duplicates."""
    problems = []
    seen = {}
    bindings = []
    for target, arts in sorted(layout.items()):
        for art in arts:
            if (art.group, art.artifact) in FORBIDDEN_JARS:
                problems.append("forbidden jar %s in %s" % (jar_file_name(art), target))
            if art.artifact in SLF4J_BINDINGS:
                bindings.append(jar_file_name(art))
            key = (art.group, art.artifact, art.classifier)
            if key in seen and not target.startswith("share/hadoop/tools"):
                problems.append("%s:%s twice (%s and %s)" % (art.group, art.artifact, seen[key], target))
            seen.setdefault(key, target)
    if len(bindings) > 1:
        problems.append("several slf4j bindings: %s" % ", ".join(sorted(bindings)))
    return problems


def sha512_line(digest, file_name):
    """One line in `sha512sum` format, which `sha512sum -c` and Ansible's checksum both accept."""
    return "%s  %s\n" % (digest, file_name)


def parse_sha512_file(text):
    """Return the hex digest from a .sha512 file in sha512sum or Apache `gpg --print-md` format."""
    text = text.strip()
    m = re.match(r"^([0-9a-fA-F]{128})\s", text + " ")
    if m:
        return m.group(1).lower()
    # Apache's older format: "name: 0123 4567 ..." possibly spread over lines.
    if ":" in text:
        hexpart = re.sub(r"\s+", "", text.split(":", 1)[1])
        if re.fullmatch(r"[0-9a-fA-F]{128}", hexpart):
            return hexpart.lower()
    raise BuildError("cannot read a SHA-512 digest from: %r" % text[:80])


def inputs_fingerprint(inputs):
    """A stable digest of everything a tarball is built from."""
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()


def netty_native_rename(name, prefix="org_sparkproject_"):
    """Netty relocated under org.sparkproject looks for its native libraries under a prefixed name."""
    m = re.match(r"^META-INF/native/(lib)?(netty_.*)$", name)
    if not m:
        return name
    return "META-INF/native/%s%s%s" % (m.group(1) or "", prefix, m.group(2))


# ---------------------------------------------------------------------------------------------
# I/O
# ---------------------------------------------------------------------------------------------

def log(msg):
    print("build_dist: %s" % msg, flush=True)


def sha512_of(path):
    h = hashlib.sha512()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def files_digest(paths):
    h = hashlib.sha256()
    for p in sorted(paths):
        h.update(p.encode())
        with open(p, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


def tree_files(root):
    out = []
    for d, _dirs, files in os.walk(root):
        out.extend(os.path.join(d, f) for f in files)
    return out


class Maven:
    def __init__(self, repo_url, local_repo, settings, work):
        self.repo_url = repo_url
        self.local_repo = local_repo
        self.settings = settings
        self.work = work

    def fetch_jar(self, group, artifact, version):
        """Download one jar (no dependencies) and return its path in the local repository."""
        probe = os.path.join(self.work, "fetch")
        os.makedirs(probe, exist_ok=True)
        self.run(["%s:get" % DEPENDENCY_PLUGIN, "-Dartifact=%s:%s:%s" % (group, artifact, version),
                  "-Dtransitive=false"], probe)
        local = self.local_repo or os.path.join(os.path.expanduser("~"), ".m2", "repository")
        path = os.path.join(local, *group.split(".")) + "/%s/%s/%s-%s.jar" % (artifact, version, artifact, version)
        if not os.path.exists(path):
            raise BuildError("%s:%s:%s was fetched but %s is missing" % (group, artifact, version, path))
        return path

    def run(self, args, cwd):
        cmd = ["mvn", "-B", "-q"]
        if self.repo_url:
            path = os.path.join(self.work, "settings.xml")
            with open(path, "w") as f:
                f.write(maven_settings(self.repo_url))
            cmd += ["-s", path]
        elif self.settings:
            cmd += ["-s", self.settings]
        if self.local_repo:
            cmd.append("-Dmaven.repo.local=%s" % self.local_repo)
        cmd += args
        log("running %s (in %s)" % (" ".join(cmd), cwd))
        proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
        if proc.returncode != 0:
            tail = "\n".join(proc.stdout.splitlines()[-30:])
            raise BuildError("mvn failed (exit %d):\n%s" % (proc.returncode, tail))
        return proc.stdout


def write_poms(root, poms):
    for rel, text in poms.items():
        d = os.path.join(root, rel)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "pom.xml"), "w") as f:
            f.write(text)


def resolve_hadoop(mvn, version, work):
    root = os.path.join(work, "hadoop-reactor")
    shutil.rmtree(root, ignore_errors=True)
    poms = hadoop_layer_poms(version)
    write_poms(root, poms)
    mvn.run(["%s:list" % DEPENDENCY_PLUGIN, "-DincludeScope=runtime",
             "-DoutputAbsoluteArtifactFilename=true", "-DoutputFile=deps.txt"], root)
    layers = []
    for name, _artifacts in HADOOP_LAYERS:
        with open(os.path.join(root, "layer-%s" % name, "deps.txt")) as f:
            layers.append((name, parse_dependency_list(f.read())))
    with open(os.path.join(root, "build-only", "deps.txt")) as f:
        build_only = parse_dependency_list(f.read())
    return layers, build_only


class TarWriter:
    """A reproducible gzip'd tar: sorted entries, fixed mtime, root-owned."""

    def __init__(self, path, mtime):
        self.path = path
        self.mtime = mtime
        self.tmp = path + ".part"
        self.raw = open(self.tmp, "wb")
        # Level 3: the jars inside are compressed already; higher levels cost minutes and save little.
        self.gz = gzip.GzipFile(filename="", mode="wb", fileobj=self.raw, mtime=mtime, compresslevel=3)
        self.tar = tarfile.open(fileobj=self.gz, mode="w", format=tarfile.PAX_FORMAT)
        self.dirs = set()

    def _info(self, name, mode, size=0, kind=tarfile.REGTYPE):
        ti = tarfile.TarInfo(name)
        ti.mode = mode
        ti.mtime = self.mtime
        ti.uid = ti.gid = 0
        ti.uname = ti.gname = "root"
        ti.type = kind
        ti.size = size
        return ti

    def add_dir(self, name):
        name = name.rstrip("/")
        if not name or name in self.dirs:
            return
        parent = os.path.dirname(name)
        if parent:
            self.add_dir(parent)
        self.dirs.add(name)
        self.tar.addfile(self._info(name, 0o755, kind=tarfile.DIRTYPE))

    def add_bytes(self, name, data, mode=0o644):
        self.add_dir(os.path.dirname(name))
        self.tar.addfile(self._info(name, mode, size=len(data)), io.BytesIO(data))

    def add_file(self, name, src, mode=None):
        self.add_dir(os.path.dirname(name))
        if mode is None:
            mode = 0o755 if os.access(src, os.X_OK) else 0o644
        size = os.path.getsize(src)
        with open(src, "rb") as f:
            self.tar.addfile(self._info(name, mode, size=size), f)

    def close(self):
        self.tar.close()
        self.gz.close()
        self.raw.close()
        os.replace(self.tmp, self.path)

    def abort(self):
        try:
            self.tar.close()
            self.gz.close()
            self.raw.close()
        finally:
            if os.path.exists(self.tmp):
                os.unlink(self.tmp)


def zip_member(jar, member):
    with zipfile.ZipFile(jar) as z:
        return z.read(member)


def finish_tarball(tarball, inputs, fingerprint, jar_count):
    """Write the .sha512 and the up-to-date stamp of a finished tarball, and say what was built."""
    digest = write_checksum(tarball)
    write_stamp(tarball, inputs, fingerprint)
    log("wrote %s (%d jars, %.0f MB, sha512 %s...)" % (
        tarball, jar_count, os.path.getsize(tarball) / 1e6, digest[:16]))
    return tarball


def write_checksum(tarball):
    digest = sha512_of(tarball)
    with open(tarball + ".sha512", "w") as f:
        f.write(sha512_line(digest, os.path.basename(tarball)))
    return digest


def stale_fingerprint(tarball, inputs):
    """The fingerprint of a build's inputs when its tarball must be (re)built; None, and a line saying so, when
    the tarball, its .sha512 and the recorded inputs still match."""
    fingerprint = inputs_fingerprint(inputs)
    if up_to_date(tarball, fingerprint):
        log("%s up to date" % os.path.basename(tarball))
        return None
    return fingerprint


def up_to_date(tarball, fingerprint):
    """True when the tarball, its .sha512 and the recorded inputs all still match."""
    stamp = stamp_path(tarball)
    if not (os.path.exists(tarball) and os.path.exists(tarball + ".sha512") and os.path.exists(stamp)):
        return False
    try:
        with open(stamp) as f:
            if json.load(f).get("fingerprint") != fingerprint:
                return False
        with open(tarball + ".sha512") as f:
            expected = parse_sha512_file(f.read())
    except (ValueError, BuildError, OSError):
        return False
    return sha512_of(tarball) == expected


def stamp_path(tarball):
    return os.path.join(os.path.dirname(tarball), ".%s.inputs.json" % os.path.basename(tarball))


def write_stamp(tarball, inputs, fingerprint):
    with open(stamp_path(tarball), "w") as f:
        json.dump({"fingerprint": fingerprint, "inputs": inputs}, f, indent=2, sort_keys=True)
        f.write("\n")


def builder_digest():
    return files_digest([os.path.abspath(__file__), os.path.abspath(yarn_fixes.__file__)] + tree_files(DIST_SRC)
                        + tree_files(FIXES_SRC))


# ---------------------------------------------------------------------------------------------
# Hadoop
# ---------------------------------------------------------------------------------------------

HADOOP_README = """Apache Hadoop {version}, repackaged for the bigdata.spark Ansible collection.

The jars under share/hadoop are the unmodified Apache Hadoop {version} jars and their runtime
dependencies, as published to Maven, laid out as in the official binary tarball. The launchers
in bin/ and libexec/ and the files in etc/hadoop are NOT Apache's: they were written for
bigdata.spark (tools/dist/hadoop in the collection) and support the subcommands its roles and
users need. Every daemon runs in the foreground; there are no sbin/start-*.sh scripts.
{fixes}
{native}

Not included: the HDFS NFS gateway, router-based federation, KMS, the timeline service v2, the
cloud connectors and the documentation.

Built for: {arch}. Jars: {jar_count}. Built by tools/build_dist.py.
"""


# Our replacement for a class of the ResourceManager (roles/yarn/files/token_tracker_fix, tools/dist/README.md
# "Fixes"): Hadoop 3.3's tracker of delegation token renewals loops without a pause (YARN-11178), so a secure active
# ResourceManager keeps a CPU core busy. plugins/module_utils/yarn_fixes.py compiles it.
FIXES_SRC = os.path.join(REPO_ROOT, "roles", "yarn", "files", "token_tracker_fix")
TOKEN_TRACKER_CLASS = yarn_fixes.TOKEN_TRACKER_CLASS
YARN_FIXES_JAR = yarn_fixes.FIXES_JAR
token_tracker_spins = yarn_fixes.token_tracker_spins


def _run(argv):
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    return proc.returncode, proc.stdout, proc.stderr


def build_yarn_fixes(layout, work):
    """The fixes jar's bytes for this release, or None when its ResourceManager needs none (or has no tracker)."""
    jars = [a.path for arts in layout.values() for a in arts]
    rm = [a.path for a in layout.get("share/hadoop/yarn", []) if a.artifact == "hadoop-yarn-server-resourcemanager"]
    if not rm:
        raise BuildError("hadoop-yarn-server-resourcemanager did not resolve")
    tracker = yarn_fixes.zip_member(rm[0], TOKEN_TRACKER_CLASS)
    if tracker is None or not token_tracker_spins(tracker):
        return None
    if shutil.which("javac") is None:
        raise BuildError("javac not found on PATH (apt-get install openjdk-17-jdk-headless): the ResourceManager's "
                         "token tracker fix is compiled from roles/yarn/files/token_tracker_fix")
    classes = os.path.join(work, "yarn-fixes")
    shutil.rmtree(classes, ignore_errors=True)
    try:
        return yarn_fixes.fixes_jar(yarn_fixes.compile_tracker(_run, yarn_fixes.compile_classpath(jars), FIXES_SRC, classes))
    except yarn_fixes.FixError as e:
        raise BuildError(str(e))


YARN_FIXES_TEXT = """
One class is not Apache's: bigdata.spark's tracker of the ResourceManager's delegation token
renewals, in {jar}
(its source: roles/yarn/files/token_tracker_fix in the collection). It pauses between its passes; this
release's own tracker loops without a pause and keeps a CPU core busy on a secure
ResourceManager (YARN-11178, fixed in Hadoop 3.4.0). The jar comes first on YARN's classpath.
"""


def build_hadoop(args, mvn, work):
    name = hadoop_tarball_name(args.hadoop_version, args.arch)
    tarball = os.path.join(args.out, name)
    native = native_hadoop_source(args.hadoop_version, args.arch, args.libhadoop)
    inputs = {
        "kind": "hadoop",
        "hadoop_version": args.hadoop_version,
        "arch": args.arch,
        "substitutes": sorted(":".join(v) for v in ARCH_SUBSTITUTES.get(args.arch, {}).values()),
        "libhadoop": ":".join(native[0]) if native else "none",
        "maven_repo": args.maven_repo or "default",
        "builder": builder_digest(),
    }
    fingerprint = stale_fingerprint(tarball, inputs)
    if fingerprint is None:
        return tarball

    layers, build_only = resolve_hadoop(mvn, args.hadoop_version, work)
    layout = assign_hadoop_layout(layers)
    fetched = dict((repl, mvn.fetch_jar(*repl)) for repl in ARCH_SUBSTITUTES.get(args.arch, {}).values())
    layout, swaps = substitute_artifacts(layout, args.arch, fetched)
    for swap in swaps:
        log("%s: %s" % (args.arch, swap))
    problems = layout_problems(layout)
    if problems:
        raise BuildError("Hadoop jar layout problems:\n  " + "\n  ".join(problems))
    hdfs_tests = [a for a in build_only if a.artifact == "hadoop-hdfs" and a.classifier == "tests"]
    common = [a for a in layers[0][1] if a.artifact == "hadoop-common" and not a.classifier]
    if not hdfs_tests or not common:
        raise BuildError("hadoop-hdfs:tests or hadoop-common did not resolve")
    yarn_fixes = build_yarn_fixes(layout, work)
    libhadoop = None
    if native:
        coordinates, member = native
        try:
            libhadoop = zip_member(mvn.fetch_jar(*coordinates), member)
        except KeyError:
            raise BuildError("%s has no %s" % (":".join(coordinates), member))
        native_text = ("lib/native/libhadoop.so: Apache Hadoop's native library (NativeIO, CRC32, the codecs' JNI\n"
                       "glue), built from Apache's sources by the Trino project and taken unchanged from\n"
                       "%s (%s)." % (":".join(coordinates), member))
    else:
        native_text = ("Not included: lib/native (libhadoop); the pure-Java code paths are used, and\n"
                       "`hadoop checknative` says so.")

    top = "hadoop-%s" % args.hadoop_version
    jar_count = sum(len(v) for v in layout.values())
    writer = TarWriter(tarball, mtime=ENTRY_MTIME)
    try:
        src = os.path.join(DIST_SRC, "hadoop")
        for rel in sorted(os.path.relpath(p, src) for p in tree_files(src)):
            writer.add_file("%s/%s" % (top, rel), os.path.join(src, rel),
                            mode=0o755 if rel.startswith(("bin/", "libexec/")) and not rel.endswith(".txt")
                            else 0o644)
        for d in ("share/hadoop/common/lib", "share/hadoop/hdfs/lib", "share/hadoop/yarn/lib",
                  "share/hadoop/mapreduce", "share/hadoop/tools/lib"):
            writer.add_dir("%s/%s" % (top, d))
        for target in sorted(layout):
            for art in layout[target]:
                writer.add_file("%s/%s/%s" % (top, target, jar_file_name(art)), art.path, mode=0o644)
        # HDFS web apps, where the official tarball has them (share/hadoop/hdfs is on the classpath).
        with zipfile.ZipFile(hdfs_tests[0].path) as z:
            for info in sorted(z.infolist(), key=lambda i: i.filename):
                if info.filename.startswith("webapps/") and not info.is_dir():
                    writer.add_bytes("%s/share/hadoop/hdfs/%s" % (top, info.filename), z.read(info))
        if libhadoop:
            writer.add_bytes("%s/lib/native/libhadoop.so" % top, libhadoop, mode=0o755)
        if yarn_fixes:
            writer.add_bytes("%s/%s" % (top, YARN_FIXES_JAR), yarn_fixes)
        writer.add_bytes("%s/LICENSE.txt" % top, zip_member(common[0].path, "META-INF/LICENSE.txt"))
        writer.add_bytes("%s/NOTICE.txt" % top, zip_member(common[0].path, "META-INF/NOTICE.txt"))
        writer.add_bytes("%s/README.txt" % top, HADOOP_README.format(
            version=args.hadoop_version, arch=args.arch, jar_count=jar_count, native=native_text,
            fixes=YARN_FIXES_TEXT.format(jar=YARN_FIXES_JAR) if yarn_fixes else "").encode())
        writer.close()
    except BaseException:
        writer.abort()
        raise
    return finish_tarball(tarball, inputs, fingerprint, jar_count)


# ---------------------------------------------------------------------------------------------
# Spark
# ---------------------------------------------------------------------------------------------

SPARK_README = """# Apache Spark {version} (bin-hadoop3), repackaged for the bigdata.spark Ansible collection

`jars/`, `bin/`, `sbin/`, `python/`, `data/`, `examples/src/main/python` and `licenses/` are the
unmodified files of the Apache pyspark {version} source distribution (which carries the same jars
as the official spark-{version}-bin-hadoop3 tarball). `yarn/spark-{version}-yarn-shuffle.jar` is
the YARN external shuffle service, shaded here from Spark's Maven artifacts (network classes from
spark-network-yarn {yarn_classes_version}). `conf/` holds short templates written for
bigdata.spark. Built by tools/build_dist.py.

Not included: `sbin/start-master.sh` and the other standalone scripts (the pyspark sdist only
has the history-server ones; run `bin/spark-class org.apache.spark.deploy.master.Master` under a
supervisor instead), R, kubernetes/ and the Scala/Java examples jar.
"""


def resolve_shuffle_classes_version(mvn, args, work):
    """spark-network-yarn for the wanted version, else the newest one of the same x.y line."""
    wanted = args.spark_version
    candidates = [wanted]
    if args.shuffle_classes_version:
        candidates = [args.shuffle_classes_version]
    else:
        major_minor, _dot, patch = wanted.rpartition(".")
        if patch.isdigit():
            candidates += ["%s.%d" % (major_minor, p) for p in range(int(patch) - 1, -1, -1)]
    probe = os.path.join(work, "probe")
    os.makedirs(probe, exist_ok=True)
    for version in candidates:
        try:
            mvn.run(["%s:get" % DEPENDENCY_PLUGIN,
                     "-Dartifact=%s:spark-network-yarn_%s:%s" % (SPARK_GROUP, args.scala, version),
                     "-Dtransitive=false"], probe)
        except BuildError:
            log("spark-network-yarn_%s:%s is not in the Maven repository" % (args.scala, version))
            continue
        if version != wanted:
            log("WARNING: using the YARN shuffle service classes of spark-network-yarn %s "
                "(%s is not published); network-common/shuffle stay at %s" % (version, wanted, wanted))
        return version
    raise BuildError("no spark-network-yarn_%s artifact among %s" % (args.scala, ", ".join(candidates)))


def build_shuffle_jar(mvn, args, work, yarn_classes_version):
    root = os.path.join(work, "shuffle")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    with open(os.path.join(root, "pom.xml"), "w") as f:
        f.write(shuffle_pom(args.spark_version, yarn_classes_version, args.scala))
    mvn.run(["package"], root)
    shaded = os.path.join(root, "target", "yarn-shuffle.jar")
    fixed = os.path.join(root, "target", "spark-%s-yarn-shuffle.jar" % args.spark_version)
    # Rename netty's native libraries for the relocated package, as Spark's own build does.
    with zipfile.ZipFile(shaded) as zin, zipfile.ZipFile(fixed, "w", zipfile.ZIP_DEFLATED) as zout:
        names = set()
        for info in zin.infolist():
            # The generated project's own pom.properties carries a build time: leave it out.
            if info.filename.startswith("META-INF/maven/bigdata.spark.build/"):
                continue
            new = netty_native_rename(info.filename)
            if new in names:
                continue
            names.add(new)
            info2 = zipfile.ZipInfo(new, date_time=(1980, 1, 1, 0, 0, 0))
            info2.external_attr = info.external_attr
            info2.compress_type = zipfile.ZIP_DEFLATED
            zout.writestr(info2, zin.read(info))
    with zipfile.ZipFile(fixed) as z:
        if SHUFFLE_SERVICE_CLASS not in z.namelist():
            raise BuildError("the shuffle jar lacks %s" % SHUFFLE_SERVICE_CLASS)
    return fixed


def pyspark_sdist(args):
    if args.pyspark_sdist:
        if not os.path.isfile(args.pyspark_sdist):
            raise BuildError("--pyspark-sdist %s does not exist" % args.pyspark_sdist)
        return args.pyspark_sdist
    cache = args.cache
    path = os.path.join(cache, "pyspark-%s.tar.gz" % args.spark_version)
    if not os.path.exists(path):
        os.makedirs(cache, exist_ok=True)
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
               "-d", cache, "pyspark==%s" % args.spark_version]
        log("running %s" % " ".join(cmd))
        if subprocess.run(cmd, check=False).returncode != 0 or not os.path.exists(path):
            raise BuildError("pip download of pyspark==%s failed; pass --pyspark-sdist PATH" % args.spark_version)
    return path


def spark_release_text(version, hadoop_client_version, yarn_classes_version):
    return ("Spark %s built for Hadoop %s\n"
            "Repackaged by bigdata.spark tools/build_dist.py from the pyspark %s sdist; "
            "YARN shuffle service classes from spark-network-yarn %s\n"
            % (version, hadoop_client_version, version, yarn_classes_version))


def build_spark(args, mvn, work):
    name = spark_tarball_name(args.spark_version)
    tarball = os.path.join(args.out, name)
    sdist = pyspark_sdist(args)
    inputs = {
        "kind": "spark",
        "spark_version": args.spark_version,
        "scala": args.scala,
        "sdist_sha512": sha512_of(sdist),
        "maven_repo": args.maven_repo or "default",
        "shuffle_classes_version": args.shuffle_classes_version or "auto",
        "builder": builder_digest(),
    }
    fingerprint = stale_fingerprint(tarball, inputs)
    if fingerprint is None:
        return tarball

    yarn_classes_version = resolve_shuffle_classes_version(mvn, args, work)
    shuffle_jar = build_shuffle_jar(mvn, args, work, yarn_classes_version)

    top = "spark-%s-bin-hadoop3" % args.spark_version
    prefix = "pyspark-%s/" % args.spark_version
    writer = TarWriter(tarball, mtime=ENTRY_MTIME)
    try:
        with tarfile.open(sdist, "r:gz") as src:
            members = sorted((m for m in src.getmembers() if m.isfile()), key=lambda m: m.name)
            names = {m.name for m in members}
            if prefix + "deps/bin/spark-submit" not in names:
                raise BuildError("%s has no deps/bin/spark-submit: not a pyspark sdist with Spark's jars" % sdist)
            mapping = (
                ("deps/jars/", "jars/"), ("deps/bin/", "bin/"), ("deps/sbin/", "sbin/"),
                ("deps/data/", "data/"), ("deps/examples/", "examples/src/main/python/"),
                ("deps/licenses/", "licenses/"), ("lib/", "python/lib/"), ("pyspark/", "python/pyspark/"),
            )
            hadoop_client = "3"
            jar_count = 0
            for m in members:
                rel = m.name[len(prefix):] if m.name.startswith(prefix) else None
                if rel is None:
                    continue
                for old, new in mapping:
                    if rel.startswith(old):
                        dest = new + rel[len(old):]
                        break
                else:
                    continue
                mch = re.match(r"jars/hadoop-client-api-(.+)\.jar$", dest)
                if mch:
                    hadoop_client = mch.group(1)
                if dest.startswith("jars/"):
                    jar_count += 1
                mode = 0o755 if dest.startswith(("bin/", "sbin/")) and not dest.endswith(".cmd") else 0o644
                data = src.extractfile(m).read()
                writer.add_bytes("%s/%s" % (top, dest), data, mode)
            core = src.extractfile(prefix + "deps/jars/spark-core_%s-%s.jar" % (args.scala, args.spark_version))
            with zipfile.ZipFile(io.BytesIO(core.read())) as z:
                writer.add_bytes("%s/LICENSE" % top, z.read("META-INF/LICENSE"))
                writer.add_bytes("%s/NOTICE" % top, z.read("META-INF/NOTICE"))
        conf_src = os.path.join(DIST_SRC, "spark", "conf")
        for f in sorted(os.listdir(conf_src)):
            writer.add_file("%s/conf/%s" % (top, f), os.path.join(conf_src, f), mode=0o644)
        writer.add_file("%s/yarn/spark-%s-yarn-shuffle.jar" % (top, args.spark_version), shuffle_jar, mode=0o644)
        # bin/spark-class finds jars/ only when RELEASE exists.
        writer.add_bytes("%s/RELEASE" % top, spark_release_text(
            args.spark_version, hadoop_client, yarn_classes_version).encode())
        writer.add_bytes("%s/README.md" % top, SPARK_README.format(
            version=args.spark_version, yarn_classes_version=yarn_classes_version).encode())
        writer.close()
    except BaseException:
        writer.abort()
        raise
    return finish_tarball(tarball, inputs, fingerprint, jar_count)


# ---------------------------------------------------------------------------------------------
# ZooKeeper
# ---------------------------------------------------------------------------------------------

# What lib/ holds besides org.apache.zookeeper:zookeeper's runtime dependencies (which leave out what its pom
# marks provided or optional): the slf4j binding the server logs through (conf/logback.xml), the percentile
# counters' metrics-core, the AdminServer's Jetty and Jackson (only used with admin.enableServer=true),
# commons-cli for ZooKeeperMain, the command-line client, and snappy-java. Versions: ZooKeeper's own parent pom.
ZOOKEEPER_EXTRA = (
    ("ch.qos.logback", "logback-classic"),
    ("io.dropwizard.metrics", "metrics-core"),
    ("org.eclipse.jetty", "jetty-server"),
    ("org.eclipse.jetty", "jetty-servlet"),
    ("com.fasterxml.jackson.core", "jackson-databind"),
    ("commons-cli", "commons-cli"),
    # The snapshot streams (SnapStream) load snappy-java's classes whatever the compression method.
    ("org.xerial.snappy", "snappy-java"),
)
# netty-tcnative's native jars for other operating systems than Linux are left out.
ZOOKEEPER_SKIP_CLASSIFIERS = re.compile(r"^(osx|windows)-")

ZOOKEEPER_README = """# Apache ZooKeeper {version}, repackaged for the bigdata.spark Ansible collection

`lib/` holds the unmodified jars of org.apache.zookeeper:zookeeper {version} and its runtime dependencies as
published to Maven, with the logback binding, metrics-core, the AdminServer's Jetty and Jackson, commons-cli and
snappy-java at the versions ZooKeeper's parent pom names ({jar_count} jars). `conf/` holds short samples written for
bigdata.spark; there is no bin/: the collection's systemd unit runs
`java -cp CONF:lib/* org.apache.zookeeper.server.quorum.QuorumPeerMain CONF/zoo.cfg` itself.

Not included: bin/zkServer.sh and the other scripts, docs/, the Prometheus metrics provider and jline. Built by tools/build_dist.py.
"""


def zookeeper_tarball_name(version):
    """Apache's name of the binary release."""
    return "apache-zookeeper-%s-bin.tar.gz" % version


def zookeeper_pom(version, extra=ZOOKEEPER_EXTRA):
    """A pom whose runtime dependencies are ZooKeeper's lib/: the server and the extras, at the versions of
    ZooKeeper's parent pom (imported as a bill of materials)."""
    bom = ("  <dependencyManagement><dependencies>\n%s\n  </dependencies></dependencyManagement>"
           % dependency_xml(ZOOKEEPER_GROUP, "parent", version).replace(
               "</version>", "</version><type>pom</type><scope>import</scope>"))
    deps = [dependency_xml(ZOOKEEPER_GROUP, "zookeeper", version)]
    deps += [dependency_xml(g, a, "").replace("<version></version>", "") for g, a in extra]
    return _pom("zookeeper-dist", bom + "\n  <dependencies>\n%s\n  </dependencies>" % "\n".join(deps))


def zookeeper_jars(artifacts):
    """The jars of lib/, sorted by file name: one per (group, artifact, classifier), no other OS's natives,
    one slf4j binding."""
    out, seen = [], set()
    for art in artifacts:
        key = (art.group, art.artifact, art.classifier)
        if art.type != "jar" or key in seen or ZOOKEEPER_SKIP_CLASSIFIERS.match(art.classifier):
            continue
        seen.add(key)
        out.append(art)
    bindings = sorted(jar_file_name(a) for a in out if a.artifact in SLF4J_BINDINGS)
    if len(bindings) != 1:
        raise BuildError("ZooKeeper's lib/ needs one slf4j binding, got: %s" % (", ".join(bindings) or "none"))
    if not any(a.group == ZOOKEEPER_GROUP and a.artifact == "zookeeper" for a in out):
        raise BuildError("org.apache.zookeeper:zookeeper did not resolve")
    return sorted(out, key=jar_file_name)


def build_zookeeper(args, mvn, work):
    name = zookeeper_tarball_name(args.zookeeper_version)
    tarball = os.path.join(args.out, name)
    inputs = {
        "kind": "zookeeper",
        "zookeeper_version": args.zookeeper_version,
        "maven_repo": args.maven_repo or "default",
        "builder": builder_digest(),
    }
    fingerprint = stale_fingerprint(tarball, inputs)
    if fingerprint is None:
        return tarball

    root = os.path.join(work, "zookeeper")
    shutil.rmtree(root, ignore_errors=True)
    write_poms(root, {".": zookeeper_pom(args.zookeeper_version)})
    mvn.run(["%s:list" % DEPENDENCY_PLUGIN, "-DincludeScope=runtime",
             "-DoutputAbsoluteArtifactFilename=true", "-DoutputFile=deps.txt"], root)
    with open(os.path.join(root, "deps.txt")) as f:
        jars = zookeeper_jars(parse_dependency_list(f.read()))

    top = "apache-zookeeper-%s-bin" % args.zookeeper_version
    writer = TarWriter(tarball, mtime=ENTRY_MTIME)
    try:
        src = os.path.join(DIST_SRC, "zookeeper")
        for rel in sorted(os.path.relpath(p, src) for p in tree_files(src)):
            writer.add_file("%s/%s" % (top, rel), os.path.join(src, rel), mode=0o644)
        for art in jars:
            writer.add_file("%s/lib/%s" % (top, jar_file_name(art)), art.path, mode=0o644)
        # The Apache License 2.0 text (the jars carry none; this collection's LICENSE is the same text).
        writer.add_file("%s/LICENSE.txt" % top, os.path.join(REPO_ROOT, "LICENSE"), mode=0o644)
        writer.add_bytes("%s/README.md" % top, ZOOKEEPER_README.format(
            version=args.zookeeper_version, jar_count=len(jars)).encode())
        writer.close()
    except BaseException:
        writer.abort()
        raise
    return finish_tarball(tarball, inputs, fingerprint, len(jars))


# ---------------------------------------------------------------------------------------------

def parse_args(argv=None):
    p = argparse.ArgumentParser(
        description="Build hadoop-<v>.tar.gz, spark-<v>-bin-hadoop3.tgz and apache-zookeeper-<v>-bin.tar.gz "
                    "(each with a .sha512) from Maven artifacts and the pyspark sdist. Skips a tarball whose inputs "
                    "are unchanged.")
    p.add_argument("--out", default=os.path.join(REPO_ROOT, "artifacts"), help="output directory (default: artifacts/)")
    p.add_argument("--cache", default=os.path.join(REPO_ROOT, ".cache"), help="download cache (default: .cache/)")
    p.add_argument("--maven-repo", metavar="URL",
                   help="Maven repository or proxy to resolve everything from (default: Maven Central, "
                        "or what ~/.m2/settings.xml says)")
    p.add_argument("--maven-settings", metavar="PATH", help="settings.xml to give mvn when --maven-repo is not used")
    p.add_argument("--maven-local-repo", metavar="DIR", help="local Maven repository (default: ~/.m2/repository)")
    p.add_argument("--hadoop-version", default="3.3.6")
    p.add_argument("--spark-version", default="3.5.7")
    p.add_argument("--zookeeper-version", default="3.9.3")
    p.add_argument("--scala", default="2.12", help="Scala binary version of the Spark artifacts")
    p.add_argument("--shuffle-classes-version", metavar="V",
                   help="spark-network-yarn version for the shuffle service classes (default: the Spark "
                        "version, else the newest earlier patch release that the repository has)")
    p.add_argument("--pyspark-sdist", metavar="PATH",
                   help="pyspark sdist to use (default: pip download into the cache)")
    p.add_argument("--arch", default="x86_64", choices=ARCHES,
                   help="target CPU: names the Hadoop tarball (hadoop-V-aarch64.tar.gz) and swaps the jars "
                        "whose native code differs (aarch64: org.openlabtesting leveldbjni-all) and picks that "
                        "CPU's libhadoop")
    p.add_argument("--no-libhadoop", dest="libhadoop", action="store_false",
                   help="leave lib/native out of the Hadoop tarball (the pure-Java code paths; see NATIVE_HADOOP)")
    p.add_argument("--only", choices=("hadoop", "spark", "zookeeper"), help="build only this distribution")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    args.out = os.path.abspath(args.out)
    args.cache = os.path.abspath(args.cache)
    os.makedirs(args.out, exist_ok=True)
    if shutil.which("mvn") is None:
        print("build_dist: ERROR: mvn not found on PATH (apt-get install maven)", file=sys.stderr)
        return 1
    work = tempfile.mkdtemp(prefix="build_dist.")
    mvn = Maven(args.maven_repo, args.maven_local_repo, args.maven_settings, work)
    try:
        if args.only in (None, "hadoop"):
            build_hadoop(args, mvn, work)
        if args.only in (None, "spark"):
            build_spark(args, mvn, work)
        if args.only in (None, "zookeeper"):
            build_zookeeper(args, mvn, work)
    except BuildError as exc:
        print("build_dist: ERROR: %s" % exc, file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
