#!/usr/bin/env python3
"""Builds the course's site (the `docs` target):

    python3 docs/site.py <course root> <stage folder> [<doxygen> <Doxyfile>]

Doxygen cannot be told the order of pages, a page's name when its first line is not its title,
or where a GitHub-style link (`README.md#section`) points, so the pages are staged first: each
Markdown page of the site is copied into <stage folder> under its page name, with
- its title labelled with the page name (lesson01, lesson01_ko, exercises01, cheatsheet_ko, ...);
- the language line (`[English](README.md) · 한국어`) made the switch to the other language's page;
- every relative link to a staged page (or to a section of one) turned into a Doxygen reference,
  each link to an exercise's file (exercises/NN_topic/id.cpp) and each `id` of a lesson's exercise
  table into a reference to the exercise on its lesson's exercise page, which shows the file;
- lesson pages ending with links to the previous and the next lesson;
- mainpage.md listing the lessons in order in both languages, and the other pages.
A link to a Korean page not written yet leads to the English one; a link to a file the site has
no page for stops the build (name the page, or drop the link).
Then Doxygen runs over the staged pages and common/ (warnings are errors): <build>/docs/html.
"""
import re
import subprocess
import sys
from pathlib import Path

LINK = re.compile(r"(!?)\[((?:[^\]`]|`[^`]*`)*)\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(\{#[^}]*\})?\s*$")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
SWITCH = re.compile(r"^(\[English\]\([^)]*\) · 한국어|English · \[한국어\]\([^)]*\))\s*$")
EXERCISE = re.compile(r"^## ([a-z0-9_]+):")
IMAGES = (".png", ".svg", ".jpg", ".jpeg", ".gif")


def slug(text):
    """GitHub's anchor for a heading."""
    text = re.sub(r"\{#[^}]*\}", "", text).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


class Page:
    def __init__(self, source, name, lang, kind, number=None):
        self.source, self.name, self.lang, self.kind, self.number = source, name, lang, kind, number
        self.lines = source.read_text(encoding="utf-8").splitlines()
        self.title = next((HEADING.match(l).group(2) for l in self.lines if HEADING.match(l)), name)
        self.anchors = {}  # GitHub slug -> Doxygen label, for the sections that links point to
        self.other = None  # the same page in the other language

    def headings(self):
        """(line index, level, text) of every heading outside code fences."""
        fence = None
        for i, line in enumerate(self.lines):
            m = FENCE.match(line)
            if m and (fence is None or m.group(1)[0] == fence):
                fence = None if fence else m.group(1)[0]
                continue
            if fence is None and (h := HEADING.match(line)):
                yield i, len(h.group(1)), h.group(2)


def collect(root):
    pages, lessons = {}, []

    def add(path, name, lang, kind, number=None):
        if path.exists():
            pages[path.relative_to(root).as_posix()] = page = Page(path, name, lang, kind, number)
            return page
        return None

    def pair(english_path, name, kind, number=None):
        en = add(english_path, name, "en", kind, number)
        ko = add(english_path.with_suffix(".ko.md"), name + "_ko", "ko", kind, number)
        if en and ko:
            en.other, ko.other = ko, en
        return en, ko

    pair(root / "README.md", "readme", "readme")
    for folder in sorted(p for p in (root / "lessons").glob("[0-9][0-9]_*") if p.is_dir()):
        number = folder.name[:2]
        lessons.append((number, folder.name) + pair(folder / "README.md", "lesson" + number,
                                                    "lesson", number)
                       + pair(root / "exercises" / folder.name / "info.md", "exercises" + number,
                              "exercises", number))
    pair(root / "docs" / "cheatsheet.md", "cheatsheet", "cheatsheet")
    add(root / "docs" / "glossary.ko.md", "glossary_ko", "ko", "glossary")
    add(root / "runner" / "README.md", "runner_readme", "en", "runner")
    return pages, lessons


def exercise_ids(page):
    return [m.group(1) for l in page.lines if (m := EXERCISE.match(l))] if page else []


def stage(root, out):
    pages, lessons = collect(root)
    # Where an exercise is shown: its lesson's exercise page in each language (English if the
    # Korean one is missing).
    exercise_of, file_of = {}, {}  # (id, lang) -> label; exercises/NN_topic/id.cpp -> id
    for number, folder, _, _, ex_en, ex_ko in lessons:
        for id_ in exercise_ids(ex_en):
            exercise_of[(id_, "en")] = f"ex_{id_}"
            exercise_of[(id_, "ko")] = f"ex_{id_}_ko" if id_ in exercise_ids(ex_ko) else f"ex_{id_}"
            file_of[f"exercises/{folder}/{id_}.cpp"] = id_
    problems = []

    def target(page, href):
        """The Doxygen reference for a link of `page`, or None to leave it as it is."""
        if re.match(r"^[a-z]+:|^@|^//", href):
            return None
        path, _, fragment = href.partition("#")
        if path:
            resolved = (page.source.parent / path).resolve()
            try:
                rel = resolved.relative_to(root).as_posix()
            except ValueError:
                rel = None
        else:
            rel = page.source.relative_to(root).as_posix()
        if rel and rel.endswith(".ko.md") and rel not in pages:
            rel = rel[:-len(".ko.md")] + ".md"  # not translated yet: the English page
        if rel in file_of:
            return "@ref " + exercise_of[(file_of[rel], page.lang)]
        if rel in pages:
            linked = pages[rel]
            if not fragment:
                return "@ref " + linked.name
            for _, _, text in linked.headings():
                if slug(text) == fragment:
                    label = linked.anchors.setdefault(fragment, f"{linked.name}_s{len(linked.anchors)}")
                    return "@ref " + label
            problems.append(f"{page.source.relative_to(root)}: link {href}: no such section")
            return None
        if path.lower().endswith(IMAGES):
            if not resolved.exists():
                problems.append(f"{page.source.relative_to(root)}: image {href}: no such file")
            return None  # Doxygen finds it in IMAGE_PATH and copies it
        problems.append(f"{page.source.relative_to(root)}: link {href}: the site has no page for "
                        f"{rel or path}; link a lesson, an exercise, a README or the cheat sheet")
        return None

    # Links first (they decide which sections need labels), then the pages.
    texts = {}
    for page in pages.values():
        fence = None
        lines = []
        for line in page.lines:
            m = FENCE.match(line)
            if m and (fence is None or m.group(1)[0] == fence):
                fence = None if fence else m.group(1)[0]
            elif fence is None:
                line = LINK.sub(lambda m: (f"{m.group(1)}[{m.group(2)}]({t})"
                                           if (t := target(page, m.group(3))) else m.group(0)), line)
                # An exercise table's row: `id` | ... links to the exercise.
                row = re.match(r"^\| `([a-z0-9_]+)` \|", line)
                if page.kind == "lesson" and row and (row.group(1), page.lang) in exercise_of:
                    id_ = row.group(1)
                    line = line.replace(f"`{id_}`", f"[`{id_}`](@ref {exercise_of[(id_, page.lang)]})", 1)
            lines.append(line)
        texts[page.name] = lines
    if problems:
        sys.exit("site: broken links in the pages:\n  " + "\n  ".join(problems))

    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.md"):
        old.unlink()
    by_number = {number: (en, ko) for number, _, en, ko, _, _ in lessons}
    numbers = [n for n, _, en, _, _, _ in lessons if en]
    for page in pages.values():
        lines = [None if SWITCH.match(l) else l for l in texts[page.name]]  # dropped at the end
        heading_at = {i: (level, text) for i, level, text in page.headings()}
        for i, (level, text) in heading_at.items():
            label = next((lab for s, lab in page.anchors.items() if slug(text) == s), None)
            if i == min(heading_at):
                label = page.name
            if page.kind == "exercises" and (m := EXERCISE.match(lines[i])):
                label = exercise_of[(m.group(1), page.lang)]
            if label:
                lines[i] = f"{'#' * level} {text} {{#{label}}}"
        if page.kind == "exercises":
            # Under each exercise's title, the file the learner completes.
            folder = next(f for n, f, *_ in lessons if n == page.number)
            for i in sorted((i for i in heading_at if EXERCISE.match(page.lines[i])), reverse=True):
                id_ = EXERCISE.match(page.lines[i]).group(1)
                file = f"exercises/{folder}/{id_}.cpp"
                if not (root / file).exists():
                    continue
                say = (f"내가 작성할 파일: `{file}` (`./torchlings check {id_}`로 확인합니다)" if page.lang == "ko"
                       else f"Your file, `{file}` (check it with `./torchlings check {id_}`):")
                lines[i + 1:i + 1] = ["", say, "", f"@include {folder}/{id_}.cpp"]
        first = min(heading_at) if heading_at else 0
        extra = []
        if page.other:
            extra.append(f"English · [한국어](@ref {page.other.name})" if page.lang == "en"
                         else f"[English](@ref {page.other.name}) · 한국어")
        if page.kind in ("lesson", "exercises"):
            ko = page.lang == "ko"
            en_lesson, ko_lesson = by_number[page.number]
            lesson = ko_lesson if ko and ko_lesson else en_lesson
            exercises_page = next((x for n, _, _, _, xe, xk in lessons if n == page.number
                                   for x in ([xk, xe] if ko else [xe]) if x), None)
            if page.kind == "exercises":
                extra.append(f"[{'강의' if ko else 'Lesson'} {page.number}](@ref {lesson.name})")
            elif exercises_page:
                extra.append(f"[{'연습 문제' if ko else 'Exercises'}](@ref {exercises_page.name})")
        if extra:
            lines[first + 1:first + 1] = ["", " · ".join(extra)]
        if page.kind == "lesson":
            at = numbers.index(page.number)
            word = "강의" if page.lang == "ko" else "Lesson"
            nav = []
            for n, arrow in ((numbers[at - 1] if at else None, "←"),
                             (numbers[at + 1] if at + 1 < len(numbers) else None, "→")):
                if n:
                    en, ko = by_number[n]
                    other = ko if page.lang == "ko" and ko else en
                    text = f"← {word} {n}" if arrow == "←" else f"{word} {n} →"
                    nav.append(f"[{text}](@ref {other.name})")
            nav.insert(1 if len(nav) and numbers.index(page.number) else 0,
                       f"[{'목차' if page.lang == 'ko' else 'Contents'}](@ref mainpage)")
            lines += ["", "---", "", " · ".join(nav)]
        if page.kind == "exercises" and page.lang == "ko":  # the runner reads "### Hint"
            lines = ["### 힌트" if l is not None and re.match(r"^### Hint\s*$", l) else l for l in lines]
        lines = [l for l in lines if l is not None]
        while lines and not lines[0].strip():
            lines.pop(0)
        (out / f"{page.name}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")

    # The main page: docs/mainpage.md, then every page in order (each once, as a subpage).
    main = (root / "docs" / "mainpage.md").read_text(encoding="utf-8").rstrip("\n").splitlines()
    main += ["", "## Lessons", ""]
    for number, _, en, ko, ex_en, ex_ko in lessons:
        if en:
            row = f"- @subpage {en.name}"
            if ex_en:
                row += f" · @subpage {ex_en.name} \"exercises\""
            main.append(row)
    if any(ko or ex_ko for _, _, _, ko, _, ex_ko in lessons):
        main += ["", "## 강의 (한국어)", ""]
    for number, _, en, ko, ex_en, ex_ko in lessons:
        if ko or ex_ko:
            row = f"- @subpage {ko.name}" if ko else f"- 강의 {number}: @ref {en.name} \"English\""
            if ex_ko:
                row += f" · @subpage {ex_ko.name} \"연습 문제\""
            main.append(row)
    main += ["", "## More", ""]
    for name, text in (("readme", "The course's README"), ("readme_ko", "과정 README (한국어)"),
                       ("cheatsheet", None), ("cheatsheet_ko", None), ("glossary_ko", None),
                       ("runner_readme", "The runner: commands, exit codes, metadata")):
        if any(p.name == name for p in pages.values()):
            main.append(f"- @subpage {name}" + (f" \"{text}\"" if text else ""))
    main += ["- The API reference of `common/`: "
             "[classes](annotated.html), [files](files.html)"]
    (out / "mainpage.md").write_text("\n".join(main) + "\n", encoding="utf-8")
    return sorted(out.glob("*.md"))


def check_links(html):
    """Every href/src of every page that points into the site names a file that exists and, with
    #anchor, an id or name in it. Returns the broken ones."""
    ids, broken = {}, []
    attribute = re.compile(r"""\b(href|src)\s*=\s*["']([^"']*)["']""")

    def anchors(path):
        if path not in ids:
            text = path.read_text(encoding="utf-8", errors="replace")
            ids[path] = set(re.findall(r"""\b(?:id|name)\s*=\s*["']([^"']+)["']""", text))
        return ids[path]

    for page in sorted(html.rglob("*.html")):
        text = page.read_text(encoding="utf-8", errors="replace")
        for kind, value in attribute.findall(text):
            if re.match(r"^[a-zA-Z][a-zA-Z+.-]*:|^//|^javascript:", value) or value == "#":
                continue
            path, _, anchor = value.partition("#")
            path = path.split("?")[0]
            linked = (page.parent / path).resolve() if path else page
            where = f"{page.relative_to(html)}: {kind}=\"{value}\""
            if not linked.is_file():
                broken.append(f"{where}: no file {linked}")
            elif anchor and linked.suffix == ".html" and anchor not in anchors(linked):
                broken.append(f"{where}: {linked.name} has no anchor #{anchor}")
    return broken


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit(__doc__)
    root, out = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    staged = stage(root, out)
    print(f"site: {len(staged)} pages staged in {out}")
    if len(sys.argv) == 5:
        doxyfile = Path(sys.argv[4])
        rc = subprocess.run([sys.argv[3], str(doxyfile)], cwd=root).returncode
        if rc != 0:
            sys.exit(f"site: doxygen failed ({rc}); its warnings are above")
        html = doxyfile.parent / "html"
        broken = check_links(html)
        if broken:
            sys.exit("site: broken links:\n  " + "\n  ".join(broken))
        print(f"site: {html / 'index.html'}")


if __name__ == "__main__":
    main()
