#!/usr/bin/env python3
"""Fails unless the devcontainer sets itself up with the README's first command, exactly (the
CTest docs/devcontainer_runs_the_readme_first_command, label `docs`).

    python3 docs/check_devcontainer.py [--root ROOT]

ROOT is the course (by default the folder above docs/). The README owns the command: the first
line of its first ```sh block, without its # comment. scripts/ci/stock_debian_check.sh runs that
same line on a stock Debian 13 root, so a devcontainer (Debian 13 too) whose postCreateCommand is
that line does what CI proves. Fails when .devcontainer/devcontainer.json's postCreateCommand is
anything else (another command, one with more in it, an array form), or when either file cannot
be read.

devcontainer.json is JSON with comments (// to the end of the line, /* ... */); they are dropped
before the JSON is read, outside strings only, so that a // in a string (a URL) stays.
"""
import argparse
import json
import re
import sys
from pathlib import Path

README = "README.md"
CONFIG = ".devcontainer/devcontainer.json"
FENCE = re.compile(r"```sh[ \t]*")
JSON_TYPES = {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
              int: "a number", float: "a number", type(None): "null"}


class DevcontainerError(Exception):
    """What is wrong with the README or devcontainer.json: the message to print."""


def first_command(text):
    """The first line of the first ```sh block in `text`, without its # comment."""
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if FENCE.fullmatch(line.rstrip("\r")):
            # The block's first line that is not blank.
            for following in lines[number + 1:]:
                command = re.sub(r"[ \t]+#.*$", "", following.rstrip("\r")).strip()
                if command:
                    if not command.startswith("```"):
                        return command
                    break
            break
    raise DevcontainerError(f"{README}: no first command (the first line of its first ```sh "
                            "block)")


def without_comments(text):
    """`text` with its // and /* */ comments dropped; strings (and a // in one) are kept."""
    kept = []
    start = 0  # the first character not yet copied to `kept`
    at = 0
    while at < len(text):
        if text[at] == '"':
            at += 1
            while at < len(text) and text[at] != '"':
                at += 2 if text[at] == "\\" else 1
            at += 1
        elif text.startswith("//", at):
            kept.append(text[start:at])
            end = text.find("\n", at)
            at = start = len(text) if end < 0 else end
        elif text.startswith("/*", at):
            kept.append(text[start:at])
            end = text.find("*/", at + 2)
            if end < 0:
                raise DevcontainerError(f"{CONFIG}: a /* comment is never closed")
            kept.append(" " + "\n" * text.count("\n", at, end))  # later lines keep their numbers
            at = start = end + 2
        else:
            at += 1
    kept.append(text[start:])
    return "".join(kept)


def check(root):
    """The README's first command, once devcontainer.json's postCreateCommand is found equal."""
    try:
        readme = (root / README).read_text(encoding="utf-8")
    except OSError as error:
        raise DevcontainerError(f"{README}: cannot be read ({error.strerror})") from error
    first = first_command(readme)

    path = root / CONFIG
    if not path.exists():
        raise DevcontainerError(f"{CONFIG}: missing")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise DevcontainerError(f"{CONFIG}: cannot be read ({error.strerror})") from error
    try:
        config = json.loads(without_comments(text))
    except json.JSONDecodeError as error:
        raise DevcontainerError(f"{CONFIG}:{error.lineno}: not JSON with comments "
                                f"({error.msg}; a comma after the last item of an object or "
                                "array is one thing it does not take)") from error
    if not isinstance(config, dict) or "postCreateCommand" not in config:
        raise DevcontainerError(f"{CONFIG}: no postCreateCommand; make it the README's first "
                                f"command as one string: \"{first}\"")
    command = config["postCreateCommand"]
    if not isinstance(command, str):
        kind = JSON_TYPES.get(type(command), type(command).__name__)
        raise DevcontainerError(f"{CONFIG}: postCreateCommand is {kind}; make it the README's "
                                f"first command as one string: \"{first}\"")
    if command != first:
        raise DevcontainerError(f"{CONFIG}: postCreateCommand is \"{command}\", but {README}'s "
                                f"first command is \"{first}\"; they must be the same, so that "
                                "the devcontainer does what scripts/ci/stock_debian_check.sh "
                                "proves")
    return first


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="the course (default: the folder above docs/)")
    args = parser.parse_args(argv)
    try:
        first = check(args.root)
    except DevcontainerError as error:
        print(error, file=sys.stderr)
        return 1
    print(f"devcontainer: postCreateCommand is the README's first command ({first})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
