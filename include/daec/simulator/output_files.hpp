// The simulator's output files (--output, --events, --plot): each is written under a temporary
// name beside it (FILE.partial.XXXXXX) and renamed onto FILE when complete, so an existing FILE
// is replaced whole or left as it was. A run that ends early removes its temporaries: a failure
// through StagedFile's destructor, SIGINT, SIGTERM, SIGHUP and the other terminating signals
// through the handler that SignalCleanup installs for the run (docs/simulator.md, "Output
// files").
#pragma once

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include <daec/simulator/failure.hpp>

namespace daec::simulator {

/// The temporaries that a signal must remove, in storage a signal handler may read: a fixed
/// table of paths, each slot marked in use only while its path is complete.
class TemporaryRegistry {
 public:
  static constexpr int kSlots = 8;

  /// Registers `path`; returns its slot, or -1 if the table is full or the path too long (the
  /// file then goes without cleanup on a signal, as any other file would).
  static int add(const std::string& path) {
    if (path.size() >= sizeof paths_[0]) return -1;
    for (int slot = 0; slot < kSlots; ++slot) {
      if (in_use_[slot]) continue;
      std::memcpy(paths_[slot], path.c_str(), path.size() + 1);
      in_use_[slot] = 1;
      return slot;
    }
    return -1;
  }
  static void release(int slot) {
    if (slot >= 0) in_use_[slot] = 0;
  }
  /// Unlinks every registered temporary; async-signal-safe (unlink(2) only).
  static void unlink_all() {
    for (int slot = 0; slot < kSlots; ++slot)
      if (in_use_[slot]) ::unlink(paths_[slot]);
  }

 private:
  static inline char paths_[kSlots][PATH_MAX] = {};
  static inline volatile std::sig_atomic_t in_use_[kSlots] = {};
};

/// For the duration of a run: on a terminating signal, removes the registered temporaries, then
/// lets the signal do what it did before (by default end the process, with the signal as its
/// status). A signal that was ignored (nohup) stays ignored.
class SignalCleanup {
 public:
  SignalCleanup() {
    for (size_t i = 0; i < kCount; ++i) {
      struct sigaction action {};
      action.sa_handler = &SignalCleanup::handle;
      sigemptyset(&action.sa_mask);
      installed_[i] = ::sigaction(kSignals[i], nullptr, &previous_[i]) == 0 &&
                      previous_[i].sa_handler != SIG_IGN &&
                      ::sigaction(kSignals[i], &action, nullptr) == 0;
    }
  }
  ~SignalCleanup() {
    for (size_t i = 0; i < kCount; ++i)
      if (installed_[i]) ::sigaction(kSignals[i], &previous_[i], nullptr);
  }
  SignalCleanup(const SignalCleanup&) = delete;
  SignalCleanup& operator=(const SignalCleanup&) = delete;

 private:
  static constexpr int kSignals[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGTERM, SIGPIPE,
                                     SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ};
  static constexpr size_t kCount = sizeof kSignals / sizeof kSignals[0];

  // Only async-signal-safe calls: unlink, sigaction, raise. The signal is blocked while this
  // runs, so the raised one is delivered to the restored action when the handler returns.
  static void handle(int signal) {
    TemporaryRegistry::unlink_all();
    for (size_t i = 0; i < kCount; ++i)
      if (kSignals[i] == signal) ::sigaction(signal, &previous_[i], nullptr);
    ::raise(signal);
  }

  static inline struct sigaction previous_[kCount] = {};
  bool installed_[kCount] = {};
};

/// The permissions of a new file (0666 & ~umask): mkstemp creates its file 0600. The simulator
/// is single-threaded, so reading the umask by setting it is safe.
inline mode_t new_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

/// Where writing `path` puts its text: `path` itself, or the end of its chain of symbolic links
/// (each relative target read against its link's directory), which a dangling link names without
/// it existing. "" with errno set where the chain cannot be followed (a loop, an unreadable link).
inline std::string output_destination(const std::string& path) {
  constexpr int kMaxLinkHops = 40;  // as the kernel's path resolution (ELOOP)
  std::string current = path;
  for (int hop = 0; hop < kMaxLinkHops; ++hop) {
    struct stat link;
    if (::lstat(current.c_str(), &link) != 0 || !S_ISLNK(link.st_mode)) return current;
    std::string target(PATH_MAX, '\0');
    const ssize_t length = ::readlink(current.c_str(), target.data(), target.size());
    if (length < 0) return {};
    if (static_cast<size_t>(length) >= target.size()) {
      errno = ENAMETOOLONG;
      return {};
    }
    target.resize(static_cast<size_t>(length));
    const size_t slash = current.find_last_of('/');
    if (!target.empty() && target.front() != '/' && slash != std::string::npos)
      target = current.substr(0, slash + 1) + target;
    current = target;
  }
  errno = ELOOP;
  return {};
}

/// What replacing `path` means: `path` itself, or the file its symbolic links end at (renaming
/// over the link would turn it into a copy), created if the link dangles. "" with `problem` set
/// where that file cannot be written: a dangling link into a directory that does not exist is
/// named as such ("No such file or directory" about a path that is there would mislead).
inline std::string rename_target(const std::string& path, std::string& problem) {
  const std::string target = output_destination(path);
  if (target.empty()) {
    problem = std::strerror(errno);
    return {};
  }
  struct stat existing;
  if (target == path || ::lstat(target.c_str(), &existing) == 0 || errno != ENOENT) return target;
  const size_t slash = target.find_last_of('/');
  const std::string directory = slash == std::string::npos ? "."
                                : slash == 0               ? "/"
                                                           : target.substr(0, slash);
  if (::stat(directory.c_str(), &existing) == 0 || errno != ENOENT) return target;
  problem = "it is a symbolic link to '" + target + "', whose directory '" + directory +
            "' does not exist";
  return {};
}

/// One output file being written: a regular (or new) FILE through a temporary that commit()
/// renames onto it, a special file (/dev/null, a FIFO, a terminal) directly. Failures are
/// run_error naming `what` and the path ("cannot create output file 's.csv': ...").
class StagedFile {
 public:
  StagedFile(std::string path, std::string what) : path_(std::move(path)), what_(std::move(what)) {
    struct stat existing;
    const bool exists = ::stat(path_.c_str(), &existing) == 0;
    if (exists && S_ISDIR(existing.st_mode)) {
      errno = EISDIR;
      fail("cannot open");
    }
    if (exists && !S_ISREG(existing.st_mode)) {
      file_ = std::fopen(path_.c_str(), "w");
      if (file_ == nullptr) fail("cannot open");
      return;
    }
    std::string problem;
    target_ = rename_target(path_, problem);
    if (target_.empty()) fail_because("cannot create", problem);
    std::string name = target_ + ".partial.XXXXXX";
    const int fd = ::mkstemp(name.data());
    if (fd < 0) fail("cannot create");
    temporary_ = name;
    slot_ = TemporaryRegistry::add(temporary_);
    if (::fchmod(fd, new_file_mode()) != 0 || (file_ = ::fdopen(fd, "w")) == nullptr) {
      const int saved = errno;
      ::close(fd);
      discard();
      errno = saved;
      fail("cannot create");
    }
  }
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;
  ~StagedFile() { discard(); }

  /// The name being written (the temporary, or the special file itself).
  const std::string& writing() const { return temporary_.empty() ? path_ : temporary_; }
  std::FILE* stream() const { return file_; }

  void write(const std::string& text) {
    if (file_ == nullptr || std::fputs(text.c_str(), file_) < 0) fail("cannot write");
  }

  /// Closes the stream (for a tool that writes the temporary itself, see write_plot).
  void close() {
    if (file_ != nullptr && std::fclose(std::exchange(file_, nullptr)) != 0) {
      const int saved = errno;
      discard();
      errno = saved;
      fail("cannot write");
    }
  }

  /// Flushes and closes; renames the temporary onto FILE (or its link's target).
  void commit() {
    close();
    if (temporary_.empty()) return;
    TemporaryRegistry::release(std::exchange(slot_, -1));
    if (::rename(temporary_.c_str(), target_.c_str()) != 0) {
      const int saved = errno;
      discard();
      errno = saved;
      fail("cannot create");
    }
    temporary_.clear();
  }

  /// Removes the temporary (FILE stays as it was).
  void discard() {
    if (file_ != nullptr) std::fclose(std::exchange(file_, nullptr));
    TemporaryRegistry::release(std::exchange(slot_, -1));
    if (!temporary_.empty()) ::unlink(temporary_.c_str());
    temporary_.clear();
  }

 private:
  [[noreturn]] void fail(const std::string& action) {
    fail_because(action, errno != 0 ? std::strerror(errno) : "unknown error");
  }
  [[noreturn]] void fail_because(const std::string& action, const std::string& reason) {
    discard();
    run_error(action + " " + what_ + " '" + path_ + "': " + reason);
  }

  std::string path_, what_, target_, temporary_;
  std::FILE* file_ = nullptr;
  int slot_ = -1;
};

}  // namespace daec::simulator
