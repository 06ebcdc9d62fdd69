//===--- Findings.h - What the analysis reports -----------------*- C++ -*-===//
//
// Typed findings: sites, variables and stream symbols, never words. A check
// turns a finding into a warning, notes and, where it is certainly right, a
// fix-it.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_IR_FINDINGS_H
#define STREAMSAFE_LIB_IR_FINDINGS_H

#include "lib/ir/IR.h"

namespace streamsafe {

enum class FindingKind {
  UnsynchronizedAccess, ///< access on X while a conflicting one on Y is pending
  MissingRecordStream,  ///< storage freed while another stream may use it
  ThreadCurrentStream,  ///< thread body relies on the spawner's stream
  UnrestoredCurrentStream, ///< setCurrentCUDAStream not undone at exit
  UnrecordedEventWait,     ///< wait on an event not recorded on every path
  HostReadBeforeSync,      ///< host touches memory a non_blocking copy uses
  GraphCapture             ///< a rule of CUDA stream capture broken
};
constexpr unsigned FindingKindCount =
    static_cast<unsigned>(FindingKind::GraphCapture) + 1;

/// Which rule of stream capture a GraphCapture finding breaks.
enum class CaptureProblem : uint8_t {
  Unjoined,      ///< a forked stream's last work is not joined back at the end
  HostSync,      ///< the host waits for a capturing stream or the device
  ForbiddenSync, ///< the host waits for another stream: the mode forbids it
  CapturedEvent, ///< the host waits for or queries an event of the capture
  Restricted,    ///< a call the capture mode forbids (cudaMalloc, a query)
  Uncaptured,    ///< work on a stream that is not part of the capture
  LegacyStream,  ///< work on the legacy default stream while capturing
  DefaultStreamCapture ///< capture begun on the legacy default stream
};

enum class AccessMode { Read, Write, Allocate, EntryReady };

/// Where a stream symbol came from.
enum class StreamKind {
  Unknown,      ///< nothing is known; never reported
  Default,      ///< the legacy default (NULL) stream
  EntryCurrent, ///< the caller's current stream at function entry
  Pool,         ///< one getStreamFromPool() call site: a fresh side stream
  Created,      ///< one cudaStreamCreate*() call site: a new stream
  Parameter,    ///< a stream passed in
  Executor,     ///< the stream bound to an executor's worker thread
  Other         ///< members, external streams, results of unknown calls
};

/// A stream as a finding names it: its kind and the variable that first
/// held it (NoVar when none did).
struct StreamDesc {
  StreamKind Kind = StreamKind::Unknown;
  VarId Named = NoVar;
  /// For EntryCurrent: the device (a constant index) whose current stream
  /// it is; -1: the device current at entry. For a pool stream: its device,
  /// when a constant said so.
  int8_t Device = -1;
};

/// One end of a race: an access, its stream and where that stream was chosen.
struct AccessInfo {
  AccessMode Mode = AccessMode::Read;
  SiteId Site = NoSite;
  StreamDesc Stream;
  SiteId StreamSetAt = NoSite; ///< guard / setCurrentCUDAStream / restore
  bool OnCurrentStream = false;
};

struct Finding {
  FindingKind Kind = FindingKind::UnsynchronizedAccess;
  /// The tensor as written at the access (NoVar: a temporary), or the event
  /// (UnrecordedEventWait).
  VarId Tensor = NoVar;
  /// The variable that owns the storage (for notes; differs from Tensor
  /// for a view or an alias).
  VarId Storage = NoVar;
  /// UnsynchronizedAccess: the racing access and the earlier one it races
  /// with. MissingRecordStream: Access is the last use on the other stream,
  /// Prior is the allocation.
  AccessInfo Access;
  AccessInfo Prior;
  /// MissingRecordStream: where the last reference dies.
  SiteId FreedAt = NoSite;
  /// ThreadCurrentStream: the spawn point. UnrecordedEventWait: the event's
  /// declaration. UnrestoredCurrentStream: the path's exit.
  SiteId Related = NoSite;
  /// UnrecordedEventWait: recorded on some paths (then Prior is a record).
  bool Maybe = false;
  /// ThreadCurrentStream: the body calls getCurrentCUDAStream() (rather
  /// than doing work on it).
  bool Query = false;
  /// When the access is in a helper run in place: the call, in the analysed
  /// function, through which it was reached.
  SiteId CallSite = NoSite;
  /// MissingRecordStream: the tensor is used on no other foreign stream,
  /// so "Storage.record_stream(<the use's stream variable>)" after the use
  /// is the fix, if the check finds both names in scope there.
  bool SingleOtherStream = false;
  /// GraphCapture: the rule broken, where the capture began (Prior.Stream
  /// is the capturing stream) and its mode. Unjoined: Access is the end of
  /// the capture and the forked stream, Prior.Site the fork (the wait that
  /// made it part of the capture), Related its last work.
  CaptureProblem Capture = CaptureProblem::Unjoined;
  SiteId CaptureBegin = NoSite;
  CaptureMode Mode = CaptureMode::Global;
};

} // namespace streamsafe

#endif // STREAMSAFE_LIB_IR_FINDINGS_H
