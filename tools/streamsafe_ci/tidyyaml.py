"""Reader for the YAML that `clang-tidy --export-fixes` writes.

clang-tidy writes its diagnostics with LLVM's YAML I/O, which only ever uses a
small subset of YAML: block mappings, block sequences of mappings, the empty
flow collections `[]` and `{}`, and one-line scalars that are plain,
single-quoted (`''` escapes a quote) or double-quoted (backslash escapes, used
for control characters and UTF-8). This module parses exactly that subset and
raises YamlError on anything else, so an unexpected file is reported, never
silently read as "no findings".
"""

import re


class YamlError(Exception):
    pass


_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n",
    "v": "\v", "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"',
    "/": "/", "\\": "\\", "N": "\u0085", "_": "\u00a0", "L": "\u2028",
    "P": "\u2029",
}
_HEX_LEN = {"x": 2, "u": 4, "U": 8}


def _double_quoted(text, lineno):
    out = []
    i = 1
    while i < len(text):
        c = text[i]
        if c == '"':
            if text[i + 1:].strip():
                raise YamlError(f"line {lineno}: text after closing quote")
            return "".join(out)
        if c == "\\":
            i += 1
            if i >= len(text):
                break
            e = text[i]
            if e in _ESCAPES:
                out.append(_ESCAPES[e])
            elif e in _HEX_LEN:
                digits = text[i + 1:i + 1 + _HEX_LEN[e]]
                if len(digits) != _HEX_LEN[e]:
                    raise YamlError(f"line {lineno}: bad \\{e} escape")
                code = int(digits, 16)
                # LLVM escapes raw bytes of invalid UTF-8 as \xNN.
                out.append(chr(code) if e != "x" or code < 0x80 else
                           bytes([code]).decode("latin-1"))
                i += _HEX_LEN[e]
            else:
                raise YamlError(f"line {lineno}: unknown escape \\{e}")
        else:
            out.append(c)
        i += 1
    raise YamlError(f"line {lineno}: unterminated double-quoted scalar")


def _single_quoted(text, lineno):
    out = []
    i = 1
    while i < len(text):
        c = text[i]
        if c == "'":
            if text[i + 1:i + 2] == "'":
                out.append("'")
                i += 2
                continue
            if text[i + 1:].strip():
                raise YamlError(f"line {lineno}: text after closing quote")
            return "".join(out)
        out.append(c)
        i += 1
    raise YamlError(f"line {lineno}: unterminated single-quoted scalar")


def _scalar(text, lineno):
    text = text.strip()
    if text == "[]":
        return []
    if text == "{}":
        return {}
    if text.startswith('"'):
        return _double_quoted(text, lineno)
    if text.startswith("'"):
        return _single_quoted(text, lineno)
    if text[:1] in ("[", "{", "|", ">", "&", "*", "!"):
        raise YamlError(f"line {lineno}: unsupported YAML construct {text[:10]!r}")
    if text in ("~", "null"):
        return None
    return text


_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):(?: +(.*))?$")


class _Parser:
    def __init__(self, text):
        self.lines = []  # (lineno, indent, content)
        for n, raw in enumerate(text.splitlines(), 1):
            if raw.startswith(("---", "...")) or not raw.strip():
                continue
            if raw.lstrip().startswith("#"):
                continue
            content = raw.lstrip(" ")
            self.lines.append((n, len(raw) - len(content), content.rstrip()))
        self.pos = 0

    def parse(self):
        if not self.lines:
            return {}
        node = self.block(self.lines[0][1])
        if self.pos != len(self.lines):
            n = self.lines[self.pos][0]
            raise YamlError(f"line {n}: unexpected indentation")
        return node

    def block(self, indent):
        if self.lines[self.pos][2].startswith("-"):
            return self.sequence(indent)
        return self.mapping(indent)

    def sequence(self, indent):
        items = []
        while self.pos < len(self.lines):
            n, ind, content = self.lines[self.pos]
            if ind < indent:
                break
            if ind > indent or not content.startswith("-"):
                raise YamlError(f"line {n}: bad sequence item")
            rest = content[1:]
            if not rest.strip():
                self.pos += 1
                if self.pos < len(self.lines) and self.lines[self.pos][1] > indent:
                    items.append(self.block(self.lines[self.pos][1]))
                else:
                    items.append(None)
                continue
            if not rest.startswith(" "):
                raise YamlError(f"line {n}: bad sequence item")
            item_indent = indent + 1 + (len(rest) - len(rest.lstrip(" ")))
            if _KEY.match(rest.strip()):
                # "- Key: value": a mapping whose first key sits on this line.
                self.lines[self.pos] = (n, item_indent, rest.strip())
                items.append(self.mapping(item_indent))
            else:
                items.append(_scalar(rest, n))
                self.pos += 1
        return items

    def mapping(self, indent):
        result = {}
        while self.pos < len(self.lines):
            n, ind, content = self.lines[self.pos]
            if ind < indent:
                break
            if ind > indent:
                raise YamlError(f"line {n}: unexpected indentation")
            if content.startswith("-"):
                break
            m = _KEY.match(content)
            if not m:
                raise YamlError(f"line {n}: expected 'key: value'")
            key, value = m.group(1), m.group(2)
            self.pos += 1
            if value is not None and value.strip():
                result[key] = _scalar(value, n)
            elif self.pos < len(self.lines) and (
                    self.lines[self.pos][1] > indent or
                    (self.lines[self.pos][1] == indent and
                     self.lines[self.pos][2].startswith("-"))):
                result[key] = self.block(self.lines[self.pos][1])
            else:
                result[key] = None
        return result


def loads(text):
    """Parses export-fixes YAML text into dicts, lists and strings."""
    return _Parser(text).parse()
