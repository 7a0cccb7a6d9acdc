# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Why an ansible-playbook run (a molecule scenario's log, time-stamped by tests/run-all.sh) failed, in a few lines.

Usage: python3 tools/failure_digest.py LOG [MAX_LINES]

A molecule log ends with the scenario's recap and the destroy step, so its last lines never say what failed; this
finds the last play recap of the log that counts a failed host, the last task that failed before it (a fatal that
a rescue or ignore_errors took is followed by more tasks and a clean recap, so it is never the one picked), and
prints the task's name and the lines of its result that say why: pytest's short summary (FAILED/ERROR tests/...),
assertion and error lines, msg and stderr. tests/run-all.sh puts them in its summary, the end of the output a CI
reader sees. Prints nothing when no recap counts a failure.
"""

import re
import sys

STAMP = r"(?:\d\d:\d\d:\d\d )?"
RECAP = re.compile("^" + STAMP + r"PLAY RECAP \*")
FAILED_HOST = re.compile("^" + STAMP + r"\S+\s+: ok=\d+ .*\b(failed=[1-9]|unreachable=[1-9])")
FATAL = re.compile("^" + STAMP + r"(fatal|failed): \[")
TASK = re.compile("^" + STAMP + r"TASK \[(.*?)\] \**$")
WHY = re.compile(r"(FAILED|ERROR) tests/|\b\w*(Error|Exception|Failed)\b|assert|\bmsg: |\bstderr: |\[ERROR\]|fatal: \[")


def digest(lines, max_lines=30):
    """The failing task's name and the lines of its result that say why, or []."""
    recap = None
    for i, line in enumerate(lines):
        if RECAP.match(line):
            j = i + 1
            while j < len(lines) and FAILED_HOST.match(lines[j]) is None and lines[j].strip(" :0123456789") and j < i + 40:
                j += 1
            if j < len(lines) and FAILED_HOST.match(lines[j]):
                recap = i
    if recap is None:
        return []
    fatal = next((i for i in range(recap - 1, -1, -1) if FATAL.match(lines[i])), None)
    if fatal is None:
        return []
    task = next((TASK.match(lines[i]).group(1) for i in range(fatal, -1, -1) if TASK.match(lines[i])), "?")
    block = [re.sub("^" + STAMP, "", line).rstrip() for line in lines[fatal:recap]]
    summary = [line.strip() for line in block if re.search(r"^\s*(FAILED|ERROR) tests/", line)]
    why = [line.strip() for line in block[1:] if WHY.search(line) and line.strip() not in summary]
    # The short summary first, then the last reasons (a traceback's end is where the error is).
    picked = summary + why[-(max_lines - 1 - len(summary)):] if len(summary) < max_lines - 1 else summary[:max_lines - 1]
    return ["failed task: %s (%s)" % (task, block[0].strip())] + [line[:300] for line in picked]


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(argv[1], errors="replace") as f:
        lines = f.read().splitlines()
    for line in digest(lines, int(argv[2]) if len(argv) > 2 else 30):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
