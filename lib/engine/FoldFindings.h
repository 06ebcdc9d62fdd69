//===--- FoldFindings.h - One finding per site and cause -------*- C++ -*-===//
//
// The solver reports a finding on every path and at every replay that
// meets it; the user sees one per (kind, site, cause), in site order.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_ENGINE_FOLDFINDINGS_H
#define STREAMSAFE_LIB_ENGINE_FOLDFINDINGS_H

#include "lib/ir/Findings.h"
#include "lib/ir/IR.h"
#include <vector>

namespace streamsafe {

/// Sorted by site order, one finding per (kind, site, cause); one per
/// tensor, cause and line; one thread-current-stream finding per spawn; one
/// graph-capture finding per rule and line; one host write per
/// non_blocking copy it races with.
std::vector<Finding> sortAndFold(const Function &IR,
                                 std::vector<Finding> Findings);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_ENGINE_FOLDFINDINGS_H
