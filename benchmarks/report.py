"""The table (terminal and Markdown), the machine description, the performance targets and reference
figures, and RESULTS.md."""
from __future__ import annotations

import datetime
import os
import platform
import sys

from .harness import CONTENDERS, LABELS

ISSUE_REFERENCE = """\
| workload | hand-written NumPy | torch 2.13 CPU | MyGrad 2.5 | HIPS autograd 1.9 |
| --- | --- | --- | --- | --- |
| MLP 784-256-256-10, batch 64, fwd+bwd, float64 | 1.00 | 1.47 | 1.27 | 2.04 |
| same, float32 | 1.00 | 1.68 | 1.56 | 3.18 |
| chain of 2,001 tiny elementwise ops + backward, per op | 0.9 us | 4.0 us | 12.1 us | 7.9-9.1 us |
| 60,000-op chain, build + backward | | 0.31 s | 2.8 s | 1.3 s |
| graph memory held before backward, 16-element float64 ops | | | 2,199 B/op | 903 B/op |"""

CELL_HELP = "each cell: median (x NumPy / x torch); lower is better"


# ------------------------------------------------------------------------------------ machine

def load_average() -> str:
    try:
        return "/".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        return "?"


def machine(contenders: dict, threads: int | None, scale: str, repeats: int, load_before: str = "") -> dict:
    """What the numbers were measured on, including the load average (1/5/15 min) before and after:
    other work on the machine slows every contender, which interleaving keeps out of the ratios only
    in part."""
    from .threads import describe
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    info = {"cpu": cpu, "logical_cpus": os.cpu_count(), "platform": platform.platform(),
            "python": sys.version.split()[0], "threads": describe(threads), "scale": scale, "repeats": repeats,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "versions": {n: (c.version if not c.missing else c.missing) for n, c in contenders.items()},
            "load_before": load_before or "?", "load_after": load_average()}
    try:
        import numpy as np
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        info["numpy_blas"] = f"{blas.get('name')} {blas.get('version')}"
    except Exception:  # noqa: BLE001  (older NumPy: no dict mode)
        pass
    c = contenders.get("torch")
    if c is not None and c.module is not None:
        info["torch_threads"] = c.module.get_num_threads()
    return info


def _clock(info) -> str:
    return ("process CPU time (time other processes held the core left out)" if info.get("clock") == "cpu"
            else "wall-clock time")


# ------------------------------------------------------------------------------------ cells

def _num(v: float, unit: str) -> str:
    if unit == "B/op":
        return f"{v:,.0f}"
    if v >= 100:
        return f"{v:.0f}"
    if v >= 10:
        return f"{v:.1f}"
    if v >= 1:
        return f"{v:.2f}"
    return f"{v:.3f}"


def _x(r):
    return "-" if r is None else f"{r:.2f}"


def cell(res: dict, unit: str) -> str:
    status = res.get("status")
    if status == "ok" and "value" in res:
        mark = " RSS" if res.get("method") == "RSS" else ""
        return f"{_num(res['value'], unit)}{mark} ({_x(res.get('x_numpy'))} / {_x(res.get('x_torch'))})"
    if status == "not available":
        return "not available"
    return status or "-"


def rows(records: list[dict], names) -> list[list[str]]:
    out = [["workload", "unit"] + [LABELS[n] for n in names]]
    for rec in records:
        out.append([rec["name"], rec["unit"]] + [cell(rec["results"][n], rec["unit"]) for n in names])
    return out


def text_table(records, names) -> str:
    table = rows(records, names)
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in table]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown_table(records, names) -> str:
    table = rows(records, names)
    lines = ["| " + " | ".join(table[0]) + " |", "|" + "|".join(" --- " for _ in table[0]) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in table[1:]]
    return "\n".join(lines)


def notes(records, cells) -> list[str]:
    """One line per workload (its full title), then every contender that is not 'ok', with why."""
    out = [f"- `{rec['name']}`: {rec['title']} (sizes: "
           + ", ".join(f"{k}={v}" for k, v in rec["size"].items()) + ")" for rec in records]
    seen = set()
    for rec in records:
        whys = {(r.get("status"), r.get("note")) for r in rec["results"].values()}
        if len(whys) == 1 and next(iter(whys))[0] == "not available":
            out.append(f"- `{rec['name']}`: not available here: {next(iter(whys))[1]}")
            continue
        for n, r in rec["results"].items():
            if r.get("status") in ("ok", "not installed") or not r.get("note"):
                continue
            key = (r["status"], n, r["note"]) if r["status"] != "FAILED" else (rec["name"], n)
            if key in seen:
                continue
            seen.add(key)
            out.append(f"- {LABELS[n]} on `{rec['name']}`: {r['status']}: {r['note']}")
    for rec in records:
        facades = rec["results"].get("flowgrad", {}).get("facades")
        if facades:
            out.append(f"- flowgrad's facades on `{rec['name']}`: " + ", ".join(f"{m} {v:.3f} s" for m, v in facades.items()))
    missing = {n: r["note"] for rec in records for n, r in rec["results"].items() if r.get("status") == "not installed"}
    for n, why in missing.items():
        out.append(f"- {LABELS[n]}: {why} (`pip install -e .[bench]` installs MyGrad and HIPS autograd)")
    return out


# ------------------------------------------------------------------------------------ targets

def _get(records, workload, contender, key="value"):
    for rec in records:
        if rec["name"] == workload:
            return rec["results"].get(contender, {}).get(key)
    return None


def targets(records) -> list[tuple[str, str, str]]:
    """The performance targets for flowgrad: (target, measured, verdict)."""
    out = []

    def add(label, value, ok, shown):
        out.append((label, shown if value is not None else "not measured",
                    "-" if value is None else ("met" if ok else "NOT met")))

    def ratio_target(workload, key, limit, label, unit):
        r = _get(records, workload, "flowgrad", key)
        add(label, r, r is not None and r <= limit, f"{r:.2f}x {unit}" if r is not None else "")

    ratio_target("chain", "x_torch", 0.9, "per-op overhead, chain (16 x f64): at most 0.9x torch", "torch")
    fg = _get(records, "chain", "flowgrad")
    for peer in ("mygrad", "autograd"):
        p = _get(records, "chain", peer)
        sp = p / fg if (p is not None and fg) else None
        add(f"at least 2x ahead of {LABELS[peer]} on the chain", sp, sp is not None and sp >= 2.0,
            f"{sp:.2f}x ahead" if sp is not None else "")
    ratio_target("chain-1", "x_torch", 0.8, "per-op overhead, 1-element chain: at most 0.8x torch", "torch")
    ratio_target("mlp-f64", "x_numpy", 1.10, "mlp-f64: within 1.10x of hand-written NumPy", "NumPy")
    ratio_target("mlp-f32", "x_numpy", 1.15, "mlp-f32: within 1.15x of hand-written NumPy", "NumPy")
    ratio_target("classifier", "x_numpy", 1.3, "classifier: within 1.3x of hand-written NumPy", "NumPy")
    ratio_target("convnet", "x_torch", 1.5, "convnet: within 1.5x of torch", "torch")
    ratio_target("hvp", "x_torch", 1.0, "hvp (double backward): at most torch's time", "torch")
    ratio_target("chain-60k", "x_torch", 2.0, "60,000-op chain within 2x of torch", "torch")
    m = _get(records, "memory", "flowgrad")
    add("graph memory at most 450 B/op", m, m is not None and m <= 450, f"{m:,.0f} B/op" if m is not None else "")
    facades = _get(records, "import", "flowgrad", "facades")
    worst = max(facades.values()) if facades else None
    add("import of each facade (torch, oneflow, paddle) at most 0.3 s", worst, worst is not None and worst <= 0.3,
        " / ".join(f"{v:.2f}" for v in facades.values()) + " s" if facades else "")
    slower, compared = [], 0
    for rec in records:
        if rec.get("kind") == "startup":     # import time: MyGrad and HIPS autograd are far smaller libraries
            continue
        f = rec["results"].get("flowgrad", {}).get("value")
        for peer in ("mygrad", "autograd"):
            p = rec["results"].get(peer, {}).get("value")
            if f is None or p is None:
                continue
            compared += 1
            if f > p:
                slower.append(f"{rec['name']} vs {LABELS[peer]} ({f / p:.2f}x)")
    add("no workload slower than MyGrad or HIPS autograd", compared or None, not slower,
        ("slower on: " + "; ".join(slower)) if slower else f"{compared} comparisons, none slower")
    return out


def section_targets(records) -> list[tuple[str, str, str]]:
    """A sectioned workload's own target (flowgrad's time at most N times torch's): (target, measured,
    verdict)."""
    out = []
    for rec in records:
        limit = rec.get("target_x_torch")
        if limit is None:
            continue
        r = rec["results"].get("flowgrad", {}).get("x_torch")
        out.append((f"{rec['name']}: within {limit}x of torch", f"{r:.2f}x torch" if r is not None else "not measured",
                    "-" if r is None else ("met" if r <= limit else "NOT met")))
    return out


def _devices(records) -> list[str]:
    return list(dict.fromkeys(rec["device"] for rec in records if rec.get("device")))


def section_provenance(info, records, command: str) -> str:
    """Where and how a section was measured: a section is kept when a later run does not measure it,
    so it carries its own command, date and device."""
    clocks = {rec.get("clock") or info.get("clock") for rec in records}
    clock = " and ".join(sorted(_clock({"clock": c}) for c in clocks))
    where = "; ".join(_devices(records) + [f"host CPU: {info['cpu']}"])
    return (f"Measured by `{command}` on {info['date']}: medians of {info['repeats']} interleaved runs, "
            f"{info['scale']} sizes, {clock}; {where}.")


# ------------------------------------------------------------------------------------ documents

def sections(records) -> tuple[list[dict], dict[str, list[dict]]]:
    """The records of the main table (the targets' workloads), and the others by their heading."""
    main, extra = [], {}
    for rec in records:
        if rec.get("section"):
            extra.setdefault(rec["section"], []).append(rec)
        else:
            main.append(rec)
    return main, extra


def render_text(info, records, cells, names) -> str:
    main, extra = sections(records)
    lines = [f"flowgrad benchmarks -- {info['cpu']}, {info['logical_cpus']} logical CPUs, threads: {info['threads']}",
             f"load average {info['load_before']} before, {info['load_after']} after",
             f"medians of {info['repeats']} interleaved runs ({info['scale']} sizes, {_clock(info)}); {CELL_HELP}", "",
             text_table(main, names), ""]
    lines += notes(main, cells)
    for heading, recs in extra.items():
        lines += ["", f"{heading.lower()}{'' if section_targets(recs) else ' (no target)'}:"]
        lines += [f"  {device}" for device in _devices(recs)]
        lines += [text_table(recs, names), ""] + notes(recs, cells)
        lines += [f"  [{v:>7}] {label}: {shown}" for label, shown, v in section_targets(recs)]
    lines += ["", "performance targets for flowgrad:"]
    lines += [f"  [{v:>7}] {label}: {shown}" for label, shown, v in targets(main)]
    lines += ["", "reference figures (2-core machine, ratios to NumPy unless a unit is given):", ISSUE_REFERENCE]
    return "\n".join(lines)


def render_markdown(info, records, cells, names, command: str) -> str:
    main, extra = sections(records)
    versions = ", ".join(f"{LABELS[n]} {v}" for n, v in info["versions"].items())
    out = ["# flowgrad benchmark results", "",
           f"Regenerated by `{command}` (see `benchmarks/README.md`); do not edit by hand.", "",
           "## Machine", "",
           f"- CPU: {info['cpu']}, {info['logical_cpus']} logical CPUs ({info['platform']})",
           f"- threads: {info['threads']}" + (f"; torch.get_num_threads() = {info['torch_threads']}"
                                                 if "torch_threads" in info else ""),
           f"- Python {info['python']}; {versions}" + (f"; NumPy BLAS: {info['numpy_blas']}"
                                                      if "numpy_blas" in info else ""),
           f"- {info['date']}; medians of {info['repeats']} interleaved runs, {info['scale']} sizes, "
           f"{_clock(info)}; load average "
           f"(1/5/15 min) {info['load_before']} before, {info['load_after']} after", "",
           "## Results", "", f"{CELL_HELP[0].upper()}{CELL_HELP[1:]}. Gradients of every contender were checked "
           "against hand-written NumPy (allclose) before anything was timed.", "",
           markdown_table(main, names), ""]
    out += notes(main, cells)
    out += ["", "Memory is what the recorded graph holds before backward, divided by the number of ops: "
            "tracemalloc for the Python libraries (it sees NumPy's buffers); for torch, whose graph lives in "
            "C++, the growth of the resident set in a fresh process (`RSS`, so not directly comparable). "
            "The NumPy figure is the tape a hand-written backward keeps (tanh's outputs)."]
    for heading, recs in extra.items():
        out += ["", f"## {heading}", "", section_provenance(info, recs, command), ""]
        goals = section_targets(recs)
        out += [] if goals else ["No performance target.", ""]
        out += [markdown_table(recs, names), ""] + notes(recs, cells)
        if goals:
            out += ["", "| target | measured | verdict |", "| --- | --- | --- |"]
            out += [f"| {label} | {shown} | {v} |" for label, shown, v in goals]
    out += ["", "## Performance targets for flowgrad", "", "| target | measured | verdict |", "| --- | --- | --- |"]
    out += [f"| {label} | {shown} | {v} |" for label, shown, v in targets(main)]
    out += ["", "## Reference figures", "",
            "Measured on the 2-core machines (medians of 40 interleaved runs), ratios to hand-written NumPy "
            "unless a unit is given:", "", ISSUE_REFERENCE, ""]
    return "\n".join(out)


def as_json(info, records, cells) -> dict:
    return {"machine": info, "workloads": records, "checks": cells,
            "targets": [{"target": t, "measured": m, "verdict": v} for t, m, v in targets(sections(records)[0])],
            "contenders": list(CONTENDERS)}


# ------------------------------------------------------------------------------------ RESULTS.md

MAIN_HEADINGS = ("Machine", "Results", "Performance targets for flowgrad", "Reference figures")


def _blocks(doc: str) -> list[tuple[str | None, str]]:
    """A Markdown document cut at its `## ` headings: (heading, text); the preamble's heading is None."""
    out, heading, lines = [], None, []
    for line in doc.splitlines(keepends=True):
        if line.startswith("## "):
            out.append((heading, "".join(lines)))
            heading, lines = line[3:].strip(), []
        lines.append(line)
    out.append((heading, "".join(lines)))
    return out


def merge_results(old: str, new: str, main_measured: bool) -> str:
    """RESULTS.md after a run: the new document where it measured the main table, the old one where it
    measured only sectioned workloads; in both, a section this run measured replaces the recorded one
    and a recorded section it did not measure (the GPU, measured on another machine) is kept."""
    old_b, new_b = _blocks(old), _blocks(new)
    fresh = {h: t for h, t in new_b if h is not None and h not in MAIN_HEADINGS}
    base = new_b if main_measured else old_b
    out = [(h, fresh.pop(h, t)) for h, t in base]
    placed = {h for h, _ in out}
    kept = [(h, t) for h, t in old_b if main_measured and h is not None and h not in MAIN_HEADINGS
            and h not in placed]
    extra = kept + list(fresh.items())
    at = next((i for i, (h, _) in enumerate(out) if h == "Performance targets for flowgrad"), len(out))
    out[at:at] = [(h, t if t.endswith("\n\n") else t.rstrip("\n") + "\n\n") for h, t in extra]
    return "".join(t for _, t in out)
