#!/usr/bin/env python3
"""index_html.py OUT DB COMMIT IDS -- the pages of experiments/run_all.sh, static,
no network, no script:
  OUT/index.html  the paper's figures and tables (sections 3-6), in the paper's
                  order (IDS): on top one table of every quantitative claim (the
                  paper's number, ours per GPU model, the verdict), then one
                  section per figure with one panel per GPU model (the newest
                  at-spec run), each naming GPU, UUID, measuring commit and date
  OUT/extra.html  the benchmarks beyond the paper (exp_*), laid out the same way
  OUT/runs.html   every run's numbers and verdict, drawn or not
Input: OUT/data/status/ID.tsv and OUT/data/claims/ID.tsv (experiments/lib/common.sh
exp_record, experiments/lib/claims.sh exp_claim)."""
import html
import os
import sys

STATUS_FIELDS = ["id", "slug", "gpu", "rows", "status", "title", "claim", "ours", "verdict",
                 "commit", "date", "uuid", "verified", "image"]
CLAIM_FIELDS = ["id", "key", "uuid", "gpu", "paper", "ours", "verdict", "quantity", "where",
                "commit", "date", "drawn"]
STYLE = ("body{font-family:DejaVu Sans,sans-serif;max-width:1300px;margin:.5em auto;color:#222;font-size:14px}"
         "section{border-top:1px solid #ccc;padding:.3em 0}img{max-width:100%;border:1px solid #eee}"
         "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:1px 5px;text-align:left;vertical-align:top}"
         "table.top{font-size:11px;line-height:1.2}"
         ".reproduced{background:#d9f2d9}.same{background:#fff2c6}.notrep{background:#f9d6d5}.none{background:#eee}"
         ".claim{color:#444}.prov{font-size:12px;color:#555}")


def esc(s):
    return html.escape(s or "", quote=True)


def cls(verdict):
    v = verdict or ""
    if v.startswith("reproduced") or v == "held":
        return "reproduced"
    if v.startswith("same direction"):
        return "same"
    if v.startswith("not reproduced") or v == "not held":
        return "notrep"
    return "none"


def read_tsv(path, fields):
    rows = []
    if not os.path.exists(path):
        return rows
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            parts += [""] * (len(fields) - len(parts))
            rows.append(dict(zip(fields, parts)))
    return rows


def model(gpu):
    """A short GPU model name for a column: H100, H200, ... (else the name)."""
    for word in gpu.replace("NVIDIA", "").split():
        if word[:1].isalpha() and any(c.isdigit() for c in word):
            return word
    return gpu


def page_head(title, links):
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title><style>%s</style>"
            "</head><body>\n<h1>%s</h1>\n<p>%s</p>\n" % (esc(title), STYLE, esc(title), links))


def provenance(s):
    ver = {"1": "every row verified against the reference", "0": "unverified rows (verdicts marked)"}.get(
        s["verified"], "no rows")
    return "%s (%s); measured at commit %s on %s; %s; rows used: %s" % (
        s["gpu"], s["uuid"], s["commit"], s["date"], ver, s["rows"])


def sections(ids, status, claims, runs_link):
    out = []
    for i in ids:
        st = status.get(i, [])
        if not st:
            continue
        out.append("<section id=\"%s\"><h2>%s</h2>\n<p class=\"claim\"><b>%s:</b> %s</p>\n" % (
            esc(i), esc(st[0]["title"]), "Target (beyond the paper)" if i.startswith("exp_") else "Paper",
            esc(st[0]["claim"] or "-")))
        drawn = [c for c in claims.get(i, []) if c["drawn"] == "1"]
        if drawn:
            out.append("<table><tr><th>quantity</th><th>paper</th><th>GPU</th><th>ours</th><th>verdict</th></tr>\n")
            for c in drawn:
                out.append("<tr><td>%s</td><td>%s (%s)</td><td>%s</td><td>%s</td><td class=\"%s\">%s</td></tr>\n" % (
                    esc(c["quantity"]), esc(c["paper"]), esc(c["where"]), esc(model(c["gpu"])), esc(c["ours"]),
                    cls(c["verdict"]), esc(c["verdict"])))
            out.append("</table>\n")
        panels = [s for s in st if s["image"] != "0"]
        for s in panels:
            base = "%s-%s" % (i, s["slug"])
            out.append("<h3>%s</h3><p class=\"prov\">%s</p><p><b>Ours:</b> %s<br><b>Verdict:</b> "
                       "<span class=\"%s\">%s</span>; status: %s</p>\n" % (
                           esc(model(s["gpu"]) if s["slug"] != "all" else s["gpu"]), esc(provenance(s)),
                           esc(s["ours"]), cls(s["verdict"]), esc(s["verdict"]), esc(s["status"])))
            out.append("<p><a href=\"%s.svg\"><img src=\"%s.png\" alt=\"%s, %s\"></a></p>\n" % (
                esc(base), esc(base), esc(s["title"]), esc(s["gpu"])))
        others = len(st) - len(panels)
        if others:
            out.append("<p><a href=\"runs.html#%s\">%d other run%s of this figure</a> (numbers and verdicts; "
                       "run_all.sh --all-runs draws them)</p>\n" % (esc(i), others, "" if others == 1 else "s"))
        out.append("</section>\n")
    return "".join(out)


UNVERIFIED = ", unverified"      # the suffix lib/claims.sh gives a verdict that unchecked rows fed


def verdict_cell(verdicts):
    """The top table's verdict text and class for [(model, verdict)]: one verdict when the GPUs
    agree (else each model's), then which models' rows were not all checked, so that a row stays
    one line where it can."""
    bases = [(m, v[:-len(UNVERIFIED)] if v.endswith(UNVERIFIED) else v) for m, v in verdicts]
    words = sorted(set(b for _, b in bases))
    text = words[0] if len(words) == 1 else "; ".join("%s: %s" % (m, b) for m, b in bases)
    unchecked = [m for m, v in verdicts if v.endswith(UNVERIFIED)]
    if unchecked:
        text += " (%s unverified)" % ("rows" if len(unchecked) == len(verdicts) else ", ".join(unchecked))
    return text, cls(words[0]) if len(words) == 1 else "none"


def top_table(ids, claims, models):
    out = ["<table class=\"top\"><tr><th>claim</th><th>paper</th>"]
    out += ["<th>ours on %s</th>" % esc(m) for m in models]
    out.append("<th>verdict</th></tr>\n")
    for i in ids:
        keys = []
        by = {}
        for c in claims.get(i, []):
            if c["drawn"] != "1":
                continue
            if c["key"] not in by:
                keys.append(c["key"])
                by[c["key"]] = {}
            by[c["key"]][model(c["gpu"])] = c
        for k in keys:
            first = next(iter(by[k].values()))
            out.append("<tr id=\"claim-%s-%s\"><td><a href=\"#%s\">%s</a>: %s</td><td>%s</td>" % (
                esc(i), esc(k), esc(i), esc(i.split("_")[0]), esc(first["quantity"]), esc(first["paper"])))
            verdicts = []
            for m in models:
                c = by[k].get(m)
                if c is None:
                    out.append("<td class=\"none\">-</td>")
                    continue
                out.append("<td class=\"%s\">%s</td>" % (cls(c["verdict"]), esc(c["ours"])))
                verdicts.append((m, c["verdict"]))
            text, klass = verdict_cell(verdicts)
            out.append("<td class=\"%s\">%s</td></tr>\n" % (klass, esc(text)))
    out.append("</table>\n")
    return "".join(out)


def runs_page(ids, status):
    out = []
    for i in ids:
        st = status.get(i, [])
        if not st:
            continue
        out.append("<section id=\"%s\"><h2>%s</h2><p class=\"claim\"><b>%s:</b> %s</p>\n<table><tr><th>GPU</th>"
                   "<th>UUID</th><th>commit</th><th>date</th><th>rows</th><th>verified</th><th>ours</th><th>verdict</th>"
                   "<th>panel</th></tr>\n" % (esc(i), esc(st[0]["title"]),
                                              "Target (beyond the paper)" if i.startswith("exp_") else "Paper",
                                              esc(st[0]["claim"] or "-")))
        for s in st:
            page = "extra.html" if i.startswith("exp_") else "index.html"
            panel = "<a href=\"%s#%s\">drawn</a>" % (page, esc(i)) if s["image"] != "0" else "-"
            out.append("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
                       "<td class=\"%s\">%s</td><td>%s</td></tr>\n" % tuple(
                           [esc(s[f]) for f in ("gpu", "uuid", "commit", "date", "rows", "verified", "ours")]
                           + [cls(s["verdict"]), esc(s["verdict"]), panel]))
        out.append("</table></section>\n")
    return "".join(out)


def write(path, text):
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def main():
    if len(sys.argv) != 5:
        sys.stderr.write("usage: index_html.py OUT DB COMMIT 'ID ID ...'\n")
        return 2
    out, db, commit, ids = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split()
    if not os.path.isdir(os.path.join(out, "data", "status")):
        sys.stderr.write("index_html.py: no %s/data/status: run experiments/run_all.sh first\n" % out)
        return 2
    status = {i: read_tsv(os.path.join(out, "data", "status", i + ".tsv"), STATUS_FIELDS) for i in ids}
    claims = {i: read_tsv(os.path.join(out, "data", "claims", i + ".tsv"), CLAIM_FIELDS) for i in ids}
    paper = [i for i in ids if not i.startswith("exp_")]
    extra = [i for i in ids if i.startswith("exp_")]
    models = sorted(set(model(c["gpu"]) for i in paper for c in claims[i] if c["drawn"] == "1"))
    nav = ("Drawn by experiments/run_all.sh at commit %s from %s. Each panel names the GPU and the commit that "
           "measured it. <a href=\"extra.html\">Benchmarks beyond the paper</a> &middot; "
           "<a href=\"runs.html\">every run</a>" % (esc(commit), esc(db)))
    legend = ("<p>Verdicts: <span class=\"reproduced\">reproduced</span> (within the claim&#39;s tolerance), "
              "<span class=\"same\">same direction, different magnitude</span>, <span class=\"notrep\">not "
              "reproduced</span>, <span class=\"none\">not measured: why</span>; &quot;unverified&quot;: rows not "
              "all checked against the reference fed it.</p>\n")
    write(os.path.join(out, "index.html"),
          page_head("Dr. Top-k (Gaihre et al., SC'21): the paper's claims beside our measurements", nav)
          + legend + top_table(paper, claims, models) + sections(paper, status, claims, "runs.html")
          + "</body></html>\n")
    write(os.path.join(out, "extra.html"),
          page_head("Dr. Top-k: benchmarks beyond the paper", "<a href=\"index.html\">the paper&#39;s claims</a>")
          + sections(extra, status, claims, "runs.html") + "</body></html>\n")
    write(os.path.join(out, "runs.html"),
          page_head("Dr. Top-k: every run of every figure", "<a href=\"index.html\">the paper&#39;s claims</a>")
          + runs_page(ids, status) + "</body></html>\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
