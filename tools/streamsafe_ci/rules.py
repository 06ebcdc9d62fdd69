"""Rule metadata for SARIF: descriptions, help text and help URIs.

The checks are the tools' own: a report's rules are the checks its findings
name, and which checks exist is what the driver and streamsafe-py list
(`--list-checks`); this module keeps no list of them. A streamsafe-* check
is described by its documentation page, docs/checks/<name without
streamsafe->.md: the first `# ` heading is skipped, the first paragraph is
the full description, its first sentence the short one, and the page up to
its second-level headings is the help text. Pages are looked up next to the
tool (source tree, or share/streamsafe after install); every check has one
(test/meta/check-files.test), so a check whose page is not found is named
and points at its page online. Stock clang-tidy checks link to LLVM's docs.
"""

import os
import re

DEFAULT_DOC_BASE_URL = \
    "https://github.com/streamsafe/streamsafe/blob/main/docs/checks/"


def _first_sentence(text):
    m = re.match(r"(.+?[.!?])(\s|$)", text, re.S)
    return m.group(1) if m else text


def _with_period(text):
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def _plain(markdown):
    text = re.sub(r"`([^`]*)`", r"\1", markdown)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[*_]{1,2}([^*_]+)[*_]{1,2}", r"\1", text)
    return " ".join(text.split())


def parse_doc(text):
    """(full description, help markdown) of a check page, or None."""
    lines = text.splitlines()
    body = []
    started = False
    for line in lines:
        if not started:
            if line.startswith("# ") or not line.strip():
                continue
            started = True
        if line.startswith("## "):
            break
        body.append(line)
    help_md = "\n".join(body).strip()
    if not help_md:
        return None
    para = []
    for line in body:
        if not line.strip():
            if para:
                break
            continue
        if line.startswith(("```", "    ", "|")):
            if para:
                break
            continue
        para.append(line.strip())
    if not para:
        return None
    return _plain(" ".join(para)), help_md


class RuleCatalog:
    def __init__(self, doc_dirs, base_url):
        self.doc_dirs = [d for d in doc_dirs if d and os.path.isdir(d)]
        self.base_url = base_url if base_url.endswith("/") else base_url + "/"

    def _doc(self, short):
        for d in self.doc_dirs:
            path = os.path.join(d, short + ".md")
            try:
                with open(path, encoding="utf-8") as f:
                    return parse_doc(f.read())
            except OSError:
                continue
        return None

    def knows(self, check):
        """True when `check` is a streamsafe-* check with its page here."""
        return (check.startswith("streamsafe-") and
                self._doc(check[len("streamsafe-"):]) is not None)

    def describe(self, check):
        """A SARIF reportingDescriptor for `check`."""
        if check.startswith("streamsafe-"):
            short = check[len("streamsafe-"):]
            help_uri = self.base_url + short + ".md"
            doc = self._doc(short)
            if doc:
                full, help_md = doc
            else:
                full = f"StreamSafe check {check}."
                help_md = full
        elif check.startswith("clang-diagnostic-"):
            flag = check[len("clang-diagnostic-"):]
            full = f"Clang compiler diagnostic -W{flag}."
            help_md = full
            help_uri = ("https://clang.llvm.org/docs/DiagnosticsReference.html"
                        f"#w{flag}")
        else:
            module, _, rest = check.partition("-")
            if module == "clang" and rest.startswith("analyzer-"):
                module, rest = "clang-analyzer", rest[len("analyzer-"):]
            full = f"clang-tidy check {check}."
            help_md = full
            help_uri = ("https://clang.llvm.org/extra/clang-tidy/checks/"
                        f"{module}/{rest}.html")
        full = _with_period(full)
        name = "".join(p.capitalize() for p in re.split(r"[-_.]", check) if p)
        return {
            "id": check,
            "name": name,
            "shortDescription": {"text": _with_period(_first_sentence(full))},
            "fullDescription": {"text": full},
            "help": {"text": _with_period(_plain(help_md)),
                     "markdown": help_md},
            "helpUri": help_uri,
            "defaultConfiguration": {"level": "warning"},
        }
