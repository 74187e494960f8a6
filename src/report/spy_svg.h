// A spy plot of a sparsity pattern as a self-contained SVG picture (MATLAB's spy): one square per
// nonzero, rows and columns labelled, diagonal blocks outlined. The Markdown report links to it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "structure/sparsity.h"

namespace daec {

/// The SVG document (UTF-8, no external resources). Row i is labelled `row_labels[i]`, column j
/// `col_labels[j]` (missing labels are left blank). `block_starts` gives the first position of
/// each diagonal block, optionally followed by the end position, as BlockTriangularForm's
/// block_start does; block b covers rows and columns block_starts[b] up to the next start (the
/// last block up to the last row and column) and is outlined. Empty: no outlines.
///
/// Every nonzero is one `<rect class="nz" ...>` element, with a `<title>` naming its row and
/// column for viewers that show tooltips; block outlines are `<rect class="block" ...>`. The
/// same arguments always give the same bytes.
std::string spy_svg(const SparsityPattern& pattern, const std::vector<std::string>& row_labels,
                    const std::vector<std::string>& col_labels,
                    const std::vector<int>& block_starts);

/// `text` escaped for XML character data and double-quoted attribute values: & < > " become
/// entities (an apostrophe, as in rod'', needs none), and
/// characters XML 1.0 does not allow (most control characters) become U+FFFD.
std::string xml_escape(std::string_view text);

}  // namespace daec
