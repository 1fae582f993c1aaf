#!/usr/bin/env python3
"""Keeps the Korean pages in step with their English pages (a CTest, label `docs`):

    python3 docs/check_translations.py <course root> [--every-lesson] [--runner PATH]

For every English page with a Korean sibling (the top README.md, each lessons/NN_topic/README.md,
each page of docs/; the sibling is NAME.ko.md beside it; a page of docs/ without one fails, but
for mainpage.md, whose Korean twin is optional) both pages must have, in the same order:
the same headings (by level), the same fenced code blocks (by info string), the same
`<!-- demo-output -->` / `<!-- gpu-output -->` markers; every ```text block (shown output) must be
identical, and every other code block must hold the same code: its comments (`#` in sh, cmake and
python; `//` and `/* */` in cpp) may be translated, reworded or wrapped differently, but once they
and blank lines are set aside the lines must be identical. In the cheat sheet every table row
must also hold the same code spans (the compiled C++ column). For each
exercises/NN_topic/info.ko.md: the ids of info.md, in the same order, with as many `### Hint` each,
as the runner reads them (`torchlings-runner list --json` in English and in Korean, through
docs/course_listing.py; --runner names it, else build/dev/bin/torchlings-runner under the course
root or this checkout; only a course with an info.ko.md needs it): an info.ko.md whose structure
differs is refused by the runner in Korean, and its message, naming the file and line, is the
problem reported.
With --every-lesson, a lesson without README.ko.md fails too.
Each notebook notebooks/NAME.ipynb needs its Korean twin NAME.ko.ipynb with the same cells in the
same order: the same cell types and tags, and code cells identical line for line but for one: the
English `LANGUAGE = ""` line must read `LANGUAGE = "ko"` in the twin (the runner then answers in
Korean); only the markdown cells are translated.
Exit status: 0 in step, 1 not (each problem on one line: file, section, what was expected).
"""
import json
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # importing course_listing leaves no __pycache__ in the course
from course_listing import ListingError, find_runner, listing, take_option  # noqa: E402

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(\{#[^}]*\})?\s*$")
MARKER = re.compile(r"^\s*(<!-- (?:demo|gpu)-output -->)\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# The comment syntax of each info string whose comments a translation may change.
HASH_COMMENTS = {"sh", "bash", "shell", "console", "cmake", "python", "py"}
SLASH_COMMENTS = {"cpp", "c++", "c", "cu", "cuda", "h", "hpp"}


def without_comments(code, language):
    """The lines of a code block with its comments and blank lines set aside: (line number in the
    block, code). Quotes are honoured (a `#` or `//` inside a string is code); in sh a `#` starts
    a comment only at the start of a word (`$#`, `${#x}` are code)."""
    out, in_block = [], False
    for number, line in enumerate(code.splitlines(), 1):
        if language not in HASH_COMMENTS | SLASH_COMMENTS:
            out.append((number, line.rstrip()))
            continue
        kept, quote, i = [], None, 0
        while i < len(line):
            c = line[i]
            if in_block:
                if line.startswith("*/", i):
                    in_block, i = False, i + 2
                else:
                    i += 1
                continue
            if quote:
                kept.append(c)
                if c == "\\" and i + 1 < len(line):
                    kept.append(line[i + 1])
                    i += 1
                elif c == quote:
                    quote = None
                i += 1
                continue
            if c in "\"'" and not (language in SLASH_COMMENTS and c == "'" and i > 0
                                    and line[i - 1].isalnum()):  # C++14 digit separator 1'000
                quote = c
            elif language in HASH_COMMENTS and c == "#" and (i == 0 or line[i - 1] in " \t;|&("):
                break
            elif language in SLASH_COMMENTS and line.startswith("//", i):
                break
            elif language in SLASH_COMMENTS and line.startswith("/*", i):
                in_block, i = True, i + 2
                continue
            kept.append(c)
            i += 1
        text = "".join(kept).rstrip()
        if text.strip():
            out.append((number, text))
    return out


def tokens(path):
    """Headings, fences (with their text) and output markers of a Markdown page, in order.
    Each token: (key, detail, line number, section heading it is in)."""
    out, section, fence, body, start = [], "(top of the page)", None, [], 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if fence:
            if line.strip().startswith(fence[0]) and line.strip() == fence[0][0] * len(line.strip()):
                out.append(("```" + fence[1], "\n".join(body), start, section))
                fence, body = None, []
            else:
                body.append(line)
            continue
        match = FENCE.match(line)
        if match:
            fence, start = (match.group(1), match.group(2)), number
            continue
        match = HEADING.match(line)
        if match:
            section = f"{match.group(1)} {match.group(2)}"
            out.append(("heading level %d" % len(match.group(1)), section, number, section))
            continue
        match = MARKER.match(line)
        if match:
            out.append((match.group(1), "", number, section))
    if fence:
        out.append(("unclosed ```" + fence[1], "", start, section))
    return out


def table_spans(path):
    """The code spans of each table row (outside fences), one list per row."""
    rows, in_fence = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and line.startswith("|"):
            spans = [m.group(2).strip() for m in CODE_SPAN.finditer(line)]
            if spans:
                rows.append((number, spans))
    return rows


def compare_page(root, english, korean, problems, spans=False):
    en_rel, ko_rel = english.relative_to(root), korean.relative_to(root)
    en, ko = tokens(english), tokens(korean)
    for i in range(max(len(en), len(ko))):
        e = en[i] if i < len(en) else None
        k = ko[i] if i < len(ko) else None
        if e and k and e[0] == k[0]:
            if e[0] == "```text" and e[1] != k[1]:
                el, kl = e[1].splitlines(), k[1].splitlines()
                at = next((j for j in range(max(len(el), len(kl)))
                           if j >= len(el) or j >= len(kl) or el[j] != kl[j]), 0)
                problems.append(
                    f"{ko_rel}:{k[2]}: in section '{k[3]}': the ```text block (shown output) must be "
                    f"identical to {en_rel}:{e[2]} (section '{e[3]}'); line {at + 1} differs: "
                    f"expected {el[at]!r}" if at < len(el) else
                    f"{ko_rel}:{k[2]}: in section '{k[3]}': the ```text block has more lines than "
                    f"{en_rel}:{e[2]} (section '{e[3]}')")
            elif e[0].startswith("```") and e[0] != "```text":
                language = e[0][3:].lower()
                el, kl = without_comments(e[1], language), without_comments(k[1], language)
                if [c for _, c in el] != [c for _, c in kl]:
                    at = next(j for j in range(max(len(el), len(kl)))
                              if j >= len(el) or j >= len(kl) or el[j][1] != kl[j][1])
                    block = f"the {e[0]} block at {ko_rel}:{k[2]} (section '{k[3]}')"
                    where_en = f"{en_rel}:{e[2]} (section '{e[3]}')"
                    if at >= len(el):
                        problems.append(f"{ko_rel}:{k[2] + kl[at][0]}: {block} has code that "
                                        f"{where_en} does not: {kl[at][1].strip()!r} (only "
                                        "comments may differ)")
                    elif at >= len(kl):
                        problems.append(f"{ko_rel}:{k[2]}: {block} ends before "
                                        f"{en_rel}:{e[2] + el[at][0]}: expected "
                                        f"{el[at][1].strip()!r} (only comments may differ)")
                    else:
                        problems.append(f"{ko_rel}:{k[2] + kl[at][0]}: {block}: code differs "
                                        f"from {en_rel}:{e[2] + el[at][0]}: expected "
                                        f"{el[at][1].strip()!r}, found {kl[at][1].strip()!r} "
                                        "(only comments may differ)")
            continue
        if e is None:
            problems.append(f"{ko_rel}:{k[2]}: in section '{k[3]}': {k[0]} that {en_rel} does not "
                            f"have (it ends after section '{en[-1][3] if en else '-'}')")
        elif k is None:
            problems.append(f"{ko_rel}: ends too early: expected {e[0]} as in {en_rel}:{e[2]} "
                            f"(section '{e[3]}')")
        else:
            problems.append(f"{ko_rel}:{k[2]}: in section '{k[3]}': expected {e[0]} as in "
                            f"{en_rel}:{e[2]} (section '{e[3]}'), found {k[0]}")
        return  # after the first difference the rest would only repeat it
    if spans:
        en_rows, ko_rows = table_spans(english), table_spans(korean)
        for (en_line, e), (ko_line, k) in zip(en_rows, ko_rows):
            if e != k:
                problems.append(f"{ko_rel}:{ko_line}: table row's code spans {k} differ from "
                                f"{en_rel}:{en_line}: expected {e}")
                return
        if len(en_rows) != len(ko_rows):
            problems.append(f"{ko_rel}: {len(ko_rows)} table rows with code spans, expected "
                            f"{len(en_rows)} as in {en_rel}")


def compare_exercises(root, runner, translated, problems):
    """The runner's English and Korean listings of the lessons in `translated` (folders with an
    info.ko.md): the same ids in the same order, as many hints each. The runner in Korean refuses
    an info.ko.md of another structure; its message is then the problem."""
    try:
        runner = find_runner(root, runner)
        en, ko = listing(root, runner, "en"), listing(root, runner, "ko")
    except ListingError as error:
        problems.append(f"exercises/*/info.ko.md: {error}")
        return
    ko_lessons = {lesson["folder"]: lesson for lesson in ko["lessons"]}
    for folder in sorted(translated - ko_lessons.keys()):
        problems.append(f"exercises/{folder}/info.ko.md: the runner reads no lesson "
                        f"lessons/{folder}/, so this translation translates nothing")
    for lesson in en["lessons"]:
        if lesson["folder"] not in translated:
            continue
        rel = f"exercises/{lesson['folder']}/info.ko.md"
        en_ex = [(e["id"], len(e["hints"])) for e in lesson["exercises"]]
        ko_ex = [(e["id"], len(e["hints"]))
                 for e in ko_lessons.get(lesson["folder"], {}).get("exercises", [])]
        if [e[0] for e in en_ex] != [k[0] for k in ko_ex]:
            problems.append(f"{rel}: declares exercises {[k[0] for k in ko_ex]}, expected "
                            f"{[e[0] for e in en_ex]} in this order (as its info.md)")
            continue
        for (id_, en_hints), (_, ko_hints) in zip(en_ex, ko_ex):
            if en_hints != ko_hints:
                problems.append(f"{rel}: section '## {id_}': {ko_hints} '### Hint', expected "
                                f"{en_hints} (as its info.md)")


LANGUAGE_EN = 'LANGUAGE = ""'
LANGUAGE_KO = 'LANGUAGE = "ko"'


def notebook_cells(path, problems, root):
    """The cells of a notebook as (type, tags, source text), or None (a problem recorded) when it
    cannot be read."""
    try:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return [(c["cell_type"], c.get("metadata", {}).get("tags", []),
                 "".join(c["source"]) if isinstance(c["source"], list) else c["source"])
                for c in cells]
    except (OSError, ValueError, KeyError, TypeError) as error:
        problems.append(f"{path.relative_to(root)}: not a notebook that can be read ({error})")
        return None


def compare_notebook(root, english, korean, problems):
    """The Korean notebook's cells against the English notebook's (see the module's docstring);
    the first difference is reported."""
    en_rel, ko_rel = english.relative_to(root), korean.relative_to(root)
    en, ko = notebook_cells(english, problems, root), notebook_cells(korean, problems, root)
    if en is None or ko is None:
        return
    for number, (e, k) in enumerate(zip(en, ko), 1):
        cell = f"{ko_rel}: cell {number}" + (f" (tags {e[1]})" if e[1] else "")
        if e[0] != k[0]:
            problems.append(f"{cell}: a {k[0]} cell, expected a {e[0]} cell as in {en_rel}")
            return
        if e[1] != k[1]:
            problems.append(f"{cell}: tags {k[1]}, expected {e[1]} as in {en_rel}")
            return
        if e[0] != "code":
            continue
        expected = [line.replace(LANGUAGE_EN, LANGUAGE_KO, 1) if line.startswith(LANGUAGE_EN)
                    else line for line in e[2].split("\n")]
        found = k[2].split("\n")
        if expected != found:
            at = next(j for j in range(max(len(expected), len(found)))
                      if j >= len(expected) or j >= len(found) or expected[j] != found[j])
            want = expected[at] if at < len(expected) else "(the end of the cell)"
            got = found[at] if at < len(found) else "(the end of the cell)"
            problems.append(f"{cell}, line {at + 1}: code differs from {en_rel}: expected "
                            f"{want!r}, found {got!r} (code cells are the English notebook's, "
                            f"with {LANGUAGE_KO} for {LANGUAGE_EN})")
            return
    if len(en) != len(ko):
        problems.append(f"{ko_rel}: {len(ko)} cells, expected {len(en)} as in {en_rel}")


def main():
    args = sys.argv[1:]
    runner = take_option(args, "--runner", __doc__)
    args = [a for a in args if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__)
    root = Path(args[0]).resolve()
    problems, pairs = [], 0
    lessons = sorted(p for p in (root / "lessons").glob("[0-9][0-9]_*") if p.is_dir())
    # The pages of docs/ that the site shows in both languages (docs/site.py): each needs its twin.
    docs = sorted(p for p in (root / "docs").glob("*.md") if not p.name.endswith(".ko.md"))
    pages = [(root / "README.md", False)]
    pages += [(page, page.name == "cheatsheet.md") for page in docs]
    pages += [(lesson / "README.md", False) for lesson in lessons]
    for english, spans in pages:
        korean = english.with_suffix(".ko.md")
        if korean.exists():
            pairs += 1
            compare_page(root, english, korean, problems, spans)
        elif english.parent == root / "docs" and english.name != "mainpage.md":
            problems.append(f"{korean.relative_to(root)}: missing: every page of docs/ has a "
                            f"Korean twin (translate docs/{english.name})")
    for english in sorted((root / "notebooks").glob("*.ipynb")):
        if english.name.endswith(".ko.ipynb"):
            continue
        korean = english.with_name(english.name[:-len(".ipynb")] + ".ko.ipynb")
        if korean.exists():
            pairs += 1
            compare_notebook(root, english, korean, problems)
        else:
            problems.append(f"{korean.relative_to(root)}: missing: every notebook has a Korean "
                            f"twin (translate the markdown cells of notebooks/{english.name})")
    if "--every-lesson" in sys.argv:
        for lesson in lessons:
            if not (lesson / "README.ko.md").exists():
                problems.append(f"{(lesson / 'README.ko.md').relative_to(root)}: missing: every "
                                f"lesson has a Korean page (translate {lesson.name}/README.md)")
    translated = {p.parent.name for p in (root / "exercises").glob("[0-9][0-9]_*/info.ko.md")}
    if translated:
        pairs += len(translated)
        compare_exercises(root, runner, translated, problems)
    if problems:
        print("The Korean pages and their English pages disagree:", *problems, sep="\n  ")
        return 1
    print(f"translations: {pairs} Korean pages and notebooks in step with their English ones")
    return 0


if __name__ == "__main__":
    sys.exit(main())
