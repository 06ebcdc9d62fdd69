//===--- TransferThreads.cpp - Callables run here or on other threads -----===//
//
// The current stream is thread-local (docs/api-model.md, threads): a new
// thread starts on the default stream whatever guard its spawner had; an
// executor's worker thread runs on the stream it bound for itself; a lambda
// called in place runs here, on the current stream as it is.
//
//===----------------------------------------------------------------------===//

#include "lib/engine/Transfer.h"

namespace streamsafe {

// The spawner's variables, each naming what the body left it naming (a
// variable captured by reference and assigned there); the body's own
// variables are not the spawner's.
static TensorVarMap adoptBindings(const TensorVarMap &Spawner,
                                  const TensorVarMap &Body) {
  TensorVarMap Result = Spawner;
  TensorVarMap::diff(
      Spawner, Body,
      [&](VarId V, const StorageId *Mine, const StorageId *Theirs) {
        if (Mine && Theirs)
          Result.set(V, *Theirs);
      });
  return Result;
}

void Transfer::apply(const Fact &F, const fact::Spawn &X, StreamState &S) {
  if (!RunBody)
    return;
  if (X.InPlace) {
    // Called here: same thread, same current stream; what it sets persists.
    StreamState Exit = RunBody(X.Body, S, X.Callee ? F.Site : NoSite);
    if (!Exit.Reachable)
      return;
    auto Guards = std::move(S.Guards);
    TensorVarMap TensorVars = adoptBindings(S.TensorVars, Exit.TensorVars);
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
  // Another thread's work is not followed into this thread's capture.
  Entry.Capture = CaptureState();
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
  if (!Exit.Reachable)
    return;
  // Model the body as done by the next statement: its accesses and event
  // records flow back; the spawner's stream and guards are its own.
  S.Tensors = std::move(Exit.Tensors);
  S.Events = std::move(Exit.Events);
  // Variables of the spawner that the body assigned (captured by reference).
  S.TensorVars = adoptBindings(S.TensorVars, Exit.TensorVars);
  S.CollectAll = true;
  for (auto &[V, Id] : S.StreamVars)
    if (auto It = Exit.StreamVars.find(V); It != Exit.StreamVars.end())
      Id = It->second;
}

} // namespace streamsafe
