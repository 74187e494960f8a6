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
#include <cstdlib>
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

// Room for any double in its shortest round-trip form ("-1.7976931348623157e+308" is 24).
constexpr size_t kNumberCharacters = 32;

/// Buffers sized max(count, 1): a model may have no algebraic unknowns, invariants or outputs.
inline std::vector<double> buffer(int count) {
  return std::vector<double>(static_cast<size_t>(std::max(count, 1)), 0.0);
}

/// A double as the decimal its shortest form spells, digits * 10^exponent (0.02: 2, -2), where
/// the digits fit in 15 decimal places; none otherwise.
struct Decimal {
  long long digits = 0;
  int exponent = 0;
};
inline bool shortest_decimal(double value, Decimal& decimal) {
  char text[kNumberCharacters];
  const std::to_chars_result result =
      std::to_chars(text, text + sizeof text, value, std::chars_format::scientific);
  if (result.ec != std::errc()) return false;
  const std::string written(text, result.ptr);  // -1.2345e-02
  const size_t e = written.find('e');
  std::string digits;
  for (size_t i = 0; i < e; ++i)
    if (written[i] != '.' && written[i] != '-') digits += written[i];
  if (digits.size() > 15) return false;
  decimal.digits = std::stoll(digits) * (value < 0 ? -1 : 1);
  decimal.exponent = std::stoi(written.substr(e + 1)) - static_cast<int>(digits.size()) + 1;
  return true;
}

/// T0 + k*DT as the decimal the options spell, rounded once: where T0 and DT are decimals of
/// few digits (-1 and 0.02, as typed, or DT = (T - T0)/100), the time of row k is the double
/// nearest the exact decimal T0 + k DT (0.02, where the double arithmetic would give
/// 0.020000000000000018), so that it prints as the decimal asked for; else T0 + k*DT in double
/// precision.
inline double grid_time(double t0, double step, long k) {
  const double plain = t0 + static_cast<double>(k) * step;
  Decimal a, b;
  if (!shortest_decimal(t0, a) || !shortest_decimal(step, b)) return plain;
  if (t0 == 0.0) a.exponent = b.exponent;
  const int exponent = std::min(a.exponent, b.exponent);
  // The digits of T0 and k DT at the finer exponent, within 2^62 so that their sum is exact.
  constexpr double kLimit = 4.0e18;
  const double scale_a = std::pow(10.0, a.exponent - exponent),
               scale_b = std::pow(10.0, b.exponent - exponent);
  if (!(std::fabs(static_cast<double>(a.digits)) * scale_a < kLimit) ||
      !(std::fabs(static_cast<double>(b.digits)) * scale_b * static_cast<double>(k) < kLimit))
    return plain;
  long long factor_a = 1, factor_b = 1;
  for (int i = exponent; i < a.exponent; ++i) factor_a *= 10;
  for (int i = exponent; i < b.exponent; ++i) factor_b *= 10;
  const long long digits = a.digits * factor_a + b.digits * factor_b * k;
  const std::string text = std::to_string(digits) + "e" + std::to_string(exponent);
  const double value = std::strtod(text.c_str(), nullptr);
  return std::isfinite(value) ? value : plain;
}

/// The output times: those of --output-times, else T0 + k*DT while short of T (grid_time: the
/// decimal asked for), then exactly T (no extra row when DT divides T - T0 up to rounding),
/// computed from k rather than summed, so that no error accumulates.
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
    return k < full_steps_ ? grid_time(t_start_, step_, k) : t_end_;
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

/// The columns that --columns (`patterns`) selects from `names` (t, the model's columns, then
/// `extra`, the sensitivity columns d(v)/d(p): for each parameter, one per model column but t), as
/// indices into a row, in the row's order: t always; a column when a pattern matches its name;
/// a sensitivity column also when its variable or output is selected. Every column without
/// patterns. A pattern that matches no column is a usage error naming the columns (`option`).
inline std::vector<size_t> column_selection(const std::vector<std::string>& names,
                                            size_t model_columns,
                                            const std::vector<std::string>& patterns,
                                            const std::string& option = "--columns") {
  std::vector<size_t> chosen;
  if (patterns.empty()) {
    for (size_t i = 0; i < names.size(); ++i) chosen.push_back(i);
    return chosen;
  }
  std::vector<bool> selected(names.size(), false);
  selected[0] = true;
  for (const std::string& pattern : patterns) {
    bool found = false;
    for (size_t i = 0; i < names.size(); ++i) {
      if (!matches_pattern(pattern, names[i])) continue;
      selected[i] = true;
      found = true;
    }
    if (found) continue;
    std::vector<std::string> listed;
    for (size_t i = 1; i < names.size(); ++i) listed.push_back(column_selector(names[i]));
    usage_error(option + ": no column matches '" + pattern + "'; the columns are " +
                text::join(listed));
  }
  for (size_t i = model_columns; i < names.size() && model_columns > 1; ++i)
    if (selected[1 + (i - model_columns) % (model_columns - 1)]) selected[i] = true;
  for (size_t i = 0; i < names.size(); ++i)
    if (selected[i]) chosen.push_back(i);
  return chosen;
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

/// Every column: the model's (csv_columns), then `extra` (the sensitivities).
inline std::vector<std::string> all_columns(const System& model,
                                            const std::vector<std::string>& extra = {}) {
  std::vector<std::string> columns = csv_columns(model);
  columns.insert(columns.end(), extra.begin(), extra.end());
  return columns;
}

/// The units file: `column,unit`, then each CSV column (t in s) with its unit, "" where none.
/// The CSV keeps its one header line, so that pd.read_csv(OUT) reads it as before.
/// `extra`: columns after the model's (the sensitivities), listed with no unit; `chosen`: the
/// columns written (column_selection; empty: all).
inline std::string units_csv(const System& model, const std::vector<std::string>& extra = {},
                             const std::vector<size_t>& chosen = {}) {
  const std::vector<std::string> columns = all_columns(model, extra);
  const size_t variables = static_cast<size_t>(model.num_variables),
               model_columns = columns.size() - extra.size();
  std::string text = "column,unit\n";
  for (size_t c = 0; c < (chosen.empty() ? columns.size() : chosen.size()); ++c) {
    const size_t i = chosen.empty() ? c : chosen[c];
    const size_t k = i - 1;
    const char* unit = i == 0               ? "s"
                       : i >= model_columns ? ""
                       : k < variables      ? model.variable_units[k]
                                            : model.output_units[k - variables];
    text += csv_field(columns[i]) + "," + csv_field(unit) + "\n";
  }
  return text;
}

/// The header line: the model's columns, then `extra`; `chosen` as for units_csv.
inline std::string csv_header(const System& model, const std::vector<std::string>& extra = {},
                              const std::vector<size_t>& chosen = {}) {
  const std::vector<std::string> columns = all_columns(model, extra);
  std::string header;
  for (size_t c = 0; c < (chosen.empty() ? columns.size() : chosen.size()); ++c)
    header += (c == 0 ? "" : ",") + csv_field(columns[chosen.empty() ? c : chosen[c]]);
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

/// `value` in the shortest form that reads back to the same double (std::to_chars: 0.03, 1e-05,
/// 1e+20, 0.30000000000000004), and 0 for -0 (a sign that no reader of a table expects).
inline std::string csv_number(double value) {
  if (value == 0.0) return "0";
  char number[kNumberCharacters];
  const std::to_chars_result result = std::to_chars(number, number + sizeof number, value);
  if (result.ec != std::errc()) return text::format_number(value);  // cannot happen: room for all
  return std::string(number, result.ptr);
}

/// A CSV row of `values`, or of those at `chosen` (column_selection; empty: all).
inline std::string csv_line(const std::vector<double>& values,
                            const std::vector<size_t>& chosen = {}) {
  std::string line;
  for (size_t c = 0; c < (chosen.empty() ? values.size() : chosen.size()); ++c)
    line += (c == 0 ? "" : ",") + csv_number(values[chosen.empty() ? c : chosen[c]]);
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
