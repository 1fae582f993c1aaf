#!/usr/bin/env python3
"""Opens the course's site in headless Chromium as a learner would (run by scripts/ci/check_site.sh):

    check_site.py <site folder: build/<preset>/docs> <screenshot folder>

Every staged page (<site>/site/*.md, one per HTML page) is loaded from its file:// address and
must: carry its title ("torchlings: <first heading>"), show code blocks (lesson and exercise
pages), load every <img> (naturalWidth > 0), show no emphasis as literal asterisks, and log no
console error. One full-page screenshot
per language (lesson 08, which shows the timings chart; a page of that language if it has none).
Exit status: 0 every page renders, 1 some page does not (each problem on one line).
"""
import re
import sys
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

HEADING = re.compile(r"^#\s+(.*?)\s*(\{#[^}]*\})?\s*$", re.M)


def title_of(markdown):
    match = HEADING.search(markdown)
    return re.sub(r"[`*]", "", match.group(1)) if match else None


def main():
    site, shots = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    shots.mkdir(parents=True, exist_ok=True)
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1280,900", "--allow-file-access-from-files"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(10)
    problems, pages = [], sorted((site / "site").glob("*.md"))
    try:
        for staged in pages:
            name = staged.stem
            html = site / "html" / ("index.html" if name == "mainpage" else f"{name}.html")
            if not html.is_file():
                problems.append(f"{html.name}: missing (staged from {staged.name})")
                continue
            driver.get(html.as_uri())
            expected = f"torchlings: {title_of(staged.read_text(encoding='utf-8'))}"
            if name != "mainpage" and driver.title != expected:
                problems.append(f"{html.name}: title {driver.title!r}, expected {expected!r}")
            blocks = driver.execute_script("return document.querySelectorAll('div.fragment').length")
            if re.match(r"^(lesson|exercises)\d\d", name) and blocks == 0:
                problems.append(f"{html.name}: no code blocks rendered")
            # Doxygen's scripts add images after the load event (the search box): give every
            # image up to 5 s to finish, then each must have loaded.
            broken = driver.execute_async_script(
                "const done = arguments[arguments.length - 1], end = Date.now() + 5000;"
                "(function wait() {"
                "  const imgs = Array.from(document.images);"
                "  if (imgs.every(i => i.complete) || Date.now() > end)"
                "    done(imgs.filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src));"
                "  else setTimeout(wait, 50);"
                "})();")
            problems += [f"{html.name}: image did not load: {src}" for src in broken]
            # Emphasis Doxygen did not render shows as asterisks in the text (docs/site.py turns
            # the cases it knows into HTML); code, where asterisks are C++, is left out.
            prose = driver.execute_script(
                "const c = document.querySelector('div.contents'); if (!c) return '';"
                "const copy = c.cloneNode(true);"
                "copy.querySelectorAll('pre, code, div.fragment, .line').forEach(e => e.remove());"
                "return copy.innerText;")
            pattern = r"\*\*[^*\s][^*\n]*?\*\*|\*[^\W\d_][^\W_]*(?: [^\W_]+)*\*"
            for stars in re.findall(pattern, prose):
                problems.append(f"{html.name}: emphasis shown as asterisks: {stars!r}")
            for entry in driver.get_log("browser"):
                if entry.get("level") == "SEVERE":
                    problems.append(f"{html.name}: console error: {entry.get('message')}")
        names = [p.stem for p in pages]
        for lang, candidates in (("en", ["lesson08", "readme"]),
                                 ("ko", ["lesson08_ko", "readme_ko", "glossary_ko"])):
            name = next((n for n in candidates if n in names), None)
            if not name:
                problems.append(f"no page in language {lang} to take a screenshot of")
                continue
            driver.get((site / "html" / f"{name}.html").as_uri())
            # With the sidebar the page scrolls inside #doc-content: the window grows to show all.
            height = driver.execute_script(
                "const c = document.getElementById('doc-content');"
                "return Math.max(document.documentElement.scrollHeight,"
                "                c ? c.scrollHeight + c.getBoundingClientRect().top + 40 : 0);")
            driver.set_window_size(1280, min(max(height, 900), 8000))
            time.sleep(0.5)  # Doxygen's script lays the page out again after a resize
            shot = shots / f"{lang}_{name}.png"
            driver.save_screenshot(str(shot))
            driver.set_window_size(1280, 900)
            print(f"check_site: screenshot ({lang}): {shot}")
    finally:
        driver.quit()
    if problems:
        print("check_site: the site does not render as it should:", *problems, sep="\n  ")
        return 1
    print(f"check_site: {len(pages)} pages render (titles, code blocks, images, emphasis, "
          "no console errors)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
