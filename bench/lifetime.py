"""A lifetime library for make bench: libraries of 1,000, 100,000 and 1,000,000 items on SQLite and
on PostgreSQL 15 (the tests' throwaway cluster), with the planner's statistics on. Each is one real
import whose row is cloned in SQL (`cameraroll-bench listings`, Library.cloneRows): a favourite in
50, a movie in 10, a Live Photo's movie half in 31, a trashed item in 97, an unsaved capture in
211, capture dates over twenty years, two trips of 2% each away from the seed's place (Aarhus), words
read in one in 1,000, and an album of 10,000 (a tenth of the smallest). Each view, search and suggestion
is read five times through the library's API and its median kept; then real photos are imported
into it.

Run alone: /usr/bin/python3 bench/lifetime.py (after `make bench`, which builds the release binaries)."""
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = (ROOT / ".." / "shared" / "corpus").resolve()
BENCH = ROOT / ".build" / "release" / "cameraroll-bench"
SIZES = [1_000, 100_000, 1_000_000]
SEED = "photos/lychee__aarhus.jpg"
IMPORTS = ["photos/exifsamples__Canon_40D.jpg", "photos/exifsamples__DSCN0010.jpg", "photos/exifsamples__Kodak_CX7530.jpg",
           "photos/exifsamples__nikon-e950.jpg", "photos/exifsamples__olympus-c960.jpg", "photos/androidx-media__london.jpg",
           "photos/lychee__train.jpg"]
PAGES = ["first page", "deep page", "month jump", "favourites", "recently added", "recently deleted", "album"]
SEARCHES = ["search (a miss)", "search (a name)", "search (home, most items)", "search (a trip, 2%)",
            "search (a country's other name, 2%)", "search (words in photos, 0.1%)",
            "suggestions (a country)", "suggestions (a year)"]
TIMELINES = ["timeline", "album timeline", "search timeline (a trip, 2%)", "search timeline (home, most items)"]
# What these find is a share of the library, so it grows with it: their target is the time alone.
GROWING = {view for view in SEARCHES + TIMELINES if "%" in view or "most items" in view}


def measure(sizes=SIZES):
    _, server = subprocess.run([str(ROOT / "scripts" / "throwaway-postgres"), "start", str(os.getpid())], check=True,
                               capture_output=True, text=True).stdout.split()
    figures = {}
    for engine in ("sqlite", "postgresql"):
        for size in sizes:
            env = dict(os.environ)
            if engine == "postgresql":
                name = "lifetime_" + uuid.uuid4().hex
                subprocess.run(["psql", server, "-qc", f"CREATE DATABASE {name}"], check=True, capture_output=True)
                env["CAMERAROLL_BENCH_DATABASE"] = server[: -len("postgres")] + name
            print(f"lifetime: {engine} {size:,} ...", flush=True)
            result = subprocess.run([str(BENCH), "listings", str(size), str(CORPUS / SEED), *(str(CORPUS / f) for f in IMPORTS)],
                                    check=True, capture_output=True, text=True, env=env)
            figures[(engine, size)] = json.loads(result.stdout)
            if engine == "postgresql":
                subprocess.run(["psql", server, "-qc", f"DROP DATABASE {name}"], check=True, capture_output=True)
    return figures


def ratio(large, small):
    # Below a millisecond is noise on this machine: it counts as one.
    return max(large, 1) / max(small, 1)


def lines(figures):
    sizes = sorted({size for _, size in figures})
    smallest, largest = sizes[0], sizes[-1]
    out = [
        "## A lifetime library (bench/lifetime.py)",
        "",
        "Libraries cloned in SQL from one real import, statistics on (`ANALYZE`), each view read through the library's API "
        "(in process, without HTTP; the median of five). Targets: a page at most 10 ms embedded and 20 ms on PostgreSQL, "
        f"a search at most 100 ms, a timeline at most 50 ms, and each at most 2x from {smallest:,} to {largest:,} items "
        "(below 1 ms counts as 1 ms), but for the searches that find a share of the library (a place most items share, "
        "two trips of 2%, words in 0.1%), whose results grow with it.",
        "",
        "| view | engine | " + " | ".join(f"{size:,}" for size in sizes) + f" | {largest:,} / {smallest:,} | target | |",
        "|---|---|" + "---|" * len(sizes) + "---|---|---|",
    ]
    for view in PAGES + SEARCHES + TIMELINES:
        for engine in ("sqlite", "postgresql"):
            times = [figures[(engine, size)]["milliseconds"][view] for size in sizes]
            limit = 100 if view in SEARCHES else 50 if view in TIMELINES else (10 if engine == "sqlite" else 20)
            scale = ratio(times[-1], times[0])
            grows = view in GROWING
            ok = max(times) <= limit and (grows or scale <= 2)
            out.append(f"| {view} | {engine} | " + " | ".join(f"{t:.1f} ms" for t in times) +
                       f" | {scale:.2f}x | at most {limit} ms{'' if grows else ', 2x'} | {'met' if ok else '**not met**'} |")
    for engine in ("sqlite", "postgresql"):
        imports = [figures[(engine, size)]["importSeconds"] for size in sizes]
        scale = imports[-1] / imports[0]
        out.append(f"| import a photo (median of {len(IMPORTS)}) | {engine} | " + " | ".join(f"{s * 1000:.0f} ms" for s in imports) +
                   f" | {scale:.2f}x | at most 1.2x | {'met' if scale <= 1.2 else '**not met**'} |")
    out.append("")
    out.append("Making the rows: " + ", ".join(f"{engine} {size:,} in {figures[(engine, size)]['fillSeconds']:.0f} s"
                                               for engine, size in sorted(figures)) + ".")
    out.append("")
    return out


if __name__ == "__main__":
    sizes = [int(s) for s in sys.argv[1:]] or SIZES
    print("\n".join(lines(measure(sizes))))
