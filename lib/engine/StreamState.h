//===--- StreamState.h - The dataflow lattice --------------------*- C++
//-*-===//
//
// The state at a program point: the current stream, what each variable
// denotes, and for each tensor storage its pending accesses with the set of
// streams each is already visible to. Join intersects "visible to" and unions
// pending accesses (must-sync, may-race); everything is finite per function
// (sites, streams, variables), so loops converge.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_ENGINE_STREAMSTATE_H
#define STREAMSAFE_LIB_ENGINE_STREAMSTATE_H

#include "lib/engine/CaptureState.h"
#include "lib/engine/PersistentMap.h"
#include "lib/engine/QuietOrders.h"
#include "lib/engine/StreamTable.h"
#include "lib/ir/Findings.h"
#include "lib/ir/IR.h"
#include "lib/ir/Sites.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>

namespace streamsafe {

using StorageId = unsigned;

/// Devices, for code that uses several: a constant index, or one of these.
/// EntryDevice: the device current at entry (its index is not known).
/// UnknownDevice: paths that made different devices current met.
constexpr int8_t EntryDevice = -1;
constexpr int8_t UnknownDevice = -2;

/// One enqueued access that may still be running.
struct Access {
  SiteId Site = NoSite;
  StreamId Stream = StreamTable::Unknown;
  uint64_t VisibleTo = 0; ///< streams ordered after it (bit per StreamId)
  AccessMode Mode = AccessMode::Read;
  SiteId StreamSetAt = NoSite;
  bool OnCurrent = false;
  Region Part; ///< the part of the storage it touches
  /// Made by a CUDA graph's replay: where the graph captured it (else
  /// NoSite), and the graph.
  SiteId CapturedAt = NoSite;
  VarId Graph = NoVar;
  /// Made in a helper run in place: the call in the analysed function that
  /// ran it (for a note; not part of the state's identity).
  SiteId Via = NoSite;
  /// In a tensor that is host memory on one path and device memory on
  /// another: made on the device path. Host code never races with it; a
  /// copy on a stream does (on that path it reads or writes the device
  /// memory).
  bool DeviceOnly = false;

  bool visibleTo(StreamId S) const {
    return Stream == S || (VisibleTo & StreamTable::bit(S));
  }
  bool operator==(const Access &O) const {
    return Site == O.Site && Stream == O.Stream && VisibleTo == O.VisibleTo &&
           Mode == O.Mode && StreamSetAt == O.StreamSetAt &&
           OnCurrent == O.OnCurrent && Part == O.Part &&
           CapturedAt == O.CapturedAt && Graph == O.Graph &&
           DeviceOnly == O.DeviceOnly;
  }
};
using AccessList = llvm::SmallVector<Access, 2>;

struct TensorState {
  AccessList Writes; ///< the last write(s) (several after a join)
  AccessList Reads;  ///< reads since the last write
  AccessList
      CrossStreamUses; ///< uses on streams other than the allocation stream
  StreamId AllocStream = StreamTable::Unknown;
  SiteId AllocSite = NoSite;
  /// Allocated in a helper run in place: the analysed function's call that
  /// ran it (NoSite: its own code, or another method's).
  SiteId AllocVia = NoSite;
  /// Not seen made: a parameter, taken to be allocated on the caller's
  /// current stream where it is ready (AllocSite is the parameter).
  bool AllocAssumed = false;
  bool Escaped = false;
  bool Host = false; ///< host memory: accesses by host code are checked
  /// Pinned host memory: only copies to and from it can be asynchronous
  /// (a copy with pageable memory returns when the host may touch it).
  bool Pinned = false;
  /// An undefined tensor: no memory. Where paths meet, the other path's
  /// tensor is what the variable holds (a loop's first iteration).
  bool Undefined = false;
  /// (With Undefined) a block given back to the caching allocator at
  /// FreedAt while CrossStreamUses were not ordered before its next
  /// allocation on AllocStream: judged there, or at the exit.
  bool Freed = false;
  SiteId FreedAt = NoSite;
  /// (Freed or Left) the storage it was (events covered it there).
  StorageId FreedFrom = 0;
  /// The caller's or its object's (fact::Allocate::Held): it outlives the
  /// call.
  bool Held = false;
  /// (With Undefined) such a tensor the function let go of at FreedAt with
  /// Writes still in flight: judged at the exit (Diagnoser::leftForCaller).
  bool Left = false;
  /// Where the free happened: the path and the call (Transfer::freeContext).
  unsigned FreedIn = 0;
  /// The device it was allocated on, when a constant said so (ATen ops on
  /// it run on that device's current stream); EntryDevice: not known, the
  /// current device is assumed.
  int8_t Device = EntryDevice;
  /// Streams (bit per StreamId) the block was recorded on with
  /// record_stream: the allocator waits for their work at the free,
  /// however late it was enqueued, so later uses there are covered too.
  uint64_t RecordedOn = 0;
  /// Allocated without values (empty*()) and, but for the parts in
  /// Filled, written by nothing since: code that does not read memory
  /// nobody wrote must fill what it is handed of it.
  bool Blank = false;
  llvm::SmallVector<Region, 1> Filled;
  /// Whether no write may have touched \p Part since the allocation.
  bool blank(const Region &Part) const {
    return Blank && llvm::none_of(Filled, [&](const Region &R) {
             return R.mayOverlap(Part);
           });
  }
  /// A write of \p Part: what of the block is no longer blank.
  void fill(const Region &Part);
  bool operator==(const TensorState &O) const {
    return Writes == O.Writes && Reads == O.Reads &&
           CrossStreamUses == O.CrossStreamUses && RecordedOn == O.RecordedOn &&
           AllocStream == O.AllocStream && AllocSite == O.AllocSite &&
           AllocVia == O.AllocVia && AllocAssumed == O.AllocAssumed &&
           Escaped == O.Escaped && Host == O.Host && Pinned == O.Pinned &&
           Undefined == O.Undefined && Freed == O.Freed && Held == O.Held &&
           Left == O.Left && FreedAt == O.FreedAt && FreedFrom == O.FreedFrom &&
           FreedIn == O.FreedIn && Device == O.Device && Blank == O.Blank &&
           Filled == O.Filled;
  }
};

/// What sweeps over the tensors look for: accesses in flight (the only
/// thing synchronisation changes) and streams some access is not yet
/// visible to (the only thing an event wait changes).
struct PendingSummary {
  bool Pending = false;
  bool HasCrossStreamUses = false;
  uint64_t NotVisibleTo = 0; ///< bit per stream
  /// A freed block still to judge (TensorState::Freed): the sweeps at
  /// each allocation visit only these.
  bool HasFreed = false;
  PendingSummary operator|(const PendingSummary &O) const {
    return {Pending || O.Pending, HasCrossStreamUses || O.HasCrossStreamUses,
            NotVisibleTo | O.NotVisibleTo, HasFreed || O.HasFreed};
  }
};
struct TensorSummary {
  using Summary = PendingSummary;
  static PendingSummary summary(const TensorState &T) {
    PendingSummary S;
    S.HasCrossStreamUses = !T.CrossStreamUses.empty();
    S.HasFreed = T.Freed && S.HasCrossStreamUses;
    for (const AccessList *L : {&T.Writes, &T.Reads, &T.CrossStreamUses})
      for (const Access &A : *L) {
        S.Pending = true;
        S.NotVisibleTo |= ~A.VisibleTo;
      }
    return S;
  }
};
using TensorMap = PersistentMap<StorageId, TensorState, TensorSummary>;
using TensorVarMap = PersistentMap<VarId, StorageId>;

/// An access an event record captured: (storage, site).
using CoveredAccess = std::pair<StorageId, SiteId>;

struct EventState {
  bool MustRecorded = false;
  bool MayRecorded = false;
  bool CoversAll = false; ///< recorded on an unknown stream: assume it covers
  /// What the last record captured: every access visible to RecordedOn in
  /// the tensors as they were then. A snapshot is one pointer (the map
  /// shares structure), so a record costs nothing however many accesses are
  /// in flight; where paths with different records meet, the accesses all
  /// of them captured are listed instead (Covers).
  std::optional<TensorMap> Snapshot;
  StreamId RecordedOn = StreamTable::Unknown;
  /// The streams RecordedOn may be (StreamTable::mayBe): an access visible
  /// to any of them may be what the record captured.
  uint64_t MayBe = 0;
  llvm::SmallVector<CoveredAccess, 4> Covers; ///< sorted, unique
  SiteId LastRecord = NoSite;
  SiteId Declared = NoSite;

  bool covers(CoveredAccess C) const;
  /// Turns a snapshot into the list of what it covers.
  void materialize();
  /// A new access of storage C.first at site C.second (a loop ran the site
  /// again): the record before it does not cover it, though it covered the
  /// access the same site made before.
  void forget(CoveredAccess C);
  /// Keeps only what every path on which an access is in flight recorded
  /// after it (\p Mine and \p Theirs: the tensors as the two paths left
  /// them); with \p Coarse, only what both records listed (monotone: for
  /// loop heads).
  void intersectCovers(const EventState &O, const TensorMap &Mine,
                       const TensorMap &Theirs, bool Coarse);
  bool operator==(const EventState &O) const;
};

/// Event records another thread made that this one has not waited for on
/// the host: until it waits on Channel (NoVar: only a wait on anything),
/// this thread sees those events as they were before the spawn. Inside a
/// thread body, also the events as a host signal on Channel left them.
struct HostRecords {
  VarId Channel = NoVar;
  SiteId Spawn = NoSite;
  std::map<VarId, EventState> Events;
  bool sameKey(const HostRecords &O) const {
    return Channel == O.Channel && Spawn == O.Spawn;
  }
  bool operator==(const HostRecords &O) const {
    return sameKey(O) && Events == O.Events;
  }
};
using HostRecordList = llvm::SmallVector<HostRecords, 0>;

/// What a CUDA graph does to one storage at each replay: a write or a
/// read (the strongest of what it captured), first captured at Site.
struct CapturedAccess {
  StorageId Storage = 0;
  VarId Named = NoVar; ///< the storage's name in messages
  AccessMode Mode = AccessMode::Read;
  SiteId Site = NoSite;
  VarId Graph = NoVar; ///< the graph captured into (its executable replays)
  bool operator==(const CapturedAccess &O) const {
    return Storage == O.Storage && Named == O.Named && Mode == O.Mode &&
           Site == O.Site && Graph == O.Graph;
  }
};
/// A graph's recorded work, by storage (sorted).
using GraphWork = llvm::SmallVector<CapturedAccess, 4>;

struct GuardState {
  StreamId Saved = StreamTable::Unknown;
  SiteId SavedSetAt = NoSite;
  /// A device guard: it restores SavedDevice (not a stream) at its exit.
  bool DeviceGuard = false;
  int8_t SavedDevice = EntryDevice;
  /// A stream guard whose stream belongs to another device: it made that
  /// device current, and restores SavedDevice after the stream.
  bool SwitchedDevice = false;
  bool operator==(const GuardState &O) const {
    return Saved == O.Saved && SavedSetAt == O.SavedSetAt &&
           DeviceGuard == O.DeviceGuard && SavedDevice == O.SavedDevice &&
           SwitchedDevice == O.SwitchedDevice;
  }
};

/// The current stream of a device that is not the current one, as a device
/// switch left it.
struct DeviceStream {
  int8_t Device = EntryDevice;
  StreamId Stream = StreamTable::Unknown;
  SiteId SetAt = NoSite;
  bool operator==(const DeviceStream &O) const {
    return Device == O.Device && Stream == O.Stream && SetAt == O.SetAt;
  }
};

struct StreamState {
  bool Reachable = false;
  StreamId Current = StreamTable::Unknown;
  SiteId CurrentSetAt = NoSite;
  /// The device Current belongs to. Each device has its own current stream:
  /// those of the devices a device guard switched away from are in
  /// OtherDevices, which stays empty (no cost) in single-device code.
  int8_t CurrentDevice = EntryDevice;
  llvm::SmallVector<DeviceStream, 0> OtherDevices;
  std::map<VarId, StreamId> StreamVars;
  /// Stream variables bound to None on every path here (sorted; Python's
  /// `s = None`, an optional stream not given).
  llvm::SmallVector<VarId, 0> NoneStreams;
  /// Grow with the function (every tensor variable in scope, every storage
  /// alive): persistent, so states of neighbouring blocks share them.
  TensorVarMap TensorVars;
  TensorMap Tensors;
  std::map<VarId, EventState> Events;
  std::map<VarId, GuardState> Guards;
  /// setCurrentCUDAStream calls that may still be in effect (may: union).
  llvm::SmallVector<SiteId, 2> Unrestored;
  /// Streams (bit per StreamId) the host saw drain, with nothing enqueued
  /// on them since, on every path (must: intersection): no earlier work of
  /// theirs can still use a block the allocator hands out now.
  uint64_t Idle = 0;
  /// Streams a stream waited for with nothing enqueued on them since: an
  /// allocation there is ordered before the waiter's work (QuietOrders.h).
  QuietOrders Quiet;
  /// What the branches taken to get here tell about variables that never
  /// change (sorted by variable): paths that contradict each other are kept
  /// apart by the solver, so an infeasible combination is never followed.
  llvm::SmallVector<Assumption, 2> Assumed;
  /// Streams made to wait for themselves (`s.wait_stream(current_stream())`
  /// while s is current), with where (sorted by stream; may: union): such a
  /// wait orders nothing, which a race on that stream's work then says.
  llvm::SmallVector<std::pair<StreamId, SiteId>, 1> SelfWaits;
  /// Streams made to wait for the default stream, with where (the same
  /// way): that orders the caller's work only where the caller's stream is
  /// the default one, which a race with the caller's work then says.
  llvm::SmallVector<std::pair<StreamId, SiteId>, 1> DefaultWaits;
  /// Inside a thread body: where it was spawned, and the spawner's stream.
  SiteId ThreadStart = NoSite;
  StreamId SpawnerStream = StreamTable::Unknown;
  SiteId SpawnerSetAt = NoSite;
  /// Records of threads not yet waited for (usually empty: no cost).
  HostRecordList Deferred;
  /// Inside a thread body: the events as each host signal left them.
  HostRecordList Signalled;
  /// The CUDA graph capture in progress, if any (CaptureState.h).
  CaptureState Capture;
  /// This thread's capture interaction mode.
  ThreadCaptureMode CaptureModes;
  /// While a capture is followed (Capture.active()): the tensors as the
  /// work that runs now leaves them. Tensors then holds what the capture
  /// records, which runs only at a replay: it starts with nothing pending,
  /// so captured work is ordered only with captured work.
  std::optional<TensorMap> Uncaptured;
  /// What each graph object recorded (by its variable), for its replays.
  std::map<VarId, GraphWork> Graphs;
  /// Storages that may have lost their last variable since the last
  /// garbage collection (or all of them, after a thread body returned).
  /// Bookkeeping, not part of the lattice: ignored by == and join.
  llvm::SmallVector<StorageId, 4> Unheld;
  bool CollectAll = false;

  bool operator==(const StreamState &O) const;
  /// Equal but for the branch outcomes each path assumed.
  bool sameBesidesAssumed(const StreamState &O) const;
  bool operator!=(const StreamState &O) const { return !(*this == O); }
  /// Join: this := this ⊔ O, true of both paths (the finer join of event covers
  /// is used away from loop heads, see intersectCovers). A tensor variable that
  /// names different storages on the two paths names the storage \p PhiFor
  /// gives for it afterwards, with both storages' states joined; without \p
  /// PhiFor such a variable is dropped (no longer followed). Returns the number
  /// of entries that differed (the work done). \p Coarse: see intersectCovers.
  unsigned join(
      const StreamState &O,
      const std::function<StorageId(VarId, VarId, StorageId)> &PhiFor = nullptr,
      bool Coarse = false);
};

//===-- Captured work (CapturedTensors.cpp) --------------------------===//

/// A capture begins: the tensors as they are move to Uncaptured, and the
/// captured view starts with nothing pending.
void beginCapturedTensors(StreamState &S);
/// The capture ends, or is no longer followed: the tensors are those of
/// Uncaptured again, with the storages the capture allocated (their work
/// runs at a replay: nothing of it is pending now).
void endCapturedTensors(StreamState &S);
/// What the captured view holds pending: the graph's work. \p NameOf
/// gives a storage's name.
GraphWork capturedWork(const TensorMap &Captured, VarId Graph,
                       const std::function<VarId(StorageId)> &NameOf);
/// Paths meet: a graph holds what it recorded on either path.
void joinGraphs(std::map<VarId, GraphWork> &Into,
                const std::map<VarId, GraphWork> &From);
/// Storages: union, joining those both maps hold (\p Skip: already
/// joined); returns the entries visited.
unsigned joinTensorMaps(TensorMap &Into, const TensorMap &From,
                        const std::function<bool(StorageId)> &Skip = nullptr);

/// Folds an access list that grew long: accesses alike (same stream, same
/// "visible to", same mode) stay alike whatever later orders or completes
/// them, so the newest stands for all of them.
void foldAlikeAccesses(AccessList &L);
/// Adds \p A to \p L, replacing the access of the same site (a loop's).
void addOrReplaceAccess(AccessList &L, const Access &A);

/// Merges two access lists: same site kept once, visible only to streams
/// both paths made it visible to.
void joinAccesses(AccessList &Into, const AccessList &From);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_ENGINE_STREAMSTATE_H
