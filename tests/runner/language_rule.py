"""The wrapper's language rule (scripts/setup/language.sh) gives the runner's answer
(runner/core/language.cpp) in every environment of a matrix of TORCHLINGS_LANG, LC_ALL,
LC_MESSAGES and LANG: unset, empty, Korean, English and other values.

    python3 language_rule.py <course root> <torchlings-runner>
"""
import itertools
import json
import os
import subprocess
import sys

ROOT, RUNNER = sys.argv[1], sys.argv[2]
VALUES = {
    "TORCHLINGS_LANG": [None, "", "ko", "en", "fr"],
    "LC_ALL": [None, "", "ko_KR.UTF-8", "C.UTF-8"],
    "LC_MESSAGES": [None, "ko_KR.UTF-8", "en_US.UTF-8"],
    "LANG": [None, "", "ko_KR.UTF-8", "de_DE.UTF-8"],
}


def environment(choice):
    env = {k: v for k, v in os.environ.items() if k not in VALUES}
    env.update({k: v for k, v in choice.items() if v is not None})
    return env


def wrapper_language(env):
    script = os.path.join(ROOT, "scripts", "setup", "language.sh")
    return subprocess.run(["sh", script], env=env, check=True, capture_output=True,
                          text=True).stdout.strip()


def runner_language(env):
    out = subprocess.run([RUNNER, "--root", ROOT, "list", "--json"], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)["language"]


disagreements = []
cases = 0
for values in itertools.product(*VALUES.values()):
    choice = dict(zip(VALUES, values))
    env = environment(choice)
    wrapper, runner = wrapper_language(env), runner_language(env)
    cases += 1
    if wrapper != runner:
        disagreements.append(f"  {choice}: wrapper {wrapper}, runner {runner}")
# The matrix must reach both answers, or it proves nothing.
answers = {runner_language(environment({"TORCHLINGS_LANG": lang})) for lang in ("ko", "en")}
if answers != {"ko", "en"}:
    sys.exit(f"the runner answered {sorted(answers)} for TORCHLINGS_LANG=ko and en")
if disagreements:
    print(f"{len(disagreements)} of {cases} environments get another language from the wrapper "
          "than from the runner:\n" + "\n".join(disagreements))
    sys.exit(1)
print(f"the wrapper and the runner choose the same language in all {cases} environments")
