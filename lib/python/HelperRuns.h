//===--- HelperRuns.h - Bodies run in place, and their queue ----*- C++ -*-===//
//
// The state of Helpers.cpp, HelperObjects.cpp and Threads.cpp: the helper
// bodies made for each def, object and argument shape, the scopes they are
// lowered in, and the queue of bodies still to lower (helpers and threads).
// One table per analysed scope; MaxInlinedCallees bounds it.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_HELPERRUNS_H
#define STREAMSAFE_LIB_PYTHON_HELPERRUNS_H

#include "lib/ir/IR.h"
#include "lib/python/Scope.h"
#include "lib/python/Syntax.h"
#include "llvm/ADT/FunctionExtras.h"
#include <cassert>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

namespace streamsafe::py {

class HelperIndex;
struct Instance;

/// A body made and still to lower: a helper run in place, or a thread's.
struct PendingBody {
  const Scope *S = nullptr;
  BodyId Id = 0;
  unsigned SiteScope = 0;
  const Instance *Self = nullptr;
  VarId ReturnTensor = NoVar, ReturnStream = NoVar, ReturnEvent = NoVar;
  /// A tuple it returns: a variable per item (NoVar: not a tensor).
  llvm::SmallVector<VarId, 4> ReturnItems = {};
  /// A @contextmanager generator's code before or after its yield,
  /// lowered instead of the whole body; before it, its locals live on.
  std::vector<TSNode> Part = {};
  bool KeepsLocals = false;
  TSNode Yield = {}; ///< the yield the parts split at
  int PartNo = 0;    ///< 1: before it, 2: after it
  /// A def of another module: that module's index (null: this file's).
  HelperIndex *Index = nullptr;
  /// Parameters every call this body stands for gives True or False.
  llvm::StringMap<bool> Constants = {};
};

class HelperRuns {
public:
  /// A helper run in place, by def, object and argument classes (events
  /// by variable: the helper's parameter is the caller's event).
  using Key = std::tuple<const void *, const Instance *, std::vector<unsigned>>;

  /// The body run for \p K (none: over MaxInlinedCallees); \p New: not
  /// decided yet (the caller sets it).
  std::optional<BodyId> &body(const Key &K, bool &New) {
    auto [It, Made] = Bodies.try_emplace(K, std::nullopt);
    New = Made;
    return It->second;
  }
  /// How many helper bodies are made.
  size_t helpers() const { return Helpers.size(); }

  /// The scope of helper \p K (shared by a generator's two parts) and its
  /// number, made by \p Make the first time; \p New: made by this call.
  std::pair<const Scope *, unsigned>
  scope(const Key &K, llvm::function_ref<std::unique_ptr<Scope>()> Make,
        bool &New) {
    auto [It, Made] = Scopes.try_emplace(K);
    New = Made;
    if (Made)
      It->second = {own(Make()), unsigned(Scopes.size())};
    return It->second;
  }

  /// Keeps \p S for the table's life.
  const Scope *own(std::unique_ptr<Scope> S) {
    Owned.push_back(std::move(S));
    return Owned.back().get();
  }
  /// The scope owned for the syntax node \p Node (null: none).
  const Scope *ownedScopeOf(const void *Node) const {
    for (const auto &S : Owned)
      if (S->Node.id == Node)
        return S.get();
    return nullptr;
  }

  /// \p P, a helper's body, is to be lowered; helper() finds it.
  void queueHelper(const PendingBody &P) {
    Helpers[P.Id] = P;
    Queue.push_back(P);
  }
  /// \p P, a thread's body, is to be lowered.
  void queue(const PendingBody &P) { Queue.push_back(P); }
  /// The next body to lower, in the order they were found (none: done).
  std::optional<PendingBody> next() {
    if (Queue.empty())
      return std::nullopt;
    PendingBody P = Queue.front();
    Queue.pop_front();
    return P;
  }
  /// The helper body \p Id (made by queueHelper).
  const PendingBody &helper(BodyId Id) const {
    auto It = Helpers.find(Id);
    assert(It != Helpers.end() && "not a helper's body");
    return It->second;
  }

  /// The code after a generator's yield, for the last part 1 run.
  std::optional<BodyId> ExitPart;

private:
  std::map<Key, std::optional<BodyId>> Bodies;
  std::map<BodyId, PendingBody> Helpers;
  std::map<Key, std::pair<const Scope *, unsigned>> Scopes;
  std::deque<PendingBody> Queue;
  std::vector<std::unique_ptr<Scope>> Owned;
};

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_HELPERRUNS_H
