//===--- ThreadTable.h - Threads and host channels of a scope ---*- C++ -*-===//
//
// The state of Threads.cpp and HostOrder.cpp: the body of each lambda run on
// a thread, the threads made and not yet started, and the variables that
// stand for host channels (a thread joined, an event set, a future waited
// on). One table per analysed scope.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_THREADTABLE_H
#define STREAMSAFE_LIB_PYTHON_THREADTABLE_H

#include "lib/ir/IR.h"
#include "llvm/ADT/FunctionExtras.h"
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace streamsafe::py {

struct Scope;

class ThreadTable {
public:
  /// The body of the lambda \p Def run on a thread, made by \p Make the
  /// first time.
  BodyId lambdaBody(const void *Def, llvm::function_ref<BodyId()> Make) {
    auto [It, New] = Lambdas.try_emplace(Def, 0);
    if (New)
      It->second = Make();
    return It->second;
  }

  /// The thread held by \p Owner's variable \p Var is made, to run
  /// \p Body where it is started.
  void madeUnstarted(const Scope *Owner, const std::string &Var, BodyId Body) {
    Unstarted[{Owner, Var}] = Body;
  }
  /// The body of the thread \p Owner's \p Var holds, not started (none:
  /// no such thread).
  std::optional<BodyId> unstarted(const Scope *Owner,
                                  const std::string &Var) const {
    auto It = Unstarted.find({Owner, Var});
    if (It == Unstarted.end())
      return std::nullopt;
    return It->second;
  }

  /// The variable of the host channel \p Text of \p Owner (null: `self.x`),
  /// made by \p Make the first time.
  VarId channel(const Scope *Owner, const std::string &Text,
                llvm::function_ref<VarId()> Make) {
    auto [It, New] = Channels.try_emplace({Owner, Text}, NoVar);
    if (New)
      It->second = Make();
    return It->second;
  }

private:
  std::map<const void *, BodyId> Lambdas;
  std::map<std::pair<const Scope *, std::string>, BodyId> Unstarted;
  std::map<std::pair<const Scope *, std::string>, VarId> Channels;
};

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_THREADTABLE_H
