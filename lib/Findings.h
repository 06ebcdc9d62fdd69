//===--- Findings.h - What the analysis reports ------------------*- C++
//-*-===//
//
// Typed findings: the analysis never formats a diagnostic. A check turns a
// finding into a warning, notes and, where it is certainly right, a fix-it.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FINDINGS_H
#define STREAMSAFE_LIB_FINDINGS_H

#include "lib/Sites.h"
#include <string>
#include <vector>

namespace clang {
class VarDecl;
class Stmt;
} // namespace clang

namespace streamsafe {

enum class FindingKind {
  UnsynchronizedAccess, ///< access on X while a conflicting one on Y is pending
  MissingRecordStream,  ///< storage freed while another stream may use it
  ThreadCurrentStream,  ///< thread body relies on the spawner's stream
  UnrestoredCurrentStream, ///< setCurrentCUDAStream not undone at exit
  UnrecordedEventWait,     ///< wait on an event not recorded on every path
  HostReadBeforeSync       ///< host touches memory a non_blocking copy uses
};

enum class AccessMode { Read, Write, Allocate, EntryReady };

/// One end of a race: an access, its stream and where that stream was chosen.
struct AccessInfo {
  AccessMode Mode = AccessMode::Read;
  SiteId Site = NoSite;
  std::string Stream;          ///< "pool stream 's'", "the default stream"
  SiteId StreamSetAt = NoSite; ///< guard / setCurrentCUDAStream / restore
  bool OnCurrentStream = false;
};

struct Finding {
  FindingKind Kind = FindingKind::UnsynchronizedAccess;
  std::string Tensor;  ///< the tensor's name as written at the access
  std::string Storage; ///< the variable that owns the storage (for notes)
  /// UnsynchronizedAccess: the racing access and the earlier one it races
  /// with. MissingRecordStream: Access is the last use on the other stream,
  /// Prior is the allocation.
  AccessInfo Access;
  AccessInfo Prior;
  SiteId FreedAt =
      NoSite; ///< MissingRecordStream: where the last reference dies
  /// ThreadCurrentStream: the spawn point. UnrecordedEventWait: the event's
  /// declaration. UnrestoredCurrentStream: the function's end.
  SiteId Related = NoSite;
  /// UnrecordedEventWait: recorded on some paths (then Prior is a record).
  bool Maybe = false;
  /// ThreadCurrentStream: the body calls getCurrentCUDAStream() (rather
  /// than doing work on it).
  bool Query = false;
  /// MissingRecordStream fix-it: insert "<Tensor>.record_stream(<StreamVar>);"
  /// after InsertAfter, when both names are in scope there.
  const clang::Stmt *InsertAfter = nullptr;
  std::string StreamVar;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FINDINGS_H
