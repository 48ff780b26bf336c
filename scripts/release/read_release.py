#!/usr/bin/env python3
"""Read a lexgold release as a Hugging Face dataset loader would, with Python's standard library only.

    python3 scripts/release/read_release.py demo-1.0.0.tar.gz      (or the unpacked folder)

Checks every file against SHA256SUMS; reads the dataset card's YAML header (README.md) for its
`configs` and their `data_files`; reads every JSON Lines file they name, one JSON object a line,
and checks that the rows of a file all have the same keys (one table, as `datasets` builds it).
Prints one line per config with its rows and columns, then "ok"; exits 1 naming the first problem.
"""
import hashlib
import json
import os
import sys
import tarfile


def fail(message):
    print(f"read_release: {message}", file=sys.stderr)
    sys.exit(1)


def load_files(path):
    """Every file of the release by its path inside the release's folder."""
    files = {}
    if os.path.isdir(path):
        for root, _dirs, names in os.walk(path):
            for name in names:
                full = os.path.join(root, name)
                with open(full, "rb") as f:
                    files[os.path.relpath(full, path).replace(os.sep, "/")] = f.read()
        return files
    with tarfile.open(path, "r:gz") as tar:
        members = [m for m in tar.getmembers() if m.isfile()]
        folders = {m.name.split("/", 1)[0] for m in members}
        if len(folders) != 1:
            fail(f"{path}: expected one folder, found {sorted(folders)}")
        for m in members:
            files[m.name.split("/", 1)[1]] = tar.extractfile(m).read()
    return files


def card_configs(readme):
    """The `configs` of a dataset card's YAML header: [(name, [(split, path)])], in the card's own layout."""
    lines = readme.split("\n")
    if lines[0] != "---":
        fail("README.md does not start with a YAML header")
    end = lines.index("---", 1)
    configs, current, in_configs = [], None, False
    for line in lines[1:end]:
        if not line.startswith(" "):
            in_configs = line.startswith("configs:")
            continue
        if not in_configs:
            continue
        text = line.strip()
        if text.startswith("- config_name:"):
            current = (json.loads(text.split(":", 1)[1].strip()), [])
            configs.append(current)
        elif text.startswith("- split:"):
            current[1].append([json.loads(text.split(":", 1)[1].strip()), None])
        elif text.startswith("path:"):
            current[1][-1][1] = json.loads(text.split(":", 1)[1].strip())
    return configs


def main():
    if len(sys.argv) != 2:
        fail("usage: read_release.py RELEASE.tar.gz|FOLDER")
    files = load_files(sys.argv[1])
    sums = files.get("SHA256SUMS")
    if sums is None:
        fail("no SHA256SUMS")
    listed = set()
    for line in sums.decode("utf-8").splitlines():
        digest, name = line.split("  ", 1)
        listed.add(name)
        if name not in files:
            fail(f"SHA256SUMS names {name}, which is not in the release")
        if hashlib.sha256(files[name]).hexdigest() != digest:
            fail(f"{name}: its SHA-256 is not the one in SHA256SUMS")
    unlisted = set(files) - listed - {"SHA256SUMS"}
    if unlisted:
        fail(f"not in SHA256SUMS: {sorted(unlisted)}")
    configs = card_configs(files["README.md"].decode("utf-8"))
    if not configs:
        fail("the dataset card names no configs")
    for name, splits in configs:
        for split, path in splits:
            if path not in files:
                fail(f"config {name}: {path} is not in the release")
            rows = [json.loads(l) for l in files[path].decode("utf-8").splitlines() if l.strip()]
            keys = {tuple(sorted(r.keys())) for r in rows}
            if len(keys) > 1:
                fail(f"{path}: rows with different columns: {sorted(keys)}")
            columns = ", ".join(sorted(rows[0].keys())) if rows else "-"
            print(f"{name}/{split}: {len(rows)} rows ({columns})")
    print("ok")


main()
