// The times of --output-times (docs/simulator.md, "Output times"): a list on the command line,
// `T1,T2,...`, or a file, `@FILE`, one time a line (blank lines and lines starting with '#'
// skipped, spaces around a time allowed). Each time is a number as the other options take them
// (option_numbers.hpp), and the times increase strictly. Where they lie against --t-start and
// --t-end is checked with the other options (options.hpp), once both are known.
#pragma once

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <daec/simulator/failure.hpp>
#include <daec/simulator/option_numbers.hpp>

namespace daec::simulator {

/// The times read from --output-times, and how messages name where they came from
/// ("--output-times", or "--output-times @FILE").
struct OutputTimesArgument {
  std::vector<double> times;
  std::string source;
};

/// One time as written: its text, and where it is (" at FILE:LINE" in a file, "" on the command
/// line), for the messages.
struct WrittenTime {
  std::string text;
  std::string where;
};

/// The items of `T1,T2,...`; an empty item (two commas, a comma at an end) is bad usage.
inline std::vector<WrittenTime> split_time_list(const std::string& value) {
  std::vector<WrittenTime> items;
  size_t begin = 0;
  while (true) {
    const size_t comma = value.find(',', begin);
    std::string item = value.substr(begin, comma == std::string::npos ? comma : comma - begin);
    if (item.empty())
      usage_error("--output-times expects times separated by commas, or @FILE, got '" + value +
                  "'");
    items.push_back({item, ""});
    if (comma == std::string::npos) return items;
    begin = comma + 1;
  }
}

/// `text` without the spaces, tabs and carriage returns (of a CRLF file) around it.
inline std::string trimmed(const std::string& text) {
  const char* const kBlank = " \t\r";
  const size_t first = text.find_first_not_of(kBlank);
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(kBlank) - first + 1);
}

/// The times of the file `path`, one a line; blank lines and comments ('#' first) skipped.
inline std::vector<WrittenTime> read_time_file(const std::string& path) {
  errno = 0;
  std::ifstream in(path);
  if (!in)
    usage_error("cannot read the --output-times file '" + path +
                "': " + (errno != 0 ? std::strerror(errno) : "cannot open it"));
  std::vector<WrittenTime> items;
  std::string line;
  for (long number = 1; std::getline(in, line); ++number) {
    const std::string item = trimmed(line);
    if (item.empty() || item[0] == '#') continue;
    items.push_back({item, " at " + path + ":" + std::to_string(number)});
  }
  if (in.bad()) usage_error("cannot read the --output-times file '" + path + "'");
  if (items.empty())
    usage_error("the --output-times file '" + path +
                "' holds no time (one time a line; blank lines and lines starting with # are "
                "skipped)");
  return items;
}

/// The value of --output-times read and checked on its own: numbers, strictly increasing.
inline OutputTimesArgument read_output_times(const std::string& value) {
  const bool from_file = !value.empty() && value[0] == '@';
  if (from_file && value.size() == 1) usage_error("--output-times expects a file name after '@'");
  const std::vector<WrittenTime> written =
      from_file ? read_time_file(value.substr(1)) : split_time_list(value);
  OutputTimesArgument argument{{}, from_file ? "--output-times " + value : "--output-times"};
  for (size_t i = 0; i < written.size(); ++i) {
    const double t = parse_number("--output-times" + written[i].where, written[i].text);
    if (i > 0 && !(t > argument.times.back()))
      usage_error("--output-times must be strictly increasing: " + written[i].text +
                  written[i].where + " follows " + written[i - 1].text);
    argument.times.push_back(t);
  }
  return argument;
}

}  // namespace daec::simulator
