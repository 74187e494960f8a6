// Batch mode: a parent process that forks one child per model (at most N running), collects each
// child's standard output, standard error and outcome through pipes, and reports a model only
// once it has finished, so that the diagnostics of different models never interleave.
#include "driver/batch.h"

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "driver/process_model.h"
#include "support/source.h"
#include "support/text.h"

namespace daec {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kExitModelError = 1;
constexpr int kExitUsageError = 2;

// The pipes from a child: what it prints, its diagnostics, and its outcome (the index).
enum Channel { kOut, kErr, kOutcome, kChannels };

// One model being compiled in a child process.
struct Job {
  size_t input = 0;  // position in options.inputs
  pid_t pid = -1;
  int fds[kChannels] = {-1, -1, -1};  // the parent's read ends; -1 once at end of file
  std::string text[kChannels];
  Clock::time_point start;

  bool drained() const { return fds[kOut] < 0 && fds[kErr] < 0 && fds[kOutcome] < 0; }
};

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string strerror_text(int error) {
  return std::strerror(error);
}

// Closes both ends of the pipes made so far.
void close_pipes(int pipes[][2], int count) {
  for (int i = 0; i < count; ++i) {
    ::close(pipes[i][0]);
    ::close(pipes[i][1]);
  }
}

// The child's side: run the pipeline on one model and exit 0 (converted) or 1 (failed). Its
// standard output and error are the pipes; the index goes to `outcome_fd`.
[[noreturn]] void run_child(const Options& options, size_t input, int outcome_fd) {
  const std::string& path = options.inputs[input];
  Options one = options;
  one.inputs = {path};
  one.output_dir.clear();
  one.output = batch_output_path(options.output_dir, path);
  bool ok = false;
  ModelOutcome outcome;
  try {
    std::string error;
    std::unique_ptr<SourceFile> file = SourceFile::load(path, error, options.max_input_size);
    if (file) {
      // The model's one-line summary is dropped: the parent's progress line takes its place.
      std::ostringstream summary;
      ok = process_model(*file, one, summary, std::cerr, &outcome);
    } else {
      std::cerr << "daec: error: cannot read '" << path << "': " << error << "\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "daec: error: internal error while compiling '" << path << "': " << e.what()
              << "\n";
    ok = false;
  }
  if (outcome.index) {
    std::string index = std::to_string(*outcome.index);
    ssize_t ignored = ::write(outcome_fd, index.data(), index.size());
    (void)ignored;  // a parent that cannot read it reports the model without its index
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  // _exit, not exit: the parent's atexit handlers and static destructors are not the child's.
  ::_exit(ok ? 0 : kExitModelError);
}

// In a new child: keeps only the write ends of its own pipes, as standard output and error and
// `outcome`. Descriptors it does not need would count against its limit of open files (and a
// child holding another's pipe would be harmless but untidy).
void keep_child_descriptors(int pipes[][2], const std::vector<Job>& running) {
  for (const Job& other : running) {
    for (int fd : other.fds) {
      if (fd >= 0) ::close(fd);
    }
  }
  ::dup2(pipes[kOut][1], STDOUT_FILENO);
  ::dup2(pipes[kErr][1], STDERR_FILENO);
  for (int i = 0; i < kChannels; ++i) {
    ::close(pipes[i][0]);
    if (i != kOutcome) ::close(pipes[i][1]);
  }
}

// Forks the child for model `input`. Returns false and sets `error` when no process could be
// started (too many open files or processes).
bool start_job(const Options& options, size_t input, const std::vector<Job>& running, Job& job,
               std::string& error) {
  int pipes[kChannels][2];
  for (int i = 0; i < kChannels; ++i) {
    if (::pipe2(pipes[i], O_CLOEXEC) != 0) {
      error = strerror_text(errno);
      close_pipes(pipes, i);
      return false;
    }
  }
  // Whatever is still buffered would otherwise be written a second time by the child.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    error = strerror_text(errno);
    close_pipes(pipes, kChannels);
    return false;
  }
  if (pid == 0) {
    keep_child_descriptors(pipes, running);
    run_child(options, input, pipes[kOutcome][1]);
  }
  job.input = input;
  job.pid = pid;
  job.start = Clock::now();
  for (int i = 0; i < kChannels; ++i) {
    ::close(pipes[i][1]);
    job.fds[i] = pipes[i][0];
  }
  return true;
}

// Reads whatever the running children have written, waiting until at least one pipe has data or
// is closed.
void read_children(std::vector<Job>& running) {
  std::vector<pollfd> polled;
  std::vector<std::pair<Job*, int>> owners;
  for (Job& job : running) {
    for (int i = 0; i < kChannels; ++i) {
      if (job.fds[i] < 0) continue;
      polled.push_back({job.fds[i], POLLIN, 0});
      owners.emplace_back(&job, i);
    }
  }
  if (polled.empty()) return;
  if (::poll(polled.data(), polled.size(), -1) < 0) return;  // EINTR: the caller polls again
  char buffer[1 << 16];
  for (size_t k = 0; k < polled.size(); ++k) {
    if (polled[k].revents == 0) continue;
    auto [job, channel] = owners[k];
    ssize_t n = ::read(job->fds[channel], buffer, sizeof buffer);
    if (n > 0) {
      job->text[channel].append(buffer, static_cast<size_t>(n));
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
      ::close(job->fds[channel]);
      job->fds[channel] = -1;
    }
  }
}

// The child's exit status: true if it converted its model. A child killed by a signal (a crash
// in the pipeline) gets a diagnostic of its own, since it could not print one.
bool reap(Job& job, const std::string& path) {
  int status = 0;
  while (::waitpid(job.pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status) == 0;
  if (WIFSIGNALED(status)) {
    job.text[kErr] += fmt::format("daec: error: compiling '{}' was terminated by signal {} ({})\n",
                                  path, WTERMSIG(status), ::strsignal(WTERMSIG(status)));
  }
  return false;
}

// A child that died while writing may leave the temporary file of its OutputFiles
// (OUTPUT.tmp.XXXXXX) behind; the batch promises that no temporary remains.
void remove_temporaries(const std::string& output) {
  fs::path target(output);
  std::string prefix = target.filename().string() + ".tmp.";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(target.parent_path(), ec)) {
    std::string name = entry.path().filename().string();
    if (name.size() == prefix.size() + 6 && name.compare(0, prefix.size(), prefix) == 0) {
      fs::remove(entry.path(), ec);
    }
  }
}

// Counts and prints finished models.
class Progress {
 public:
  Progress(const Options& options, std::ostream& out, std::ostream& err)
      : options_(options), out_(out), err_(err), failed_(options.inputs.size(), false) {}

  // Reports one finished model: the progress line, then its own output and diagnostics.
  void finished(size_t input, bool ok, const std::string& index, double seconds,
                const std::string& child_out, const std::string& child_err) {
    ++done_;
    failed_[input] = !ok;
    const std::string& path = options_.inputs[input];
    out_ << "[" << done_ << "/" << options_.inputs.size() << "] ";
    if (ok) {
      out_ << path << " -> " << batch_output_path(options_.output_dir, path) << " (";
      if (!index.empty()) out_ << "index " << index << ", ";
      out_ << fmt::format("{:.2f} s)\n", seconds);
    } else {
      out_ << "FAILED " << path << "\n";
    }
    out_ << child_out << std::flush;
    err_ << child_err << std::flush;
  }

  // The last line: how many were converted, and which failed (in the order given).
  int summary(double seconds) {
    std::vector<std::string> failed;
    for (size_t i = 0; i < failed_.size(); ++i) {
      if (failed_[i]) failed.push_back(options_.inputs[i]);
    }
    size_t total = options_.inputs.size();
    out_ << "converted " << total - failed.size() << " of " << count_of(total, "model")
         << fmt::format(" in {:.2f} s", seconds);
    for (size_t i = 0; i < failed.size(); ++i) out_ << (i == 0 ? "; failed: " : ", ") << failed[i];
    out_ << "\n" << std::flush;
    return failed.empty() ? 0 : kExitModelError;
  }

 private:
  const Options& options_;
  std::ostream& out_;
  std::ostream& err_;
  std::vector<bool> failed_;
  size_t done_ = 0;
};

// Creates DIR like mkdir -p and checks that files can be created in it. A real file is created
// and removed, since access(2) answers yes to root even where nothing can be written (/proc).
bool prepare_output_dir(const std::string& dir, std::string& error) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    error = "output directory '" + dir + "' exists and is not a directory";
    return false;
  }
  fs::create_directories(dir, ec);
  if (ec) {
    error = "cannot create output directory '" + dir + "': " + ec.message();
    return false;
  }
  std::string probe = (fs::path(dir) / ".daec-probe-XXXXXX").string();
  int fd = ::mkstemp(probe.data());
  if (fd < 0) {
    error = "cannot write into output directory '" + dir + "': " + strerror_text(errno);
    return false;
  }
  ::close(fd);
  ::unlink(probe.c_str());
  return true;
}

// Starts models until N are running. A model whose process cannot be started waits for a running
// one to finish; with none running, it fails.
void start_jobs(const Options& options, size_t& next, std::vector<Job>& running,
                Progress& progress) {
  size_t limit = static_cast<size_t>(options.jobs);
  while (next < options.inputs.size() && running.size() < limit) {
    Job job;
    std::string error;
    if (start_job(options, next, running, job, error)) {
      running.push_back(std::move(job));
    } else if (!running.empty()) {
      return;
    } else {
      progress.finished(next, false, "", 0, "",
                        "daec: error: cannot start a process for '" + options.inputs[next] +
                            "': " + error + "\n");
    }
    ++next;
  }
}

// Reports and forgets the children that have finished.
void collect_finished(std::vector<Job>& running, const Options& options, Progress& progress) {
  for (auto it = running.begin(); it != running.end();) {
    if (!it->drained()) {
      ++it;
      continue;
    }
    const std::string& path = options.inputs[it->input];
    bool ok = reap(*it, path);
    std::string output = batch_output_path(options.output_dir, path);
    if (!ok) {
      remove_temporaries(output);
      for (const std::string& part : part_output_paths(output, options.split))
        remove_temporaries(part);
    }
    progress.finished(it->input, ok, it->text[kOutcome], seconds_since(it->start), it->text[kOut],
                      it->text[kErr]);
    it = running.erase(it);
  }
}

}  // namespace

std::string batch_output_path(const std::string& dir, const std::string& input) {
  return (fs::path(dir) / (fs::path(input).stem().string() + ".cpp")).string();
}

std::string check_batch_usage(const Options& options) {
  if (options.header == "-" || options.report_json == "-") {
    return std::string(options.header == "-" ? "--header" : "--report-json") +
           " - would mix its file into the progress lines of --output-dir (name a file)";
  }
  std::map<std::string, std::string> first_with_output;
  for (const std::string& input : options.inputs) {
    if (input == "-") {
      return "standard input ('-') cannot be compiled with --output-dir: it has no file name "
             "to name the output after";
    }
    if (fs::path(input).stem().empty()) {
      return "'" + input + "' has no file name to name its output after";
    }
    std::string output = batch_output_path(options.output_dir, input);
    auto [it, inserted] = first_with_output.emplace(output, input);
    if (!inserted) {
      return "'" + it->second + "' and '" + input + "' would both be written to '" + output + "'";
    }
  }
  return {};
}

int run_batch(const Options& options, std::ostream& out, std::ostream& err) {
  std::string error;
  if (!prepare_output_dir(options.output_dir, error)) {
    err << "daec: error: " << error << "\n";
    return kExitUsageError;
  }
  Clock::time_point start = Clock::now();
  Progress progress(options, out, err);
  std::vector<Job> running;
  size_t next = 0;
  while (next < options.inputs.size() || !running.empty()) {
    start_jobs(options, next, running, progress);
    read_children(running);
    collect_finished(running, options, progress);
  }
  return progress.summary(seconds_since(start));
}

}  // namespace daec
