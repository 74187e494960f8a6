// How a simulator run ends early: a usage error (exit status 2) or a failure of the run (1), with
// a message and notes that the simulator prints as "sim: error: ..." and "sim: note: ...".
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace daec::simulator {

/// A failure that ends the run: exit status (1 failure, 2 usage), message and notes.
struct Failure {
  int status;
  std::string message;
  std::vector<std::string> notes;
  /// The integration method gave up (step size, Newton, error test, step budget), rather than
  /// the model or its conditions: another method may get past it (failure_advice.hpp).
  bool method_gave_up = false;
};

[[noreturn]] inline void usage_error(const std::string& message) {
  throw Failure{2, message, {"run with --help for the usage"}};
}

[[noreturn]] inline void run_error(const std::string& message,
                                   std::vector<std::string> notes = {}) {
  throw Failure{1, message, std::move(notes)};
}

}  // namespace daec::simulator
