//===--- CapturedTensors.cpp - Work a CUDA graph records ------------------===//
//
// While a stream captures, its work (and that of the streams forked into
// the capture) is recorded into the graph, not run: it runs at each replay,
// on the replay stream. So the accesses of captured work are kept apart
// from those of the work that runs now (StreamState::Uncaptured), ordered
// only with each other, and become the graph's work when the capture ends.
// docs/checks/graph-capture.md, "How it reasons".
//
//===----------------------------------------------------------------------===//

#include "lib/engine/StreamState.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe {

static bool anyPending(const PendingSummary &P) { return P.Pending; }

void beginCapturedTensors(StreamState &S) {
  S.Uncaptured = S.Tensors;
  S.Tensors.updateWhere(
      anyPending,
      [](StorageId, const TensorState &T) {
        return !T.Writes.empty() || !T.Reads.empty() ||
               !T.CrossStreamUses.empty();
      },
      [](StorageId, TensorState &T) {
        T.Writes.clear();
        T.Reads.clear();
        T.CrossStreamUses.clear();
      });
}

void endCapturedTensors(StreamState &S) {
  if (!S.Uncaptured)
    return;
  TensorMap Now = std::move(*S.Uncaptured);
  S.Uncaptured.reset();
  // Only the storages the capture touched differ from what runs now.
  const TensorMap Run = Now; // keeps the trie being diffed alive
  TensorMap::diff(
      S.Tensors, Run,
      [&](StorageId Id, const TensorState *Captured, const TensorState *Ran) {
        if (!Captured)
          return; // made by work that runs now
        if (!Ran) {
          // Allocated while capturing (from the graph's pool): its memory
          // is used by replays only.
          TensorState T = *Captured;
          T.Writes.clear();
          T.Reads.clear();
          T.CrossStreamUses.clear();
          Now.set(Id, std::move(T));
          return;
        }
        if (Captured->Escaped && !Ran->Escaped) {
          TensorState T = *Ran;
          T.Escaped = true;
          Now.set(Id, std::move(T));
        }
      });
  S.Tensors = std::move(Now);
}

GraphWork capturedWork(const TensorMap &Captured, VarId Graph,
                       const std::function<VarId(StorageId)> &NameOf) {
  GraphWork W;
  Captured.forEachWhere(anyPending, [&](StorageId Id, const TensorState &T) {
    const Access *First = nullptr;
    bool Writes = false;
    for (const AccessList *L : {&T.Writes, &T.Reads})
      for (const Access &A : *L) {
        if (A.Mode == AccessMode::EntryReady)
          continue;
        Writes |= A.Mode != AccessMode::Read;
        if (!First || A.Site < First->Site)
          First = &A;
      }
    if (!First)
      return;
    W.push_back({Id, NameOf(Id), Writes ? AccessMode::Write : AccessMode::Read,
                 First->Site, Graph});
  });
  return W; // forEachWhere visits in key order: sorted by storage
}

void joinGraphs(std::map<VarId, GraphWork> &Into,
                const std::map<VarId, GraphWork> &From) {
  for (const auto &[G, Theirs] : From) {
    auto [It, New] = Into.try_emplace(G, Theirs);
    if (New || It->second == Theirs)
      continue;
    GraphWork &Mine = It->second;
    for (const CapturedAccess &C : Theirs) {
      auto M = llvm::find_if(Mine, [&](const CapturedAccess &X) {
        return X.Storage == C.Storage;
      });
      if (M == Mine.end()) {
        Mine.push_back(C);
        continue;
      }
      if (C.Mode != AccessMode::Read)
        M->Mode = AccessMode::Write;
      M->Site = std::min(M->Site, C.Site);
    }
    llvm::sort(Mine, [](const CapturedAccess &L, const CapturedAccess &R) {
      return L.Storage < R.Storage;
    });
  }
}

} // namespace streamsafe
