//===--- Sites.h - Program points the analysis talks about ------*- C++ -*-===//
//
// A site is a place in the source that a finding can point at: an access, a
// guard, a record, a parameter. Sites are numbered per function in lowering
// order, so the analysis state stores small integers, not AST pointers.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_SITES_H
#define STREAMSAFE_LIB_SITES_H

#include "clang/Basic/SourceLocation.h"
#include <vector>

namespace clang {
class Stmt;
class Decl;
} // namespace clang

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
  ThreadStart,   ///< a callable starts on another thread
  Other
};

struct Site {
  SiteKind Kind = SiteKind::None;
  clang::SourceLocation Loc;
  const clang::Stmt *S = nullptr; ///< the statement, when the site is one
  const clang::Decl *D = nullptr; ///< the declaration, when the site is one
};

class SiteTable {
public:
  SiteTable() : Sites(1) {}
  SiteId add(SiteKind K, clang::SourceLocation L, const clang::Stmt *S,
             const clang::Decl *D = nullptr) {
    Sites.push_back({K, L, S, D});
    return static_cast<SiteId>(Sites.size() - 1);
  }
  const Site &operator[](SiteId Id) const { return Sites[Id]; }
  size_t size() const { return Sites.size(); }

private:
  std::vector<Site> Sites;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_SITES_H
