"""Renders the figures of a reliability run as RELIABILITY.md."""
import json
import os

FUZZ_FIGURES = os.path.join(os.path.dirname(__file__), "..", "..", "Fuzz", "figures.md")

COMMANDS = {
    "soak": "make soak   # RELIABILITY_SOAK=1, release binary, full counts; rewrites this file",
    "quick": "RELIABILITY_REPORT=RELIABILITY.md /usr/bin/python3 -m pytest -q Tests/reliability   # the make test counts",
}


def render(figures):
    lines = ["# Reliability figures", "",
             f"Last run: {figures['date']}, {figures['mode']} counts, `{figures['binary']}`. Reproduce with:", "",
             "```sh", COMMANDS[figures["mode"]], "```", "",
             "Every case is followed by the same invariants: the same server process answering /healthz "
             "within 1 s, `PRAGMA integrity_check` ok, every upload that got a 2xx present with its sha256, "
             "no work files left in tmp/, and errors as JSON {code, message} with no paths.", ""]
    for suite, rows in figures["suites"].items():
        lines += [f"## {suite}", "", "| case | tried | failures | figures |", "|---|---:|---:|---|"]
        for case, numbers in rows.items():
            rest = ", ".join(f"{key} {json.dumps(value)}" for key, value in numbers.items() if key not in ("cases", "failures"))
            lines.append(f"| {case} | {numbers['cases']} | {numbers['failures']} | {rest} |")
        lines.append("")
    # make fuzz writes its own figures; a soak run keeps them.
    if os.path.exists(FUZZ_FIGURES):
        lines += open(FUZZ_FIGURES).read().rstrip("\n").split("\n") + [""]
    return "\n".join(lines + KNOWN_LIMITS)


KNOWN_LIMITS = [
    "## Known limits (kept as strict xfails or figures, not hidden)", "",
    "- libmicrohttpd 0.9.75 refuses some requests itself before any route runs (no Host, a Content-Length "
    "that is not one number, a version other than HTTP/1.x, a malformed request line): HTML bodies, 505 for the "
    "version, and for no Host and bad Content-Length its response head written twice (strict xfails in "
    "test_http_abuse.py).",
    "- A client that sends a head and closes at once is sometimes noticed only at the 30 s connection timeout "
    "(libmicrohttpd's epoll loop misses the end of file); its body file goes then.",
    "- Injected EIO on write or fsync answers 500 with the generic JSON body (the disk failed, not the client); "
    "ENOSPC answers 507 `no_space`.",
    "- While radosgw takes connections and answers none, an upload holds one of its instance's four PostgreSQL "
    "writer threads for the 15 s stall deadline (the original goes to the bucket inside the row's transaction): "
    "eight uploads at once to one instance are refused after 15 s and 30 s, and a favourite sent meanwhile waits "
    "29 s (a strict xfail in test_cluster_faults.py).",
    "",
]


if __name__ == "__main__":
    import sys
    print(render(json.load(open(sys.argv[1]))))
