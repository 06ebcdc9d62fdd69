"""Reporters: clang-style text, JSON lines and SARIF 2.1.0.

All three print the same findings in the same order (file, line, column,
check, message) and contain nothing that changes between identical runs (no
times, no temporary paths), so the same input gives the same bytes.
"""

import json
import os
import urllib.parse

from .findings import FINGERPRINT_KEY, relpath

SARIF_SCHEMA = ("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/"
                "schemas/sarif-schema-2.1.0.json")
SRCROOT = "%SRCROOT%"


class Report:
    """Everything a reporter needs, computed once by the CLI."""

    def __init__(self, root, findings, failures, skipped, sources, version,
                 rules, baseline_used, summary):
        self.root = root
        self.findings = findings      # sorted, fingerprinted
        self.failures = failures      # sorted UnitResults with failed=True
        self.skipped = skipped        # sorted [(path, reason)]
        self.sources = sources
        self.version = version
        self.rules = rules            # RuleCatalog
        self.baseline_used = baseline_used
        self.summary = summary        # dict, deterministic


def _display(path, root):
    return relpath(path, root) if path else "<no file>"


# --- text ------------------------------------------------------------------

def _text_diag(out, report, loc, kind, message, check=None):
    suffix = f" [{check}]" if check else ""
    if not loc.path:
        out.append(f"{kind}: {message}{suffix}")
        return
    out.append(f"{_display(loc.path, report.root)}:{loc.line}:{loc.column}: "
               f"{kind}: {message}{suffix}")
    text = report.sources.line_text(loc.path, loc.line)
    if text:
        out.append(f"{loc.line:5} | {text}")
        prefix = text.encode("utf-8")[:max(loc.column - 1, 0)].decode(
            "utf-8", "replace")
        caret = "".join("\t" if c == "\t" else " " for c in prefix) + "^"
        out.append(f"      | {caret}")


def render_text(report):
    out = []
    for f in report.findings:
        _text_diag(out, report, f.location, f.level, f.message, f.check)
        for n in f.notes:
            _text_diag(out, report, n.location, "note", n.message)
    for r in report.failures:
        for e in r.errors:
            _text_diag(out, report, e.location, "error", e.message, e.check)
        out.append(f"{_display(r.unit.file, report.root)}: error: "
                   f"StreamSafe could not analyse this file ({r.message})")
    return "\n".join(out) + ("\n" if out else "")


# --- JSON lines --------------------------------------------------------------

def _loc_json(loc, root):
    if not loc.path:
        return {"file": None, "line": None, "column": None}
    return {"file": relpath(loc.path, root), "line": loc.line,
            "column": loc.column}


def render_jsonl(report):
    lines = []
    for f in report.findings:
        obj = {"type": "finding", "check": f.check, "level": f.level}
        obj.update(_loc_json(f.location, report.root))
        obj["message"] = f.message
        obj["fingerprint"] = f.fingerprint
        obj["notes"] = [dict(_loc_json(n.location, report.root),
                             message=n.message) for n in f.notes]
        if f.fixes:
            obj["fixes"] = [{"file": relpath(r.path, report.root),
                             "offset": r.offset, "length": r.length,
                             "text": r.text} for r in f.fixes]
        lines.append(obj)
    for r in report.failures:
        lines.append({
            "type": "error", "file": relpath(r.unit.file, report.root),
            "exit_code": r.exit_code, "message": r.message,
            "diagnostics": [dict(_loc_json(e.location, report.root),
                                 check=e.check, message=e.message)
                            for e in r.errors]})
    for path, reason in report.skipped:
        lines.append({"type": "skipped", "file": relpath(path, report.root),
                      "reason": reason})
    lines.append(dict(type="summary", **report.summary))
    return "".join(json.dumps(obj, sort_keys=False, ensure_ascii=False) + "\n"
                   for obj in lines)


# --- SARIF -------------------------------------------------------------------

def _artifact(path, root):
    rel = relpath(path, root)
    if rel != path:
        return {"uri": urllib.parse.quote(rel), "uriBaseId": SRCROOT}
    return {"uri": "file://" + urllib.parse.quote(path)}


def _region(report, loc, with_snippet=True):
    region = {"startLine": loc.line,
              "startColumn": report.sources.char_column(loc.path, loc.line,
                                                        loc.column)}
    text = report.sources.line_text(loc.path, loc.line)
    if with_snippet and text:
        region["snippet"] = {"text": text}
    return region


def _physical(report, loc, context=True):
    phys = {"artifactLocation": _artifact(loc.path, report.root),
            "region": _region(report, loc)}
    if context:
        first = max(loc.line - 2, 1)
        lines = [report.sources.line_text(loc.path, n)
                 for n in range(first, loc.line + 3)]
        while lines and not lines[-1]:
            lines.pop()
        if lines:
            phys["contextRegion"] = {
                "startLine": first, "endLine": first + len(lines) - 1,
                "snippet": {"text": "\n".join(lines) + "\n"}}
    return phys


def _message(text):
    text = text.strip() or "(no message)"
    return {"text": text if text.endswith((".", "!", "?")) else text + "."}


def _sarif_fixes(report, f):
    by_file = {}
    for r in f.fixes:
        by_file.setdefault(r.path, []).append(r)
    changes = []
    for path in sorted(by_file):
        changes.append({
            "artifactLocation": _artifact(path, report.root),
            "replacements": [{
                "deletedRegion": {"byteOffset": r.offset,
                                  "byteLength": r.length},
                "insertedContent": {"text": r.text}}
                for r in sorted(by_file[path], key=lambda r: r.offset)]})
    return [{"description": {"text": f"Apply the fix-it of {f.check}."},
             "artifactChanges": changes}]


NOTIFICATIONS = [
    {"id": "SSCI1001", "name": "AnalysisFailed",
     "shortDescription": {"text": "A file could not be analysed."},
     "fullDescription": {"text": "The driver failed on a translation unit, "
                                 "or streamsafe-py on a Python file "
                                 "(compiler or syntax error, crash or "
                                 "timeout); its findings may be missing."},
     "defaultConfiguration": {"level": "error"}},
    {"id": "SSCI1002", "name": "NotAnalysed",
     "shortDescription": {"text": "A requested file was not analysed."},
     "fullDescription": {"text": "The file is not in the compile database and "
                                 "no translation unit in it includes the file."},
     "defaultConfiguration": {"level": "warning"}},
]


def render_sarif(report):
    checks = sorted({f.check for f in report.findings})
    rule_index = {c: i for i, c in enumerate(checks)}
    results = []
    for f in report.findings:
        res = {"ruleId": f.check, "ruleIndex": rule_index[f.check],
               "level": "error" if f.level == "error" else "warning",
               "message": _message(f.message)}
        if f.location.path:
            res["locations"] = [{"physicalLocation":
                                 _physical(report, f.location)}]
        related = []
        for i, n in enumerate(f.notes, 1):
            rel = {"id": i, "message": _message(n.message)}
            if n.location.path:
                rel["physicalLocation"] = _physical(report, n.location,
                                                    context=False)
            related.append(rel)
        if related:
            res["relatedLocations"] = related
        res["partialFingerprints"] = {FINGERPRINT_KEY: f.fingerprint}
        if report.baseline_used:
            res["baselineState"] = "new"
        if f.fixes:
            res["fixes"] = _sarif_fixes(report, f)
        results.append(res)
    notifications = []
    for r in report.failures:
        note = {"level": "error",
                "descriptor": {"id": "SSCI1001", "index": 0},
                "message": _message(f"StreamSafe could not analyse "
                                    f"{_display(r.unit.file, report.root)} "
                                    f"({r.message})"),
                "locations": [{"physicalLocation": {
                    "artifactLocation": _artifact(r.unit.file, report.root)}}]}
        notifications.append(note)
        for e in r.errors:
            diag = {"level": "error",
                    "descriptor": {"id": "SSCI1001", "index": 0},
                    "message": _message(f"{e.message} [{e.check}]")}
            if e.location.path:
                diag["locations"] = [{"physicalLocation":
                                      _physical(report, e.location,
                                                context=False)}]
            notifications.append(diag)
    for path, reason in report.skipped:
        notifications.append({
            "level": "warning", "descriptor": {"id": "SSCI1002", "index": 1},
            "message": _message(f"{_display(path, report.root)} was not "
                                f"analysed: {reason}"),
            "locations": [{"physicalLocation": {
                "artifactLocation": _artifact(path, report.root)}}]})
    base = report.rules.base_url
    info = base.split("/blob/")[0] if "/blob/" in base else base
    driver = {"name": "StreamSafe", "fullName": "StreamSafe CUDA stream-safety "
              "analyzer for LibTorch C++ and PyTorch Python code",
              "informationUri": info,
              "version": report.version, "semanticVersion": report.version,
              "rules": [report.rules.describe(c) for c in checks],
              "notifications": NOTIFICATIONS}
    root_uri = "file://" + urllib.parse.quote(report.root.rstrip("/") + "/")
    invocation = {"executionSuccessful": not report.failures}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    run = {"tool": {"driver": driver},
           "invocations": [invocation],
           "originalUriBaseIds": {SRCROOT: {"uri": root_uri}},
           "columnKind": "unicodeCodePoints",
           "results": results}
    log = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


RENDERERS = {"text": render_text, "jsonl": render_jsonl, "sarif": render_sarif}


def write_output(path, text):
    if path in (None, "-"):
        import sys
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
