// The mutation test (docs/limits.md: no input, however malformed, crashes daec or makes it
// hang): a few hundred deterministic mutants of the bundled models (tests/robustness/mutator.h), each
// compiled by the daec command in a scratch directory of its own, two at a time. Each must end
// with status 0 and a non-empty out.cpp, or status 1 with an error diagnostic and no out.cpp —
// never a signal, a sanitizer report or the time limit — and leave no other file behind.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "command_fixture.h"
#include "e2e_util.h"
#include "mutator.h"

namespace daec::test {
namespace {

namespace fs = std::filesystem;

constexpr uint32_t kSeed = 20240601;
constexpr int kMutantsPerModel = 28;
constexpr int kTimeLimitSeconds = 60;  // per mutant; generous for the sanitizer Debug build
// In the sanitizer build the leak check at exit takes most of a run's time (0.5 of 0.75 s): it
// runs for every fourth mutant only (ASAN_OPTIONS is ignored by the other builds).
constexpr size_t kLeakCheckEvery = 4;
#ifdef DAEC_SANITIZE_GENERATED
// The sanitizer build runs every fifth mutant (five is prime to the three kinds of mutant, of one,
// two and three mutations, so each kind is taken alike): a sanitized daec takes ten times as long,
// and the Release pass runs them all.
constexpr size_t kMutantStride = 5;
#else
constexpr size_t kMutantStride = 1;
#endif

struct Mutant {
  std::string model, kind, text;
};

// Mutant i of a model applies 1 + i % 3 mutations in a row.
std::vector<Mutant> make_mutants() {
  Mutator mutator(kSeed);
  std::vector<Mutant> mutants;
  size_t made = 0;
  for (const std::string& model : bundled_model_files()) {
    std::string original = read_source_file("models/" + model);
    for (int i = 0; i < kMutantsPerModel; ++i) {
      Mutant mutant{model, "", original};
      for (int step = 0; step <= i % 3; ++step) {
        std::string kind;
        mutant.text = mutator.mutate(mutant.text, kind);
        mutant.kind += (step ? ", " : "") + kind;
      }
      if (++made % kMutantStride == 0) mutants.push_back(std::move(mutant));
    }
  }
  return mutants;
}

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

bool reports_error(const std::string& err) {
  static const std::regex error_line(
      "(^|\n)(mutant\\.dae:[0-9]+:[0-9]+: error: |mutant\\.dae: error: |daec: error: )");
  return std::regex_search(err, error_line);
}

// What is wrong with how daec ended on a mutant in `dir`; empty if nothing.
std::string check_outcome(const CommandResult& result, const std::string& dir) {
  std::vector<std::string> files = files_in(dir);
  if (result.status == 124) return "daec took longer than the time limit";
  if (result.status != 0 && result.status != 1)
    return "exit status " + std::to_string(result.status);
  if (result.err.find("Sanitizer") != std::string::npos ||
      result.err.find("runtime error:") != std::string::npos)
    return "a sanitizer report";
  if (result.status == 1) {
    if (!reports_error(result.err)) return "status 1 without an error diagnostic";
    if (files != std::vector<std::string>{"mutant.dae"}) return "files left after a failure";
    return "";
  }
  if (files != std::vector<std::string>{"mutant.dae", "out.cpp"}) return "unexpected files";
  if (read_file(dir + "/out.cpp").empty()) return "out.cpp is empty";
  return "";
}

// The text with control and non-ASCII bytes escaped, for a failure message.
std::string escaped(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '\n' || (c >= 32 && c < 127)) {
      out += static_cast<char>(c);
    } else {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02x", c);
      out += buffer;
    }
  }
  return out;
}

struct Result {
  int status = -1;
  std::string problem;
};

// Runs daec on mutant `index` in its scratch directory, kept only if something is wrong.
Result run_mutant(const Mutant& mutant, size_t index) {
  std::string dir = make_scratch_dir("mutation/" + std::to_string(index));
  write_file(dir + "/mutant.dae", mutant.text);
  std::string leaks = index % kLeakCheckEvery == 0 ? "" : ":detect_leaks=0";
  CommandResult result = run_command("cd " + shell_quote(dir) +
                                     " && LSAN_OPTIONS=\"$LSAN_OPTIONS:print_suppressions=0\" " +
                                     "ASAN_OPTIONS=\"$ASAN_OPTIONS" + leaks + "\" timeout -k 5 " +
                                     std::to_string(kTimeLimitSeconds) + " " +
                                     shell_quote(daec_binary()) + " mutant.dae -o out.cpp");
  std::string problem = check_outcome(result, dir);
  if (problem.empty()) {
    fs::remove_all(dir);
    return {result.status, ""};
  }
  return {result.status, "mutant " + std::to_string(index) + " of " + mutant.model + " (" +
                             mutant.kind + "): " + problem + "\nkept in " + dir +
                             "/mutant.dae\nstderr:\n" + result.err.substr(0, 2000) + "\nmutant:\n" +
                             escaped(mutant.text)};
}

TEST(Mutation, MutantsOfBundledModelsEndCleanly) {
  std::vector<Mutant> mutants = make_mutants();
  std::vector<Result> results(mutants.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < mutants.size(); i = next++) results[i] = run_mutant(mutants[i], i);
  };
  auto start = std::chrono::steady_clock::now();
  std::thread other(worker);
  worker();
  other.join();
  std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;

  size_t passed[2] = {0, 0};
  for (const Result& result : results) {
    EXPECT_EQ("", result.problem);
    if (result.problem.empty()) ++passed[result.status];
  }
  std::cout << "mutation: " << mutants.size() << " mutants, " << passed[0] << " exit 0, "
            << passed[1] << " exit 1, in " << elapsed.count() << " s\n";
  EXPECT_GE(mutants.size(), 300u / kMutantStride);
}

}  // namespace
}  // namespace daec::test
