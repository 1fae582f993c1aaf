#!/usr/bin/env python3
"""How long from a save to the verdict in `./torchlings watch`?

Starts `watch <id>` in a pseudo-terminal (watch needs one) on a real exercise of the course
(default: count_devices, lesson 01), waits for its first verdict (not timed: it may build the
exercise, and LibTorch takes minutes the first time), then saves the learner's file N times with
its own bytes (the content never changes; the modification time does) and measures the seconds
from each save to the verdict's summary line ("<id>: 3/4 tests passed", "<id>: build error",
...). Prints each time, the median, and the number of cores. The target: a median of at most
3 s on a 2-core machine.

The learner's file is copied to .torchlings/measure_watch_<id>.cpp before the first save and is
put back exactly as it was at the end, whatever happens; the copy is removed once it is.

    scripts/measure/measure_watch.py [ID] [--saves N] [--poll]
    scripts/measure/measure_watch.py count_devices --build-dir build/dev --saves 5

With --build-dir (or --runner), the runner of that build folder runs directly; otherwise
./torchlings does (which sets up and builds the runner first when needed). Standard library only.
"""
import argparse
import os
import pty
import re
import select
import signal
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("id", nargs="?", default="count_devices", help="exercise id")
    parser.add_argument("--saves", type=int, default=7, help="saves to time (default 7)")
    parser.add_argument("--poll", action="store_true", help="pass --poll to watch")
    parser.add_argument("--root", default=ROOT, help="the course folder (default: this one)")
    parser.add_argument("--build-dir", help="build folder (default: what ./torchlings uses)")
    parser.add_argument("--runner", help="the torchlings-runner program to run")
    parser.add_argument("--first-timeout", type=float, default=1800.0,
                        help="seconds to wait for the first verdict (default 1800)")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds to wait for the verdict after a save (default 300)")
    return parser.parse_args()


def learner_file(root, exercise_id):
    exercises = os.path.join(root, "exercises")
    for folder in sorted(os.listdir(exercises)):
        path = os.path.join(exercises, folder, exercise_id + ".cpp")
        if os.path.isfile(path):
            return path
    sys.exit(f"measure_watch: no exercises/*/{exercise_id}.cpp under {root}")


def watch_command(args):
    root = os.path.abspath(args.root)
    runner = args.runner
    if runner is None and args.build_dir:
        runner = os.path.join(args.build_dir, "bin", "torchlings-runner")
    if runner is None:
        command = [os.path.join(root, "torchlings"), "--color=never"]
    else:
        command = [os.path.abspath(runner), "--root", root, "--color=never"]
        if args.build_dir:
            command += ["--build-dir", os.path.abspath(args.build_dir)]
    command += ["watch", args.id]
    if args.poll:
        command.append("--poll")
    return command


class Session:
    """The watch in its pseudo-terminal, and everything it printed."""

    def __init__(self, command):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            try:
                os.execv(command[0], command)
            finally:
                os._exit(127)
        self.output = b""
        self.closed = False

    def read(self, wait_s):
        """Reads what is waiting, for at most wait_s; returns the time the bytes arrived."""
        if self.closed:
            return None
        ready, _, _ = select.select([self.fd], [], [], wait_s)
        if not ready:
            return None
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the program's side of the terminal is closed
            data = b""
        arrived = time.monotonic()
        if not data:
            self.closed = True
            return None
        self.output += data
        return arrived

    def wait_for(self, pattern, start, timeout_s, what):
        """Waits until pattern matches the output after offset start; returns (match, time)."""
        deadline = time.monotonic() + timeout_s
        while True:
            found = pattern.search(self.output, start)
            if found:
                return found, time.monotonic()
            left = deadline - time.monotonic()
            if left <= 0 or self.closed:
                tail = self.output[-3000:].decode("utf-8", "replace").replace("\r", "")
                sys.exit(f"measure_watch: no {what} (waited {timeout_s:.0f} s). Output:\n{tail}")
            arrived = self.read(min(left, 0.5))
            if arrived is not None:
                found = pattern.search(self.output, start)
                if found:
                    return found, arrived

    def stop(self):
        if self.closed:
            return
        try:
            os.write(self.fd, b"q")
            deadline = time.monotonic() + 10
            while not self.closed and time.monotonic() < deadline:
                self.read(0.2)
        except OSError:
            pass
        if os.waitpid(self.pid, os.WNOHANG) == (0, 0):
            os.kill(self.pid, signal.SIGTERM)
            time.sleep(0.5)
            if os.waitpid(self.pid, os.WNOHANG) == (0, 0):
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)


def save_unchanged(path, content):
    """Writes the file's own bytes over it (never truncated) and makes sure its time moves."""
    before = os.stat(path).st_mtime_ns
    with open(path, "r+b") as file:
        file.write(content)
    saved = time.monotonic()
    after = os.stat(path)
    if after.st_mtime_ns == before:
        os.utime(path, ns=(after.st_atime_ns, before + 1_000_000))
    return saved


def main():
    args = parse_arguments()
    path = learner_file(os.path.abspath(args.root), args.id)
    with open(path, "rb") as file:
        original = file.read()
    mode = os.stat(path).st_mode
    backup_folder = os.path.join(os.path.abspath(args.root), ".torchlings")
    os.makedirs(backup_folder, exist_ok=True)
    backup = os.path.join(backup_folder, f"measure_watch_{args.id}.cpp")
    with open(backup, "wb") as file:
        file.write(original)

    summary = re.compile(
        re.escape(args.id.encode())
        + rb": (\d+/\d+ tests passed[^\r\n]*|build error|every test was skipped[^\r\n]*)")
    status_bar = re.compile(rb"Keys:")
    watching = re.compile(rb"Watching [^\r\n]*: ([^\r\n]*)")
    command = watch_command(args)
    print("$ " + " ".join(command), flush=True)
    session = Session(command)
    times = []
    try:
        first, _ = session.wait_for(summary, 0, args.first_timeout, "first verdict")
        bar, _ = session.wait_for(status_bar, first.end(), 60, "status bar")
        method = watching.search(session.output, first.end())
        print(f"first verdict: {first.group(0).decode()}", flush=True)
        if method:
            print(f"watching with: {method.group(1).decode()}", flush=True)
        for run in range(1, args.saves + 1):
            time.sleep(0.5)  # let the watch settle between saves
            offset = len(session.output)
            saved = save_unchanged(path, original)
            verdict, seen = session.wait_for(summary, offset, args.timeout, f"verdict {run}")
            times.append(seen - saved)
            print(f"save {run}: {seen - saved:.2f} s  ({verdict.group(0).decode()})", flush=True)
            bar, _ = session.wait_for(status_bar, verdict.end(), 60, "status bar")
    finally:
        session.stop()
        with open(path, "rb") as file:
            now = file.read()
        if now != original:
            with open(path, "wb") as file:
                file.write(original)
        os.chmod(path, mode)
        with open(path, "rb") as file:
            if file.read() == original:
                os.remove(backup)
            else:
                print(f"measure_watch: could not restore {path}; its content is in {backup}",
                      file=sys.stderr)

    median = statistics.median(times)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    target = "within" if median <= 3.0 else "over"
    print(f"watch {args.id}: median {median:.2f} s over {len(times)} saves "
          f"({os.uname().machine}, nproc {cores}); target <= 3 s: {target}")


if __name__ == "__main__":
    main()
