// --plot FILE.png (docs/simulator.md, "Plots"): the SVG converted by the first converter on PATH
// that works: rsvg-convert (Debian: librsvg2-bin), else ImageMagick's magick or convert, each
// recognized by what `-version` prints (a program of that name may be something else). What it
// wrote must start with the PNG signature; when no converter gives a PNG, the failure names each
// one tried and what became of it.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <daec/simulator/failure.hpp>

namespace daec::simulator {

// The first eight bytes of every PNG file.
constexpr unsigned char kPngSignature[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
// What `-version` of ImageMagick (6's convert, 7's magick) prints first.
constexpr const char* kImageMagickVersion = "Version: ImageMagick ";
// Of a program's output, only this much is kept (a message quotes its first line).
constexpr size_t kKeptOutput = 4096;

/// The executable file `program` names on PATH (the first directory holding it), or "".
inline std::string find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string directories = path != nullptr ? path : "";
  for (size_t start = 0; start <= directories.size();) {
    size_t end = directories.find(':', start);
    if (end == std::string::npos) end = directories.size();
    std::string directory = directories.substr(start, end - start);
    start = end + 1;
    const std::string candidate = (directory.empty() ? "." : directory) + "/" + program;
    struct stat status;
    if (::stat(candidate.c_str(), &status) == 0 && S_ISREG(status.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return "";
}

/// How a program run ended: `status` its exit status (-1 if it could not be run or a signal
/// ended it, then `failure` says which), `output` the start of its stdout and stderr.
struct ProgramRun {
  int status = -1;
  std::string output, failure;
};

/// Starts `program` (a path) with `arguments`, stdin from /dev/null, stdout and stderr into a pipe
/// whose reading end goes to `output`; the posix_spawn error number (0: started).
inline int spawn_captured(const std::string& program, const std::vector<std::string>& arguments,
                          pid_t& child, int& output) {
  int pipe_ends[2];
  if (::pipe(pipe_ends) != 0) return errno;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], 2);
  posix_spawn_file_actions_addclose(&actions, pipe_ends[0]);
  posix_spawn_file_actions_addclose(&actions, pipe_ends[1]);
  std::vector<std::string> words{program};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  const int spawned =
      ::posix_spawn(&child, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_ends[1]);
  if (spawned != 0) ::close(pipe_ends[0]);
  output = pipe_ends[0];
  return spawned;
}

/// Reads `fd` to its end and closes it; the first kKeptOutput bytes.
inline std::string read_to_end(int fd) {
  std::string kept;
  char buffer[512];
  for (ssize_t got; (got = ::read(fd, buffer, sizeof buffer)) != 0;) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    kept.append(buffer, std::min(static_cast<size_t>(got), kKeptOutput - kept.size()));
  }
  ::close(fd);
  return kept;
}

/// Runs `program` (a path) with `arguments`, stdin from /dev/null, stdout and stderr captured.
inline ProgramRun run_program(const std::string& program,
                              const std::vector<std::string>& arguments) {
  ProgramRun run;
  pid_t child = 0;
  int output = -1;
  if (const int error = spawn_captured(program, arguments, child, output); error != 0) {
    run.failure = std::string("cannot run it: ") + std::strerror(error);
    return run;
  }
  run.output = read_to_end(output);
  int wait_status = 0;
  while (::waitpid(child, &wait_status, 0) < 0)
    if (errno != EINTR) {
      run.failure = std::string("cannot wait for it: ") + std::strerror(errno);
      return run;
    }
  if (WIFEXITED(wait_status))
    run.status = WEXITSTATUS(wait_status);
  else
    run.failure = "ended by signal " + std::to_string(WTERMSIG(wait_status));
  return run;
}

/// The first line of `output`, for a message ("" for none).
inline std::string first_line(const std::string& output) {
  const size_t end = output.find('\n');
  return output.substr(0, end);
}

/// Whether the file at `path` starts with the PNG signature.
inline bool is_png_file(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return false;
  unsigned char head[sizeof kPngSignature] = {};
  const size_t got = std::fread(head, 1, sizeof head, file);
  std::fclose(file);
  return got == sizeof head && std::memcmp(head, kPngSignature, sizeof head) == 0;
}

/// `path` as an argument that no program takes for an option.
inline std::string file_argument(const std::string& path) {
  return !path.empty() && path[0] == '-' ? "./" + path : path;
}

/// One converter: its program name, whether `-version` must show ImageMagick, its arguments.
struct PngConverter {
  std::string program;
  bool imagemagick;
  std::vector<std::string> arguments(const std::string& svg, const std::string& png) const {
    if (imagemagick) return {"svg:" + svg, "png:" + png};
    return {"-f", "png", "-o", file_argument(png), file_argument(svg)};
  }
};

/// Tries `converter` on svg -> png: "" if it wrote a PNG, else what happened ("not found on PATH").
inline std::string try_converter(const PngConverter& converter, const std::string& svg,
                                 const std::string& png) {
  const std::string program = find_on_path(converter.program);
  if (program.empty()) return "not found on PATH";
  const std::string shown = program + ": ";
  if (converter.imagemagick) {
    const ProgramRun version = run_program(program, {"-version"});
    if (version.output.rfind(kImageMagickVersion, 0) != 0)
      return shown + "not ImageMagick (" + converter.program + " -version printed '" +
             first_line(version.output) + "')";
  }
  const ProgramRun run = run_program(program, converter.arguments(svg, png));
  if (!run.failure.empty()) return shown + run.failure;
  if (run.status != 0)
    return shown + "exit status " + std::to_string(run.status) +
           (run.output.empty() ? "" : ": " + first_line(run.output));
  struct stat status;
  if (::stat(png.c_str(), &status) == 0 && !S_ISREG(status.st_mode)) return "";  // a FIFO, ...
  if (!is_png_file(png)) return shown + "wrote no PNG (the file does not start with its signature)";
  return "";
}

/// Converts the SVG file `svg` into the PNG file `png` (the temporary of the plot `shown`); a
/// run_error naming every converter tried when none works.
inline void convert_svg_to_png(const std::string& svg, const std::string& png,
                               const std::string& shown) {
  static const PngConverter kConverters[] = {
      {"rsvg-convert", false}, {"magick", true}, {"convert", true}};
  std::vector<std::string> notes;
  for (const PngConverter& converter : kConverters) {
    const std::string outcome = try_converter(converter, svg, png);
    if (outcome.empty()) return;
    notes.push_back("tried " + converter.program + ": " + outcome);
  }
  notes.push_back(
      "install rsvg-convert (Debian: apt-get install librsvg2-bin) or ImageMagick, or write the "
      "plot as .svg; the other outputs are written");
  run_error("cannot create the plot '" + shown + "': no converter from SVG to PNG worked", notes);
}

}  // namespace daec::simulator
