"""Prints a sources.list with a deb-src line for each Debian entry this machine's apt
fetches binary packages from (/etc/apt/sources.list, sources.list.d/*.list and *.sources):
the same mirror, suite, components and key, for the suites of its own release only (another
repository's suites, e.g. nodistro, are left out). scripts/install-deps hands it to apt-get
as a private source list, to download a Debian source package without changing /etc/apt.
usage: python3 scripts/lib/deb-src.py CODENAME   (e.g. bookworm)
"""
import glob
import re
import sys

codename = sys.argv[1]
ours = re.compile(rf"^{re.escape(codename)}(-[a-z]+)?$")
out = []

for path in ["/etc/apt/sources.list", *sorted(glob.glob("/etc/apt/sources.list.d/*.list"))]:
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError:
        continue
    for line in lines:
        m = re.match(r"^deb\s+(\[[^\]]*\]\s+)?(\S+)\s+(\S+)\s+(.+)$", line.split("#", 1)[0].strip())
        if m and ours.match(m[3]):
            out.append(f"deb-src {m[1] or ''}{m[2]} {m[3]} {m[4].strip()}")

for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
    for stanza in re.split(r"\n\s*\n", open(path, encoding="utf-8").read()):
        fields = {}
        for line in stanza.splitlines():
            if line.startswith("#") or line[:1].isspace() or ":" not in line:
                continue
            key, value = line.split(":", 1)
            fields[key.strip().lower()] = value.strip()
        if "deb" not in fields.get("types", "").split() or fields.get("enabled", "yes").lower() == "no":
            continue
        # A key given by its file (an inline key is left to apt's trusted keys).
        key = fields.get("signed-by", "")
        opts = f"[signed-by={key}] " if key.startswith("/") else ""
        for uri in fields.get("uris", "").split():
            for suite in fields.get("suites", "").split():
                if ours.match(suite):
                    out.append(f"deb-src {opts}{uri} {suite} {fields.get('components', 'main')}")

if not out:
    sys.exit(f"deb-src.py: no Debian {codename} entry in /etc/apt to take a deb-src from")
print("\n".join(dict.fromkeys(out)))
