//===--- BuildMemo.h - Answers computed once per analysed scope -*- C++ -*-===//
//
// What the Python builder's units compute once per analysed scope and then
// look up: the region a name stands for (Regions.cpp), whether the scope
// names a device other than cuda:0 (Placement.cpp), whether a def sets a
// stream for the rest of the program (ProcessStreams.cpp), the variable of
// each process group's internal stream (Collectives.cpp), which stream
// locals are side locals (SideParameters.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_BUILDMEMO_H
#define STREAMSAFE_LIB_PYTHON_BUILDMEMO_H

#include "lib/ir/IR.h"
#include "llvm/ADT/StringMap.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace streamsafe::py {

struct Scope;

struct BuildMemo {
  /// The region each name of a scope stands for (Region::some() while it
  /// is computed: a name bound to itself).
  std::map<std::pair<const Scope *, std::string>, Region> NameRegions;
  /// Whether the analysed scope names a device other than cuda:0.
  std::optional<bool> MultiDevice;
  /// Whether a def (by node) sets the stream as written for the process.
  mutable std::map<std::pair<const void *, std::string>, bool> ProcessSets;
  /// Process groups as written, each standing for its internal stream.
  std::map<std::string, VarId> Groups;
  /// Stream locals asked whether they are side locals (SideParameters.cpp),
  /// with the answer.
  std::map<VarId, bool> SideLocals;
  /// The symbols of the names a region's bound may be (Regions.cpp): 0,
  /// a name that may change while the def runs.
  std::map<std::string, uint32_t> RegionSymbols;
  /// What each def (by node) uses its names as (ClassesByUse.h), asked by
  /// calls that hand it the caller's data (HelperArguments.cpp).
  std::map<const void *, llvm::StringMap<VarClass>> DefsByUse;
  /// The names whose reaching region is being computed (Regions.cpp).
  std::set<std::pair<const Scope *, std::string>> ReachingNow;
};

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_BUILDMEMO_H
