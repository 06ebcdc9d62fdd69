//===--- Solver.h - The dataflow over a function's fact IR ------*- C++ -*-===//
//
// A forward dataflow over the blocks of an ir::Function. Blocks are visited
// in reverse post-order until the states converge, within a budget; then one
// more pass over the converged states asks the Diagnoser about each fact, so
// each finding is reported once, from the fixpoint. Knows nothing of any
// front end.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_ENGINE_SOLVER_H
#define STREAMSAFE_LIB_ENGINE_SOLVER_H

#include "lib/ir/Findings.h"
#include "lib/ir/IR.h"
#include <cstdint>
#include <tuple>
#include <vector>

namespace streamsafe {

struct SolverLimits {
  /// Visits per block before the solver gives up on a function.
  unsigned VisitsPerBlock = 64;
  /// State entries (tensors, variables, facts) the solver may touch in all
  /// (joins and sweeps touch only what changed): bounds a function's cost,
  /// about 6 per statement in long functions.
  uint64_t MaxStateWork = 2000000;
  /// Print each fact and the state after it to stderr.
  bool Dump = false;
};

/// A write left in flight in a field (Function::Fields) on a path out of
/// the function: what the next method of the object starts from.
struct LeftWrite {
  VarId Field = NoVar;
  SiteId Site = NoSite;
  SiteId Exit = NoSite;
  /// As CarriedWrite: NoVar and !OnOther, the caller's current stream; a
  /// persistent stream variable (a field stream); OnOther, another stream
  /// of this function's.
  VarId Stream = NoVar;
  bool OnOther = false;
  bool Allocation = false;
  bool VisibleToEntry = false;
  /// Only where the block was allocated: no work in flight.
  bool Complete = false;
  /// A read, not a write, still in flight (a reduction, an async copy out
  /// of the field).
  bool Read = false;
  bool operator<(const LeftWrite &O) const {
    return std::tie(Field, Site, Stream, OnOther, Allocation, Complete, Read) <
           std::tie(O.Field, O.Site, O.Stream, O.OnOther, O.Allocation,
                    O.Complete, O.Read);
  }
};

struct SolverResult {
  enum Status { Analysed, BudgetExceeded };
  Status State = Analysed;
  /// Sorted by site order, one per (kind, tensor, cause, line).
  std::vector<Finding> Findings;
  unsigned BlockVisits = 0;
  unsigned NestedVisits = 0; ///< visits spent in callable bodies
  uint64_t StateWork = 0;    ///< see SolverLimits::MaxStateWork
  /// Times the bounds on paths kept apart were hit: states joined past
  /// MaxPartitions, or a branch outcome not remembered past
  /// MaxAssumptions (a race on one of those paths may be missed there).
  unsigned PathBoundHits = 0;
  /// Per field of Function::Fields, the writes a normal path out leaves
  /// in flight (sorted, one per field, site and stream).
  std::vector<LeftWrite> FieldsLeft;
};

/// Solves \p IR and returns its findings.
SolverResult solve(const Function &IR, const SolverLimits &Limits);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_ENGINE_SOLVER_H
