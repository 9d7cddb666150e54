// Renaming of identifier tokens (and, with translate_comments, of identifier-like words inside
// comments and string literals) through the mapping table.
#pragma once

#include <cstddef>

#include "hipify/file_translation.h"

namespace gpuport {

// Renames the identifier token `index`, whose text the table knows as `entry`, unless it is a
// member access (`x.name`, `p->name`), qualified by a namespace the table does not know
// (`myns::name`), or a Namespace entry not used as one (only `cub::` and `namespace cub` are
// renamed). Records the use: conversion, unsupported, deprecated; runtime-header need; symbol
// API calls for HIP_SYMBOL wrapping.
void rename_identifier(FileTranslation& ft, std::size_t index, const Mapping& entry);

// Renames whole identifier-like words ([A-Za-z_][A-Za-z0-9_]*) inside the comment or string
// token `index`. Unsupported names are left alone and not reported: a comment is not a use.
void rename_words(FileTranslation& ft, std::size_t index);

}  // namespace gpuport
