#!/usr/bin/env python3
"""check_index_html.py -- checks the page experiments/run_all.sh writes
(figures/index.html) without a browser: it is well-formed
HTML (every element closed in order, one <title>, a doctype), every image and
link points at a file beside it that exists and is not empty (PNG/SVG by their
magic bytes) or at an id on the page, nothing reaches the network, the claim
of every figure on the page (figures/claims.tsv, key "claim") appears with the
place it comes from, every experiment named on the command line has its
section, and with --verdicts DIR (the run's data/claims/) the top table holds
one row per claim of a drawn run whose cells are the verdict files' numbers
and verdicts (a verdict the GPUs share stated once).

  check_index_html.py PAGE CLAIMS.tsv [--verdicts DIR] [EXPERIMENT ...]
Prints one line per problem and exits 1 when there is any, else prints a
summary line and exits 0.
"""
import html.parser
import os
import re
import sys

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
MAGIC = {".png": b"\x89PNG\r\n\x1a\n", ".svg": None}   # SVG: checked for its root element below
NETWORK = ("http:", "https:", "//", "ftp:", "data:")


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems = []
        self.stack = []
        self.ids = set()
        self.refs = []          # (attribute, value, line)
        self.text = []
        self.titles = 0
        self.doctype = False
        self.top = {}           # row id of the top table -> its cells' text
        self.row = None         # (id, cells) of the top-table row being read
        self.cell = None


    def where(self):
        return "line %d" % self.getpos()[0]

    def handle_decl(self, decl):
        self.doctype = self.doctype or decl.lower() == "doctype html"

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            if a["id"] in self.ids:
                self.problems.append("%s: duplicate id %r" % (self.where(), a["id"]))
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if key in a:
                self.refs.append((key, a[key] or "", self.where()))
        if tag == "title":
            self.titles += 1
        if tag == "tr" and a.get("id", "").startswith("claim-"):
            self.row = (a["id"], [])
        if tag == "td" and self.row is not None:
            self.cell = []
        if tag == "img" and not a.get("alt"):
            self.problems.append("%s: <img> without alt text" % self.where())
        if tag not in VOID:
            self.stack.append((tag, self.where()))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            self.problems.append("%s: </%s> closes a void element" % (self.where(), tag))
        elif not self.stack:
            self.problems.append("%s: </%s> without an open element" % (self.where(), tag))
        elif self.stack[-1][0] != tag:
            self.problems.append("%s: </%s> closes <%s> opened at %s" % (self.where(), tag, *self.stack[-1]))
        else:
            self.stack.pop()
        if tag == "td" and self.row is not None and self.cell is not None:
            self.row[1].append(" ".join("".join(self.cell).split()))
            self.cell = None
        if tag == "tr" and self.row is not None:
            self.top[self.row[0]] = self.row[1]
            self.row = None

    def handle_data(self, data):
        self.text.append(data)
        if self.cell is not None:
            self.cell.append(data)


HEADER = re.compile(r"<th>ours on ([^<]+)</th>")


def model(gpu):
    """The column name of a GPU, as experiments/lib/index_html.py names it."""
    for word in gpu.replace("NVIDIA", "").split():
        if word[:1].isalpha() and any(ch.isdigit() for ch in word):
            return word
    return gpu


def check_file(path, ref, where, problems):
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        problems.append("%s: %r: no such file, or empty (broken link)" % (where, ref))
        return
    ext = os.path.splitext(path)[1].lower()
    with open(path, "rb") as f:
        head = f.read(4096)
    if ext == ".png" and not head.startswith(MAGIC[".png"]):
        problems.append("%s: %r is not a PNG" % (where, ref))
    if ext == ".svg" and b"<svg" not in head:
        problems.append("%s: %r is not an SVG" % (where, ref))


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    page_path, claims_path, rest = argv[1], argv[2], argv[3:]
    verdicts = None
    if rest[:1] == ["--verdicts"]:
        if len(rest) < 2:
            print("--verdicts needs the run's data/claims folder", file=sys.stderr)
            return 2
        verdicts, rest = rest[1], rest[2:]
    experiments = rest
    p = Page()
    with open(page_path, encoding="utf-8") as f:
        p.feed(f.read())
    p.close()
    problems = p.problems
    for tag, where in p.stack:
        problems.append("<%s> opened at %s is never closed" % (tag, where))
    if not p.doctype:
        problems.append("no <!DOCTYPE html>")
    if p.titles != 1:
        problems.append("%d <title> elements (want 1)" % p.titles)
    base = os.path.dirname(os.path.abspath(page_path))
    files = 0
    for key, ref, where in p.refs:
        if ref.lower().startswith(NETWORK):
            problems.append("%s: %s=%r reaches outside the page (no network)" % (where, key, ref))
        elif ref.startswith("#"):
            if ref[1:] not in p.ids:
                problems.append("%s: %s=%r: no element has that id" % (where, key, ref))
        elif not ref:
            problems.append("%s: empty %s" % (where, key))
        else:
            files += 1
            check_file(os.path.join(base, ref.split("#")[0]), ref, where, problems)
    text = " ".join("".join(p.text).split())
    claims = 0
    with open(claims_path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 7:
                problems.append("claims.tsv line %d: %d fields (want 7)" % (n, len(fields)))
                continue
            cid, key, quantity, _, source = fields[:5]
            if key != "claim" or not any(i.split("_")[0] == cid or i == cid for i in p.ids):
                continue
            claims += 1
            want = " ".join(("%s (%s)" % (quantity, source)).split())
            if want not in text:
                problems.append("claims.tsv line %d (%s): the claim with its source is not on the page" % (n, cid))
    rows = 0
    if verdicts is not None:
        header = [h for h in HEADER.findall(open(page_path, encoding="utf-8").read())]
        for name in sorted(os.listdir(verdicts)):
            if not name.endswith(".tsv") or name.startswith("exp_"):
                continue
            with open(os.path.join(verdicts, name), encoding="utf-8") as f:
                for line in f:
                    c = line.rstrip("\n").split("\t")
                    if len(c) < 12 or c[11] != "1":
                        continue
                    rid = "claim-%s-%s" % (name[:-4], c[1])
                    cells = p.top.get(rid)
                    if cells is None:
                        problems.append("top table: no row %s (%s)" % (rid, c[7]))
                        continue
                    rows += 1
                    m = model(c[3])
                    if m not in header:
                        problems.append("top table: no column 'ours on %s' for %s" % (m, rid))
                        continue
                    ours = cells[2 + header.index(m)]
                    if ours != c[5]:
                        problems.append("top table %s on %s: ours %r, the verdict file %r" % (rid, m, ours, c[5]))
                    parts = [x.split(": ", 1)[-1] for x in re.sub(r" \([^()]* unverified\)$", "", cells[-1]).split("; ")]
                    if len(parts) > 1 and len(set(parts)) == 1:
                        problems.append("top table %s: one verdict repeated per GPU: %r" % (rid, cells[-1]))
                    base = c[6][:-len(", unverified")] if c[6].endswith(", unverified") else c[6]
                    if base not in cells[-1] or (base != c[6] and "unverified" not in cells[-1]):
                        problems.append("top table %s: verdict %r lacks %r of %s" % (rid, cells[-1], c[6], m))
        if not rows:
            problems.append("top table: no claim of a drawn run in %s" % verdicts)
    for e in experiments:
        if e not in p.ids:
            problems.append("experiment %s has no section (id=%r)" % (e, e))
    for pr in problems:
        print(pr)
    if problems:
        return 1
    print("ok: well-formed; %d files linked, all present; %d ids; %d claims; %d experiments; %d top-table cells"
          % (files, len(p.ids), claims, len(experiments), rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
