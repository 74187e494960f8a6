// Writing output files atomically (spec §3): the text goes to a temporary file beside the target,
// which is then renamed over it. On failure the target is left as it was and no temporary remains.
#pragma once

#include <string>

namespace daec {

/// Writes `contents` to `path` atomically ("-" writes to standard output). Returns false and sets
/// `error` on failure.
bool write_file_atomically(const std::string& path, const std::string& contents,
                           std::string& error);

}  // namespace daec
