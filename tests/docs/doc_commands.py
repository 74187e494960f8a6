#!/usr/bin/env python3
"""Runs every command that README.md and docs/*.md show, and compares what it prints.

The pages show commands in three ways; docs/testing.md ("The commands of the documentation")
describes the convention for the writer of a page:

- A *session*: a fenced block whose lines starting with "$ " are commands, each followed by
  the text it prints (standard output and standard error together, as a terminal shows them),
  up to the next "$ " line. A command followed by text is *compared*: its output must be that
  text, line for line (its exit status is not checked: the text shows an error when there is
  one). A command followed by nothing *runs unchecked*: it must exit with status 0.
  In the shown text, a line "..." (however indented) stands for any number of lines, and a line
  ending in "..." for one line that begins with what precedes the dots.
- A block of shell commands, info string "sh": each line (with its "\\" continuation lines) is
  a command that runs unchecked; lines starting with "#" are comments.
- A block whose info string holds "file=NAME" (```dae file=diode.dae) is not a command: its text
  is written to NAME for the commands after it on the page.

An HTML comment on the lines before a block changes how the block is run:
  <!-- doc-test: skip: REASON -->   the block's commands are not run, for REASON (they need the
                                     network, root, Octave, an installation, or the whole suite)
  <!-- doc-test: setup: COMMAND --> COMMAND runs (and must succeed) before the block: what a
                                     page does not show, such as building a simulator
A page with a "$ " line outside a block, a session whose text comes before its first command,
an unknown or misplaced "doc-test" comment, or a "file=" block without a name is an error: the
runner does not guess.

Each page runs in a sandbox of its own, a fresh directory in which the repository's top-level
files and folders (models/, docs/, scripts/, include/, tests/, ...) are links to the source tree
and build/ holds links to the build's daec, daec-config and runtime/; build/ is also first on
PATH, so that a command may call "build/daec" or "daec". Every command starts in the sandbox.
The output is compared after one normalisation, applied to both texts: a decimal number of
seconds ("0.27 s", which varies by nature) becomes "<T> s", and the sandbox's path becomes ".".

Prints one line per failure (page, line, command) with a diff, and the counts of commands
compared, run unchecked and skipped. Exit status 0 when every command passed, 1 otherwise.
"""

import argparse
import difflib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
DIRECTIVE = re.compile(r"^\s*<!--\s*doc-test:\s*(.*?)\s*-->\s*$")
SECONDS = re.compile(r"\b\d+\.\d+ s\b")
SHELL_INFO = {"sh", "shell", "bash"}
BUILD_ENTRIES = ["daec", "daec-config", "runtime"]


class Command:
    """One command of a page: what to run, where it is shown, and what it must print."""

    def __init__(self, page, line, text, kind, expected=None, reason=None):
        self.page = page
        self.line = line
        self.text = text
        self.kind = kind  # "compared", "unchecked", "skipped"
        self.expected = expected or []
        self.reason = reason


class Step:
    """What a page asks for, in page order: write a file, run a setup command, or a command."""

    def __init__(self, action, line, **fields):
        self.action = action  # "file", "setup", "command"
        self.line = line
        self.__dict__.update(fields)


def join_continuations(lines):
    """Lines with their "\\" continuations joined: [(offset of the first line, text)]."""
    joined = []
    current, start = None, 0
    for offset, line in lines:
        if current is None:
            current, start = line, offset
        else:
            current = current + "\n" + line
        if not current.endswith("\\"):
            joined.append((start, current))
            current = None
    if current is not None:
        joined.append((start, current))
    return joined


def parse_page(page, text):
    """The steps of one page and the errors of its convention ([(line, message)])."""
    steps, errors = [], []
    lines = text.split("\n")
    directives = []  # (line, text) waiting for the next block
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = FENCE.match(line)
        directive = DIRECTIVE.match(line)
        if directive:
            directives.append((i + 1, directive.group(1)))
            i += 1
            continue
        if not fence:
            if line.startswith("$ "):
                errors.append((i + 1, "a '$ ' command outside a fenced block"))
            if line.strip() and directives:
                errors.append((directives[0][0], "a doc-test comment not followed by a block"))
                directives = []
            i += 1
            continue
        indent, marker, info = fence.group(1), fence.group(2), fence.group(3).strip()
        start = i + 1
        body = []
        i += 1
        while i < len(lines):
            closing = FENCE.match(lines[i])
            if closing and closing.group(2).startswith(marker) and not closing.group(3).strip():
                break
            body_line = lines[i]
            if body_line.startswith(indent):
                body_line = body_line[len(indent):]
            body.append((i + 1, body_line))
            i += 1
        i += 1
        parse_block(page, start, info, body, directives, steps, errors)
        directives = []
    if directives:
        errors.append((directives[0][0], "a doc-test comment not followed by a block"))
    return steps, errors


def parse_block(page, start, info, body, directives, steps, errors):
    """Adds the steps of one fenced block (its first line `start`, its lines `body`)."""
    skip = None
    for line, directive in directives:
        if directive.startswith("skip:") and directive[5:].strip():
            skip = directive[5:].strip()
        elif directive.startswith("setup:") and directive[6:].strip():
            steps.append(Step("setup", line, text=directive[6:].strip()))
        else:
            errors.append((line, f"doc-test comment not understood: '{directive}'"))
    words = info.split()
    file_names = [w[5:] for w in words if w.startswith("file=")]
    has_session = any(text.startswith("$ ") for _, text in body)
    if file_names or "file=" in info:
        name = file_names[0] if file_names else ""
        if not name or name.startswith("/") or ".." in name.split("/") or has_session:
            errors.append((start, f"a file block needs a relative file name: '{info}'"))
            return
        content = "\n".join(text for _, text in body) + "\n"
        steps.append(Step("file", start, name=name, content=content))
        return
    if words and words[0] in SHELL_INFO:
        if has_session:
            errors.append(
                (start, "a '$ ' command in an sh block (an sh block holds commands only)"))
            return
        commands = [(l, t) for l, t in body if t.strip() and not t.lstrip().startswith("#")]
        for line, command in join_continuations(commands):
            kind = "skipped" if skip else "unchecked"
            steps.append(Step("command", line,
                              command=Command(page, line, command, kind, reason=skip)))
        return
    if not has_session:
        if skip:
            errors.append((start, "a skip comment before a block that holds no command"))
        return
    first = next((k for k, (_, t) in enumerate(body) if t.strip()), 0)
    if not body[first][1].startswith("$ "):
        errors.append((body[first][0], "text before the first '$ ' command of a session"))
        return
    k = first
    while k < len(body):
        line, text = body[k]
        command_lines = [(line, text[2:])]
        k += 1
        while command_lines[-1][1].endswith("\\") and k < len(body):
            command_lines.append(body[k])
            k += 1
        command = join_continuations(command_lines)[0][1]
        expected = []
        while k < len(body) and not body[k][1].startswith("$ "):
            expected.append(body[k][1])
            k += 1
        while expected and not expected[-1].strip():
            expected.pop()
        kind = "skipped" if skip else ("compared" if expected else "unchecked")
        steps.append(Step("command", line,
                          command=Command(page, line, command, kind, expected, skip)))


def normalise(text, sandbox):
    for path in {os.path.realpath(sandbox), sandbox}:
        text = text.replace(path + "/", "").replace(path, ".")
    return SECONDS.sub("<T> s", text)


def pattern_of(expected):
    """A regular expression for the shown lines, with "..." as described in the docstring."""
    parts = []
    for line in expected:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        elif line.endswith("..."):
            parts.append(re.escape(line[:-3]) + r"[^\n]*\n")
        else:
            parts.append(re.escape(line) + r"\n")
    return re.compile("".join(parts))


def make_sandbox(parent, source, build):
    sandbox = tempfile.mkdtemp(prefix="page-", dir=parent)
    for entry in sorted(os.listdir(source)):
        if entry in (".git", "build") or entry.startswith("build-"):
            continue
        os.symlink(os.path.join(source, entry), os.path.join(sandbox, entry))
    os.mkdir(os.path.join(sandbox, "build"))
    for entry in BUILD_ENTRIES:
        target = os.path.join(build, entry)
        if os.path.exists(target):
            os.symlink(target, os.path.join(sandbox, "build", entry))
    return sandbox


def run(command, sandbox, timeout):
    env = dict(os.environ)
    env["PATH"] = os.path.join(sandbox, "build") + os.pathsep + env.get("PATH", "")
    env["LC_ALL"] = "C.UTF-8"
    env["TERM"] = "dumb"  # no colours from g++ or others
    # A session of its own, so that a command past its time is ended with all it started.
    process = subprocess.Popen(["bash", "-c", command], cwd=sandbox, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        output += f"\n(stopped after {timeout:g} s)\n".encode()
        return None, output.decode("utf-8", "replace")
    return process.returncode, output.decode("utf-8", "replace")


def ended(status):
    return "stopped at its time limit" if status is None else f"exited with status {status}"


def shown(command):
    """The command on one line, its continuations joined."""
    return re.sub(r"\s*\\\n\s*", " ", command).replace("\n", "; ")


class Failures(list):
    """The failures so far, each printed when it happens (a test stopped by its timeout still
    shows what failed before)."""

    def append(self, message):
        print(f"FAILED {message}\n", flush=True)
        super().append(message)


def run_page(page, steps, args, counts, failures):
    sandbox = make_sandbox(args.scratch, args.source, args.build)
    page_failed = False
    for step in steps:
        where = f"{page}:{step.line}"
        if step.action == "file":
            path = os.path.join(sandbox, step.name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(step.content)
            continue
        if step.action == "setup":
            status, output = run(step.text, sandbox, args.timeout)
            if status != 0:
                failures.append(f"{where}: setup `{step.text}` failed ({ended(status)}):\n{output}")
                page_failed = True
            continue
        command = step.command
        if command.kind == "skipped":
            counts["skipped"] += 1
            if args.verbose:
                print(f"{where}: skipped `{shown(command.text)}`: {command.reason}")
            continue
        status, output = run(command.text, sandbox, args.timeout)
        counts[command.kind] += 1
        if args.verbose:
            print(f"{where}: {command.kind} `{shown(command.text)}` (status {status})", flush=True)
        if command.kind == "unchecked":
            if status != 0:
                failures.append(f"{where}: `{shown(command.text)}` {ended(status)}"
                                f" (shown without output, so it must succeed):\n{output}")
                page_failed = True
            continue
        actual = normalise(output, sandbox)
        if actual and not actual.endswith("\n"):
            actual += "\n"
        expected = [normalise(line, sandbox) for line in command.expected]
        if pattern_of(expected).fullmatch(actual):
            continue
        diff = difflib.unified_diff(expected, actual.split("\n")[:-1], "shown on the page",
                                    "printed", lineterm="")
        failures.append(f"{where}: `{shown(command.text)}` printed other text than the page "
                        f"shows ({ended(status)}):\n" + "\n".join(diff))
        page_failed = True
    if page_failed or args.keep:
        print(f"{page}: sandbox kept in {sandbox}")
    else:
        shutil.rmtree(sandbox)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", required=True, help="the repository (README.md, docs/)")
    parser.add_argument("--build", required=True, help="the build tree holding daec")
    parser.add_argument("--scratch", help="where the sandboxes go (default: BUILD/doc-test)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per command")
    parser.add_argument("--keep", action="store_true", help="keep every sandbox")
    parser.add_argument("--list", action="store_true", help="list the commands, run nothing")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every command")
    parser.add_argument("pages", nargs="*", help="pages to run (default: README.md docs/*.md)")
    args = parser.parse_args()
    args.source = os.path.abspath(args.source)
    args.build = os.path.abspath(args.build)
    args.scratch = os.path.abspath(args.scratch or os.path.join(args.build, "doc-test"))
    pages = args.pages or ["README.md"] + sorted(
        "docs/" + name for name in os.listdir(os.path.join(args.source, "docs"))
        if name.endswith(".md"))

    counts = {"compared": 0, "unchecked": 0, "skipped": 0}
    failures = Failures()
    parsed = {}
    for page in pages:
        with open(os.path.join(args.source, page), encoding="utf-8") as f:
            steps, errors = parse_page(page, f.read())
        for line, message in errors:
            failures.append(f"{page}:{line}: {message}")
        parsed[page] = steps
    if args.list:
        for page, steps in parsed.items():
            for step in steps:
                if step.action == "command":
                    c = step.command
                    reason = f" ({c.reason})" if c.reason else ""
                    print(f"{page}:{step.line}: {c.kind}{reason}: {shown(c.text)}")
                else:
                    print(f"{page}:{step.line}: {step.action}: {getattr(step, 'name', '')}"
                          f"{getattr(step, 'text', '')}")
        return 1 if failures else 0
    os.makedirs(args.scratch, exist_ok=True)
    for page, steps in parsed.items():
        run_page(page, steps, args, counts, failures)
    total = sum(counts.values())
    print(f"doc commands: {counts['compared']} compared, {counts['unchecked']} run unchecked, "
          f"{counts['skipped']} skipped ({total} in {len(pages)} pages); "
          f"{len(failures)} failure{'' if len(failures) == 1 else 's'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
