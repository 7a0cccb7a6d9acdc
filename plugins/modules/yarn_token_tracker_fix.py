#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# GNU General Public License v3.0+ (see LICENSES/GPL-3.0-or-later.txt or https://www.gnu.org/licenses/gpl-3.0.txt)
# Modules run inside ansible-core's GPLv3 AnsibleModule, so they carry its licence; the rest of the
# collection is Apache-2.0 (see LICENSE).

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: yarn_token_tracker_fix
short_description: Put the collection's token tracker fix into a Hadoop 3.3 release whose ResourceManager spins
version_added: "0.1.0"
description:
  - Hadoop 3.3's ResourceManager tracks its delegation token renewals in a loop without a pause (YARN-11178, fixed
    in Hadoop 3.4.0), so with Kerberos on the active ResourceManager keeps a CPU core busy.
  - When the release's tracker class never pauses and the release lacks the collection's fixes jar
    (C(share/hadoop/yarn/lib/bigdata-spark-yarn-fixes.jar)), compiles the collection's tracker (the same timeouts and
    retries, a pause between passes) with the host's C(javac) against the release's own jars and writes that jar,
    which comes ahead of the release's jars on YARN's classpath. The ResourceManager reads it when it next starts.
  - Nothing changes when the release's tracker pauses (3.4), has no tracker, or already holds the jar (the
    collection's own Hadoop build does).
author:
  - bigdata.spark developers (!UNKNOWN)
options:
  release_dir:
    description: The Hadoop release directory (the one holding C(share/hadoop)).
    type: path
    required: true
  src:
    description: The directory of the tracker's source and its C(stubs/) on the host (the role copies them there).
    type: path
    required: true
  javac:
    description: The javac to compile with.
    type: path
    default: javac
attributes:
  check_mode:
    support: full
    description: Says whether the jar would be written (C(changed), state C(needed)) and writes nothing.
  diff_mode:
    support: none
    description: The jar is binary; there is no diff.
"""

EXAMPLES = r"""
- name: Put the token tracker fix in the Hadoop release where its tracker spins
  bigdata.spark.yarn_token_tracker_fix:
    release_dir: /opt/hadoop/current
    src: /opt/hadoop/fixes/token_tracker_fix
    javac: "{{ java_home }}/bin/javac"
"""

RETURN = r"""
state:
  description: >-
    C(needed) (the jar was written, or would be in check mode), C(in-place), C(not-needed), or C(unknown) (check mode
    before the release is unpacked).
  returned: always
  type: str
  sample: needed
reason:
  description: Why, in words.
  returned: always
  type: str
  sample: the token tracker of hadoop-yarn-server-resourcemanager-3.3.6.jar loops without a pause (YARN-11178)
jar:
  description: The fixes jar's path.
  returned: always
  type: str
  sample: /opt/hadoop/current/share/hadoop/yarn/lib/bigdata-spark-yarn-fixes.jar
"""

import os
import shutil
import tempfile

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.bigdata.spark.plugins.module_utils.yarn_fixes import (
    FIXES_JAR, FixError, compile_tracker, fixes_jar, release_classpath, release_state)


def main():
    module = AnsibleModule(
        argument_spec=dict(release_dir=dict(type='path', required=True), src=dict(type='path', required=True),
                           javac=dict(type='path', default='javac')),
        supports_check_mode=True,
    )
    release_dir, src = module.params['release_dir'], module.params['src']
    jar = os.path.join(release_dir, FIXES_JAR)
    if not os.path.isdir(os.path.join(release_dir, 'share', 'hadoop')):
        if module.check_mode:
            # A fresh host in check mode: the release is not unpacked yet.
            module.exit_json(changed=False, state='unknown', reason='no Hadoop release at %s yet' % release_dir, jar=jar)
        module.fail_json(msg='release_dir: a Hadoop release directory (with share/hadoop) is required; got %r' % release_dir)
    state, reason = release_state(release_dir)
    if state != 'needed' or module.check_mode:
        module.exit_json(changed=state == 'needed', state=state, reason=reason, jar=jar)
    javac = module.params['javac']
    if (os.path.sep in javac and not os.access(javac, os.X_OK)) or (os.path.sep not in javac and not module.get_bin_path(javac)):
        module.fail_json(msg='javac: %s is not there. The release needs the token tracker fix (%s), which '
                             'yarn_token_tracker_fix: true compiles with a JDK on the ResourceManager hosts (Debian: '
                             'openjdk-17-jdk-headless; Red Hat: java-17-openjdk-devel). Install one, or set '
                             'yarn_token_tracker_fix: false to run the release as it is' % (javac, reason))
    work = tempfile.mkdtemp(prefix='bigdata-spark-fix-')
    try:
        try:
            data = fixes_jar(compile_tracker(module.run_command, release_classpath(release_dir), src,
                                             os.path.join(work, 'classes'), javac))
        except FixError as e:
            module.fail_json(msg='yarn_token_tracker_fix: %s' % e, reason=reason)
        staged = os.path.join(work, os.path.basename(jar))
        with open(staged, 'wb') as f:
            f.write(data)
        os.chmod(staged, 0o644)
        module.atomic_move(staged, jar)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    module.exit_json(changed=True, state=state, reason=reason, jar=jar)


if __name__ == '__main__':
    main()
