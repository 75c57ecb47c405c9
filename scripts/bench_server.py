"""A demo server for the benchmarks: started on loopback in a temp dir, waited for; and the CPU
a server process has used."""
import atexit
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request


def start(binary, port, database_args):
    """Starts `tresor serve --demo` with `database_args` (`--db FILE` or `--banks DIR`, relative to
    a fresh temp dir); returns the process and its base URL once /healthz answers."""
    work = tempfile.mkdtemp(prefix="tresor-bench.")
    atexit.register(shutil.rmtree, work, True)  # why: each run left its databases in /tmp
    args = [a.replace("{work}", work) for a in database_args]
    server = subprocess.Popen([binary, "serve", *args, "--demo", "--port", str(port), "--scheduler-interval-seconds", "0"],
                              cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "LOG_LEVEL": "warning"})
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1)
            break
        except Exception:
            time.sleep(0.1)
    return server, base


def cpu_seconds(pid):
    """User and system CPU the process has used so far."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
