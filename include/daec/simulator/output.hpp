// What the simulator writes (spec §5): the output times, the CSV rows (t, every declared variable,
// every output, %.17g) and the CSV file, written completely before it replaces FILE.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <daec/model_error.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/options.hpp>

namespace daec::simulator {

/// Buffers sized max(count, 1): a model may have no algebraic unknowns, invariants or outputs.
inline std::vector<double> buffer(int count) {
  return std::vector<double>(static_cast<size_t>(std::max(count, 1)), 0.0);
}

/// The output times: T0 + k*DT while short of T, then exactly T (no extra row when DT divides
/// T - T0 up to rounding). Computed from k rather than summed, so that no error accumulates.
class OutputTimes {
 public:
  // An output time within this fraction of DT of T is T itself.
  static constexpr double kSameTimeFraction = 1e-9;

  explicit OutputTimes(const Options& options)
      : t_start_(options.t_start), t_end_(options.t_end), step_(options.step) {
    double intervals = (t_end_ - t_start_) / step_;
    full_steps_ = static_cast<long>(std::ceil(intervals - kSameTimeFraction));
  }
  long count() const { return full_steps_ + 1; }
  double operator[](long k) const {
    return k < full_steps_ ? t_start_ + static_cast<double>(k) * step_ : t_end_;
  }

 private:
  double t_start_, t_end_, step_;
  long full_steps_;
};

/// The CSV columns: t, the declared variables, the outputs.
template <typename Model>
std::vector<std::string> csv_columns() {
  std::vector<std::string> columns = {"t"};
  for (int i = 0; i < Model::num_variables; ++i) columns.push_back(Model::variable_names[i]);
  for (int i = 0; i < Model::num_outputs; ++i) columns.push_back(Model::output_names[i]);
  return columns;
}

template <typename Model>
std::string csv_header() {
  std::string header;
  for (const std::string& column : csv_columns<Model>())
    header += (header.empty() ? "" : ",") + column;
  return header + "\n";
}

/// One row of values: t, the declared variables (from x, or from Z computed by rhs), the
/// outputs. Fails, naming the time and the quantity, rather than give a value that is not finite.
template <typename Model>
std::vector<double> row_values(const Model& model, double t, const std::vector<double>& x) {
  using text::format_number;
  std::vector<double> xdot = buffer(Model::num_states), z = buffer(Model::num_algebraic),
                      y = buffer(Model::num_outputs);
  std::string at = "cannot write the row at t = " + format_number(t) + ": ";
  if (model.rhs(t, x.data(), xdot.data(), z.data()) != 0)
    run_error(at + text::rhs_failure(model, t, x.data()));
  model.outputs(t, x.data(), y.data());
  std::vector<double> row = {t};
  for (int i = 0; i < Model::num_variables; ++i) {
    int location = Model::variable_location[i];
    row.push_back(location >= 0 ? x[static_cast<size_t>(location)]
                                : z[static_cast<size_t>(-1 - location)]);
  }
  for (int i = 0; i < Model::num_outputs; ++i) row.push_back(y[static_cast<size_t>(i)]);
  for (size_t i = 0; i < row.size(); ++i) {
    if (std::isfinite(row[i])) continue;
    bool output = i > static_cast<size_t>(Model::num_variables);
    std::string name = csv_columns<Model>()[i];
    run_error(at + (output ? "the output " : "the value of ") + text::quoted(name) + " is " +
              format_number(row[i]) + (output ? text::domain_hint("its expression") : ""));
  }
  return row;
}

inline std::string csv_line(const std::vector<double>& values) {
  std::string line;
  for (double value : values) {
    char number[32];
    std::snprintf(number, sizeof number, "%.17g", value);
    line += (line.empty() ? "" : ",") + std::string(number);
  }
  return line + "\n";
}

/// The CSV destination. A regular FILE is written under a temporary name (FILE.partial) and
/// renamed when complete, so a failed run leaves no partial file and an old FILE as it was; '-' is
/// stdout; special files and symbolic links are written directly (e.g. /dev/null).
class CsvOutput {
 public:
  explicit CsvOutput(const std::string& path) : path_(path) {
    if (path == "-") {
      file_ = stdout;
      return;
    }
    // A symbolic link is written through, not replaced by the renamed file.
    std::error_code error;
    auto status = std::filesystem::symlink_status(path, error);
    bool special = std::filesystem::exists(status) && !std::filesystem::is_regular_file(status);
    write_path_ = special ? path : path + ".partial";
    file_ = std::fopen(write_path_.c_str(), "w");
    if (file_ == nullptr) fail("cannot open");
  }
  CsvOutput(const CsvOutput&) = delete;
  CsvOutput& operator=(const CsvOutput&) = delete;
  ~CsvOutput() {
    if (file_ == nullptr || file_ == stdout) return;
    std::fclose(file_);
    if (write_path_ != path_) std::remove(write_path_.c_str());
  }

  void write(const std::string& text) {
    if (std::fputs(text.c_str(), file_) < 0) fail("cannot write");
  }

  /// Flushes and closes; renames the temporary file onto FILE.
  void commit() {
    if (file_ == stdout) {
      if (std::fflush(stdout) != 0) fail("cannot write");
      return;
    }
    std::FILE* file = std::exchange(file_, nullptr);
    if (std::fclose(file) != 0) {
      std::remove(write_path_.c_str());
      fail("cannot write");
    }
    if (write_path_ != path_ && std::rename(write_path_.c_str(), path_.c_str()) != 0) {
      int saved = errno;
      std::remove(write_path_.c_str());
      errno = saved;
      fail("cannot create");
    }
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    std::string reason = errno != 0 ? std::strerror(errno) : "unknown error";
    run_error(what + " output file '" + path_ + "': " + reason);
  }

  std::string path_, write_path_;
  std::FILE* file_ = nullptr;
};

}  // namespace daec::simulator
