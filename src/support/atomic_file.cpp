// Atomic file output through a temporary file and rename(2).
#include "support/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <vector>

#include "support/watchdog.h"

namespace daec {

static bool write_all(int fd, const std::string& contents) {
  size_t written = 0;
  while (written < contents.size()) {
    ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<size_t>(n);
  }
  return true;
}

bool write_file_atomically(const std::string& path, const std::string& contents,
                           std::string& error) {
  if (path == "-") {
    std::cout << contents << std::flush;
    if (std::cout) return true;
    error = "cannot write to standard output";
    return false;
  }
  std::string pattern = path + ".tmp.XXXXXX";
  std::vector<char> temporary(pattern.begin(), pattern.end());
  temporary.push_back('\0');
  int fd;
  {
    // The watchdog's backstop removes the temporary if it stops daec while it exists: it must
    // not come between creating the file and registering it.
    BackstopHeldOff held;
    fd = ::mkstemp(temporary.data());
    if (fd >= 0) register_temporary_file(temporary.data());
  }
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  // mkstemp creates the file 0600; outputs should get the usual permissions.
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  bool ok = write_all(fd, contents);
  int saved = errno;
  ok = (::close(fd) == 0) && ok;
  BackstopHeldOff held;  // renamed or removed, the temporary is no longer the backstop's
  register_temporary_file(nullptr);
  if (ok && ::rename(temporary.data(), path.c_str()) == 0) return true;
  error = std::strerror(ok ? errno : (saved ? saved : EIO));
  ::unlink(temporary.data());
  return false;
}

}  // namespace daec
