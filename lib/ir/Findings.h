//===--- Findings.h - What the analysis reports -----------------*- C++ -*-===//
//
// Typed findings: sites, variables and stream symbols, never words. Each
// kind of finding has its own struct, whose fields are named for what they
// are at that kind (the allocation, the wait, the exit), so a reader cannot
// take one kind's site for another's. A check turns a finding into a
// warning, notes and, where it is certainly right, a fix-it.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_IR_FINDINGS_H
#define STREAMSAFE_LIB_IR_FINDINGS_H

#include "lib/ir/IR.h"
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace streamsafe {

/// Fill: a write by code the analysis does not read, handed a part of a
/// block nothing has written since its allocation without values (it does
/// not read memory nobody wrote).
enum class AccessMode { Read, Write, Allocate, EntryReady, Fill };

/// Where a stream symbol came from.
enum class StreamKind {
  Unknown,       ///< nothing is known; never reported
  Default,       ///< the legacy default (NULL) stream
  EntryCurrent,  ///< the caller's current stream at function entry
  Pool,          ///< one getStreamFromPool() call site: a fresh side stream
  Created,       ///< one cudaStreamCreate*() call site: a new stream
  Parameter,     ///< a stream passed in
  Executor,      ///< the stream bound to an executor's worker thread
  Member,        ///< a C++ member only ever given fresh streams
  Attribute,     ///< a Python attribute (`self.x`) likewise
  Global,        ///< a global or static only ever given a fresh stream
  SideParameter, ///< a parameter the function uses as a side stream
  SideLocal,     ///< a local given a stream by unread code, used likewise
  Collective,    ///< a process group's internal (NCCL) stream
  Other          ///< members, external streams, results of unknown calls
};

/// A member, attribute or global that only ever holds fresh streams.
inline bool isHeldFresh(StreamKind K) {
  return K == StreamKind::Member || K == StreamKind::Attribute ||
         K == StreamKind::Global;
}

/// A parameter or local the function itself uses as a side stream.
inline bool isSideStream(StreamKind K) {
  return K == StreamKind::SideParameter || K == StreamKind::SideLocal;
}

/// A stream as a finding names it: its kind and the variable that first
/// held it (NoVar when none did).
struct StreamDesc {
  StreamKind Kind = StreamKind::Unknown;
  VarId Named = NoVar;
  /// For EntryCurrent: the device (a constant index) whose current stream
  /// it is; -1: the device current at entry. For a pool stream: its device,
  /// when a constant said so.
  int8_t Device = -1;
  /// For Member, Attribute, Global and SideParameter: the site that says
  /// why it is another stream (Variable::ProvenAt).
  SiteId ProvenAt = NoSite;
};

/// An access, its stream and where that stream was chosen.
struct AccessInfo {
  AccessMode Mode = AccessMode::Read;
  SiteId Site = NoSite;
  StreamDesc Stream;
  SiteId StreamSetAt = NoSite; ///< guard / setCurrentCUDAStream / restore
  bool OnCurrentStream = false;
  /// An access a CUDA graph recorded while capturing, made at Site by its
  /// replay: where it was captured, and the graph (NoSite/NoVar: none).
  SiteId CapturedAt = NoSite;
  VarId Graph = NoVar;
  /// Made in a helper run in place: the analysed function's call that ran
  /// it (NoSite: the function's own code).
  SiteId Via = NoSite;
};

/// Where a stream argument comes from, as far as the function shows (for
/// work on a default stream).
enum class StreamOrigin {
  Unknown,       ///< parameter, member, pool stream, unknown call: not judged
  Current,       ///< c10::cuda::getCurrentCUDAStream()
  Omitted,       ///< not written: the parameter's default, the null stream
  Null,          ///< 0, nullptr, NULL
  Legacy,        ///< cudaStreamLegacy
  PerThread,     ///< cudaStreamPerThread
  DefaultGetter, ///< c10::cuda::getDefaultCUDAStream()
  /// A variable of namespace scope initialised with the current stream:
  /// the default stream, current while the library was loaded
  /// (LoadTimeStreams.h).
  LoadTime,
};

/// What work on a default stream is.
enum class WorkKind {
  KernelLaunch, ///< kernel<<<grid, block[, smem[, stream]]>>>(...)
  StreamApi,    ///< a runtime call that takes a stream (cudaMemcpyAsync, ...)
  SyncCopy,     ///< cudaMemcpy and friends: legacy stream, blocks the host
  SyncSet,      ///< cudaMemset and friends: legacy stream
};

/// The CUDA policy a thrust algorithm was given, when it has no stream.
enum class ThrustPolicy {
  None,            ///< not a thrust policy without a stream (see OnStream)
  Device,          ///< thrust::device
  Par,             ///< thrust::cuda::par (also with an allocator)
  ParNosync,       ///< thrust::cuda::par_nosync
  DeviceIterators, ///< no policy; an iterator lives on the device
};

namespace finding {

/// An access on one stream while a conflicting access on a known-distinct
/// stream is not ordered before it.
struct UnsynchronizedAccess {
  /// The tensor as written at the access (NoVar: a temporary).
  VarId Tensor = NoVar;
  /// The variable that owns the storage (differs from Tensor for a view or
  /// an alias).
  VarId Storage = NoVar;
  AccessInfo Access; ///< the racing access
  /// The pending access it races with; EntryReady: a parameter only known
  /// to be ready on the caller's stream at entry.
  AccessInfo Prior;
  /// A wait of the access's stream for itself (`s.wait_stream(
  /// current_stream())` while s is current): what the code meant as the
  /// ordering, which orders nothing.
  SiteId SelfWait = NoSite;
  /// A wait of the access's stream for the default stream, where the
  /// earlier access was the caller's: what the code meant as the ordering.
  SiteId DefaultWait = NoSite;
  /// The two streams are side streams the function orders one against
  /// the other here, which is why they are taken to differ.
  SiteId ApartAt = NoSite;
  /// Prior is left in flight when the function returns (Access.Site) to a
  /// caller that cannot wait for its stream; Access is the caller's next
  /// use, on its current stream.
  bool LeftForCaller = false;
  SiteId site() const { return LeftForCaller ? Prior.Site : Access.Site; }
};

/// A storage's last reference dies while a stream other than its
/// allocation stream may still use it, unknown to the caching allocator.
struct MissingRecordStream {
  VarId Tensor = NoVar;      ///< the variable that owns the storage
  AccessInfo LastForeignUse; ///< the last use on the other stream
  AccessInfo Allocation;     ///< Mode is Allocate
  SiteId FreedAt = NoSite;   ///< where the last reference dies
  /// The tensor is used on no other foreign stream, so
  /// "Tensor.record_stream(<the use's stream variable>)" after the use is
  /// the fix, if the check finds both names in scope there.
  bool SingleOtherStream = false;
  /// Handed back to the caller here (LastForeignUse is the return, on the
  /// caller's current stream), not freed in the function.
  bool HandedBack = false;
  /// With HandedBack: kept in a field of the method's object (LastForeignUse
  /// is where the method stored it), not returned.
  bool KeptByObject = false;
  /// The caller's tensor, taken to be allocated on its current stream
  /// where it is ready (TensorState::AllocAssumed).
  bool AllocationAssumed = false;
  SiteId site() const { return LastForeignUse.Site; }
};

/// Work or a current-stream query in a thread body that still runs on the
/// default stream it started on, while its spawner had set a stream.
struct ThreadCurrentStream {
  SiteId Work = NoSite; ///< the work, or the getCurrentCUDAStream() call
  bool Query = false;   ///< Work asks for the current stream
  SiteId ThreadStart = NoSite;
  StreamDesc SpawnerStream;     ///< the spawner's current stream
  SiteId SpawnerSetAt = NoSite; ///< where the spawner set it
  SiteId site() const { return Work; }
};

/// A setCurrentCUDAStream still in effect on a path out of the function.
struct UnrestoredCurrentStream {
  SiteId SetAt = NoSite;
  SiteId Exit = NoSite; ///< the path's exit
  /// Where the default stream was set in its place, as if that were the
  /// caller's stream (NoSite: nothing was set back).
  SiteId DefaultAt = NoSite;
  SiteId site() const { return SetAt; }
};

/// A wait on an event not recorded on every path to it.
struct UnrecordedEventWait {
  VarId Event = NoVar;
  SiteId Wait = NoSite;
  SiteId Declared = NoSite; ///< the event's declaration
  /// Recorded on some paths (else never): the last record there, NoSite
  /// when not known.
  bool RecordedOnSomePaths = false;
  SiteId SomePathsRecord = NoSite;
  /// Recorded on a thread started at OtherThreadStart that the waiting
  /// thread has not waited for on the host (NoSite: none).
  SiteId OtherThreadRecord = NoSite;
  SiteId OtherThreadStart = NoSite;
  SiteId site() const { return Wait; }
};

/// Host code touches memory a non_blocking copy may still be using.
struct HostReadBeforeSync {
  VarId Tensor = NoVar;
  SiteId HostAccess = NoSite;
  bool Write = false; ///< the host writes what the copy may still read
  AccessInfo Copy;    ///< the non_blocking copy that may still run
  SiteId site() const { return HostAccess; }
};

/// The capture in progress a graph-capture finding is about.
struct CaptureInfo {
  SiteId Begin = NoSite; ///< where it began
  StreamDesc Stream;     ///< the capturing stream
  CaptureMode Mode = CaptureMode::Global;
};

/// The rules of CUDA stream capture, one struct per rule broken.
namespace capture {

/// A forked stream's last work is not joined back at the capture's end.
struct Unjoined {
  SiteId End = NoSite; ///< where the capture ends (and fails)
  StreamDesc Forked;
  /// The wait that made the forked stream part of the capture.
  SiteId ForkedAt = NoSite;
  SiteId LastWork = NoSite;
  SiteId site() const { return End; }
};

/// The host waits for a capturing stream or for the whole device.
struct HostSync {
  SiteId Call = NoSite;
  std::optional<StreamDesc> Waited; ///< none: the whole device
  SiteId site() const { return Call; }
};

/// The host waits for a stream outside the capture: the mode forbids it.
struct ForbiddenSync {
  SiteId Call = NoSite;
  StreamDesc Waited;
  SiteId site() const { return Call; }
};

/// The host waits for or queries an event recorded inside the capture.
struct CapturedEvent {
  SiteId Call = NoSite;
  VarId Event = NoVar;
  SiteId RecordedAt = NoSite;
  SiteId site() const { return Call; }
};

/// A call the capture refuses: a query of a capturing stream, or an
/// allocation the mode forbids.
struct Restricted {
  SiteId Call = NoSite;
  std::optional<StreamDesc> Queried; ///< none: an allocation
  SiteId site() const { return Call; }
};

/// A query of, or a host wait on, a stream or event outside the capture,
/// in a mode that forbids every such call.
struct ForbiddenQuery {
  SiteId Call = NoSite;
  std::optional<StreamDesc> Stream; ///< the stream queried
  VarId Event = NoVar;              ///< or the event queried or waited on
  bool HostWait = false;            ///< a wait, not a query
  SiteId site() const { return Call; }
};

/// A stream of the capture waits on an event recorded outside it.
struct OutsideEventWait {
  SiteId Call = NoSite;
  VarId Event = NoVar;
  SiteId RecordedAt = NoSite; ///< the last record, outside the capture
  StreamDesc Waiter;
  /// The event stands for a stream the waiter waits for (Python's
  /// wait_stream): that stream.
  std::optional<StreamDesc> WaitedStream;
  SiteId site() const { return Call; }
};

/// Work on a stream that is certainly not part of the capture.
struct Uncaptured {
  AccessInfo Work;
  SiteId site() const { return Work.Site; }
};

/// Work on the legacy default stream while capturing.
struct LegacyStream {
  AccessInfo Work;
  SiteId site() const { return Work.Site; }
};

/// A capture begun on the legacy default stream.
struct DefaultStreamCapture {
  /// The capture_begin call; its stream is the default stream, and where
  /// the current stream was set when the capture begins on it.
  AccessInfo Begin;
  SiteId site() const { return Begin.Site; }
};

} // namespace capture

/// Which rule of stream capture is broken, with its sites.
using CaptureProblem =
    std::variant<capture::Unjoined, capture::HostSync, capture::ForbiddenSync,
                 capture::CapturedEvent, capture::Restricted,
                 capture::ForbiddenQuery, capture::OutsideEventWait,
                 capture::Uncaptured, capture::LegacyStream,
                 capture::DefaultStreamCapture>;

/// A rule of CUDA stream capture broken while Capture is in progress.
struct GraphCapture {
  CaptureInfo Capture;
  CaptureProblem Problem;
  SiteId site() const {
    return std::visit([](const auto &P) { return P.site(); }, Problem);
  }
};

/// A local variable a note points at, and where it is declared.
struct DeclaredVar {
  VarId Var = NoVar;
  SiteId Declared = NoSite;
};

/// CUDA work issued on a default stream instead of PyTorch's current
/// stream. Found by syntax alone (lib/frontend/DefaultStreamLaunch.h), not
/// by the engine.
struct DefaultStreamLaunch {
  WorkKind Work = WorkKind::KernelLaunch;
  /// Where the work is spelled, or the use of the project's macro.
  SiteId At = NoSite;
  /// The runtime or library function called; empty for a kernel launch.
  std::string Api;
  /// For a synchronous copy or set: its stream-ordered alternative.
  std::string AsyncApi;
  /// Where the stream comes from (Omitted for a synchronous call).
  StreamOrigin Origin = StreamOrigin::Omitted;
  /// The local variable the stream was read from (Origin is its
  /// initializer's).
  DeclaredVar StreamVar;
  /// A thrust algorithm's policy without a stream, and the local variable
  /// it was read from.
  ThrustPolicy Policy = ThrustPolicy::None;
  DeclaredVar PolicyVar;
  /// A local variable declared before the work that holds PyTorch's
  /// current stream the work does not use.
  DeclaredVar UnusedCurrentStream;
  /// Work written in the body of the project's macro: the body, and the
  /// macro's name (At is then the macro's use).
  SiteId MacroBody = NoSite;
  std::string MacroName;
  /// A call of the project's function (Api) that runs its work on the
  /// stream parameter given a default stream: each function on the way
  /// (the callee first), its parameter, and where it passes the parameter
  /// on (PassedTo) or issues the work (the last step: Work and WorkApi).
  struct Step {
    std::string Function;
    std::string Param;
    SiteId At = NoSite;
    std::string PassedTo;
    WorkKind Work = WorkKind::StreamApi;
    std::string WorkApi;
  };
  std::vector<Step> Through;
  /// The parameter left to its default (Origin is Omitted): what the default
  /// is (Null, Legacy, ...).
  StreamOrigin DefaultArgument = StreamOrigin::Unknown;
  /// Through a member of the called method's object that nothing in the
  /// translation unit sets (Through.front().Param names it): where it is
  /// initialized (Origin: with what), and a function that would set it but
  /// is never called (empty: none).
  SiteId MemberInitializedAt = NoSite;
  std::string UncalledSetter;
  SiteId UncalledSetterAt = NoSite;
  SiteId site() const { return At; }
};

} // namespace finding

/// The kinds of finding, one per check (lib/report/CheckNames.h), in the
/// order of Finding::Details' alternatives.
enum class FindingKind {
  UnsynchronizedAccess,
  MissingRecordStream,
  ThreadCurrentStream,
  UnrestoredCurrentStream,
  UnrecordedEventWait,
  HostReadBeforeSync,
  GraphCapture,
  DefaultStreamLaunch
};

struct Finding {
  using Kinds =
      std::variant<finding::UnsynchronizedAccess, finding::MissingRecordStream,
                   finding::ThreadCurrentStream,
                   finding::UnrestoredCurrentStream,
                   finding::UnrecordedEventWait, finding::HostReadBeforeSync,
                   finding::GraphCapture, finding::DefaultStreamLaunch>;

  explicit Finding(Kinds D) : Details(std::move(D)) {}

  FindingKind kind() const { return FindingKind(Details.index()); }
  /// The details of kind \p T, null when the finding is of another kind.
  template <class T> const T *as() const { return std::get_if<T>(&Details); }
  /// Where the finding is (a race between a caller and a helper is worded
  /// at the call instead).
  SiteId site() const {
    return std::visit([](const auto &D) { return D.site(); }, Details);
  }
  /// The tensor or event the finding is about (NoVar: none, or another
  /// kind of subject).
  VarId subject() const {
    if (const auto *X = as<finding::UnsynchronizedAccess>())
      return X->Tensor;
    if (const auto *X = as<finding::MissingRecordStream>())
      return X->Tensor;
    if (const auto *X = as<finding::HostReadBeforeSync>())
      return X->Tensor;
    if (const auto *X = as<finding::UnrecordedEventWait>())
      return X->Event;
    return NoVar;
  }

  Kinds Details;
  /// When the finding is in a helper run in place: the call, in the analysed
  /// function, through which it was reached.
  SiteId CallSite = NoSite;
  /// The branches on never-changing values that every path it was found
  /// on takes the same way (the first test of each value on the path):
  /// "when this is true", in a note.
  llvm::SmallVector<Assumption, 1> Path;
};

constexpr unsigned FindingKindCount = std::variant_size_v<Finding::Kinds>;

/// Finding::kind() names the alternative held: each kind is its index.
template <FindingKind K, class T>
constexpr bool KindIndexes = std::is_same_v<
    std::variant_alternative_t<static_cast<size_t>(K), Finding::Kinds>, T>;
static_assert(
    KindIndexes<FindingKind::UnsynchronizedAccess,
                finding::UnsynchronizedAccess> &&
        KindIndexes<FindingKind::MissingRecordStream,
                    finding::MissingRecordStream> &&
        KindIndexes<FindingKind::ThreadCurrentStream,
                    finding::ThreadCurrentStream> &&
        KindIndexes<FindingKind::UnrestoredCurrentStream,
                    finding::UnrestoredCurrentStream> &&
        KindIndexes<FindingKind::UnrecordedEventWait,
                    finding::UnrecordedEventWait> &&
        KindIndexes<FindingKind::HostReadBeforeSync,
                    finding::HostReadBeforeSync> &&
        KindIndexes<FindingKind::GraphCapture, finding::GraphCapture> &&
        KindIndexes<FindingKind::DefaultStreamLaunch,
                    finding::DefaultStreamLaunch> &&
        FindingKindCount ==
            static_cast<unsigned>(FindingKind::DefaultStreamLaunch) + 1,
    "FindingKind follows Finding::Kinds");

/// The earlier site a finding pairs with its own: the access it races
/// with, the allocation, the copy, the record on some paths, the fork;
/// NoSite for a kind that pairs none. (Whether the two are in one helper
/// decides where a finding in a helper is reported.)
inline SiteId pairedSite(const Finding &F) {
  if (const auto *X = F.as<finding::UnsynchronizedAccess>())
    return X->Prior.Site;
  if (const auto *X = F.as<finding::MissingRecordStream>())
    return X->Allocation.Site;
  if (const auto *X = F.as<finding::UnrecordedEventWait>())
    return X->SomePathsRecord;
  if (const auto *X = F.as<finding::HostReadBeforeSync>())
    return X->Copy.Site;
  if (const auto *X = F.as<finding::GraphCapture>())
    if (const auto *U = std::get_if<finding::capture::Unjoined>(&X->Problem))
      return U->ForkedAt;
  return NoSite;
}

} // namespace streamsafe

#endif // STREAMSAFE_LIB_IR_FINDINGS_H
