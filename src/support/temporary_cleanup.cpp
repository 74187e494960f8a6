// The registry of temporary files and the handler of the cleanup signals.
#include "support/temporary_cleanup.h"

#include <unistd.h>

#include <algorithm>
#include <vector>

namespace daec {

namespace {

constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

// Changed only with the cleanup signals blocked; the handler only reads it.
std::vector<std::string>& temporaries() {
  static std::vector<std::string>* list = new std::vector<std::string>();  // never destroyed
  return *list;
}

sigset_t cleanup_set() {
  sigset_t set;
  sigemptyset(&set);
  for (int signal_number : kCleanupSignals) sigaddset(&set, signal_number);
  return set;
}

extern "C" void on_cleanup_signal(int signal_number) {
  for (const std::string& path : temporaries()) ::unlink(path.c_str());
  // SA_RESETHAND restored the default action; the signal is blocked until the handler returns,
  // and is then delivered again: daec ends as the signal would have ended it.
  ::raise(signal_number);
}

void install_handlers() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  for (int signal_number : kCleanupSignals) {
    struct sigaction current {};
    if (::sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler == SIG_IGN)
      continue;
    struct sigaction action {};
    action.sa_handler = on_cleanup_signal;
    action.sa_flags = SA_RESETHAND;
    action.sa_mask = cleanup_set();  // one handler at a time
    ::sigaction(signal_number, &action, nullptr);
  }
}

}  // namespace

SignalsHeld::SignalsHeld() {
  sigset_t set = cleanup_set();
  ::sigprocmask(SIG_BLOCK, &set, &previous_);
}

SignalsHeld::~SignalsHeld() {
  ::sigprocmask(SIG_SETMASK, &previous_, nullptr);
}

void register_temporary(const std::string& path) {
  install_handlers();
  temporaries().push_back(path);
}

void unregister_temporary(const std::string& path) {
  std::vector<std::string>& list = temporaries();
  auto it = std::find(list.begin(), list.end(), path);
  if (it != list.end()) list.erase(it);
}

}  // namespace daec
