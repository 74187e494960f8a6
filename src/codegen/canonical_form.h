// A sign-canonical view of GiNaC expressions, so that generated code does not depend on the run.
//
// GiNaC orders operands by hash values that change from run to run (they mix in the address of a
// type_info object and a global symbol counter), and where a product holds sums it is that order
// which decides which sum carries a minus sign: the same model can come out as (x1 - x2)*(u2 - u1)
// in one run and -(x1 - x2)*(u1 - u2) in another. This view gives every expression a key built
// from names and numbers only, for its *positive orientation*, plus the sign relative to it:
// a sum is positive when its first term in key order (numbers last) is; the sign of a product is
// the product of its factors' signs; odd functions (sin, tan, ...) pass the sign of their argument
// out and even ones (cos, cosh, abs) drop it. e and -e get the same key and opposite signs.
#pragma once

#include <string>
#include <unordered_map>

#include <ginac/ginac.h>

namespace daec {

class CanonicalForms {
 public:
  struct Form {
    std::string key;        ///< the positive orientation, as text from names and numbers
    bool negative = false;  ///< e is minus that orientation
  };

  /// The form of `e` (memoized; the reference stays valid while this object lives).
  const Form& of(const GiNaC::ex& e);

  /// Whether f(-x) = -f(x) (in the first argument) or f(-x) = f(x), for the model's functions.
  static bool is_odd(const std::string& function);
  static bool is_even(const std::string& function);

 private:
  Form compute(const GiNaC::ex& e);
  std::string signed_key(const GiNaC::ex& e);

  struct Hash {
    size_t operator()(const GiNaC::ex& e) const { return e.gethash(); }
  };
  struct Equal {
    bool operator()(const GiNaC::ex& a, const GiNaC::ex& b) const { return a.is_equal(b); }
  };
  // Hashed rather than ordered: a large model's functions hold hundreds of thousands of
  // subexpressions, and an ordered map compares each lookup's way down the tree.
  std::unordered_map<GiNaC::ex, Form, Hash, Equal> forms_;
};

}  // namespace daec
