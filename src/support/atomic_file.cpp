// Output files written all or none, through temporary files and rename(2).
#include "support/atomic_file.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <iostream>

#include "support/temporary_cleanup.h"

namespace daec {

static bool write_all(int fd, const std::string& contents) {
  size_t written = 0;
  while (written < contents.size()) {
    ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) {
      errno = EIO;
      return false;
    }
    written += static_cast<size_t>(n);
  }
  return true;
}

// mkstemp creates the file 0600; outputs get the permissions of any new file (0666 & ~umask).
// daec is single-threaded (batch mode forks), so reading the umask by setting it is safe here.
static mode_t new_file_mode() {
  mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

// Links followed before giving up, as the kernel's path resolution does (ELOOP).
constexpr int kMaxLinkHops = 40;

std::string output_destination(const std::string& path, std::string& error) {
  std::string current = path;
  for (int hop = 0; hop < kMaxLinkHops; ++hop) {
    struct stat link;
    if (::lstat(current.c_str(), &link) != 0 || !S_ISLNK(link.st_mode)) return current;
    std::string target(PATH_MAX, '\0');
    ssize_t length = ::readlink(current.c_str(), target.data(), target.size());
    if (length < 0 || static_cast<size_t>(length) >= target.size()) {
      error = std::strerror(length < 0 ? errno : ENAMETOOLONG);
      return {};
    }
    target.resize(static_cast<size_t>(length));
    size_t slash = current.find_last_of('/');
    if (!target.empty() && target.front() != '/' && slash != std::string::npos)
      target = current.substr(0, slash + 1) + target;
    current = target;
  }
  error = std::strerror(ELOOP);
  return {};
}

// The directory of `path` as written ("." for a bare name).
static std::string directory_of(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Where the temporary of `path` goes and what it replaces: `path` itself, or the file its symbolic
// links end at (renaming over the link would turn it into a copy). "" with `error` set where that
// file cannot be written: a dangling link into a directory that does not exist is named as such,
// since "No such file or directory" about a path that is there would mislead.
static std::string rename_target(const std::string& path, std::string& error) {
  std::string target = output_destination(path, error);
  if (target.empty() || target == path) return target;
  struct stat existing;
  if (::lstat(target.c_str(), &existing) == 0 || errno != ENOENT) return target;
  std::string directory = directory_of(target);
  if (::stat(directory.c_str(), &existing) == 0 || errno != ENOENT) return target;
  error = "it is a symbolic link to '" + target + "', whose directory '" + directory +
          "' does not exist";
  return {};
}

// Unlinks a registered temporary and forgets it, at once.
static void remove_temporary(const std::string& name) {
  SignalsHeld held;
  ::unlink(name.c_str());
  unregister_temporary(name);
}

// Writes `contents` to a new temporary file beside `target`. Returns its name, or "" with errno
// set.
static std::string write_temporary(const std::string& target, const std::string& contents) {
  std::string name = target + ".tmp.XXXXXX";
  int fd = -1;
  {
    SignalsHeld held;  // created and registered at once: an interrupt removes it
    fd = ::mkstemp(name.data());
    if (fd >= 0) register_temporary(name);
  }
  if (fd < 0) return {};
  bool ok = ::fchmod(fd, new_file_mode()) == 0 && write_all(fd, contents);
  int saved = ok ? 0 : errno;
  if (::close(fd) != 0 && ok) {  // a full disk may show only now
    ok = false;
    saved = errno;
  }
  if (ok) return name;
  remove_temporary(name);
  errno = saved;
  return {};
}

OutputFiles::~OutputFiles() {
  discard();
}

void OutputFiles::discard() {
  for (Staged& output : staged_) {
    if (!output.temporary.empty()) remove_temporary(output.temporary);
    if (output.fd >= 0) ::close(output.fd);
  }
  staged_.clear();
}

bool OutputFiles::stage(const std::string& path, std::string contents, std::string& error) {
  Staged output;
  output.path = path;
  struct stat existing;
  bool exists = path != "-" && ::stat(path.c_str(), &existing) == 0;
  if (exists && S_ISDIR(existing.st_mode)) {
    error = std::strerror(EISDIR);
    return false;
  }
  if (path == "-" || (exists && !S_ISREG(existing.st_mode))) {
    // O_NONBLOCK is not used: writing into a FIFO waits for its reader, as with any writer.
    if (path != "-") output.fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (path != "-" && output.fd < 0) {
      error = std::strerror(errno);
      return false;
    }
    output.contents = std::move(contents);
  } else {
    output.target = rename_target(path, error);
    if (output.target.empty()) return false;
    output.temporary = write_temporary(output.target, contents);
    if (output.temporary.empty()) {
      error = std::strerror(errno);
      return false;
    }
  }
  staged_.push_back(std::move(output));
  return true;
}

std::vector<OutputFiles::Failure> OutputFiles::commit() {
  std::vector<Failure> failures;
  // Files first: they are the outputs that can still be kept as they were if a rename fails.
  for (Staged& output : staged_) {
    if (output.temporary.empty()) continue;
    SignalsHeld held;  // renamed (or removed) and forgotten at once
    if (::rename(output.temporary.c_str(), output.target.c_str()) != 0) {
      failures.push_back({output.path, std::strerror(errno)});
      ::unlink(output.temporary.c_str());
    }
    unregister_temporary(output.temporary);
    output.temporary.clear();
  }
  for (Staged& output : staged_) {
    if (output.path != "-" && output.fd < 0) continue;
    bool ok = true;
    if (output.path == "-") {
      std::cout.flush();  // whatever daec printed before comes first
      ok = write_all(STDOUT_FILENO, output.contents);
    } else {
      ok = write_all(output.fd, output.contents);
      int saved = errno;
      if (::close(output.fd) != 0 && ok) {
        ok = false;
        saved = errno;
      }
      errno = saved;
      output.fd = -1;
    }
    if (!ok) failures.push_back({output.path, std::strerror(errno)});
  }
  staged_.clear();
  return failures;
}

}  // namespace daec
