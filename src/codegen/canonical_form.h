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
//
// A key is the text of its operands' keys: as long as the expression written out, which an
// expression whose outputs use earlier ones can make thousands of times longer than its graph
// (10,000 outputs each the sine of the last: keys of 60,000 characters each; o2 = o1*(o1 + 1),
// o3 = o2*(o2 + 1), ...: twice as long with every output). A key longer than kMaxKeyText is
// therefore kept as its pieces (literal text and the forms of operands, a rope) and named by a
// digest of its text (two 61-bit polynomial hashes and the length, computed from the operands'
// digests, so that equal texts give equal digests however they were formed). Keys are ordered
// by their text all the same (compare walks the ropes, passing over an operand both share), so
// that the generated code is the one the whole texts would give.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <ginac/ginac.h>

namespace daec {

class CanonicalForms {
 public:
  /// Keys longer than this are digests of their text.
  static constexpr size_t kMaxKeyText = 8192;

  /// A text's digest (see the header): its hashes, its length (saturating) and its length
  /// modulo the hashes' prime less one (what powers of a base repeat with).
  struct Digest {
    uint64_t first = 0, second = 0;
    size_t length = 0;
    uint64_t cycle = 0;
  };

  struct Form;
  /// A piece of a long key: literal text, or the key of an operand's form.
  struct Piece {
    std::string text;
    const Form* operand = nullptr;
  };

  struct Form {
    /// The positive orientation, as text from names and numbers: the whole text, or for a text
    /// longer than kMaxKeyText a name for it made of its digest (see the header).
    std::string key;
    bool negative = false;      ///< e is minus that orientation
    Digest digest;              ///< of a long key's whole text (see the header)
    std::vector<Piece> pieces;  ///< a long key's text, piece by piece; empty for a short one
  };

  /// The order of the keys' whole texts (<0, 0, >0), as std::string's.
  static int compare(const Form& a, const Form& b);

  /// The form of `e` (memoized; the reference stays valid while this object lives).
  const Form& of(const GiNaC::ex& e);

  /// Whether f(-x) = -f(x) (in the first argument) or f(-x) = f(x), for the model's functions.
  static bool is_odd(const std::string& function);
  static bool is_even(const std::string& function);

 private:
  Form compute(const GiNaC::ex& e);

  // By node (its address), each with the expression that holds the node, so that an operand
  // built on the fly keeps its address: hashed rather than ordered (a large model's functions
  // hold hundreds of thousands of subexpressions), and by address rather than by value (equal
  // copies compare equal only by walking them to the bottom: 10,000 outputs each the sine of the
  // last made every lookup walk its chain).
  std::unordered_map<const GiNaC::basic*, std::pair<GiNaC::ex, Form>> forms_;
};

}  // namespace daec
