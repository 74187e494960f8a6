// Writing output files atomically (docs/command-line.md): each text goes to a temporary file beside
// its target, which is renamed over the target only once every output of the run has been written.
// On failure every target is left as it was and no temporary remains.
#pragma once

#include <string>
#include <vector>

namespace daec {

/// The output files of one run, written all or none. stage() writes an output's text to a
/// temporary file beside it (PATH.tmp.XXXXXX); commit() renames every temporary over its target.
/// Outputs staged but never committed (one of them could not be staged) are discarded by the
/// destructor: no target changes and no temporary remains.
///
/// Targets that cannot be replaced by rename(2) are written in place at commit: "-" (standard
/// output) and existing files that are not regular files (a device such as /dev/null, a FIFO),
/// which are opened when staged so that a refusal is known before anything is written. A symbolic
/// link is followed: the file it points to is replaced (or, for a dangling link, created) and the
/// link kept.
class OutputFiles {
 public:
  /// An output that could not be written, and why (the text of strerror).
  struct Failure {
    std::string path;
    std::string error;
  };

  OutputFiles() = default;
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;
  ~OutputFiles();

  /// Prepares `contents` for `path` (as the user gave it). Returns false and sets `error` when the
  /// output cannot be written: a missing or read-only directory, a directory in the way.
  bool stage(const std::string& path, std::string contents, std::string& error);

  /// Puts every staged output in place. Returns the outputs that failed (none, normally: every
  /// check that can fail was made by stage()).
  std::vector<Failure> commit();

 private:
  struct Staged {
    std::string path;       // as given
    std::string target;     // what the temporary is renamed to (a link's destination)
    std::string temporary;  // empty: written in place at commit
    int fd = -1;            // an existing special file, opened by stage()
    std::string contents;   // kept only for outputs written in place
  };

  void discard();

  std::vector<Staged> staged_;
};

/// Where writing `path` puts its text: `path` itself, or the end of its chain of symbolic links
/// (each relative target read against its link's directory), which a dangling link names without
/// it existing. "" with `error` set where the chain cannot be followed (a loop, an unreadable
/// link). Two outputs whose destinations are one file would leave only the last.
std::string output_destination(const std::string& path, std::string& error);

}  // namespace daec
