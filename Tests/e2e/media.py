"""What the tests check media with: ffprobe and libvips' command line, on files in a folder."""
import json
import subprocess
from pathlib import Path


def duration(path: Path) -> float:
    """A movie's duration in seconds as ffprobe reads it from the container or its streams."""
    result = subprocess.run(
        ["ffprobe", "-v", "error", "-show_entries", "format=duration:stream=codec_type,duration", "-of", "json", str(path)],
        capture_output=True, text=True, check=True)
    probed = json.loads(result.stdout)
    value = probed.get("format", {}).get("duration")
    if value in (None, "N/A"):
        value = max(float(stream["duration"]) for stream in probed["streams"] if stream.get("duration") not in (None, "N/A"))
    return float(value)


def size(path: Path) -> tuple[int, int]:
    """An image's width and height as stored (vipsheader; no orientation applied)."""
    fields = [subprocess.run(["vipsheader", "-f", name, str(path)], capture_output=True, text=True, check=True).stdout.strip()
              for name in ("width", "height")]
    return int(fields[0]), int(fields[1])


def mean_difference(upright_original: Path, crop: dict, rendered: Path, folder: Path) -> float:
    """The mean absolute difference per band value between a crop of the upright original, cut
    here by libvips, and an image the server rendered of the same crop at the same size."""
    def vips(*arguments):
        return subprocess.run(["vips", *map(str, arguments)], capture_output=True, text=True, check=True).stdout.strip()
    vips("autorot", upright_original, folder / "upright.v")
    vips("extract_area", folder / "upright.v", folder / "crop.v", crop["x"], crop["y"], crop["width"], crop["height"])
    vips("extract_band", folder / "crop.v", folder / "crop3.v", 0, "--n", 3)
    vips("subtract", folder / "crop3.v", rendered, folder / "difference.v")
    vips("abs", folder / "difference.v", folder / "absolute.v")
    return float(vips("avg", folder / "absolute.v"))
