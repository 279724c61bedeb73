"""Checks a ZIP archive CameraRoll made against what it must hold, with readers that are not ours:
Python's zipfile tests every entry's CRC-32 and reads each one's bytes, then `python3 -m zipfile -t`
and Info-ZIP's `unzip -t` test the file as a user's tools would. Every entry must be stored (no
compression), flag its UTF-8 name (bit 11) and its data descriptor (bit 3), and have a name of its
own. The entries expected come as JSON on standard input, in the archive's order:
[{"name": ..., "size": ..., "sha256": ..., "date_time": [y, m, d, H, M, S] (optional)}].
Exits 0 when all holds, else 1 with what did not on standard error.

usage: check_zip.py ARCHIVE < expected.json"""
import hashlib
import json
import subprocess
import sys
import zipfile


def entries(path):
    with zipfile.ZipFile(path) as archive:
        bad = archive.testzip()
        if bad is not None:
            raise AssertionError(f"zipfile: the CRC of {bad!r} does not match its bytes")
        found = []
        for info in archive.infolist():
            if info.compress_type != zipfile.ZIP_STORED:
                raise AssertionError(f"{info.filename!r} is compressed ({info.compress_type})")
            if info.flag_bits & 0x808 != 0x808:
                raise AssertionError(f"{info.filename!r} has flags {info.flag_bits:#06x}, not bits 3 and 11")
            found.append({
                "name": info.filename,
                "size": info.file_size,
                "sha256": hashlib.sha256(archive.read(info)).hexdigest(),
                "date_time": list(info.date_time),
            })
        return found


def main(path):
    expected = json.load(sys.stdin)
    found = entries(path)
    names = [entry["name"] for entry in found]
    if len(set(names)) != len(names):
        raise AssertionError(f"names repeat: {names}")
    # Only the fields the expectation names are compared.
    shown = [{key: value for key, value in entry.items() if key in wanted} for entry, wanted in zip(found, expected)]
    if len(found) != len(expected) or shown != expected:
        raise AssertionError(f"entries differ:\n found    {shown}\n expected {expected}")
    for command in (["/usr/bin/python3", "-m", "zipfile", "-t", path], ["unzip", "-tq", path]):
        tested = subprocess.run(command, capture_output=True, text=True)
        if tested.returncode != 0:
            raise AssertionError(f"{' '.join(command[:-1])}: {tested.stdout}{tested.stderr}")


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except (AssertionError, zipfile.BadZipFile) as problem:
        sys.exit(str(problem))
