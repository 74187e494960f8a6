// Deterministic mutations of model text for the mutation test (tests/robustness/mutation_test.cpp): byte,
// line and token edits, swapped identifiers, extreme numbers, changed operators (relations and
// brackets too), truncation, stray keywords, primes, der(, indices, loops, conditions and array
// values, NUL and invalid UTF-8. The same seed gives the same mutants
// with every standard library (no std::uniform_int_distribution, whose mapping is unspecified).
#pragma once

#include <cstdint>
#include <random>
#include <string>

namespace daec::test {

class Mutator {
 public:
  explicit Mutator(uint32_t seed) : rng_(seed) {}

  /// One mutant of `text`; `kind` receives a short name of the mutation applied.
  std::string mutate(const std::string& text, std::string& kind);

 private:
  /// A number in [0, n) (0 when n is 0), by modulo: portable, and the bias does not matter here.
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(rng_() % n); }

  std::mt19937 rng_;
};

}  // namespace daec::test
