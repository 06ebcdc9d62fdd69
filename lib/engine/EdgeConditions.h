//===--- EdgeConditions.h - What taking a branch edge tells ----*- C++ -*-===//
//
// The solver's side of path conditions (docs/design.md, "Correlated
// branches", "Tests the state decides"): an edge's condition is remembered
// in the state (a never-changing value's outcome, up to MaxAssumptions of
// them) or read from it (a stream or event against None, two streams
// compared); an edge the state contradicts is not taken from it.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_ENGINE_EDGECONDITIONS_H
#define STREAMSAFE_LIB_ENGINE_EDGECONDITIONS_H

#include "lib/engine/StreamState.h"
#include "lib/ir/IR.h"

namespace streamsafe {

class Transfer;

/// Variables whose branch outcomes a state remembers.
constexpr unsigned MaxAssumptions = 5;
/// Tests of a loop counter that hold for one iteration, remembered past
/// MaxAssumptions (Assumption::PerIteration).
constexpr unsigned MaxPerIteration = 2;

/// The condition of the edge from \p P to \p To, if one edge leads there.
EdgeCondition edgeCondition(const Block &P, unsigned To);
/// Whether a test the state decides (Assumption::Test, not Remembered)
/// may hold in \p S.
bool stateAllows(const StreamState &S, const Assumption &C, Transfer &T);
/// Adds what \p C (one assumption of the edge condition \p Edge) says to
/// \p S; false when \p S contradicts it. \p BoundHits counts outcomes not
/// remembered past MaxAssumptions.
bool assume(StreamState &S, Assumption C, Transfer &T,
            const EdgeCondition &Edge, unsigned &BoundHits);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_ENGINE_EDGECONDITIONS_H
