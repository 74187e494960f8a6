// What the simulator writes (docs/simulator.md): the output times, the CSV rows (t, every declared
// variable, every output, each number in the shortest form that reads back to the same double;
// names quoted as RFC 4180 asks) and the CSV file, written through a temporary that replaces FILE
// when the rows are complete (daec/simulator/output_files.hpp).
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include <daec/model_error.hpp>
#include <daec/runtime/system.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/options.hpp>
#include <daec/simulator/output_files.hpp>
#include <daec/simulator/progress.hpp>

namespace daec::simulator {

using runtime::System;

/// Buffers sized max(count, 1): a model may have no algebraic unknowns, invariants or outputs.
inline std::vector<double> buffer(int count) {
  return std::vector<double>(static_cast<size_t>(std::max(count, 1)), 0.0);
}

/// The output times: those of --output-times, else T0 + k*DT while short of T, then exactly T (no
/// extra row when DT divides T - T0 up to rounding), computed from k rather than summed, so that no
/// error accumulates.
class OutputTimes {
 public:
  // An output time within this fraction of DT of T is T itself.
  static constexpr double kSameTimeFraction = 1e-9;

  explicit OutputTimes(const Options& options)
      : t_start_(options.t_start),
        t_end_(options.t_end),
        step_(options.step),
        listed_(options.output_times) {
    if (!listed_.empty()) return;  // full_steps_ is the uniform step's alone
    double intervals = (t_end_ - t_start_) / step_;
    full_steps_ = static_cast<long>(std::ceil(intervals - kSameTimeFraction));
  }
  long count() const {
    return listed_.empty() ? full_steps_ + 1 : static_cast<long>(listed_.size());
  }
  double operator[](long k) const {
    if (!listed_.empty()) return listed_[static_cast<size_t>(k)];
    return k < full_steps_ ? t_start_ + static_cast<double>(k) * step_ : t_end_;
  }

 private:
  double t_start_, t_end_, step_;
  std::vector<double> listed_;  // --output-times (empty: the uniform step)
  long full_steps_ = 0;
};

/// The CSV columns: t, the declared variables, the outputs.
inline std::vector<std::string> csv_columns(const System& model) {
  std::vector<std::string> columns = {"t"};
  for (int i = 0; i < model.num_variables; ++i) columns.push_back(model.variable_names[i]);
  for (int i = 0; i < model.num_outputs; ++i) columns.push_back(model.output_names[i]);
  return columns;
}

/// `text` as a CSV field (RFC 4180): quoted, with "" for a quote, when it holds a comma, a
/// quote or a line break (the element A[1,2] of a 2-D array), else as it is.
inline std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

/// Whether a variable or output of the model declares a unit (docs/language.md, "Units").
inline bool declares_units(const System& model) {
  if (!model.variable_units) return false;
  for (int i = 0; i < model.num_variables; ++i)
    if (*model.variable_units[i] != '\0') return true;
  for (int i = 0; i < model.num_outputs; ++i)
    if (*model.output_units[i] != '\0') return true;
  return false;
}

/// The units file: `column,unit`, then each CSV column (t in s) with its unit, "" where none.
/// The CSV keeps its one header line, so that pd.read_csv(OUT) reads it as before.
/// `extra`: columns after the model's (the sensitivities), listed with no unit.
inline std::string units_csv(const System& model, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> columns = csv_columns(model);
  std::string text = "column,unit\nt,s\n";
  for (size_t i = 1; i < columns.size(); ++i) {
    size_t k = i - 1, variables = static_cast<size_t>(model.num_variables);
    const char* unit = k < variables ? model.variable_units[k] : model.output_units[k - variables];
    text += csv_field(columns[i]) + "," + csv_field(unit) + "\n";
  }
  for (const std::string& column : extra) text += csv_field(column) + ",\n";
  return text;
}

/// The header line: the model's columns, then `extra`.
inline std::string csv_header(const System& model, const std::vector<std::string>& extra = {}) {
  std::string header;
  for (const std::string& column : csv_columns(model))
    header += (header.empty() ? "" : ",") + csv_field(column);
  for (const std::string& column : extra) header += "," + csv_field(column);
  return header + "\n";
}

/// One row of values: t, the declared variables (from x, or from Z computed by rhs), the
/// outputs. Fails, naming the time and the quantity, rather than give a value that is not finite.
inline std::vector<double> row_values(const System& model, double t, const std::vector<double>& x) {
  using text::format_number;
  std::vector<double> xdot = buffer(model.num_states), z = buffer(model.num_algebraic),
                      y = buffer(model.num_outputs);
  std::string at = "cannot write the row at t = " + format_number(t) + ": ";
  if (model.rhs(t, x.data(), xdot.data(), z.data()) != 0)
    run_error(at + text::rhs_failure(model, t, x.data()));
  model.outputs(t, x.data(), y.data());
  std::vector<double> row = {t};
  for (int i = 0; i < model.num_variables; ++i) {
    int location = model.variable_location[i];
    row.push_back(location >= 0 ? x[static_cast<size_t>(location)]
                                : z[static_cast<size_t>(-1 - location)]);
  }
  for (int i = 0; i < model.num_outputs; ++i) row.push_back(y[static_cast<size_t>(i)]);
  for (size_t i = 0; i < row.size(); ++i) {
    if (std::isfinite(row[i])) continue;
    bool output = i > static_cast<size_t>(model.num_variables);
    std::string name = csv_columns(model)[i];
    run_error(at + (output ? "the output " : "the value of ") + text::quoted(name) + " is " +
              format_number(row[i]) + (output ? text::domain_hint("its expression") : ""));
  }
  return row;
}

// Room for any double in its shortest round-trip form ("-1.7976931348623157e+308" is 24).
constexpr size_t kNumberCharacters = 32;

/// `value` in the shortest form that reads back to the same double (std::to_chars: 0.03, 1e-05,
/// 1e+20, 0.30000000000000004), and 0 for -0 (a sign that no reader of a table expects).
inline std::string csv_number(double value) {
  if (value == 0.0) return "0";
  char number[kNumberCharacters];
  const std::to_chars_result result = std::to_chars(number, number + sizeof number, value);
  if (result.ec != std::errc()) return text::format_number(value);  // cannot happen: room for all
  return std::string(number, result.ptr);
}

inline std::string csv_line(const std::vector<double>& values) {
  std::string line;
  for (double value : values) line += (line.empty() ? "" : ",") + csv_number(value);
  return line + "\n";
}

/// The CSV destination: '-' is stdout; a FILE is written through a StagedFile (a temporary
/// renamed onto FILE by commit(), removed if the run ends without committing).
class CsvOutput {
 public:
  explicit CsvOutput(const std::string& path, const char* what = "output file") {
    if (path != "-") file_ = std::make_unique<StagedFile>(path, what);
    stdout_terminal_ = !file_ && ::isatty(STDOUT_FILENO) == 1;
  }

  void write(const std::string& text) {
    if (file_) return file_->write(text);
    if (stdout_terminal_) clear_progress_line();  // a row on the terminal of the line
    if (std::fputs(text.c_str(), stdout) < 0) fail_stdout();
  }

  /// Flushes; renames the temporary file onto FILE.
  void commit() {
    if (file_) return file_->commit();
    if (std::fflush(stdout) != 0) fail_stdout();
  }

 private:
  [[noreturn]] static void fail_stdout() {
    run_error(std::string("cannot write to standard output: ") +
              (errno != 0 ? std::strerror(errno) : "unknown error"));
  }

  std::unique_ptr<StagedFile> file_;
  bool stdout_terminal_ = false;  // rows go to a terminal, maybe the progress line's
};

}  // namespace daec::simulator
