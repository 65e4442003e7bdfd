# Runs one command in a pseudo-terminal (100x30), reads everything it writes until it exits, and
# exits with its status. For bench/first-frame.mjs: the REPL needs a terminal to draw its frame.
import os, pty, select, struct, sys, termios, fcntl, time

argv = sys.argv[1:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
deadline = time.monotonic() + 30
while time.monotonic() < deadline:
    ready, _, _ = select.select([fd], [], [], 0.1)
    if ready:
        try:
            if not os.read(fd, 65536):
                break
        except OSError:
            break
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        sys.exit(os.waitstatus_to_exitcode(status))
os.kill(pid, 9)
sys.exit(124)
