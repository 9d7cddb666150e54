#!/usr/bin/env python3
"""Extracts the names ROCm's public headers declare into the committed name lists
(src/hipify/tables/rocm/<release>/<library>.names) that scripts/generate_hipify_tables.py reads.

Two sources:

  extract_rocm_names.py --release 6.2 --repo ROCm/HIP=GITDIR --repo ROCm/clr=GITDIR ...
      the headers of each repository at the release's pinned tag (RELEASES below), read with
      `git show TAG:PATH` from a clone (a bare one will do); each repository's header folders
      are placed where the release installs them (LIBRARIES below)
  extract_rocm_names.py --release 5.2 --installed /usr/include
      the headers installed on this machine (Debian 12 packages HIP 5.2), one list per folder
      of sources.HIP_DIRS, and clang's HIP wrapper headers (the device math library)

Only names (with their kind, the argument counts of functions, deprecation and struct tags)
and header paths are written: facts about an API, not its code. Standard library only.
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys

sys.dont_write_bytecode = True

from hipify_tables import rocm_lists, sources  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parent.parent
ROOT = REPO / rocm_lists.ROOT_RELATIVE

# The release tag each ROCm release's lists are read at (the newest patch release).
RELEASES = {"5.2": "rocm-5.2.3", "6.0": "rocm-6.0.2", "6.1": "rocm-6.1.2", "6.2": "rocm-6.2.2"}

# library -> [(GitHub repository, folder in it, where the release installs that folder)]. Rows of
# one repository are alternative layouts, the first that has headers at the tag is read (hipFFT
# moved its headers into library/include/hipfft/ after 5.2). HIP's headers come from two
# repositories since 5.6: the API from ROCm/HIP, the AMD implementation (hip/amd_detail/) from
# ROCm/clr; for 5.2 they are read from Debian's packages (--installed).
LIBRARIES: dict[str, list[tuple[str, str, str]]] = {
    "hip": [("ROCm/HIP", "include/hip/", "hip/"),
            ("ROCm/clr", "hipamd/include/hip/", "hip/")],
    "hipblas": [("ROCm/hipBLAS", "library/include/", "hipblas/")],
    "hipblaslt": [("ROCm/hipBLASLt", "library/include/", "hipblaslt/")],
    "hipfft": [("ROCm/hipFFT", "library/include/hipfft/", "hipfft/"),
               ("ROCm/hipFFT", "library/include/", "hipfft/")],
    "hiprand": [("ROCm/hipRAND", "library/include/hiprand/", "hiprand/")],
    "hipsolver": [("ROCm/hipSOLVER", "library/include/", "hipsolver/")],
    "hipsparse": [("ROCm/hipSPARSE", "library/include/", "hipsparse/")],
    "miopen": [("ROCm/MIOpen", "include/miopen/", "miopen/")],
    "rocblas": [("ROCm/rocBLAS", "library/include/", "rocblas/")],
    "rocrand": [("ROCm/rocRAND", "library/include/rocrand/", "rocrand/")],
    "rocsolver": [("ROCm/rocSOLVER", "library/include/rocsolver/", "rocsolver/"),
                  ("ROCm/rocSOLVER", "library/include/", "rocsolver/")],
    "rocsparse": [("ROCm/rocSPARSE", "library/include/", "rocsparse/")],
    "rocm_smi": [("ROCm/rocm_smi_lib", "include/rocm_smi/", "rocm_smi/")],
    "roctracer": [("ROCm/roctracer", "inc/", "roctracer/")],
}

_SKIP = ("nvidia_detail", "nvcc_detail", "hcc_detail", "nvidia", "nvcc")


def _public_header(path: str) -> bool:
    parts = path.split("/")
    return (path.endswith((".h", ".hpp")) and not any(p in _SKIP for p in parts)
            and not any(s in parts[-1] for s in ("nvcc", "nvidia")))


def has_tag(git_dir: pathlib.Path, tag: str) -> bool:
    return subprocess.run(["git", "--git-dir", str(git_dir), "rev-parse", "--verify", "--quiet",
                           f"refs/tags/{tag}"], capture_output=True).returncode == 0


def git_headers(git_dir: pathlib.Path, tag: str, folder: str, install: str) -> dict[str, str]:
    listing = subprocess.run(["git", "--git-dir", str(git_dir), "ls-tree", "-r", "--name-only",
                              tag, "--", folder], check=True, capture_output=True, text=True)
    out: dict[str, str] = {}
    for path in listing.stdout.splitlines():
        if not _public_header(path):
            continue
        blob = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{tag}:{path}"],
                              check=True, capture_output=True)
        out[install + path[len(folder):]] = blob.stdout.decode("utf-8", errors="replace")
    return out


def extract_release(release: str, repos: dict[str, pathlib.Path]) -> list[rocm_lists.NameList]:
    tag = RELEASES[release]
    lists = []
    for library, parts in LIBRARIES.items():
        wanted = {repo for repo, _, _ in parts}
        if not wanted <= set(repos):
            continue
        if not all(has_tag(repos[repo], tag) for repo in wanted):
            print(f"{library}: no tag {tag} (the library is newer than the release); skipped")
            continue
        texts: dict[str, str] = {}
        origins = []
        done: set[str] = set()
        for repo, folder, install in parts:
            if repo in done:
                continue
            found = git_headers(repos[repo], tag, folder, install)
            if found:
                done.add(repo)
                texts.update(found)
                origins.append(f"{repo} at tag {tag}: {folder} installed as {install}")
        if done != wanted:
            raise SystemExit(f"extract_rocm_names: {', '.join(sorted(wanted - done))}: no "
                             f"headers at {tag} in the folders LIBRARIES names")
        comments = [f"{library}, ROCm {release}: the names its public headers declare",
                    *origins, "generated by scripts/extract_rocm_names.py; do not edit"]
        lists.append(rocm_lists.from_sources(library, release, comments, texts))
    return lists


def extract_installed(release: str, include: pathlib.Path) -> list[rocm_lists.NameList]:
    lists = []
    for directory in sources.HIP_DIRS:
        root = include / directory
        if not root.is_dir():
            continue
        texts = {str(p.relative_to(include)): sources.read_text(p) for p in sorted(root.rglob("*"))
                 if p.is_file() and _public_header(str(p.relative_to(include)))}
        comments = [f"{directory}, ROCm {release}: the names its public headers declare",
                    f"the headers installed under {directory}/ by Debian 12's packages",
                    "generated by scripts/extract_rocm_names.py --installed; do not edit"]
        lists.append(rocm_lists.from_sources(directory, release, comments, texts))
    clang = sources.default_clang_hip_include()
    if clang:
        texts = {f"<clang>/{p.name}": sources.read_text(p)
                 for p in sorted(clang[0].glob("__clang_hip_*.h"))}
        comments = [f"clang, ROCm {release}: the device math library of clang's HIP wrapper "
                    "headers", f"clang {clang[0].parent.name}'s __clang_hip_*.h (Debian 12)",
                    "generated by scripts/extract_rocm_names.py --installed; do not edit"]
        lists.append(rocm_lists.from_sources("clang", release, comments, texts))
    return lists


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--release", required=True, help="the ROCm release, MAJOR.MINOR")
    parser.add_argument("--repo", action="append", default=[], metavar="OWNER/NAME=GITDIR",
                        help="a clone of one of the repositories in LIBRARIES")
    parser.add_argument("--installed", type=pathlib.Path,
                        help="read the headers installed under this include directory instead")
    parser.add_argument("-o", "--output", type=pathlib.Path, default=ROOT,
                        help="the lists' root directory (default: the repository's)")
    args = parser.parse_args(argv)
    rocm_lists.release_key(args.release)
    if args.installed:
        lists = extract_installed(args.release, args.installed)
    else:
        if args.release not in RELEASES:
            parser.error(f"no pinned tag for release {args.release}: add it to RELEASES")
        repos = {}
        for item in args.repo:
            name, _, path = item.partition("=")
            repos[name] = pathlib.Path(path)
        lists = extract_release(args.release, repos)
    if not lists:
        parser.error("no library's headers were found")
    folder = args.output / args.release
    folder.mkdir(parents=True, exist_ok=True)
    for names in lists:
        path = folder / f"{names.library}.names"
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(rocm_lists.render(names), encoding="utf-8")
        temporary.replace(path)
        print(f"{path.relative_to(args.output)}: {len(names.headers)} headers, "
              f"{len(names.names.kinds)} names")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
