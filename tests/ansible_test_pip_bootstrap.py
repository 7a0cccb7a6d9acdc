"""Stand-in for the pip bootstrap script that ansible-test downloads from a host this machine cannot reach.

ansible-test runs it inside an empty venv with pip's install arguments (e.g. `pip==24.2 --no-setuptools`).
It installs the pip that Python bundles (ensurepip), then lets that pip install what was asked from PyPI.
"""
import ensurepip
import os
import subprocess
import sys

SKIP = {"--no-setuptools", "--no-wheel"}

ensurepip.bootstrap(upgrade=True)
env = dict(os.environ)
# ensurepip leaves these behind in os.environ; the pip run below must read the machine's pip config.
env.pop("PIP_CONFIG_FILE", None)
env.pop("ENSUREPIP_OPTIONS", None)
# ansible-test runs this with a trimmed environment; the bundled pip then misses the machine's CA bundle.
for bundle in ("/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt"):
    if os.path.exists(bundle):
        env.setdefault("SSL_CERT_FILE", bundle)
        break
sys.exit(subprocess.call([sys.executable, "-m", "pip", "install", "-q"] + [a for a in sys.argv[1:] if a not in SKIP], env=env))
