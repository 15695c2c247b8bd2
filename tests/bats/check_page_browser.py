#!/usr/bin/env python3
"""check_page_browser.py -- loads a page of experiments/run_all.sh in headless
Chromium (Debian's chromium-headless-shell; ./configure.sh installs it) from
the file system, no network, and checks that every <img> decoded (natural
width > 0) after the page's load.  The page itself has no script: a copy of it
beside it (same folder, so its relative links resolve) gets one that writes
the images' state into the DOM, which --dump-dom prints.

  check_page_browser.py PAGE [--screenshot PNG]
Exit 0 and "ok: N images loaded" when all loaded; 1 with one line per broken
image; 77 when no Chromium is installed (the caller skips, saying why); 2 on a
usage error.  --screenshot also renders the page's first screen into PNG.
"""
import os
import shutil
import subprocess
import sys
import tempfile

BROWSERS = ("chromium-headless-shell", "chromium", "chromium-browser")
EXIT_NO_BROWSER = 77
LOAD_BUDGET_MS = 20000          # virtual time the page gets to load its images
CALL_TIMEOUT_S = 120            # a browser that hangs fails the check
SCREEN = "1300,1000"            # the first screen a reviewer sees
PROBE = """<script>
window.addEventListener('load', function () {
  var bad = [], imgs = document.images;
  for (var i = 0; i < imgs.length; ++i)
    if (!imgs[i].complete || imgs[i].naturalWidth === 0) bad.push(imgs[i].getAttribute('src'));
  var p = document.createElement('pre'); p.id = 'probe-result';
  p.textContent = 'PROBE images=' + imgs.length + ' broken=' + bad.length + (bad.length ? ' ' + bad.join(' ') : '');
  document.body.appendChild(p);
});
</script>"""


def browser():
    for b in BROWSERS:
        path = shutil.which(b)
        if path:
            return path
    return None


def run(exe, args):
    base = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
            "--virtual-time-budget=%d" % LOAD_BUDGET_MS, "--window-size=" + SCREEN]
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, HOME=home)
        return subprocess.run(base + ["--user-data-dir=" + home] + args, capture_output=True, text=True,
                              timeout=CALL_TIMEOUT_S, env=env)


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--screenshot"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    page = os.path.abspath(argv[1])
    exe = browser()
    if exe is None:
        print("no headless Chromium (%s): ./configure.sh installs chromium-headless-shell" % ", ".join(BROWSERS))
        return EXIT_NO_BROWSER
    with open(page, encoding="utf-8") as f:
        text = f.read()
    probe = os.path.join(os.path.dirname(page), ".probe-" + os.path.basename(page))
    with open(probe, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", PROBE + "</body>", 1))
    try:
        r = run(exe, ["--dump-dom", "file://" + probe])
    finally:
        os.remove(probe)
    mark = 'id="probe-result">'
    line = next((x for x in r.stdout.splitlines() if mark + "PROBE images=" in x), None)
    if line is None:
        print("the browser printed no probe result (status %d): %s" % (r.returncode, r.stderr.strip()[-500:]))
        return 1
    fields = line[line.index(mark) + len(mark):].split("</pre>")[0].split()
    images = int(fields[1].split("=")[1])
    broken = fields[3:]
    for b in broken:
        print("image %s did not load in the browser" % b)
    if len(argv) == 4:
        shot = os.path.abspath(argv[3])
        r = run(exe, ["--screenshot=" + shot, "file://" + page])
        if not os.path.isfile(shot) or os.path.getsize(shot) == 0:
            print("no screenshot written (status %d): %s" % (r.returncode, r.stderr.strip()[-500:]))
            return 1
    if broken or images == 0:
        if images == 0:
            print("no image on the page")
        return 1
    print("ok: %d images loaded" % images)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
