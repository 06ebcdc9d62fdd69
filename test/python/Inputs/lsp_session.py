"""A scripted LSP client for streamsafe-py --lsp (test/python/lsp.test).

`lsp_session.py BINARY DIR session` drives one editor session over the
server's stdio and prints a transcript that FileCheck reads: the replies,
and each publishDiagnostics with its ranges, codes and related notes. The
buffer lives at DIR/buffer.py (never written: the server must check the
editor's text, not the disk's). `lsp_session.py BINARY DIR broken` sends
bad input and prints what the server answers and its exit code.
Standard library only.
"""

import json
import os
import subprocess
import sys

BUGGY = """import torch


def side_sum(like: torch.Tensor) -> torch.Tensor:
    side = torch.cuda.Stream()
    a = torch.empty(100, device=like.device).normal_()
    with torch.cuda.stream(side):
        b = torch.sum(a)
    torch.cuda.current_stream().wait_stream(side)
    return b.clone()
"""


class Server:
    def __init__(self, binary, cwd):
        self.p = subprocess.Popen([binary, "--lsp"], cwd=cwd,
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        self.next_id = 0

    def raw(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def send(self, method, params=None, request=False):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        if request:
            self.next_id += 1
            msg["id"] = self.next_id
        body = json.dumps(msg).encode()
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def recv(self):
        length = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                return None
            line = line.strip()
            if not line:
                break
            name, value = line.split(b":", 1)
            if name.strip().lower() == b"content-length":
                length = int(value)
        return json.loads(self.p.stdout.read(length))

    def request(self, method, params=None):
        self.send(method, params, request=True)
        reply = self.recv()
        assert reply["id"] == self.next_id, reply
        if "error" in reply:
            print("%s: error %d: %s" % (method, reply["error"]["code"],
                                        reply["error"]["message"]))
        else:
            print("%s: result %s" % (method, json.dumps(reply["result"],
                                                         sort_keys=True)))
        return reply

    def finish(self, close_stdin=True):
        if close_stdin:
            self.p.stdin.close()
        code = self.p.wait(timeout=30)
        err = self.p.stderr.read().decode()
        for line in err.splitlines():
            print("stderr: " + line)
        print("exit code %d" % code)


def where(r):
    s, e = r["start"], r["end"]
    return "%d:%d-%d:%d" % (s["line"], s["character"], e["line"],
                            e["character"])


def diagnostics(server, label):
    msg = server.recv()
    assert msg["method"] == "textDocument/publishDiagnostics", msg
    p = msg["params"]
    print("%s: %d diagnostics for %s (version %s)" % (
        label, len(p["diagnostics"]), os.path.basename(p["uri"]),
        p.get("version")))
    for d in p["diagnostics"]:
        sev = {1: "error", 2: "warning", 3: "information"}[d["severity"]]
        print("  %s %s [%s] %s" % (where(d["range"]), sev, d.get("code", ""),
                                   d["message"]))
        for r in d.get("relatedInformation", []):
            uri = os.path.basename(r["location"]["uri"])
            print("    note %s %s: %s" % (uri, where(r["location"]["range"]),
                                         r["message"]))


def session(binary, tmp):
    uri = "file://" + os.path.join(tmp, "buffer%20file.py")
    s = Server(binary, tmp)
    s.request("shutdown")  # before initialize: refused
    s.send("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "python", "version": 0, "text": BUGGY}})
    s.request("initialize", {"processId": None, "rootUri": None,
                             "capabilities": {}})
    s.send("initialized", {})
    s.send("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": BUGGY}})
    diagnostics(s, "open")
    # The fix, typed in: one line inserted before the `with` (an
    # incremental change at line 6, column 0).
    s.send("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{
            "range": {"start": {"line": 6, "character": 0},
                      "end": {"line": 6, "character": 0}},
            "text": "    side.wait_stream(torch.cuda.current_stream())\n"}]})
    diagnostics(s, "typed the wait")
    # A half-typed line: the file is not analysed, and says where.
    s.send("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 3},
        "contentChanges": [{"text": BUGGY + "def broken(:\n"}]})
    diagnostics(s, "syntax error")
    # Back to the bug, with a suppression comment on one finding's line and
    # non-ASCII text before a finding (columns are UTF-16 units).
    text = BUGGY.replace("b = torch.sum(a)",
                         "b = torch.sum(a)  # NOLINT(streamsafe-unsynchronized-access)")
    text = text.replace("    return b.clone()", "    é = 1; return b.clone()")
    s.send("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 4},
        "contentChanges": [{"text": text}]})
    diagnostics(s, "nolint")
    # Lines ended by a lone CR (old Mac files): the protocol and Python
    # count them as lines, so the ranges are those of the "open" step.
    s.send("textDocument/didChange", {
        "textDocument": {"uri": uri, "version": 5},
        "contentChanges": [{"text": BUGGY.replace("\n", "\r")}]})
    diagnostics(s, "lone CR")
    # A .clang-tidy written next to the buffer counts from the next check.
    with open(os.path.join(tmp, ".clang-tidy"), "w") as f:
        f.write("Checks: '-*,streamsafe-unsynchronized-access'\n")
    s.send("textDocument/didSave", {"textDocument": {"uri": uri}})
    diagnostics(s, "saved with a .clang-tidy")
    s.send("textDocument/didClose", {"textDocument": {"uri": uri}})
    diagnostics(s, "closed")
    s.request("textDocument/hover", {"textDocument": {"uri": uri},
                                     "position": {"line": 0, "character": 0}})
    s.send("$/cancelRequest", {"id": 99})
    s.request("shutdown")
    s.request("textDocument/hover", {})
    s.send("exit")
    s.finish(close_stdin=False)


def broken(binary, tmp):
    s = Server(binary, tmp)
    s.request("initialize", {"capabilities": {}})
    body = b"{not json"
    s.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    reply = s.recv()
    print("not json: error %d" % reply["error"]["code"])
    body = b"[1, 2]"
    s.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    reply = s.recv()
    print("not an object: error %d" % reply["error"]["code"])
    s.raw(b"Content-Type: text/plain\r\n\r\n")
    s.finish()
    # The client goes away without exit.
    s = Server(binary, tmp)
    s.request("initialize", {"capabilities": {}})
    s.finish()


if __name__ == "__main__":
    binary, tmp, which = sys.argv[1:4]
    {"session": session, "broken": broken}[which](binary, tmp)
