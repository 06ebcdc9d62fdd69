#!/usr/bin/env python3
"""usage: lsp_diagnostics.py CLANGD FILE [CLANGD ARGS...]

Starts CLANGD as a language server, opens FILE and prints the diagnostics
clangd publishes for it, one per line: `LINE:COLUMN: SOURCE CODE: MESSAGE`
(1-based), sorted. Exits 1 if none arrive within 60 s."""
import json
import os
import subprocess
import sys
import threading


def send(proc, obj):
    body = json.dumps(obj).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def read(proc):
    length = None
    while True:
        line = proc.stdout.readline()
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(proc.stdout.read(length))


def main():
    clangd, path = sys.argv[1], os.path.abspath(sys.argv[2])
    proc = subprocess.Popen([clangd, "--log=error"] + sys.argv[3:],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    timer = threading.Timer(60, proc.kill)
    timer.start()
    uri = "file://" + path
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"processId": os.getpid(), "rootUri": None,
                           "capabilities": {}}})
    diags = None
    while True:
        msg = read(proc)
        if msg is None:
            break
        if msg.get("id") == 1:
            send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
            with open(path, encoding="utf-8") as f:
                text = f.read()
            lang = "cuda-cpp" if path.endswith((".cu", ".cuh")) else "cpp"
            send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen",
                        "params": {"textDocument": {"uri": uri,
                                                    "languageId": lang,
                                                    "version": 1,
                                                    "text": text}}})
        elif msg.get("method") == "textDocument/publishDiagnostics" and \
                msg["params"]["uri"] == uri:
            diags = msg["params"]["diagnostics"]
            break
    send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    send(proc, {"jsonrpc": "2.0", "method": "exit"})
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    timer.cancel()
    if diags is None:
        sys.exit("lsp_diagnostics: no diagnostics published")
    for d in sorted(diags, key=lambda d: (d["range"]["start"]["line"],
                                          d["range"]["start"]["character"])):
        start = d["range"]["start"]
        print(f"{start['line'] + 1}:{start['character'] + 1}: "
              f"{d.get('source', '')} {d.get('code', '')}: {d['message']}")


if __name__ == "__main__":
    main()
