"""The HTML report: one self-contained page (inline CSS, no scripts, no external assets).

It shows the run's metadata, the group x implementation matrix, then every scenario as a row of
cells; each cell is a <details> that opens to the scenario's code and the observed values side by
side with the reference's (and, for expected differences, the declared values, reason and link).
"""
from __future__ import annotations

import html
from collections import Counter

from .compare import describe, diff_values
from .expect import spec_text
from .reproducer import scenario_code
from .runner import RunResult
from .scenario import GROUPS, Scenario
from .text_report import LEGEND, SHORT, cell_text, summary_line
from .verdict import FAILING

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px;color:#1d232a;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}h3{font-size:15px;margin:18px 0 6px}
.meta{color:#555;font-size:12.5px}.summary{font-weight:600;margin:10px 0;padding:8px 10px;border-radius:6px}
.pass{background:#e6f4ea;color:#135c2b}.fail{background:#fce8e6;color:#8c1d18}
table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid #d7dce1;padding:4px 8px;vertical-align:top;text-align:left}
th{background:#f3f5f7;font-weight:600}td.group{white-space:nowrap}
.s-ok{color:#135c2b}.s-base{color:#135c2b}.s-exp{color:#0b5c77}.s-defect{color:#8a5a00}.s-unsup,.s-skip{color:#777}
.s-DIFF,.s-ERR,.s-STALE{color:#b3261e;font-weight:700}
.cell-ok{background:#f1faf3}.cell-base{background:#f1faf3}.cell-exp{background:#eef7fb}.cell-defect{background:#fff6e0}
.cell-unsup,.cell-skip,.cell-na{background:#f6f6f6}.cell-DIFF,.cell-ERR,.cell-STALE{background:#fdecea}
details>summary{cursor:pointer}pre{background:#f6f8fa;padding:8px;border-radius:4px;overflow-x:auto;font-size:12.5px;margin:6px 0}
td.differs{background:#fdecea}.legend{color:#555;font-size:12.5px;max-width:1100px}
.note{font-size:12.5px;color:#333;margin:4px 0}code{font-size:12.5px}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _status_span(status: str) -> str:
    short = SHORT[status]
    return f'<span class="s-{short}">{_e(status)}</span>'


def _values_table(sc: Scenario, impl: str, result: RunResult) -> str:
    """The observed values of `impl` next to its reference's (and the declared ones)."""
    cell = result.cells[sc.id][impl]
    obs = result.observations[sc.id][impl]
    pair = result.references.get(sc.id, {}).get(impl)
    base = result.baselines.get(sc.id)
    ref = pair if pair and pair.label == cell.against.split(" and ")[0] else base
    if cell.against and base and cell.against == base.label:
        ref = base
    columns = [(impl, obs)]
    if ref is not None and ref.label != impl:
        columns.append((ref.label, ref.observation))
    if obs.get("status") != "ok":
        text = obs.get("detail", obs.get("status"))
        tb = obs.get("traceback")
        return f'<p class="note">{_e(text)}</p>' + (f"<pre>{_e(tb)}</pre>" if tb else "")
    keys: list[str] = []
    for _, o in columns:
        for k in o.get("values", {}):
            if k not in keys:
                keys.append(k)
    declared = cell.expect.outcome if cell.expect else {}
    differing = set()
    if len(columns) > 1 and columns[1][1].get("status") == "ok":
        differing = {d.key for d in diff_values(obs["values"], columns[1][1]["values"])}
    head = "".join(f"<th>{_e(label)}</th>" for label, _ in columns)
    if declared:
        head += "<th>declared for " + _e(cell.expect.family) + "</th>"
    rows = []
    for k in keys:
        tds = []
        for label, o in columns:
            v = o.get("values", {}).get(k, {"missing": True}) if o.get("status") == "ok" else o.get("status")
            cls = ' class="differs"' if k in differing else ""
            tds.append(f"<td{cls}><code>{_e(describe(v, 400))}</code></td>")
        if declared:
            tds.append(f"<td><code>{_e(spec_text(declared[k])) if k in declared else ''}</code></td>")
        rows.append(f"<tr><th>{_e(k)}</th>{''.join(tds)}</tr>")
    return f"<table><tr><th>value</th>{head}</tr>{''.join(rows)}</table>"


def _cell_html(sc: Scenario, impl: str, result: RunResult) -> str:
    cell = result.cells[sc.id][impl]
    short = SHORT[cell.status]
    parts = [f'<td class="cell-{short}"><details><summary>{_status_span(cell.status)}</summary>']
    if cell.against:
        parts.append(f'<p class="note">compared with {_e(cell.against)}</p>')
    if cell.note:
        parts.append(f'<p class="note">{_e(cell.note)}</p>')
    if cell.expect:
        parts.append(f'<p class="note">expected difference ({_e(cell.expect.family)}): {_e(cell.expect.reason)} '
                     f'&mdash; <a href="{_e(cell.expect.doc)}">{_e(cell.expect.doc)}</a></p>')
    parts.append(_values_table(sc, impl, result))
    parts.append(f"<pre>{_e(scenario_code(sc))}</pre></details></td>")
    return "".join(parts)


def _matrix(result: RunResult) -> str:
    ran = result.impls
    head = "".join(f"<th>{_e(s.name)}<br><span class='meta'>{_e(s.version or s.state)}</span></th>" for s in ran)
    rows = []
    for g, title in GROUPS.items():
        scs = [sc for sc in result.scenarios if sc.group == g]
        if not scs:
            continue
        tds = []
        for s in ran:
            if not s.ran:
                tds.append(f'<td class="cell-na">{_e(s.state)}</td>')
                continue
            counts = Counter(result.cells[sc.id][s.name].status for sc in scs)
            worst = ("DIFF" if any(st in FAILING for st in counts)
                     else "defect" if counts.get("known defect") else "ok")
            items = "".join(f'<li><a href="#{_e(sc.id)}">{_e(sc.name)}</a>: '
                            f"{_status_span(result.cells[sc.id][s.name].status)}</li>" for sc in scs)
            text = " ".join(f'<span class="s-{t.lstrip("0123456789")}">{_e(t)}</span>'
                            for t in cell_text(counts).split(" "))
            tds.append(f'<td class="cell-{worst}"><details><summary>{text}</summary><ul>{items}</ul></details></td>')
        rows.append(f'<tr><td class="group"><a href="#group-{g}">{_e(title)}</a> ({len(scs)})</td>{"".join(tds)}</tr>')
    return f"<table class='matrix'><tr><th>scenario group</th>{head}</tr>{''.join(rows)}</table>"


def _scenario_tables(result: RunResult) -> str:
    ran = result.ran()
    out = []
    head = "".join(f"<th>{_e(s.name)}</th>" for s in ran)
    for g, title in GROUPS.items():
        scs = [sc for sc in result.scenarios if sc.group == g]
        if not scs:
            continue
        rows = []
        for sc in scs:
            cells = "".join(_cell_html(sc, s.name, result) for s in ran)
            rows.append(f'<tr id="{_e(sc.id)}"><td><b>{_e(sc.name)}</b><br>'
                        f'<span class="meta">{_e(sc.checks)}</span></td>{cells}</tr>')
        out.append(f'<h3 id="group-{g}">{_e(title)}</h3>'
                   f"<table><tr><th>scenario</th>{head}</tr>{''.join(rows)}</table>")
    return "".join(out)


def _defects(result: RunResult) -> str:
    items = [(sc, impl, c) for sc in result.scenarios for impl, c in result.cells[sc.id].items()
             if c.defect is not None]
    if not items:
        return ""
    lis = "".join(f'<li><a href="#{_e(sc.id)}">{_e(sc.id)}</a> on {_e(impl)} ({_e(c.status)}): '
                  f"{_e(c.defect.what)}</li>" for sc, impl, c in items)
    return f"<h2>Known facade defects</h2><ul>{lis}</ul>"


def to_html(result: RunResult) -> str:
    """The whole report as one HTML document."""
    meta = result.meta
    cols = "; ".join(f"{s.name} {s.version}" if s.ran else f"{s.name} ({s.state})" for s in result.impls)
    ok = result.exit_code == 0
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width,initial-scale=1'>"
        f"<title>flowgrad conformance</title><style>{_CSS}</style></head><body>"
        "<h1>flowgrad conformance</h1>"
        f"<p class='meta'>{_e(cols)}<br>baseline: {_e(', '.join(meta.get('baseline', [])) or 'none')}; "
        f"flowgrad {_e(meta.get('flowgrad_version', ''))} at {_e(meta.get('flowgrad_commit', ''))}; "
        f"Python {_e(meta.get('python', ''))}, NumPy {_e(meta.get('numpy', ''))}; {_e(meta.get('platform', ''))}; "
        f"{_e(meta.get('started', ''))}</p>"
        f"<div class='summary {'pass' if ok else 'fail'}'>{_e(summary_line(result))}</div>"
        f"<h2>Matrix</h2>{_matrix(result)}<p class='legend'>{_e(LEGEND)}</p>"
        f"{_defects(result)}<h2>Scenarios</h2>{_scenario_tables(result)}"
        "</body></html>\n"
    )
