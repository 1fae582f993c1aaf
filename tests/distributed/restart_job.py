#!/usr/bin/env python3
"""Lesson 10's restartable training under torchrun: rank deaths, restarts and snapshot faults.

  restart_job.py TORCHRUN PROGRAM SCENARIO [--deadline S]

Every scenario runs the lesson's section 8 (--snapshot-dir) in folders of its own under a fresh
temporary folder, with torchrun --standalone (a free port of its own), and compares final weights
files (raw float32, written by rank 0) byte for byte with an uninterrupted run's.

  kill_twice    SIGKILL rank 1 between two snapshots; torchrun restarts the group, which resumes
                from the last snapshot; SIGKILL rank 1 again during the restart's first steps. The
                job must finish and its weights equal the uninterrupted run's.
  corrupt       the newest snapshot truncated, then the job run again: refused in one line, the
                previous one used, the weights equal.
  other_model   a folder written by a model of another width: refused, naming both shapes.
  unwritable    a snapshot folder that cannot be created: the job stops before training.
  two_jobs      a second job on a folder that a running job holds: refused at start.
Exit status 0 when everything expected happened; otherwise 1, with the reason and the outputs.
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid

PACE_MS = 200
EVERY = 5
STEPS = 30


class Job:
    """One torchrun job; its output is collected line by line as it comes."""

    def __init__(self, torchrun, program, folder, extra=(), restarts=3, nproc=2, steps=STEPS):
        self.tag = uuid.uuid4().hex
        env = dict(os.environ, TL_TEST_JOB=self.tag, TORCHLINGS_DIST_TIMEOUT_S="20")
        cmd = [torchrun, "--standalone", f"--nproc-per-node={nproc}",
               f"--max-restarts={restarts}", "--monitor-interval=0.2", "--no-python", program,
               "--device", "cpu", "--snapshot-dir", folder, "--snapshot-every", str(EVERY),
               "--steps", str(steps)] + list(extra)
        self.cmd = cmd
        self.lines = []
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, env=env, start_new_session=True)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def output(self):
        return "\n".join(self.lines)

    def wait_for(self, pattern, deadline, start=0):
        """Index of the first line from `start` matching `pattern`, waiting until `deadline`."""
        regex = re.compile(pattern)
        i = start
        while time.time() < deadline:
            while i < len(self.lines):
                if regex.search(self.lines[i]):
                    return i
                i += 1
            if self.proc.poll() is not None and not self.reader.is_alive():
                break
            time.sleep(0.02)
        raise AssertionError(f"no line matching {pattern!r}")

    def worker(self, rank, restart):
        """The process id of rank `rank` in restart `restart` of this job (from /proc)."""
        want = {b"TL_TEST_JOB=" + self.tag.encode(), b"RANK=" + str(rank).encode(),
                b"TORCHELASTIC_RESTART_COUNT=" + str(restart).encode()}
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/environ", "rb") as f:
                    env = set(f.read().split(b"\0"))
            except OSError:
                continue
            if want <= env:
                return int(pid)
        return None

    def finish(self, deadline):
        try:
            self.proc.wait(timeout=max(1, deadline - time.time()))
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            raise AssertionError("the job did not end in time (a hang)")
        self.reader.join(5)
        return self.proc.returncode


def kill(job, rank, restart, deadline):
    while time.time() < deadline:
        pid = job.worker(rank, restart)
        if pid:
            os.kill(pid, signal.SIGKILL)
            print(f"-- SIGKILL to rank {rank} (pid {pid}) of restart {restart}")
            return
        time.sleep(0.02)
    raise AssertionError(f"rank {rank} of restart {restart} never appeared")


def same_bytes(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        x, y = fa.read(), fb.read()
    if not x or x != y:
        diff = next((i for i in range(min(len(x), len(y))) if x[i] != y[i]), None)
        raise AssertionError(f"final weights differ: {a} ({len(x)} bytes) and {b} ({len(y)} "
                             f"bytes), first differing byte {diff}")
    print(f"-- final weights equal byte for byte ({len(x)} bytes)")


def reference(args, tmp, deadline):
    job = Job(args.torchrun, args.program, os.path.join(tmp, "ref"),
              ["--weights-out", os.path.join(tmp, "ref.bin")], restarts=0)
    jobs.append(job)
    assert job.finish(deadline) == 0, "the uninterrupted run failed"
    return os.path.join(tmp, "ref.bin")


def kill_twice(args, tmp, deadline):
    ref = reference(args, tmp, deadline)
    out = os.path.join(tmp, "run.bin")
    job = Job(args.torchrun, args.program, os.path.join(tmp, "run"),
              ["--weights-out", out, "--pace-ms", str(PACE_MS)])
    jobs.append(job)
    # After the snapshot of step 10, before the one of step 15: two steps later.
    job.wait_for(r"Snapshot: +step 10 ", deadline)
    time.sleep(2 * PACE_MS / 1000)
    kill(job, 1, 0, deadline)
    # The restarted group resumes from step 10; kill it again in its first steps.
    i = job.wait_for(r"Start: +step 10, epoch 0, from snapshot-00000010", deadline)
    time.sleep(1.5 * PACE_MS / 1000)
    kill(job, 1, 1, deadline)
    j = job.wait_for(r"Restart: +2", deadline, i + 1)
    assert not any(l.startswith("Snapshot:") for l in job.lines[i:j]), \
        "the second kill came after the restart's first snapshot, not in its first steps"
    assert job.finish(deadline) == 0, "the job did not finish after two restarts"
    job.wait_for(r"Finished: .*ranks identical: yes", deadline)
    same_bytes(ref, out)


def corrupt(args, tmp, deadline):
    ref = reference(args, tmp, deadline)
    folder = os.path.join(tmp, "ref")
    newest = sorted(f for f in os.listdir(folder) if f.startswith("snapshot-"))[-1]
    path = os.path.join(folder, newest)
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.truncate(size // 2)
    out = os.path.join(tmp, "again.bin")
    job = Job(args.torchrun, args.program, folder, ["--weights-out", out], restarts=0)
    jobs.append(job)
    assert job.finish(deadline) == 0, "the job did not finish with the previous snapshot"
    refused = [l for l in job.lines if "refused" in l]
    assert len(refused) == 1, f"expected one line refusing the snapshot, got {refused}"
    assert re.search(rf"{newest} refused: it is truncated \(\d+ of \d+ bytes\); using snapshot-",
                     refused[0]), refused[0]
    job.wait_for(r"Start: +step \d+, epoch \d+, from snapshot-", deadline)
    same_bytes(ref, out)


def other_model(args, tmp, deadline):
    folder = os.path.join(tmp, "narrow")
    job = Job(args.torchrun, args.program, folder, ["--hidden", "16"], restarts=0)
    jobs.append(job)
    assert job.finish(deadline) == 0, "the narrow model's run failed"
    job = Job(args.torchrun, args.program, folder, [], restarts=0)
    jobs.append(job)
    assert job.finish(deadline) != 0, "a snapshot of another model was accepted"
    job.wait_for(r"belongs to another model \(its parameters: 0\.weight\[16, 8\].*this model's: "
                 r"0\.weight\[32, 8\]", deadline)
    assert not any(l.startswith("Snapshot:") for l in job.lines), "it trained anyway"


def unwritable(args, tmp, deadline):
    blocker = os.path.join(tmp, "a-file")
    with open(blocker, "w") as f:
        f.write("not a folder\n")
    folder = os.path.join(blocker, "snapshots")
    job = Job(args.torchrun, args.program, folder, [], restarts=0)
    jobs.append(job)
    assert job.finish(deadline) != 0, "the job ran without a usable snapshot folder"
    job.wait_for(r"snapshot folder .*a-file/snapshots cannot be created", deadline)
    assert not any(l.startswith("Snapshot:") or l.startswith("Start:") for l in job.lines), \
        "it started training anyway"


def two_jobs(args, tmp, deadline):
    folder = os.path.join(tmp, "shared")
    # Long enough (1000 steps of 100 ms) to be running whenever the second job gets there.
    first = Job(args.torchrun, args.program, folder, ["--pace-ms", "100"], restarts=0,
                steps=1000)
    jobs.append(first)
    first.wait_for(r"Start: +step 0", deadline)
    second = Job(args.torchrun, args.program, folder, [], restarts=0)
    jobs.append(second)
    assert second.finish(deadline) != 0, "a second job started on a folder in use"
    second.wait_for(r"snapshot folder .*shared is in use by another job \(pid \d+ on ", deadline)
    assert not any(l.startswith("Start:") for l in second.lines), "the second job trained"
    assert first.proc.poll() is None, "the first job ended while the second was refused"
    first.wait_for(r"Snapshot: +step \d+", deadline)  # and it goes on writing its snapshots
    os.killpg(first.proc.pid, signal.SIGTERM)
    first.finish(deadline)


jobs = []


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("torchrun")
    parser.add_argument("program")
    parser.add_argument("scenario", choices=["kill_twice", "corrupt", "other_model",
                                             "unwritable", "two_jobs"])
    parser.add_argument("--deadline", type=float, default=150)
    args = parser.parse_args()
    deadline = time.time() + args.deadline
    tmp = tempfile.mkdtemp(prefix=f"tl-restart-{args.scenario}-")
    try:
        globals()[args.scenario](args, tmp, deadline)
        ok = True
    except AssertionError as error:
        print(f"FAILED: {error}")
        ok = False
    for job in jobs:
        if job.proc.poll() is None:
            os.killpg(job.proc.pid, signal.SIGKILL)
            job.proc.wait()
        print("---- " + " ".join(job.cmd[1:]) + f" (exit {job.proc.returncode})")
        if ok:  # the story in short: restarts, snapshots, refusals
            print("\n".join(l for l in job.lines if re.match(
                r"(Restart|Start|Snapshot|Finished|error|snapshot .* refused)", l)))
        else:
            print(job.output())
    if ok:
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        print(f"(files kept in {tmp})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
