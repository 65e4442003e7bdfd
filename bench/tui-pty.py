# The pty recorder of bench/tui.mjs: runs the REPL in a pseudo-terminal of a fixed size, types into
# it and records every byte it writes, with times. Reads its plan as JSON on stdin, prints the
# figures as JSON on stdout. Python's pty module, so nothing but the standard library is needed.
import json, os, pty, select, signal, struct, sys, termios, fcntl, time

plan = json.load(sys.stdin)
cols, rows = plan["cols"], plan["rows"]

pid, fd = pty.fork()
if pid == 0:
    os.chdir(plan["cwd"])
    os.execve(plan["argv"][0], plan["argv"], plan["env"])

fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
started = time.monotonic()
buffer = bytearray()


def read_for(seconds):
    """Reads what the REPL writes for up to `seconds`; returns the bytes."""
    got = bytearray()
    end = time.monotonic() + seconds
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return bytes(got)
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return bytes(got)
            got += chunk
            buffer.extend(chunk)


def wait_for(needle, timeout, since=None):
    """Reads until `needle` appears in what was written since `since` (default: the call); seconds or None."""
    start = len(buffer) if since is None else since
    begin = time.monotonic()
    while True:
        if needle in buffer[start:]:
            return time.monotonic() - begin
        if time.monotonic() - begin >= timeout:
            return None
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return None
            buffer.extend(chunk)


def rss_mb():
    # The REPL is the pty's child process (node); VmRSS is its resident set.
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return None


def type_and_time(count, gap=0.0):
    """Types '~' `count` times, each timed from the write to its echo: the first output after it
    that draws a '~' (a terminal writer that redraws only what changed writes just the new '~',
    one that redraws the line writes all of them; the streamed text never contains one). With a
    `gap` (seconds) each key is sent that long after the one before, as a person types;
    without, each key goes as soon as the one before echoed (a burst)."""
    times = []
    next_at = time.monotonic()
    for _ in range(count):
        if gap:
            read_for(max(0.0, next_at - time.monotonic()))
            next_at = time.monotonic() + gap
        since = len(buffer)
        t0 = time.monotonic()
        os.write(fd, b"~")
        waited = wait_for(b"~", 5, since=since)
        if waited is None:
            break
        times.append((time.monotonic() - t0) * 1000)
        if KEY_LOG is not None:
            KEY_LOG.append([round(t0 * 1000, 2), round(times[-1], 2)])
    os.write(fd, b"\x15")  # Ctrl+U clears the line
    read_for(0.2)
    return times


DEBUG = os.environ.get("BENCH_DEBUG") == "1"
# BENCH_TUI_RAW: each key's send time (CLOCK_MONOTONIC ms, the clock of a --cpu-prof profile) and echo.
KEY_LOG = [] if os.environ.get("BENCH_TUI_RAW") or plan.get("key_log") else None

def note(text):
    if DEBUG:
        print(text, file=sys.stderr, flush=True)


result = {}
launch = wait_for(plan["ready_marker"].encode(), 20)
result["launch_to_prompt_ms"] = None if launch is None else (time.monotonic() - started) * 1000
engine = wait_for(plan["engine_marker"].encode(), 20)
result["launch_to_engine_ms"] = (time.monotonic() - started) * 1000 if engine is not None else None
read_for(0.5)
note(f"launch {launch} engine {engine}")
result["rss_after_start_mb"] = rss_mb()
result["idle_echo_ms"] = type_and_time(plan["keys"])

# A long streamed answer: type while it streams, and count what the terminal receives meanwhile.
mark = len(buffer)
os.write(fd, plan["stream_prompt"].encode() + b"\r")
note("stream prompt sent")
wait_for(b"esc to interrupt", 10, since=mark)
t_stream = time.monotonic()
# A burst as the answer starts (the turn's start: the request, the first deltas) ...
result["streaming_echo_ms"] = type_and_time(plan["keys"])
note(f"typed while streaming: {len(result['streaming_echo_ms'])}")
# ... then a person typing while it streams on: the keys spread over the answer's next seconds.
result["streaming_spread_echo_ms"] = type_and_time(plan["keys"], plan["typing_gap_ms"] / 1000)
result["spread_ended_before_stream"] = plan["stream_end_marker"].encode() not in buffer[mark:]
note(f"typed apart while streaming: {len(result['streaming_spread_echo_ms'])}")
wait_for(plan["stream_end_marker"].encode(), 120, since=mark)
note("stream ended")
streamed = bytes(buffer[mark:])
result["stream_seconds"] = time.monotonic() - t_stream
result["stream_bytes"] = len(streamed)
result["full_clears"] = streamed.count(b"\x1b[2J") + streamed.count(b"\x1b[3J")

def quick_turns(first, last):
    """Turns `first`..`last - 1`, each a prompt and its answer."""
    for i in range(first, last):
        since = len(buffer)
        os.write(fd, f"quick {i}\r".encode())
        wait_for(f"answer {i} done".encode(), 20, since=since)


# A 200-message session: 100 quick turns.
quick_turns(0, plan["turns"])
read_for(1.0)
result["rss_after_turns_mb"] = rss_mb()
result["turns"] = plan["turns"]

# A tool printing 10,000 lines (after the RSS figure, which is for prompts and answers alone):
# type while its output streams in.
mark = len(buffer)
os.write(fd, plan["tool_prompt"].encode() + b"\r")
wait_for(plan["tool_running_marker"].encode(), 20, since=mark)
result["tool_echo_ms"] = type_and_time(plan["keys"])
wait_for(plan["tool_end_marker"].encode(), 120, since=mark)
note("tool ended")


# A 1,000-message session: is typing as quick as in a new one?
quick_turns(plan["turns"], plan["long_turns"])
read_for(1.0)
result["long_session_echo_ms"] = type_and_time(plan["keys"])
result["long_turns"] = max(plan["long_turns"], plan["turns"])

os.kill(pid, signal.SIGTERM)
try:
    os.waitpid(pid, 0)
except ChildProcessError:
    pass
if KEY_LOG is not None:
    result["key_log"] = KEY_LOG
print(json.dumps(result))
