"""One table for every ROCm release of the name lists: the entries built for each release are
merged into the newest release's entries, each with the release its HIP name first appears in
(`since`) and the other names older releases use (`variants`)."""

from __future__ import annotations

import dataclasses

from .build import Entry


@dataclasses.dataclass(frozen=True)
class Variant:
    first: str  # the oldest release of the range (MAJOR.MINOR)
    last: str  # the newest
    hip: str
    roc: str
    support: str


@dataclasses.dataclass
class Versioned:
    entry: Entry  # as the newest release resolves it
    since: str  # the oldest release from which on `entry` holds ("" when it holds for all)
    variants: list[Variant]  # older ranges with another HIP (or ROC) name, oldest first
    # The oldest release from which on the headers mark the entry's HIP name deprecated ("" when
    # the newest release does not).
    deprecated_since: str = ""


def _key(entry: Entry | None) -> tuple[str, str] | None:
    if entry is None or entry.support == "unsupported":
        return None
    return entry.hip, entry.roc


def merge(releases: list[str], built: list[list[Entry]],
          deprecated: list[set[str]] | None = None) -> list[Versioned]:
    """`built[i]` holds the entries of `releases[i]` (oldest first); `deprecated[i]` the names
    the headers of `releases[i]` mark deprecated."""
    by_release = [{e.cuda: e for e in entries} for entries in built]
    names = sorted({name for table in by_release for name in table})
    out = []
    for name in names:
        per = [table.get(name) for table in by_release]
        newest = per[-1]
        if newest is None:
            # Only older releases know it (a tag of a type HIP renamed since): unsupported now.
            template = next(e for e in reversed(per) if e is not None)
            newest = dataclasses.replace(template, hip="", roc="", support="unsupported",
                                         roc_support="")
        key = _key(newest)
        if newest.support == "verified":
            # A release whose lists do not declare the name, where a rule only documents it
            # (hipBLASLt before it shipped), does not have it: the headers that do decide.
            per = [None if e is not None and e.support == "documented" and _key(e) == key else e
                   for e in per]
        first = len(per) - 1
        while key is not None and first > 0 and _key(per[first - 1]) == key:
            first -= 1
        since = releases[first] if key is not None and first > 0 else ""
        variants: list[Variant] = []
        older = first if key is not None else len(per)
        for index in range(older):
            current = _key(per[index])
            if current is None:
                continue
            support = per[index].support  # type: ignore[union-attr]
            if (variants and variants[-1].last == releases[index - 1]
                    and (variants[-1].hip, variants[-1].roc) == current
                    and variants[-1].support == support):
                variants[-1] = dataclasses.replace(variants[-1], last=releases[index])
            else:
                variants.append(Variant(releases[index], releases[index], *current, support))
        deprecated_since = ""
        if deprecated and key is not None and newest.kind != "header":
            index = len(releases)
            while index > 0 and newest.hip in deprecated[index - 1] and _key(per[index - 1]) == key:
                index -= 1
            deprecated_since = releases[index] if index < len(releases) else ""
        out.append(Versioned(newest, since, variants, deprecated_since))
    return out
