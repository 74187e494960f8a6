// The watchdog: an interval timer (SIGALRM) and the stage daec is in.
//
// The signal handler may only touch what is async-signal-safe: it reads the message of the
// current stage from one of two static buffers. enter_stage writes the buffer not in use and then
// switches to it, so that the handler never sees a half-written message.
#include "support/watchdog.h"

#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include <fmt/format.h>

namespace daec {

namespace {

constexpr size_t kMessageSize = 1024;

struct StageMessage {
  char text[kMessageSize];
  size_t length;
};

StageMessage g_messages[2];
volatile sig_atomic_t g_active_message = -1;  // index into g_messages; -1: none
volatile sig_atomic_t g_expired = 0;          // the first alarm came: the limit is reached

// The part outside the signal handler: plain strings.
std::string g_file_prefix;  // "m.dae:1:1: "
int g_seconds = 0;
std::string g_stage;
SourceLocation g_stage_location;

void write_all(const char* text, size_t length) {
  while (length > 0) {
    ssize_t n = ::write(STDERR_FILENO, text, length);
    if (n <= 0) return;  // nothing better to do in a signal handler
    text += n;
    length -= static_cast<size_t>(n);
  }
}

// First alarm: the limit is reached, checkpoints will stop. Second alarm, a grace period later:
// no checkpoint came (one long GiNaC call), so stop here.
extern "C" void on_alarm(int) {
  if (!g_expired) {
    g_expired = 1;
    return;
  }
  int active = g_active_message;
  if (active >= 0) write_all(g_messages[active].text, g_messages[active].length);
  ::_exit(1);
}

void set_timer(int seconds, int interval) {
  itimerval timer{};
  timer.it_value.tv_sec = seconds;
  timer.it_interval.tv_sec = interval;
  ::setitimer(ITIMER_REAL, &timer, nullptr);
}

// A stage about the whole model is at the start of its file (1:1), as in report_limit.
std::string location_prefix(const SourceLocation& location) {
  if (location.valid()) {
    return fmt::format("{}:{}:{}: ", location.file->name(), location.line, location.column);
  }
  if (location.file) return location.file->name() + ":1:1: ";
  return g_file_prefix;
}

// The backstop's one line for the current stage, into the buffer the handler does not read.
void prepare_message() {
  int next = g_active_message == 0 ? 1 : 0;
  std::string line = location_prefix(g_stage_location) + "error: " + time_limit_message() + "\n";
  size_t length = std::min(line.size(), kMessageSize);
  std::memcpy(g_messages[next].text, line.data(), length);
  g_messages[next].length = length;
  std::atomic_signal_fence(std::memory_order_seq_cst);  // the text before the switch
  g_active_message = next;
}

}  // namespace

void arm_watchdog(const std::string& file_name, int seconds) {
  disarm_watchdog();
  g_stage.clear();
  g_stage_location = {};
  g_file_prefix = file_name + ":1:1: ";
  g_seconds = seconds;
  if (seconds <= 0) return;
  struct sigaction action {};
  action.sa_handler = on_alarm;
  action.sa_flags = SA_RESTART;  // the first alarm must not make system calls fail
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGALRM, &action, nullptr);
  set_timer(seconds, kWatchdogGraceSeconds);
}

void disarm_watchdog() {
  set_timer(0, 0);
  g_expired = 0;
  g_seconds = 0;
  g_active_message = -1;
}

bool time_is_up() {
  if (!g_expired) return false;
  // A checkpoint will report: the backstop must not print a second message meanwhile.
  set_timer(0, 0);
  return true;
}

int time_limit_seconds() {
  return g_seconds;
}

void enter_stage(const SourceLocation& location, const std::string& description) {
  g_stage = description;
  g_stage_location = location;
  if (g_seconds > 0) prepare_message();
}

const std::string& current_stage() {
  return g_stage;
}

const SourceLocation& current_stage_location() {
  return g_stage_location;
}

std::string time_limit_message() {
  return fmt::format("time limit of {} s exceeded while {} (raise it with --time-limit)", g_seconds,
                     g_stage);
}

}  // namespace daec
