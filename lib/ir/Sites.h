//===--- Sites.h - Program points the analysis talks about ------*- C++ -*-===//
//
// A site is a place in the source that a finding can point at: an access, a
// guard, a record, a parameter. Sites are numbered per function in lowering
// order, so the analysis state stores small integers. A site's location is
// the front end's own: the solver only orders sites and prints their lines.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_IR_SITES_H
#define STREAMSAFE_LIB_IR_SITES_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace streamsafe {

using SiteId = unsigned;
constexpr SiteId NoSite = 0;

/// What happened at a site, so a note can say it in words.
enum class SiteKind {
  None,
  FunctionEntry, ///< the caller's current stream at entry
  ParamReady,    ///< a tensor parameter assumed ready at entry
  GuardEnter,    ///< a stream guard set the current stream
  GuardExit,     ///< a stream guard restored the current stream
  SetCurrent,    ///< setCurrentCUDAStream
  Access,        ///< a tensor access enqueued on a stream
  Allocation,    ///< a tensor allocated on a stream
  EventDecl,     ///< an event declared
  EventRecord,   ///< an event recorded
  EventWait,     ///< a stream waited on an event
  LifetimeEnd,   ///< the last reference to a tensor dies
  StorageFree,   ///< a tensor's memory is freed while it is still named
  ThreadStart,   ///< a callable starts on another thread
  FunctionExit,  ///< a path leaves the function (a return, the body's end)
  CaptureBegin,  ///< a stream begins capturing into a CUDA graph
  CaptureEnd,    ///< the capture ends
  StreamProven,  ///< where a member's fresh stream is created, or where a
                 ///< function uses a stream parameter as a side stream
  Other
};

/// Where a site is, in the front end's terms. The solver reads only Order
/// (sites in one function compare in source order) and Line (debug dumps,
/// one finding per line); Loc, Node and Decl are the front end's handles
/// (for Clang: a raw SourceLocation, a Stmt and a Decl).
struct Site {
  SiteKind Kind = SiteKind::None;
  uint64_t Order = 0;
  unsigned Line = 0;
  uint64_t Loc = 0;
  const void *Node = nullptr;
  const void *Decl = nullptr;
  /// Whose code the site is in: 0 for the analysed function (and its
  /// lambdas), another number for each helper it runs in place.
  unsigned Scope = 0;
};

class SiteTable {
public:
  SiteTable() : Sites(1) {}
  SiteId add(const Site &S) {
    Sites.push_back(S);
    return static_cast<SiteId>(Sites.size() - 1);
  }
  const Site &operator[](SiteId Id) const { return Sites[Id]; }
  std::size_t size() const { return Sites.size(); }

private:
  std::vector<Site> Sites;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_IR_SITES_H
