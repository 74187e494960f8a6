// The time limit of one model (--time-limit, docs/limits.md) and the stage daec is in.
//
// The stages of the pipeline announce what they are doing (`enter_stage`); the messages about
// running out of time or memory name that stage. The limit is enforced twice: stages call
// `time_is_up()` at their checkpoints and stop with a proper diagnostic; and, since a single
// GiNaC call (one diff or expand) can run for minutes without reaching a checkpoint, a SIGALRM
// backstop fires one grace second later, writes a one-line message naming the stage and ends the
// process with status 1. No output file exists then: outputs are written after the watchdog is
// disarmed (driver/process_model.cpp).
//
// One watchdog per process: batch mode runs each model in a child process of its own, so each
// model gets the whole limit.
#pragma once

#include <signal.h>

#include <string>

#include "support/source.h"

namespace daec {

/// The grace period between the limit and the backstop: time for a checkpoint to come.
inline constexpr int kWatchdogGraceSeconds = 1;

/// Starts the clock for one model, in no stage yet: `seconds` from now the limit is reached (0: no
/// limit).
/// `file_name` prefixes the backstop's message for stages without a source location.
void arm_watchdog(const std::string& file_name, int seconds);

/// Stops the clock (the model's work is done or has failed); the stage stays known.
void disarm_watchdog();

/// Whether the time limit has been reached since arm_watchdog.
bool time_is_up();

/// The limit given to arm_watchdog, in seconds (0: none).
int time_limit_seconds();

/// Records what daec is doing now, e.g. "differentiating constraint 'rod' in round 2", and where
/// in the model (an invalid location stands for the model as a whole).
void enter_stage(const SourceLocation& location, const std::string& description);

/// The stage last entered ("" before any).
const std::string& current_stage();
const SourceLocation& current_stage_location();

/// The message of the time limit for the current stage, without location or "error: ".
std::string time_limit_message();

}  // namespace daec
