"""make fuzz: every parser of ours under libFuzzer for a bounded time.

Builds cameraroll-fuzz with AddressSanitizer, coverage and libFuzzer, seeds each target from the
shared corpus (once per machine, into the build folder), runs it for FUZZ_SECONDS (default 60),
keeps the inputs that reach new code in Fuzz/corpus/<target> (minimised, so the folder holds only
what adds coverage) and any crash in Fuzz/crashes/<target>, and writes the figures into
Fuzz/figures.md and the Fuzzing section of RELIABILITY.md. `make test` replays these folders.

A crash in a file the server first decodes in a child process (HEIF and AVIF: libheif's own
assertions) cannot take the server down; `cameraroll-fuzz contains` checks that, such a crash goes
to Fuzz/contained/<target> (replayed by `make test` through a real import), and the run goes on.
Any other crash fails `make fuzz`.
Environment: FUZZ_SECONDS, FUZZ_TARGETS (space-separated names; default all).
"""
import datetime
import glob
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, ".build", "fuzz")
DRIVER = os.path.join(BUILD, "debug", "cameraroll-fuzz")
CORPUS = os.path.join(ROOT, "..", "shared", "corpus")
FUZZ = os.path.join(ROOT, "Fuzz")
FIGURES = os.path.join(FUZZ, "figures.md")
RELIABILITY = os.path.join(ROOT, "RELIABILITY.md")
# Foundation and the C libraries keep a few allocations for the life of the process: not what a
# fuzz run is looking for.
# Swift's own crash reporter would read memory AddressSanitizer guards; libFuzzer reports instead.
ENVIRONMENT = dict(os.environ, ASAN_OPTIONS="detect_leaks=0", SWIFT_BACKTRACE="enable=no")


def libfuzzer_runtime():
    swiftc = os.path.realpath(shutil.which("swiftc"))
    pattern = os.path.join(os.path.dirname(swiftc), "..", "lib", "clang", "*", "lib", "linux",
                           "libclang_rt.fuzzer_no_main-x86_64.a")
    found = sorted(glob.glob(pattern))
    if not found:
        sys.exit(f"libFuzzer's runtime is not in this Swift toolchain ({pattern})")
    return found[-1]


def build():
    runtime = libfuzzer_runtime()
    command = ["swift", "build", "--product", "cameraroll-fuzz", "--build-path", BUILD, "--sanitize=address",
               "-Xswiftc", "-sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table",
               "-Xcc", "-fsanitize=fuzzer-no-link",
               # libFuzzer whole, its symbols exported: the driver finds LLVMFuzzerRunDriver at run time.
               "-Xlinker", "--whole-archive", "-Xlinker", runtime, "-Xlinker", "--no-whole-archive",
               "-Xlinker", "--export-dynamic", "-Xlinker", "-lstdc++"]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    # gold warns once per AddressSanitizer symbol it cannot export; they are not ours to fix.
    noise = re.compile(r"Cannot export local symbol|prohibited flag")
    output = "\n".join(line for line in (result.stdout + result.stderr).splitlines() if not noise.search(line))
    if result.returncode != 0:
        sys.exit(output)
    print(output.splitlines()[-1] if output else "built")


def targets():
    listed = subprocess.run([DRIVER, "--list"], capture_output=True, text=True, check=True, env=ENVIRONMENT).stdout
    rows = [line.split("\t") for line in listed.splitlines() if line]
    every = {row[0]: {"max_len": int(row[1])} for row in rows}
    wanted = os.environ.get("FUZZ_TARGETS", "").split() or list(every)
    unknown = [name for name in wanted if name not in every]
    if unknown:
        sys.exit(f"No fuzz target is named {', '.join(unknown)}; there are: {', '.join(every)}")
    return [(name, every[name]) for name in wanted]


def files(folder):
    return [path for path in glob.glob(os.path.join(folder, "*")) if os.path.isfile(path)]


def stat(output, name):
    found = re.findall(rf"stat::{name}:\s+(\d+)", output)
    return int(found[-1]) if found else 0


def fuzz(name, settings, seconds):
    seeds = os.path.join(BUILD, "seeds", name)
    if not os.path.isdir(seeds):
        partial = seeds + ".partial"
        shutil.rmtree(partial, ignore_errors=True)
        subprocess.run([DRIVER, "seeds", name, CORPUS, partial], check=True, env=ENVIRONMENT)
        os.rename(partial, seeds)
    kept = os.path.join(FUZZ, "corpus", name)
    crashes = os.path.join(FUZZ, "crashes", name)
    os.makedirs(kept, exist_ok=True)
    os.makedirs(crashes, exist_ok=True)
    contained = os.path.join(FUZZ, "contained", name)
    common = [f"-max_len={settings['max_len']}", "-timeout=10", "-rss_limit_mb=2048", "-detect_leaks=0"]
    environment = dict(ENVIRONMENT, CAMERAROLL_FUZZ_TARGET=name)
    log = os.path.join(BUILD, "logs", f"{name}.log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    totals = {"executions": 0, "new_units": 0, "per_second": 0}
    escaped, kept_apart, reasons = [], [], []
    deadline = time.monotonic() + seconds
    with open(log, "w") as handle:
        # libFuzzer stops at a crash; after a contained one the run goes on for the time left.
        while (left := int(deadline - time.monotonic())) > 0:
            before = set(files(crashes))
            run = subprocess.run(
                [DRIVER, *common, f"-max_total_time={left}", "-print_final_stats=1", f"-artifact_prefix={crashes}/", kept, seeds],
                capture_output=True, text=True, env=environment)
            handle.write(run.stdout + run.stderr)
            for key, stat_name in (("executions", "number_of_executed_units"), ("new_units", "new_units_added")):
                totals[key] += stat(run.stderr, stat_name)
            totals["per_second"] = max(totals["per_second"], stat(run.stderr, "average_exec_per_sec"))
            found = sorted(set(files(crashes)) - before)
            if run.returncode == 0 and not found:
                break
            if not found:
                escaped.append(f"libFuzzer exited {run.returncode} without a crash file")
                break
            reason = crash_reason(run.stderr)
            verdicts = subprocess.run([DRIVER, "contains", *found], capture_output=True, text=True, env=ENVIRONMENT).stdout
            for line in verdicts.splitlines():
                verdict, path = line.split("\t")[:2]
                if verdict == "contained":
                    os.makedirs(contained, exist_ok=True)
                    forget_input(path, (seeds, kept))
                    shutil.move(path, os.path.join(contained, os.path.basename(path)))
                    kept_apart.append(path)
                    reasons.append(reason)
                else:
                    escaped.append(path)
            if escaped:
                break

    # Keep only what reaches code the rest does not, smallest first.
    merged = os.path.join(BUILD, "merged", name)
    shutil.rmtree(merged, ignore_errors=True)
    os.makedirs(merged)
    merge = subprocess.run([DRIVER, *common, "-merge=1", merged, kept], capture_output=True, text=True, env=environment)
    if merge.returncode == 0:
        shutil.rmtree(kept)
        shutil.move(merged, kept)

    figures = dict(totals, target=name, seconds=seconds, kept=len(files(kept)),
                   kept_kb=sum(os.path.getsize(path) for path in files(kept)) // 1024,
                   escaped=len(escaped), contained=len(kept_apart), crashes_kept=len(files(crashes)),
                   contained_kept=len(files(contained)), reasons=sorted(set(reasons)))
    verdict = f"CRASH, see {os.path.relpath(log, ROOT)}" if escaped else "clean"
    if kept_apart:
        verdict += f" ({len(kept_apart)} crash(es) contained in the decoder process: {'; '.join(sorted(set(reasons)))})"
    print(f"{name}: {figures['executions']} runs ({figures['per_second']}/s), {figures['kept']} inputs kept, {verdict}")
    return figures, not escaped


def forget_input(crash, folders):
    """A seed or kept input that crashes would crash every run again as it loads: it goes (the
    crash file keeps it)."""
    content = open(crash, "rb").read()
    for folder in folders:
        for path in files(folder):
            if os.path.getsize(path) == len(content) and open(path, "rb").read() == content:
                os.remove(path)


def crash_reason(output):
    """The line that says why a run crashed, for people reading the figures."""
    for pattern in (r"Assertion `[^']*' failed", r"Fatal error: [^\n]*", r"ERROR: AddressSanitizer: [\w-]+", r"deadly signal"):
        found = re.search(pattern, output)
        if found:
            return found.group(0)
    return "unknown"


def write_figures(rows, seconds):
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = ["## Fuzzing", "",
             f"Last run: {date}, `make fuzz` with FUZZ_SECONDS={seconds} (libFuzzer, AddressSanitizer; seeds made from "
             "../shared/corpus). `make test` replays every kept input and every crash ever found (Tests/FuzzTargetsTests).", "",
             "| target | seconds | runs | runs/s | inputs kept (KB) | new inputs | crashes | contained crashes kept | regression crashes kept |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        lines.append(f"| {row['target']} | {row['seconds']} | {row['executions']} | {row['per_second']} | "
                     f"{row['kept']} ({row['kept_kb']}) | {row['new_units']} | {row['escaped'] + row['contained']} | "
                     f"{row['contained_kept']} | {row['crashes_kept']} |")
    reasons = sorted({reason for row in rows for reason in row["reasons"]})
    if reasons:
        lines += ["", "Contained crashes (in the decoder's child process, which dies instead of the server): "
                  + "; ".join(f"`{reason}`" for reason in reasons) + "."]
    lines += ["", "Crashes found and fixed so far: our HEIF box walker's `offset += size` overflow (a box of size 1 with "
              "a 64-bit size near Int.max, found in a review), now ByteReader's checked arithmetic; libheif 1.19.7 "
              "aborting on a top-level box past the end of the file or smaller than its own header (`Assertion "
              "'success' failed`, bitstream.cc:169; an 851-byte AVIF took the server down), now refused by our box "
              "walk and contained by the import's decoder process (Fuzz/contained); a raw-uri invariant that compared "
              "Characters where the router compares bytes (Fuzz/crashes/raw-uri); bytea text whose hex took a sign "
              "(`\\x+f`, UInt8(radix:) accepts it), now read digit by digit; Foundation's XMLParser trapping on an "
              "element name that is not UTF-8 in an S3 listing, now read by a scanner of ours (Fuzz/crashes/bytea-text, "
              "s3-listing). A display matrix of 9e32 degrees in ffprobe's output (finite, but no Int) trapped the "
              "probe's rotation; it is now reduced to quarter turns while still a Double (Fuzz/crashes/probe-output). "
              "A link's crop at Int.max (`edit=9223372036854775807,0,1,1`) read well and then trapped `x + width` in "
              "the check that it fits the photo, which took the server down: every pixel number from outside is now "
              "read by one bounded reader (PixelNumber), the check cannot overflow, and the edit targets plan every "
              "render of what they read (Fuzz/crashes/edit-capability, thumbnail-batch, edit-request). A file name cut "
              "to 255 bytes could end in a space, a character joined to a dot hid that dot, and a dot before a long "
              "run of spaces was left alone once cut: names are now cut and trimmed scalar by scalar "
              "(Fuzz/crashes/file-name). A search for a quote followed by a combining mark (one Swift Character that "
              "is not a quote) passed to FTS5 unescaped, which failed on an unterminated string, a 500: search phrases "
              "and LIKE patterns are now escaped scalar by scalar (Fuzz/crashes/search). A creation_time with a "
              "hundred-digit fraction in ffprobe's output made ICU's date parser (Foundation's ISO8601DateFormatter) "
              "divide by zero in the server's own process: the probe now reads the moment itself (WrittenMoment, "
              "timegm) (Fuzz/crashes/probe-output).", ""]
    section = "\n".join(lines)
    with open(FIGURES, "w") as handle:
        handle.write(section)
    text = open(RELIABILITY).read() if os.path.exists(RELIABILITY) else "# Reliability figures\n\n"
    pattern = re.compile(r"## Fuzzing\n.*?(?=\n## |\Z)", re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: section.rstrip("\n") + "\n", text)
    else:
        text = text.replace("## Known limits", section + "\n## Known limits") if "## Known limits" in text else text + "\n" + section
    with open(RELIABILITY, "w") as handle:
        handle.write(text)


def main():
    seconds = int(os.environ.get("FUZZ_SECONDS", "60"))
    build()
    rows, clean = [], True
    for name, settings in targets():
        figures, ok = fuzz(name, settings, seconds)
        rows.append(figures)
        clean = clean and ok
    if not os.environ.get("FUZZ_TARGETS"):
        write_figures(rows, seconds)
    sys.exit(0 if clean else 1)


if __name__ == "__main__":
    main()
