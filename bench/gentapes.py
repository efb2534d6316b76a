#!/usr/bin/env python3
"""Writes the benchmark tapes into OUTDIR (bench/out by default). Deterministic: same bytes every run.

Tapes (all valid per docs/tape-format.md: a header, {"t":N,"out":{...}} frames, a final exit frame):

  startup.tape.ndjson       10 small stream-json events, with vars (the usual recorded tape)
  cds-probe.tape.ndjson     one event at t=0, one at t=400 ms: keeps the fake alive long enough
                            to look at its /proc/PID/maps
  big-novars.tape.ndjson    ~100 MB, a 2026 stream-json run whose bulk is big read/edit tool
                            results (100 KB - 1 MB of file content each); no "vars" in the header
  big-vars.tape.ndjson      the same events, with vars sessionId, cwd, prompt, epochMs
  small-novars/-vars        ~1 MB, the same event sequence cut short (the same longest line:
                            the first big tool result is the largest of the run)
  timing.tape.ndjson        1,000 small events 5 ms apart, the first at t=1000 ms
  recorder-200mb.stdout     not a tape: what the CLI writes on stdout in a ~200 MB run of the same
                            kind as big-novars, for the recorder benchmarks to record (cat'ed)
  recorder-2mb.stdout       the same run cut short at ~2 MB (the same longest line)

Beside each tape, NAME.expected.json holds the stdout a replay must produce (byte count, and the
SHA-256 where the replay is byte-identical: tapes without vars).
"""
import hashlib
import json
import os
import random
import sys

VERSION = "4"  # bump when the tapes change, so bench/run regenerates them

SESSION = "ebb521c2-404d-4a4e-8c2f-1f8bdb141043"
CWD = "/Users/dev/src/acme-billing"
PROMPT = "Refactor the invoice exporter to stream rows instead of building the whole CSV in memory."
EPOCH_MS = 1784819288000
REQUEST = "59ff63a6-195e-463f-89ce-f26a820987bf"

MB = 1_000_000


def dumps(value):
    # JavaScript's JSON.stringify: compact, non-ASCII literal
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class TapeWriter:
    def __init__(self, path, vars_):
        self.path = path
        self.f = open(path + ".tmp", "wb")
        self.out_hash = hashlib.sha256()
        self.out_bytes = 0
        self.size = 0
        self.frames = 0
        header = {"tape": 1, "cli": "cursor-agent", "cliVersion": "2026.07.20",
                  "argv": ["-p", "--output-format", "stream-json", PROMPT],
                  "outputFormat": "stream-json", "recordedAt": "2026-07-23T16:28:08Z",
                  "source": "scripted", "recorder": "agentdouble-bench " + VERSION}
        if vars_:
            header["vars"] = {"sessionId": SESSION, "cwd": CWD, "prompt": PROMPT,
                              "epochMs": EPOCH_MS}
        self._line(dumps(header))

    def _line(self, text):
        b = (text + "\n").encode("utf-8")
        self.f.write(b)
        self.size += len(b)

    def out(self, t, event):
        value = dumps(event)
        self._line('{"t":%d,"out":%s}' % (t, value))
        b = (value + "\n").encode("utf-8")
        self.out_hash.update(b)
        self.out_bytes += len(b)
        self.frames += 1

    def close(self, t, with_hash):
        self._line('{"t":%d,"exit":0}' % t)
        self.f.close()
        os.replace(self.path + ".tmp", self.path)
        expected = {"stdoutBytes": self.out_bytes, "tapeBytes": self.size,
                    "outFrames": self.frames}
        if with_hash:
            expected["stdoutSha256"] = self.out_hash.hexdigest()
        with open(self.path[: -len(".tape.ndjson")] + ".expected.json", "w") as f:
            json.dump(expected, f)


# ---- realistic file content: source code with quotes, tabs, backslashes, some non-ASCII ----

WORDS = ("invoice row writer buffer stream export csv total amount currency customer line item "
         "tax rate period account ledger entry batch flush close open format parse value key map "
         "list index count offset limit cursor page result error retry timeout config").split()


def code_pool(rng, n=4000):
    lines = []
    for _ in range(n):
        kind = rng.random()
        ident = "".join(w.capitalize() if i else w
                        for i, w in enumerate(rng.sample(WORDS, rng.randint(1, 3))))
        indent = "\t" * rng.randint(0, 3) if rng.random() < 0.3 else "  " * rng.randint(0, 4)
        if kind < 0.25:
            s = '%sconst %s = await %s("%s", %d);' % (indent, ident, rng.choice(WORDS),
                                                       " ".join(rng.sample(WORDS, 3)), rng.randint(0, 9999))
        elif kind < 0.45:
            s = "%s// %s" % (indent, " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12))))
        elif kind < 0.55:
            s = '%sre := regexp.MustCompile(`\\d+\\.\\d{2}`) // "%s"' % (indent, ident)
        elif kind < 0.60:
            s = '%slabel: "Montant dû — %s €",' % (indent, ident)
        elif kind < 0.62:
            s = ""
        else:
            s = "%sif (%s.%s > %d) { return %s(%s); }" % (
                indent, ident, rng.choice(WORDS), rng.randint(0, 500), rng.choice(WORDS), ident)
        lines.append(s)
    return lines


def content(rng, pool, size):
    parts = []
    n = 0
    while n < size:
        line = pool[rng.randrange(len(pool))]
        parts.append(line)
        n += len(line) + 1
    return "\n".join(parts)[:size] + "\n"


# ---- the events of a run ----

def ev_init():
    return {"type": "system", "subtype": "init", "apiKeySource": "login", "cwd": CWD,
            "session_id": SESSION, "model": "Auto", "permissionMode": "default"}


def ev_user():
    return {"type": "user", "message": {"role": "user", "content": [{"type": "text", "text": PROMPT}]},
            "session_id": SESSION}


def ev_thinking(text, ts):
    return {"type": "thinking", "subtype": "delta", "text": text, "session_id": SESSION,
            "timestamp_ms": ts}


def ev_thinking_done(ts):
    return {"type": "thinking", "subtype": "completed", "session_id": SESSION, "timestamp_ms": ts}


def ev_assistant(text, ts, call):
    return {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": text}]},
            "session_id": SESSION, "model_call_id": call, "timestamp_ms": ts}


def call_id(n):
    return "call-%08x-%04x-4e21-a3f0-6c5d8e9b%04x-%d\nfc_35bc3e26-1dfc-9c07-b668-4c50a744b8f9_%d" % (
        0xbb11656a + n, n & 0xffff, n & 0xffff, n, n)


def ev_tool(subtype, cid, tool, body, started, completed, ts, call):
    tc = {tool: body, "hookAdditionalContexts": [], "toolCallId": cid, "startedAtMs": str(started)}
    if completed is not None:
        tc["completedAtMs"] = str(completed)
    return {"type": "tool_call", "subtype": subtype, "call_id": cid, "tool_call": tc,
            "model_call_id": call, "session_id": SESSION, "timestamp_ms": ts}


def ev_result(ms):
    return {"type": "result", "subtype": "success", "duration_ms": ms, "duration_api_ms": ms,
            "is_error": False, "result": "Done: the exporter now streams rows.", "session_id": SESSION,
            "request_id": REQUEST,
            "usage": {"inputTokens": 88300, "outputTokens": 1850, "cacheReadTokens": 448000,
                      "cacheWriteTokens": 0}}


def run_events(rng, pool, budget, size_so_far):
    """Yields (t, event) for a run of about `budget` bytes; the first big result is the largest."""
    t = 180
    ts = EPOCH_MS + 180
    yield t, ev_init()
    yield t, ev_user()
    n = 0
    first = True
    while size_so_far() < budget - 100_000:
        n += 1
        mcall = "%s-%d-c94p" % (REQUEST, n)
        for _ in range(rng.randint(2, 6)):
            t += rng.randint(1, 40)
            ts += rng.randint(1, 40)
            text = " " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 8)))
            yield t, ev_thinking(text, ts)
        yield t, ev_thinking_done(ts)
        yield t, ev_assistant("Looking at `%s`." % rng.choice(WORDS), ts, mcall)
        cid = call_id(n)
        path = "%s/src/%s/%s.ts" % (CWD, rng.choice(WORDS), rng.choice(WORDS))
        first_call = first
        size = 960_000 if first else rng.randint(100_000, 960_000)
        first = False
        started = ts + 3
        kind = rng.random()
        if first_call or kind < 0.55:
            tool = "readToolCall"
            args = {"path": path}
            text = content(rng, pool, size)
            result = {"success": {"content": text, "isEmpty": False, "exceededLimit": False,
                                  "totalLines": text.count("\n"), "fileSize": len(text.encode()),
                                  "path": path, "readRange": {"startLine": 1, "endLine": text.count("\n")},
                                  "relatedCursorRulePaths": [], "relatedCursorRules": []}}
        elif kind < 0.9:
            tool = "editToolCall"
            text = content(rng, pool, size // 2)
            args = {"path": path, "streamContent": text}
            diff = "--- a/%s\n+++ b/%s\n@@ -1,3 +1,4 @@\n-%s\n+%s" % (
                path, path, pool[rng.randrange(len(pool))], pool[rng.randrange(len(pool))])
            result = {"success": {"path": path, "linesAdded": text.count("\n"), "linesRemoved": 3,
                                  "diffString": diff, "afterFullFileContent": text,
                                  "message": "Wrote contents to " + path}}
        else:
            tool = "shellToolCall"
            cmd = "grep -rn %s %s/src" % (rng.choice(WORDS), CWD)
            args = {"command": cmd, "workingDirectory": CWD, "timeout": 30000, "toolCallId": cid,
                    "simpleCommands": ["grep"], "hasInputRedirect": False, "hasOutputRedirect": False,
                    "isBackground": False, "description": "Search the sources"}
            out = content(rng, pool, size // 2)
            result = {"success": {"command": cmd, "workingDirectory": CWD, "exitCode": 0, "signal": "",
                                  "stdout": out, "stderr": "", "executionTime": rng.randint(5, 900),
                                  "interleavedOutput": out}}
        t += rng.randint(2, 30)
        yield t, ev_tool("started", cid, tool, {"args": args}, started, None, ts, mcall)
        t += rng.randint(50, 400)
        ts += rng.randint(50, 400)
        body = {"args": args, "result": result}
        if tool == "shellToolCall":
            body = {"args": args, "result": result, "description": "Search the sources"}
        yield t, ev_tool("completed", cid, tool, body, started, ts, ts, mcall)
    t += 20
    yield t, ev_assistant("Done: the exporter now streams rows.", ts, "%s-%d-c94p" % (REQUEST, n + 1))
    yield t, ev_result(t)


def write_run(path, vars_, budget):
    rng = random.Random(20260723)
    pool = code_pool(rng)
    w = TapeWriter(path, vars_)
    t = 0
    for t, event in run_events(rng, pool, budget, lambda: w.size):
        w.out(t, event)
    w.close(t + 5, with_hash=not vars_)


def write_stream(path, budget):
    """The stdout of a run (each event compactly, then a newline), and its expected.json."""
    rng = random.Random(20260723)
    pool = code_pool(rng)
    h = hashlib.sha256()
    size = [0]
    lines = [0]
    with open(path + ".tmp", "wb") as f:
        for _, event in run_events(rng, pool, budget, lambda: size[0]):
            b = (dumps(event) + "\n").encode("utf-8")
            f.write(b)
            h.update(b)
            size[0] += len(b)
            lines[0] += 1
    os.replace(path + ".tmp", path)
    with open(path[: -len(".stdout")] + ".expected.json", "w") as f:
        json.dump({"stdoutBytes": size[0], "stdoutSha256": h.hexdigest(), "outFrames": lines[0]}, f)


def write_small_events(path, count, t0, step, vars_):
    rng = random.Random(7)
    w = TapeWriter(path, vars_)
    t = t0
    ts = EPOCH_MS + t0
    events = [ev_init(), ev_user()]
    while len(events) < count - 1:
        events.append(ev_thinking(" " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 8))), ts))
    events.append(ev_result(t0 + step * count))
    for i, e in enumerate(events[:count]):
        w.out(t0 + i * step, e)
        t = t0 + i * step
    w.close(t, with_hash=not vars_)


def write_probe(path):
    w = TapeWriter(path, False)
    w.out(0, ev_init())
    w.out(400, ev_result(400))
    w.close(400, with_hash=True)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "out")
    os.makedirs(out, exist_ok=True)
    p = lambda name: os.path.join(out, name + ".tape.ndjson")
    write_small_events(p("startup"), 10, 0, 0, True)
    write_probe(p("cds-probe"))
    write_small_events(p("timing"), 1000, 1000, 5, False)
    write_run(p("small-novars"), False, 1 * MB)
    write_run(p("small-vars"), True, 1 * MB)
    write_run(p("big-novars"), False, 100 * MB)
    write_run(p("big-vars"), True, 100 * MB)
    write_stream(os.path.join(out, "recorder-200mb.stdout"), 200 * MB)
    write_stream(os.path.join(out, "recorder-2mb.stdout"), 2 * MB)
    with open(os.path.join(out, "tapes.version"), "w") as f:
        f.write(VERSION + "\n")


if __name__ == "__main__":
    main()
