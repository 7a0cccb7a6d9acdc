"""playbooks/files/mask_secrets.py: the secrets of configuration files are masked before collect_logs.yml ships them."""

import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]
_SPEC = importlib.util.spec_from_file_location("mask_secrets", ROOT / "playbooks" / "files" / "mask_secrets.py")
M = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(M)

XML = """<?xml version="1.0"?>
<configuration>
  <!-- the store -->
  <property>
    <name>ssl.server.keystore.password</name>
    <value>s3cret-Store</value>
  </property>
  <property><name>fs.s3a.secret.key</name><value>AKIAxyz/abc</value></property>
  <property>
    <name>dfs.block.access.token.enable</name>
    <value>true</value>
  </property>
  <property>
    <name>dfs.replication</name>
    <value>3</value>
  </property>
</configuration>
"""


def test_xml_secret_values_are_masked_and_the_rest_kept():
    text, count = M.mask_xml(XML)
    assert count == 2
    assert "s3cret-Store" not in text and "AKIAxyz" not in text
    assert "<name>ssl.server.keystore.password</name>\n    <value>********</value>" in text
    assert "<value>true</value>" in text and "<value>3</value>" in text and "<!-- the store -->" in text


def test_key_value_and_shell_files():
    text, count = M.mask_lines("spark.authenticate.secret  abc123xyz\nspark.executor.memory 2g\n"
                               "# password=shown-in-a-comment\nexport HADOOP_CREDSTORE_PASSWORD=pw1\n"
                               "zookeeper.ssl.keyStore.password=pw2\nclientPort=2181\n")
    assert count == 3
    assert "abc123xyz" not in text and "pw1" not in text and "pw2" not in text
    assert "spark.executor.memory 2g\n" in text and "clientPort=2181\n" in text
    assert "export HADOOP_CREDSTORE_PASSWORD=********\n" in text


def test_keystores_and_private_keys_are_left_out():
    assert M.mask_file("/etc/hadoop/conf/keystore.jks", "binary")[0] is None
    assert M.mask_file("/etc/hadoop/conf/nn.keytab", "binary")[0] is None
    assert M.mask_file("/etc/ssl/host.pem", "-----BEGIN PRIVATE KEY-----\nMII\n")[0] is None
    assert M.mask_file("/etc/ssl/ca.pem", "-----BEGIN CERTIFICATE-----\nMII\n") == ("-----BEGIN CERTIFICATE-----\nMII\n", 0)


def test_main_copies_under_the_absolute_path(tmp_path):
    src = tmp_path / "conf"
    src.mkdir()
    (src / "core-site.xml").write_text(XML)
    (src / "store.jks").write_text("x")
    dest = tmp_path / "out"
    assert M.main([str(dest), str(src / "core-site.xml"), str(src / "store.jks"), str(src / "missing.xml")]) == 0
    copied = dest / str(src / "core-site.xml").lstrip("/")
    assert "s3cret-Store" not in copied.read_text() and "********" in copied.read_text()
    assert not (dest / str(src / "store.jks").lstrip("/")).exists()
