#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pty-run.py TTYLOG OUT CMD...: runs CMD with its stderr (and stdin) on a new
pseudo-terminal and its stdout into the file OUT; writes everything the
terminal received to TTYLOG and exits with CMD's status. For testing what a
command shows on a terminal (live lines) without one."""
import os
import pty
import sys

tty_log, out_path, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    os.dup2(os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
    os.execvp(cmd[0], cmd)
got = b''
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:  # EIO once the child has closed the terminal
        break
    if not chunk:
        break
    got += chunk
_, status = os.waitpid(pid, 0)
with open(tty_log, 'wb') as f:
    f.write(got)
sys.exit(os.waitstatus_to_exitcode(status))
