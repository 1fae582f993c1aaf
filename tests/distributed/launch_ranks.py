#!/usr/bin/env python3
"""Starts a lesson-10 job as separate processes on 127.0.0.1 and checks how it ends.

Each rank gets the variables torchrun would give it (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR,
MASTER_PORT) and a port of its own picked from the free ones, so tests can run side by side.

  launch_ranks.py PROGRAM --nproc N [--start 0,1,...] [--kill-rank R --kill-when TEXT]
                  [--occupy-port] [--dist-timeout S] [--deadline S]
                  [--expect-exit ok|fail] [--stdout REGEX]... [--stderr REGEX]...

--start: the ranks to start (default: all); the others never arrive.
--kill-rank/--kill-when: kill that rank (SIGKILL) once rank 0's output shows TEXT.
--occupy-port: hold MASTER_PORT open before the job starts (a port already in use).
--dist-timeout: TORCHLINGS_DIST_TIMEOUT_S for the job (the rendezvous and collective timeout).
--deadline: every process must have ended within this many seconds, or the test fails (a hang).
--stdout/--stderr: regular expressions rank 0's output must match.
Exit status 0 when everything expected happened; otherwise 1, with the reason and the outputs.
"""
import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("program")
    parser.add_argument("--nproc", type=int, required=True)
    parser.add_argument("--start", default="")
    parser.add_argument("--kill-rank", type=int)
    parser.add_argument("--kill-when", default="")
    parser.add_argument("--occupy-port", action="store_true")
    parser.add_argument("--dist-timeout", type=int, default=20)
    parser.add_argument("--deadline", type=float, default=90)
    parser.add_argument("--expect-exit", choices=["ok", "fail"], default="ok")
    parser.add_argument("--stdout", action="append", default=[])
    parser.add_argument("--stderr", action="append", default=[])
    args = parser.parse_args()

    ranks = [int(r) for r in args.start.split(",")] if args.start else list(range(args.nproc))
    holder = None
    if args.occupy_port:
        holder = socket.socket()
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
    else:
        port = free_port()

    processes = {}
    outputs = {r: ["", ""] for r in ranks}
    for rank in ranks:
        env = dict(os.environ, RANK=str(rank), WORLD_SIZE=str(args.nproc), LOCAL_RANK=str(rank),
                   MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), OMP_NUM_THREADS="1",
                   TORCHLINGS_DIST_TIMEOUT_S=str(args.dist_timeout))
        env.pop("TORCHELASTIC_USE_AGENT_STORE", None)
        processes[rank] = subprocess.Popen([args.program, "--device", "cpu"], env=env,
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           text=True)

    killed = threading.Event()

    def read(rank, index, stream):
        for line in stream:
            outputs[rank][index] += line
            if (args.kill_rank is not None and rank == 0 and index == 0 and
                    args.kill_when in line and not killed.is_set()):
                processes[args.kill_rank].send_signal(signal.SIGKILL)
                killed.set()

    readers = []
    for rank, process in processes.items():
        for index, stream in enumerate((process.stdout, process.stderr)):
            reader = threading.Thread(target=read, args=(rank, index, stream), daemon=True)
            reader.start()
            readers.append(reader)

    start = time.monotonic()
    hung = []
    for rank, process in processes.items():
        try:
            process.wait(timeout=max(0.1, args.deadline - (time.monotonic() - start)))
        except subprocess.TimeoutExpired:
            hung.append(rank)
            process.kill()
            process.wait()
    for reader in readers:
        reader.join(timeout=5)
    elapsed = time.monotonic() - start
    if holder:
        holder.close()

    problems = []
    if hung:
        problems.append(f"ranks {hung} were still running after {args.deadline} s (a hang)")
    if args.kill_rank is not None and not killed.is_set():
        problems.append(f"rank 0 never printed {args.kill_when!r}: rank {args.kill_rank} "
                        "was not killed")
    code = processes[0].returncode
    if args.expect_exit == "ok":
        failed = {r: p.returncode for r, p in processes.items() if p.returncode != 0}
        if failed:
            problems.append(f"exit codes {failed}, expected 0 from every rank")
    elif code == 0 or code is None:
        problems.append(f"rank 0 exited with {code}, expected a failure")
    for pattern in args.stdout:
        if not re.search(pattern, outputs[0][0], re.MULTILINE):
            problems.append(f"rank 0's output does not match {pattern!r}")
    for pattern in args.stderr:
        if not re.search(pattern, outputs[0][1], re.MULTILINE):
            problems.append(f"rank 0's errors do not match {pattern!r}")

    print(f"{len(ranks)} of {args.nproc} ranks started on port {port}; ended after "
          f"{elapsed:.1f} s; exit codes "
          + ", ".join(f"rank {r}: {p.returncode}" for r, p in processes.items()))
    for rank in ranks:
        print(f"--- rank {rank} stdout ---\n{outputs[rank][0]}--- rank {rank} stderr ---\n"
              f"{outputs[rank][1]}")
    for problem in problems:
        print("FAILED:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
