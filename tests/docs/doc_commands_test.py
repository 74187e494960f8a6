#!/usr/bin/env python3
"""Tests of doc_commands.py, the runner of the documentation's commands: that it reads the
convention of docs/testing.md as written, refuses what it does not understand, and fails a page
whose command prints other text than the page shows."""

import contextlib
import io
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doc_commands  # noqa: E402

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "doc_commands.py")


def commands(steps):
    return [(s.line, s.command.kind, s.command.text, s.command.expected, s.command.reason)
            for s in steps if s.action == "command"]


class Parsing(unittest.TestCase):
    def test_sessions_sh_blocks_files_and_comments(self):
        page = "\n".join([
            "Text with `$ not a command` inline.",
            "```dae file=m/a.dae",
            "model a;",
            "```",
            "```",
            "$ daec a.dae --check",
            "first line",
            "...",
            "$ daec a.dae -o a.cpp",
            "$ ./long \\",
            "  --option",
            "out",
            "```",
            "<!-- doc-test: skip: needs the network -->",
            "```sh",
            "# a comment",
            "curl example.org",
            "```",
            "<!-- doc-test: setup: make thing -->",
            "```sh",
            "./thing \\",
            "    --fast",
            "```",
            "```cpp",
            "int main() {}",
            "```",
        ])
        steps, errors = doc_commands.parse_page("p.md", page)
        self.assertEqual([], errors)
        self.assertEqual(("file", 2, "m/a.dae", "model a;\n"),
                         (steps[0].action, steps[0].line, steps[0].name, steps[0].content))
        self.assertEqual([
            (6, "compared", "daec a.dae --check", ["first line", "..."], None),
            (9, "unchecked", "daec a.dae -o a.cpp", [], None),
            (10, "compared", "./long \\\n  --option", ["out"], None),
            (17, "skipped", "curl example.org", [], "needs the network"),
            (21, "unchecked", "./thing \\\n    --fast", [], None),
        ], commands(steps))
        self.assertEqual([("setup", 19, "make thing")],
                         [(s.action, s.line, s.text) for s in steps if s.action == "setup"])

    def test_what_is_not_understood_is_an_error(self):
        page = "\n".join([
            "$ daec outside.dae",
            "<!-- doc-test: skp: typo -->",
            "```",
            "$ daec a.dae",
            "```",
            "<!-- doc-test: skip: nothing follows -->",
            "Some text.",
            "```",
            "output first",
            "$ daec a.dae",
            "```",
            "```sh",
            "$ daec a.dae",
            "```",
            "```dae file=../escape.dae",
            "model a;",
            "```",
        ])
        _, errors = doc_commands.parse_page("p.md", page)
        self.assertEqual([
            (1, "a '$ ' command outside a fenced block"),
            (2, "doc-test comment not understood: 'skp: typo'"),
            (6, "a doc-test comment not followed by a block"),
            (9, "text before the first '$ ' command of a session"),
            (12, "a '$ ' command in an sh block (an sh block holds commands only)"),
            (15, "a file block needs a relative file name: 'dae file=../escape.dae'"),
        ], errors)


class Matching(unittest.TestCase):
    def matches(self, shown, printed):
        return bool(doc_commands.pattern_of(shown).fullmatch(printed))

    def test_lines_compare_exactly(self):
        self.assertTrue(self.matches(["a", "b"], "a\nb\n"))
        self.assertFalse(self.matches(["a", "b"], "a\nb \n"))
        self.assertFalse(self.matches(["a"], "a\nb\n"))

    def test_dots_stand_for_lines_or_the_end_of_one(self):
        self.assertTrue(self.matches(["a", "  ...", "z"], "a\nz\n"))
        self.assertTrue(self.matches(["a", "...", "z"], "a\nb\nc\nz\n"))
        self.assertTrue(self.matches(["x: 1, ..."], "x: 1, 2, 3\n"))
        self.assertFalse(self.matches(["x: 1, ..."], "x: 2, 3\n"))
        self.assertFalse(self.matches(["x: 1, ..."], "x: 1, 2\ny\n"))

    def test_normalisation(self):
        self.assertEqual("[1/2] a.dae (index 2, <T> s) in . and out/x",
                         doc_commands.normalise("[1/2] a.dae (index 2, 0.05 s) in /tmp/sb and "
                                                "/tmp/sb/out/x", "/tmp/sb"))
        self.assertEqual("time limit of 1 s", doc_commands.normalise("time limit of 1 s", "/x"))


class Running(unittest.TestCase):
    def run_page(self, page, options=()):
        with tempfile.TemporaryDirectory() as source:
            os.mkdir(os.path.join(source, "docs"))
            with open(os.path.join(source, "docs", "p.md"), "w") as f:
                f.write(page)
            done = subprocess.run([sys.executable, RUNNER, "--source", source, "--build",
                                   os.path.join(source, "build"), *options, "docs/p.md"],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            return done.returncode, done.stdout

    def test_a_page_as_written_passes(self):
        status, out = self.run_page("```txt file=a.txt\nhello\n```\n\n```\n$ cat a.txt\nhello\n"
                                    "$ true\n$ sleep 0.01; echo 0.01 s\n0.00 s\n```\n")
        self.assertEqual(0, status, out)
        self.assertIn("doc commands: 2 compared, 1 run unchecked, 0 skipped", out)

    def test_other_output_names_the_page_line_and_command_with_a_diff(self):
        status, out = self.run_page("Intro.\n\n```\n$ echo world\nhello\n```\n")
        self.assertEqual(1, status, out)
        self.assertIn("FAILED docs/p.md:4: `echo world` printed other text than the page shows "
                      "(exited with status 0):\n--- shown on the page\n+++ printed\n"
                      "@@ -1 +1 @@\n-hello\n+world\n", out)

    def test_a_command_past_its_time_is_ended_with_what_it_started(self):
        status, out = self.run_page("```sh\n(sleep 30; echo late) & sleep 30\n```\n",
                                    ["--timeout", "0.5"])
        self.assertEqual(1, status, out)
        self.assertIn("`(sleep 30; echo late) & sleep 30` stopped at its time limit", out)
        self.assertIn("(stopped after 0.5 s)", out)

    def test_an_unchecked_command_must_succeed(self):
        status, out = self.run_page("```sh\nfalse\n```\n")
        self.assertEqual(1, status, out)
        self.assertIn("FAILED docs/p.md:2: `false` exited with status 1", out)


if __name__ == "__main__":
    unittest.main()
