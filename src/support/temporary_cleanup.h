// Removing the temporary output files when daec is interrupted (support/atomic_file.h): SIGINT,
// SIGTERM, SIGHUP or SIGQUIT while the outputs are written would otherwise leave OUT.tmp.XXXXXX
// beside each target. The temporaries are registered while they exist; the first such signal
// unlinks every registered one (unlink is async-signal-safe) and then ends daec by the same
// signal, as it would have without the handler (the shell sees the usual status).
//
// The list is changed only with those signals blocked (SignalsHeld), so that the handler never
// sees it half-changed; a temporary is created and registered, or unlinked (renamed) and
// unregistered, within one such section.
#pragma once

#include <signal.h>

#include <string>

namespace daec {

/// Blocks the cleanup signals for its lifetime (they stay pending, and are handled at its end).
class SignalsHeld {
 public:
  SignalsHeld();
  ~SignalsHeld();
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t previous_;
};

/// Adds `path` to the files removed on a cleanup signal, installing the handlers on first use
/// (a signal that is ignored, as under nohup, stays ignored). Call with SignalsHeld.
void register_temporary(const std::string& path);

/// Removes `path` from that list (it has been renamed or unlinked). Call with SignalsHeld.
void unregister_temporary(const std::string& path);

}  // namespace daec
