// Batch mode (docs/command-line.md): `daec A.dae B.dae ... --output-dir DIR [-j N]` compiles every
// model into DIR/<stem>.cpp, each in a child process of its own, at most N at a time.
//
// Processes rather than threads because GiNaC is not thread-safe (non-atomic reference counts,
// global tables). A fresh child per model also keeps the outputs independent of which models were
// compiled before (GiNaC orders terms by symbol creation), so -j 1 and -j N give the same bytes,
// and a model that crashes daec fails alone.
#pragma once

#include <iosfwd>
#include <string>

#include "driver/options.h"

namespace daec {

/// The usage errors of a batch (options.output_dir set), found before any work: standard input
/// as a model, two models that would be written to the same file. Returns a one-line message, or
/// "" if the batch can run.
std::string check_batch_usage(const Options& options);

/// Where batch mode writes the code of `input`: DIR/<file name of input without extension>.cpp.
std::string batch_output_path(const std::string& dir, const std::string& input);

/// Runs the batch: creates options.output_dir if missing, compiles every model (a failing one does
/// not stop the rest), printing to `out` one progress line per model as it finishes and a summary
/// at the end, and to `err` each model's diagnostics as one block. Returns the exit status: 0 when
/// every model was converted, 1 when some failed, 2 when the output directory is unusable.
int run_batch(const Options& options, std::ostream& out, std::ostream& err);

}  // namespace daec
