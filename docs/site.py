#!/usr/bin/env python3
"""Builds the course's site (the `docs` target):

    python3 docs/site.py <course root> <stage folder> [<doxygen> <Doxyfile>] [--runner PATH]

Doxygen cannot be told the order of pages, a page's name when its first line is not its title,
or where a GitHub-style link (`README.md#section`) points, so the pages are staged first: each
Markdown page of the site is copied into <stage folder> under its page name, with
- its title labelled with the page name (lesson01, lesson01_ko, exercises01, cheatsheet_ko, ...);
- the language line (`[English](README.md) · 한국어`) made the switch to the other language's page;
- every relative link to a staged page (or to a section of one) turned into a Doxygen reference,
  each link to an exercise's file (exercises/NN_topic/id.cpp) and each `id` of a lesson's exercise
  table into a reference to the exercise on its lesson's exercise page, which shows the file;
- lesson pages ending with links to the previous and the next lesson;
- emphasis that touches a letter (`**텐서 자신**을`) written as HTML, which Doxygen renders;
- mainpage.md listing the lessons in order and the other pages; with mainpage.ko.md, a Korean
  main page (mainpage_ko) listing the Korean pages, each main page switching to the other.
Which exercises a lesson has, and in which order, the runner says (`torchlings-runner list
--json`, through docs/course_listing.py; --runner names it, else build/dev/bin/torchlings-runner
under the course root or this checkout; the docs target builds it first): the site reads no
info.md for it.
A link to a Korean page not written yet leads to the English one; a link to a file the site has
no page for stops the build (name the page, or drop the link).
Then Doxygen runs over the staged pages and common/ (warnings are errors): <build>/docs/html; and
last, every href and src of the HTML must name a file of the site and an anchor in it.
"""
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # importing course_listing leaves no __pycache__ in the course
from course_listing import ListingError, find_runner, listing, take_option  # noqa: E402

LINK = re.compile(r"(!?)\[((?:[^\]`]|`[^`]*`)*)\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(\{#[^}]*\})?\s*$")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
SWITCH = re.compile(r"^(\[English\]\([^)]*\) · 한국어|English · \[한국어\]\([^)]*\))\s*$")
IMAGES = (".png", ".svg", ".jpg", ".jpeg", ".gif")
CODE_SPAN = re.compile(r"(`+).+?\1")
EMPHASIS = re.compile(r"(?<![*\\])(\*\*|\*)(?=[^\s*])(.+?)(?<=[^\s*])\1(?!\*)")


def emphasis(line):
    """The line with each emphasis that Doxygen, unlike GitHub, leaves as literal asterisks written
    as HTML: one that touches a letter (**텐서 자신**을, *N*배: Korean particles follow their word
    without a space) or follows a quote, one that starts or ends with a code span, one of a single
    letter (*i*)."""
    spans = []

    def keep(match):
        spans.append(match.group(0))
        return f"\0{len(spans) - 1}\0"

    masked = CODE_SPAN.sub(keep, line)

    def html(match):
        before = masked[match.start() - 1:match.start()]
        after = masked[match.end():match.end() + 1]
        inner = match.group(2)
        if not (re.match(r"\S", before) or re.match(r"\w", after) or inner[0] == "\0"
                or inner[-1] == "\0" or len(inner) == 1):
            return match.group(0)
        tag = "strong" if match.group(1) == "**" else "em"
        return f"<{tag}>{match.group(2)}</{tag}>"

    masked = EMPHASIS.sub(html, masked)
    return re.sub(r"\0(\d+)\0", lambda m: spans[int(m.group(1))], masked)


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


class Lesson:
    """One lesson folder: its number and its pages (None where a page does not exist)."""

    def __init__(self, number, folder, page_en, page_ko, exercises_en, exercises_ko):
        self.number, self.folder = number, folder
        self.page = {"en": page_en, "ko": page_ko}
        self.exercises = {"en": exercises_en, "ko": exercises_ko}

    def page_in(self, lang):
        """The lesson's page in `lang`, else the English one."""
        return self.page[lang] or self.page["en"]

    def exercises_in(self, lang):
        return self.exercises[lang] or self.exercises["en"]


def collect(root):
    """Every page of the site by its path in the course, and the lessons in order."""
    pages, lessons = {}, []

    def add(path, name, lang, kind, number=None):
        if not path.exists():
            return None
        page = pages[path.relative_to(root).as_posix()] = Page(path, name, lang, kind, number)
        return page

    def pair(english_path, name, kind, number=None):
        en = add(english_path, name, "en", kind, number)
        ko = add(english_path.with_suffix(".ko.md"), name + "_ko", "ko", kind, number)
        if en and ko:
            en.other, ko.other = ko, en
        return en, ko

    pair(root / "README.md", "readme", "readme")
    for folder in sorted(p for p in (root / "lessons").glob("[0-9][0-9]_*") if p.is_dir()):
        number = folder.name[:2]
        lessons.append(Lesson(number, folder.name,
                              *pair(folder / "README.md", "lesson" + number, "lesson", number),
                              *pair(root / "exercises" / folder.name / "info.md",
                                    "exercises" + number, "exercises", number)))
    # The pages of docs/ (the cheat sheet, where the course runs, its performance, maintainers'
    # notes), each with its Korean twin NAME.ko.md; the page name is the file's (cheatsheet_ko).
    for page in sorted((root / "docs").glob("*.md")):
        if page.name != "mainpage.md" and not page.name.endswith(".ko.md"):
            pair(page, page.stem, page.stem)
    add(root / "docs" / "glossary.ko.md", "glossary_ko", "ko", "glossary")
    add(root / "runner" / "README.md", "runner_readme", "en", "runner")
    return pages, [lesson for lesson in lessons if lesson.page["en"]]


def exercise_ids(root, runner, lessons):
    """{(lesson folder, lang): [exercise ids in order]} for each exercise page of `lessons`, as the
    runner reads info.md (and, in Korean, info.ko.md, which it refuses where its structure
    differs)."""
    ids = {}
    for lang in ("en", "ko"):
        if not any(lesson.exercises[lang] for lesson in lessons):
            continue
        try:
            course = listing(root, runner, lang)
        except ListingError as error:
            sys.exit(f"site: {error}")
        for lesson in course["lessons"]:
            ids[(lesson["folder"], lang)] = [e["id"] for e in lesson["exercises"]]
    return ids


class Site:
    def __init__(self, root, runner):
        self.root = root
        self.pages, self.lessons = collect(root)
        self.problems = []
        self.ids = exercise_ids(root, runner, self.lessons)
        # Where each exercise is shown: on its lesson's exercise page in each language (the
        # English one where the Korean one is missing), under a label of its own.
        self.exercise_label, self.exercise_file = {}, {}  # (id, lang) -> label; file -> id
        for lesson in self.lessons:
            korean = self.ids.get((lesson.folder, "ko"), []) if lesson.exercises["ko"] else []
            for id_ in self.ids.get((lesson.folder, "en"), []):
                self.exercise_label[(id_, "en")] = f"ex_{id_}"
                self.exercise_label[(id_, "ko")] = f"ex_{id_}_ko" if id_ in korean else f"ex_{id_}"
                self.exercise_file[f"exercises/{lesson.folder}/{id_}.cpp"] = id_

    def reference(self, page, href):
        """The Doxygen reference for a link of `page`, or None to leave the link as it is."""
        if re.match(r"^[a-z]+:|^@|^//", href):
            return None
        path, _, fragment = href.partition("#")
        where = page.source.relative_to(self.root)
        resolved = (page.source.parent / path).resolve() if path else page.source
        try:
            rel = resolved.relative_to(self.root).as_posix()
        except ValueError:
            rel = path
        if rel.endswith(".ko.md") and rel not in self.pages:
            rel = rel[:-len(".ko.md")] + ".md"  # not translated yet: the English page
        if rel in self.exercise_file:
            return "@ref " + self.exercise_label[(self.exercise_file[rel], page.lang)]
        if rel in self.pages:
            linked = self.pages[rel]
            if not fragment:
                return "@ref " + linked.name
            if any(slug(text) == fragment for _, _, text in linked.headings()):
                return "@ref " + linked.anchors.setdefault(
                    fragment, f"{linked.name}_s{len(linked.anchors)}")
            self.problems.append(f"{where}: link {href}: {rel} has no such section")
        elif path.lower().endswith(IMAGES):
            if not resolved.exists():
                self.problems.append(f"{where}: image {href}: no such file")
            # else Doxygen finds it in IMAGE_PATH and copies it
        else:
            self.problems.append(f"{where}: link {href}: the site has no page for {rel}; link a "
                                 "lesson, an exercise, a README or a page of docs/")
        return None

    def with_links(self, page):
        """The page's lines with its links made references (outside code blocks), and each `id`
        of a lesson's exercise table linked to its exercise."""
        lines, fence = [], None
        for line in page.lines:
            match = FENCE.match(line)
            if match and (fence is None or match.group(1)[0] == fence):
                fence = None if fence else match.group(1)[0]
            elif fence is None:
                line = emphasis(line)
                line = LINK.sub(lambda m: (f"{m.group(1)}[{m.group(2)}]({ref})"
                                           if (ref := self.reference(page, m.group(3)))
                                           else m.group(0)), line)
                row = re.match(r"^\| `([a-z0-9_]+)` \|", line)
                if page.kind == "lesson" and row and (row.group(1), page.lang) in self.exercise_label:
                    id_ = row.group(1)
                    label = self.exercise_label[(id_, page.lang)]
                    line = line.replace(f"`{id_}`", f"[`{id_}`](@ref {label})", 1)
            lines.append(line)
        return lines

    def exercise_at(self, page, level, text):
        """The id of the exercise whose `## id: title` heading this is on an exercise page, else
        None: only the ids the runner listed for the page's lesson count."""
        if page.kind != "exercises" or level != 2:
            return None
        folder = next(l.folder for l in self.lessons if l.number == page.number)
        id_ = text.partition(":")[0].strip()
        return id_ if id_ in self.ids.get((folder, page.lang), []) else None

    def header(self, page):
        """The line under a page's title: the language switch, and lesson <-> exercises."""
        links = []
        if page.other:
            links.append(f"English · [한국어](@ref {page.other.name})" if page.lang == "en"
                         else f"[English](@ref {page.other.name}) · 한국어")
        lesson = next((l for l in self.lessons if l.number == page.number), None)
        ko = page.lang == "ko"
        if lesson and page.kind == "exercises":
            links.append(f"[{'강의' if ko else 'Lesson'} {page.number}]"
                         f"(@ref {lesson.page_in(page.lang).name})")
        elif lesson and lesson.exercises[page.lang]:
            # A subpage: in the sidebar the exercise page sits under its lesson.
            links.append(f"@subpage {lesson.exercises[page.lang].name} "
                         f"\"{'연습 문제' if ko else 'Exercises'}\"")
        elif lesson and lesson.exercises_in(page.lang):
            links.append(f"[{'연습 문제' if ko else 'Exercises'}]"
                         f"(@ref {lesson.exercises_in(page.lang).name})")
        return " · ".join(links)

    def footer(self, page):
        """A lesson page's last line: the previous lesson, the contents, the next lesson."""
        at = [l.number for l in self.lessons].index(page.number)
        word = "강의" if page.lang == "ko" else "Lesson"
        contents = ("mainpage_ko" if page.lang == "ko" and (self.root / "docs" / "mainpage.ko.md")
                    .exists() else "mainpage")
        links = [f"[{'목차' if page.lang == 'ko' else 'Contents'}](@ref {contents})"]
        if at > 0:
            previous = self.lessons[at - 1]
            links.insert(0, f"[← {word} {previous.number}](@ref {previous.page_in(page.lang).name})")
        if at + 1 < len(self.lessons):
            following = self.lessons[at + 1]
            links.append(f"[{word} {following.number} →](@ref {following.page_in(page.lang).name})")
        return " · ".join(links)

    def staged(self, page, lines):
        """The page as Doxygen reads it, from its lines with links made references."""
        # The language line goes (the header replaces it); None keeps the line numbers.
        lines = [None if SWITCH.match(line) else line for line in lines]
        headings = list(page.headings())
        title_at = headings[0][0] if headings else None
        for i, level, text in headings:
            label = next((lab for s, lab in page.anchors.items() if slug(text) == s), None)
            if i == title_at:
                label = page.name
            elif id_ := self.exercise_at(page, level, text):
                label = self.exercise_label[(id_, page.lang)]
            if label:
                lines[i] = f"{'#' * level} {text} {{#{label}}}"
        # Insertions from the end, so that the line numbers above stay right.
        if page.kind == "exercises":  # under each exercise's title, the file the learner completes
            folder = next(l.folder for l in self.lessons if l.number == page.number)
            for i, level, text in reversed(headings):
                if not (id_ := self.exercise_at(page, level, text)):
                    continue
                file = f"exercises/{folder}/{id_}.cpp"
                if (self.root / file).exists():
                    say = (f"내가 작성할 파일: `{file}` (`./torchlings check {id_}`로 확인합니다)"
                           if page.lang == "ko" else
                           f"Your file, `{file}` (check it with `./torchlings check {id_}`):")
                    lines[i + 1:i + 1] = ["", say, "", f"@include {folder}/{id_}.cpp"]
        if title_at is not None and (header := self.header(page)):
            lines[title_at + 1:title_at + 1] = ["", header]
        if page.kind == "lesson":
            lines += ["", "---", "", self.footer(page)]
        lines = [line for line in lines if line is not None]
        if page.kind == "exercises" and page.lang == "ko":  # the runner needs "### Hint" there
            lines = ["### 힌트" if re.match(r"^### Hint\s*$", line) else line for line in lines]
        return "\n".join(lines).lstrip("\n") + "\n"

    def main_pages(self):
        """docs/mainpage.md, then every page in order (each once, as a subpage); with
        docs/mainpage.ko.md, a Korean main page too (mainpage_ko), which holds the Korean pages
        and is itself a subpage of the English one. Returns {page name: text}."""
        docs = self.root / "docs"
        names = {page.name for page in self.pages.values()}
        korean_main = (docs / "mainpage.ko.md").exists()

        def opening(file, switch):
            lines = (docs / file).read_text(encoding="utf-8").rstrip("\n").splitlines()
            return lines[:1] + ["", switch] + lines[1:] if korean_main else lines

        def heading(text):
            # HTML, not Markdown: a Markdown heading would be a section, listed in the sidebar
            # among the pages.
            return f"<h2>{text}</h2>"

        def lesson_rows(lang):
            rows = []
            for lesson in self.lessons:
                # An exercise page is its lesson page's subpage (header()) where both exist.
                ex = lesson.exercises[lang]
                link = "@ref" if lesson.page[lang] else "@subpage"
                if lang == "en":
                    row = f"- @subpage {lesson.page['en'].name}"
                    if ex:
                        row += f" · {link} {ex.name} \"exercises\""
                elif lesson.page["ko"] or ex:
                    row = (f"- @subpage {lesson.page['ko'].name}" if lesson.page["ko"] else
                           f"- 강의 {lesson.number}: @ref {lesson.page['en'].name} \"English\"")
                    if ex:
                        row += f" · {link} {ex.name} \"연습 문제\""
                else:
                    continue
                rows.append(row)
            return rows

        def listed(more):
            # Any other page of docs/ in that language comes after these, so that none is left out.
            langs = {lang for name, _ in more
                     for lang in ("ko" if name.endswith("_ko") else "en",)}
            more = more + [(page.name, None)
                           for page in sorted(self.pages.values(), key=lambda p: p.name)
                           if page.source.parent == docs and page.name not in dict(more)
                           and page.lang in langs]
            return [f"- @subpage {name}" + (f" \"{text}\"" if text else "")
                    for name, text in more if name in names]

        api = "[classes](annotated.html), [files](files.html)"
        english = [("readme", "The course's README"), ("cheatsheet", None), ("platforms", None),
                   ("performance", None), ("teachers", None), ("maintainers", None),
                   ("runner_readme", "The runner: commands, exit codes, metadata")]
        korean = [("readme_ko", "과정 README"), ("cheatsheet_ko", None), ("glossary_ko", None),
                  ("platforms_ko", None), ("performance_ko", None), ("teachers_ko", None),
                  ("maintainers_ko", None)]
        # The Korean main page is the first subpage: at the top of the sidebar for a Korean reader.
        main = opening("mainpage.md", "English · @subpage mainpage_ko \"한국어\"")
        main += ["", heading("Lessons"), ""] + lesson_rows("en")
        if not korean_main:
            rows = lesson_rows("ko")
            main += (["", heading("강의 (한국어)"), ""] + rows) if rows else []
            both = english[:1] + korean[:1] + english[1:] + korean[1:]
            main += ["", heading("More"), ""] + listed(both)
        else:
            main += ["", heading("More"), ""] + listed(english)
        main.append(f"- The API reference of `common/`: {api}")
        pages = {"mainpage": "\n".join(main) + "\n"}
        if korean_main:
            ko = opening("mainpage.ko.md", "[English](@ref mainpage) · 한국어")
            ko += ["", heading("강의"), ""] + lesson_rows("ko")
            ko += ["", heading("더 보기"), ""] + listed(korean)
            ko.append(f"- `common/`의 API 문서(영어): {api}")
            pages["mainpage_ko"] = "\n".join(ko) + "\n"
        return pages


def stage(root, out, runner):
    site = Site(root, runner)
    # Links first: they decide which sections need a label.
    linked = {page.name: site.with_links(page) for page in site.pages.values()}
    if site.problems:
        sys.exit("site: broken links in the pages:\n  " + "\n  ".join(site.problems))
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.md"):
        old.unlink()
    for page in site.pages.values():
        (out / f"{page.name}.md").write_text(site.staged(page, linked[page.name]), encoding="utf-8")
    for name, text in site.main_pages().items():
        (out / f"{name}.md").write_text(text, encoding="utf-8")
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
    args = sys.argv[1:]
    runner = take_option(args, "--runner", __doc__)
    if len(args) not in (2, 4):
        sys.exit(__doc__)
    root, out = Path(args[0]).resolve(), Path(args[1]).resolve()
    try:
        runner = find_runner(root, runner)
    except ListingError as error:
        sys.exit(f"site: {error}")
    staged = stage(root, out, runner)
    print(f"site: {len(staged)} pages staged in {out}")
    if len(args) == 4:
        doxyfile = Path(args[3])
        # Doxygen never deletes pages: without this, a page of a file since renamed or removed
        # would stay in the site, with links that no longer resolve.
        shutil.rmtree(doxyfile.parent / "html", ignore_errors=True)
        rc = subprocess.run([args[2], str(doxyfile)], cwd=root).returncode
        if rc != 0:
            sys.exit(f"site: doxygen failed ({rc}); its warnings are above")
        html = doxyfile.parent / "html"
        broken = check_links(html)
        if broken:
            sys.exit("site: broken links:\n  " + "\n  ".join(broken))
        print(f"site: {html / 'index.html'}")


if __name__ == "__main__":
    main()
