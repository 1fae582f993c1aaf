#!/usr/bin/env python3
"""Two torchrun agents on 127.0.0.1, as two machines would start them, against one agent.

  two_nodes.py TORCHRUN PROGRAM static|elastic [--deadline S]

Runs lesson 10's restartable training (section 8, 24 steps) three ways on ports of their own:
one agent with 4 processes, then two agents with 2 processes each, started together. static:
--nnodes=2 --node-rank=0/1 --master-addr=127.0.0.1 --master-port=P. elastic: --nnodes=1:2
--rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:P (the agents agree on node ranks themselves).
Checks: world size 4; ranks 0-3, each node holding local ranks 0 and 1; the final weights equal the
one-agent run's byte for byte. Exit status 0 when they do; otherwise 1, with the outputs.
"""
import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(cmd, env):
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, start_new_session=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("torchrun")
    parser.add_argument("program")
    parser.add_argument("mode", choices=["static", "elastic"])
    parser.add_argument("--deadline", type=float, default=150)
    args = parser.parse_args()
    deadline = time.time() + args.deadline
    tmp = tempfile.mkdtemp(prefix=f"tl-two-nodes-{args.mode}-")
    env = dict(os.environ, TORCHLINGS_DIST_TIMEOUT_S="30")
    lesson = ["--no-python", args.program, "--device", "cpu", "--steps", "24"]
    runs = {}

    def finish(name, procs):
        outputs = []
        for p in procs:
            try:
                out, _ = p.communicate(timeout=max(1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                for q in procs:
                    if q.poll() is None:
                        os.killpg(q.pid, signal.SIGKILL)
                out, _ = p.communicate()
                outputs.append(out)
                runs[name] = outputs
                raise AssertionError(f"{name}: did not end in time (a hang)")
            outputs.append(out)
        runs[name] = outputs
        for p, out in zip(procs, outputs):
            if p.returncode != 0:
                raise AssertionError(f"{name}: an agent ended with exit status {p.returncode}")
        return outputs

    ok = False
    try:
        one = os.path.join(tmp, "one.bin")
        finish("one agent, 4 processes", [start(
            [args.torchrun, "--standalone", "--nproc-per-node=4"] + lesson +
            ["--snapshot-dir", os.path.join(tmp, "one"), "--weights-out", one], env)])

        two = os.path.join(tmp, "two.bin")
        port = free_port()
        run_id = f"--rdzv-id=tl{uuid.uuid4().hex[:8]}"  # one job id for both agents
        agents = []
        for node in (0, 1):
            if args.mode == "static":
                agents.append(["--nnodes=2", f"--node-rank={node}", "--master-addr=127.0.0.1",
                               f"--master-port={port}"])
            else:
                agents.append(["--nnodes=1:2", "--rdzv-backend=c10d",
                               f"--rdzv-endpoint=127.0.0.1:{port}", run_id])
        procs = [start([args.torchrun] + launch +
                       ["--nproc-per-node=2", "--local-addr=127.0.0.1"] + lesson +
                       ["--snapshot-dir", os.path.join(tmp, "two"), "--weights-out", two], env)
                 for launch in agents]
        outputs = finish(f"two agents ({args.mode})", procs)
        text = "\n".join(outputs)
        match = re.search(r"^Ranks: +(.*)$", text, re.M)
        assert match, "no line 'Ranks:' in rank 0's output"
        seen = re.findall(r"(\d+) \(node (\d+), local (\d+)\)", match.group(1))
        ranks = sorted(int(r) for r, _, _ in seen)
        assert ranks == [0, 1, 2, 3], f"world of ranks {ranks}, expected 0-3"
        by_node = {}
        for _, node, local in seen:
            by_node.setdefault(int(node), []).append(int(local))
        assert sorted(by_node) == [0, 1], f"nodes {sorted(by_node)}, expected 0 and 1"
        for node, locals_ in by_node.items():
            assert sorted(locals_) == [0, 1], f"node {node} holds local ranks {locals_}"
        print(f"-- ranks: {match.group(1)}")
        with open(one, "rb") as a, open(two, "rb") as b:
            x, y = a.read(), b.read()
        assert x and x == y, "the two-node run's final weights differ from the one-node run's"
        print(f"-- final weights equal the one-node run's byte for byte ({len(x)} bytes)")
        ok = True
    except AssertionError as error:
        print(f"FAILED: {error}")
    if not ok:
        for name, outputs in runs.items():
            for i, out in enumerate(outputs):
                print(f"---- {name}, agent {i}\n{out}")
    shutil.rmtree(tmp, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
