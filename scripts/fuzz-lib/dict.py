"""Writes a libFuzzer dictionary of the lesson format's words (one "word" per line).

usage: python3 dict.py OUT LESSON_OR_SCHEMA.json...
The words are every object key and every short string value of the given files: the
lesson schema (held to the engine's knob table by tests/wasm/schema.test.mjs: every knob,
value, injection point, action and event name) and the shipped lessons; plus JSON's own
tokens. Generated at run time, so it follows the format as it changes.
"""
import json
import sys

out, files = sys.argv[1], sys.argv[2:]
words = {"{", "}", "[", "]", ":", ",", "\"", "true", "false", "null", "0", "-1", "1e400", "\\u0000", "\\ud800"}


def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            words.add(json.dumps(k))
            walk(x)
    elif isinstance(v, list):
        for x in v:
            walk(x)
    elif isinstance(v, str) and 0 < len(v) <= 40 and "\n" not in v:
        words.add(json.dumps(v, ensure_ascii=False))
    elif isinstance(v, int) and not isinstance(v, bool):
        words.add(str(v))


for f in files:
    with open(f, encoding="utf-8") as fh:
        walk(json.load(fh))


def escape(w):  # libFuzzer's dictionary syntax: "..." with \\, \" and \xNN escapes
    b = w.encode("utf-8")
    return "".join(chr(c) if 32 <= c < 127 and c not in (34, 92) else f"\\x{c:02X}" for c in b)


with open(out, "w", encoding="ascii") as fh:
    for w in sorted(words):
        fh.write(f'"{escape(w)}"\n')
print(f"{len(words)} words", file=sys.stderr)
