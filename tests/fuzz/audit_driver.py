"""Run `packgate ARGS` under a Python audit hook that logs what it does to the system.

    PACKGATE_AUDIT_LOG=FILE python audit_driver.py check x.sh
    PACKGATE_AUDIT_LOG=FILE python audit_driver.py lsp

Every process start, socket operation, file open (with its flags), removal, rename and
permission change becomes one JSON line in FILE, written as it happens (so a crash keeps it).
The tests read the log: packgate must never start a process or open a network connection,
and it opens for writing only what `--fix` rewrites.
"""

import json
import os
import sys

WATCHED = {
    "subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
    "os.startfile", "pty.spawn", "os.kill", "os.killpg",
    "socket.__new__", "socket.connect", "socket.bind", "socket.listen", "socket.sendto", "socket.sendmsg",
    "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr", "urllib.Request",
    "http.client.connect", "ftplib.connect", "smtplib.connect",
    "open", "os.remove", "os.rmdir", "os.rename", "os.truncate", "os.chmod", "os.chown", "os.mkdir",
    "os.symlink", "os.link", "shutil.rmtree", "shutil.move", "shutil.copyfile", "os.utime", "os.mkfifo",
    "os.mknod",
}


def main() -> None:
    log = open(os.environ["PACKGATE_AUDIT_LOG"], "w", buffering=1, encoding="utf-8")  # before the hook
    busy = []

    def hook(event: str, args: tuple) -> None:
        if event not in WATCHED or busy:
            return
        busy.append(1)
        try:
            safe = []
            for a in args:
                if isinstance(a, bytes):
                    a = a.decode("utf-8", "replace")
                elif isinstance(a, os.PathLike):
                    a = os.fspath(a)
                safe.append(a if isinstance(a, (str, int, float, bool, type(None))) else repr(a))
            log.write(json.dumps({"event": event, "args": safe}) + "\n")
        finally:
            busy.pop()

    sys.addaudithook(hook)
    from packgate.cli.main import main as packgate_main
    sys.exit(packgate_main(sys.argv[1:]))


if __name__ == "__main__":
    main()
