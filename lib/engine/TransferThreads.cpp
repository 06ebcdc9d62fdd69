//===--- TransferThreads.cpp - Callables run here or on other threads -----===//
//
// The current stream is thread-local (docs/api-model.md, threads): a new
// thread starts on the default stream whatever guard its spawner had; an
// executor's worker thread runs on the stream it bound for itself; a lambda
// called in place runs here, on the current stream as it is.
//
// The host code of two threads is ordered only by a host wait: an event the
// body records is the spawner's once it joins the thread (or gets the
// task's future, or waits on a signal the body gave after the record).
//
//===----------------------------------------------------------------------===//

#include "lib/engine/Transfer.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe {

// The spawner's variables, each naming what the body left it naming (a
// variable captured by reference and assigned there); the body's own
// variables are not the spawner's.
static TensorVarMap adoptBindings(const TensorVarMap &Spawner,
                                  const TensorVarMap &Body,
                                  const Function &IR) {
  TensorVarMap Result = Spawner;
  // A member or global the body bound (`buf_ = t` in a method) stays bound
  // for the caller: it is the object's, not the body's.
  TensorVarMap::diff(
      Spawner, Body,
      [&](VarId V, const StorageId *Mine, const StorageId *Theirs) {
        if (Theirs && (Mine || IR.var(V).Persistent))
          Result.set(V, *Theirs);
      });
  return Result;
}

// The events \p After holds that differ from \p Before.
static std::map<VarId, EventState>
changedEvents(const std::map<VarId, EventState> &Before,
              const std::map<VarId, EventState> &After) {
  std::map<VarId, EventState> Changed;
  for (const auto &[V, E] : After)
    if (auto It = Before.find(V); It == Before.end() || !(It->second == E))
      Changed.emplace(V, E);
  return Changed;
}

void Transfer::unseenBody(StreamState &S) {
  auto All = [](StorageId, const Access &) { return true; };
  completeWhere(S, All);
  if (S.Uncaptured) {
    std::swap(S.Tensors, *S.Uncaptured);
    completeWhere(S, All);
    std::swap(S.Tensors, *S.Uncaptured);
  }
  S.Events.clear();
  S.Deferred.clear();
  S.Signalled.clear();
  S.Quiet.enqueued(StreamTable::Unknown);
}

void Transfer::deferRecords(const fact::Spawn &X, SiteId At, StreamState &S,
                            StreamState &Exit) {
  // An event the body let go (handed to unseen code) is not followed here
  // either.
  for (auto It = S.Events.begin(); It != S.Events.end();)
    It = Exit.Events.count(It->first) ? std::next(It) : S.Events.erase(It);
  // Threads the body spawned and did not wait for are not waited for here.
  for (HostRecords &R : Exit.Deferred)
    if (llvm::none_of(S.Deferred,
                      [&](const HostRecords &H) { return H.sameKey(R); }))
      S.Deferred.push_back(std::move(R));
  if (X.Joinable == NoVar && Exit.Signalled.empty()) {
    // No way to wait for the body is known: it is taken as done here.
    S.Events = std::move(Exit.Events);
    return;
  }
  // A signal's entry is kept even when it holds nothing: a wait on it then
  // orders after what the body did before the signal, and no more.
  auto Defer = [&](VarId Channel, const std::map<VarId, EventState> &Events,
                   bool KeepEmpty) {
    HostRecords R{Channel, At, changedEvents(S.Events, Events)};
    if (R.Events.empty() && !KeepEmpty)
      return;
    llvm::erase_if(S.Deferred,
                   [&](const HostRecords &H) { return H.sameKey(R); });
    S.Deferred.push_back(std::move(R));
  };
  for (const HostRecords &Signal : Exit.Signalled)
    Defer(Signal.Channel, Signal.Events, /*KeepEmpty=*/true);
  Defer(X.Joinable, Exit.Events, /*KeepEmpty=*/false);
}

void Transfer::apply(const Fact &F, const fact::HostSignal &X, StreamState &S) {
  llvm::erase_if(S.Signalled,
                 [&](const HostRecords &H) { return H.Channel == X.Channel; });
  S.Signalled.push_back({X.Channel, F.Site, S.Events});
}

void Transfer::apply(const Fact &, const fact::HostWait &X, StreamState &S) {
  // A wait on what no thread we follow signals may be for any of them
  // (a future handed in, a thread kept elsewhere): precision first.
  bool Any = X.Channel == NoVar ||
             llvm::none_of(S.Deferred, [&](const HostRecords &R) {
               return R.Channel == X.Channel;
             });
  // Oldest first: a later thread's record of the same event wins.
  llvm::erase_if(S.Deferred, [&](HostRecords &R) {
    if (!Any && R.Channel != X.Channel)
      return false;
    for (auto &[V, E] : R.Events)
      S.Events[V] = std::move(E);
    return true;
  });
}

void Transfer::apply(const Fact &F, const fact::Spawn &X, StreamState &S) {
  if (!RunBody)
    return;
  if (X.InPlace) {
    // Called here: same thread, same current stream; what it sets persists.
    SiteId Outer = OuterCall;
    if (X.Callee && OuterCall == NoSite)
      OuterCall = F.Site;
    StreamState Exit = RunBody(X.Body, S, X.Callee ? F.Site : NoSite);
    OuterCall = Outer;
    if (!Exit.Reachable)
      return;
    // What the body's own variables were on its paths is not the caller's
    // to keep: the next call binds them anew.
    llvm::erase_if(Exit.Assumed, [&](const Assumption &A) {
      return A.Local && !llvm::is_contained(S.Assumed, A);
    });
    auto Guards = std::move(S.Guards);
    TensorVarMap TensorVars = adoptBindings(S.TensorVars, Exit.TensorVars, IR);
    auto StreamVars = std::move(S.StreamVars);
    S = std::move(Exit);
    S.Guards = std::move(Guards);
    for (auto &[V, Id] : StreamVars)
      if (auto It = S.StreamVars.find(V); It != S.StreamVars.end())
        Id = It->second;
    S.TensorVars = std::move(TensorVars);
    S.StreamVars = std::move(StreamVars);
    S.CollectAll = true; // the body's own variables are gone
    return;
  }
  StreamState Entry = S;
  Entry.Signalled.clear();
  Entry.Guards.clear();
  Entry.Unrestored.clear();
  Entry.CurrentSetAt = F.Site;
  Entry.ThreadStart = F.Site;
  Entry.SpawnerStream = S.Current;
  Entry.SpawnerSetAt = S.CurrentSetAt;
  Entry.Current = StreamTable::Default; // the current stream is thread-local
  // So are the current device and every device's current stream: which
  // device the thread is on is not followed.
  if (Entry.CurrentDevice != EntryDevice || !Entry.OtherDevices.empty()) {
    Entry.CurrentDevice = UnknownDevice;
    Entry.OtherDevices.clear();
  }
  // Another thread's work is not followed into this thread's capture (the
  // spawner's capture swapped its tensors for those of the work that runs
  // now: Transfer::runsNow).
  Entry.Capture = CaptureState();
  Entry.Uncaptured.reset();
  Entry.CaptureModes = ThreadCaptureMode(); // each thread has its own
  if (X.HasExecutor) {
    // The executor's worker thread runs on the stream it bound at start.
    Entry.Current = X.ExecutorKnown
                        ? Streams.get(StreamKind::Executor,
                                      keyOf(KeySpace::Object, X.Executor))
                        : StreamTable::Unknown;
    if (X.ExecutorName != NoVar)
      Streams.nameBy(Entry.Current, X.ExecutorName);
    Entry.SpawnerStream = StreamTable::Unknown;
  }
  StreamState Exit = RunBody(X.Body, Entry, NoSite);
  if (!Exit.Reachable) {
    // A worker that never returns, or a body nested too deep to be run:
    // the events it may record are no longer followed.
    S.Events.clear();
    return;
  }
  // Model the body as done by the next statement: its accesses flow back;
  // the spawner's stream and guards are its own. Its event records do too,
  // unless the spawner has a way to wait for it (then they are deferred to
  // that wait).
  deferRecords(X, F.Site, S, Exit);
  S.Tensors = std::move(Exit.Tensors);
  // Variables of the spawner that the body assigned (captured by reference).
  S.TensorVars = adoptBindings(S.TensorVars, Exit.TensorVars, IR);
  S.CollectAll = true;
  for (auto &[V, Id] : S.StreamVars)
    if (auto It = Exit.StreamVars.find(V); It != Exit.StreamVars.end())
      Id = It->second;
}

} // namespace streamsafe
