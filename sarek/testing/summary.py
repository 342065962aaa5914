"""The fuzz campaign's summary (sarek.testing.fuzz): several jobs' summaries merged into one, and the text of
`summary.txt`."""

from __future__ import annotations

from typing import Any, cast


def merge_summaries(parts: list[dict[str, Any]], elapsed: float) -> dict[str, Any]:
    """One summary of several jobs' (counts added, lists joined)."""
    m: dict[str, Any] = {"kernels": 0, "seconds": round(elapsed, 1), "devices": [], "targets": [], "agreements": 0,
                         "ran": {}, "validated": {}, "validated_by_device": {}, "not_applicable": {}, "known": {},
                         "failures": {}, "failed_seeds": [], "failure_details": []}
    for p in parts:
        m["devices"] = m["devices"] or p["devices"]
        m["targets"] = m["targets"] or p["targets"]
        m["kernels"] += p["kernels"]
        m["agreements"] += p["agreements"]
        for key in ("ran", "validated", "validated_by_device", "not_applicable", "failures"):
            for k, v in cast("dict[str, int]", p.get(key, {})).items():
                m[key][k] = m[key].get(k, 0) + v
        for k, v in cast("dict[str, list[int]]", p["known"]).items():
            m["known"][k] = sorted(m["known"].get(k, []) + v)
        m["failed_seeds"] = sorted(m["failed_seeds"] + p["failed_seeds"])
        m["failure_details"] += p["failure_details"]
    return m


def format_summary(s: dict[str, Any]) -> str:
    jobs = f" ({s['jobs']} jobs)" if s.get("jobs") else ""
    lines = [f"sarek fuzz: {s['kernels']} kernels in {s['seconds']} s{jobs} on {', '.join(s['devices'])}; "
             f"targets validated: {', '.join(s['targets']) or 'none'}",
             f"  all devices agreed on {s['agreements']} kernels; runs per device: {s['ran']}",
             f"  sources validated per target: {s['validated']}"
             + (f" (of which built by the device running them: {s['validated_by_device']})"
                if s.get("validated_by_device") else "")]
    if s["not_applicable"]:
        lines.append("  refused (n/a): " + "; ".join(f"{k} x{v}" for k, v in sorted(s["not_applicable"].items())))
    for why, seeds in s.get("known", {}).items():
        lines.append(f"  known, not counted: {why}: seeds {seeds}")
    if s["failures"]:
        lines.append(f"  FAILURES: {s['failures']} (seeds {s['failed_seeds']})")
    else:
        lines.append("  no failures")
    return "\n".join(lines) + "\n"
