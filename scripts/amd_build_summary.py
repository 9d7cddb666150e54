#!/usr/bin/env python3
"""Summarises a `gpuport scan --format json` report for docs/calibration.md: CUDA-specific
findings of the product code (tiers mechanical, retune, rewrite) by AMD-build state, rewrite-tier
findings the AMD build compiles, and the largest groups of code the AMD build leaves out.

    amd_build_summary.py SCAN.json [--before OLD_SCAN.json] [--groups 5]

OLD_SCAN.json may come from a gpuport without the AMD-build view: its rewrite-tier findings are
then all counted as work, as that version did. Standard library only.
"""

import argparse
import collections
import json
import re
import sys

CUDA_TIERS = ("mechanical", "retune", "rewrite")


def state_of(finding):
    build = finding.get("amd_build")
    if build is None:
        return "unknown"
    if build["state"] == "excluded" and build.get("alternative"):
        return "excluded+alt"
    return build["state"]


def product(finding):
    return finding.get("scope", "product") == "product"


def guard_text(build):
    if "guard" in build:
        text = build["guard"]["text"]
        text = re.split(r"//|/\*", text)[0]
        return re.sub(r"\s+", " ", text).replace("# ", "#").strip(), True
    if "build" in build:
        return "build: " + build["build"]["text"], False
    return "(no guard)", False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scan")
    ap.add_argument("--before")
    ap.add_argument("--groups", type=int, default=5)
    args = ap.parse_args()
    doc = json.load(open(args.scan))
    findings = [f for f in doc["findings"] if product(f) and f["tier"] in CUDA_TIERS]
    states = collections.Counter(state_of(f) for f in findings)
    rewrite = collections.Counter(state_of(f) for f in findings if f["tier"] == "rewrite")
    print(f"CUDA-specific product findings: {len(findings)}: "
          f"compiled {states['compiled']}, excluded {states['excluded'] + states['excluded+alt']} "
          f"({states['excluded+alt']} with an AMD alternative), unknown {states['unknown']}")
    print(f"rewrite tier: compiled {rewrite['compiled']}, unknown {rewrite['unknown']}, "
          f"excluded {rewrite['excluded'] + rewrite['excluded+alt']} "
          f"({rewrite['excluded+alt']} with an AMD alternative)")
    if args.before:
        old = json.load(open(args.before))
        before = sum(1 for f in old["findings"] if f["tier"] == "rewrite")
        print(f"rewrite-tier findings counted as work before: {before}; "
              f"compiled on AMD now: {rewrite['compiled']} (+{rewrite['unknown']} unknown)")
    groups = collections.OrderedDict()
    for f in findings:
        build = f.get("amd_build", {})
        if build.get("state") != "excluded":
            continue
        text, is_guard = guard_text(build)
        place = (f["file"], build["guard"]["line"]) if is_guard else (
            build["build"]["file"], build["build"]["line"]) if "build" in build else ("", 0)
        g = groups.setdefault(text, {"findings": 0, "alt": 0, "places": set()})
        g["findings"] += 1
        g["alt"] += 1 if build.get("alternative") else 0
        g["places"].add(place)
    ranked = sorted(groups.items(), key=lambda item: -item[1]["findings"])[: args.groups]
    print("largest excluded groups:")
    for text, g in ranked:
        first = min(g["places"])
        print(f"  {g['findings']:4d} ({g['alt']} alt)  {text}  first {first[0]}:{first[1]}, "
              f"{len(g['places'])} place(s)")
    amd = doc.get("amd_build")
    if amd:
        print(f"AMD build exists: {amd['exists']}; kernel files compiled "
              f"{amd['kernel_files_compiled']} of {amd['kernel_files']}, "
              f"left out {amd['kernel_files_excluded']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
