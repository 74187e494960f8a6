// The human-readable report of a reduction (`daec MODEL --report FILE.md`, docs/command-line.md):
// what each unknown is, every round of the reduction loop with its dependency table (docs/method.md
// §5), the final index-1 system, the structure of A with its block lower-triangular form, the index
// and the hidden constraints, in GitHub-flavoured Markdown.
#pragma once

#include <string>

#include "model/model.h"
#include "reduction/reduce.h"
#include "report/markdown.h"

namespace daec {

/// The report. `spy_svg_file_name` is where the caller writes final_spy_svg(system), as the
/// report should link to it (relative to the report); empty: no picture.
std::string markdown_report(const Model& model, const ReducedSystem& system,
                            const std::string& spy_svg_file_name);

/// The picture the report links to: the sparsity pattern of A in block lower-triangular order,
/// rows labelled by constraint, columns by unknown, the diagonal blocks outlined.
std::string final_spy_svg(const ReducedSystem& system);

}  // namespace daec
