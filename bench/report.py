#!/usr/bin/env python3
"""Summarise bench/smartgrep.sh results (hyperfine --export-json files). Stdlib only.

usage: python3 bench/report.py [RESULTS_DIR] [--markdown]

Reads query-{common,two,rare,absent}.json, startup.json, memory.json and meta.json from
RESULTS_DIR (default: bench/results next to this file). Prints, for each query, the median
of every tool and the ratio smartgrep/peer, then the targets with PASS/FAIL (or "pending"
when no smartgrep was measured). Exit status is 0 whatever the verdicts: this is a report.
"""
import json
import os
import sys

QUERIES = [
    ("common", "one common word"),
    ("two", "two words"),
    ("rare", "rare word"),
    ("absent", "absent word"),
]
TOOLS = ["smartgrep", "grep", "rg", "fzf", "fzy"]
MEMORY_LIMIT_KIB = 8 * 1024  # "8 MB", read as 8 MiB = 8192 KiB (what /usr/bin/time %M reports)

# (label, results file, peer, max ratio smartgrep/peer)
TIME_TARGETS = [
    ("one common word <= 1.0x rg", "common", "rg", 1.0),
    ("two words <= 1.0x rg pipeline", "two", "rg", 1.0),
    ("rare word <= 2x rg", "rare", "rg", 2.0),
    ("absent word <= 2x rg", "absent", "rg", 2.0),
    ("startup (empty input) <= 1.0x fzy", "startup", "fzy", 1.0),
]


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def medians(doc):
    """{command name: median seconds} from a hyperfine JSON export."""
    if not doc:
        return {}
    return {r["command"]: r["median"] for r in doc.get("results", [])}


def cpu_times(doc):
    """{command name: mean user+system seconds}: steadier than wall time on a busy machine."""
    if not doc:
        return {}
    return {r["command"]: r.get("user", 0.0) + r.get("system", 0.0) for r in doc.get("results", [])}


def fmt_time(sec):
    if sec is None:
        return "-"
    if sec < 0.1:
        return "%.2f ms" % (sec * 1000)
    return "%.3f s" % sec


def fmt_ratio(r):
    return "-" if r is None else "%.2fx" % r


def table(rows, header, markdown):
    rows = [[str(c) for c in row] for row in rows]
    if markdown:
        out = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
        out += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(out)
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in rows])


def main(argv):
    markdown = "--markdown" in argv
    args = [a for a in argv if not a.startswith("--")]
    here = os.path.dirname(os.path.abspath(__file__))
    rdir = args[0] if args else os.path.join(here, "results")

    meta = load(os.path.join(rdir, "meta.json")) or {}
    docs = {key: load(os.path.join(rdir, "query-%s.json" % key)) for key, _ in QUERIES}
    runs = {key: medians(doc) for key, doc in docs.items()}
    cpu = {key: cpu_times(doc) for key, doc in docs.items()}
    runs["startup"] = medians(load(os.path.join(rdir, "startup.json")))
    memory = load(os.path.join(rdir, "memory.json")) or {}
    hits = meta.get("hits", {})
    excluded = set(meta.get("fzy_excluded", []))

    out = []
    if meta:
        out.append(
            "corpus: %s bytes (%.1f MiB), %s lines; rare word '%s' (%s hits); "
            "runs %s, warmup %s; %s"
            % (meta.get("corpus_bytes"), meta.get("corpus_bytes", 0) / 1048576.0,
               meta.get("corpus_lines"), meta.get("rare_word"), meta.get("rare_hits"),
               meta.get("runs"), meta.get("warmup"), meta.get("date"))
        )
        if "load_start" in meta:
            out.append("load average (1 min) at start %s, at end %s on %s cores%s"
                       % (meta.get("load_start"), meta.get("load_end"), meta.get("cores"),
                          "  -- busy machine: wall times are noisy" if
                          max(float(meta.get("load_start", 0)), float(meta.get("load_end", 0)))
                          > 0.5 * float(meta.get("cores", 2)) else ""))
    out.append("")

    # ---- medians per query and tool
    rows = []
    for key, label in QUERIES:
        med = runs[key]
        if not med:
            continue
        query = hits.get(key, {}).get("query", key)
        sg = med.get("smartgrep")
        first = True
        for tool in TOOLS:
            if tool not in med:
                if tool == "smartgrep":
                    value, ratio = "pending", "-"
                elif tool == "fzy" and key in excluded:
                    value, ratio = "excluded (> %ss/run)" % meta.get("fzy_limit_s", 30), "-"
                else:
                    continue
                cpu_s = "-"
            else:
                value = fmt_time(med[tool])
                ratio = fmt_ratio(sg / med[tool]) if sg is not None and tool != "smartgrep" else "-"
                cpu_s = fmt_time(cpu[key].get(tool))
            rows.append(["%s '%s'" % (label, query) if first else "", tool, value, ratio, cpu_s])
            first = False
    if rows:
        out.append("Median wall time over the corpus (hyperfine --output=pipe):")
        out.append(table(rows, ["query", "tool", "median", "smartgrep/tool", "cpu user+sys (mean)"],
                         markdown))
        out.append("")

    # ---- startup
    st = runs["startup"]
    if st:
        rows = []
        sg = st.get("smartgrep")
        for tool in ["smartgrep", "fzy", "grep"]:
            if tool in st:
                ratio = fmt_ratio(sg / st[tool]) if sg is not None and tool != "smartgrep" else "-"
                rows.append([tool, fmt_time(st[tool]), ratio])
            elif tool == "smartgrep":
                rows.append([tool, "pending", "-"])
        out.append("Startup on empty input (hyperfine -N, stdin /dev/null, %s runs):"
                   % meta.get("startup_runs", "?"))
        out.append(table(rows, ["tool", "median", "smartgrep/tool"], markdown))
        out.append("")

    # ---- memory
    if memory:
        rows = [[k, "%s KiB (%.1f MiB)" % (v, v / 1024.0)] for k, v in memory.items()]
        if not any(k.startswith("smartgrep") for k in memory):
            rows.insert(0, ["smartgrep", "pending"])
        out.append("Peak memory, query 'lib' over the corpus (/usr/bin/time -f %M):")
        out.append(table(rows, ["command", "max RSS"], markdown))
        out.append("")

    # ---- targets
    rows = []
    failed = 0
    for label, key, peer, limit in TIME_TARGETS:
        med = runs.get(key, {})
        sg, pv = med.get("smartgrep"), med.get(peer)
        if pv is None:
            rows.append([label, "-", "-", "no data"])
            continue
        if sg is None:
            rows.append([label, "pending vs %s" % fmt_time(pv), "-", "pending"])
            continue
        ratio = sg / pv
        ok = ratio <= limit
        failed += not ok
        rows.append([label, "%s vs %s" % (fmt_time(sg), fmt_time(pv)), fmt_ratio(ratio),
                     "PASS" if ok else "FAIL"])
    sg_mem = {k: v for k, v in memory.items() if k.startswith("smartgrep")}
    if sg_mem:
        for k, v in sg_mem.items():
            ok = v <= MEMORY_LIMIT_KIB
            failed += not ok
            rows.append(["peak memory %s <= 8 MiB" % k, "%s KiB" % v, "-", "PASS" if ok else "FAIL"])
    else:
        rows.append(["peak memory <= 8 MiB", "pending", "-", "pending"])
    out.append("Targets:")
    out.append(table(rows, ["target", "smartgrep vs peer", "ratio", "verdict"], markdown))
    if sg_mem or any("smartgrep" in runs[k] for k in runs):
        out.append("")
        out.append("%d target(s) failed" % failed if failed else "all targets passed")
    if excluded:
        out.append("")
        out.append("fzy excluded for: %s (one run took more than %ss)"
                   % (", ".join(sorted(excluded)), meta.get("fzy_limit_s", 30)))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
