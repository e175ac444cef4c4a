#!/usr/bin/env python3
"""Runs every `$ ` example of README.md and docs/*.md and compares what it prints with the text.

    tests/docs/examples_test.py TILESPACE SOURCE_DIR [DOC.md ...]

Registered with ctest as `doc_examples` (tests/CMakeLists.txt); the rules it applies are in
docs/development.md ("Examples in the docs"):

- An example is a line `$ COMMAND` in a code block (indented by 4 spaces, or fenced), followed by
  what it prints, up to the next `$ ` line or the block's end. A command continues on the next
  line after a trailing backslash, and a here-document (`<< EOF`) takes its lines up to `EOF`.
- The examples of one document run in order, in one bash shell (variables and files carry from
  one example to the next), in a scratch folder of their own, with `tilespace` the command being
  tested. The command runs on a terminal, as a reader's would: standard output and standard error
  are compared merged, in the order they were written.
- A line `...` matches any number of lines (none included); `...` within a line matches any text
  within that line (times, sizes, paths). Trailing spaces and trailing blank lines are ignored.
- The exit status is compared where the docs show it, as a shell does: `$ echo $?`.
- `tilespace serve` runs in the background for the rest of its block, on a free port that stands
  for the port shown (8080 by default) in the block's commands and output.
- The examples follow the set-up README.md starts with (`tools/dev.sh demo`): its
  `tilespace build --all-goals` runs first in each document's folder.
- A command shown without `$ ` is a recipe, not run. A block after the comment
  `<!-- examples: not run: REASON -->` is not run either; the test lists its examples with the
  reason every time.
"""
import os
import pty
import re
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time

EXEMPT = re.compile(r"^<!--\s*examples:\s*not run:\s*(\S.*?)\s*-->\s*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
HEREDOC = re.compile(r"(?<!<)<<(?!<)-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")  # not a here-string (<<<)
MARK = "\x1e"  # separates the examples' outputs in the shell's output
PER_EXAMPLE_SECONDS = 120
# What `tools/dev.sh demo` leaves in out/, made in each document's folder before its examples.
SETUP = ["tilespace build --all-goals"]


class Example:
    def __init__(self, doc, line, command, expected):
        self.doc, self.line, self.command, self.expected = doc, line, command, expected
        self.actual = None

    def where(self):
        return f"{self.doc}:{self.line}"

    def first_line(self):
        return self.command.split("\n", 1)[0]


def code_blocks(lines):
    """(first line number, [lines], exemption reason or None) for every code block."""
    i, n = 0, len(lines)
    previous = ""  # the last non-blank line before the block
    while i < n:
        line = lines[i]
        fence = FENCE.match(line)
        if fence:
            marker = fence.group(1)
            indent = len(line) - len(line.lstrip(" "))
            body, start = [], i + 2
            i += 1
            while i < n and not re.match(r"^ {0,3}" + re.escape(marker[0]) + "{%d,}\\s*$" % len(marker), lines[i]):
                body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i].lstrip())
                i += 1
            yield start, body, exempt_reason(previous)
            previous = lines[i] if i < n else ""
            i += 1
            continue
        at_block_start = (i == 0 or lines[i - 1].strip() == "")
        if at_block_start and (line.startswith("    ") or line.startswith("\t")) and line.strip():
            body, start = [], i + 1
            while i < n and (lines[i].strip() == "" or lines[i].startswith("    ") or lines[i].startswith("\t")):
                body.append(lines[i][1:] if lines[i].startswith("\t") else lines[i][4:])
                i += 1
            while body and body[-1].strip() == "":
                body.pop()
            yield start, body, exempt_reason(previous)
            previous = body[-1] if body else previous
            continue
        if line.strip():
            previous = line
        i += 1


def exempt_reason(previous):
    m = EXEMPT.match(previous.strip())
    return m.group(1) if m else None


def examples_of_block(doc, start, body):
    """The block's examples; a block with `$ ` lines starts with one."""
    out, i = [], 0
    if not any(l.startswith("$ ") for l in body):
        return out
    while i < len(body):
        if not body[i].startswith("$ "):
            raise SystemExit(f"{doc}:{start + i}: a block of examples must start with a `$ ` line: {body[i]!r}")
        line_no = start + i
        command = [body[i][2:]]
        i += 1
        # Continuation lines and here-documents belong to the command.
        while command[-1].endswith("\\") and i < len(body):
            command.append(body[i])
            i += 1
        for m in HEREDOC.finditer("\n".join(command)):
            word = m.group(2)
            while i < len(body) and body[i] != word:
                command.append(body[i])
                i += 1
            if i == len(body):
                raise SystemExit(f"{doc}:{line_no}: the here-document has no line {word!r}")
            command.append(body[i])
            i += 1
        expected = []
        while i < len(body) and not body[i].startswith("$ "):
            expected.append(body[i])
            i += 1
        out.append(Example(doc, line_no, "\n".join(command), expected))
    return out


def trimmed(lines):
    lines = [l.rstrip() for l in lines]
    while lines and lines[-1] == "":
        lines.pop()
    return lines


def pattern(expected):
    """A regular expression for the expected lines: `...` a line of its own is any lines, within
    a line any text within it."""
    parts = []
    for line in trimmed(expected):
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append("[^\n]*?".join(re.escape(p) for p in line.split("...")) + r"\n")
    return re.compile("".join(parts))


def matches(example):
    actual = "".join(l + "\n" for l in trimmed(example.actual.split("\n")))
    return pattern(example.expected).fullmatch(actual) is not None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_command(command, scratch, n, port):
    """`tilespace serve ...` in the background on PORT; the shell prints its first lines."""
    log = os.path.join(scratch, f"serve-{n}.log")
    return (f"{command} >'{log}' 2>&1 &\n"
            f"__serve_pids+=($!)\n"
            f"for __i in $(seq 600); do grep -q '^listening on' '{log}' 2>/dev/null && break; "
            f"kill -0 $! 2>/dev/null || break; sleep 0.05; done\n"
            f"cat '{log}'")


def script_for(blocks, scratch):
    """The bash script that runs the examples of one document; every example's output follows a
    line MARK + its index. Returns (script, {index: (served port, shown port)})."""
    # The marker keeps $? for the next example (`$ echo $?`).
    lines = ["__serve_pids=()", f"__mark() {{ local s=$?; printf '{MARK}%s\\n' \"$1\"; return $s; }}"]
    ports = {}
    index = 0
    for examples in blocks:
        port = shown = None
        for ex in examples:
            command = ex.command
            if port is not None:
                command = command.replace(f":{shown}", f":{port}")
            if re.match(r"^tilespace\s+serve\b", command):
                m = re.search(r"--port[ =](\d+)", command)
                shown = m.group(1) if m else "8080"
                port = str(free_port())
                command = (re.sub(r"--port[ =]\d+", f"--port {port}", command) if m
                           else command.replace("tilespace serve", f"tilespace serve --port {port}", 1))
                command = serve_command(command, scratch, index, port)
            if port is not None:
                ports[index] = (port, shown)
            lines.append(f"__mark {index}")
            lines.append(command)
            index += 1
        # A block's servers stop at its end.
        lines.append('for __p in "${__serve_pids[@]}"; do kill "$__p" 2>/dev/null; wait "$__p" 2>/dev/null; done; '
                     "__serve_pids=()")
    lines.append(f"printf '{MARK}end\\n'")
    return "\n".join(lines) + "\n", ports


def as_seen(text):
    """The text as a terminal shows it: a carriage return goes back to the line's start (what
    follows overwrites it), escape sequences are dropped."""
    lines = []
    for line in re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text.replace("\r\n", "\n")).split("\n"):
        shown = []
        for part in line.split("\r"):
            shown[:len(part)] = part
        lines.append("".join(shown))
    return "\n".join(lines)


def run_document(doc, blocks, tilespace, workdir):
    """Runs the examples of one document on a terminal; fills in each example's actual output."""
    scratch = tempfile.mkdtemp(prefix="doc-", dir=workdir)
    folder = os.path.join(scratch, "work")
    bindir = os.path.join(scratch, "bin")
    os.makedirs(folder)
    os.makedirs(bindir)
    os.symlink(tilespace, os.path.join(bindir, "tilespace"))
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""), LC_ALL="C.UTF-8",
               LANG="C.UTF-8", TERM="dumb")
    env.pop("TILESPACE_DB", None)
    for setup in SETUP:
        r = subprocess.run(["bash", "-c", setup], cwd=folder, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=300)
        if r.returncode != 0:
            raise SystemExit(f"{doc}: the set-up `{setup}` failed ({r.returncode}):\n{r.stdout}")
    examples = [ex for block in blocks for ex in block]
    script, ports = script_for(blocks, scratch)
    with open(os.path.join(scratch, "examples.sh"), "w") as f:
        f.write(script)
    master, slave = pty.openpty()
    proc = subprocess.Popen(["bash", "--norc", "--noprofile", os.path.join(scratch, "examples.sh")], cwd=folder,
                            env=env, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, start_new_session=True)
    os.close(slave)
    output = bytearray()
    last_mark, last_time, hung = None, time.monotonic(), None
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 1.0)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: every writer has closed the terminal
                    break
                if not chunk:
                    break
                output += chunk
                marks = re.findall(rb"\x1e(\w+)\r?\n", chunk)
                if marks:
                    last_mark, last_time = marks[-1].decode(), time.monotonic()
            if time.monotonic() - last_time > PER_EXAMPLE_SECONDS:
                hung = last_mark
                break
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
        os.close(master)
    text = as_seen(output.decode("utf-8", "replace"))
    pieces = re.split(MARK + r"(\w+)\n", text)
    found = {pieces[k]: pieces[k + 1] for k in range(1, len(pieces) - 1, 2)}
    for index, ex in enumerate(examples):
        actual = found.get(str(index))
        if actual is None:
            actual = "(not run: the shell stopped before it)\n"
        elif hung == str(index):
            actual += f"(stopped: no end after {PER_EXAMPLE_SECONDS} s)\n"
        if index in ports:
            port, shown = ports[index]
            actual = actual.replace(f":{port}", f":{shown}")
        ex.actual = actual
    return examples


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    tilespace = os.path.realpath(sys.argv[1])
    source = os.path.realpath(sys.argv[2])
    docs = sys.argv[3:] or ["README.md"] + sorted(
        os.path.join("docs", f) for f in os.listdir(os.path.join(source, "docs")) if f.endswith(".md"))
    failed, exempt, passed = [], [], 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="tilespace-examples-") as workdir:
        for doc in docs:
            with open(os.path.join(source, doc), encoding="utf-8") as f:
                lines = f.read().split("\n")
            blocks = []
            for start, body, reason in code_blocks(lines):
                examples = examples_of_block(doc, start, body)
                if not examples:
                    continue
                if reason is not None:
                    exempt.extend((ex, reason) for ex in examples)
                else:
                    blocks.append(examples)
            if not blocks:
                continue
            t0 = time.monotonic()
            for ex in run_document(doc, blocks, tilespace, workdir):
                if matches(ex):
                    passed += 1
                else:
                    failed.append(ex)
                    print(f"FAIL {ex.where()}: $ {ex.first_line()}")
                    print("  the docs show:")
                    print("".join(f"    | {l}\n" for l in trimmed(ex.expected)), end="")
                    print("  it prints:")
                    print("".join(f"    | {l}\n" for l in trimmed(ex.actual.split("\n"))), end="")
            print(f"{doc}: {sum(len(b) for b in blocks)} examples in {time.monotonic() - t0:.1f} s")
    for ex, reason in exempt:
        print(f"not run: {ex.where()}: $ {ex.first_line()}  ({reason})")
    print(f"examples: {passed} as shown, {len(failed)} not, {len(exempt)} not run; "
          f"{time.monotonic() - started:.1f} s")
    for ex in failed:
        print(f"  wrong: {ex.where()}: $ {ex.first_line()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
